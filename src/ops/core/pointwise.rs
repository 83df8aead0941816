//! The elementwise core every pointwise op shares: operands (device tensors or host scalars)
//! broadcast together, PyTorch's type promotion, the destination sized and checked, and one
//! map kernel computing an expression of the operands.

use crate::dtype::{DType, REFUSAL};
use crate::error::{Error, Result};
use crate::kernels::{Expr, MapKernel};
use crate::ops::core::call::{Call, Dest, Operand};
use crate::ops::core::launch::run_map;
use crate::ops::core::layout::{broadcast_shapes, result_order};
use crate::ops::core::promote::{result_type, Priority};
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::tensor::TensorRef;
use smallvec::SmallVec;

/// How `operand` takes part in type promotion.
pub fn promotion_key(operand: &Operand) -> (DType, Priority) {
    match operand {
        Operand::Tensor(t) if t.sizes.is_empty() => (t.dtype, Priority::ZeroDim),
        Operand::Tensor(t) => (t.dtype, Priority::Dim),
        Operand::Scalar(s) => match s.tensor_dtype() {
            Some(dtype) => (dtype, Priority::ZeroDim),
            None => (s.dtype(), Priority::Wrapped),
        },
    }
}

/// `torch.result_type` of the operands.
pub fn common_dtype(operands: &[&Operand]) -> Result<DType> {
    let keys: SmallVec<[_; 4]> = operands.iter().map(|o| promotion_key(o)).collect();
    result_type(&keys, DType::F32)
}

/// The dtype an op that only makes sense for floats computes in: integers become float32.
pub fn float_dtype(dtype: DType) -> DType {
    if dtype.is_float() {
        dtype
    } else {
        DType::F32
    }
}

/// PyTorch's "not implemented for" error for a dtype an op refuses.
pub fn not_implemented_for(op: &str, dtype: DType) -> Error {
    Error::not_implemented(format!(
        "\"{op}\" not implemented for '{}'",
        dtype.torch_name()
    ))
}

/// The device of the first tensor operand.
fn device_of(operands: &[&Operand]) -> Result<usize> {
    operands
        .iter()
        .find_map(|o| match o {
            Operand::Tensor(t) => Some(t.device),
            Operand::Scalar(_) => None,
        })
        .ok_or_else(|| Error::runtime("mojo: an elementwise op needs a device tensor operand"))
}

/// Writes `f(operands)` into the destination: each operand is read converted to `compute`,
/// the result (of dtype `result` for a new tensor) is converted to the destination's dtype.
pub fn pointwise(
    call: &mut Call,
    operands: &[&Operand],
    dest: Dest,
    compute: DType,
    result: DType,
    f: impl FnOnce(&[Expr]) -> Expr,
) -> Result<()> {
    pointwise_with(call, operands, &[], dest, compute, result, f)
}

/// [`pointwise`] with extra scalar arguments that keep their own dtype (sizes, counts and
/// other launch values an expression needs: they are never baked into the kernel). `f`
/// receives the operands' expressions, then the extras'.
pub fn pointwise_with(
    call: &mut Call,
    operands: &[&Operand],
    extras: &[(DType, ScalarArg)],
    dest: Dest,
    compute: DType,
    result: DType,
    f: impl FnOnce(&[Expr]) -> Expr,
) -> Result<()> {
    let mut shapes: SmallVec<[&[i64]; 4]> = SmallVec::new();
    let mut tensors: SmallVec<[&TensorRef; 4]> = SmallVec::new();
    let mut inputs = SmallVec::new();
    let mut scalars = SmallVec::new();
    let mut words: SmallVec<[u32; 8]> = SmallVec::new();
    let mut exprs: SmallVec<[Expr; 4]> = SmallVec::new();
    for operand in operands {
        match operand {
            Operand::Tensor(t) => {
                if compute == DType::F8E8M0 && t.dtype != compute {
                    // It has no zero: a mask (or any operand) cast to it loses its meaning.
                    return Err(Error::not_implemented(format!(
                        "{REFUSAL} Float8_e8m0fnu tensors with {} tensors",
                        t.dtype.torch_name()
                    )));
                }
                shapes.push(&t.sizes);
                exprs.push(Expr::input(tensors.len(), t.dtype).cast(compute));
                inputs.push(t.dtype);
                tensors.push(t);
            }
            Operand::Scalar(s) => {
                exprs.push(Expr::scalar(scalars.len(), compute));
                scalars.push(compute);
                words.extend(s.inline_words(compute));
            }
        }
    }
    for (dtype, s) in extras {
        exprs.push(Expr::scalar(scalars.len(), *dtype));
        scalars.push(*dtype);
        words.extend(s.inline_words(*dtype));
    }
    let shape = broadcast_shapes(&shapes)?;
    let device = device_of(operands)?;
    let out = match dest {
        // Laid out as PyTorch lays out an elementwise result (its functional ops' meta).
        Dest::New => {
            call.create_in_order(&shape, result, device, result_order(&shape, &tensors))?
        }
        Dest::Arg(_) => call.result(dest, &shape, result, device)?,
    };
    let kernel = MapKernel {
        inputs,
        scalars,
        outputs: smallvec::smallvec![(out.dtype, f(&exprs).cast(out.dtype))],
    };
    // Declared after `out`, so dropped before it.
    let mut tensors = tensors;
    tensors.push(&out);
    run_map(kernel, &tensors, &shape, &words)
}
