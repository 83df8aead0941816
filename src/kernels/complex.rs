//! Complex functions as expressions over a value's two parts (real, imaginary), in one
//! float type. Each follows the formula the CPU's `c10::complex`/libm functions compute
//! (Smith's division, Kahan's tanh, the CPU's log1p and expm1 forms), keeping their
//! special cases where they are cheap: a real argument keeps an exact zero imaginary part.

use super::special::hypot;
use super::{Expr, UnaryOp};

/// A complex value: (real, imaginary).
pub type Parts = (Expr, Expr);

fn k(like: &Expr, value: f64) -> Expr {
    Expr::constant(like.dtype(), value)
}

fn abs(e: &Expr) -> Expr {
    e.clone().unary(UnaryOp::Abs)
}

fn f(e: &Expr, op: UnaryOp) -> Expr {
    e.clone().unary(op)
}

/// A real number as a complex value.
pub fn real(x: Expr) -> Parts {
    let zero = k(&x, 0.0);
    (x, zero)
}

pub fn add((a, b): &Parts, (c, d): &Parts) -> Parts {
    (a.clone() + c.clone(), b.clone() + d.clone())
}

pub fn sub((a, b): &Parts, (c, d): &Parts) -> Parts {
    (a.clone() - c.clone(), b.clone() - d.clone())
}

pub fn mul((a, b): &Parts, (c, d): &Parts) -> Parts {
    (
        a.clone() * c.clone() - b.clone() * d.clone(),
        a.clone() * d.clone() + b.clone() * c.clone(),
    )
}

/// `z * s` for a real `s`.
pub fn scale((a, b): &Parts, s: &Expr) -> Parts {
    (a.clone() * s.clone(), b.clone() * s.clone())
}

pub fn conj((a, b): &Parts) -> Parts {
    (a.clone(), -b.clone())
}

/// `i * z`.
fn times_i((a, b): &Parts) -> Parts {
    (-b.clone(), a.clone())
}

/// `-i * z`.
fn times_minus_i((a, b): &Parts) -> Parts {
    (b.clone(), -a.clone())
}

/// `a / b` by Smith's method, as c10::complex divides (numpy's order of operations).
pub fn div((a, b): &Parts, (c, d): &Parts) -> Parts {
    let zero = k(c, 0.0);
    let one = k(c, 1.0);
    // |c| >= |d|: rat = d/c, scl = 1/(c + d*rat); else rat = c/d, scl = 1/(d + c*rat).
    let wide = abs(c).ge(abs(d));
    let rat = wide
        .clone()
        .select(d.clone() / c.clone(), c.clone() / d.clone());
    let scl = one
        / wide.clone().select(
            c.clone() + d.clone() * rat.clone(),
            d.clone() + c.clone() * rat.clone(),
        );
    let re = wide.clone().select(
        a.clone() + b.clone() * rat.clone(),
        a.clone() * rat.clone() + b.clone(),
    );
    let im = wide.select(
        b.clone() - a.clone() * rat.clone(),
        b.clone() * rat - a.clone(),
    );
    // A zero divisor: a/+0 and b/+0, complex infinities or NaN.
    let zeros = abs(c).eq(zero.clone()).and(abs(d).eq(zero));
    (
        zeros.clone().select(over_zero(a), re * scl.clone()),
        zeros.select(over_zero(b), im * scl),
    )
}

/// `x / +0` written out (a device may fold a constant numerator's division).
fn over_zero(x: &Expr) -> Expr {
    let undefined = x.clone().is_nan().or(x.clone().eq(k(x, 0.0)));
    let infinite = k(x, f64::INFINITY).binary(super::BinaryOp::CopySign, x.clone());
    undefined.select(k(x, f64::NAN), infinite)
}

pub fn reciprocal(z: &Parts) -> Parts {
    div(&real(k(&z.0, 1.0)), z)
}

/// The magnitude `|z|`.
pub fn magnitude((x, y): &Parts) -> Expr {
    hypot(x.clone(), y.clone(), x.dtype())
}

