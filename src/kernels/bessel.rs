//! The Bessel family and its relatives as the CPU computes them (Cephes' approximations, as
//! PyTorch writes them, tables in `bessel_tables`): J0, J1, Y0, Y1 by rational functions and
//! their asymptotic forms; I0, I1 (and scaled by `exp(-|x|)`), K0, K1 (and scaled by
//! `exp(x)`) by Chebyshev series; Airy's Ai; the spherical J0; the scaled complementary error
//! function by its hundred-piece table; and the normal quantile. Edge values follow the CPU
//! (J and Y are NaN at infinity, I0 and I1 NaN at infinity, K at 0 infinite).

#![allow(clippy::excessive_precision)]

use std::f64::consts::{FRAC_2_PI as TWOOPI, FRAC_PI_4 as PIO4, PI};

use super::function_tables::*;
use crate::dtype::DType;
use crate::kernels::functions::{Body, Function};
use crate::kernels::{Expr, UnaryOp};

const THPIO4: f64 = 2.356194490192344928846982537459627163;
const SQ2OPI: f64 = 0.797884560802865355879892119868763737;
const J0_DR1: f64 = 5.78318596294678452118e+00;
const J0_DR2: f64 = 3.04712623436620863991e+01;
const J1_Z1: f64 = 1.46819706421238932572e+01;
const J1_Z2: f64 = 4.92184563216946036703e+01;
/// `1 / sqrt(pi)`.
const FRAC_1_SQRT_PI: f64 = 5.64189583547756286948e-01;

fn abs(x: &Expr) -> Expr {
    x.clone().unary(UnaryOp::Abs)
}

fn sqrt(x: Expr) -> Expr {
    x.unary(UnaryOp::Sqrt)
}

/// `-v` where `negative`, else `v`.
fn signed(negative: Expr, v: Expr) -> Expr {
    negative.select(-v.clone(), v)
}

/// The asymptotic form of J0/Y0 (`n = 0`) and J1/Y1 (`n = 1`) past 5: with
/// `P = pp/pq`, `Q = qp/qq` at `w`, `(P trig_a(x - phase) -/+ 5/x Q trig_b(x - phase))
/// sqrt(2/pi) / sqrt(x)`, cosine first for J, sine first for Y.
fn asymptotic(b: &mut Body, x: &Expr, w: Expr, n: usize, y: bool) -> Expr {
    let w = b.let_(w);
    let (pp, pq, qp, qq, phase) = if n == 0 {
        (&J0_PP[..], &J0_PQ[..], &J0_QP[..], &J0_QQ[..], PIO4)
    } else {
        (&J1_PP[..], &J1_PQ[..], &J1_QP[..], &J1_QQ[..], THPIO4)
    };
    let p = b.polevl(&w, pp) / b.polevl(&w, pq);
    let q = b.polevl(&w, qp) / b.polevl(&w, qq);
    let angle = b.let_(x.clone() - b.k(phase));
    let (sin, cos) = (angle.clone().unary(UnaryOp::Sin), angle.unary(UnaryOp::Cos));
    let q_term = b.k(5.0) / x.clone() * q;
    let sum = if y {
        p * sin + q_term * cos
    } else {
        p * cos - q_term * sin
    };
    sum * b.k(SQ2OPI) / sqrt(x.clone())
}

fn bessel_j0(b: &mut Body, x: Expr) {
    let x = b.let_(abs(&x));
    b.if_(x.clone().le(b.k(5.0)));
    let z = b.let_(x.clone() * x.clone());
    b.ret_if(x.clone().lt(b.k(1e-5)), b.k(1.0) - z.clone() / b.k(4.0));
    let ratio = b.polevl(&z, &J0_RP) / b.polevl(&z, &J0_RQ);
    let roots = (z.clone() - b.k(J0_DR1)) * (z - b.k(J0_DR2));
    b.ret(roots * ratio);
    b.end();
    let w = b.k(25.0) / (x.clone() * x.clone());
    let v = asymptotic(b, &x, w, 0, false);
    b.ret(v);
}

