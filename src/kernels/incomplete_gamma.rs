//! The regularized incomplete gamma functions `P(a, x)` (`igamma`) and `Q(a, x)` (`igammac`)
//! as the CPU computes them (SciPy's port of Boost's method): the uniform asymptotic series
//! near `x = a` for large `a` (DLMF 8.12), otherwise the power series of `P` (DLMF 8.11.4),
//! the series of `Q` for small `x` (DLMF 8.7.3) or its continued fraction (DLMF 8.9.2), each
//! at most 2,000 steps, with the CPU's edge values (NaN below 0, the limits at 0 and infinity).

#![allow(clippy::excessive_precision)]

use std::f64::consts::PI;

use super::function_tables::{
    IGAM_D, LANCZOS_SUM_EXPG_SCALED_DENOM as LANCZOS_DENOM,
    LANCZOS_SUM_EXPG_SCALED_NUM as LANCZOS_NUM,
};
use crate::dtype::DType;
use crate::kernels::functions::{Body, Function};
use crate::kernels::special::lgamma;
use crate::kernels::{Expr, UnaryOp};

const LANCZOS_G: f64 = 6.024680040776729583740234375;
const MAX_STEPS: f64 = 2000.0;

/// The dtype's constants: (machine epsilon / 2, largest log, rescaling bound, its inverse).
fn limits(d: DType) -> (f64, f64, f64, f64) {
    if d == DType::F64 {
        (
            1.11022302462515654042e-16,
            709.782712893383996843,
            4.503599627370496e15,
            2.22044604925031308085e-16,
        )
    } else {
        (
            5.9604644775390625e-8,
            88.72283905206835,
            16777216.0,
            5.9604644775390625e-8,
        )
    }
}

fn call(f: Function, a: &Expr, x: &Expr) -> Expr {
    Expr::call(f, vec![a.clone(), x.clone()])
}

fn log(x: Expr) -> Expr {
    x.unary(UnaryOp::Log)
}

/// Lanczos' scaled sum at a local `x`: a ratio of degree-12 polynomials, in `1/x` past 1.
fn lanczos_sum(b: &mut Body, x: &Expr) -> Expr {
    let large = x.clone().unary(UnaryOp::Abs).gt(b.k(1.0));
    let inverse = b.let_(b.k(1.0) / x.clone());
    let reversed = |c: &[f64]| c.iter().rev().copied().collect::<Vec<_>>();
    let far =
        b.polevl(&inverse, &reversed(&LANCZOS_NUM)) / b.polevl(&inverse, &reversed(&LANCZOS_DENOM));
    let near = b.polevl(x, &LANCZOS_NUM) / b.polevl(x, &LANCZOS_DENOM);
    large.select(far, near)
}

/// `x^a e^-x / Gamma(a)`.
fn factor(b: &mut Body, a: Expr, x: Expr) {
    let (_, max_log, _, _) = limits(b.dtype());
    b.if_(
        (a.clone() - x.clone())
            .unary(UnaryOp::Abs)
            .gt(b.k(0.4) * a.clone().unary(UnaryOp::Abs)),
    );
    let ax = b.let_(a.clone() * log(x.clone()) - x.clone() - lgamma(a.clone(), b.dtype()));
    b.ret_if(ax.clone().lt(b.k(-max_log)), b.k(0.0));
    b.ret(ax.exp());
    b.end();
    let fac = b.let_(a.clone() + b.k(LANCZOS_G) - b.k(0.5));
    let sum = lanczos_sum(b, &a);
    let res = b.let_((fac.clone() / b.k(std::f64::consts::E)).unary(UnaryOp::Sqrt) / sum);
    let small = a.clone().lt(b.k(200.0)).and(x.clone().lt(b.k(200.0)));
    let power = (a.clone() - x.clone()).exp()
        * (x.clone() / fac.clone()).binary(crate::kernels::BinaryOp::Pow, a.clone());
    let numfac = b.let_((x.clone() - a.clone() - b.k(LANCZOS_G) + b.k(0.5)) / fac.clone());
    let log1pmx = numfac.clone().log1p() - numfac;
    let large = (a * log1pmx + x * (b.k(0.5) - b.k(LANCZOS_G)) / fac).exp();
    b.ret(res.clone() * small.select(power, large));
}

