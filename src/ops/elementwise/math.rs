//! Unary, binary and ternary math: arithmetic, comparisons, logic, transcendental functions,
//! clamping and selection, with PyTorch's promotion rules and error messages.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::complex::{self as functions, unary as complex_unary};
use crate::kernels::{BinaryOp, Expr, UnaryOp};
use crate::ops::core::call::{Call, Dest, Operand};
use crate::ops::core::pointwise::{common_dtype, float_dtype, not_implemented_for, pointwise};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::{ScalarArg, ScalarKind};
use crate::ops::elementwise::complex::{self, route};
use std::ops::{Add, Div, Mul, Neg, Sub};

/// Ops whose integer inputs compute in float32 (`sin(int)` is float).
fn unary_float(call: &mut Call, op: UnaryOp, dest: Dest) -> Result<()> {
    if call.is_complex_arg(0) {
        let name = format!("{op:?}").to_lowercase();
        return complex::unary(call, &name, complex_unary(op));
    }
    let a = call.operand(0)?;
    let compute = float_dtype(common_dtype(&[&a]));
    pointwise(call, &[&a], dest, compute, compute, |e| {
        e[0].clone().unary(op)
    })
}

fn sigmoid(call: &mut Call) -> Result<()> {
    if call.is_complex_arg(0) {
        return complex::unary(call, "sigmoid", Some(functions::sigmoid));
    }
    let a = call.operand(0)?;
    let compute = float_dtype(common_dtype(&[&a]));
    pointwise(call, &[&a], Dest::Arg(1), compute, compute, |e| {
        e[0].clone().sigmoid()
    })
}

fn reciprocal(call: &mut Call) -> Result<()> {
    if call.is_complex_arg(0) {
        return complex::unary(call, "reciprocal", Some(functions::reciprocal));
    }
    let a = call.operand(0)?;
    let compute = float_dtype(common_dtype(&[&a]));
    pointwise(call, &[&a], Dest::Arg(1), compute, compute, |e| {
        Expr::constant(compute, 1.0).div(e[0].clone())
    })
}

/// Ops that keep the input dtype.
fn unary_same(call: &mut Call, op: UnaryOp, dest: Dest) -> Result<()> {
    let a = call.operand(0)?;
    let dtype = common_dtype(&[&a]);
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
    let dtype = common_dtype(&[&a]);
    pointwise(call, &[&a], Dest::New, dtype, DType::Bool, |e| {
        e[0].clone().unary(op)
    })
}

/// `isposinf.out` / `isneginf.out`: infinite with the given sign.
fn signed_infinity(call: &mut Call, positive: bool) -> Result<()> {
    let a = call.operand(0)?;
    let dtype = common_dtype(&[&a]);
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
    let dtype = common_dtype(&[&a]);
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
    let dtype = common_dtype(&[&a]);
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
    let dtype = common_dtype(&[&a]);
    pointwise(call, &[&a], Dest::Arg(1), dtype, DType::Bool, |e| {
        e[0].clone().cast(DType::Bool).unary(UnaryOp::Not)
    })
}

