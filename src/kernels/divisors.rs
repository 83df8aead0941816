//! The greatest common divisor (Euclid's algorithm on the magnitudes, as the CPU loops it: at
//! most ~92 steps for int64) and the least common multiple of integers.

use crate::dtype::DType;
use crate::kernels::functions::{Body, Function};
use crate::kernels::{BinaryOp, Expr, UnaryOp};

/// The body of `gcd` or `lcm` at `(a, b)`.
pub fn body(b: &mut Body, f: Function) {
    let (x, y) = (b.arg(0), b.arg(1));
    match f {
        Function::Gcd => {
            let a = b.var(x.unary(UnaryOp::Abs));
            let c = b.var(y.unary(UnaryOp::Abs));
            b.while_(a.clone().binary(BinaryOp::Ne, b.k(0.0)));
            let previous = b.let_(a.clone());
            b.set(&a, c.clone().binary(BinaryOp::Fmod, a.clone()));
            b.set(&c, previous);
            b.end();
            b.ret(c);
        }
        Function::Lcm => {
            let g = b.let_(Expr::call(Function::Gcd, vec![x.clone(), y.clone()]));
            // C++ computes narrow integers' product in int, then wraps its magnitude.
            let d = b.dtype();
            let wide = if matches!(d, DType::I8 | DType::I16 | DType::U8) {
                DType::I32
            } else {
                d
            };
            let (x, y, divisor) = (x.cast(wide), y.cast(wide), g.clone().cast(wide));
            let multiple = (x / divisor * y).unary(UnaryOp::Abs).cast(d);
            b.ret(g.eq(b.k(0.0)).select(b.k(0.0), multiple));
        }
        _ => unreachable!("{f:?} is not gcd or lcm"),
    }
}