/// The power series of `P(a, x)`.
fn igamma_series(b: &mut Body, a: Expr, x: Expr) {
    let (epsilon, ..) = limits(b.dtype());
    let ax = b.let_(call(Function::IgammaFactor, &a, &x));
    b.ret_if(ax.clone().eq(b.k(0.0)), b.k(0.0));
    let r = b.var(a.clone());
    let c = b.var(b.k(1.0));
    let ans = b.var(b.k(1.0));
    let i = b.var(b.k(0.0));
    b.while_(i.clone().lt(b.k(MAX_STEPS)));
    b.set(&i, i.clone() + b.k(1.0));
    b.set(&r, r.clone() + b.k(1.0));
    b.set(&c, c.clone() * (x.clone() / r.clone()));
    b.set(&ans, ans.clone() + c.clone());
    b.break_if(c.clone().le(b.k(epsilon) * ans.clone()));
    b.end();
    b.ret(ans * ax / a);
}

/// The series of `Q(a, x)` for small `x`.
fn igammac_series(b: &mut Body, a: Expr, x: Expr) {
    let (epsilon, ..) = limits(b.dtype());
    let fac = b.var(b.k(1.0));
    let sum = b.var(b.k(0.0));
    let n = b.var(b.k(1.0));
    b.while_(n.clone().lt(b.k(MAX_STEPS)));
    b.set(&fac, fac.clone() * (-x.clone() / n.clone()));
    let term = b.let_(fac.clone() / (a.clone() + n.clone()));
    b.set(&sum, sum.clone() + term.clone());
    b.set(&n, n.clone() + b.k(1.0));
    let small = term
        .unary(UnaryOp::Abs)
        .le(b.k(epsilon) * sum.clone().unary(UnaryOp::Abs));
    b.break_if(small);
    b.end();
    let d = b.dtype();
    let logx = b.let_(log(x));
    let term = -(a.clone() * logx.clone() - lgamma(b.k(1.0) + a.clone(), d)).unary(UnaryOp::Expm1);
    b.ret(term - (a.clone() * logx - lgamma(a, d)).exp() * sum);
}

/// The continued fraction of `Q(a, x)`.
fn igammac_fraction(b: &mut Body, a: Expr, x: Expr) {
    let (epsilon, _, big, big_inverse) = limits(b.dtype());
    let ax = b.let_(call(Function::IgammaFactor, &a, &x));
    b.ret_if(ax.clone().eq(b.k(0.0)), b.k(0.0));
    let y = b.var(b.k(1.0) - a);
    let z = b.var(x.clone() + y.clone() + b.k(1.0));
    let c = b.var(b.k(0.0));
    let pkm2 = b.var(b.k(1.0));
    let qkm2 = b.var(x.clone());
    let pkm1 = b.var(x.clone() + b.k(1.0));
    let qkm1 = b.var(z.clone() * x);
    let ans = b.var(pkm1.clone() / qkm1.clone());
    let i = b.var(b.k(0.0));
    b.while_(i.clone().lt(b.k(MAX_STEPS)));
    b.set(&i, i.clone() + b.k(1.0));
    b.set(&c, c.clone() + b.k(1.0));
    b.set(&y, y.clone() + b.k(1.0));
    b.set(&z, z.clone() + b.k(2.0));
    let yc = b.let_(y.clone() * c.clone());
    let pk = b.let_(pkm1.clone() * z.clone() - pkm2.clone() * yc.clone());
    let qk = b.let_(qkm1.clone() * z.clone() - qkm2.clone() * yc);
    let nonzero = qk.clone().binary(crate::kernels::BinaryOp::Ne, b.k(0.0));
    let r = b.let_(pk.clone() / qk.clone());
    let t = b.let_(nonzero.clone().select(
        ((ans.clone() - r.clone()) / r.clone()).unary(UnaryOp::Abs),
        b.k(1.0),
    ));
    b.set(&ans, nonzero.select(r, ans.clone()));
    b.set(&pkm2, pkm1.clone());
    b.set(&pkm1, pk.clone());
    b.set(&qkm2, qkm1.clone());
    b.set(&qkm1, qk);
    b.if_(pk.unary(UnaryOp::Abs).gt(b.k(big)));
    for v in [&pkm2, &pkm1, &qkm2, &qkm1] {
        b.set(v, v.clone() * b.k(big_inverse));
    }
    b.end();
    b.break_if(t.le(b.k(epsilon)));
    b.end();
    b.ret(ans * ax);
}

