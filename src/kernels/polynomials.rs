//! The orthogonal polynomials of `torch.special` (Chebyshev of the four kinds and their
//! shifted forms, Hermite's two, Laguerre's and Legendre's) as the CPU computes them: the
//! degree `n` is the second argument truncated to an integer (0 below degree 0), the values
//! where the recurrences lose precision or divide by zero (`|x| = 1`, `x = 0` shifted) are
//! given directly, high Chebyshev degrees inside (-1, 1) through their trigonometric forms,
//! and the rest by the three-term recurrence, step for step, stopping at NaN (Hermite's run
//! to the end but are NaN past degree 128 in float32 and 512 in float64, as on the CPU).
//!
//! A recurrence runs `n` steps for each element. The software device stops an invocation
//! after 65,535 loop steps, so degrees past [`MAX_STEPS`] give NaN there and everywhere,
//! never a number cut short.

use crate::dtype::DType;
use crate::kernels::functions::{Body, Function};
use crate::kernels::{BinaryOp, Expr, UnaryOp};

/// The most recurrence steps one element may take.
pub const MAX_STEPS: i64 = 60_000;

fn int(v: i64) -> Expr {
    Expr::constant(DType::I64, v as f64)
}

/// `n` in the function's dtype.
fn real(b: &Body, n: &Expr) -> Expr {
    n.clone().cast(b.dtype())
}

fn is_even(n: &Expr) -> Expr {
    n.clone().binary(BinaryOp::Fmod, int(2)).eq(int(0))
}

/// `+v` for even `n`, `-v` for odd.
fn alternating(n: &Expr, v: Expr) -> Expr {
    is_even(n).select(v.clone(), -v)
}

/// The recurrence `r = step(p, q, k)`, `(p, q) = (q, r)` for `k = first, first + 1, ...`
/// while `k <= last` and (`stop_at_nan`) `q` is a number; returns the last `q`. `start` is
/// `(p, q)` before the first step.
fn recurrence(
    b: &mut Body,
    start: (Expr, Expr),
    first: i64,
    last: Expr,
    stop_at_nan: bool,
    step: impl Fn(&mut Body, &Expr, &Expr, &Expr) -> Expr,
) -> Expr {
    b.ret_if(last.clone().gt(int(MAX_STEPS)), b.k(f64::NAN));
    let p = b.var(start.0);
    let q = b.var(start.1);
    let k = b.var(int(first));
    let mut go = k.clone().le(last);
    if stop_at_nan {
        go = go.and(q.clone().is_nan().unary(UnaryOp::Not));
    }
    b.while_(go);
    let r = step(b, &p, &q, &k);
    let r = b.let_(r);
    b.set(&p, q.clone());
    b.set(&q, r);
    b.set(&k, k.clone() + int(1));
    b.end();
    q
}

/// Which Chebyshev polynomial: the kind (T, U, V, W) and whether shifted to [0, 1].
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    T,
    U,
    V,
    W,
}

/// Chebyshev's polynomial of `kind` at `x` (shifted: at `2x - 1`), of degree `n`.
fn chebyshev(b: &mut Body, kind: Kind, shifted: bool, x: Expr, n: &Expr) {
    let one = b.k(1.0);
    let nr = real(b, n);
    let odd = nr.clone() + nr.clone() + one.clone();
    let y = if shifted {
        b.let_(x.clone() + x.clone() - one.clone())
    } else {
        x.clone()
    };
    // The values at y = 1 and y = -1 (x = 1 and x = 0 when shifted).
    let (top, bottom) = match kind {
        Kind::T => (one.clone(), alternating(n, one.clone())),
        Kind::U => (
            nr.clone() + one.clone(),
            alternating(n, nr.clone() + one.clone()),
        ),
        Kind::V => (one.clone(), alternating(n, odd.clone())),
        Kind::W => (odd.clone(), alternating(n, one.clone())),
    };
    if shifted {
        b.ret_if(x.clone().eq(one.clone()), top.clone());
        b.ret_if(x.clone().eq(b.k(0.0)), bottom.clone());
    } else {
        let unit = x.clone().unary(UnaryOp::Abs).eq(one.clone());
        let positive = x.clone().gt(b.k(0.0));
        b.ret_if(unit, positive.select(top.clone(), bottom.clone()));
    }
    // High degrees inside (-1, 1): the trigonometric forms.
    let closed_from = match (kind, shifted) {
        (Kind::W, true) => 4,
        (Kind::T, _) | (_, true) => 6,
        _ => 8,
    };
    let inside = y.clone().unary(UnaryOp::Abs).lt(one.clone());
    b.if_(n.clone().gt(int(closed_from)).and(inside));
    let theta = b.let_(y.clone().unary(UnaryOp::Acos));
    let half = b.k(0.5);
    match kind {
        Kind::T => b.ret((nr.clone() * theta).unary(UnaryOp::Cos)),
        Kind::U => {
            let s = b.let_(theta.clone().unary(UnaryOp::Sin));
            let n1 = nr.clone() + one.clone();
            let regular = (n1.clone() * theta.clone()).unary(UnaryOp::Sin) / s.clone();
            let limit = n1.clone() * (n1 * theta).unary(UnaryOp::Cos) / y.clone();
            b.ret(s.eq(b.k(0.0)).select(limit, regular));
        }
        Kind::V => {
            let h = b.let_(theta.clone() / b.k(2.0));
            let regular =
                ((nr.clone() + half) * theta).unary(UnaryOp::Cos) / h.clone().unary(UnaryOp::Cos);
            let edge = alternating(n, odd.clone());
            b.ret(h.unary(UnaryOp::Sin).eq(one.clone()).select(edge, regular));
        }
        Kind::W => {
            let h = b.let_(theta.clone() / b.k(2.0));
            let regular =
                ((nr.clone() + half) * theta).unary(UnaryOp::Sin) / h.clone().unary(UnaryOp::Sin);
            let edge = if shifted {
                bottom
            } else {
                x.clone().gt(b.k(0.0)).select(top, bottom)
            };
            b.ret(h.unary(UnaryOp::Cos).eq(one.clone()).select(edge, regular));
        }
    }
    b.end();
    let two_y = y.clone() + y.clone();
    let first = match kind {
        Kind::T => y.clone(),
        Kind::U => two_y.clone(),
        Kind::V => two_y.clone() - one.clone(),
        Kind::W => two_y.clone() + one.clone(),
    };
    b.ret_if(n.clone().eq(int(0)), one.clone());
    b.ret_if(n.clone().eq(int(1)), first.clone());
    let q = recurrence(b, (one, first), 2, n.clone(), true, |b, p, q, _| {
        b.fma(two_y.clone(), q.clone(), -p.clone())
    });
    b.ret(q);
}