/// `exp(x) (cos y + i sin y)`; a real argument keeps its imaginary zero, `x = -inf` gives
/// signed zeros whatever `y` is and `x = +inf` with an infinite or NaN `y` gives
/// `inf + NaN i`, as the C library's `cexp`.
pub fn exp((x, y): &Parts) -> Parts {
    let e = f(x, UnaryOp::Exp);
    let (cos, sin) = (f(y, UnaryOp::Cos), f(y, UnaryOp::Sin));
    let real = y.clone().eq(k(y, 0.0));
    let vanishing = x.clone().eq(k(x, f64::NEG_INFINITY));
    let undefined = x
        .clone()
        .eq(k(x, f64::INFINITY))
        .and(f(y, UnaryOp::IsFinite).unary(UnaryOp::Not));
    let zero = |sign: &Expr| k(x, 0.0).binary(super::BinaryOp::CopySign, sign.clone());
    let re = real.clone().select(e.clone(), e.clone() * cos.clone());
    let im = real.select(y.clone(), e * sin.clone());
    (
        vanishing.clone().select(
            zero(&cos),
            undefined.clone().select(k(x, f64::INFINITY), re),
        ),
        vanishing.select(zero(&sin), undefined.select(k(x, f64::NAN), im)),
    )
}

/// `exp(z) - 1`: `expm1(x) cos(y) - 2 sin(y/2)^2 + i exp(x) sin(y)`.
pub fn expm1((x, y): &Parts) -> Parts {
    let half = f(&(y.clone() * k(y, 0.5)), UnaryOp::Sin);
    (
        f(x, UnaryOp::Expm1) * f(y, UnaryOp::Cos) - k(y, 2.0) * half.clone() * half,
        f(x, UnaryOp::Exp) * f(y, UnaryOp::Sin),
    )
}

pub fn log(z: &Parts) -> Parts {
    let (x, y) = z;
    (
        f(&magnitude(z), UnaryOp::Log),
        y.clone().binary(super::BinaryOp::Atan2, x.clone()),
    )
}

/// `cond ? a : b`, part by part.
fn choose(cond: &Expr, a: &Parts, b: &Parts) -> Parts {
    (
        cond.clone().select(a.0.clone(), b.0.clone()),
        cond.clone().select(a.1.clone(), b.1.clone()),
    )
}

/// `log(exp(a) + exp(b))` as PyTorch's complex logaddexp: `max + log1p(exp(min - max))`
/// with the larger and smaller real parts (a NaN part wins both and gives NaN); equal
/// infinite real parts give the smaller (-inf) or `log(exp(a) + exp(b))` (+inf).
pub fn log_add_exp(a: &Parts, b: &Parts) -> Parts {
    let nan = |z: &Parts| f(&z.0, UnaryOp::IsNan).or(f(&z.1, UnaryOp::IsNan));
    let (nan_a, nan_b) = (nan(a), nan(b));
    let a_first = a.0.clone().ge(b.0.clone());
    let pick = |wins: Expr, loses_to: &Parts, other: &Parts| {
        choose(
            &nan_b,
            b,
            &choose(&nan_a, a, &choose(&wins, loses_to, other)),
        )
    };
    let max = pick(a_first.clone(), a, b);
    let min = pick(a_first, b, a);
    let not_a_number = (k(&a.0, f64::NAN), k(&a.0, f64::NAN));
    let minus_one = (k(&a.0, -1.0), k(&a.0, 0.0));
    let both_infinite = add(&add(&exp(&min), &exp(&max)), &minus_one);
    let infinite = f(&min.0, UnaryOp::IsFinite)
        .unary(UnaryOp::Not)
        .and(min.0.clone().eq(max.0.clone()));
    let general = add(&log1p(&exp(&sub(&min, &max))), &max);
    let at_infinity = choose(
        &min.0.clone().lt(k(&a.0, 0.0)),
        &min,
        &log1p(&both_infinite),
    );
    choose(
        &nan(&min),
        &not_a_number,
        &choose(&infinite, &at_infinity, &general),
    )
}

/// `log(1 + z)`, the CPU's form: `log1p(x (2 + x) + y^2) / 2` near zero.
pub fn log1p(z: &Parts) -> Parts {
    let (x, y) = z;
    let one = k(x, 1.0);
    let theta = y
        .clone()
        .binary(super::BinaryOp::Atan2, x.clone() + one.clone());
    let r = x.clone() * (k(x, 2.0) + x.clone()) + y.clone() * y.clone();
    let near = magnitude(z).lt(k(x, 0.5));
    let small = r
        .clone()
        .eq(k(x, 0.0))
        .select(x.clone(), k(x, 0.5) * f(&r, UnaryOp::Log1p));
    let far = f(&hypot(x.clone() + one, y.clone(), x.dtype()), UnaryOp::Log);
    (near.select(small, far), theta)
}

