//! Nearest-neighbour upsampling (and downsampling) over 1 to 3 spatial dimensions, "nearest"
//! and "nearest-exact", and its backward. The source index of each output row, column (and
//! plane) is computed on the host as PyTorch computes it (in float32), so the forward is a
//! gather through those index vectors and the backward the sorted, deterministic accumulate.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::Accumulate;
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::index::accumulate::run_accumulate;
use crate::ops::index::index_launch::{run_index, Fault, IndexArg};
use crate::ops::nn::interpolate::{resample, transposed, Axis};
use crate::ops::shape::copy::fill;
use crate::runtime::backend;

pub const OPS: &[(&str, OpFn)] = &[
    ("upsample_nearest1d.out", |c| forward(c, 1, false)),
    ("upsample_nearest2d.out", |c| forward(c, 2, false)),
    ("upsample_nearest3d.out", |c| forward(c, 3, false)),
    ("_upsample_nearest_exact1d.out", |c| forward(c, 1, true)),
    ("_upsample_nearest_exact2d.out", |c| forward(c, 2, true)),
    ("_upsample_nearest_exact3d.out", |c| forward(c, 3, true)),
    ("upsample_nearest1d_backward.grad_input", |c| {
        backward(c, 1, false)
    }),
    ("upsample_nearest2d_backward.grad_input", |c| {
        backward(c, 2, false)
    }),
    ("upsample_nearest3d_backward.grad_input", |c| {
        backward(c, 3, false)
    }),
    ("_upsample_nearest_exact1d_backward.grad_input", |c| {
        backward(c, 1, true)
    }),
    ("_upsample_nearest_exact2d_backward.grad_input", |c| {
        backward(c, 2, true)
    }),
    ("_upsample_nearest_exact3d_backward.grad_input", |c| {
        backward(c, 3, true)
    }),
];

/// The source index of each of `output` positions along a dimension of `input` positions,
/// as PyTorch's nearest (and nearest-exact) interpolation computes it, in float32.
fn source_indices(input: i64, output: i64, scale: Option<f64>, exact: bool) -> Vec<i64> {
    let ratio = match scale {
        Some(s) if s > 0.0 => (1.0 / s) as f32,
        _ => input as f32 / output as f32,
    };
    (0..output)
        .map(|o| {
            if exact {
                (((o as f32 + 0.5) * ratio).floor() as i64).min(input - 1)
            } else if output == input {
                o
            } else if output == 2 * input {
                o >> 1
            } else {
                ((o as f32 * ratio).floor() as i64).min(input - 1)
            }
        })
        .collect()
}

/// `indices` (one vector per spatial dimension) on the device.
fn upload(device: usize, indices: &[Vec<i64>]) -> Result<Vec<Scratch>> {
    let mut vectors = Vec::new();
    for v in indices {
        let bytes: Vec<u8> = v.iter().flat_map(|i| i.to_le_bytes()).collect();
        let t = Scratch::contiguous(device, &[v.len() as i64], DType::I64)?;
        if !bytes.is_empty() {
            backend()?.write(t.tensor.address, &bytes)?;
        }
        vectors.push(t);
    }
    Ok(vectors)
}

/// `out[n, c, o...] = x[n, c, indices[0][o0], indices[1][o1], ...]` for `[N, C, *spatial]`
/// tensors, one index vector per spatial dimension (computed on the host).
pub(crate) fn gather_planes(x: &TensorRef, out: &TensorRef, indices: &[Vec<i64>]) -> Result<()> {
    if out.numel() == 0 {
        return Ok(());
    }
    let rank = x.sizes.len();
    let vectors = upload(x.device, indices)?;
    let mut src_strides = x.strides[..2].to_vec();
    src_strides.extend(std::iter::repeat_n(0, indices.len()));
    let args: Vec<IndexArg> = vectors
        .iter()
        .enumerate()
        .map(|(d, v)| {
            let mut strides = vec![0; rank];
            strides[2 + d] = 1;
            IndexArg {
                tensor: &v.tensor,
                strides,
                loop_strides: vec![],
                bound: x.sizes[2 + d],
                target: x.strides[2 + d],
            }
        })
        .collect();
    run_index(
        false,
        &out.sizes,
        (x, src_strides),
        (out, out.strides.to_vec()),
        &args,
        Fault::index("internal index out of range".into()),
    )
}

/// The gradient of [`gather_planes`]: `gx` sums, at each element, the `grad` elements that
/// were gathered from it, in float32 for half-precision gradients (rounded once, as the CPU
/// does): the transposed passes of resampling, one gather per dimension and reader.
pub(crate) fn accumulate_planes(
    grad: &TensorRef,
    gx: &TensorRef,
    indices: &[Vec<i64>],
) -> Result<()> {
    if gx.numel() == 0 {
        return Ok(());
    }
    if grad.numel() == 0 {
        return fill(gx, &ScalarArg::float(0.0));
    }
    let axes: Vec<Axis> = indices
        .iter()
        .enumerate()
        .map(|(d, index)| {
            let copies = Axis {
                index: vec![index.clone()],
                weight: vec![vec![1.0; index.len()]],
            };
            transposed(&copies, gx.sizes[2 + d])
        })
        .collect();
    let order: Vec<usize> = (0..indices.len()).collect();
    resample(grad, gx, &axes, &order)
}

