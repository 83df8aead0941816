//! Unary math: transcendental functions, rounding, signs, predicates and nan_to_num, with
//! PyTorch's promotion rules (integers compute in float32 where CPU's do) and error messages.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::complex::{self as functions, unary as complex_unary};
use crate::kernels::{Expr, UnaryOp};
use crate::ops::core::call::{Call, Dest, Operand};
use crate::ops::core::pointwise::{common_dtype, float_dtype, not_implemented_for, pointwise};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::elementwise::complex::{self, route};
use std::ops::{Div, Mul, Neg, Sub};

/// Ops whose integer inputs compute in float32 (`sin(int)` is float).
fn unary_float(call: &mut Call, op: UnaryOp, dest: Dest) -> Result<()> {
    if call.is_complex_arg(0) {
        let name = format!("{op:?}").to_lowercase();
        return complex::unary_to(call, &name, complex_unary(op), dest);
    }
    let a = call.operand(0)?;
    let compute = float_dtype(common_dtype(&[&a])?);
    pointwise(call, &[&a], dest, compute, compute, |e| {
        e[0].clone().unary(op)
    })
}

fn sigmoid(call: &mut Call) -> Result<()> {
    if call.is_complex_arg(0) {
        return complex::unary(call, "sigmoid", Some(functions::sigmoid));
    }
    let a = call.operand(0)?;
    let compute = float_dtype(common_dtype(&[&a])?);
    pointwise(call, &[&a], Dest::Arg(1), compute, compute, |e| {
        e[0].clone().sigmoid()
    })
}

fn reciprocal(call: &mut Call) -> Result<()> {
    if call.is_complex_arg(0) {
        return complex::unary(call, "reciprocal", Some(functions::reciprocal));
    }
    let a = call.operand(0)?;
    let compute = float_dtype(common_dtype(&[&a])?);
    pointwise(call, &[&a], Dest::Arg(1), compute, compute, |e| {
        Expr::constant(compute, 1.0).div(e[0].clone())
    })
}

/// Ops that keep the input dtype.
fn unary_same(call: &mut Call, op: UnaryOp, dest: Dest) -> Result<()> {
    let a = call.operand(0)?;
    let dtype = common_dtype(&[&a])?;
    match op {
        UnaryOp::Neg if dtype == DType::Bool => {
            return Err(Error::runtime(
                "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, \
                 use the `~` or `logical_not()` operator instead.",
            ))
        }
        UnaryOp::Not if dtype.is_float() => return Err(not_implemented_for("bitwise_not_cpu", dtype)),
        UnaryOp::Abs | UnaryOp::Ceil | UnaryOp::Floor | UnaryOp::Trunc | UnaryOp::Round
            if dtype == DType::Bool =>
        {
            let name = format!("{op:?}").to_lowercase();
            return Err(not_implemented_for(&format!("{name}_cpu"), dtype));
        }
        _ => {}
    }
    pointwise(call, &[&a], dest, dtype, dtype, |e| e[0].clone().unary(op))
}

fn predicate(call: &mut Call, op: UnaryOp) -> Result<()> {
    if call.is_complex_arg(0) {
        return complex::predicate(call, op);
    }
    let a = call.operand(0)?;
    let dtype = common_dtype(&[&a])?;
    pointwise(call, &[&a], Dest::New, dtype, DType::Bool, |e| {
        e[0].clone().unary(op)
    })
}

/// `isposinf.out` / `isneginf.out`: infinite with the given sign.
fn signed_infinity(call: &mut Call, positive: bool) -> Result<()> {
    let a = call.operand(0)?;
    let dtype = common_dtype(&[&a])?;
    pointwise(call, &[&a], Dest::Arg(1), dtype, DType::Bool, |e| {
        let zero = Expr::constant(dtype, 0.0);
        let side = if positive {
            e[0].clone().gt(zero)
        } else {
            e[0].clone().lt(zero)
        };
        e[0].clone().unary(UnaryOp::IsInf).and(side)
    })
}