fn bessel_j1(b: &mut Body, x: Expr) {
    let negative = b.let_(x.clone().lt(b.k(0.0)));
    let x = b.let_(signed(negative.clone(), x));
    b.if_(x.clone().le(b.k(5.0)));
    let z = b.let_(x.clone() * x.clone());
    let ratio = b.polevl(&z, &J1_RP) / b.polevl(&z, &J1_RQ);
    let v = ratio * x.clone() * (z.clone() - b.k(J1_Z1)) * (z - b.k(J1_Z2));
    b.ret(signed(negative.clone(), v));
    b.end();
    let five = b.k(5.0) / x.clone();
    let v = asymptotic(b, &x, five.clone() * five, 1, false);
    b.ret(signed(negative, v));
}

fn bessel_y0(b: &mut Body, x: Expr) {
    b.if_(x.clone().le(b.k(5.0)));
    b.ret_if(x.clone().eq(b.k(0.0)), b.k(f64::NEG_INFINITY));
    b.ret_if(x.clone().lt(b.k(0.0)), b.k(f64::NAN));
    let z = b.let_(x.clone() * x.clone());
    let ratio = b.polevl(&z, &Y0_YP) / b.polevl(&z, &Y0_YQ);
    let j0 = Expr::call(Function::BesselJ0, vec![x.clone()]);
    b.ret(ratio + b.k(TWOOPI) * x.clone().unary(UnaryOp::Log) * j0);
    b.end();
    let w = b.k(25.0) / (x.clone() * x.clone());
    let v = asymptotic(b, &x, w, 0, true);
    b.ret(v);
}

fn bessel_y1(b: &mut Body, x: Expr) {
    b.if_(x.clone().le(b.k(5.0)));
    b.ret_if(x.clone().eq(b.k(0.0)), b.k(f64::NEG_INFINITY));
    b.ret_if(x.clone().le(b.k(0.0)), b.k(f64::NAN));
    let z = b.let_(x.clone() * x.clone());
    let ratio = b.polevl(&z, &Y1_YP) / b.polevl(&z, &Y1_YQ);
    let j1 = Expr::call(Function::BesselJ1, vec![x.clone()]);
    let log_term = j1 * x.clone().unary(UnaryOp::Log) - b.k(1.0) / x.clone();
    b.ret(x.clone() * ratio + b.k(TWOOPI) * log_term);
    b.end();
    let five = b.k(5.0) / x.clone();
    let v = asymptotic(b, &x, five.clone() * five, 1, true);
    b.ret(v);
}

/// I0 or I1 (`one`), scaled by `exp(-|x|)` or not: Chebyshev series in `|x|/2 - 2` up to 8
/// and in `32/|x| - 2` past it. `cpu_i1`: the order of `torch.special.i1`'s products and its
/// shorter float32 tables (`modified_bessel_i1` uses the whole tables).
fn modified_bessel_i(b: &mut Body, x: Expr, one: bool, scaled: bool, cpu_i1: bool) {
    let short = cpu_i1 && b.dtype() != DType::F64;
    let (a, c): (&[f64], &[f64]) = match (one, short) {
        (false, _) => (&I0E_A, &I0E_B),
        (true, false) => (&I1E_A_F64, &I1E_B_F64),
        (true, true) => (&I1E_A_F64[12..], &I1E_B_F64[18..]),
    };
    let negative = b.let_(x.clone().lt(b.k(0.0)));
    let ax = b.let_(abs(&x));
    let exp = ax.clone().exp();
    let sign = |v: Expr| if one { signed(negative.clone(), v) } else { v };
    b.if_(ax.clone().le(b.k(8.0)));
    let y = b.let_(ax.clone() / b.k(2.0) - b.k(2.0));
    let series = b.chbevl(&y, a);
    let near = match (one, scaled, cpu_i1) {
        (false, false, _) => exp.clone() * series,
        (false, true, _) => series,
        (true, true, _) => series * ax.clone(),
        (true, false, true) => exp.clone() * ax.clone() * series,
        (true, false, false) => series * ax.clone() * exp.clone(),
    };
    b.ret(sign(near));
    b.end();
    let y = b.let_(b.k(32.0) / ax.clone() - b.k(2.0));
    let series = b.chbevl(&y, c);
    let far = if scaled {
        series / sqrt(ax.clone())
    } else {
        exp * series / sqrt(ax)
    };
    b.ret(sign(far));
}

