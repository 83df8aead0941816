//! A caching device allocator: freed blocks are kept by size class and reused, device memory is
//! returned only by `empty_cache` or when an allocation fails (then the cache is emptied and the
//! allocation retried once before reporting out-of-memory).

use std::collections::BTreeMap;

use super::stats::{update, DeviceStats, LARGE_POOL, SMALL_POOL};
use crate::error::{Error, ErrorKind, Result};

/// Where the allocator gets device memory from.
pub trait MemoryProvider {
    /// A handle to one device allocation.
    type Segment;
    /// Allocates `bytes` of device memory; an `ErrorKind::OutOfMemory` error means "try less".
    fn allocate(&mut self, bytes: u64) -> Result<Self::Segment>;
    /// Returns a segment's memory to the device.
    fn release(&mut self, segment: Self::Segment);
}

/// CUDA's wording for a failed allocation, with the sizes in it.
pub fn out_of_memory(bytes: u64, reason: &str) -> Error {
    Error::out_of_memory(format!(
        "mojo out of memory. Tried to allocate {:.2} GiB ({bytes} bytes): {reason}",
        bytes as f64 / (1u64 << 30) as f64
    ))
}

/// Requests up to this size come from the small pool (rounded to 512 bytes).
pub const SMALL_LIMIT: u64 = 1 << 20;
/// Block sizes and device addresses are multiples of this, like CUDA's caching allocator.
pub const ALIGNMENT: u64 = 512;
/// Large requests are rounded up to a multiple of this.
const LARGE_ROUND: u64 = 2 << 20;

/// The block size a request of `bytes` is served with.
pub fn block_size(bytes: u64) -> u64 {
    let bytes = bytes.max(1);
    if bytes <= SMALL_LIMIT {
        bytes.div_ceil(ALIGNMENT) * ALIGNMENT
    } else {
        bytes.div_ceil(LARGE_ROUND) * LARGE_ROUND
    }
}

fn pool_of(size: u64) -> usize {
    if size <= SMALL_LIMIT {
        SMALL_POOL
    } else {
        LARGE_POOL
    }
}

struct Block<S> {
    segment: S,
    size: u64,
    requested: u64,
}

/// The caching allocator of one device. Blocks are identified by their device address.
pub struct CachingAllocator<P: MemoryProvider> {
    provider: P,
    next_address: u64,
    live: BTreeMap<u64, Block<P::Segment>>,
    cached: BTreeMap<(u64, u64), P::Segment>,
    stats: DeviceStats,
}

impl<P: MemoryProvider> CachingAllocator<P> {
    /// An allocator handing out addresses from `base` upwards.
    pub fn new(provider: P, base: u64) -> Self {
        CachingAllocator {
            provider,
            next_address: base,
            live: BTreeMap::new(),
            cached: BTreeMap::new(),
            stats: DeviceStats::default(),
        }
    }

    /// Allocates a block for `bytes` and returns its address.
    pub fn allocate(&mut self, bytes: u64) -> Result<u64> {
        let size = block_size(bytes);
        let pool = pool_of(size);
        let (address, segment) = match self.take_cached(size) {
            Some(found) => found,
            None => self.allocate_segment(size)?,
        };
        self.live.insert(
            address,
            Block {
                segment,
                size,
                requested: bytes,
            },
        );
        let s = &mut self.stats;
        let size = size as i64;
        update(&mut s.allocation, pool, |x| x.increase(1));
        update(&mut s.active, pool, |x| x.increase(1));
        update(&mut s.allocated_bytes, pool, |x| x.increase(size));
        update(&mut s.active_bytes, pool, |x| x.increase(size));
        update(&mut s.requested_bytes, pool, |x| x.increase(bytes as i64));
        Ok(address)
    }

    fn take_cached(&mut self, size: u64) -> Option<(u64, P::Segment)> {
        let key = *self.cached.range((size, 0)..(size + 1, 0)).next()?.0;
        let segment = self.cached.remove(&key)?;
        Some((key.1, segment))
    }

    fn allocate_segment(&mut self, size: u64) -> Result<(u64, P::Segment)> {
        let segment = match self.provider.allocate(size) {
            Ok(segment) => segment,
            Err(e) if e.kind == ErrorKind::OutOfMemory && !self.cached.is_empty() => {
                self.stats.num_alloc_retries += 1;
                self.empty_cache();
                self.provider
                    .allocate(size)
                    .inspect_err(|_| self.stats.num_ooms += 1)?
            }
            Err(e) => {
                if e.kind == ErrorKind::OutOfMemory {
                    self.stats.num_ooms += 1;
                }
                return Err(e);
            }
        };
        let address = self.next_address;
        self.next_address += size.div_ceil(ALIGNMENT) * ALIGNMENT;
        let pool = pool_of(size);
        self.stats.num_device_alloc += 1;
        update(&mut self.stats.segment, pool, |x| x.increase(1));
        update(&mut self.stats.reserved_bytes, pool, |x| {
            x.increase(size as i64)
        });
        Ok((address, segment))
    }

    /// Returns the block at `address` to the cache.
    pub fn free(&mut self, address: u64) -> Result<()> {
        let block = self
            .live
            .remove(&address)
            .ok_or_else(|| Error::runtime(format!("mojo: free of unknown address {address:#x}")))?;
        let pool = pool_of(block.size);
        let size = block.size as i64;
        let s = &mut self.stats;
        update(&mut s.allocation, pool, |x| x.decrease(1));
        update(&mut s.active, pool, |x| x.decrease(1));
        update(&mut s.allocated_bytes, pool, |x| x.decrease(size));
        update(&mut s.active_bytes, pool, |x| x.decrease(size));
        update(&mut s.requested_bytes, pool, |x| {
            x.decrease(block.requested as i64)
        });
        self.cached.insert((block.size, address), block.segment);
        Ok(())
    }