fn frac(call: &mut Call) -> Result<()> {
    let a = call.operand(0)?;
    let dtype = common_dtype(&[&a])?;
    if !dtype.is_float() {
        return Err(not_implemented_for("frac_cpu", dtype));
    }
    pointwise(call, &[&a], Dest::Arg(1), dtype, dtype, |e| {
        e[0].clone().sub(e[0].clone().unary(UnaryOp::Trunc))
    })
}

fn round_decimals(call: &mut Call) -> Result<()> {
    let a = call.operand(0)?;
    let decimals = call.int(1)?;
    let dtype = common_dtype(&[&a])?;
    if !dtype.is_float() && decimals != 0 {
        return Err(Error::runtime(
            "round_cpu not implemented for integral types with decimals != 0",
        ));
    }
    let (scale, divide) = (10f64.powi(decimals.unsigned_abs() as i32), decimals < 0);
    pointwise(call, &[&a], Dest::Arg(2), dtype, dtype, |e| {
        let x = e[0].clone();
        let s = Expr::constant(dtype, scale);
        if decimals == 0 {
            x.unary(UnaryOp::Round)
        } else if divide {
            x.div(s.clone()).unary(UnaryOp::Round).mul(s)
        } else {
            x.mul(s.clone()).unary(UnaryOp::Round).div(s)
        }
    })
}

fn logical_not(call: &mut Call) -> Result<()> {
    if complex::involved(call, &[0]) {
        return complex::logical(call, None);
    }
    let a = call.operand(0)?;
    let dtype = common_dtype(&[&a])?;
    pointwise(call, &[&a], Dest::Arg(1), dtype, DType::Bool, |e| {
        e[0].clone().cast(DType::Bool).unary(UnaryOp::Not)
    })
}

fn nan_to_num(call: &mut Call) -> Result<()> {
    let a = call.operand(0)?;
    let dtype = common_dtype(&[&a])?;
    let (nan, posinf, neginf) = (
        call.optional_double(1)?,
        call.optional_double(2)?,
        call.optional_double(3)?,
    );
    if !dtype.is_float() {
        return pointwise(call, &[&a], Dest::Arg(4), dtype, dtype, |e| e[0].clone());
    }
    let max = match dtype {
        DType::F16 => 65504.0,
        DType::BF16 => f64::from(f32::from_bits(0x7f7f0000)),
        DType::F32 => f64::from(f32::MAX),
        _ => f64::MAX,
    };
    // The replacement values are launch scalars, so every call shares one kernel per dtype.
    let value = |v: f64| Operand::Scalar(ScalarArg::float(v));
    let (nan, posinf, neginf) = (
        value(nan.unwrap_or(0.0)),
        value(posinf.unwrap_or(max)),
        value(neginf.unwrap_or(-max)),
    );
    pointwise(
        call,
        &[&a, &nan, &posinf, &neginf],
        Dest::Arg(4),
        dtype,
        dtype,
        |e| {
            let x = e[0].clone();
            let inf = Expr::constant(dtype, f64::INFINITY);
            x.clone().is_nan().select(
                e[1].clone(),
                x.clone().eq(inf.clone()).select(
                    e[2].clone(),
                    x.clone().eq(inf.neg()).select(e[3].clone(), x),
                ),
            )
        },
    )
}