/// K0 or K1 (`one`), scaled by `exp(x)` or not: Chebyshev series in `x^2 - 2` with the
/// logarithmic I term up to 2, in `8/x - 2` past it.
fn modified_bessel_k(b: &mut Body, x: Expr, one: bool, scaled: bool) {
    b.ret_if(x.clone().eq(b.k(0.0)), b.k(f64::INFINITY));
    b.ret_if(x.clone().lt(b.k(0.0)), b.k(f64::NAN));
    b.if_(x.clone().le(b.k(2.0)));
    let y = b.let_(x.clone() * x.clone() - b.k(2.0));
    let log = (b.k(0.5) * x.clone()).unary(UnaryOp::Log);
    let near = if one {
        let series = b.chbevl(&y, &K1_A);
        let i1 = Expr::call(Function::ModifiedBesselI1, vec![x.clone()]);
        log * i1 + series / x.clone()
    } else {
        let series = b.chbevl(&y, &K0_A);
        series - log * Expr::call(Function::ModifiedBesselI0, vec![x.clone()])
    };
    b.ret(if scaled { near * x.clone().exp() } else { near });
    b.end();
    let y = b.let_(b.k(8.0) / x.clone() - b.k(2.0));
    let series = b.chbevl(&y, if one { &K1_B } else { &K0_B });
    let far = if scaled {
        series / sqrt(x.clone())
    } else {
        (-x.clone()).exp() * series / sqrt(x)
    };
    b.ret(far);
}

/// Airy's Ai: NaN at the infinities, 0 past 103.892, the asymptotic series below -2.09 and
/// from 2.09 (used past 8.3203353), the Maclaurin series (a loop until its terms fall below
/// the dtype's epsilon) between.
fn airy_ai(b: &mut Body, x: Expr) {
    let k = |b: &Body, v: f64| b.k(v);
    b.ret_if(x.clone().unary(UnaryOp::IsInf), k(b, f64::NAN));
    b.ret_if(x.clone().gt(k(b, 103.892)), k(b, 0.0));
    b.if_(x.clone().lt(k(b, -2.09)));
    let root = b.let_(sqrt(-x.clone()));
    let zeta = b.let_(k(b, -2.0) * x.clone() * root.clone() / k(b, 3.0));
    let z = b.let_(k(b, 1.0) / zeta.clone());
    let zz = b.let_(z.clone() * z.clone());
    let f = z.clone() * z.clone() * b.polevl(&zz, &AIRY_AFN) / b.polevl(&zz, &AIRY_AFD);
    let g = z * b.polevl(&zz, &AIRY_AGN) / b.polevl(&zz, &AIRY_AGD);
    let t = b.let_(zeta + k(b, 0.25) * k(b, PI));
    let wave = t.clone().unary(UnaryOp::Sin) * (k(b, 1.0) + f) - t.unary(UnaryOp::Cos) * g;
    b.ret(k(b, FRAC_1_SQRT_PI) / sqrt(root) * wave);
    b.end();
    let big = b.let_(x.clone().ge(k(b, 2.09)));
    let ai = b.var(k(b, 0.0));
    b.if_(big.clone());
    let zeta = b.let_(k(b, 2.0) * x.clone() * sqrt(x.clone()) / k(b, 3.0));
    let inverse = b.let_(k(b, 1.0) / zeta.clone());
    let ratio = b.polevl(&inverse, &AIRY_AN) / b.polevl(&inverse, &AIRY_AD);
    let scale = k(b, 2.0) * sqrt(sqrt(x.clone())) * zeta.exp();
    b.set(&ai, k(b, FRAC_1_SQRT_PI) * ratio / scale);
    b.ret_if(x.clone().gt(k(b, 8.3203353)), ai.clone());
    b.end();
    let epsilon = if b.dtype() == DType::F64 {
        f64::EPSILON
    } else {
        f64::from(f32::EPSILON)
    };
    let (f, g) = (b.var(k(b, 1.0)), b.var(x.clone()));
    let (kk, m, n) = (b.var(k(b, 1.0)), b.var(k(b, 1.0)), b.var(x.clone()));
    let t = b.var(k(b, 1.0));
    let z = b.let_(x.clone() * x.clone() * x.clone());
    b.while_(t.clone().gt(k(b, epsilon)));
    let one = k(b, 1.0);
    b.set(&m, m.clone() * z.clone());
    b.set(&kk, kk.clone() + one.clone());
    b.set(&m, m.clone() / kk.clone());
    b.set(&n, n.clone() * z.clone());
    b.set(&kk, kk.clone() + one.clone());
    b.set(&n, n.clone() / kk.clone());
    b.set(&m, m.clone() / kk.clone());
    b.set(&f, f.clone() + m.clone());
    b.set(&kk, kk.clone() + one);
    b.set(&n, n.clone() / kk.clone());
    b.set(&g, g.clone() + n.clone());
    b.set(&t, abs(&(m / f.clone())));
    b.end();
    let series = k(b, 0.355028053887817239260) * f - k(b, 0.258819403792806798405) * g;
    b.ret(big.select(ai, series));
}

