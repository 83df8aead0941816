//! The device-activity trace behind torch.profiler's device rows (csrc/kineto_plugin.cpp):
//! while a session records, each kernel and library product is bracketed by two timed events
//! on its stream and tagged with the correlation id of the profiled op that issued it. Times
//! reach the host clock through an anchor event recorded on each idle device at the start.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use parking_lot::Mutex;

use super::backend::{Backend, DeviceEvent};
use super::streams::DEFAULT_STREAM;
use crate::error::Result;

/// One piece of device work, in nanoseconds since the Unix epoch.
pub struct Activity {
    pub name: String,
    pub device: usize,
    pub stream: u64,
    pub correlation: u64,
    pub start_ns: i64,
    pub end_ns: i64,
}

struct Bracketed {
    name: String,
    device: usize,
    stream: u64,
    correlation: u64,
    start: Box<dyn DeviceEvent>,
    end: Box<dyn DeviceEvent>,
}

/// Per device: the anchor event and the host time it stands for; the work recorded so far.
struct Session {
    anchors: Vec<(Box<dyn DeviceEvent>, i64)>,
    work: Vec<Bracketed>,
}

static RECORDING: AtomicBool = AtomicBool::new(false);
static SESSION: Mutex<Option<Session>> = Mutex::new(None);

thread_local! {
    static CORRELATION: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

fn now_ns() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i64)
}

/// Whether a session is recording (launches then bracket themselves).
pub fn recording() -> bool {
    RECORDING.load(Ordering::Relaxed)
}

/// The profiler entered op `id` on this thread.
pub fn push_correlation(id: u64) {
    CORRELATION.with(|c| c.borrow_mut().push(id));
}

/// The profiler left the innermost op on this thread.
pub fn pop_correlation() {
    CORRELATION.with(|c| c.borrow_mut().pop());
}

/// Starts a session: waits for every device, anchors its clock, and starts recording.
pub fn start(backend: &dyn Backend) -> Result<()> {
    let mut anchors = Vec::new();
    for device in 0..backend.device_count() {
        backend.synchronize(device)?;
        let anchor = backend.record_event(device, DEFAULT_STREAM, true)?;
        anchor.synchronize()?;
        // Read once the anchor has passed: device work is never placed before the host call
        // that issued it (at most the wake-up latency late).
        anchors.push((anchor, now_ns()));
    }
    *SESSION.lock() = Some(Session {
        anchors,
        work: Vec::new(),
    });
    RECORDING.store(true, Ordering::SeqCst);
    Ok(())
}

/// Stops recording; the session's work stays for `finish`.
pub fn stop() {
    RECORDING.store(false, Ordering::SeqCst);
}

/// Adds work issued on `stream` of `device` between the events `start` and `end`.
pub fn record(
    name: String,
    device: usize,
    stream: u64,
    start: Box<dyn DeviceEvent>,
    end: Box<dyn DeviceEvent>,
) {
    let correlation = CORRELATION.with(|c| c.borrow().last().copied().unwrap_or(0));
    if let Some(session) = SESSION.lock().as_mut() {
        session.work.push(Bracketed {
            name,
            device,
            stream,
            correlation,
            start,
            end,
        });
    }
}

/// Ends the session: waits for its work and returns it on the host clock.
pub fn finish() -> Result<Vec<Activity>> {
    stop();
    let Some(session) = SESSION.lock().take() else {
        return Ok(Vec::new());
    };
    let mut activities = Vec::with_capacity(session.work.len());
    for work in session.work {
        let (anchor, host) = &session.anchors[work.device];
        let at = |event: &dyn DeviceEvent| -> Result<i64> {
            Ok(host + (anchor.elapsed_ms(event)? * 1e6) as i64)
        };
        activities.push(Activity {
            start_ns: at(work.start.as_ref())?,
            end_ns: at(work.end.as_ref())?,
            name: work.name,
            device: work.device,
            stream: work.stream,
            correlation: work.correlation,
        });
    }
    Ok(activities)
}