/// The most degree Hermite's polynomials compute in float32 and float64 (NaN above).
fn hermite_limit(d: DType) -> i64 {
    if d == DType::F64 {
        512
    } else {
        128
    }
}

/// The body of polynomial `f` at `(x, n)`.
pub fn body(b: &mut Body, f: Function) {
    use Function::*;
    let x = b.arg(0);
    // The degree: truncated; NaN, infinities and degrees past int64 count as negative (the
    // CPU's conversion gives INT64_MIN for them).
    let nf = b.arg(1);
    let representable = nf.clone().unary(UnaryOp::Abs).lt(b.k(9.2e18));
    let n = b.let_(representable.select(nf.cast(DType::I64), int(-1)));
    let one = b.k(1.0);
    b.ret_if(n.clone().lt(int(0)), b.k(0.0));
    match f {
        ChebyshevT => chebyshev(b, Kind::T, false, x, &n),
        ChebyshevU => chebyshev(b, Kind::U, false, x, &n),
        ChebyshevV => chebyshev(b, Kind::V, false, x, &n),
        ChebyshevW => chebyshev(b, Kind::W, false, x, &n),
        ShiftedChebyshevT => chebyshev(b, Kind::T, true, x, &n),
        ShiftedChebyshevU => chebyshev(b, Kind::U, true, x, &n),
        ShiftedChebyshevV => chebyshev(b, Kind::V, true, x, &n),
        ShiftedChebyshevW => chebyshev(b, Kind::W, true, x, &n),
        HermiteH | HermiteHe => {
            let physicists = f == HermiteH;
            let first = if physicists {
                x.clone() + x.clone()
            } else {
                x.clone()
            };
            b.ret_if(n.clone().eq(int(0)), one.clone());
            b.ret_if(n.clone().eq(int(1)), first.clone());
            let limit = hermite_limit(b.dtype());
            b.ret_if(n.clone().gt(int(limit)), b.k(f64::NAN));
            let q = recurrence(
                b,
                (one, first),
                1,
                n.clone() - int(1),
                false,
                |b, p, q, k| {
                    let k = k.clone().cast(b.dtype());
                    let (scale, weight) = if physicists {
                        (x.clone() + x.clone(), k.clone() + k)
                    } else {
                        (x.clone(), k)
                    };
                    b.fma(scale, q.clone(), -(weight * p.clone()))
                },
            );
            b.ret(q);
        }
        LaguerreL => {
            b.ret_if(x.clone().unary(UnaryOp::Abs).eq(b.k(0.0)), one.clone());
            b.ret_if(n.clone().eq(int(0)), one.clone());
            let first = one.clone() - x.clone();
            b.ret_if(n.clone().eq(int(1)), first.clone());
            let q = recurrence(
                b,
                (one, first),
                1,
                n.clone() - int(1),
                true,
                |b, p, q, k| {
                    let k = k.clone().cast(b.dtype());
                    let one = b.k(1.0);
                    let twice = k.clone() + k.clone();
                    let scale = twice + (one.clone() - x.clone());
                    b.fma(scale, q.clone(), -(k.clone() * p.clone())) / (k + one)
                },
            );
            b.ret(q);
        }
        LegendreP => {
            let unit = x.clone().unary(UnaryOp::Abs).eq(one.clone());
            let at_unit = x
                .clone()
                .gt(b.k(0.0))
                .select(one.clone(), alternating(&n, one.clone()));
            b.ret_if(unit, at_unit);
            b.ret_if(n.clone().eq(int(0)), one.clone());
            b.ret_if(n.clone().eq(int(1)), x.clone());
            let q = recurrence(
                b,
                (one, x.clone()),
                1,
                n.clone() - int(1),
                true,
                |b, p, q, k| {
                    let k = k.clone().cast(b.dtype());
                    let one = b.k(1.0);
                    let odd = k.clone() + k.clone() + one.clone();
                    b.fma(odd * x.clone(), q.clone(), -(k.clone() * p.clone())) / (k + one)
                },
            );
            b.ret(q);
        }
        _ => unreachable!("{f:?} is not a polynomial"),
    }
}
