//! The device-activity trace for the kineto plugin (csrc/kineto_plugin.cpp).

use std::ffi::{c_char, c_void, CString};

use super::ffi_call;
use crate::runtime::{backend, trace};

/// One piece of device work as the plugin reads it; `name` lives during the callback.
#[repr(C)]
pub struct MojoActivity {
    pub name: *const c_char,
    pub device: i64,
    pub stream: u64,
    pub correlation: u64,
    pub start_ns: i64,
    pub end_ns: i64,
}

/// Starts recording device work (waiting for every device first).
#[no_mangle]
pub extern "C" fn mojo_trace_start() -> i32 {
    ffi_call(|| trace::start(backend()?))
}

/// Stops recording.
#[no_mangle]
pub extern "C" fn mojo_trace_stop() {
    trace::stop();
}

/// The profiler entered op `id` on the calling thread.
#[no_mangle]
pub extern "C" fn mojo_trace_push_correlation(id: u64) {
    trace::push_correlation(id);
}

/// The profiler left the innermost op on the calling thread.
#[no_mangle]
pub extern "C" fn mojo_trace_pop_correlation() {
    trace::pop_correlation();
}

/// Ends the session, waiting for its work, and passes each activity to `emit`.
///
/// # Safety
/// `emit` must be callable with `context` and an activity valid for the call.
#[no_mangle]
pub unsafe extern "C" fn mojo_trace_collect(
    context: *mut c_void,
    emit: unsafe extern "C" fn(*mut c_void, *const MojoActivity),
) -> i32 {
    ffi_call(|| {
        for a in trace::finish()? {
            let name = CString::new(a.name.replace('\0', " ")).unwrap_or_default();
            let activity = MojoActivity {
                name: name.as_ptr(),
                device: a.device as i64,
                stream: a.stream,
                correlation: a.correlation,
                start_ns: a.start_ns,
                end_ns: a.end_ns,
            };
            // SAFETY: per the contract; `activity` and `name` outlive the call.
            unsafe { emit(context, &activity) };
        }
        Ok(())
    })
}
