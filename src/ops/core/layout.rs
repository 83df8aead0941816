//! Broadcasting and dimension coalescing for elementwise launches, and the `[N, C, positions]`
//! view of images.

use crate::error::{Error, Result};
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::{Dims, TensorRef};
use smallvec::{smallvec, SmallVec};

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

/// The memory order (outermost dimension first) PyTorch's TensorIterator gives a new result
/// of `shape` computed elementwise from `inputs`, or None for row-major: row-major when every
/// input has the result's shape and is contiguous; otherwise the dimensions are sorted from
/// the innermost by the first input whose strides along a pair differ (dimensions an input
/// broadcasts are skipped for it; equal strides put the longer dimension outside).
pub fn result_order(shape: &[i64], inputs: &[&TensorRef]) -> Option<Dims> {
    let n = shape.len();
    if n < 2
        || inputs
            .iter()
            .all(|t| t.sizes[..] == *shape && t.is_contiguous())
    {
        return None;
    }
    // Strides along the result's dimensions: 0 where an input broadcasts.
    let strides: SmallVec<[Dims; 4]> = inputs
        .iter()
        .map(|t| {
            let lead = n - t.sizes.len();
            (0..n)
                .map(|d| match d.checked_sub(lead) {
                    Some(i) if t.sizes[i] != 1 || shape[d] == 1 => t.strides[i],
                    _ => 0,
                })
                .collect()
        })
        .collect();
    // Whether dimension `a` goes outside `b` (1), inside it (-1), or either (0).
    let outside = |a: usize, b: usize| -> i32 {
        for s in &strides {
            let (sa, sb) = (s[a], s[b]);
            if sa == 0 || sb == 0 {
                continue;
            }
            if sa != sb {
                return if sa < sb { -1 } else { 1 };
            }
            if shape[a] > shape[b] {
                return 1;
            }
        }
        0
    };
    // Innermost first, sorted by insertion (an ambiguous pair stays as it is).
    let mut inner_first: Dims = (0..n as i64).rev().collect();
    for i in 1..n {
        let mut moving = i;
        for j in (0..i).rev() {
            match outside(inner_first[j] as usize, inner_first[moving] as usize) {
                1 => {
                    inner_first.swap(j, moving);
                    moving = j;
                }
                -1 => break,
                _ => {}
            }
        }
    }
    inner_first.reverse();
    let row_major = inner_first.iter().enumerate().all(|(i, &d)| d == i as i64);
    (!row_major).then_some(inner_first)
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

    fn tensor(sizes: &[i64], strides: &[i64]) -> TensorRef {
        TensorRef {
            address: 0,
            sizes: sizes.into(),
            strides: strides.into(),
            dtype: crate::dtype::DType::F32,
            device: 0,
        }
    }

    #[test]
    fn results_follow_the_inputs_layout() {
        // Row-major inputs, broadcast or not: a row-major result.
        let a = tensor(&[2, 3], &[3, 1]);
        assert_eq!(result_order(&[2, 3], &[&a, &a]), None);
        let row = tensor(&[3], &[1]);
        assert_eq!(result_order(&[2, 3], &[&a, &row]), None);
        // A transposed input: the result is transposed too.
        let t = tensor(&[3, 2], &[1, 3]);
        assert_eq!(result_order(&[3, 2], &[&t, &t]).unwrap()[..], [1, 0]);
        // Channels-last NCHW.
        let cl = tensor(&[2, 3, 4, 5], &[60, 1, 15, 3]);
        assert_eq!(
            result_order(&[2, 3, 4, 5], &[&cl]).unwrap()[..],
            [0, 2, 3, 1]
        );
        // The first input decides; a broadcast one defers to the next.
        let column = tensor(&[3, 1], &[1, 1]);
        assert_eq!(result_order(&[3, 2], &[&column, &t]).unwrap()[..], [1, 0]);
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
