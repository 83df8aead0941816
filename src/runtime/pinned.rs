//! The pinned (page-locked) host allocator behind `pin_memory()` and the pinned outputs of
//! non-blocking downloads: blocks rounded up to a power of two, cached for reuse like CUDA's
//! host allocator, and a registry of live blocks so that `is_pinned()` recognises any pointer
//! inside one. The memory comes from the backend (cuMemHostAlloc on CUDA; page-aligned and
//! mlock'ed host memory elsewhere). A block that an asynchronous copy still reads or writes
//! holds that copy's event, and once freed is reused only after the event.

use std::collections::BTreeMap;

use parking_lot::Mutex;

use super::backend;
use super::backend::DeviceEvent;
use crate::error::Result;

type Events = Vec<Box<dyn DeviceEvent>>;

/// Live blocks by start address (value: size), cached blocks by (size, start), the events of
/// copies using live blocks, and freed blocks waiting for such events.
struct Pool {
    live: BTreeMap<usize, usize>,
    cached: BTreeMap<(usize, usize), ()>,
    uses: BTreeMap<usize, Events>,
    pending: Vec<(usize, usize, Events)>,
}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    live: BTreeMap::new(),
    cached: BTreeMap::new(),
    uses: BTreeMap::new(),
    pending: Vec::new(),
});

impl Pool {
    /// The live block holding `[address, address + bytes)`: its start.
    fn holding(&self, address: usize, bytes: usize) -> Option<usize> {
        let (&start, &size) = self.live.range(..=address).next_back()?;
        (address + bytes.max(1) <= start + size).then_some(start)
    }

    /// Frees the live block at `start`: cached, or pending while copies still use it.
    fn release(&mut self, start: usize) {
        if let Some(size) = self.live.remove(&start) {
            match self.uses.remove(&start) {
                Some(events) => self.pending.push((start, size, events)),
                None => {
                    self.cached.insert((size, start), ());
                }
            }
        }
    }

    /// Notes that a copy uses the block holding `address` until `event`.
    fn record(&mut self, address: usize, event: Box<dyn DeviceEvent>) {
        if let Some(start) = self.holding(address, 1) {
            let events = self.uses.entry(start).or_default();
            // A buffer reused every step keeps only the copies still in flight.
            events.retain(|e| !e.query().unwrap_or(true));
            events.push(event);
        }
    }

    /// Caches the freed blocks whose copies have finished (all of them, waiting, with `wait`).
    fn reclaim(&mut self, wait: bool) {
        let mut i = 0;
        while i < self.pending.len() {
            let done = self.pending[i].2.iter().all(|e| {
                if wait {
                    let _ = e.synchronize();
                }
                e.query().unwrap_or(true)
            });
            if done {
                let (start, size, _) = self.pending.swap_remove(i);
                self.cached.insert((size, start), ());
            } else {
                i += 1;
            }
        }
    }
}

/// The block size serving `bytes`: a power of two, at least one page.
fn block_size(bytes: usize) -> usize {
    bytes.max(4096).next_power_of_two()
}

/// A pinned block of at least `bytes`.
pub fn allocate(bytes: usize) -> Result<*mut u8> {
    let size = block_size(bytes);
    let mut pool = POOL.lock();
    pool.reclaim(false);
    let cached = pool
        .cached
        .range((size, 0)..(size + 1, 0))
        .next()
        .map(|(k, _)| *k);
    let start = match cached {
        Some(key) => {
            pool.cached.remove(&key);
            key.1
        }
        None => backend()?.host_allocate(size)?,
    };
    pool.live.insert(start, size);
    Ok(start as *mut u8)
}

/// Returns the block starting at `ptr` to the cache, once the copies using it have finished.
pub fn free(ptr: *mut u8) {
    POOL.lock().release(ptr as usize);
}

/// Whether `ptr` lies inside a live pinned block.
pub fn is_pinned(ptr: *const u8) -> bool {
    holds(ptr, 1)
}

/// Whether `bytes` from `ptr` lie inside one live pinned block.
pub fn holds(ptr: *const u8, bytes: usize) -> bool {
    POOL.lock().holding(ptr as usize, bytes).is_some()
}

/// Notes that an asynchronous copy uses the block holding `ptr` until `event`.
pub fn record_use(ptr: *const u8, event: Box<dyn DeviceEvent>) {
    POOL.lock().record(ptr as usize, event);
}

