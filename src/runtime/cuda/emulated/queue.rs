//! Streams and events of the emulated driver. A stream is an ordered queue of work run by a
//! thread of its own, so work runs asynchronously with respect to the host and streams overlap
//! each other; an event marks a point in a stream's queue, with the time it was reached.

use std::sync::mpsc::{channel, Sender};
use std::sync::Arc;
use std::time::Instant;

use parking_lot::{Condvar, Mutex};

/// Work a stream runs in turn.
pub type Task = Box<dyn FnOnce() + Send>;

/// One stream: tasks are run in submission order by its worker.
pub struct Queue {
    sender: Mutex<Sender<Task>>,
    /// (submitted, finished) task counts.
    progress: Mutex<(u64, u64)>,
    finished: Condvar,
}

impl Queue {
    /// A stream with its worker thread started.
    pub fn start() -> Arc<Queue> {
        let (sender, receiver) = channel::<Task>();
        let queue = Arc::new(Queue {
            sender: Mutex::new(sender),
            progress: Mutex::new((0, 0)),
            finished: Condvar::new(),
        });
        let worker = Arc::downgrade(&queue);
        std::thread::Builder::new()
            .name("mojo-emulated-stream".into())
            .spawn(move || {
                for task in receiver {
                    task();
                    let Some(queue) = worker.upgrade() else {
                        return;
                    };
                    queue.progress.lock().1 += 1;
                    queue.finished.notify_all();
                }
            })
            .expect("a stream's worker thread starts");
        queue
    }

    /// Queues `task` after everything submitted before.
    pub fn submit(&self, task: Task) {
        let mut progress = self.progress.lock();
        progress.0 += 1;
        // The worker lives as long as the queue's sender.
        let _ = self.sender.lock().send(task);
    }

    /// Whether every submitted task has finished.
    pub fn idle(&self) -> bool {
        let progress = self.progress.lock();
        progress.0 == progress.1
    }

    /// Waits until every task submitted so far has finished.
    pub fn synchronize(&self) {
        let mut progress = self.progress.lock();
        let target = progress.0;
        while progress.1 < target {
            self.finished.wait(&mut progress);
        }
    }
}

/// An event: each record is a generation; it is reached when its stream runs up to it.
pub struct Event {
    pub timing: bool,
    state: Mutex<EventState>,
    reached: Condvar,
}

#[derive(Default)]
struct EventState {
    recorded: u64,
    reached: u64,
    at: Option<Instant>,
}

impl Event {
    pub fn new(timing: bool) -> Arc<Event> {
        Arc::new(Event {
            timing,
            state: Mutex::new(EventState::default()),
            reached: Condvar::new(),
        })
    }

    /// Records the event at the current end of `queue`.
    pub fn record(self: &Arc<Self>, queue: &Queue) {
        let generation = {
            let mut state = self.state.lock();
            state.recorded += 1;
            state.recorded
        };
        let event = self.clone();
        queue.submit(Box::new(move || {
            let mut state = event.state.lock();
            if state.reached < generation {
                state.reached = generation;
                state.at = Some(Instant::now());
            }
            event.reached.notify_all();
        }));
    }

    /// Whether the last record was reached (an event never recorded is complete).
    pub fn complete(&self) -> bool {
        let state = self.state.lock();
        state.reached >= state.recorded
    }

    /// Waits for the record current when called.
    pub fn synchronize(&self) {
        let mut state = self.state.lock();
        let target = state.recorded;
        self.wait_for(&mut state, target);
    }

    fn wait_for(&self, state: &mut parking_lot::MutexGuard<'_, EventState>, generation: u64) {
        while state.reached < generation {
            self.reached.wait(state);
        }
    }

    /// Makes `queue`'s later work wait for the record current when called.
    pub fn block(self: &Arc<Self>, queue: &Queue) {
        let generation = self.state.lock().recorded;
        let event = self.clone();
        queue.submit(Box::new(move || {
            let mut state = event.state.lock();
            event.wait_for(&mut state, generation);
        }));
    }

    /// When the last record was reached: None while it is pending or never recorded.
    pub fn reached_at(&self) -> Option<Instant> {
        let state = self.state.lock();
        (state.recorded > 0 && state.reached >= state.recorded)
            .then_some(state.at)
            .flatten()
    }

    pub fn recorded(&self) -> bool {
        self.state.lock().recorded > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::time::Duration;

    /// Work runs after `submit` returns, in order; a waiting stream holds its later work until
    /// the event another stream records is reached; other streams go on meanwhile.
    #[test]
    fn streams_run_in_order_and_wait_for_events() {
        let (a, b) = (Queue::start(), Queue::start());
        let log = Arc::new(Mutex::new(Vec::new()));
        let gate = Arc::new(AtomicU32::new(0));
        let (l, g) = (log.clone(), gate.clone());
        a.submit(Box::new(move || {
            while g.load(Ordering::SeqCst) == 0 {
                std::thread::sleep(Duration::from_millis(1));
            }
            l.lock().push("a1");
        }));
        let event = Event::new(true);
        event.record(&a);
        event.block(&b);
        let l = log.clone();
        b.submit(Box::new(move || l.lock().push("b1")));
        assert!(!a.idle() && !b.idle() && !event.complete());
        // A third stream runs its work while the first is still held: streams overlap.
        let c = Queue::start();
        let l = log.clone();
        c.submit(Box::new(move || l.lock().push("c1")));
        c.synchronize();
        assert!(!a.idle());
        gate.store(1, Ordering::SeqCst);
        b.synchronize();
        assert_eq!(*log.lock(), ["c1", "a1", "b1"]);
        assert!(event.complete() && event.reached_at().is_some());
    }
}
