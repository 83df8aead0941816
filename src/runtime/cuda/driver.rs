//! Checked calls into the CUDA driver (through the seam, `api::driver`) and the binding of a
//! device's primary context to the calling thread.

use std::ffi::CStr;

use cudarc::driver::sys;

use super::api::driver;
use crate::error::{Error, Result};
use crate::runtime::allocator::out_of_memory;

/// The driver's name for an error code.
fn describe(rc: sys::CUresult) -> String {
    let mut text: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: out-pointer to a static string owned by the driver.
    unsafe {
        if driver().cuGetErrorString(rc, &mut text) == sys::CUresult::CUDA_SUCCESS
            && !text.is_null()
        {
            return CStr::from_ptr(text).to_string_lossy().into_owned();
        }
    }
    format!("{rc:?}")
}

/// Turns a driver result into ours, naming the call that failed.
pub fn check(rc: sys::CUresult, what: &str) -> Result<()> {
    if rc == sys::CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(Error::runtime(format!(
            "mojo: CUDA error in {what}: {}",
            describe(rc)
        )))
    }
}

/// Like `check`, but an out-of-memory code becomes torch.OutOfMemoryError for `bytes`.
pub fn check_allocation(rc: sys::CUresult, bytes: u64) -> Result<()> {
    if rc == sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY {
        return Err(out_of_memory(bytes, "the device has no more free memory"));
    }
    check(rc, "cuMemAlloc")
}

/// A primary context, shareable across threads (the driver's contexts are thread-safe).
#[derive(Clone, Copy)]
pub struct Context(pub sys::CUcontext);

// SAFETY: a CUcontext handle may be made current on any thread.
unsafe impl Send for Context {}
unsafe impl Sync for Context {}

impl Context {
    /// Makes this context current on the calling thread, unless it already is (PyTorch's own
    /// CUDA runtime may have made another one current since).
    pub fn bind(self) -> Result<()> {
        let mut current: sys::CUcontext = std::ptr::null_mut();
        // SAFETY: valid out-pointer.
        check(
            unsafe { driver().cuCtxGetCurrent(&mut current) },
            "cuCtxGetCurrent",
        )?;
        if current == self.0 {
            return Ok(());
        }
        // SAFETY: a retained primary context.
        check(
            unsafe { driver().cuCtxSetCurrent(self.0) },
            "cuCtxSetCurrent",
        )
    }
}

/// An integer attribute of `device`.
pub fn attribute(device: sys::CUdevice, attribute: sys::CUdevice_attribute) -> Result<i32> {
    let mut value = 0;
    // SAFETY: valid out-pointer and device handle.
    check(
        unsafe { driver().cuDeviceGetAttribute(&mut value, attribute, device) },
        "cuDeviceGetAttribute",
    )?;
    Ok(value)
}
