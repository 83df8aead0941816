//! The pinned (page-locked) host allocator behind `pin_memory()` and the pinned outputs of
//! non-blocking downloads: blocks rounded up to a power of two, cached for reuse like CUDA's
//! host allocator, and a registry of live blocks so that `is_pinned()` recognises any pointer
//! inside one. The memory comes from the backend (cuMemHostAlloc on CUDA; page-aligned and
//! mlock'ed host memory elsewhere).

use std::collections::BTreeMap;

use parking_lot::Mutex;

use super::backend;
use crate::error::Result;

/// Live blocks by start address (value: size), and cached blocks by (size, start).
#[derive(Default)]
struct Pool {
    live: BTreeMap<usize, usize>,
    cached: BTreeMap<(usize, usize), ()>,
}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    live: BTreeMap::new(),
    cached: BTreeMap::new(),
});

/// The block size serving `bytes`: a power of two, at least one page.
fn block_size(bytes: usize) -> usize {
    bytes.max(4096).next_power_of_two()
}

/// A pinned block of at least `bytes`.
pub fn allocate(bytes: usize) -> Result<*mut u8> {
    let size = block_size(bytes);
    let mut pool = POOL.lock();
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

/// Returns the block starting at `ptr` to the cache.
pub fn free(ptr: *mut u8) {
    let mut pool = POOL.lock();
    if let Some(size) = pool.live.remove(&(ptr as usize)) {
        pool.cached.insert((size, ptr as usize), ());
    }
}

/// Whether `ptr` lies inside a live pinned block.
pub fn is_pinned(ptr: *const u8) -> bool {
    let address = ptr as usize;
    let pool = POOL.lock();
    pool.live
        .range(..=address)
        .next_back()
        .is_some_and(|(&start, &size)| address < start + size)
}

/// Releases the cached blocks to the system.
pub fn empty_cache() {
    let blocks = std::mem::take(&mut POOL.lock().cached);
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

    #[test]
    fn sizes_are_pages_and_powers_of_two() {
        assert_eq!(block_size(1), 4096);
        assert_eq!(block_size(4097), 8192);
        assert_eq!(block_size(3 << 20), 4 << 20);
    }
}
