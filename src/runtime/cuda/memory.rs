//! Device memory from cuMemAlloc as the caching allocator's segments.

use cudarc::driver::sys;

use super::driver::{check, check_allocation, Context};
use crate::error::Result;
use crate::runtime::allocator::MemoryProvider;

/// Allocates segments in one device's primary context.
pub struct DeviceMemory {
    pub context: Context,
}

impl MemoryProvider for DeviceMemory {
    type Segment = sys::CUdeviceptr;

    fn allocate(&mut self, bytes: u64) -> Result<sys::CUdeviceptr> {
        self.context.bind()?;
        let mut pointer: sys::CUdeviceptr = 0;
        // SAFETY: valid out-pointer; the context is current.
        check_allocation(
            unsafe { sys::cuMemAlloc_v2(&mut pointer, bytes as usize) },
            bytes,
        )?;
        Ok(pointer)
    }

    fn release(&mut self, segment: sys::CUdeviceptr) {
        if self.context.bind().is_ok() {
            // Work queued on the device may still use the block: wait for it first.
            // SAFETY: the context is current; the segment came from cuMemAlloc.
            unsafe {
                let _ = check(sys::cuCtxSynchronize(), "cuCtxSynchronize");
                let _ = sys::cuMemFree_v2(segment);
            }
        }
    }
}
