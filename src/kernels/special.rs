//! Special functions as loop-free scalar expressions (each kernel that uses one is one
//! expression): the gamma family (`lgamma`, `digamma`, `trigamma`, Hurwitz's `zeta`,
//! `polygamma`) and `hypot`, shared by the eager ops (`ops::gamma`, `ops::math`) and the
//! kernels `torch.compile` generates (`kernels::fused`).
//!
//! Where the CPU's kernels loop until an argument is large enough (digamma and lgamma shift
//! x up to 10, zeta adds terms until its argument passes 9), these always shift by a fixed
//! amount and add a fixed number of terms masked by the CPU's condition, so they agree with
//! the CPU within rounding. zeta's fixed count covers arguments q >= -MAX_ZETA_SHIFT + 9;
//! below that (the CPU would add more terms) the result is NaN, never a wrong number.

use std::f64::consts::PI;

use crate::dtype::DType;
use crate::kernels::{BinaryOp, Expr, UnaryOp};

fn k(d: DType, v: f64) -> Expr {
    Expr::constant(d, v)
}

/// `x` less its nearest integer (exact, in [-1/2, 1/2]): where `tan(pi x)` and `|sin(pi x)|`
/// take it instead of x, they keep their relative precision next to the integers.
fn nearest_integer_offset(x: &Expr) -> Expr {
    x.clone() - x.clone().unary(UnaryOp::Round)
}

fn is_integer(x: &Expr) -> Expr {
    x.clone().eq(x.clone().unary(UnaryOp::Trunc))
}

/// The asymptotic digamma the CPU uses from 10 up: `log x - 1/(2x) - z P(z)`, z = 1/x^2
/// (dropped past 1e17).
fn digamma_asymptotic(x: Expr, d: DType) -> Expr {
    const A: [f64; 7] = [
        8.333_333_333_333_333e-2,
        -2.109_279_609_279_609_3e-2,
        7.575_757_575_757_576e-3,
        -4.166_666_666_666_667e-3,
        3.968_253_968_253_968e-3,
        -8.333_333_333_333_333e-3,
        8.333_333_333_333_333e-2,
    ];
    let z = k(d, 1.0) / (x.clone() * x.clone());
    let mut p = k(d, A[0]);
    for &a in &A[1..] {
        p = p * z.clone() + k(d, a);
    }
    let tail = x.clone().lt(k(d, 1e17)).select(z * p, k(d, 0.0));
    x.clone().unary(UnaryOp::Log) - k(d, 0.5) / x - tail
}

/// digamma for x > 0: below 10, `psi(x + 10) - sum 1/(x + i)` for i < 10.
fn digamma_positive(x: Expr, d: DType) -> Expr {
    let small = x.clone().lt(k(d, 10.0));
    let mut steps = k(d, 1.0) / x.clone();
    for i in 1..10 {
        steps = steps + k(d, 1.0) / (x.clone() + k(d, f64::from(i)));
    }
    let shifted = small.clone().select(x.clone() + k(d, 10.0), x);
    digamma_asymptotic(shifted, d) - small.select(steps, k(d, 0.0))
}

/// The CPU's digamma: -inf at +0 (+inf at -0), NaN at negative integers, reflection
/// `psi(1 - x) - pi / tan(pi x)` below 0.
pub fn digamma(x: Expr, d: DType) -> Expr {
    let negative = x.clone().lt(k(d, 0.0));
    let y = negative.clone().select(k(d, 1.0) - x.clone(), x.clone());
    let positive = digamma_positive(y, d);
    let cot = k(d, PI) / (k(d, PI) * nearest_integer_offset(&x)).unary(UnaryOp::Tan);
    let value = negative.clone().select(positive.clone() - cot, positive);
    let zero = k(d, f64::INFINITY).binary(BinaryOp::CopySign, -x.clone());
    let pole = negative.and(is_integer(&x));
    x.clone()
        .eq(k(d, 0.0))
        .select(zero, pole.select(k(d, f64::NAN), value))
}