/// Releases the cached blocks to the system (after the copies still using freed ones).
pub fn empty_cache() {
    let blocks = {
        let mut pool = POOL.lock();
        pool.reclaim(true);
        std::mem::take(&mut pool.cached)
    };
    if blocks.is_empty() {
        return;
    }
    if let Ok(b) = backend() {
        for (size, start) in blocks.into_keys() {
            b.host_release(start, size);
        }
    }
}

/// Page-aligned host memory, locked in RAM where the process may lock it (best effort: a
/// refused mlock leaves ordinary memory, which every copy path also accepts).
pub fn locked_host_allocate(bytes: usize) -> Result<usize> {
    let layout = std::alloc::Layout::from_size_align(bytes, 4096)
        .map_err(|e| crate::error::Error::runtime(format!("mojo: pinned allocation: {e}")))?;
    // SAFETY: the layout has a non-zero size (at least one page).
    let ptr = unsafe { std::alloc::alloc(layout) };
    if ptr.is_null() {
        return Err(super::allocator::out_of_memory(
            bytes as u64,
            "the host has no memory for a pinned buffer",
        ));
    }
    // SAFETY: locks the pages of a live allocation.
    unsafe { mlock(ptr as *const std::ffi::c_void, bytes) };
    Ok(ptr as usize)
}

/// Frees memory from [`locked_host_allocate`].
///
/// # Safety
/// `address` came from `locked_host_allocate(bytes)` and is no longer used.
pub unsafe fn locked_host_release(address: usize, bytes: usize) {
    let ptr = address as *mut u8;
    // SAFETY: per the contract.
    unsafe {
        munlock(ptr as *const std::ffi::c_void, bytes);
        std::alloc::dealloc(
            ptr,
            std::alloc::Layout::from_size_align_unchecked(bytes, 4096),
        );
    }
}

extern "C" {
    fn mlock(addr: *const std::ffi::c_void, len: usize) -> i32;
    fn munlock(addr: *const std::ffi::c_void, len: usize) -> i32;
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    /// An event the test completes by hand.
    struct Flag(Arc<AtomicBool>);

    impl DeviceEvent for Flag {
        fn query(&self) -> Result<bool> {
            Ok(self.0.load(Ordering::SeqCst))
        }
        fn synchronize(&self) -> Result<()> {
            self.0.store(true, Ordering::SeqCst);
            Ok(())
        }
        fn elapsed_ms(&self, _later: &dyn DeviceEvent) -> Result<f64> {
            Ok(0.0)
        }
        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
    }

    #[test]
    fn a_block_in_use_by_a_copy_is_reused_only_after_it() {
        let mut pool = Pool {
            live: BTreeMap::from([(1 << 20, 4096), (2 << 20, 8192)]),
            cached: BTreeMap::new(),
            uses: BTreeMap::new(),
            pending: Vec::new(),
        };
        assert_eq!(pool.holding((1 << 20) + 4000, 96), Some(1 << 20));
        assert_eq!(
            pool.holding((1 << 20) + 4000, 97),
            None,
            "runs past the block"
        );
        let done = Arc::new(AtomicBool::new(false));
        pool.record((1 << 20) + 100, Box::new(Flag(done.clone())));
        pool.release(1 << 20);
        pool.release(2 << 20);
        pool.reclaim(false);
        assert_eq!(pool.cached.keys().collect::<Vec<_>>(), [&(8192, 2 << 20)]);
        done.store(true, Ordering::SeqCst);
        pool.reclaim(false);
        assert!(pool.cached.contains_key(&(4096, 1 << 20)) && pool.pending.is_empty());
    }

    #[test]
    fn finished_copies_are_forgotten_and_emptying_waits_for_the_rest() {
        let mut pool = Pool {
            live: BTreeMap::from([(1 << 20, 4096)]),
            cached: BTreeMap::new(),
            uses: BTreeMap::new(),
            pending: Vec::new(),
        };
        for _ in 0..100 {
            pool.record(1 << 20, Box::new(Flag(Arc::new(AtomicBool::new(true)))));
        }
        assert_eq!(
            pool.uses[&(1 << 20)].len(),
            1,
            "only the newest may be in flight"
        );
        pool.record(1 << 20, Box::new(Flag(Arc::new(AtomicBool::new(false)))));
        pool.release(1 << 20);
        pool.reclaim(true);
        assert!(pool.cached.contains_key(&(4096, 1 << 20)));
    }

    #[test]
    fn sizes_are_pages_and_powers_of_two() {
        assert_eq!(block_size(1), 4096);
        assert_eq!(block_size(4097), 8192);
        assert_eq!(block_size(3 << 20), 4 << 20);
    }
}
