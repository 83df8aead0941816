//! The special functions computed by the kernels' helper functions (`kernels::functions`):
//! the Bessel family, the scaled complementary error function, the normal quantile, the
//! orthogonal polynomials, the incomplete gamma functions, nextafter, gcd and lcm, with the CPU's dtypes: integers and bool compute in float32, the
//! `i0` family takes half types in float32 and rounds once, the others refuse half types as
//! the CPU does.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::functions::Function;
use crate::kernels::Expr;
use crate::ops::core::call::{Call, Dest, Operand};
use crate::ops::core::pointwise::{common_dtype, float_dtype, not_implemented_for, pointwise};
use crate::ops::core::registry::OpFn;

/// The functions the CPU computes for half types (in float32).
const HALF_IN_FLOAT32: [&str; 6] = ["i0", "i0e", "i1", "i1e", "igamma", "igammac"];

/// The compute and result dtypes of function `name` (the CPU kernel's stem, for its error)
/// for operands of dtype `d`.
fn dtypes(name: &str, d: DType) -> Result<(DType, DType)> {
    let d = float_dtype(d);
    let half = matches!(d, DType::F16 | DType::BF16);
    if half && !HALF_IN_FLOAT32.contains(&name) {
        return Err(not_implemented_for(&format!("{name}_cpu"), d));
    }
    Ok((if half { DType::F32 } else { d }, d))
}

/// A one-argument function into argument 1.
fn unary(call: &mut Call, f: Function, name: &str) -> Result<()> {
    let a = call.operand(0)?;
    let (compute, result) = dtypes(name, common_dtype(&[&a])?)?;
    pointwise(call, &[&a], Dest::Arg(1), compute, result, |e| {
        Expr::call(f, vec![e[0].clone()])
    })
}

/// A polynomial of `(x, n)` (either may be a scalar) into argument 2.
fn polynomial(call: &mut Call, f: Function, name: &str) -> Result<()> {
    let (x, n) = (call.operand(0)?, call.operand(1)?);
    if matches!((&x, &n), (Operand::Scalar(_), Operand::Scalar(_))) {
        return Err(Error::runtime(format!(
            "{name}: at least one of x and n must be a tensor"
        )));
    }
    let (compute, result) = dtypes(name, common_dtype(&[&x, &n])?)?;
    pointwise(call, &[&x, &n], Dest::Arg(2), compute, result, |e| {
        Expr::call(f, vec![e[0].clone(), e[1].clone()])
    })
}

/// `igamma` or `igammac` of two tensors (the CPU takes no scalar) into argument 2.
fn incomplete_gamma(call: &mut Call, f: Function) -> Result<()> {
    let (a, x) = (call.operand(0)?, call.operand(1)?);
    let (compute, result) = dtypes(f.stem(), common_dtype(&[&a, &x])?)?;
    pointwise(call, &[&a, &x], Dest::Arg(2), compute, result, |e| {
        Expr::call(f, vec![e[0].clone(), e[1].clone()])
    })
}

/// `nextafter` of two float tensors (half types step through their own format, computed in
/// float32) into argument 2.
fn next_after(call: &mut Call) -> Result<()> {
    let (x, y) = (call.operand(0)?, call.operand(1)?);
    let d = common_dtype(&[&x, &y])?;
    if !d.is_float() {
        return Err(not_implemented_for("nextafter_cpu", d));
    }
    let (f, compute) = match d {
        DType::F16 => (Function::NextAfterHalf, DType::F32),
        DType::BF16 => (Function::NextAfterBFloat16, DType::F32),
        _ => (Function::NextAfter, d),
    };
    pointwise(call, &[&x, &y], Dest::Arg(2), compute, d, |e| {
        Expr::call(f, vec![e[0].clone(), e[1].clone()])
    })
}