/// The uniform asymptotic series of `P` (`lower` 1) or `Q` (0) near `x = a`: its
/// coefficients are polynomials in `eta` (the table's rows), added while the terms shrink.
fn asymptotic(b: &mut Body, a: Expr, x: Expr, lower: Expr) {
    let (epsilon, ..) = limits(b.dtype());
    let lambda = b.let_(x.clone() / a.clone());
    let sigma = b.let_((x - a.clone()) / a.clone());
    let root = (b.k(-2.0) * (sigma.clone().log1p() - sigma)).unary(UnaryOp::Sqrt);
    let eta = lambda
        .clone()
        .gt(b.k(1.0))
        .select(root.clone(), lambda.lt(b.k(1.0)).select(-root, b.k(0.0)));
    let eta = b.let_(eta);
    let sign = b.let_(lower.gt(b.k(0.5)).select(b.k(-1.0), b.k(1.0)));
    let half_a = (a.clone() / b.k(2.0)).unary(UnaryOp::Sqrt);
    let res = b.let_(b.k(0.5) * (sign.clone() * eta.clone() * half_a).unary(UnaryOp::Erfc));
    let sum = b.var(b.k(0.0));
    let afac = b.var(b.k(1.0));
    let previous = b.var(b.k(f64::INFINITY));
    let done = b.var(Expr::constant(DType::Bool, 0.0));
    for row in &IGAM_D {
        b.if_(done.clone().unary(UnaryOp::Not));
        let coefficients: Vec<f64> = row.iter().rev().copied().collect();
        let term = b.let_(b.polevl(&eta, &coefficients) * afac.clone());
        let size = b.let_(term.clone().unary(UnaryOp::Abs));
        b.if_(size.clone().gt(previous.clone()));
        b.set(&done, Expr::constant(DType::Bool, 1.0));
        b.else_();
        b.set(&sum, sum.clone() + term);
        let small = size
            .clone()
            .lt(b.k(epsilon) * sum.clone().unary(UnaryOp::Abs));
        b.set(&done, small);
        b.set(&previous, size);
        b.set(&afac, afac.clone() / a.clone());
        b.end();
        b.end();
    }
    // The CPU takes pi at float precision here, for float64 too.
    let two_pi = b.k(2.0 * f64::from(PI as f32));
    let tail = sign * (b.k(-0.5) * a.clone() * eta.clone() * eta).exp() * sum
        / (two_pi * a).unary(UnaryOp::Sqrt);
    b.ret(res + tail);
}

