//! Events for the C++ device guard: an event is an opaque pointer to a recorded
//! [`DeviceEvent`]; recording again replaces it.

use std::ffi::c_void;

use super::ffi_call;
use crate::runtime::backend::DeviceEvent;
use crate::runtime::{self, backend};

type Handle = Box<dyn DeviceEvent>;

/// # Safety
/// `handle` must come from `mojo_event_record` and not have been destroyed.
unsafe fn event<'a>(handle: *mut c_void) -> &'a dyn DeviceEvent {
    // SAFETY: per the contract, a live `Box<Handle>`.
    unsafe { &**(handle as *const Handle) }
}

/// Records an event at the end of `stream`'s work on `device` into `*handle` (destroying the
/// event held there before, if any).
///
/// # Safety
/// `handle` must be writable and hold null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn mojo_event_record(
    device: i64,
    stream: u64,
    timing: i32,
    handle: *mut *mut c_void,
) -> i32 {
    ffi_call(|| {
        let device = runtime::check_device(device)?;
        let recorded: Handle = backend()?.record_event(device, stream, timing != 0)?;
        // SAFETY: per the contract.
        unsafe {
            mojo_event_destroy(*handle);
            *handle = Box::into_raw(Box::new(recorded)) as *mut c_void;
        }
        Ok(())
    })
}

/// Makes work issued on `stream` of `device` from now on wait for the event.
///
/// # Safety
/// `handle` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn mojo_event_block(handle: *mut c_void, device: i64, stream: u64) -> i32 {
    ffi_call(|| {
        let device = runtime::check_device(device)?;
        // SAFETY: per the contract.
        backend()?.wait_event(device, stream, unsafe { event(handle) })
    })
}

/// `*done` = 1 when the work before the event has finished.
///
/// # Safety
/// `handle` is a live handle; `done` is writable.
#[no_mangle]
pub unsafe extern "C" fn mojo_event_query(handle: *mut c_void, done: *mut i32) -> i32 {
    ffi_call(|| {
        // SAFETY: per the contract.
        let finished = unsafe { event(handle) }.query()?;
        unsafe { *done = i32::from(finished) };
        Ok(())
    })
}

/// Waits for the work before the event.
///
/// # Safety
/// `handle` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn mojo_event_synchronize(handle: *mut c_void) -> i32 {
    // SAFETY: per the contract.
    ffi_call(|| unsafe { event(handle) }.synchronize())
}

/// Milliseconds between two timed events.
///
/// # Safety
/// Both handles are live; `ms` is writable.
#[no_mangle]
pub unsafe extern "C" fn mojo_event_elapsed(
    start: *mut c_void,
    end: *mut c_void,
    ms: *mut f64,
) -> i32 {
    ffi_call(|| {
        // SAFETY: per the contract.
        let elapsed = unsafe { event(start).elapsed_ms(event(end))? };
        unsafe { *ms = elapsed };
        Ok(())
    })
}

/// Frees an event (null is ignored).
///
/// # Safety
/// `handle` is null or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn mojo_event_destroy(handle: *mut c_void) {
    if !handle.is_null() {
        // SAFETY: per the contract, a `Box<Handle>` from `mojo_event_record`.
        drop(unsafe { Box::from_raw(handle as *mut Handle) });
    }
}