/// The CPU's trigamma: reflection `pi^2 / sin^2(pi x) - psi'(1 - x)` below 1/2, then six
/// recurrence steps and the asymptotic series.
pub fn trigamma(x: Expr, d: DType) -> Expr {
    let reflect = x.clone().lt(k(d, 0.5));
    let sine = (k(d, PI) * x.clone()).unary(UnaryOp::Sin);
    let pole_term = k(d, PI * PI) / (sine.clone() * sine);
    let mut y = reflect.clone().select(k(d, 1.0) - x.clone(), x);
    let mut sum = k(d, 0.0);
    for _ in 0..6 {
        sum = sum + k(d, 1.0) / (y.clone() * y.clone());
        y = y + k(d, 1.0);
    }
    let ixx = k(d, 1.0) / (y.clone() * y.clone());
    let series =
        k(d, 1.0 / 6.0) - ixx.clone() * (k(d, 1.0 / 30.0) - ixx.clone() * k(d, 1.0 / 42.0));
    let tail = (k(d, 1.0) + k(d, 1.0) / (k(d, 2.0) * y.clone()) + ixx * series) / y;
    let positive = sum + tail;
    reflect.select(pole_term - positive.clone(), positive)
}

/// Terms of zeta's direct sum beyond the first nine: arguments down to 9 - this are exact.
const MAX_ZETA_SHIFT: i32 = 20;

/// Euler-Maclaurin's denominators (Cephes' zeta).
const ZETA_A: [f64; 12] = [
    12.0,
    -720.0,
    30240.0,
    -1209600.0,
    47900160.0,
    -1.892_437_580_318_379_2e9,
    7.47242496e10,
    -2.950_130_727_918_164e12,
    1.164_678_281_435_006_7e14,
    -4.597_978_722_407_473e15,
    1.815_210_540_194_354_7e17,
    -7.166_165_256_175_667e18,
];

/// Hurwitz's zeta(s, q) as Cephes computes it: `q^-s` plus the next terms while fewer than 9
/// were added or their argument is at most 9, then the Euler-Maclaurin tail at the last one.
pub fn zeta(s: Expr, q: Expr, d: DType) -> Expr {
    let power = |a: Expr| a.binary(BinaryOp::Pow, -s.clone());
    // The CPU adds max(9, floor(9 - q) + 1) terms after the first.
    let count = ((k(d, 9.0) - q.clone()).unary(UnaryOp::Floor) + k(d, 1.0)).max(k(d, 9.0));
    let mut sum = power(q.clone());
    for i in 1..=(9 + MAX_ZETA_SHIFT) {
        let term = power(q.clone() + k(d, f64::from(i)));
        sum = if i <= 9 {
            sum + term
        } else {
            sum + k(d, f64::from(i)).le(count.clone()).select(term, k(d, 0.0))
        };
    }
    let w = q.clone() + count.clone();
    let b = power(w.clone());
    sum = sum + b.clone() * w.clone() / (s.clone() - k(d, 1.0)) - k(d, 0.5) * b.clone();
    // Cephes' tail sum_i s (s+1) ... (s+2i) w^-(s+2i+1) / A_i, nested from the last term.
    let inverse_square = k(d, 1.0) / (w.clone() * w.clone());
    let mut nested = k(d, 1.0 / ZETA_A[ZETA_A.len() - 1]);
    for i in (0..ZETA_A.len() - 1).rev() {
        let rise = (s.clone() + k(d, (2 * i + 1) as f64)) * (s.clone() + k(d, (2 * i + 2) as f64));
        nested = k(d, 1.0 / ZETA_A[i]) + rise * inverse_square.clone() * nested;
    }
    sum = sum + b / w * s.clone() * nested;
    let beyond = count.gt(k(d, f64::from(9 + MAX_ZETA_SHIFT)));
    let value = beyond.select(k(d, f64::NAN), sum);
    // Cephes' special cases: a pole at s = 1, NaN below; q <= 0 is a pole at integers and
    // needs an integer s otherwise.
    let q_pole = q.clone().le(k(d, 0.0)).and(is_integer(&q));
    let q_invalid = q
        .clone()
        .le(k(d, 0.0))
        .and(is_integer(&s).unary(UnaryOp::Not));
    let finite = q_pole.select(k(d, f64::INFINITY), q_invalid.select(k(d, f64::NAN), value));
    s.clone().eq(k(d, 1.0)).select(
        k(d, f64::INFINITY),
        s.lt(k(d, 1.0)).select(k(d, f64::NAN), finite),
    )
}