pub const OPS: &[(&str, OpFn)] = &[
    // The functional forms of the commonest ones skip PyTorch's structured wrapper (see
    // add.Tensor in math.rs).
    ("exp", |c| unary_float(c, UnaryOp::Exp, Dest::New)),
    ("log", |c| unary_float(c, UnaryOp::Log, Dest::New)),
    ("sqrt", |c| unary_float(c, UnaryOp::Sqrt, Dest::New)),
    ("rsqrt", |c| unary_float(c, UnaryOp::Rsqrt, Dest::New)),
    ("sin", |c| unary_float(c, UnaryOp::Sin, Dest::New)),
    ("cos", |c| unary_float(c, UnaryOp::Cos, Dest::New)),
    ("tanh", |c| unary_float(c, UnaryOp::Tanh, Dest::New)),
    ("exp.out", |c| unary_float(c, UnaryOp::Exp, Dest::Arg(1))),
    ("exp2.out", |c| unary_float(c, UnaryOp::Exp2, Dest::Arg(1))),
    ("expm1.out", |c| {
        unary_float(c, UnaryOp::Expm1, Dest::Arg(1))
    }),
    ("log.out", |c| unary_float(c, UnaryOp::Log, Dest::Arg(1))),
    ("log2.out", |c| unary_float(c, UnaryOp::Log2, Dest::Arg(1))),
    ("log10.out", |c| {
        unary_float(c, UnaryOp::Log10, Dest::Arg(1))
    }),
    ("log1p.out", |c| {
        unary_float(c, UnaryOp::Log1p, Dest::Arg(1))
    }),
    ("sqrt.out", |c| unary_float(c, UnaryOp::Sqrt, Dest::Arg(1))),
    ("rsqrt.out", |c| {
        unary_float(c, UnaryOp::Rsqrt, Dest::Arg(1))
    }),
    ("sin.out", |c| unary_float(c, UnaryOp::Sin, Dest::Arg(1))),
    ("cos.out", |c| unary_float(c, UnaryOp::Cos, Dest::Arg(1))),
    ("tan.out", |c| unary_float(c, UnaryOp::Tan, Dest::Arg(1))),
    ("asin.out", |c| unary_float(c, UnaryOp::Asin, Dest::Arg(1))),
    ("acos.out", |c| unary_float(c, UnaryOp::Acos, Dest::Arg(1))),
    ("atan.out", |c| unary_float(c, UnaryOp::Atan, Dest::Arg(1))),
    ("sinh.out", |c| unary_float(c, UnaryOp::Sinh, Dest::Arg(1))),
    ("cosh.out", |c| unary_float(c, UnaryOp::Cosh, Dest::Arg(1))),
    ("tanh.out", |c| unary_float(c, UnaryOp::Tanh, Dest::Arg(1))),
    ("asinh.out", |c| {
        unary_float(c, UnaryOp::Asinh, Dest::Arg(1))
    }),
    ("acosh.out", |c| {
        unary_float(c, UnaryOp::Acosh, Dest::Arg(1))
    }),
    ("atanh.out", |c| {
        unary_float(c, UnaryOp::Atanh, Dest::Arg(1))
    }),
    ("erf.out", |c| unary_float(c, UnaryOp::Erf, Dest::Arg(1))),
    ("erfc.out", |c| unary_float(c, UnaryOp::Erfc, Dest::Arg(1))),
    ("erfinv.out", |c| {
        unary_float(c, UnaryOp::Erfinv, Dest::Arg(1))
    }),
    ("sigmoid.out", sigmoid),
    ("reciprocal.out", reciprocal),
    ("neg.out", |c| {
        route(c, &[0, 1], complex::negate, |c| {
            unary_same(c, UnaryOp::Neg, Dest::Arg(1))
        })
    }),
    ("abs.out", |c| {
        route(c, &[0], complex::absolute, |c| {
            unary_same(c, UnaryOp::Abs, Dest::Arg(1))
        })
    }),
    ("sign.out", |c| unary_same(c, UnaryOp::Sign, Dest::Arg(1))),
    ("sgn.out", |c| {
        route(c, &[0, 1], complex::sign, |c| {
            unary_same(c, UnaryOp::Sign, Dest::Arg(1))
        })
    }),
    ("ceil.out", |c| unary_same(c, UnaryOp::Ceil, Dest::Arg(1))),
    ("floor.out", |c| unary_same(c, UnaryOp::Floor, Dest::Arg(1))),
    ("trunc.out", |c| unary_same(c, UnaryOp::Trunc, Dest::Arg(1))),
    ("round.out", |c| unary_same(c, UnaryOp::Round, Dest::Arg(1))),
    ("round.decimals_out", round_decimals),
    ("frac.out", frac),
    ("bitwise_not.out", |c| {
        unary_same(c, UnaryOp::Not, Dest::Arg(1))
    }),
    ("logical_not.out", logical_not),
    ("isnan", |c| predicate(c, UnaryOp::IsNan)),
    ("isinf", |c| predicate(c, UnaryOp::IsInf)),
    ("isposinf.out", |c| signed_infinity(c, true)),
    ("isneginf.out", |c| signed_infinity(c, false)),
    ("isfinite", |c| predicate(c, UnaryOp::IsFinite)),
    ("nan_to_num.out", nan_to_num),
];