fn nan_to_num(call: &mut Call) -> Result<()> {
    let a = call.operand(0)?;
    let dtype = common_dtype(&[&a]);
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

/// Promotion for binary arithmetic; `integer_alpha` checks add/sub's alpha.
fn arithmetic_dtype(a: &Operand, b: &Operand) -> DType {
    common_dtype(&[a, b])
}

fn check_alpha(dtype: DType, alpha: &ScalarArg) -> Result<()> {
    if alpha.kind() == ScalarKind::Bool && dtype != DType::Bool {
        return Err(Error::runtime(
            "Boolean alpha only supported for Boolean results.",
        ));
    }
    if !dtype.is_float() && alpha.is_float() {
        return Err(Error::runtime(
            "For integral input tensors, argument alpha must not be a floating point number.",
        ));
    }
    Ok(())
}

fn add_sub(call: &mut Call, subtract: bool) -> Result<()> {
    let (a, b, alpha) = (call.operand(0)?, call.operand(1)?, call.scalar(2)?);
    add_sub_of(call, a, b, alpha, subtract, Dest::Arg(3))
}

/// `rsub.Tensor(self, other, alpha)`: `other - alpha * self`, as CPU's redispatch to sub.
fn rsub(call: &mut Call) -> Result<()> {
    if complex::involved(call, &[0, 1, 2]) {
        return complex::reverse_subtract(call);
    }
    let (a, b, alpha) = (call.operand(0)?, call.operand(1)?, call.scalar(2)?);
    add_sub_of(call, b, a, alpha, true, Dest::New)
}

/// `a + alpha * b` or `a - alpha * b` into `dest`, with add/sub's checks.
fn add_sub_of(
    call: &mut Call,
    a: Operand,
    b: Operand,
    alpha: ScalarArg,
    subtract: bool,
    dest: Dest,
) -> Result<()> {
    let dtype = arithmetic_dtype(&a, &b);
    if subtract {
        let is_bool = |o: &Operand| crate::ops::core::pointwise::promotion_key(o).0 == DType::Bool;
        if is_bool(&a) && is_bool(&b) {
            return Err(Error::runtime(
                "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.",
            ));
        }
        if is_bool(&a) || is_bool(&b) {
            return Err(Error::runtime(
                "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
            ));
        }
    }
    check_alpha(dtype, &alpha)?;
    let unit = if alpha.is_float() {
        alpha.d == 1.0
    } else {
        alpha.i == 1
    };
    let alpha_op = Operand::Scalar(alpha);
    let operands: Vec<&Operand> = if unit {
        vec![&a, &b]
    } else {
        vec![&a, &b, &alpha_op]
    };
    let op = if subtract {
        BinaryOp::Sub
    } else {
        BinaryOp::Add
    };
    pointwise(call, &operands, dest, dtype, dtype, |e| {
        let rhs = if unit {
            e[1].clone()
        } else {
            round_to(e[2].clone().mul(e[1].clone()), dtype)
        };
        e[0].clone().binary(op, rhs)
    })
}

/// A binary op computed in the operands' common dtype, into `out=` argument 2.
fn binary(call: &mut Call, op: BinaryOp, name: &str) -> Result<()> {
    binary_to(call, op, name, Dest::Arg(2))
}

/// A binary op computed in the operands' common dtype (atan2 and copysign promote integers).
fn binary_to(call: &mut Call, op: BinaryOp, name: &str, dest: Dest) -> Result<()> {
    let (a, b) = (call.operand(0)?, call.operand(1)?);
    let mut dtype = arithmetic_dtype(&a, &b);
    let bitwise = matches!(
        op,
        BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor | BinaryOp::Shl | BinaryOp::Shr
    );
    if bitwise && dtype.is_float() {
        return Err(not_implemented_for(name, dtype));
    }
    let integral_only = matches!(
        op,
        BinaryOp::Shl | BinaryOp::Shr | BinaryOp::Fmod | BinaryOp::Rem | BinaryOp::Pow
    );
    if integral_only && dtype == DType::Bool {
        return Err(not_implemented_for(name, dtype));
    }
    if matches!(op, BinaryOp::Atan2 | BinaryOp::CopySign) {
        dtype = float_dtype(dtype);
    }
    let result = if op.is_comparison() {
        DType::Bool
    } else {
        dtype
    };
    pointwise(call, &[&a, &b], dest, dtype, result, |e| {
        e[0].clone().binary(op, e[1].clone())
    })
}

/// Rounds an intermediate to the storage precision of a half dtype, where CPU kernels do.
pub fn round_to(e: Expr, dtype: DType) -> Expr {
    if matches!(dtype, DType::F16 | DType::BF16) {
        e.cast(DType::F32).cast(dtype)
    } else {
        e
    }
}

fn div(call: &mut Call, mode_arg: Option<usize>) -> Result<()> {
    let mode = match mode_arg {
        Some(i) => call.string(i)?,
        None => None,
    };
    let out = if mode_arg.is_some() { 3 } else { 2 };
    divide(call, mode.as_deref(), Dest::Arg(out))
}

/// `self / other` rounded as `mode` says (None, "trunc" or "floor"), into `dest`.
fn divide(call: &mut Call, mode: Option<&str>, dest: Dest) -> Result<()> {
    let (a, b) = (call.operand(0)?, call.operand(1)?);
    let common = arithmetic_dtype(&a, &b);
    match mode {
        None => {
            let dtype = float_dtype(common);
            pointwise(call, &[&a, &b], dest, dtype, dtype, |e| {
                e[0].clone().div(e[1].clone())
            })
        }
        Some(m @ ("trunc" | "floor")) => {
            if common == DType::Bool {
                return Err(not_implemented_for(&format!("div_{m}_cpu"), common));
            }
            let compute = common;
            let floor = m == "floor";
            pointwise(call, &[&a, &b], dest, compute, common, |e| {
                let (x, y) = (e[0].clone(), e[1].clone());
                if floor {
                    x.binary(BinaryOp::FloorDiv, y)
                } else if compute.is_float() {
                    round_to(x.div(y), compute).unary(UnaryOp::Trunc)
                } else {
                    x.div(y)
                }
            })
        }
        Some(other) => Err(Error::value(format!(
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{other}'"
        ))),
    }
}

fn comparison(call: &mut Call, op: BinaryOp) -> Result<()> {
    if matches!(op, BinaryOp::Eq | BinaryOp::Ne) && complex::involved(call, &[0, 1]) {
        return complex::equality(call, op == BinaryOp::Eq);
    }
    let (a, b) = (call.operand(0)?, call.operand(1)?);
    let dtype = arithmetic_dtype(&a, &b);
    pointwise(call, &[&a, &b], Dest::Arg(2), dtype, DType::Bool, |e| {
        e[0].clone().binary(op, e[1].clone())
    })
}

fn logical(call: &mut Call, op: BinaryOp) -> Result<()> {
    if complex::involved(call, &[0, 1]) {
        return complex::logical(call, Some(op));
    }
    let (a, b) = (call.operand(0)?, call.operand(1)?);
    let dtype = arithmetic_dtype(&a, &b);
    pointwise(call, &[&a, &b], Dest::Arg(2), dtype, DType::Bool, |e| {
        let (x, y) = (
            e[0].clone().cast(DType::Bool),
            e[1].clone().cast(DType::Bool),
        );
        x.binary(op, y)
    })
}

/// fmax/fmin: NaN only when both operands are NaN.
fn fmax_fmin(call: &mut Call, op: BinaryOp) -> Result<()> {
    let (a, b) = (call.operand(0)?, call.operand(1)?);
    let dtype = arithmetic_dtype(&a, &b);
    pointwise(call, &[&a, &b], Dest::Arg(2), dtype, dtype, |e| {
        let (x, y) = (e[0].clone(), e[1].clone());
        if !dtype.is_float() {
            return x.binary(op, y);
        }
        x.clone().is_nan().select(
            y.clone(),
            y.clone().is_nan().select(x.clone(), x.binary(op, y)),
        )
    })
}

fn hypot(call: &mut Call) -> Result<()> {
    let (a, b) = (call.operand(0)?, call.operand(1)?);
    let dtype = arithmetic_dtype(&a, &b);
    if !dtype.is_float() {
        return Err(not_implemented_for("hypot_cpu", dtype));
    }
    pointwise(call, &[&a, &b], Dest::Arg(2), dtype, dtype, |e| {
        crate::kernels::special::hypot(e[0].clone(), e[1].clone(), dtype)
    })
}

/// `heaviside.out`: `values` where `self` is 0, else `self > 0`; both dtypes must agree.
fn heaviside(call: &mut Call) -> Result<()> {
    let (a, b) = (call.operand(0)?, call.operand(1)?);
    let dtype = crate::ops::core::pointwise::promotion_key(&a).0;
    let out_dtype = call.tensor(2)?.dtype;
    if crate::ops::core::pointwise::promotion_key(&b).0 != dtype || out_dtype != dtype {
        return Err(Error::runtime(
            "heaviside is not yet implemented for tensors with different dtypes.",
        ));
    }
    pointwise(call, &[&a, &b], Dest::Arg(2), dtype, dtype, |e| {
        let (x, v) = (e[0].clone(), e[1].clone());
        let zero = Expr::constant(dtype, 0.0);
        x.clone().eq(zero.clone()).select(v, x.gt(zero).cast(dtype))
    })
}

/// `signbit.out`: the sign bit of floats (-0.0 and -NaN included), `x < 0` otherwise.
fn signbit(call: &mut Call) -> Result<()> {
    let a = call.operand(0)?;
    let dtype = common_dtype(&[&a]);
    if call.tensor(1)?.dtype != DType::Bool {
        return Err(Error::runtime(
            "signbit does not support non-boolean outputs.",
        ));
    }
    pointwise(call, &[&a], Dest::Arg(1), dtype, DType::Bool, |e| {
        let zero = Expr::constant(dtype, 0.0);
        if dtype.is_float() {
            let one = Expr::constant(dtype, 1.0);
            one.binary(BinaryOp::CopySign, e[0].clone()).lt(zero)
        } else {
            e[0].clone().lt(zero)
        }
    })
}

/// `pow` with either operand a scalar (`base_arg`/`exp_arg` say which argument is which).
fn pow(call: &mut Call, out: usize) -> Result<()> {
    if complex::involved(call, &[0, 1, out]) {
        return complex::power(call);
    }
    let (a, b) = (call.operand(0)?, call.operand(1)?);
    let dtype = arithmetic_dtype(&a, &b);
    if dtype == DType::Bool {
        return Err(not_implemented_for("pow", dtype));
    }
    if let Operand::Scalar(s) = &b {
        if !dtype.is_float() && !s.is_float() && s.i < 0 {
            return Err(Error::runtime(
                "Integers to negative integer powers are not allowed.",
            ));
        }
    }
    let square = matches!(&b, Operand::Scalar(s) if s.to_f64() == 2.0);
    pointwise(call, &[&a, &b], Dest::Arg(out), dtype, dtype, |e| {
        if square {
            e[0].clone().mul(e[0].clone())
        } else {
            e[0].clone().binary(BinaryOp::Pow, e[1].clone())
        }
    })
}

fn where_self(call: &mut Call, dest: Dest) -> Result<()> {
    if complex::involved(call, &[1, 2]) {
        return complex::select(call, dest, false);
    }
    let (c, a, b) = (call.operand(0)?, call.operand(1)?, call.operand(2)?);
    let cond_dtype = crate::ops::core::pointwise::promotion_key(&c).0;
    if cond_dtype != DType::Bool && cond_dtype != DType::U8 {
        return Err(Error::runtime(format!(
            "where expected condition to be a boolean tensor, but got a tensor with dtype {}",
            cond_dtype.torch_name()
        )));
    }
    let dtype = arithmetic_dtype(&a, &b);
    pointwise(call, &[&c, &a, &b], dest, dtype, dtype, |e| {
        e[0].clone()
            .cast(DType::Bool)
            .select(e[1].clone(), e[2].clone())
    })
}

/// clamp with optional bounds (`tensor_bounds` reads them as tensors).
fn clamp(call: &mut Call, lo: Option<usize>, hi: Option<usize>, out: usize) -> Result<()> {
    let a = call.operand(0)?;
    let bound = |call: &Call, i: Option<usize>| -> Result<Option<Operand>> {
        match i {
            Some(i) if !call.is_none(i) => call.operand(i).map(Some),
            _ => Ok(None),
        }
    };
    let (lo, hi) = (bound(call, lo)?, bound(call, hi)?);
    if lo.is_none() && hi.is_none() {
        return Err(Error::runtime(
            "torch.clamp: At least one of 'min' or 'max' must not be None",
        ));
    }
    let mut operands = vec![&a];
    operands.extend(lo.iter());
    operands.extend(hi.iter());
    let dtype = common_dtype(&operands);
    let has_lo = lo.is_some();
    pointwise(call, &operands, Dest::Arg(out), dtype, dtype, |e| {
        let mut x = e[0].clone();
        let mut next = 1;
        if has_lo {
            x = x.max(e[1].clone());
            next = 2;
        }
        if let Some(h) = e.get(next) {
            x = x.min(h.clone());
        }
        x
    })
}

fn lerp(call: &mut Call) -> Result<()> {
    if complex::involved(call, &[0, 1, 2, 3]) {
        return complex::lerp(call);
    }
    let (a, b, w) = (call.operand(0)?, call.operand(1)?, call.operand(2)?);
    let dtype = common_dtype(&[&a, &b]);
    if !dtype.is_float() {
        return Err(not_implemented_for("lerp_kernel_scalar", dtype));
    }
    pointwise(call, &[&a, &b, &w], Dest::Arg(3), dtype, dtype, |e| {
        lerp_expr(e[0].clone(), e[1].clone(), e[2].clone(), dtype)
    })
}

/// `x + w (y - x)` in PyTorch's form, which is exact at both ends.
pub fn lerp_expr(x: Expr, y: Expr, w: Expr, dtype: DType) -> Expr {
    let diff = y.clone().sub(x.clone());
    let small = w.clone().lt(Expr::constant(dtype, 0.5));
    small.select(
        x.add(w.clone().mul(diff.clone())),
        y.sub(diff.mul(Expr::constant(dtype, 1.0).sub(w))),
    )
}

/// `x + v * (p / q)` (addcdiv) or `x + v * (p * q)` (addcmul).
pub fn addc_expr(x: Expr, p: Expr, q: Expr, v: Expr, divide: bool) -> Expr {
    if divide {
        x.add(v.mul(p.div(q)))
    } else {
        x.add(v.mul(p.mul(q)))
    }
}

fn addc(call: &mut Call, divide: bool) -> Result<()> {
    if complex::involved(call, &[0, 1, 2, 3, 4]) {
        return complex::add_product(call, divide);
    }
    let (a, t1, t2, value) = (
        call.operand(0)?,
        call.operand(1)?,
        call.operand(2)?,
        Operand::Scalar(call.scalar(3)?),
    );
    let dtype = common_dtype(&[&a, &t1, &t2]);
    if divide && !dtype.is_float() {
        return Err(Error::runtime(
            "Integer division with addcdiv is no longer supported, and in a future release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes.",
        ));
    }
    pointwise(
        call,
        &[&a, &t1, &t2, &value],
        Dest::Arg(4),
        dtype,
        dtype,
        |e| {
            let (x, p, q, v) = (e[0].clone(), e[1].clone(), e[2].clone(), e[3].clone());
            addc_expr(x, p, q, v, divide)
        },
    )
}

pub const OPS: &[(&str, OpFn)] = &[
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
    ("add.out", |c| {
        route(
            c,
            &[0, 1, 2, 3],
            |c| complex::add_sub(c, false),
            |c| add_sub(c, false),
        )
    }),
    ("sub.out", |c| {
        route(
            c,
            &[0, 1, 2, 3],
            |c| complex::add_sub(c, true),
            |c| add_sub(c, true),
        )
    }),
    ("rsub.Tensor", rsub),
    ("mul.out", |c| {
        route(c, &[0, 1, 2], complex::multiply, |c| {
            binary(c, BinaryOp::Mul, "mul")
        })
    }),
    ("div.out", |c| {
        route(
            c,
            &[0, 1, 2],
            |c| complex::divide(c, false),
            |c| div(c, None),
        )
    }),
    ("div.out_mode", |c| {
        route(
            c,
            &[0, 1, 3],
            |c| complex::divide(c, true),
            |c| div(c, Some(2)),
        )
    }),
    ("floor_divide", |c| divide(c, Some("floor"), Dest::New)),
    ("floor_divide.out", |c| {
        divide(c, Some("floor"), Dest::Arg(2))
    }),
    ("floor_divide_.Tensor", |c| {
        divide(c, Some("floor"), Dest::Arg(0))
    }),
    ("remainder.Tensor_out", |c| {
        binary(c, BinaryOp::Rem, "remainder_cpu")
    }),
    ("remainder.Scalar_Tensor", |c| {
        binary_to(c, BinaryOp::Rem, "remainder_cpu", Dest::New)
    }),
    ("fmod.Tensor_out", |c| binary(c, BinaryOp::Fmod, "fmod_cpu")),
    ("atan2.out", |c| binary(c, BinaryOp::Atan2, "atan2")),
    ("copysign.out", |c| {
        binary(c, BinaryOp::CopySign, "copysign")
    }),
    ("hypot.out", hypot),
    ("heaviside.out", heaviside),
    ("signbit.out", signbit),
    ("pow.Tensor_Tensor_out", |c| pow(c, 2)),
    ("pow.Tensor_Scalar_out", |c| pow(c, 2)),
    ("pow.Scalar_out", |c| pow(c, 2)),
    ("maximum.out", |c| binary(c, BinaryOp::Max, "maximum")),
    ("minimum.out", |c| binary(c, BinaryOp::Min, "minimum")),
    ("fmax.out", |c| fmax_fmin(c, BinaryOp::Max)),
    ("fmin.out", |c| fmax_fmin(c, BinaryOp::Min)),
    ("bitwise_and.Tensor_out", |c| {
        binary(c, BinaryOp::BitAnd, "bitwise_and_cpu")
    }),
    ("bitwise_or.Tensor_out", |c| {
        binary(c, BinaryOp::BitOr, "bitwise_or_cpu")
    }),
    ("bitwise_xor.Tensor_out", |c| {
        binary(c, BinaryOp::BitXor, "bitwise_xor_cpu")
    }),
    ("bitwise_left_shift.Tensor_out", |c| {
        binary(c, BinaryOp::Shl, "lshift_cpu")
    }),
    ("bitwise_right_shift.Tensor_out", |c| {
        binary(c, BinaryOp::Shr, "rshift_cpu")
    }),
    ("logical_and.out", |c| logical(c, BinaryOp::BitAnd)),
    ("logical_or.out", |c| logical(c, BinaryOp::BitOr)),
    ("logical_xor.out", |c| logical(c, BinaryOp::BitXor)),
    ("eq.Tensor_out", |c| comparison(c, BinaryOp::Eq)),
    ("ne.Tensor_out", |c| comparison(c, BinaryOp::Ne)),
    ("lt.Tensor_out", |c| comparison(c, BinaryOp::Lt)),
    ("le.Tensor_out", |c| comparison(c, BinaryOp::Le)),
    ("gt.Tensor_out", |c| comparison(c, BinaryOp::Gt)),
    ("ge.Tensor_out", |c| comparison(c, BinaryOp::Ge)),
    ("eq.Scalar_out", |c| comparison(c, BinaryOp::Eq)),
    ("ne.Scalar_out", |c| comparison(c, BinaryOp::Ne)),
    ("lt.Scalar_out", |c| comparison(c, BinaryOp::Lt)),
    ("le.Scalar_out", |c| comparison(c, BinaryOp::Le)),
    ("gt.Scalar_out", |c| comparison(c, BinaryOp::Gt)),
    ("ge.Scalar_out", |c| comparison(c, BinaryOp::Ge)),
    ("where.self_out", |c| where_self(c, Dest::Arg(3))),
    ("where.self", |c| where_self(c, Dest::New)),
    ("clamp.out", |c| clamp(c, Some(1), Some(2), 3)),
    ("clamp.Tensor_out", |c| clamp(c, Some(1), Some(2), 3)),
    ("clamp_min.out", |c| clamp(c, Some(1), None, 2)),
    ("clamp_min.Tensor_out", |c| clamp(c, Some(1), None, 2)),
    ("clamp_max.out", |c| clamp(c, None, Some(1), 2)),
    ("clamp_max.Tensor_out", |c| clamp(c, None, Some(1), 2)),
    ("lerp.Scalar_out", lerp),
    ("lerp.Tensor_out", lerp),
    ("addcmul.out", |c| addc(c, false)),
    ("addcdiv.out", |c| addc(c, true)),
];