/// Stirling's series for log Gamma(z), z >= 10: `(z - 1/2) log z - z + log(2 pi)/2 +
/// sum B_2k / (2k (2k - 1) z^(2k - 1))`.
fn lgamma_stirling(z: Expr, d: DType) -> Expr {
    const B: [f64; 7] = [
        1.0 / 12.0,
        -1.0 / 360.0,
        1.0 / 1260.0,
        -1.0 / 1680.0,
        1.0 / 1188.0,
        -691.0 / 360_360.0,
        1.0 / 156.0,
    ];
    let inverse = k(d, 1.0) / z.clone();
    let square = inverse.clone() * inverse.clone();
    let mut series = k(d, B[6]);
    for &b in B[..6].iter().rev() {
        series = series * square.clone() + k(d, b);
    }
    (z.clone() - k(d, 0.5)) * z.clone().unary(UnaryOp::Log) - z
        + k(d, 0.5 * (2.0 * PI).ln())
        + series * inverse
}

/// log |Gamma(x)|: below 10, Stirling at x + 10 less `log(x (x + 1) ... (x + 9))`; below 0,
/// the reflection `log(pi / |sin(pi x)|) - lgamma(1 - x)`; +inf at 0, at negative integers
/// and at both infinities.
pub fn lgamma(x: Expr, d: DType) -> Expr {
    let negative = x.clone().lt(k(d, 0.0));
    let y = negative.clone().select(k(d, 1.0) - x.clone(), x.clone());
    let small = y.clone().lt(k(d, 10.0));
    let mut product = y.clone();
    for i in 1..10 {
        product = product * (y.clone() + k(d, f64::from(i)));
    }
    let shifted = small.clone().select(y.clone() + k(d, 10.0), y);
    let positive =
        lgamma_stirling(shifted, d) - small.select(product.unary(UnaryOp::Log), k(d, 0.0));
    let sine = (k(d, PI) * nearest_integer_offset(&x))
        .unary(UnaryOp::Sin)
        .unary(UnaryOp::Abs);
    let reflected = (k(d, PI) / sine).unary(UnaryOp::Log) - positive.clone();
    let value = negative.clone().select(reflected, positive);
    let pole = x.clone().eq(k(d, 0.0)).or(negative.and(is_integer(&x)));
    let infinite = x.clone().unary(UnaryOp::IsInf);
    pole.or(infinite).select(k(d, f64::INFINITY), value)
}

/// `polygamma(n, x)`: digamma, trigamma, then `(-1)^(n+1) n! zeta(n + 1, x)`, with n known.
pub fn polygamma(n: u32, x: Expr, d: DType) -> Expr {
    match n {
        0 => digamma(x, d),
        1 => trigamma(x, d),
        _ => {
            let factorial: f64 = (1..=n).map(f64::from).product();
            let signed = if n % 2 == 1 { factorial } else { -factorial };
            k(d, signed) * zeta(k(d, f64::from(n + 1)), x, d)
        }
    }
}

/// `hypot(a, b)` as `big * sqrt(1 + (small / big)^2)`: no overflow or underflow in the
/// squares; an infinite side wins over NaN, as in C's hypot.
pub fn hypot(a: Expr, b: Expr, d: DType) -> Expr {
    let (x, y) = (a.unary(UnaryOp::Abs), b.unary(UnaryOp::Abs));
    let big = x.clone().max(y.clone());
    let small = x.clone().min(y.clone());
    let zero = k(d, 0.0);
    let ratio = big
        .clone()
        .eq(zero.clone())
        .select(zero, small / big.clone());
    let scaled = big * (k(d, 1.0) + ratio.clone() * ratio).unary(UnaryOp::Sqrt);
    let infinite = x.unary(UnaryOp::IsInf).or(y.unary(UnaryOp::IsInf));
    infinite.select(k(d, f64::INFINITY), scaled)
}

#[cfg(test)]
mod tests {
    use super::ZETA_A;

    /// Cephes' denominators are (2k)! / B_2k: the first few from the Bernoulli numbers.
    #[test]
    fn zeta_denominators_are_factorials_over_bernoulli_numbers() {
        let bernoulli = [1.0 / 6.0, -1.0 / 30.0, 1.0 / 42.0, -1.0 / 30.0, 5.0 / 66.0];
        let mut factorial = 1.0f64;
        for (i, b) in bernoulli.iter().enumerate() {
            let n = 2 * (i + 1);
            factorial *= ((n - 1) * n) as f64;
            let expected = factorial / b;
            assert!((ZETA_A[i] - expected).abs() <= 1e-9 * expected.abs(), "{i}");
        }
    }
}
