//! Unary and binary elementwise ops with PyTorch's broadcasting and type promotion.

use super::launch::run_map;
use super::layout::broadcast_shapes;
use super::output::Output;
use super::promote::{can_cast, result_type, Priority};
use super::scalar::ScalarArg;
use super::tensor::TensorRef;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{BinaryOp, Expr, MapKernel, UnaryOp};

/// The second operand of a binary op.
pub enum Operand<'a> {
    Tensor(&'a TensorRef),
    Scalar(ScalarArg),
}

fn priority(t: &TensorRef) -> Priority {
    if t.sizes.is_empty() {
        Priority::ZeroDim
    } else {
        Priority::Dim
    }
}

fn check_out_cast(result: DType, out: DType) -> Result<()> {
    if can_cast(result, out) {
        Ok(())
    } else {
        Err(Error::runtime(format!(
            "result type {} can't be cast to the desired output type {}",
            result.name(),
            out.name()
        )))
    }
}

fn not_implemented_for(op: &str, dtype: DType) -> Error {
    Error::runtime(format!(
        "\"{op}_mojo\" not implemented for '{}'",
        dtype.name()
    ))
}

/// `out = op(a)`.
pub fn unary(op: UnaryOp, a: &TensorRef, out: &mut Output) -> Result<()> {
    let result = match op {
        UnaryOp::IsNan | UnaryOp::IsInf | UnaryOp::IsFinite => DType::Bool,
        _ => a.dtype,
    };
    if op == UnaryOp::Neg && a.dtype == DType::Bool {
        return Err(Error::runtime(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, \
             use the `~` or `logical_not()` operator instead.",
        ));
    }
    if op == UnaryOp::Not && a.dtype.is_float() {
        return Err(not_implemented_for("bitwise_not", a.dtype));
    }
    check_out_cast(result, out.tensor.dtype)?;
    let out = out.resize_to(&a.sizes)?;
    let kernel = MapKernel {
        inputs: vec![a.dtype],
        scalars: vec![],
        outputs: vec![(out.dtype, Expr::input(0, a.dtype).unary(op).cast(out.dtype))],
    };
    run_map(kernel, &[a, out], &a.sizes, &[])
}

/// `out = op(a, b)`.
pub fn binary(op: BinaryOp, a: &TensorRef, b: Operand<'_>, out: &mut Output) -> Result<()> {
    let b_type = match &b {
        Operand::Tensor(t) => (t.dtype, priority(t)),
        Operand::Scalar(s) => match s.tensor_dtype() {
            Some(dtype) => (dtype, Priority::ZeroDim),
            None => (s.dtype(), Priority::Wrapped),
        },
    };
    let mut common = result_type(&[(a.dtype, priority(a)), b_type], DType::F32);
    if op == BinaryOp::Div && !common.is_float() {
        common = DType::F32;
    }
    let bitwise = matches!(op, BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor);
    if bitwise && common.is_float() {
        let name = match op {
            BinaryOp::BitAnd => "bitwise_and",
            BinaryOp::BitOr => "bitwise_or",
            _ => "bitwise_xor",
        };
        return Err(not_implemented_for(name, common));
    }
    let result = if op.is_comparison() {
        DType::Bool
    } else {
        common
    };
    check_out_cast(result, out.tensor.dtype)?;
    let lhs = Expr::input(0, a.dtype).cast(common);
    match b {
        Operand::Tensor(b) => {
            let shape = broadcast_shapes(&[&a.sizes, &b.sizes])?;
            let out = out.resize_to(&shape)?;
            let rhs = Expr::input(1, b.dtype).cast(common);
            let kernel = MapKernel {
                inputs: vec![a.dtype, b.dtype],
                scalars: vec![],
                outputs: vec![(out.dtype, lhs.binary(op, rhs).cast(out.dtype))],
            };
            run_map(kernel, &[a, b, out], &shape, &[])
        }
        Operand::Scalar(s) => {
            let out = out.resize_to(&a.sizes)?;
            let kernel = MapKernel {
                inputs: vec![a.dtype],
                scalars: vec![common],
                outputs: vec![(
                    out.dtype,
                    lhs.binary(op, Expr::scalar(0, common)).cast(out.dtype),
                )],
            };
            run_map(kernel, &[a, out], &a.sizes, &s.words(common))
        }
    }
}