/// `gcd` or `lcm` of two integer tensors (or a tensor and a scalar) into argument 2.
fn divisor(call: &mut Call, f: Function) -> Result<()> {
    let (a, b) = (call.operand(0)?, call.operand(1)?);
    let d = common_dtype(&[&a, &b])?;
    if d.is_float() || d == DType::Bool {
        return Err(not_implemented_for(&format!("{}_cpu", f.stem()), d));
    }
    pointwise(call, &[&a, &b], Dest::Arg(2), d, d, |e| {
        Expr::call(f, vec![e[0].clone(), e[1].clone()])
    })
}

macro_rules! unary_ops {
    ($(($schema:literal, $f:ident, $name:literal)),* $(,)?) => {
        &[$(($schema, |c| unary(c, Function::$f, $name))),*]
    };
}

macro_rules! polynomial_ops {
    ($(($stem:literal, $f:ident)),* $(,)?) => {
        &[$(
            (concat!("special_", $stem, ".out"), |c| polynomial(c, Function::$f, $stem)),
            (concat!("special_", $stem, ".x_scalar_out"), |c| polynomial(c, Function::$f, $stem)),
            (concat!("special_", $stem, ".n_scalar_out"), |c| polynomial(c, Function::$f, $stem)),
        )*]
    };
}

pub const OPS: &[(&str, OpFn)] = unary_ops![
    ("i0.out", ModifiedBesselI0, "i0"),
    ("special_i0e.out", I0e, "i0e"),
    ("special_i1.out", I1, "i1"),
    ("special_i1e.out", I1e, "i1e"),
    ("special_bessel_j0.out", BesselJ0, "bessel_j0"),
    ("special_bessel_j1.out", BesselJ1, "bessel_j1"),
    ("special_bessel_y0.out", BesselY0, "bessel_y0"),
    ("special_bessel_y1.out", BesselY1, "bessel_y1"),
    (
        "special_modified_bessel_i0.out",
        ModifiedBesselI0,
        "modified_bessel_i0"
    ),
    (
        "special_modified_bessel_i1.out",
        ModifiedBesselI1,
        "modified_bessel_i1"
    ),
    (
        "special_modified_bessel_k0.out",
        ModifiedBesselK0,
        "modified_bessel_k0"
    ),
    (
        "special_modified_bessel_k1.out",
        ModifiedBesselK1,
        "modified_bessel_k1"
    ),
    (
        "special_scaled_modified_bessel_k0.out",
        ScaledModifiedBesselK0,
        "scaled_modified_bessel_k0"
    ),
    (
        "special_scaled_modified_bessel_k1.out",
        ScaledModifiedBesselK1,
        "scaled_modified_bessel_k1"
    ),
    ("special_airy_ai.out", AiryAi, "airy_ai"),
    (
        "special_spherical_bessel_j0.out",
        SphericalBesselJ0,
        "spherical_bessel_j0"
    ),
    ("special_erfcx.out", Erfcx, "erfcx"),
    ("special_ndtri.out", Ndtri, "ndtri"),
];

pub const BINARY_OPS: &[(&str, OpFn)] = &[
    ("gcd.out", |c| divisor(c, Function::Gcd)),
    ("lcm.out", |c| divisor(c, Function::Lcm)),
    ("igamma.out", |c| incomplete_gamma(c, Function::Igamma)),
    ("igammac.out", |c| incomplete_gamma(c, Function::Igammac)),
    ("nextafter.out", next_after),
];

pub const POLYNOMIAL_OPS: &[(&str, OpFn)] = polynomial_ops![
    ("chebyshev_polynomial_t", ChebyshevT),
    ("chebyshev_polynomial_u", ChebyshevU),
    ("chebyshev_polynomial_v", ChebyshevV),
    ("chebyshev_polynomial_w", ChebyshevW),
    ("shifted_chebyshev_polynomial_t", ShiftedChebyshevT),
    ("shifted_chebyshev_polynomial_u", ShiftedChebyshevU),
    ("shifted_chebyshev_polynomial_v", ShiftedChebyshevV),
    ("shifted_chebyshev_polynomial_w", ShiftedChebyshevW),
    ("hermite_polynomial_h", HermiteH),
    ("hermite_polynomial_he", HermiteHe),
    ("laguerre_polynomial_l", LaguerreL),
    ("legendre_polynomial_p", LegendreP),
];
