//! Op entry points: each reads the glue's tensor records and calls the ops layer.

use std::ffi::c_void;

use super::ffi_call;
use crate::error::{Error, ErrorKind, Result};
use crate::kernels::{BinaryOp, ReduceOp, UnaryOp};
use crate::ops::elementwise::Operand;
use crate::ops::output::{set_callback_error, Output, ResizeFn};
use crate::ops::scalar::ScalarArg;
use crate::ops::tensor::{TensorArg, TensorRef};
use crate::ops::{copy, elementwise, masked_select, reduce};

fn unary_op(code: i32) -> Result<UnaryOp> {
    use UnaryOp::*;
    const OPS: [UnaryOp; 9] = [Neg, Abs, Ceil, Floor, Trunc, Not, IsNan, IsInf, IsFinite];
    OPS.get(code as usize)
        .copied()
        .ok_or_else(|| Error::runtime(format!("mojo: unknown unary op {code}")))
}

fn binary_op(code: i32) -> Result<BinaryOp> {
    use BinaryOp::*;
    const OPS: [BinaryOp; 15] = [
        Add, Sub, Mul, Div, Min, Max, BitAnd, BitOr, BitXor, Eq, Ne, Lt, Le, Gt, Ge,
    ];
    OPS.get(code as usize)
        .copied()
        .ok_or_else(|| Error::runtime(format!("mojo: unknown binary op {code}")))
}

/// `dst.copy_(src)` between tensors of one device.
///
/// # Safety
/// Both records must describe live tensors.
#[no_mangle]
pub unsafe extern "C" fn mojo_copy(dst: &TensorArg, src: &TensorArg) -> i32 {
    ffi_call(|| copy::copy(&TensorRef::from_arg(dst)?, &TensorRef::from_arg(src)?))
}

/// `dst.fill_(value)`.
///
/// # Safety
/// `dst` must describe a live tensor.
#[no_mangle]
pub unsafe extern "C" fn mojo_fill(dst: &TensorArg, value: &ScalarArg) -> i32 {
    ffi_call(|| copy::fill(&TensorRef::from_arg(dst)?, value))
}

/// `out = op(a)`.
///
/// # Safety
/// The records must describe live tensors and `resize` must accept `ctx`.
#[no_mangle]
pub unsafe extern "C" fn mojo_unary(
    op: i32,
    a: &TensorArg,
    out: &TensorArg,
    resize: ResizeFn,
    ctx: *mut c_void,
) -> i32 {
    ffi_call(|| {
        elementwise::unary(
            unary_op(op)?,
            &TensorRef::from_arg(a)?,
            &mut Output::new(out, resize, ctx)?,
        )
    })
}

/// `out = op(a, b)`, with `b` a tensor when `scalar` is null.
///
/// # Safety
/// The records must describe live tensors and `resize` must accept `ctx`.
#[no_mangle]
pub unsafe extern "C" fn mojo_binary(
    op: i32,
    a: &TensorArg,
    b: *const TensorArg,
    scalar: *const ScalarArg,
    out: &TensorArg,
    resize: ResizeFn,
    ctx: *mut c_void,
) -> i32 {
    ffi_call(|| {
        let b_ref;
        let operand = if scalar.is_null() {
            b_ref = TensorRef::from_arg(&*b)?;
            Operand::Tensor(&b_ref)
        } else {
            Operand::Scalar(*scalar)
        };
        elementwise::binary(
            binary_op(op)?,
            &TensorRef::from_arg(a)?,
            operand,
            &mut Output::new(out, resize, ctx)?,
        )
    })
}

/// `out = min(a)` (`op` 0) or `max(a)` (`op` 1) over all elements.
///
/// # Safety
/// The records must describe live tensors.
#[no_mangle]
pub unsafe extern "C" fn mojo_reduce_all(op: i32, a: &TensorArg, out: &TensorArg) -> i32 {
    ffi_call(|| {
        let op = if op == 0 {
            ReduceOp::Min
        } else {
            ReduceOp::Max
        };
        reduce::reduce_all(op, &TensorRef::from_arg(a)?, &TensorRef::from_arg(out)?)
    })
}

/// `out = a[mask]`.
///
/// # Safety
/// The records must describe live tensors and `resize` must accept `ctx`.
#[no_mangle]
pub unsafe extern "C" fn mojo_masked_select(
    a: &TensorArg,
    mask: &TensorArg,
    out: &TensorArg,
    resize: ResizeFn,
    ctx: *mut c_void,
) -> i32 {
    ffi_call(|| {
        masked_select::masked_select(
            &TensorRef::from_arg(a)?,
            &TensorRef::from_arg(mask)?,
            &mut Output::new(out, resize, ctx)?,
        )
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

/// `out = cat(inputs[..count], dim)`.
///
/// # Safety
/// `inputs` must point to `count` records of live tensors; `resize` must accept `ctx`.
#[no_mangle]
pub unsafe extern "C" fn mojo_cat(
    inputs: *const TensorArg,
    count: i64,
    dim: i64,
    out: &TensorArg,
    resize: ResizeFn,
    ctx: *mut c_void,
) -> i32 {
    ffi_call(|| {
        let args = if count == 0 {
            &[][..]
        } else {
            std::slice::from_raw_parts(inputs, count as usize)
        };
        let tensors = args
            .iter()
            .map(|a| TensorRef::from_arg(a))
            .collect::<Result<Vec<_>>>()?;
        crate::ops::cat::cat(&tensors, dim, &mut Output::new(out, resize, ctx)?)
    })
}
