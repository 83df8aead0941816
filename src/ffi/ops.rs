//! Op entry points: each reads the glue's tensor records and calls the ops layer.

use super::dispatch::name_refusal;
use super::ffi_call;
use crate::error::{Error, ErrorKind};
use crate::ops::core::output::set_callback_error;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::tensor::{TensorArg, TensorRef};
use crate::ops::shape::copy;

/// `dst.copy_(src)` between tensors of one device.
///
/// # Safety
/// Both records must describe live tensors.
#[no_mangle]
pub unsafe extern "C" fn mojo_copy(dst: &TensorArg, src: &TensorArg) -> i32 {
    ffi_call(|| {
        let tensors = TensorRef::from_arg_or_pairs(dst)
            .and_then(|dst| Ok((dst, TensorRef::from_arg_or_pairs(src)?)));
        tensors
            .and_then(|(dst, src)| copy::copy_any(dst, src))
            .map_err(|error| name_refusal(error, c"copy_"))
    })
}

/// `dst.fill_(value)`.
///
/// # Safety
/// `dst` must describe a live tensor.
#[no_mangle]
pub unsafe extern "C" fn mojo_fill(dst: &TensorArg, value: &ScalarArg) -> i32 {
    ffi_call(|| {
        TensorRef::from_arg_or_pairs(dst)
            .and_then(|dst| copy::fill_any(dst, value))
            .map_err(|error| name_refusal(error, c"fill_"))
    })
}

/// Lets a glue callback report the error it caught (`kind` as in `ErrorKind`).
///
/// # Safety
/// `message` must be a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn mojo_callback_error(kind: i32, message: *const std::ffi::c_char) {
    let message = std::ffi::CStr::from_ptr(message)
        .to_string_lossy()
        .into_owned();
    let kind = if kind == ErrorKind::OutOfMemory as i32 {
        ErrorKind::OutOfMemory
    } else {
        ErrorKind::Runtime
    };
    set_callback_error(Error { kind, message });
}