/// `P(a, x)` (`lower` 1) or `Q(a, x)` (0), each part written once for both (a kernel inlines
/// every call): P is its series, or `1 - Q` past `x > max(1, a)`; Q is `1 - P`'s series,
/// its own series or its continued fraction, as the CPU chooses.
fn regularized(b: &mut Body, a: Expr, x: Expr, lower_value: Expr) {
    let lower = b.let_(lower_value.clone().gt(b.k(0.5)));
    let pick = |p: Expr, q: Expr| lower.clone().select(p, q);
    let nan = b.k(f64::NAN);
    let (zero, one) = (b.k(0.0), b.k(1.0));
    let is_inf = |e: &Expr| e.clone().unary(UnaryOp::IsInf);
    b.ret_if(
        x.clone().lt(zero.clone()).or(a.clone().lt(zero.clone())),
        nan.clone(),
    );
    let x_positive = x.clone().gt(zero.clone());
    b.ret_if(
        a.clone().eq(zero.clone()),
        x_positive.select(pick(one.clone(), zero.clone()), nan.clone()),
    );
    b.ret_if(x.clone().eq(zero.clone()), pick(zero.clone(), one.clone()));
    b.ret_if(
        is_inf(&a),
        is_inf(&x).select(nan, pick(zero.clone(), one.clone())),
    );
    b.ret_if(is_inf(&x), pick(one.clone(), zero.clone()));
    let spread = b.let_((x.clone() - a.clone()).unary(UnaryOp::Abs) / a.clone());
    let middle = a
        .clone()
        .gt(b.k(20.0))
        .and(a.clone().lt(b.k(200.0)))
        .and(spread.clone().lt(b.k(0.3)));
    let large = a
        .clone()
        .gt(b.k(200.0))
        .and(spread.lt(b.k(4.5) / a.clone().unary(UnaryOp::Sqrt)));
    let series = Expr::call(
        Function::IncompleteGammaAsymptotic,
        vec![a.clone(), x.clone(), lower_value],
    );
    b.ret_if(middle.or(large), series);
    // P from its series directly, or Q (P as 1 - Q) by the CPU's choice of Q's method.
    let direct = b.let_(
        lower.clone().and(
            x.clone()
                .gt(one.clone())
                .and(x.clone().gt(a.clone()))
                .unary(UnaryOp::Not),
        ),
    );
    let from_p_series = b.var(direct.clone());
    let q = b.var(zero);
    b.if_(direct.clone().unary(UnaryOp::Not));
    b.if_(x.clone().gt(b.k(1.1)));
    b.if_(x.clone().lt(a.clone()));
    b.set(&from_p_series, Expr::constant(DType::Bool, 1.0));
    b.else_();
    b.set(&q, call(Function::IgammacFraction, &a, &x));
    b.end();
    b.else_();
    let p_first = x
        .clone()
        .le(b.k(0.5))
        .select(b.k(-0.4) / log(x.clone()), x.clone() * b.k(1.1))
        .lt(a.clone());
    b.if_(p_first);
    b.set(&from_p_series, Expr::constant(DType::Bool, 1.0));
    b.else_();
    b.set(&q, call(Function::IgammacSeries, &a, &x));
    b.end();
    b.end();
    b.end();
    b.if_(from_p_series);
    let p = b.let_(call(Function::IgammaSeries, &a, &x));
    b.ret_if(direct, p.clone());
    b.set(&q, one.clone() - p);
    b.end();
    b.ret(lower.select(one - q.clone(), q));
}

/// The body of `f` (one of the incomplete gamma functions and their parts).
pub fn body(b: &mut Body, f: Function) {
    let (a, x) = (b.arg(0), b.arg(1));
    let flag = |b: &Body, lower: bool| b.k(if lower { 1.0 } else { 0.0 });
    match f {
        Function::Igamma | Function::Igammac => {
            let lower = flag(b, f == Function::Igamma);
            b.ret(Expr::call(Function::IncompleteGamma, vec![a, x, lower]));
        }
        Function::IncompleteGamma => {
            let lower = b.arg(2);
            regularized(b, a, x, lower);
        }
        Function::IgammaFactor => factor(b, a, x),
        Function::IgammaSeries => igamma_series(b, a, x),
        Function::IgammacSeries => igammac_series(b, a, x),
        Function::IgammacFraction => igammac_fraction(b, a, x),
        Function::IncompleteGammaAsymptotic => {
            let lower = b.arg(2);
            asymptotic(b, a, x, lower);
        }
        _ => unreachable!("{f:?} is not an incomplete gamma function"),
    }
}
