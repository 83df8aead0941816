//! A caching device allocator in the style of CUDA's: device memory comes in segments (2 MiB
//! for requests up to 1 MiB, 20 MiB for requests under 10 MiB, else the request rounded to
//! 2 MiB); a request takes the best-fitting free block of its pool and splits off the rest;
//! freed blocks merge with free neighbours of their segment. Device memory is returned only by
//! `empty_cache` (whole free segments) or when an allocation fails (then the cache is emptied
//! and the allocation retried once before reporting out-of-memory).
//!
//! Segments belong to the stream that allocated them, and their blocks serve only that
//! stream, whose order makes reuse safe. A block that `record_stream` marked as used by other
//! streams is freed only once events recorded on those streams at its free have completed.

use std::collections::{BTreeMap, BTreeSet};

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
    /// A marker at the current end of `stream`'s work.
    type Event;
    fn record(&mut self, stream: u64) -> Result<Self::Event>;
    /// Whether the work before `event` has finished; with `wait`, waits for it first.
    fn reached(&mut self, event: &Self::Event, wait: bool) -> bool;
    /// Segments larger than this serve only requests larger than this: a kernel binds a
    /// tensor's whole segment, so a tensor carved from an oversize one could never be bound.
    fn largest_shared_segment(&self) -> u64 {
        u64::MAX
    }
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
/// The segment size of the small pool.
const SMALL_SEGMENT: u64 = 2 << 20;
/// Large requests under this size share segments of `LARGE_SEGMENT` bytes.
const SHARED_LARGE_LIMIT: u64 = 10 << 20;
const LARGE_SEGMENT: u64 = 20 << 20;

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

/// The segment a block of `size` is carved from when no free block fits.
fn segment_size(size: u64) -> u64 {
    if size <= SMALL_LIMIT {
        SMALL_SEGMENT
    } else if size < SHARED_LARGE_LIMIT {
        LARGE_SEGMENT
    } else {
        size
    }
}

/// Whether a free block leaves a remainder worth keeping as its own block.
fn should_split(pool: usize, remainder: u64) -> bool {
    if pool == SMALL_POOL {
        remainder >= ALIGNMENT
    } else {
        remainder > SMALL_LIMIT
    }
}

struct Segment<S> {
    handle: S,
    size: u64,
    pool: usize,
    stream: u64,
}

struct LiveBlock {
    size: u64,
    requested: u64,
    segment: u64,
    /// Other streams `record_stream` said use the block.
    stream_uses: Vec<u64>,
}

#[derive(Clone, Copy)]
struct FreeBlock {
    size: u64,
    segment: u64,
}

/// The caching allocator of one device. Blocks are identified by their device address.
pub struct CachingAllocator<P: MemoryProvider> {
    provider: P,
    next_address: u64,
    segments: BTreeMap<u64, Segment<P::Segment>>,
    live: BTreeMap<u64, LiveBlock>,
    /// Free blocks by address (for merging) and, per pool, by (stream, size, address) (for
    /// best fit on one stream).
    free: BTreeMap<u64, FreeBlock>,
    free_by_size: [BTreeSet<(u64, u64, u64)>; 3],
    /// Freed blocks other streams may still use, with an event per such stream.
    pending: Vec<(u64, Vec<P::Event>)>,
    stats: DeviceStats,
}

impl<P: MemoryProvider> CachingAllocator<P> {
    /// An allocator handing out addresses from `base` upwards.
    pub fn new(provider: P, base: u64) -> Self {
        CachingAllocator {
            provider,
            next_address: base,
            segments: BTreeMap::new(),
            live: BTreeMap::new(),
            free: BTreeMap::new(),
            free_by_size: Default::default(),
            pending: Vec::new(),
            stats: DeviceStats::default(),
        }
    }

    fn insert_free(&mut self, address: u64, block: FreeBlock) {
        let segment = &self.segments[&block.segment];
        self.free.insert(address, block);
        self.free_by_size[segment.pool].insert((segment.stream, block.size, address));
    }

