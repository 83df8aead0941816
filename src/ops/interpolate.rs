//! Linear, bilinear and trilinear interpolation (with and without `align_corners`) and their
//! backward. Along each dimension an output position reads two neighbours with weights that
//! PyTorch computes in the accumulator type; they are computed on the host the same way, so
//! the forward gathers each corner of the neighbourhood (2, 4 or 8) and weighs them in one
//! map, and the backward adds the weighted gradient at each corner (the deterministic
//! accumulate), in float32 (float64 for float64) with one rounding at the end.

use super::call::{Call, Dest};
use super::copy::copy;
use super::launch::run_map;
use super::registry::OpFn;
use super::scratch::Scratch;
use super::tensor::TensorRef;
use super::upsample::{gather_planes, scatter_add_planes};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Expr, MapKernel};
use crate::runtime::backend;
use std::ops::{Add, Mul};

pub const OPS: &[(&str, OpFn)] = &[
    ("upsample_linear1d.out", |c| forward(c, 1)),
    ("upsample_bilinear2d.out", |c| forward(c, 2)),
    ("upsample_trilinear3d.out", |c| forward(c, 3)),
    ("upsample_linear1d_backward.grad_input", |c| backward(c, 1)),
    ("upsample_bilinear2d_backward.grad_input", |c| {
        backward(c, 2)
    }),
    ("upsample_trilinear3d_backward.grad_input", |c| {
        backward(c, 3)
    }),
];

/// One dimension's neighbours and weights for every output position.
struct Axis {
    lo: Vec<i64>,
    hi: Vec<i64>,
    w_lo: Vec<f64>,
    w_hi: Vec<f64>,
}

/// PyTorch's source positions (`area_pixel_compute_source_index`, linear mode) in float32
/// (float64 for float64 tensors).
fn axis(input: i64, output: i64, align_corners: bool, scale: Option<f64>, f64_math: bool) -> Axis {
    let round = |v: f64| if f64_math { v } else { v as f32 as f64 };
    let ratio = if align_corners {
        if output > 1 {
            round((input - 1) as f64 / (output - 1) as f64)
        } else {
            0.0
        }
    } else {
        match scale {
            Some(s) if s > 0.0 => round(1.0 / s),
            _ => round(input as f64 / output as f64),
        }
    };
    let mut a = Axis {
        lo: Vec::new(),
        hi: Vec::new(),
        w_lo: Vec::new(),
        w_hi: Vec::new(),
    };
    for o in 0..output {
        let source = if align_corners {
            round(ratio * o as f64)
        } else {
            round(round(ratio * round(o as f64 + 0.5)) - 0.5).max(0.0)
        };
        let lo = (source.floor() as i64).min(input - 1);
        let hi = lo + i64::from(lo < input - 1);
        let w_hi = round(source - lo as f64);
        a.lo.push(lo);
        a.hi.push(hi);
        a.w_hi.push(w_hi);
        a.w_lo.push(round(1.0 - w_hi));
    }
    a
}

/// Each dimension's axis, and the weight vectors on the device (lo and hi per dimension).
fn axes(
    input: &[i64],
    output: &[i64],
    align_corners: bool,
    scales: &[Option<f64>],
    acc: DType,
    device: usize,
) -> Result<(Vec<Axis>, Vec<Scratch>)> {
    let axes: Vec<Axis> = (0..input.len())
        .map(|d| {
            axis(
                input[d],
                output[d],
                align_corners,
                scales[d],
                acc == DType::F64,
            )
        })
        .collect();
    let mut weights = Vec::new();
    for a in &axes {
        for w in [&a.w_lo, &a.w_hi] {
            let bytes: Vec<u8> = match acc {
                DType::F64 => w.iter().flat_map(|v| v.to_le_bytes()).collect(),
                _ => w.iter().flat_map(|v| (*v as f32).to_le_bytes()).collect(),
            };
            let t = Scratch::contiguous(device, &[w.len() as i64], acc)?;
            if !bytes.is_empty() {
                backend()?.write(t.tensor.address, &bytes)?;
            }
            weights.push(t);
        }
    }
    Ok((axes, weights))
}

/// The corners of the neighbourhood: for each, which neighbour (0: lo, 1: hi) per dimension.
fn corners(dims: usize) -> Vec<Vec<usize>> {
    (0..1usize << dims)
        .map(|c| (0..dims).map(|d| (c >> (dims - 1 - d)) & 1).collect())
        .collect()
}

/// A corner's index vectors.
fn corner_indices(axes: &[Axis], corner: &[usize]) -> Vec<Vec<i64>> {
    axes.iter()
        .zip(corner)
        .map(|(a, &k)| if k == 0 { a.lo.clone() } else { a.hi.clone() })
        .collect()
}

/// Weight vector `k` of dimension `d` broadcast over `[N, C, *output]`.
fn weight_view(weights: &[Scratch], d: usize, k: usize, shape: &[i64]) -> TensorRef {
    let mut strides = vec![0; shape.len()];
    strides[2 + d] = 1;
    TensorRef {
        sizes: shape.to_vec(),
        strides,
        ..weights[2 * d + k].tensor.clone()
    }
}

/// Reads `align_corners` and the scales after it.
fn options(call: &Call, at: usize, dims: usize) -> Result<(bool, Vec<Option<f64>>)> {
    let scales = (0..dims)
        .map(|d| call.optional_double(at + 1 + d))
        .collect::<Result<_>>()?;
    Ok((call.boolean(at)?, scales))
}

