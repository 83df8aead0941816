//! The complex forms of the ops: arithmetic, functions, predicates and selections.

use super::maps::{complex_map, real_map};
use super::promotion::{involved, result_type, ComplexOperand};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::complex::{
    add, div, magnitude, mul, pow, real, scale, sub, truth, unary as complex_unary, Parts,
};
use crate::kernels::{BinaryOp, Expr, UnaryOp};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::tensor::TensorRef;

/// Routes an op to its complex form when any of `indices` (operands and `out=`) is complex.
pub fn route(
    call: &mut Call,
    indices: &[usize],
    complex: fn(&mut Call) -> Result<()>,
    real: fn(&mut Call) -> Result<()>,
) -> Result<()> {
    if involved(call, indices) {
        complex(call)
    } else {
        real(call)
    }
}

/// `add.out` / `sub.out` with a complex operand: `a + alpha * b` (or minus).
pub fn add_sub(call: &mut Call, subtract: bool, dest: Dest) -> Result<()> {
    let (a, b) = (call.complex_operand(0)?, call.complex_operand(1)?);
    let alpha = call.complex_operand(2)?;
    let name = if subtract { "sub" } else { "add" };
    let result = result_type(&[&a, &b, &alpha]);
    complex_map(call, &[&a, &b, &alpha], result, dest, name, |e| {
        let scaled = mul(&e[2], &e[1]);
        if subtract {
            sub(&e[0], &scaled)
        } else {
            add(&e[0], &scaled)
        }
    })
}

/// `rsub.Tensor` with a complex operand: `other - alpha * self`, a new tensor.
pub fn reverse_subtract(call: &mut Call) -> Result<()> {
    let (a, b) = (call.complex_operand(0)?, call.complex_operand(1)?);
    let alpha = call.complex_operand(2)?;
    let result = result_type(&[&a, &b, &alpha]);
    complex_map(call, &[&b, &a, &alpha], result, Dest::New, "rsub", |e| {
        sub(&e[0], &mul(&e[2], &e[1]))
    })
}

/// `mul.out` with a complex operand.
pub fn multiply(call: &mut Call, dest: Dest) -> Result<()> {
    let (a, b) = (call.complex_operand(0)?, call.complex_operand(1)?);
    let result = result_type(&[&a, &b]);
    complex_map(call, &[&a, &b], result, dest, "mul", |e| mul(&e[0], &e[1]))
}

/// `div.out` with a complex operand (rounding modes are refused as by the CPU).
pub fn divide(call: &mut Call, rounded: bool, dest: Dest) -> Result<()> {
    let (a, b) = (call.complex_operand(0)?, call.complex_operand(1)?);
    let result = result_type(&[&a, &b]);
    if rounded && !call.is_none(2) {
        let mode = call.string(2)?.unwrap_or_default();
        return Err(Error::not_implemented(format!(
            "\"div_{mode}_cpu\" not implemented for '{}'",
            result.torch_name()
        )));
    }
    complex_map(call, &[&a, &b], result, dest, "div", |e| div(&e[0], &e[1]))
}

/// `pow.Tensor_Tensor_out`, `pow.Tensor_Scalar_out`, `pow.Scalar_out` with a complex
/// operand: squares and cubes by products, as the CPU.
pub fn power(call: &mut Call) -> Result<()> {
    let (a, b) = (call.complex_operand(0)?, call.complex_operand(1)?);
    let result = result_type(&[&a, &b]);
    let small = match b {
        ComplexOperand::Scalar { re, im: 0.0, .. } if re == 2.0 || re == 3.0 => Some(re),
        _ => None,
    };
    complex_map(
        call,
        &[&a, &b],
        result,
        Dest::Arg(2),
        "pow",
        |e| match small {
            Some(2.0) => mul(&e[0], &e[0]),
            Some(_) => mul(&mul(&e[0], &e[0]), &e[0]),
            None => pow(&e[0], &e[1]),
        },
    )
}

/// A unary function of a complex tensor into `out=` (argument 1); `name` for the CPU's
/// error where the function has no complex form.
pub fn unary(call: &mut Call, name: &str, f: Option<fn(&Parts) -> Parts>) -> Result<()> {
    unary_to(call, name, f, Dest::Arg(1))
}

