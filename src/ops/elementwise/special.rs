//! Special functions composed from the expression primitives: logaddexp, xlogy and xlog1py,
//! entropy, sinc and the log of the normal CDF, with CPU's dtypes and edge cases (integers
//! compute in float32 where CPU promotes them, half types in float32, rounding an
//! intermediate to the half type only where CPU's kernel does).

use crate::dtype::DType;
use crate::error::Result;
use crate::kernels::{Expr, UnaryOp};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::pointwise::{common_dtype, float_dtype, not_implemented_for, pointwise};
use crate::ops::core::registry::OpFn;
use crate::ops::elementwise::math::round_to;
use std::ops::{Add, Div, Mul, Sub};

fn c(dtype: DType, v: f64) -> Expr {
    Expr::constant(dtype, v)
}

/// `log(exp(a) + exp(b))` (`base2`: `log2(2^a + 2^b)`) as `max + log1p(exp(-|a - b|))`;
/// equal infinities give themselves (their difference would be NaN).
fn logaddexp(call: &mut Call, base2: bool) -> Result<()> {
    if !base2 && crate::ops::elementwise::complex::involved(call, &[0, 1, 2]) {
        let f = crate::kernels::complex::log_add_exp;
        return crate::ops::elementwise::complex::binary(call, "logaddexp", f);
    }
    let (a, b) = (call.operand(0)?, call.operand(1)?);
    let d = common_dtype(&[&a, &b])?;
    if !d.is_float() {
        let name = if base2 {
            "logaddexp2_cpu"
        } else {
            "logaddexp_cpu"
        };
        return Err(not_implemented_for(name, d));
    }
    pointwise(call, &[&a, &b], Dest::Arg(2), d, d, |e| {
        let (x, y) = (e[0].clone(), e[1].clone());
        let tail = -x.clone().sub(y.clone()).unary(UnaryOp::Abs);
        let sum = if base2 {
            let log2e = std::f64::consts::LOG2_E;
            tail.unary(UnaryOp::Exp2).log1p().mul(c(d, log2e))
        } else {
            tail.exp().log1p()
        };
        let same_infinity = x.clone().unary(UnaryOp::IsInf).and(x.clone().eq(y.clone()));
        same_infinity.select(x.clone(), x.max(y).add(sum))
    })
}

/// `x * log(y)` (`log1p`: `x * log1p(y)`), 0 where `x` is 0 unless `y` is NaN. For half
/// types the logarithm is rounded to the dtype first, as CPU's `std::log(Half)` returns it.
fn xlogy(call: &mut Call, log1p: bool) -> Result<()> {
    let (a, b) = (call.operand(0)?, call.operand(1)?);
    let d = float_dtype(common_dtype(&[&a, &b])?);
    pointwise(call, &[&a, &b], Dest::Arg(2), d, d, |e| {
        let (x, y) = (e[0].clone(), e[1].clone());
        let op = if log1p { UnaryOp::Log1p } else { UnaryOp::Log };
        let log = round_to(y.clone().unary(op), d);
        let product = x.clone().eq(c(d, 0.0)).select(c(d, 0.0), x.mul(log));
        y.is_nan().select(c(d, f64::NAN), product)
    })
}

/// `-x log x` for x > 0, 0 at 0, -inf below; NaN stays (half types round the logarithm
/// first, as CPU does).
fn entr(call: &mut Call) -> Result<()> {
    let a = call.operand(0)?;
    let d = float_dtype(common_dtype(&[&a])?);
    pointwise(call, &[&a], Dest::Arg(1), d, d, |e| {
        let x = e[0].clone();
        let positive = (-x.clone()).mul(round_to(x.clone().unary(UnaryOp::Log), d));
        let rest = x
            .clone()
            .eq(c(d, 0.0))
            .select(c(d, 0.0), c(d, f64::NEG_INFINITY));
        let value = x.clone().gt(c(d, 0.0)).select(positive, rest);
        x.clone().is_nan().select(x, value)
    })
}

/// `sin(pi x) / (pi x)`, 1 at 0.
fn sinc(call: &mut Call) -> Result<()> {
    if call.is_complex_arg(0) {
        return crate::ops::elementwise::complex::unary(
            call,
            "sinc",
            Some(crate::kernels::complex::sinc),
        );
    }
    let a = call.operand(0)?;
    let d = float_dtype(common_dtype(&[&a])?);
    pointwise(call, &[&a], Dest::Arg(1), d, d, |e| {
        let x = e[0].clone();
        let p = c(d, std::f64::consts::PI).mul(x.clone());
        let ratio = p.clone().unary(UnaryOp::Sin).div(p);
        x.eq(c(d, 0.0)).select(c(d, 1.0), ratio)
    })
}

/// erfc's rational approximation (Numerical Recipes' erfcc, relative error below 1.2e-7):
/// `erfc(z) = tau exp(-z^2 + p(tau))` with `tau = 1 / (1 + z/2)`, for z >= 0.
const ERFCC: [f64; 10] = [
    -1.26551223,
    1.00002368,
    0.37409196,
    0.09678418,
    -0.18628806,
    0.27886807,
    -1.13520398,
    1.48851587,
    -0.82215223,
    0.17087277,
];

