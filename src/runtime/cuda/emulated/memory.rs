//! Device and page-locked memory of the emulated driver: blocks of host memory, 256-byte
//! aligned like cuMemAlloc's, tracked so that copies are checked against them and a device's
//! limit is enforced. New device memory is filled with 0xff bytes (NaN, -1), not zeros: code
//! that reads memory it never wrote shows it, as it may on a GPU.

use std::alloc::{alloc, dealloc, Layout};
use std::collections::BTreeMap;

use parking_lot::Mutex;

const ALIGN: usize = 256;

pub struct Memory {
    /// Start address → size of every live block.
    blocks: Mutex<BTreeMap<usize, usize>>,
    limit: usize,
    fill: bool,
}

impl Memory {
    /// Memory of at most `limit` bytes in all; `fill` marks new blocks as unwritten.
    pub fn new(limit: usize, fill: bool) -> Self {
        Memory {
            blocks: Mutex::new(BTreeMap::new()),
            limit,
            fill,
        }
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    pub fn used(&self) -> usize {
        self.blocks.lock().values().sum()
    }

    /// A new block, or None when it would pass the limit or the host has no memory.
    pub fn allocate(&self, bytes: usize) -> Option<usize> {
        let mut blocks = self.blocks.lock();
        let used: usize = blocks.values().sum();
        if bytes > self.limit.saturating_sub(used) {
            return None;
        }
        let layout = Layout::from_size_align(bytes.max(1), ALIGN).ok()?;
        // SAFETY: the layout has a non-zero size.
        let block = unsafe { alloc(layout) };
        if block.is_null() {
            return None;
        }
        if self.fill {
            // SAFETY: the block holds `bytes` bytes.
            unsafe { std::ptr::write_bytes(block, 0xff, bytes) };
        }
        blocks.insert(block as usize, bytes);
        Some(block as usize)
    }

    /// Frees the block starting at `address`; false when there is none.
    pub fn release(&self, address: usize) -> bool {
        let Some(bytes) = self.blocks.lock().remove(&address) else {
            return false;
        };
        let layout = Layout::from_size_align(bytes.max(1), ALIGN).expect("allocated with it");
        // SAFETY: the block came from `alloc` with this layout and is no longer listed.
        unsafe { dealloc(address as *mut u8, layout) };
        true
    }

    /// Whether `len` bytes from `address` lie in one block.
    pub fn contains(&self, address: usize, len: usize) -> bool {
        let blocks = self.blocks.lock();
        blocks
            .range(..=address)
            .next_back()
            .is_some_and(|(&start, &size)| address - start + len <= size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_aligned_filled_limited_and_checked() {
        let memory = Memory::new(1 << 20, true);
        let a = memory.allocate(1000).expect("fits");
        assert_eq!(a % ALIGN, 0);
        // SAFETY: the block holds 1000 bytes.
        assert_eq!(unsafe { *(a as *const u8).add(999) }, 0xff);
        assert!(memory.contains(a + 10, 990) && !memory.contains(a + 10, 991));
        assert!(memory.allocate(1 << 20).is_none(), "past the limit");
        assert!(memory.release(a) && !memory.release(a));
        assert_eq!(memory.used(), 0);
    }
}
