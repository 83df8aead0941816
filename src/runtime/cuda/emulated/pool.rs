//! The CPU cores that run an emulated grid: a launch's blocks are split into chunks taken by
//! the launching stream's worker and by helper threads (one fewer than the cores), so a large
//! grid uses every core and a small one runs on the stream's thread alone.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use parking_lot::{Condvar, Mutex};

/// Grids with fewer threads than this run on the stream's thread only.
const PARALLEL_THREADS: u64 = 1 << 14;

/// Runs the blocks `[first, last)` of a grid.
type Blocks<'a> = dyn Fn(u64, u64) + Sync + 'a;

struct Job {
    /// Borrowed from the launching thread, which waits until every chunk has finished.
    run: *const Blocks<'static>,
    total: u64,
    chunk: u64,
    next: AtomicU64,
    finished: Mutex<u64>,
    done: Condvar,
}

// SAFETY: `run` is Sync and outlives every use (the launcher waits for all chunks).
unsafe impl Send for Job {}
unsafe impl Sync for Job {}

impl Job {
    /// Takes chunks until none is left.
    fn work(&self) {
        loop {
            let first = self.next.fetch_add(self.chunk, Ordering::Relaxed);
            if first >= self.total {
                return;
            }
            let last = (first + self.chunk).min(self.total);
            // SAFETY: the launcher has not returned: this chunk has not finished.
            unsafe { (*self.run)(first, last) };
            let mut finished = self.finished.lock();
            *finished += last - first;
            if *finished == self.total {
                self.done.notify_all();
            }
        }
    }
}

struct Pool {
    jobs: Mutex<VecDeque<Arc<Job>>>,
    posted: Condvar,
    helpers: usize,
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let pool = Pool {
            jobs: Mutex::new(VecDeque::new()),
            posted: Condvar::new(),
            helpers: cores.saturating_sub(1),
        };
        for _ in 0..pool.helpers {
            std::thread::Builder::new()
                .name("mojo-emulated-core".into())
                .spawn(help)
                .expect("a helper thread starts");
        }
        pool
    })
}

/// A helper's life: take the oldest job with chunks left, work on it, repeat.
fn help() {
    let pool = pool();
    loop {
        let job = {
            let mut jobs = pool.jobs.lock();
            loop {
                while jobs
                    .front()
                    .is_some_and(|j| j.next.load(Ordering::Relaxed) >= j.total)
                {
                    jobs.pop_front();
                }
                if let Some(job) = jobs.front() {
                    break job.clone();
                }
                pool.posted.wait(&mut jobs);
            }
        };
        job.work();
    }
}

/// Runs `blocks` blocks of `threads` threads each through `run`, returning when all are done.
pub fn run_grid(blocks: u64, threads: u64, run: &Blocks<'_>) {
    let pool = pool();
    if blocks < 2 || blocks * threads < PARALLEL_THREADS || pool.helpers == 0 {
        run(0, blocks);
        return;
    }
    let chunk = blocks.div_ceil(8 * (pool.helpers as u64 + 1)).max(1);
    // SAFETY: only the lifetime is erased; this function waits until no chunk runs.
    let run: *const Blocks<'static> = unsafe { std::mem::transmute(run as *const Blocks<'_>) };
    let job = Arc::new(Job {
        run,
        total: blocks,
        chunk,
        next: AtomicU64::new(0),
        finished: Mutex::new(0),
        done: Condvar::new(),
    });
    pool.jobs.lock().push_back(job.clone());
    pool.posted.notify_all();
    job.work();
    let mut finished = job.finished.lock();
    while *finished < blocks {
        job.done.wait(&mut finished);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_block_runs_once() {
        let seen: Vec<AtomicU64> = (0..1000).map(|_| AtomicU64::new(0)).collect();
        run_grid(1000, 64, &|first, last| {
            for b in first..last {
                seen[b as usize].fetch_add(1, Ordering::Relaxed);
            }
        });
        assert!(seen.iter().all(|s| s.load(Ordering::Relaxed) == 1));
    }
}
