//! Stream ids and the calling thread's current stream per device. Id 0 is every device's
//! default stream; created streams get process-wide unique ids. A backend whose devices run
//! streams concurrently (CUDA) maps each id to a stream of its own; wgpu runs them all on its
//! one queue.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

/// The default stream of every device.
pub const DEFAULT_STREAM: u64 = 0;

static LAST_ID: AtomicU64 = AtomicU64::new(DEFAULT_STREAM);

thread_local! {
    static CURRENT: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

/// A new stream id.
pub fn create() -> u64 {
    LAST_ID.fetch_add(1, Ordering::Relaxed) + 1
}

/// The calling thread's current stream on `device`.
pub fn current(device: usize) -> u64 {
    CURRENT.with(|c| c.borrow().get(device).copied().unwrap_or(DEFAULT_STREAM))
}

/// Makes `stream` the calling thread's current stream on `device`; returns the previous one.
pub fn exchange(device: usize, stream: u64) -> u64 {
    CURRENT.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() <= device {
            c.resize(device + 1, DEFAULT_STREAM);
        }
        std::mem::replace(&mut c[device], stream)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_thread_has_its_own_current_stream_per_device() {
        let (a, b) = (create(), create());
        assert!(a != b && a != DEFAULT_STREAM);
        assert_eq!(exchange(1, a), DEFAULT_STREAM);
        assert_eq!((current(0), current(1)), (DEFAULT_STREAM, a));
        std::thread::spawn(move || assert_eq!(current(1), DEFAULT_STREAM))
            .join()
            .unwrap();
        assert_eq!(exchange(1, b), a);
        assert_eq!(exchange(1, DEFAULT_STREAM), b);
    }
}
