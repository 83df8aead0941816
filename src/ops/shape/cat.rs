//! `torch.cat`: inputs copied side by side along one dimension, with type promotion.
//! Complex inputs and outputs come as their pair views (a trailing dimension of 2 that the
//! shapes here leave out); the copies convert between real and complex.

use crate::error::{Error, Result};
use crate::ops::core::output::Output;
use crate::ops::core::promote::{can_cast, promote_types};
use crate::ops::core::tensor::TensorRef;
use crate::ops::shape::copy::copy_any;

/// The sizes of a tensor, or of the complex tensor a pair view (`true`) stands for.
fn sizes_of((t, complex): &(TensorRef, bool)) -> &[i64] {
    &t.sizes[..t.sizes.len() - usize::from(*complex)]
}

/// Whether `t` is the legacy empty 1-D tensor that cat skips.
fn skipped(t: &(TensorRef, bool)) -> bool {
    sizes_of(t) == [0]
}

/// `out = cat(inputs, dim)`; `complex` says `out` is a complex tensor's pair view.
pub fn cat(inputs: &[(TensorRef, bool)], dim: i64, out: &mut Output, complex: bool) -> Result<()> {
    let kept: Vec<&(TensorRef, bool)> = inputs.iter().filter(|t| !skipped(t)).collect();
    let Some(first) = kept.first() else {
        out.resize_to(&[0])?;
        return Ok(());
    };
    let rank = sizes_of(first).len() as i64;
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
    for (t, _) in &kept {
        out.tensor.assert_no_overlap(t)?;
    }
    let mut shape = sizes_of(first).to_vec();
    shape[dim] = 0;
    let (mut dtype, mut any_complex) = (first.0.dtype, false);
    for (i, t) in kept.iter().enumerate() {
        let sizes = sizes_of(t);
        let same = sizes.len() == shape.len()
            && sizes
                .iter()
                .zip(&shape)
                .enumerate()
                .all(|(d, (a, b))| d == dim || a == b);
        if !same {
            return Err(Error::runtime(format!(
                "Sizes of tensors must match except in dimension {dim}. Expected {:?} but got {:?} for tensor number {i} in the list.",
                sizes_of(first), sizes
            )));
        }
        shape[dim] += sizes[dim];
        dtype = promote_types(dtype, t.0.dtype)?;
        any_complex |= t.1;
    }
    if !can_cast(dtype, out.tensor.dtype) || (any_complex && !complex) {
        let name = if complex {
            format!("complex{}", 16 * out.tensor.dtype.size())
        } else {
            out.tensor.dtype.name().to_string()
        };
        return Err(Error::runtime(format!(
            "torch.cat(): input types can't be cast to the desired output type {name}"
        )));
    }
    let out = out.resize_to(&shape)?;
    let mut start = 0i64;
    for t in kept {
        let mut part = out.clone();
        part.sizes[dim] = sizes_of(t)[dim];
        part.address += (start * out.strides[dim]) as u64 * out.dtype.size() as u64;
        copy_any((part, complex), t.clone())?;
        start += sizes_of(t)[dim];
    }
    Ok(())
}