/// `sin(x) / x`, by its Taylor polynomial below 1/2; 0 at the infinities.
fn spherical_bessel_j0(b: &mut Body, x: Expr) {
    b.ret_if(x.clone().unary(UnaryOp::IsInf), b.k(0.0));
    b.if_(abs(&x).lt(b.k(0.5)));
    let z = b.let_(x.clone() * x.clone());
    let terms = [
        -1.0 / 6.0,
        1.0 / 120.0,
        -1.0 / 5040.0,
        1.0 / 362880.0,
        -1.0 / 39916800.0,
        1.0 / 6227020800.0,
    ];
    let mut series = b.k(terms[5]);
    for &c in terms[..5].iter().rev() {
        series = b.k(c) + z.clone() * series;
    }
    b.ret(b.k(1.0) + z * series);
    b.end();
    b.ret(x.clone().unary(UnaryOp::Sin) / x);
}

/// `exp(x^2) erfc(x)`: an asymptotic fraction past 50, `2 exp(x^2)` (less the table) for
/// negative x, and otherwise the degree-6 polynomial in `t = 2 y - (2k + 1)` of the table's
/// piece `k = floor(y)`, `y = 400 / (4 + |x|)`.
fn erfcx(b: &mut Body, x: Expr) {
    let k = |b: &Body, v: f64| b.k(v);
    b.ret_if(x.clone().is_nan(), x.clone());
    let positive = b.let_(x.clone().ge(k(b, 0.0)));
    let y = b.var(k(b, 0.0));
    b.if_(positive.clone());
    b.if_(x.clone().gt(k(b, 50.0)));
    let ispi = k(b, FRAC_1_SQRT_PI);
    b.ret_if(x.clone().gt(k(b, 5e7)), ispi.clone() / x.clone());
    let xx = b.let_(x.clone() * x.clone());
    let num = xx.clone() * (xx.clone() + k(b, 4.5)) + k(b, 2.0);
    let den = x.clone() * (xx.clone() * (xx + k(b, 5.0)) + k(b, 3.75));
    b.ret(ispi * num / den);
    b.end();
    b.set(&y, k(b, 400.0) / (k(b, 4.0) + x.clone()));
    b.else_();
    b.ret_if(x.clone().lt(k(b, -26.7)), k(b, f64::INFINITY));
    b.ret_if(
        x.clone().lt(k(b, -6.1)),
        k(b, 2.0) * (x.clone() * x.clone()).exp(),
    );
    b.set(&y, k(b, 400.0) / (k(b, 4.0) - x.clone()));
    b.end();
    let piece = b.let_(y.clone().cast(DType::I32));
    let from_table = |b: &mut Body, row: usize| {
        let t = k(b, 2.0) * y.clone() - k(b, (2 * row + 1) as f64);
        let t = b.let_(t);
        let c = &ERFCX_Y100[row];
        let value = c[..6]
            .iter()
            .rev()
            .fold(k(b, c[6]), |acc, &a| k(b, a) + acc * t.clone());
        let value = b.let_(value);
        let negative = k(b, 2.0) * (x.clone() * x.clone()).exp() - value.clone();
        b.ret(positive.clone().select(value, negative));
    };
    // y = 100 only at x = 0.
    b.ret_if(
        piece.clone().ge(Expr::constant(DType::I32, 100.0)),
        k(b, 1.0),
    );
    search(b, &piece, 0, 100, &from_table);
}

