//! `masked_select`: the selected elements in row-major order, as a 1-D tensor.

use super::call::{Call, Dest};
use super::launch::{reduce_to_host, run_masked_select};
use super::layout::{broadcast_shapes, broadcast_strides};
use super::tensor::TensorRef;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::ReduceOp;

/// `a[mask]`, with `a` and `mask` broadcast together.
pub fn masked_select(call: &mut Call, a: &TensorRef, mask: &TensorRef, dest: Dest) -> Result<()> {
    if mask.dtype != DType::Bool {
        return Err(Error::runtime(format!(
            "masked_select: expected BoolTensor for mask, got {}",
            mask.dtype.name()
        )));
    }
    if let Dest::Arg(i) = dest {
        let out = call.tensor(i)?;
        if out.dtype != a.dtype {
            return Err(Error::runtime(format!(
                "masked_select(): self and result must have the same scalar type, got {} and {}",
                a.dtype.torch_name(),
                out.dtype.torch_name()
            )));
        }
    }
    let shape = broadcast_shapes(&[&a.sizes, &mask.sizes])?;
    let wide_mask = TensorRef {
        sizes: shape.clone(),
        strides: broadcast_strides(mask, &shape),
        ..mask.clone()
    };
    let count = count_true(&wide_mask)?;
    let out = call.result(dest, &[count], a.dtype, a.device)?;
    run_masked_select(a, mask, &out, &shape)
}

/// The number of true elements of a bool tensor (read back to the host).
pub fn count_true(mask: &TensorRef) -> Result<i64> {
    if mask.numel() == 0 {
        return Ok(0);
    }
    Ok(reduce_to_host(mask, ReduceOp::Sum)? as i64)
}
