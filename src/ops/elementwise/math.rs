//! Binary and ternary math: arithmetic, comparisons, logic, powers, clamping, selection,
//! lerp and addcmul/addcdiv, with PyTorch's promotion rules and error messages.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{BinaryOp, Expr, UnaryOp};
use crate::ops::core::call::{Call, Dest, Operand};
use crate::ops::core::pointwise::{common_dtype, float_dtype, not_implemented_for, pointwise};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::{ScalarArg, ScalarKind};
use crate::ops::elementwise::complex::{self, route};
use std::ops::{Add, Div, Mul, Sub};

/// Promotion for binary arithmetic; `integer_alpha` checks add/sub's alpha.
fn arithmetic_dtype(a: &Operand, b: &Operand) -> Result<DType> {
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

fn add_sub(call: &mut Call, subtract: bool, dest: Dest) -> Result<()> {
    let (a, b, alpha) = (call.operand(0)?, call.operand(1)?, call.scalar(2)?);
    add_sub_of(call, a, b, alpha, subtract, dest)
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
    let dtype = arithmetic_dtype(&a, &b)?;
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
    let all = [&a, &b, &alpha_op];
    let operands = if unit { &all[..2] } else { &all[..] };
    let op = if subtract {
        BinaryOp::Sub
    } else {
        BinaryOp::Add
    };
    pointwise(call, operands, dest, dtype, dtype, |e| {
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
    let mut dtype = arithmetic_dtype(&a, &b)?;
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
    let common = arithmetic_dtype(&a, &b)?;
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
    let dtype = arithmetic_dtype(&a, &b)?;
    pointwise(call, &[&a, &b], Dest::Arg(2), dtype, DType::Bool, |e| {
        e[0].clone().binary(op, e[1].clone())
    })
}

fn logical(call: &mut Call, op: BinaryOp) -> Result<()> {
    if complex::involved(call, &[0, 1]) {
        return complex::logical(call, Some(op));
    }
    let (a, b) = (call.operand(0)?, call.operand(1)?);
    let dtype = arithmetic_dtype(&a, &b)?;
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
    let dtype = arithmetic_dtype(&a, &b)?;
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
    let dtype = arithmetic_dtype(&a, &b)?;
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
    let dtype = common_dtype(&[&a])?;
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
    let dtype = arithmetic_dtype(&a, &b)?;
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
    let dtype = arithmetic_dtype(&a, &b)?;
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
    let dtype = common_dtype(&operands)?;
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
    let dtype = common_dtype(&[&a, &b])?;
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
    let dtype = common_dtype(&[&a, &t1, &t2])?;
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
    // The functional forms too: registered, they skip PyTorch's structured wrapper (its
    // TensorIterator meta), the largest part of a small op's host time; the result is laid
    // out as that meta lays it out (`layout::result_order`).
    ("add.Tensor", |c| {
        route(
            c,
            &[0, 1, 2],
            |c| complex::add_sub(c, false, Dest::New),
            |c| add_sub(c, false, Dest::New),
        )
    }),
    ("add.out", |c| {
        route(
            c,
            &[0, 1, 2, 3],
            |c| complex::add_sub(c, false, Dest::Arg(3)),
            |c| add_sub(c, false, Dest::Arg(3)),
        )
    }),
    ("sub.Tensor", |c| {
        route(
            c,
            &[0, 1, 2],
            |c| complex::add_sub(c, true, Dest::New),
            |c| add_sub(c, true, Dest::New),
        )
    }),
    ("sub.out", |c| {
        route(
            c,
            &[0, 1, 2, 3],
            |c| complex::add_sub(c, true, Dest::Arg(3)),
            |c| add_sub(c, true, Dest::Arg(3)),
        )
    }),
    ("rsub.Tensor", rsub),
    ("mul.Tensor", |c| {
        route(
            c,
            &[0, 1],
            |c| complex::multiply(c, Dest::New),
            |c| binary_to(c, BinaryOp::Mul, "mul", Dest::New),
        )
    }),
    ("mul.out", |c| {
        route(
            c,
            &[0, 1, 2],
            |c| complex::multiply(c, Dest::Arg(2)),
            |c| binary(c, BinaryOp::Mul, "mul"),
        )
    }),
    ("div.Tensor", |c| {
        route(
            c,
            &[0, 1],
            |c| complex::divide(c, false, Dest::New),
            |c| divide(c, None, Dest::New),
        )
    }),
    ("div.out", |c| {
        route(
            c,
            &[0, 1, 2],
            |c| complex::divide(c, false, Dest::Arg(2)),
            |c| div(c, None),
        )
    }),
    ("div.out_mode", |c| {
        route(
            c,
            &[0, 1, 3],
            |c| complex::divide(c, true, Dest::Arg(3)),
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