/// `upsample_{linear1d,bilinear2d,trilinear3d}(self, output_size, align_corners, scales...)`.
fn forward(call: &mut Call, dims: usize) -> Result<()> {
    let x = call.tensor(0)?;
    let output_size = call.ints(1)?;
    let (align_corners, scales) = options(call, 2, dims)?;
    if x.sizes.len() != dims + 2 || output_size.len() != dims {
        return Err(Error::runtime(format!(
            "upsample: expected a {}D input and {dims} output sizes, got input of size {:?} and output_size {output_size:?}",
            dims + 2,
            x.sizes
        )));
    }
    if !x.dtype.is_float() {
        return Err(super::pointwise::not_implemented_for(
            "upsample_linear",
            x.dtype,
        ));
    }
    let mut sizes = x.sizes[..2].to_vec();
    sizes.extend(&output_size);
    let out = call.result(Dest::Arg(3 + dims), &sizes, x.dtype, x.device)?;
    if out.numel() == 0 {
        return Ok(());
    }
    let acc = x.dtype.float_acc();
    let (axes, weights) = axes(
        &x.sizes[2..],
        &output_size,
        align_corners,
        &scales,
        acc,
        x.device,
    )?;
    // Each corner gathered, then one map weighs and adds them.
    let mut gathered = Vec::new();
    for corner in corners(dims) {
        let g = Scratch::contiguous(x.device, &sizes, x.dtype)?;
        gather_planes(&x, &g.tensor, &corner_indices(&axes, &corner))?;
        gathered.push((corner, g));
    }
    let weight_views: Vec<[TensorRef; 2]> = (0..dims)
        .map(|d| {
            [
                weight_view(&weights, d, 0, &sizes),
                weight_view(&weights, d, 1, &sizes),
            ]
        })
        .collect();
    let mut inputs: Vec<&TensorRef> = Vec::new();
    let mut value: Option<Expr> = None;
    for (corner, g) in &gathered {
        let mut term = Expr::input(inputs.len(), x.dtype).cast(acc);
        inputs.push(&g.tensor);
        for (d, &k) in corner.iter().enumerate() {
            term = term.mul(Expr::input(inputs.len(), acc));
            inputs.push(&weight_views[d][k]);
        }
        value = Some(match value {
            Some(v) => v.add(term),
            None => term,
        });
    }
    let kernel = MapKernel {
        inputs: inputs.iter().map(|t| t.dtype).collect(),
        scalars: vec![],
        outputs: vec![(x.dtype, value.expect("a corner").cast(x.dtype))],
    };
    inputs.push(&out);
    run_map(kernel, &inputs, &sizes, &[])
}

/// `upsample_{linear1d,bilinear2d,trilinear3d}_backward(grad_output, output_size, input_size,
/// align_corners, scales...)`.
fn backward(call: &mut Call, dims: usize) -> Result<()> {
    let grad = call.tensor(0)?;
    let output_size = call.ints(1)?;
    let input_size = call.ints(2)?;
    let (align_corners, scales) = options(call, 3, dims)?;
    if input_size.len() != dims + 2 || grad.sizes[2..] != output_size[..] {
        return Err(Error::runtime(format!(
            "upsample_backward: grad_output of size {:?} does not match output_size {output_size:?}",
            grad.sizes
        )));
    }
    let gx = call.result(Dest::Arg(4 + dims), &input_size, grad.dtype, grad.device)?;
    if gx.numel() == 0 {
        return Ok(());
    }
    let acc = grad.dtype.float_acc();
    let (axes, weights) = axes(
        &input_size[2..],
        &output_size,
        align_corners,
        &scales,
        acc,
        grad.device,
    )?;
    let sums = Scratch::contiguous(grad.device, &input_size, acc)?;
    let weighted = Scratch::contiguous(grad.device, &grad.sizes, acc)?;
    for (i, corner) in corners(dims).into_iter().enumerate() {
        let views: Vec<TensorRef> = corner
            .iter()
            .enumerate()
            .map(|(d, &k)| weight_view(&weights, d, k, &grad.sizes))
            .collect();
        let mut inputs = vec![&grad];
        let mut value = Expr::input(0, grad.dtype).cast(acc);
        for v in &views {
            value = value.mul(Expr::input(inputs.len(), acc));
            inputs.push(v);
        }
        let kernel = MapKernel {
            inputs: inputs.iter().map(|t| t.dtype).collect(),
            scalars: vec![],
            outputs: vec![(acc, value)],
        };
        inputs.push(&weighted.tensor);
        run_map(kernel, &inputs, &grad.sizes, &[])?;
        scatter_add_planes(
            &weighted.tensor,
            &sums.tensor,
            &corner_indices(&axes, &corner),
            i == 0,
        )?;
    }
    copy(&gx, &sums.tensor)
}

#[cfg(test)]
mod tests {
    use super::axis;

    #[test]
    fn half_pixel_and_aligned_positions() {
        let a = axis(2, 4, false, None, true);
        assert_eq!(a.lo, [0, 0, 0, 1]);
        assert_eq!(a.hi, [1, 1, 1, 1]);
        // Past the last element both neighbours are the last one.
        assert_eq!(a.w_hi, [0.0, 0.25, 0.75, 0.25]);
        let b = axis(3, 5, true, None, true);
        assert_eq!(b.lo, [0, 0, 1, 1, 2]);
        assert_eq!(b.w_hi, [0.0, 0.5, 0.0, 0.5, 0.0]);
    }
}
