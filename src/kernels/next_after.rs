//! `nextafter(x, y)`: the value of `x`'s floating format next to `x` towards `y`, from the
//! format's precision and exponent range (no bit casts: half types compute in float32, whose
//! arithmetic holds their neighbours exactly). The step is the spacing of `x`'s binade,
//! halved when stepping down from a power of two; subnormals step by the smallest one. A
//! device that flushes subnormal results to zero (lavapipe's float64) gives 0 where the
//! neighbour is subnormal.

use crate::dtype::DType;
use crate::kernels::functions::{Body, Function};
use crate::kernels::{BinaryOp, Expr, UnaryOp};

/// The storage format whose neighbours `f` steps through, for compute dtype `d`: (bits of
/// precision, smallest normal exponent, largest finite value).
fn format(f: Function, d: DType) -> (i32, i32, f64) {
    match f {
        Function::NextAfterHalf => (11, -14, 65504.0),
        Function::NextAfterBFloat16 => (8, -126, 3.3895313892515355e38),
        _ if d == DType::F64 => (53, -1022, f64::MAX),
        _ => (24, -126, f64::from(f32::MAX)),
    }
}

/// The body of `f` at `(x, y)`.
pub fn body(b: &mut Body, f: Function) {
    let (precision, min_exponent, max_finite) = format(f, b.dtype());
    let (x, y) = (b.arg(0), b.arg(1));
    let k = |b: &Body, v: f64| b.k(v);
    b.ret_if(
        x.clone().is_nan().or(y.clone().is_nan()),
        x.clone() + y.clone(),
    );
    b.ret_if(x.clone().eq(y.clone()), y.clone());
    let tiny = 2f64.powi(min_exponent - (precision - 1));
    b.ret_if(
        x.clone().eq(k(b, 0.0)),
        k(b, tiny).binary(BinaryOp::CopySign, y.clone()),
    );
    b.ret_if(
        x.clone().unary(UnaryOp::IsInf),
        k(b, max_finite).binary(BinaryOp::CopySign, x.clone()),
    );
    // The exponent of |x|: log2's floor, corrected where log2 rounds across an integer.
    let magnitude = b.let_(x.clone().unary(UnaryOp::Abs));
    let exponent = b.var(magnitude.clone().unary(UnaryOp::Log2).unary(UnaryOp::Floor));
    let power = |e: Expr| e.unary(UnaryOp::Exp2);
    b.if_(power(exponent.clone()).gt(magnitude.clone()));
    b.set(&exponent, exponent.clone() - k(b, 1.0));
    b.end();
    b.if_(power(exponent.clone() + k(b, 1.0)).le(magnitude.clone()));
    b.set(&exponent, exponent.clone() + k(b, 1.0));
    b.end();
    // Near the subnormals the step itself is subnormal, which devices that flush them lose:
    // there the sum is taken scaled up by 2^shift (exact, powers of two) and scaled back.
    let low = f64::from(min_exponent + precision + 1);
    let shift = b.let_(
        exponent
            .clone()
            .lt(k(b, low))
            .select(k(b, f64::from(precision + 2)), k(b, 0.0)),
    );
    let step_exponent = exponent.clone().max(k(b, f64::from(min_exponent)))
        - k(b, f64::from(precision - 1))
        + shift.clone();
    let spacing = b.let_(power(step_exponent));
    let up = y.gt(x.clone());
    let away = up.clone().eq(x.clone().gt(k(b, 0.0)));
    // Towards zero from a normal power of two the spacing below is half as wide.
    let from_power = magnitude
        .eq(power(exponent.clone()))
        .and(exponent.gt(k(b, f64::from(min_exponent))));
    let step = away.select(
        spacing.clone(),
        from_power.select(spacing.clone() * k(b, 0.5), spacing),
    );
    let scale = b.let_(power(shift));
    b.ret((x * scale.clone() + up.select(step.clone(), -step)) / scale);
}