/// `log(erfcx(z))` in float32 from [`ERFCC`]: `log(tau) + p(tau)`, which neither underflows
/// nor loses `exp(-z^2)`'s precision for large z.
fn log_erfcx_f32(z: Expr, d: DType) -> Expr {
    let tau = c(d, 1.0).div(c(d, 1.0).add(z.mul(c(d, 0.5))));
    let mut p = c(d, ERFCC[9]);
    for &k in ERFCC[..9].iter().rev() {
        p = c(d, k).add(tau.clone().mul(p));
    }
    tau.unary(UnaryOp::Log).add(p)
}

/// `log(erfc(z) / 2)` in float64, through erfcx's asymptotic series past z = 26 where erfc
/// underflows: `-z^2 - log(2 z sqrt(pi)) + log(1 - 1/(2z^2) + 3/(2z^2)^2 - 15/(2z^2)^3 ...)`.
fn log_half_erfc_f64(z: Expr, d: DType) -> Expr {
    let direct = z
        .clone()
        .unary(UnaryOp::Erfc)
        .mul(c(d, 0.5))
        .unary(UnaryOp::Log);
    let u = c(d, 1.0).div(z.clone().mul(z.clone()).mul(c(d, 2.0)));
    let mut series = c(d, 1.0);
    for k in (1..=8).rev() {
        let coefficient = -f64::from(2 * k - 1);
        series = c(d, 1.0).add(u.clone().mul(c(d, coefficient)).mul(series));
    }
    let scale = z.clone().mul(c(d, 2.0 * std::f64::consts::PI.sqrt()));
    let asymptotic = (-z.clone().mul(z.clone()))
        .sub(scale.unary(UnaryOp::Log))
        .add(series.unary(UnaryOp::Log));
    z.gt(c(d, 26.0)).select(asymptotic, direct)
}

/// `log(ndtr(x))` as CPU computes it: `log(erfcx(-t) / 2) - t^2` below -1 and
/// `log1p(-erfc(t) / 2)` above, with `t = x / sqrt(2)`.
fn log_ndtr(call: &mut Call) -> Result<()> {
    let a = call.operand(0)?;
    let d = float_dtype(common_dtype(&[&a])?);
    if matches!(d, DType::F16 | DType::BF16) {
        return Err(not_implemented_for("log_ndtr_cpu", d));
    }
    pointwise(call, &[&a], Dest::Arg(1), d, d, |e| {
        let x = e[0].clone();
        let t = x.clone().mul(c(d, std::f64::consts::FRAC_1_SQRT_2));
        let upper = (-t.clone().unary(UnaryOp::Erfc).mul(c(d, 0.5))).log1p();
        let lower = if d == DType::F64 {
            log_half_erfc_f64(-t, d)
        } else {
            let half_erfcx = log_erfcx_f32(-t.clone(), d).sub(c(d, std::f64::consts::LN_2));
            half_erfcx.sub(t.clone().mul(t))
        };
        x.lt(c(d, -1.0)).select(lower, upper)
    })
}

pub const OPS: &[(&str, OpFn)] = &[
    ("logaddexp.out", |c| logaddexp(c, false)),
    ("logaddexp2.out", |c| logaddexp(c, true)),
    ("xlogy.OutTensor", |c| xlogy(c, false)),
    ("special_xlog1py.out", |c| xlogy(c, true)),
    ("special_entr.out", entr),
    ("sinc.out", sinc),
    ("special_log_ndtr.out", log_ndtr),
];

#[cfg(test)]
mod tests {
    use super::ERFCC;
    use std::f64::consts::PI;

    /// `log(erfcx(z))` from a long continued fraction: `erfcx(z) = 1 / (sqrt(pi) f)`.
    fn log_erfcx(z: f64) -> f64 {
        let mut f = z;
        for k in (1..=400).rev() {
            f = z + (f64::from(k) * 0.5) / f;
        }
        -(PI.sqrt() * f).ln()
    }

    /// float64's asymptotic series for `log(erfcx(z) / 2)` meets the continued fraction
    /// where it takes over.
    #[test]
    fn log_ndtr_series_meets_the_continued_fraction() {
        for z in [26.0f64, 30.0, 1e3] {
            let u = 1.0 / (2.0 * z * z);
            let mut series = 1.0;
            for k in (1..=8).rev() {
                series = 1.0 - f64::from(2 * k - 1) * u * series;
            }
            let asymptotic = -(2.0 * z * PI.sqrt()).ln() + series.ln();
            let direct = log_erfcx(z) - std::f64::consts::LN_2;
            let tolerance = 1e-15 * direct.abs().max(1.0);
            assert!(
                (asymptotic - direct).abs() <= tolerance,
                "{z}: {asymptotic} vs {direct}"
            );
        }
    }

    /// float32's erfcx approximation is within its documented 1.2e-7 from 1/sqrt(2) up.
    #[test]
    fn erfcc_logarithm_is_accurate() {
        for i in 0..2000 {
            let z = std::f64::consts::FRAC_1_SQRT_2 + f64::from(i) * 0.05;
            let tau = 1.0 / (1.0 + 0.5 * z);
            let p = ERFCC.iter().rev().fold(0.0, |acc, &k| k + tau * acc);
            let approx = tau.ln() + p;
            assert!((approx - log_erfcx(z)).abs() < 1.3e-7, "{z}");
        }
    }
}