/// The principal square root (imaginary part of the sign of `y`).
pub fn sqrt(z: &Parts) -> Parts {
    let (x, y) = z;
    let half = k(x, 0.5);
    let two = k(x, 2.0);
    let m = magnitude(z);
    let right = x.clone().ge(k(x, 0.0));
    let t = f(
        &(right.clone().select(m.clone() + x.clone(), m - x.clone()) * half),
        UnaryOp::Sqrt,
    );
    let other = abs(y) / (two.clone() * t.clone());
    let zero = t.clone().eq(k(x, 0.0));
    let re = right.clone().select(t.clone(), other.clone());
    let im = right.select(
        y.clone() / (two * t.clone()),
        t.binary(super::BinaryOp::CopySign, y.clone()),
    );
    let infinite = f(y, UnaryOp::IsInf);
    (
        infinite
            .clone()
            .select(k(x, f64::INFINITY), zero.clone().select(k(x, 0.0), re)),
        infinite.select(y.clone(), zero.select(y.clone(), im)),
    )
}

pub fn rsqrt(z: &Parts) -> Parts {
    reciprocal(&sqrt(z))
}

pub fn sin((x, y): &Parts) -> Parts {
    (
        f(x, UnaryOp::Sin) * f(y, UnaryOp::Cosh),
        f(x, UnaryOp::Cos) * f(y, UnaryOp::Sinh),
    )
}

pub fn cos((x, y): &Parts) -> Parts {
    (
        f(x, UnaryOp::Cos) * f(y, UnaryOp::Cosh),
        -(f(x, UnaryOp::Sin) * f(y, UnaryOp::Sinh)),
    )
}

pub fn sinh((x, y): &Parts) -> Parts {
    (
        f(x, UnaryOp::Sinh) * f(y, UnaryOp::Cos),
        f(x, UnaryOp::Cosh) * f(y, UnaryOp::Sin),
    )
}

pub fn cosh((x, y): &Parts) -> Parts {
    (
        f(x, UnaryOp::Cosh) * f(y, UnaryOp::Cos),
        f(x, UnaryOp::Sinh) * f(y, UnaryOp::Sin),
    )
}

/// Kahan's tanh; past |x| = 20 the real part is ±1 and the imaginary part decays as
/// `4 sin(y) cos(y) exp(-2|x|)`.
pub fn tanh((x, y): &Parts) -> Parts {
    let one = k(x, 1.0);
    let t = f(y, UnaryOp::Tan);
    let beta = one.clone() + t.clone() * t.clone();
    let s = f(x, UnaryOp::Sinh);
    let rho = f(&(one.clone() + s.clone() * s.clone()), UnaryOp::Sqrt);
    let denominator = one.clone() + beta.clone() * s.clone() * s.clone();
    let large = abs(x).gt(k(x, 20.0));
    let decay = k(x, 4.0)
        * f(y, UnaryOp::Sin)
        * f(y, UnaryOp::Cos)
        * f(&(k(x, -2.0) * abs(x)), UnaryOp::Exp);
    (
        large.clone().select(
            one.binary(super::BinaryOp::CopySign, x.clone()),
            beta * rho * s / denominator.clone(),
        ),
        large.select(decay, t / denominator),
    )
}

/// `tan(z) = -i tanh(i z)`.
pub fn tan(z: &Parts) -> Parts {
    times_minus_i(&tanh(&times_i(z)))
}

/// `asinh(z) = log(z + sqrt(z^2 + 1))`, computed for the right half-plane (odd symmetry
/// elsewhere) so that the sum never cancels.
pub fn asinh(z: &Parts) -> Parts {
    let (x, y) = z;
    let negative = x.clone().lt(k(x, 0.0));
    let w = (
        negative.clone().select(-x.clone(), x.clone()),
        negative.clone().select(-y.clone(), y.clone()),
    );
    let square = mul(&w, &w);
    let root = sqrt(&(square.0 + k(x, 1.0), square.1));
    let (re, im) = log(&add(&w, &root));
    (
        negative.clone().select(-re.clone(), re),
        negative.select(-im.clone(), im),
    )
}

/// `asin(z) = -i asinh(i z)`.
pub fn asin(z: &Parts) -> Parts {
    times_minus_i(&asinh(&times_i(z)))
}

/// `acos(z) = pi/2 - asin(z)`.
pub fn acos(z: &Parts) -> Parts {
    let (re, im) = asin(z);
    (k(&re, std::f64::consts::FRAC_PI_2) - re, -im)
}

