//! Streams for the C++ device guard: ids, the thread's current stream per device, queries,
//! synchronisation and `record_stream`.

use super::ffi_call;
use crate::runtime::{self, backend, streams};

/// A new stream id on `device` into `*id`.
///
/// # Safety
/// `id` is writable.
#[no_mangle]
pub unsafe extern "C" fn mojo_stream_create(device: i64, id: *mut u64) -> i32 {
    ffi_call(|| {
        runtime::check_device(device)?;
        // SAFETY: per the contract.
        unsafe { *id = streams::create() };
        Ok(())
    })
}

/// The calling thread's current stream on `device`.
#[no_mangle]
pub extern "C" fn mojo_stream_current(device: i64) -> u64 {
    streams::current(device.max(0) as usize)
}

/// Makes `stream` the calling thread's current stream on `device`; returns the previous one.
#[no_mangle]
pub extern "C" fn mojo_stream_exchange(device: i64, stream: u64) -> u64 {
    streams::exchange(device.max(0) as usize, stream)
}

/// `*done` = 1 when all work issued on `stream` of `device` has finished.
///
/// # Safety
/// `done` is writable.
#[no_mangle]
pub unsafe extern "C" fn mojo_stream_query(device: i64, stream: u64, done: *mut i32) -> i32 {
    ffi_call(|| {
        let device = runtime::check_device(device)?;
        let idle = backend()?.stream_idle(device, stream)?;
        // SAFETY: per the contract.
        unsafe { *done = i32::from(idle) };
        Ok(())
    })
}

/// Waits for the work issued on `stream` of `device`.
#[no_mangle]
pub extern "C" fn mojo_stream_synchronize(device: i64, stream: u64) -> i32 {
    ffi_call(|| {
        super::runtime::count_sync();
        let device = runtime::check_device(device)?;
        backend()?.synchronize_stream(device, stream)?;
        crate::ops::core::faults::check(device)
    })
}

/// `Tensor.record_stream`: the block holding `address` stays unused until `stream`'s work
/// issued before the block's free has finished.
#[no_mangle]
pub extern "C" fn mojo_record_stream(address: u64, stream: u64) -> i32 {
    ffi_call(|| backend()?.record_stream(address, stream))
}