/// Adds each `values` element (`[N, C, *out]`) to the element of `sums` (`[N, C, *in]`, the
/// same dtype) the index vectors name, in index order; `fresh` sums start from zero.
pub(crate) fn scatter_add_planes(
    values: &TensorRef,
    sums: &TensorRef,
    indices: &[Vec<i64>],
    fresh: bool,
) -> Result<()> {
    let dims = indices.len();
    let rank = dims + 2;
    let vectors = upload(values.device, indices)?;
    let zero = Scratch::contiguous(values.device, &[], values.dtype)?;
    fill(&zero.tensor, &ScalarArg::float(0.0))?;
    let start = if fresh {
        (&zero.tensor, vec![0; rank])
    } else {
        (sums, sums.strides.to_vec())
    };
    let mut value_strides = values.strides[..2].to_vec();
    value_strides.extend(std::iter::repeat_n(0, dims));
    let args: Vec<IndexArg> = vectors
        .iter()
        .enumerate()
        .map(|(d, v)| {
            let mut loop_strides = vec![0; dims];
            loop_strides[d] = 1;
            IndexArg {
                tensor: &v.tensor,
                strides: vec![0; rank],
                loop_strides,
                bound: sums.sizes[2 + d],
                target: (2 + d) as i64,
            }
        })
        .collect();
    run_accumulate(
        Accumulate::Sum,
        true,
        start,
        sums,
        &sums.sizes,
        &values.sizes[2..],
        (values, value_strides, values.strides[2..].to_vec()),
        &args,
        Fault::index("internal index out of range".into()),
    )
}

/// Reads the `dims` optional scales from argument `at` on.
fn scales(call: &Call, at: usize, dims: usize) -> Result<Vec<Option<f64>>> {
    (0..dims).map(|d| call.optional_double(at + d)).collect()
}

/// The source index vectors of nearest resampling from `input` to `output` sizes.
fn nearest(input: &[i64], output: &[i64], scales: &[Option<f64>], exact: bool) -> Vec<Vec<i64>> {
    (0..input.len())
        .map(|d| source_indices(input[d], output[d], scales[d], exact))
        .collect()
}

/// `upsample_nearest{1,2,3}d(self, output_size, scales...)`.
fn forward(call: &mut Call, dims: usize, exact: bool) -> Result<()> {
    let x = call.tensor(0)?;
    let output_size = call.ints(1)?;
    let scales = scales(call, 2, dims)?;
    if x.sizes.len() != dims + 2 || output_size.len() != dims {
        return Err(Error::runtime(format!(
            "upsample_nearest{dims}d: expected a {}D input and {dims} output sizes, got input of size {:?} and output_size {output_size:?}",
            dims + 2,
            x.sizes
        )));
    }
    let mut sizes = x.sizes[..2].to_vec();
    sizes.extend(&output_size);
    let out = call.result(Dest::Arg(2 + dims), &sizes, x.dtype, x.device)?;
    gather_planes(
        &x,
        &out,
        &nearest(&x.sizes[2..], &output_size, &scales, exact),
    )
}

/// `upsample_nearest{1,2,3}d_backward(grad_output, output_size, input_size, scales...)`:
/// each input element sums the gradients of the outputs that copied it.
fn backward(call: &mut Call, dims: usize, exact: bool) -> Result<()> {
    let grad = call.tensor(0)?;
    let output_size = call.ints(1)?;
    let input_size = call.ints(2)?;
    let scales = scales(call, 3, dims)?;
    if input_size.len() != dims + 2 || grad.sizes[2..] != output_size[..] {
        return Err(Error::runtime(format!(
            "upsample_nearest{dims}d_backward: grad_output of size {:?} does not match output_size {output_size:?}",
            grad.sizes
        )));
    }
    let gx = call.result(Dest::Arg(3 + dims), &input_size, grad.dtype, grad.device)?;
    accumulate_planes(
        &grad,
        &gx,
        &nearest(&input_size[2..], &output_size, &scales, exact),
    )
}

#[cfg(test)]
mod tests {
    use super::source_indices;

    #[test]
    fn nearest_indices_follow_pytorch() {
        assert_eq!(source_indices(3, 6, None, false), [0, 0, 1, 1, 2, 2]);
        assert_eq!(source_indices(4, 3, None, false), [0, 1, 2]);
        assert_eq!(source_indices(4, 3, None, true), [0, 2, 3]);
        assert_eq!(source_indices(2, 5, Some(2.5), false), [0, 0, 0, 1, 1]);
    }
}
