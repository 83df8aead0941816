//! The C ABI the C++ glue calls. Every function returns 0 or an error code (the
//! [`ErrorKind`] number) and leaves the message for `mojo_last_error`; no panic crosses.

mod dispatch;
mod events;
mod ops;
pub mod runtime;
mod streams;
mod trace;

use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::error::{Error, ErrorKind, Result};

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// What a call that succeeded returns (`kStatusOk`); a failed one returns its [`ErrorKind`].
pub const STATUS_OK: i32 = 0;

/// Runs `f`, turning errors and panics into a status (`MojoStatus` in csrc/mojo.h) and a
/// stored message.
pub fn ffi_call(f: impl FnOnce() -> Result<()>) -> i32 {
    let error = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => return STATUS_OK,
        Ok(Err(e)) => e,
        Err(p) => Error {
            kind: ErrorKind::Panic,
            message: format!("mojo: Rust panic: {}", panic_message(&*p)),
        },
    };
    let message = CString::new(error.message.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = message);
    error.kind as i32
}

/// The message of the calling thread's last failed call.
#[no_mangle]
pub extern "C" fn mojo_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

#[cfg(test)]
mod tests {
    use super::runtime::StatsReset;
    use super::STATUS_OK;
    use crate::error::ErrorKind;
    use crate::ops::core::scalar::ScalarKind;

    /// The glue's enums carry the numbers the Rust side reads and writes.
    #[test]
    fn c_enums_match() {
        let header = include_str!("../../csrc/mojo.h");
        let named = [
            ("kStatusOk", STATUS_OK),
            ("kStatusRuntime", ErrorKind::Runtime as i32),
            ("kStatusPanic", ErrorKind::Panic as i32),
            ("kStatusOutOfMemory", ErrorKind::OutOfMemory as i32),
            ("kStatusNotImplemented", ErrorKind::NotImplemented as i32),
            ("kStatusIndex", ErrorKind::Index as i32),
            ("kStatusValue", ErrorKind::Value as i32),
            ("kStatusType", ErrorKind::Type as i32),
            ("kScalarBool", ScalarKind::Bool as i32),
            ("kScalarInt", ScalarKind::Int as i32),
            ("kScalarFloat", ScalarKind::Float as i32),
            ("kScalarComplex", crate::ops::core::scalar::COMPLEX_KIND),
            ("kResetPeaks", StatsReset::Peaks as i32),
            ("kResetTotals", StatsReset::Totals as i32),
        ];
        for (name, value) in named {
            assert!(
                header.contains(&format!("{name} = {value}")),
                "csrc/mojo.h: {name} is not {value}"
            );
        }
    }
}