/// [`unary`] into `dest`.
pub fn unary_to(
    call: &mut Call,
    name: &str,
    f: Option<fn(&Parts) -> Parts>,
    dest: Dest,
) -> Result<()> {
    let a = call.complex_operand(0)?;
    let result = result_type(&[&a]);
    let f = f.ok_or_else(|| {
        Error::not_implemented(format!(
            "\"{name}\" not implemented for '{}'",
            result.torch_name()
        ))
    })?;
    complex_map(call, &[&a], result, dest, name, |e| f(&e[0]))
}

/// A function of two complex tensors into `out=` (argument 2), as the gradients of the
/// complex functions (`tanh_backward(grad, output)`, ...).
pub fn binary(call: &mut Call, name: &str, f: fn(&Parts, &Parts) -> Parts) -> Result<()> {
    let (a, b) = (call.complex_operand(0)?, call.complex_operand(1)?);
    let result = result_type(&[&a, &b]);
    complex_map(call, &[&a, &b], result, Dest::Arg(2), name, |e| {
        f(&e[0], &e[1])
    })
}

/// `neg.out` of a complex tensor.
pub fn negate(call: &mut Call) -> Result<()> {
    unary(call, "neg", complex_unary(UnaryOp::Neg))
}

/// `abs.out` of a complex tensor: the magnitude (`hypot` of the parts), a real tensor.
pub fn absolute(call: &mut Call) -> Result<()> {
    let a = call.complex_operand(0)?;
    let number = result_type(&[&a]);
    real_map(call, &[&a], number, Dest::Arg(1), number.dtype, |e| {
        magnitude(&e[0])
    })
}

/// `sgn.out` of a complex tensor: `z / |z|`, 0 at 0.
pub fn sign(call: &mut Call) -> Result<()> {
    unary(
        call,
        "sgn",
        Some(|z: &Parts| {
            let m = magnitude(z);
            let zero = m.clone().eq(Expr::constant(m.dtype(), 0.0));
            let (re, im) = scale(z, &(Expr::constant(m.dtype(), 1.0) / m));
            let z0 = Expr::constant(re.dtype(), 0.0);
            (zero.clone().select(z0.clone(), re), zero.select(z0, im))
        }),
    )
}

/// `isnan` / `isinf` (either part) and `isfinite` (both parts) of a complex tensor.
pub fn predicate(call: &mut Call, op: UnaryOp) -> Result<()> {
    let a = call.complex_operand(0)?;
    let number = result_type(&[&a]);
    real_map(call, &[&a], number, Dest::New, DType::Bool, |e| {
        let (x, y) = e[0].clone();
        match op {
            UnaryOp::IsFinite => x.unary(op).and(y.unary(op)),
            _ => x.unary(op).or(y.unary(op)),
        }
    })
}

/// `eq` / `ne` with a complex operand (into `out=`, argument 2).
pub fn equality(call: &mut Call, equal: bool) -> Result<()> {
    let (a, b) = (call.complex_operand(0)?, call.complex_operand(1)?);
    let number = result_type(&[&a, &b]);
    real_map(call, &[&a, &b], number, Dest::Arg(2), DType::Bool, |e| {
        let same = (e[0].0.clone().eq(e[1].0.clone())).and(e[0].1.clone().eq(e[1].1.clone()));
        if equal {
            same
        } else {
            same.unary(UnaryOp::Not)
        }
    })
}

/// `logical_and/or/xor.out` (`op` of the operands' truth) and `logical_not.out` (`op` none).
pub fn logical(call: &mut Call, op: Option<BinaryOp>) -> Result<()> {
    let a = call.complex_operand(0)?;
    let Some(op) = op else {
        let number = result_type(&[&a]);
        return real_map(call, &[&a], number, Dest::Arg(1), DType::Bool, |e| {
            truth(&e[0]).unary(UnaryOp::Not)
        });
    };
    let b = call.complex_operand(1)?;
    let number = result_type(&[&a, &b]);
    real_map(call, &[&a, &b], number, Dest::Arg(2), DType::Bool, |e| {
        truth(&e[0]).binary(op, truth(&e[1]))
    })
}

