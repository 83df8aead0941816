//! The gamma family, composed from the expression primitives without loops (each kernel is
//! one expression): `lgamma`, `digamma`, `polygamma` (trigamma and, from n = 2, Hurwitz's
//! zeta) and `special_zeta`. Half types compute in float32 and round once; integers compute
//! in float32, as the CPU promotes them.
//!
//! Where the CPU's kernels loop until an argument is large enough (digamma and lgamma shift
//! x up to 10, zeta adds terms until its argument passes 9), these always shift by a fixed
//! amount and add a fixed number of terms masked by the CPU's condition, so they agree with
//! the CPU within rounding. zeta's fixed count covers arguments q >= -MAX_ZETA_SHIFT + 9;
//! below that (the CPU would add more terms) the result is NaN, never a wrong number.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::special::{digamma, lgamma, trigamma, zeta};
use crate::kernels::Expr;
use crate::ops::core::call::{Call, Dest, Operand};
use crate::ops::core::pointwise::{common_dtype, float_dtype, pointwise, pointwise_with};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;

/// The dtype the family computes in for a result of dtype `d`.
fn compute_dtype(d: DType) -> DType {
    if matches!(d, DType::F16 | DType::BF16) {
        DType::F32
    } else {
        d
    }
}

/// A unary member of the family into `out`: `f(x)` in the compute dtype, rounded once.
fn unary(call: &mut Call, dest: Dest, f: fn(Expr, DType) -> Expr) -> Result<()> {
    let a = call.operand(0)?;
    let d = float_dtype(common_dtype(&[&a])?);
    let compute = compute_dtype(d);
    pointwise(call, &[&a], dest, compute, d, |e| f(e[0].clone(), compute))
}

/// `polygamma(n, x)`: digamma, trigamma, then `(-1)^(n+1) n! zeta(n + 1, x)` with n and n!
/// passed as launch scalars (one kernel for every n).
fn polygamma(call: &mut Call) -> Result<()> {
    let n = call.int(0)?;
    if n < 0 {
        return Err(Error::runtime(
            "polygamma(n, x) does not support negative n.",
        ));
    }
    let a = call.operand(1)?;
    let d = float_dtype(common_dtype(&[&a])?);
    let compute = compute_dtype(d);
    match n {
        0 => pointwise(call, &[&a], Dest::Arg(2), compute, d, |e| {
            digamma(e[0].clone(), compute)
        }),
        1 => pointwise(call, &[&a], Dest::Arg(2), compute, d, |e| {
            trigamma(e[0].clone(), compute)
        }),
        _ => {
            let factorial: f64 = (1..=n).map(|i| i as f64).product();
            let signed = if n % 2 == 1 { factorial } else { -factorial };
            let extras = [
                (compute, ScalarArg::float((n + 1) as f64)),
                (compute, ScalarArg::float(signed)),
            ];
            pointwise_with(call, &[&a], &extras, Dest::Arg(2), compute, d, |e| {
                e[2].clone() * zeta(e[1].clone(), e[0].clone(), compute)
            })
        }
    }
}

/// `special_zeta(x, q)`: Hurwitz's zeta of two operands (tensors or scalars).
fn special_zeta(call: &mut Call) -> Result<()> {
    let (s, q) = (call.operand(0)?, call.operand(1)?);
    if matches!((&s, &q), (Operand::Scalar(_), Operand::Scalar(_))) {
        return Err(Error::runtime(
            "special_zeta: at least one operand must be a tensor",
        ));
    }
    let d = float_dtype(common_dtype(&[&s, &q])?);
    let compute = compute_dtype(d);
    pointwise(call, &[&s, &q], Dest::Arg(2), compute, d, |e| {
        zeta(e[0].clone(), e[1].clone(), compute)
    })
}

pub const OPS: &[(&str, OpFn)] = &[
    ("lgamma.out", |c| unary(c, Dest::Arg(1), lgamma)),
    ("digamma.out", |c| unary(c, Dest::Arg(1), digamma)),
    ("polygamma.out", polygamma),
    ("special_zeta.out", special_zeta),
    ("special_zeta.self_scalar_out", special_zeta),
    ("special_zeta.other_scalar_out", special_zeta),
];
