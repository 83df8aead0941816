//! Device memory from cuMemAlloc as the caching allocator's segments.

use std::sync::Arc;

use cudarc::driver::sys;

use super::api::driver;
use super::driver::{check, check_allocation, Context};
use super::events::CudaEvent;
use super::streams::Streams;
use crate::error::Result;
use crate::runtime::allocator::MemoryProvider;
use crate::runtime::backend::DeviceEvent;

/// Allocates segments in one device's primary context; marks its streams' progress with
/// events for blocks other streams use.
pub struct DeviceMemory {
    pub context: Context,
    pub streams: Arc<Streams>,
}

impl MemoryProvider for DeviceMemory {
    type Segment = sys::CUdeviceptr;

    fn allocate(&mut self, bytes: u64) -> Result<sys::CUdeviceptr> {
        self.context.bind()?;
        let mut pointer: sys::CUdeviceptr = 0;
        // SAFETY: valid out-pointer; the context is current.
        check_allocation(
            unsafe { driver().cuMemAlloc_v2(&mut pointer, bytes as usize) },
            bytes,
        )?;
        Ok(pointer)
    }

    fn release(&mut self, segment: sys::CUdeviceptr) {
        if self.context.bind().is_ok() {
            // Work queued on the device may still use the block: wait for it first.
            // SAFETY: the context is current; the segment came from cuMemAlloc.
            unsafe {
                let _ = check(driver().cuCtxSynchronize(), "cuCtxSynchronize");
                let _ = driver().cuMemFree_v2(segment);
            }
        }
    }

    type Event = CudaEvent;

    fn record(&mut self, stream: u64) -> Result<CudaEvent> {
        self.context.bind()?;
        CudaEvent::record(self.context, self.streams.get(stream)?, false)
    }

    /// An event that cannot be queried belongs to a failed context, where nothing runs.
    fn reached(&mut self, event: &CudaEvent, wait: bool) -> bool {
        if wait {
            let _ = event.synchronize();
            return true;
        }
        event.query().unwrap_or(true)
    }
}
