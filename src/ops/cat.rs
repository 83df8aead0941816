//! `torch.cat`: inputs copied side by side along one dimension, with type promotion.

use super::copy::copy;
use super::output::Output;
use super::promote::{can_cast, promote_types};
use super::tensor::TensorRef;
use crate::error::{Error, Result};

/// Whether `t` is the legacy empty 1-D tensor that cat skips.
fn skipped(t: &TensorRef) -> bool {
    t.sizes == [0]
}

/// `out = cat(inputs, dim)`.
pub fn cat(inputs: &[TensorRef], dim: i64, out: &mut Output) -> Result<()> {
    let kept: Vec<&TensorRef> = inputs.iter().filter(|t| !skipped(t)).collect();
    let Some(first) = kept.first() else {
        out.resize_to(&[0])?;
        return Ok(());
    };
    let rank = first.sizes.len() as i64;
    if rank == 0 {
        return Err(Error::runtime(
            "zero-dimensional tensor (at position 0) cannot be concatenated",
        ));
    }
    if dim < -rank || dim >= rank {
        return Err(Error::index(format!(
            "Dimension out of range (expected to be in range of [{}, {}], but got {dim})",
            -rank,
            rank - 1
        )));
    }
    let dim = dim.rem_euclid(rank) as usize;
    for t in &kept {
        out.tensor.assert_no_overlap(t)?;
    }
    let mut shape = first.sizes.clone();
    shape[dim] = 0;
    let mut dtype = first.dtype;
    for (i, t) in kept.iter().enumerate() {
        let same = t.sizes.len() == shape.len()
            && t.sizes
                .iter()
                .zip(&shape)
                .enumerate()
                .all(|(d, (a, b))| d == dim || a == b);
        if !same {
            return Err(Error::runtime(format!(
                "Sizes of tensors must match except in dimension {dim}. Expected {:?} but got {:?} for tensor number {i} in the list.",
                first.sizes, t.sizes
            )));
        }
        shape[dim] += t.sizes[dim];
        dtype = promote_types(dtype, t.dtype);
    }
    if !can_cast(dtype, out.tensor.dtype) {
        return Err(Error::runtime(format!(
            "torch.cat(): input types can't be cast to the desired output type {}",
            out.tensor.dtype.name()
        )));
    }
    let out = out.resize_to(&shape)?;
    let mut start = 0i64;
    for t in kept {
        let mut part = out.clone();
        part.sizes[dim] = t.sizes[dim];
        part.address += (start * out.strides[dim]) as u64 * out.dtype.size() as u64;
        copy(&part, t)?;
        start += t.sizes[dim];
    }
    Ok(())
}