    /// Releases every cached block back to the device.
    pub fn empty_cache(&mut self) {
        for ((size, _), segment) in std::mem::take(&mut self.cached) {
            self.provider.release(segment);
            let pool = pool_of(size);
            self.stats.num_device_free += 1;
            update(&mut self.stats.segment, pool, |x| x.decrease(1));
            update(&mut self.stats.reserved_bytes, pool, |x| {
                x.decrease(size as i64)
            });
        }
    }

    /// The segment and size of the live block at `address`.
    pub fn block(&self, address: u64) -> Option<(&P::Segment, u64)> {
        self.live.get(&address).map(|b| (&b.segment, b.size))
    }

    /// The live block containing `address`: its start, segment and size.
    pub fn find(&self, address: u64) -> Option<(u64, &P::Segment, u64)> {
        let (&start, block) = self.live.range(..=address).next_back()?;
        (address < start + block.size).then_some((start, &block.segment, block.size))
    }

    /// The statistics.
    pub fn stats(&self) -> &DeviceStats {
        &self.stats
    }

    /// Mutable statistics, for resets.
    pub fn stats_mut(&mut self) -> &mut DeviceStats {
        &mut self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hands out numbered segments until `capacity` bytes are in use.
    struct FakeMemory {
        capacity: u64,
        used: u64,
        next: u32,
        released: Vec<u32>,
    }

    impl MemoryProvider for FakeMemory {
        type Segment = (u32, u64);
        fn allocate(&mut self, bytes: u64) -> Result<(u32, u64)> {
            if self.used + bytes > self.capacity {
                return Err(Error::out_of_memory("fake device out of memory"));
            }
            self.used += bytes;
            self.next += 1;
            Ok((self.next, bytes))
        }
        fn release(&mut self, segment: (u32, u64)) {
            self.used -= segment.1;
            self.released.push(segment.0);
        }
    }

    fn allocator(capacity: u64) -> CachingAllocator<FakeMemory> {
        let fake = FakeMemory {
            capacity,
            used: 0,
            next: 0,
            released: vec![],
        };
        CachingAllocator::new(fake, 1 << 48)
    }

    #[test]
    fn sizes_round_to_classes() {
        assert_eq!(block_size(0), 512);
        assert_eq!(block_size(1), 512);
        assert_eq!(block_size(513), 1024);
        assert_eq!(block_size(SMALL_LIMIT), SMALL_LIMIT);
        assert_eq!(block_size(SMALL_LIMIT + 1), 2 << 20);
        assert_eq!(block_size(256 << 20), 256 << 20);
    }

    #[test]
    fn freed_blocks_are_reused_and_counted() {
        let mut a = allocator(1 << 30);
        let x = a.allocate(1000).unwrap();
        assert_eq!(a.stats().allocated_bytes[0].current, 1024);
        assert_eq!(a.stats().requested_bytes[0].current, 1000);
        a.free(x).unwrap();
        assert_eq!(a.stats().allocated_bytes[0].current, 0);
        assert_eq!(a.stats().reserved_bytes[0].current, 1024);
        let y = a.allocate(900).unwrap();
        assert_eq!(x, y, "same size class reuses the cached block");
        assert_eq!(a.stats().num_device_alloc, 1);
        assert_eq!(a.stats().allocated_bytes[0].peak, 1024);
    }

    #[test]
    fn distinct_live_blocks_have_distinct_aligned_addresses() {
        let mut a = allocator(1 << 30);
        let addrs: Vec<u64> = (1..20).map(|i| a.allocate(i * 100).unwrap()).collect();
        for (i, x) in addrs.iter().enumerate() {
            assert_eq!(x % ALIGNMENT, 0);
            let (_, size) = a.block(*x).unwrap();
            assert_eq!(a.find(x + size - 1).unwrap().0, *x);
            for y in &addrs[i + 1..] {
                assert!(x + size <= *y, "blocks overlap");
            }
        }
    }

    #[test]
    fn empty_cache_releases_cached_blocks_only() {
        let mut a = allocator(1 << 30);
        let x = a.allocate(4 << 20).unwrap();
        let y = a.allocate(100).unwrap();
        a.free(x).unwrap();
        a.empty_cache();
        assert_eq!(a.provider.released, vec![1]);
        assert_eq!(a.stats().reserved_bytes[0].current, 512);
        assert_eq!(a.stats().reserved_bytes[LARGE_POOL].current, 0);
        a.free(y).unwrap();
    }

    #[test]
    fn out_of_memory_empties_cache_and_retries_once() {
        let mut a = allocator(8 << 20);
        let x = a.allocate(6 << 20).unwrap();
        a.free(x).unwrap();
        let y = a.allocate(4 << 20).unwrap();
        assert_eq!(a.stats().num_alloc_retries, 1);
        assert_eq!(a.stats().reserved_bytes[0].current, 4 << 20);
        let err = a.allocate(6 << 20).unwrap_err();
        assert_eq!(err.kind, ErrorKind::OutOfMemory);
        assert_eq!(a.stats().num_ooms, 1);
        a.free(y).unwrap();
    }

    #[test]
    fn peak_resets_to_current() {
        let mut a = allocator(1 << 30);
        let x = a.allocate(4 << 20).unwrap();
        let y = a.allocate(2 << 20).unwrap();
        a.free(x).unwrap();
        a.stats_mut().reset_peak();
        assert_eq!(a.stats().allocated_bytes[0].peak, 2 << 20);
        a.free(y).unwrap();
    }
}