/// `where(condition, a, b)` with a complex `a` or `b`; also `masked_fill_(self, mask,
/// value)` as `where(mask, value, self)` into self (`fill`).
pub fn select(call: &mut Call, dest: Dest, fill: bool) -> Result<()> {
    let (first, second) = (call.complex_operand(0)?, call.complex_operand(1)?);
    let third = call.complex_operand(2)?;
    let (condition, a, b) = if fill {
        (second, third, first)
    } else {
        (first, second, third)
    };
    let result = if fill {
        result_type(&[&b])
    } else {
        result_type(&[&a, &b])
    };
    complex_map(call, &[&condition, &a, &b], result, dest, "where", |e| {
        let chosen = e[0]
            .0
            .clone()
            .binary(BinaryOp::Ne, Expr::constant(e[0].0.dtype(), 0.0));
        (
            chosen.clone().select(e[1].0.clone(), e[2].0.clone()),
            chosen.select(e[1].1.clone(), e[2].1.clone()),
        )
    })
}

/// `addcmul.out` / `addcdiv.out` with a complex operand: `self + value * t1 * t2` (or `/`).
pub fn add_product(call: &mut Call, divide: bool) -> Result<()> {
    let (a, t1, t2) = (
        call.complex_operand(0)?,
        call.complex_operand(1)?,
        call.complex_operand(2)?,
    );
    let value = call.complex_operand(3)?;
    let result = result_type(&[&a, &t1, &t2]);
    complex_map(
        call,
        &[&a, &t1, &t2, &value],
        result,
        Dest::Arg(4),
        "addc",
        |e| {
            let term = if divide {
                div(&e[1], &e[2])
            } else {
                mul(&e[1], &e[2])
            };
            add(&e[0], &mul(&e[3], &term))
        },
    )
}

/// The epilogue of a complex product with complex `alpha` or `beta`: `beta * c + alpha *
/// product` (`product` a complex pair view) into argument `dest`; `c` is ignored when `beta`
/// is zero, as PyTorch ignores it (its NaNs included).
pub fn product_epilogue(
    call: &mut Call,
    c: &ComplexOperand,
    product: &TensorRef,
    alpha: &ComplexOperand,
    beta: &ComplexOperand,
    dest: usize,
) -> Result<()> {
    let product = ComplexOperand::Tensor {
        view: product.clone(),
        complex: true,
    };
    let result = result_type(&[c, &product]);
    let ignore_c =
        matches!(beta, ComplexOperand::Scalar { re, im, .. } if *re == 0.0 && *im == 0.0);
    if ignore_c {
        return complex_map(
            call,
            &[&product, alpha],
            result,
            Dest::Arg(dest),
            "addmm",
            |e| mul(&e[1], &e[0]),
        );
    }
    let operands = [c, &product, alpha, beta];
    complex_map(call, &operands, result, Dest::Arg(dest), "addmm", |e| {
        add(&mul(&e[3], &e[0]), &mul(&e[2], &e[1]))
    })
}

/// `lerp.Scalar_out` / `lerp.Tensor_out` with a complex operand, in PyTorch's form exact at
/// both ends (`|w| < 0.5` picks the start).
pub fn lerp(call: &mut Call) -> Result<()> {
    let (a, b, w) = (
        call.complex_operand(0)?,
        call.complex_operand(1)?,
        call.complex_operand(2)?,
    );
    let result = result_type(&[&a, &b]);
    complex_map(call, &[&a, &b, &w], result, Dest::Arg(3), "lerp", |e| {
        let (x, y, w) = (&e[0], &e[1], &e[2]);
        let diff = sub(y, x);
        let small = magnitude(w).lt(Expr::constant(w.0.dtype(), 0.5));
        let one = real(Expr::constant(w.0.dtype(), 1.0));
        let near = add(x, &mul(w, &diff));
        let far = sub(y, &mul(&diff, &sub(&one, w)));
        (
            small.clone().select(near.0, far.0),
            small.select(near.1, far.1),
        )
    })
}