    fn remove_free(&mut self, address: u64) -> Option<FreeBlock> {
        let block = self.free.remove(&address)?;
        let segment = &self.segments[&block.segment];
        self.free_by_size[segment.pool].remove(&(segment.stream, block.size, address));
        Some(block)
    }

    /// Allocates a block for `bytes` of work on `stream` and returns its address.
    pub fn allocate(&mut self, bytes: u64, stream: u64) -> Result<u64> {
        self.free_reached(false);
        let size = block_size(bytes);
        let pool = pool_of(size);
        let shared = self.provider.largest_shared_segment();
        let fit = self.free_by_size[pool]
            .range((stream, size, 0)..(stream + 1, 0, 0))
            .find(|&&(_, _, address)| {
                let segment = self.free[&address].segment;
                size > shared || self.segments[&segment].size <= shared
            })
            .copied();
        let address = match fit {
            Some((_, _, address)) => address,
            None => self.allocate_segment(size, pool, stream)?,
        };
        let block = self.remove_free(address).expect("a free block");
        let remainder = block.size - size;
        let size = if should_split(pool, remainder) {
            self.insert_free(
                address + size,
                FreeBlock {
                    size: remainder,
                    segment: block.segment,
                },
            );
            size
        } else {
            block.size
        };
        self.live.insert(
            address,
            LiveBlock {
                size,
                requested: bytes,
                segment: block.segment,
                stream_uses: Vec::new(),
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

    /// Gets a new segment for a block of `size` and enters it as one free block; returns its
    /// address. A failed segment of the shared size is retried at the block's own size, and a
    /// failure after that empties the cache and tries once more.
    fn allocate_segment(&mut self, size: u64, pool: usize, stream: u64) -> Result<u64> {
        let preferred = segment_size(size);
        let (handle, bytes) = match self.provider.allocate(preferred) {
            Ok(handle) => (handle, preferred),
            Err(e) if e.kind != ErrorKind::OutOfMemory => return Err(e),
            Err(_) => match self.provider.allocate(size) {
                Ok(handle) => (handle, size),
                Err(e)
                    if e.kind == ErrorKind::OutOfMemory
                        && !(self.free.is_empty() && self.pending.is_empty()) =>
                {
                    self.stats.num_alloc_retries += 1;
                    self.empty_cache();
                    let handle = self
                        .provider
                        .allocate(size)
                        .inspect_err(|_| self.stats.num_ooms += 1)?;
                    (handle, size)
                }
                Err(e) => {
                    if e.kind == ErrorKind::OutOfMemory {
                        self.stats.num_ooms += 1;
                    }
                    return Err(e);
                }
            },
        };
        let address = self.next_address;
        self.next_address += bytes.div_ceil(ALIGNMENT) * ALIGNMENT;
        self.segments.insert(
            address,
            Segment {
                handle,
                size: bytes,
                pool,
                stream,
            },
        );
        self.insert_free(
            address,
            FreeBlock {
                size: bytes,
                segment: address,
            },
        );
        self.stats.num_device_alloc += 1;
        update(&mut self.stats.segment, pool, |x| x.increase(1));
        update(&mut self.stats.reserved_bytes, pool, |x| {
            x.increase(bytes as i64)
        });
        Ok(address)
    }

    /// Marks the live block holding `address` as used by `stream` too.
    pub fn record_stream(&mut self, address: u64, stream: u64) {
        let Some((&start, block)) = self.live.range_mut(..=address).next_back() else {
            return;
        };
        let other = self.segments[&block.segment].stream != stream;
        if address < start + block.size && other && !block.stream_uses.contains(&stream) {
            block.stream_uses.push(stream);
        }
    }

    /// Frees the block at `address`: at once into the cache, merged with its free neighbours,
    /// or, when other streams use it, once their work up to now has finished. (If an event
    /// cannot be recorded, the block is kept from reuse for good.)
    pub fn free(&mut self, address: u64) -> Result<()> {
        let unknown = || Error::runtime(format!("mojo: free of unknown address {address:#x}"));
        if self.pending.iter().any(|(a, _)| *a == address) {
            return Err(unknown());
        }
        let block = self.live.get(&address).ok_or_else(unknown)?;
        let events = block
            .stream_uses
            .iter()
            .map(|&stream| self.provider.record(stream))
            .collect::<Result<Vec<_>>>()?;
        let (pool, size) = (self.segments[&block.segment].pool, block.size as i64);
        let requested = block.requested as i64;
        let s = &mut self.stats;
        update(&mut s.allocation, pool, |x| x.decrease(1));
        update(&mut s.allocated_bytes, pool, |x| x.decrease(size));
        update(&mut s.requested_bytes, pool, |x| x.decrease(requested));
        if events.is_empty() {
            self.release_block(address);
        } else {
            self.pending.push((address, events));
        }
        Ok(())
    }

    /// Frees the pending blocks whose streams have passed their events (all, with `wait`).
    fn free_reached(&mut self, wait: bool) {
        let mut i = 0;
        while i < self.pending.len() {
            let (_, events) = &self.pending[i];
            if events.iter().all(|e| self.provider.reached(e, wait)) {
                let (address, _) = self.pending.swap_remove(i);
                self.release_block(address);
            } else {
                i += 1;
            }
        }
    }

    /// Returns a live block to the free blocks of its segment, merged with free neighbours.
    fn release_block(&mut self, address: u64) {
        let block = self.live.remove(&address).expect("a live block");
        let pool = self.segments[&block.segment].pool;
        let s = &mut self.stats;
        update(&mut s.active, pool, |x| x.decrease(1));
        update(&mut s.active_bytes, pool, |x| x.decrease(block.size as i64));
        let (mut start, mut bytes) = (address, block.size);
        let before = self
            .free
            .range(..address)
            .next_back()
            .map(|(&a, &b)| (a, b));
        if let Some((previous, b)) = before {
            if previous + b.size == address && b.segment == block.segment {
                self.remove_free(previous);
                start = previous;
                bytes += b.size;
            }
        }
        if let Some(&after) = self.free.get(&(address + block.size)) {
            if after.segment == block.segment {
                self.remove_free(address + block.size);
                bytes += after.size;
            }
        }
        self.insert_free(
            start,
            FreeBlock {
                size: bytes,
                segment: block.segment,
            },
        );
    }

    /// Releases every segment that is entirely free back to the device (after waiting for
    /// the streams that still use freed blocks).
    pub fn empty_cache(&mut self) {
        self.free_reached(true);
        let whole: Vec<u64> = self
            .free
            .iter()
            .filter(|(&a, b)| a == b.segment && self.segments[&a].size == b.size)
            .map(|(&a, _)| a)
            .collect();
        for address in whole {
            self.remove_free(address);
            let segment = self.segments.remove(&address).expect("a segment");
            self.provider.release(segment.handle);
            self.stats.num_device_free += 1;
            update(&mut self.stats.segment, segment.pool, |x| x.decrease(1));
            update(&mut self.stats.reserved_bytes, segment.pool, |x| {
                x.decrease(segment.size as i64)
            });
        }
    }

    /// The size of the live block at `address`.
    pub fn block(&self, address: u64) -> Option<u64> {
        self.live.get(&address).map(|b| b.size)
    }

    /// The live block containing `address`: its start and size.
    pub fn live_block_containing(&self, address: u64) -> Option<(u64, u64)> {
        let (&start, block) = self.live.range(..=address).next_back()?;
        (address < start + block.size).then_some((start, block.size))
    }

    /// The segment containing `address`: its start, handle and size.
    pub fn find(&self, address: u64) -> Option<(u64, &P::Segment, u64)> {
        let (&start, segment) = self.segments.range(..=address).next_back()?;
        (address < start + segment.size).then_some((start, &segment.handle, segment.size))
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

    /// Hands out numbered segments until `capacity` bytes are in use; its events are stream
    /// numbers, reached once the test marks the stream finished.
    struct FakeMemory {
        capacity: u64,
        used: u64,
        next: u32,
        released: Vec<u32>,
        finished: Vec<u64>,
        waited: Vec<u64>,
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
        type Event = u64;
        fn record(&mut self, stream: u64) -> Result<u64> {
            Ok(stream)
        }
        fn reached(&mut self, stream: &u64, wait: bool) -> bool {
            if wait && !self.finished.contains(stream) {
                self.waited.push(*stream);
                self.finished.push(*stream);
            }
            self.finished.contains(stream)
        }
        fn largest_shared_segment(&self) -> u64 {
            128 << 20
        }
    }

    fn allocator(capacity: u64) -> CachingAllocator<FakeMemory> {
        let fake = FakeMemory {
            capacity,
            used: 0,
            next: 0,
            released: vec![],
            finished: vec![],
            waited: vec![],
        };
        CachingAllocator::new(fake, 1 << 48)
    }

    const MIB: u64 = 1 << 20;

    #[test]
    fn sizes_round_to_classes() {
        assert_eq!(block_size(0), 512);
        assert_eq!(block_size(1), 512);
        assert_eq!(block_size(513), 1024);
        assert_eq!(block_size(SMALL_LIMIT), SMALL_LIMIT);
        assert_eq!(block_size(SMALL_LIMIT + 1), 2 * MIB);
        assert_eq!(block_size(256 * MIB), 256 * MIB);
        assert_eq!(segment_size(512), 2 * MIB);
        assert_eq!(segment_size(4 * MIB), 20 * MIB);
        assert_eq!(segment_size(12 * MIB), 12 * MIB);
    }

    #[test]
    fn oversize_segments_serve_only_oversize_requests() {
        let mut a = allocator(1 << 30);
        let big = a.allocate(130 * MIB, 0).unwrap();
        a.free(big).unwrap();
        // A freed 130 MiB segment is not split for a 12 MiB tensor (it could not be bound)...
        let small = a.allocate(12 * MIB, 0).unwrap();
        assert_ne!(small, big);
        assert_eq!(a.provider.next, 2);
        // ...but still serves a request over the limit.
        assert_eq!(a.allocate(129 * MIB, 0).unwrap(), big);
    }

    #[test]
    fn small_blocks_share_a_segment_and_are_reused() {
        let mut a = allocator(1 << 30);
        let x = a.allocate(1000, 0).unwrap();
        let y = a.allocate(100, 0).unwrap();
        assert_eq!(
            y,
            x + 1024,
            "the rest of the segment serves the next request"
        );
        assert_eq!(a.stats().allocated_bytes[0].current, 1536);
        assert_eq!(a.stats().requested_bytes[0].current, 1100);
        assert_eq!(a.stats().reserved_bytes[SMALL_POOL].current, 2 * MIB as i64);
        assert_eq!(a.stats().num_device_alloc, 1);
        a.free(x).unwrap();
        assert_eq!(
            a.allocate(900, 0).unwrap(),
            x,
            "best fit takes the freed block"
        );
        assert_eq!(a.stats().allocated_bytes[0].peak, 1536);
    }

    #[test]
    fn freed_neighbours_merge_so_varying_sizes_reuse_memory() {
        let mut a = allocator(1 << 30);
        for step in 0..2000u64 {
            let bytes = 1 + (step * 7919) % (3 * MIB);
            let x = a.allocate(bytes, 0).unwrap();
            a.free(x).unwrap();
        }
        let reserved = a.stats().reserved_bytes[0].current as u64;
        assert!(reserved <= 22 * MIB, "{reserved}");
        assert_eq!(a.free.len(), 2, "each segment is one free block again");
    }

    #[test]
    fn distinct_live_blocks_have_distinct_aligned_addresses() {
        let mut a = allocator(1 << 30);
        let addrs: Vec<u64> = (1..40)
            .map(|i| a.allocate(i * 37_000, 0).unwrap())
            .collect();
        for (i, x) in addrs.iter().enumerate() {
            assert_eq!(x % ALIGNMENT, 0);
            let size = a.block(*x).unwrap();
            let (start, _, segment) = a.find(x + size - 1).unwrap();
            assert!(start <= *x && x + size <= start + segment);
            for y in &addrs[i + 1..] {
                let other = a.block(*y).unwrap();
                assert!(x + size <= *y || y + other <= *x, "blocks overlap");
            }
        }
    }

    #[test]
    fn empty_cache_releases_whole_free_segments_only() {
        let mut a = allocator(1 << 30);
        let x = a.allocate(12 * MIB, 0).unwrap();
        let y = a.allocate(100, 0).unwrap();
        a.free(x).unwrap();
        a.empty_cache();
        assert_eq!(a.provider.released, vec![1]);
        assert_eq!(a.stats().reserved_bytes[0].current, 2 * MIB as i64);
        assert_eq!(a.stats().reserved_bytes[LARGE_POOL].current, 0);
        a.free(y).unwrap();
        a.empty_cache();
        assert_eq!(a.stats().reserved_bytes[0].current, 0);
    }

    #[test]
    fn out_of_memory_tries_the_exact_size_then_empties_the_cache() {
        let mut a = allocator(24 * MIB);
        let x = a.allocate(12 * MIB, 0).unwrap();
        // 4 MiB wants a 20 MiB segment: no room, but the exact size fits beside `x`.
        let y = a.allocate(4 * MIB, 0).unwrap();
        assert_eq!(a.stats().reserved_bytes[0].current, 16 * MIB as i64);
        assert_eq!(a.stats().num_alloc_retries, 0);
        // 14 MiB fits no cached block and no free device memory until the cache is released.
        a.free(x).unwrap();
        a.free(y).unwrap();
        let z = a.allocate(14 * MIB, 0).unwrap();
        assert_eq!(a.stats().num_alloc_retries, 1);
        assert_eq!(a.stats().reserved_bytes[0].current, 14 * MIB as i64);
        let err = a.allocate(20 * MIB, 0).unwrap_err();
        assert_eq!(err.kind, ErrorKind::OutOfMemory);
        assert_eq!(a.stats().num_ooms, 1);
        a.free(z).unwrap();
    }

    #[test]
    fn streams_have_their_own_pools() {
        let mut a = allocator(1 << 30);
        let x = a.allocate(1000, 0).unwrap();
        a.free(x).unwrap();
        let y = a.allocate(1000, 7).unwrap();
        assert_ne!(x, y, "stream 7 must not take stream 0's free block");
        assert_eq!(a.stats().num_device_alloc, 2);
        a.free(y).unwrap();
        assert_eq!(a.allocate(1000, 7).unwrap(), y);
        assert_eq!(a.allocate(1000, 0).unwrap(), x);
    }

    #[test]
    fn a_block_used_by_another_stream_waits_for_it_before_reuse() {
        let mut a = allocator(1 << 30);
        let x = a.allocate(1000, 0).unwrap();
        a.record_stream(x + 100, 3);
        a.record_stream(x, 0); // its own stream: nothing to wait for
        a.free(x).unwrap();
        assert_eq!(a.stats().allocated_bytes[0].current, 0);
        assert_eq!(a.stats().active_bytes[0].current, 1024);
        assert_ne!(a.allocate(1000, 0).unwrap(), x, "stream 3 may still use it");
        a.provider.finished.push(3);
        assert_eq!(
            a.allocate(1000, 0).unwrap(),
            x,
            "reused once stream 3 passed"
        );
        assert!(
            a.free(x).is_ok() && a.free(x).is_err(),
            "a double free is refused"
        );
    }

    #[test]
    fn empty_cache_waits_for_streams_still_using_freed_blocks() {
        let mut a = allocator(1 << 30);
        let x = a.allocate(1000, 0).unwrap();
        a.record_stream(x, 5);
        a.free(x).unwrap();
        a.empty_cache();
        assert_eq!(a.provider.waited, vec![5]);
        assert_eq!(a.stats().reserved_bytes[0].current, 0);
        assert_eq!(a.stats().active_bytes[0].current, 0);
    }

    #[test]
    fn peak_resets_to_current() {
        let mut a = allocator(1 << 30);
        let x = a.allocate(4 * MIB, 0).unwrap();
        let y = a.allocate(2 * MIB, 0).unwrap();
        a.free(x).unwrap();
        a.stats_mut().reset_peak();
        assert_eq!(a.stats().allocated_bytes[0].peak, 2 * MIB as i64);
        a.free(y).unwrap();
    }
}