/// `acosh(z) = log(z + sqrt(z + 1) sqrt(z - 1))`.
pub fn acosh(z: &Parts) -> Parts {
    let one = k(&z.0, 1.0);
    let plus = sqrt(&(z.0.clone() + one.clone(), z.1.clone()));
    let minus = sqrt(&(z.0.clone() - one, z.1.clone()));
    log(&add(z, &mul(&plus, &minus)))
}

/// `atanh(z) = (log1p(z) - log1p(-z)) / 2`.
pub fn atanh(z: &Parts) -> Parts {
    let half = k(&z.0, 0.5);
    let difference = sub(&log1p(z), &log1p(&(-z.0.clone(), -z.1.clone())));
    scale(&difference, &half)
}

/// `atan(z) = -i atanh(i z)`.
pub fn atan(z: &Parts) -> Parts {
    times_minus_i(&atanh(&times_i(z)))
}

/// `1 / (1 + exp(-z))`.
pub fn sigmoid(z: &Parts) -> Parts {
    let e = exp(&(-z.0.clone(), -z.1.clone()));
    div(&real(k(&z.0, 1.0)), &(e.0 + k(&z.0, 1.0), e.1))
}

/// `z / (1 + exp(-z))`.
pub fn silu(z: &Parts) -> Parts {
    let e = exp(&(-z.0.clone(), -z.1.clone()));
    div(z, &(e.0 + k(&z.0, 1.0), e.1))
}

/// `sin(pi z) / (pi z)`, 1 at 0.
pub fn sinc(z: &Parts) -> Parts {
    let (x, y) = z;
    let zero = x.clone().eq(k(x, 0.0)).and(y.clone().eq(k(y, 0.0)));
    let product = scale(z, &k(x, std::f64::consts::PI));
    let (re, im) = div(&sin(&product), &product);
    (
        zero.clone().select(k(x, 1.0), re),
        zero.select(k(x, 0.0), im),
    )
}

/// `z^w = exp(w log z)`, as the C library's `cpow` (so `0^w` is 0 or NaN by that formula).
pub fn pow(z: &Parts, w: &Parts) -> Parts {
    exp(&mul(w, &log(z)))
}

/// tanh's gradient from its output: `grad * conj(1 - y^2)`.
pub fn tanh_backward(grad: &Parts, y: &Parts) -> Parts {
    let one = real(k(&y.0, 1.0));
    mul(grad, &conj(&sub(&one, &mul(y, y))))
}

/// sigmoid's gradient from its output: `grad * conj((1 - y) y)`.
pub fn sigmoid_backward(grad: &Parts, y: &Parts) -> Parts {
    let one = real(k(&y.0, 1.0));
    mul(grad, &conj(&mul(&sub(&one, y), y)))
}

/// Whether the value is nonzero (either part), a bool.
pub fn truth((x, y): &Parts) -> Expr {
    let zero = k(x, 0.0);
    x.clone()
        .binary(super::BinaryOp::Ne, zero.clone())
        .or(y.clone().binary(super::BinaryOp::Ne, zero))
}

/// The complex form of a unary function, or none where PyTorch has none (exhaustive: a new
/// operation decides here).
pub fn unary(op: UnaryOp) -> Option<fn(&Parts) -> Parts> {
    use UnaryOp::*;
    Some(match op {
        Neg => |(x, y): &Parts| (-x.clone(), -y.clone()),
        Sqrt => sqrt,
        Rsqrt => rsqrt,
        Exp => exp,
        Exp2 => |z: &Parts| exp(&scale(z, &k(&z.0, std::f64::consts::LN_2))),
        Expm1 => expm1,
        Log => log,
        Log2 => |z: &Parts| scale(&log(z), &k(&z.0, std::f64::consts::LOG2_E)),
        Log10 => |z: &Parts| scale(&log(z), &k(&z.0, std::f64::consts::LOG10_E)),
        Log1p => log1p,
        Sin => sin,
        Cos => cos,
        Tan => tan,
        Asin => asin,
        Acos => acos,
        Atan => atan,
        Sinh => sinh,
        Cosh => cosh,
        Tanh => tanh,
        Asinh => asinh,
        Acosh => acosh,
        Atanh => atanh,
        Abs | Ceil | Floor | Trunc | Round | Not | IsNan | IsInf | IsFinite | Sign | Erf | Erfc
        | Erfinv => return None,
    })
}
