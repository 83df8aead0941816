//! Broadcasting and dimension coalescing for elementwise launches, and the `[N, C, positions]`
//! view of images.

use crate::error::{Error, Result};
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::{Dims, TensorRef};
use smallvec::smallvec;

/// `[N, C, *spatial]` viewed as `[N, C, positions]` when the spatial dimensions flatten into
/// one stride (contiguous and channels-last tensors do; the stride is 0 for one position).
pub fn channel_planes(t: &TensorRef) -> Option<TensorRef> {
    let mut stride = None;
    let mut expected = 0;
    for (&size, &s) in t.sizes[2..].iter().zip(&t.strides[2..]).rev() {
        if size == 1 {
            continue;
        }
        if stride.is_some() && s != expected {
            return None;
        }
        stride.get_or_insert(s);
        expected = s * size;
    }
    Some(TensorRef {
        sizes: smallvec![t.sizes[0], t.sizes[1], t.sizes[2..].iter().product()],
        strides: smallvec![t.strides[0], t.strides[1], stride.unwrap_or(0)],
        ..t.clone()
    })
}

/// `t` (`[N, C, *spatial]`, or unbatched `[C, *spatial]` with `dims` spatial dimensions)
/// as `[N, C, *spatial]`.
pub fn batched(t: &TensorRef, dims: usize) -> TensorRef {
    let mut view = t.clone();
    if view.sizes.len() == dims + 1 {
        view.sizes.insert(0, 1);
        view.strides.insert(0, 0);
    }
    view
}

/// [`channel_planes`] of `t`, or of a contiguous copy of it (returned to keep alive).
pub fn planes(t: &TensorRef) -> Result<(TensorRef, Option<Scratch>)> {
    if let Some(view) = channel_planes(t) {
        return Ok((view, None));
    }
    let copy = Scratch::contiguous(t.device, &t.sizes, t.dtype)?;
    crate::ops::shape::copy::copy(&copy.tensor, t)?;
    let view = channel_planes(&copy.tensor).expect("a contiguous tensor flattens");
    Ok((view, Some(copy)))
}

/// The broadcast shape of `shapes`, with PyTorch's error for mismatches.
pub fn broadcast_shapes(shapes: &[&[i64]]) -> Result<Dims> {
    let rank = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out: Dims = smallvec::smallvec![1i64; rank];
    for shape in shapes {
        for (i, &size) in shape.iter().enumerate() {
            let d = rank - shape.len() + i;
            if out[d] == 1 {
                out[d] = size;
            } else if size != 1 && size != out[d] {
                return Err(Error::runtime(format!(
                    "The size of tensor a ({}) must match the size of tensor b ({size}) at non-singleton dimension {i}",
                    out[d]
                )));
            }
        }
    }
    Ok(out)
}

/// The strides of `t` viewed with `shape` (broadcast dimensions get stride 0).
pub fn broadcast_strides(t: &TensorRef, shape: &[i64]) -> Vec<i64> {
    let lead = shape.len() - t.sizes.len();
    (0..shape.len())
        .map(|d| {
            if d < lead || t.sizes[d - lead] == 1 {
                0
            } else {
                t.strides[d - lead]
            }
        })
        .collect()
}

/// Merges adjacent dimensions that every operand walks contiguously and drops size-1
/// dimensions, so most launches iterate over one or two dimensions.
pub fn coalesce(shape: &[i64], strides: &[Vec<i64>]) -> (Vec<i64>, Vec<Vec<i64>>) {
    let mut out_shape: Vec<i64> = Vec::with_capacity(shape.len());
    let mut out_strides: Vec<Vec<i64>> = (0..strides.len())
        .map(|_| Vec::with_capacity(shape.len()))
        .collect();
    for d in 0..shape.len() {
        if shape[d] == 1 {
            continue;
        }
        let mergeable = !out_shape.is_empty()
            && strides
                .iter()
                .zip(&out_strides)
                .all(|(s, o)| *o.last().unwrap() == s[d] * shape[d]);
        if mergeable {
            *out_shape.last_mut().unwrap() *= shape[d];
            for (s, o) in strides.iter().zip(out_strides.iter_mut()) {
                *o.last_mut().unwrap() = s[d];
            }
        } else {
            out_shape.push(shape[d]);
            for (s, o) in strides.iter().zip(out_strides.iter_mut()) {
                o.push(s[d]);
            }
        }
    }
    (out_shape, out_strides)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broadcasting_follows_numpy_rules() {
        assert_eq!(broadcast_shapes(&[&[3, 1], &[4]]).unwrap()[..], [3, 4]);
        assert_eq!(broadcast_shapes(&[&[], &[2, 2]]).unwrap()[..], [2, 2]);
        assert!(broadcast_shapes(&[&[3], &[4]]).is_err());
    }

    #[test]
    fn contiguous_dims_merge() {
        let (shape, strides) = coalesce(&[2, 3, 4], &[vec![12, 4, 1], vec![12, 4, 1]]);
        assert_eq!(shape, vec![24]);
        assert_eq!(strides, vec![vec![1], vec![1]]);
        let (shape, strides) = coalesce(&[2, 3, 4], &[vec![12, 4, 1], vec![1, 8, 2]]);
        assert_eq!(shape, vec![2, 12]);
        assert_eq!(strides[1], vec![1, 2]);
        let (shape, strides) = coalesce(&[2, 3, 4], &[vec![12, 4, 1], vec![1, 2, 6]]);
        assert_eq!(shape, vec![2, 3, 4]);
        assert_eq!(strides[1], vec![1, 2, 6]);
        let (shape, _) = coalesce(&[1, 5, 1], &[vec![5, 1, 1]]);
        assert_eq!(shape, vec![5]);
    }
}