/// Binary search of `piece` in `[lo, hi)`: every leaf returns through `leaf`.
fn search(b: &mut Body, piece: &Expr, lo: usize, hi: usize, leaf: &dyn Fn(&mut Body, usize)) {
    if hi - lo == 1 {
        leaf(b, lo);
        return;
    }
    let mid = (lo + hi) / 2;
    b.if_(piece.clone().lt(Expr::constant(DType::I32, mid as f64)));
    search(b, piece, lo, mid, leaf);
    b.else_();
    search(b, piece, mid, hi, leaf);
    b.end();
}

/// The normal quantile: a rational function of `y - 1/2` in the middle (`|y - 1/2| <
/// 1/2 - exp(-2)`), of `1 / sqrt(-2 log y)` in the tails.
fn ndtri(b: &mut Body, y0: Expr) {
    let k = |b: &Body, v: f64| b.k(v);
    const TAIL: f64 = 0.13533528323661269189;
    b.ret_if(y0.clone().eq(k(b, 0.0)), k(b, f64::NEG_INFINITY));
    b.ret_if(y0.clone().eq(k(b, 1.0)), k(b, f64::INFINITY));
    let outside = y0.clone().lt(k(b, 0.0)).or(y0.clone().gt(k(b, 1.0)));
    b.ret_if(outside, k(b, f64::NAN));
    let upper = b.let_(y0.clone().gt(k(b, 1.0) - k(b, TAIL)));
    let y = b.let_(upper.clone().select(k(b, 1.0) - y0.clone(), y0));
    b.if_(y.clone().gt(k(b, TAIL)));
    let middle = b.let_(y.clone() - k(b, 0.5));
    let m2 = b.let_(middle.clone() * middle.clone());
    let ratio = m2.clone() * b.polevl(&m2, &NDTRI_P0) / b.polevl(&m2, &NDTRI_Q0);
    let x = middle.clone() + middle * ratio;
    b.ret(x * k(b, 2.50662827463100050242));
    b.end();
    let x = b.let_(sqrt(k(b, -2.0) * y.unary(UnaryOp::Log)));
    let x0 = x.clone() - x.clone().unary(UnaryOp::Log) / x.clone();
    let z = b.let_(k(b, 1.0) / x.clone());
    let near = z.clone() * b.polevl(&z, &NDTRI_P1) / b.polevl(&z, &NDTRI_Q1);
    let far = z.clone() * b.polevl(&z, &NDTRI_P2) / b.polevl(&z, &NDTRI_Q2);
    let value = x0 - x.lt(k(b, 8.0)).select(near, far);
    // The lower tail is negative.
    b.ret(signed(upper.unary(UnaryOp::Not), value));
}

/// The body of `f` at its argument.
pub fn body(b: &mut Body, f: Function) {
    use Function::*;
    let x = b.arg(0);
    match f {
        BesselJ0 => bessel_j0(b, x),
        BesselJ1 => bessel_j1(b, x),
        BesselY0 => bessel_y0(b, x),
        BesselY1 => bessel_y1(b, x),
        ModifiedBesselI0 => modified_bessel_i(b, x, false, false, false),
        I0e => modified_bessel_i(b, x, false, true, false),
        ModifiedBesselI1 => modified_bessel_i(b, x, true, false, false),
        I1 => modified_bessel_i(b, x, true, false, true),
        I1e => modified_bessel_i(b, x, true, true, true),
        ModifiedBesselK0 => modified_bessel_k(b, x, false, false),
        ModifiedBesselK1 => modified_bessel_k(b, x, true, false),
        ScaledModifiedBesselK0 => modified_bessel_k(b, x, false, true),
        ScaledModifiedBesselK1 => modified_bessel_k(b, x, true, true),
        AiryAi => airy_ai(b, x),
        SphericalBesselJ0 => spherical_bessel_j0(b, x),
        Erfcx => erfcx(b, x),
        Ndtri => ndtri(b, x),
        _ => unreachable!("{f:?} is a polynomial"),
    }
}
