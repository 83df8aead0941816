//! Linear, bilinear, trilinear and bicubic interpolation (with and without `align_corners`)
//! and their backward, and the separable passes every resampling here runs on. Along each
//! dimension an output position reads two neighbours (four for bicubic; the antialiased
//! filters of `antialias.rs` more) with weights that PyTorch computes in the accumulator
//! type; they are computed on the host the same way. The dimensions are resampled one after
//! the other (the last first), each pass a sum over the taps of weighted gathers, in float32
//! (float64 for float64) with one rounding at the end. The backward runs the transposed
//! passes as gathers too: each input position sums the weighted gradients of the output
//! positions that read it, so nothing is scattered (deterministic).

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Expr, MapKernel};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::run_map;
use crate::ops::core::registry::OpFn;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::nn::upsample::gather_planes;
use crate::ops::shape::copy::copy;
use crate::runtime::backend;
use smallvec::smallvec;
use std::ops::{Add, Mul};

pub const OPS: &[(&str, OpFn)] = &[
    ("upsample_linear1d.out", |c| forward(c, 1, Mode::Linear)),
    ("upsample_bilinear2d.out", |c| forward(c, 2, Mode::Linear)),
    ("upsample_trilinear3d.out", |c| forward(c, 3, Mode::Linear)),
    ("upsample_bicubic2d.out", |c| forward(c, 2, Mode::Cubic)),
    ("upsample_linear1d_backward.grad_input", |c| {
        backward(c, 1, Mode::Linear)
    }),
    ("upsample_bilinear2d_backward.grad_input", |c| {
        backward(c, 2, Mode::Linear)
    }),
    ("upsample_trilinear3d_backward.grad_input", |c| {
        backward(c, 3, Mode::Linear)
    }),
    ("upsample_bicubic2d_backward.grad_input", |c| {
        backward(c, 2, Mode::Cubic)
    }),
];

#[derive(Clone, Copy)]
enum Mode {
    Linear,
    Cubic,
}

/// One dimension's neighbours (`index[tap]`) and weights (`weight[tap]`) for every output
/// position.
pub(crate) struct Axis {
    pub(crate) index: Vec<Vec<i64>>,
    pub(crate) weight: Vec<Vec<f64>>,
}

/// PyTorch's scale from output to input positions (`area_pixel_compute_scale`), rounded by
/// `round` to the accumulator type.
pub(crate) fn source_scale(
    input: i64,
    output: i64,
    align_corners: bool,
    scale: Option<f64>,
    round: impl Fn(f64) -> f64,
) -> f64 {
    if align_corners {
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
    }
}

/// PyTorch's bicubic neighbours and weights (`get_cubic_upsample_coefficients`, A = -0.75):
/// four taps around the source position, clamped to the input, each arithmetic step rounded
/// to the accumulator type as PyTorch computes it.
fn cubic_axis(
    input: i64,
    output: i64,
    align_corners: bool,
    scale: Option<f64>,
    f64_math: bool,
) -> Axis {
    let r = |v: f64| if f64_math { v } else { v as f32 as f64 };
    let ratio = source_scale(input, output, align_corners, scale, r);
    let a = -0.75;
    let near = |x: f64| r(r(r(r(r((a + 2.0) * x) - (a + 3.0)) * x) * x) + 1.0);
    let far = |x: f64| r(r(r(r(r(r(a * x) - 5.0 * a) * x) + 8.0 * a) * x) - 4.0 * a);
    let mut axis = Axis {
        index: vec![Vec::new(); 4],
        weight: vec![Vec::new(); 4],
    };
    for o in 0..output {
        let source = if align_corners {
            r(ratio * o as f64)
        } else {
            r(r(ratio * r(o as f64 + 0.5)) - 0.5)
        };
        let base = (source.floor() as i64).min(input - 1);
        let t = r(source - base as f64).clamp(0.0, 1.0);
        let weights = [
            far(r(t + 1.0)),
            near(t),
            near(r(1.0 - t)),
            far(r(r(1.0 - t) + 1.0)),
        ];
        for (k, w) in weights.into_iter().enumerate() {
            axis.index[k].push((base + k as i64 - 1).clamp(0, input - 1));
            axis.weight[k].push(w);
        }
    }
    axis
}

/// PyTorch's source positions (`area_pixel_compute_source_index`, linear mode) in float32
/// (float64 for float64 tensors): the neighbours below and above, and their weights.
fn axis(input: i64, output: i64, align_corners: bool, scale: Option<f64>, f64_math: bool) -> Axis {
    let round = |v: f64| if f64_math { v } else { v as f32 as f64 };
    let ratio = source_scale(input, output, align_corners, scale, round);
    let mut a = Axis {
        index: vec![Vec::new(); 2],
        weight: vec![Vec::new(); 2],
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
        a.index[0].push(lo);
        a.index[1].push(hi);
        a.weight[0].push(round(1.0 - w_hi));
        a.weight[1].push(w_hi);
    }
    a
}

/// Each dimension's axis.
fn axes(
    mode: Mode,
    input: &[i64],
    output: &[i64],
    align_corners: bool,
    scales: &[Option<f64>],
    acc: DType,
) -> Vec<Axis> {
    let make = match mode {
        Mode::Linear => axis,
        Mode::Cubic => cubic_axis,
    };
    (0..input.len())
        .map(|d| {
            make(
                input[d],
                output[d],
                align_corners,
                scales[d],
                acc == DType::F64,
            )
        })
        .collect()
}

/// A weight vector on the device, in `acc` (float32 or float64).
pub(crate) fn upload_weights(device: usize, w: &[f64], acc: DType) -> Result<Scratch> {
    let bytes: Vec<u8> = match acc {
        DType::F64 => w.iter().flat_map(|v| v.to_le_bytes()).collect(),
        _ => w.iter().flat_map(|v| (*v as f32).to_le_bytes()).collect(),
    };
    let t = Scratch::contiguous(device, &[w.len() as i64], acc)?;
    if !bytes.is_empty() {
        backend()?.write(t.tensor.address, &bytes)?;
    }
    Ok(t)
}

/// The transposed taps of `axis` (`input` positions): for each input position, the output
/// positions that read it and their weights, in tap order, padded with zero weights.
pub(crate) fn transposed(axis: &Axis, input: i64) -> Axis {
    let mut readers: Vec<Vec<(i64, f64)>> = vec![Vec::new(); input as usize];
    for (index, weight) in axis.index.iter().zip(&axis.weight) {
        for (o, (&j, &w)) in index.iter().zip(weight).enumerate() {
            if w != 0.0 {
                readers[j as usize].push((o as i64, w));
            }
        }
    }
    let taps = readers.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let mut t = Axis {
        index: vec![Vec::new(); taps],
        weight: vec![Vec::new(); taps],
    };
    for list in &readers {
        for k in 0..taps {
            let (o, w) = list.get(k).copied().unwrap_or((0, 0.0));
            t.index[k].push(o);
            t.weight[k].push(w);
        }
    }
    t
}

/// One pass along spatial dimension `dim` of `[N, C, *spatial]` tensors: `out` (in `acc`,
/// `src`'s shape with `dim` resized) is the sum over the taps of each tap's weight times
/// `src` gathered at the tap's positions.
pub(crate) fn pass(
    src: &TensorRef,
    dim: usize,
    axis: &Axis,
    out: &TensorRef,
    acc: DType,
) -> Result<()> {
    let shape = out.sizes.clone();
    let gathered = Scratch::contiguous(src.device, &shape, src.dtype)?;
    for (k, weights) in axis.weight.iter().enumerate() {
        let indices: Vec<Vec<i64>> = (0..src.sizes.len() - 2)
            .map(|d| {
                if d == dim {
                    axis.index[k].clone()
                } else {
                    (0..src.sizes[2 + d]).collect()
                }
            })
            .collect();
        gather_planes(src, &gathered.tensor, &indices)?;
        let w = upload_weights(src.device, weights, acc)?;
        let mut strides = vec![0; shape.len()];
        strides[2 + dim] = 1;
        let w_view = TensorRef {
            sizes: shape.clone(),
            strides: strides.into(),
            ..w.tensor.clone()
        };
        let term = Expr::input(0, src.dtype).cast(acc).mul(Expr::input(1, acc));
        let (value, mut tensors): (Expr, Vec<&TensorRef>) = if k == 0 {
            (term, vec![&gathered.tensor, &w_view])
        } else {
            (
                term.add(Expr::input(2, acc)),
                vec![&gathered.tensor, &w_view, out],
            )
        };
        let kernel = MapKernel {
            inputs: tensors.iter().map(|t| t.dtype).collect(),
            scalars: smallvec![],
            outputs: smallvec![(acc, value)],
        };
        tensors.push(out);
        run_map(kernel, &tensors, &shape, &[])?;
    }
    Ok(())
}

/// Resamples `x` to `out` through one pass per dimension (the last first), `axes[d]` mapping
/// `from[d]` positions to `to[d]`; `order` lists the dimensions in pass order.
pub(crate) fn resample(
    x: &TensorRef,
    out: &TensorRef,
    axes: &[Axis],
    order: &[usize],
) -> Result<()> {
    let acc = x.dtype.float_acc();
    let mut current: Option<Scratch> = None;
    let mut sizes = x.sizes.clone();
    for &d in order {
        sizes[2 + d] = axes[d].index[0].len() as i64;
        let next = Scratch::contiguous(x.device, &sizes, acc)?;
        let src = current.as_ref().map_or(x, |c| &c.tensor);
        pass(src, d, &axes[d], &next.tensor, acc)?;
        current = Some(next);
    }
    match current {
        Some(result) => copy(out, &result.tensor),
        None => copy(out, x),
    }
}

/// Reads `align_corners` and the scales after it.
pub(crate) fn options(call: &Call, at: usize, dims: usize) -> Result<(bool, Vec<Option<f64>>)> {
    let scales = (0..dims)
        .map(|d| call.optional_double(at + 1 + d))
        .collect::<Result<_>>()?;
    Ok((call.boolean(at)?, scales))
}

/// `upsample_{linear1d,bilinear2d,trilinear3d,bicubic2d}(self, output_size, align_corners,
/// scales...)`.
fn forward(call: &mut Call, dims: usize, mode: Mode) -> Result<()> {
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
        let name = match mode {
            Mode::Linear => "upsample_linear",
            Mode::Cubic => "upsample_bicubic2d",
        };
        return Err(crate::ops::core::pointwise::not_implemented_for(
            name, x.dtype,
        ));
    }
    let mut sizes = x.sizes[..2].to_vec();
    sizes.extend(&output_size);
    let out = call.result(Dest::Arg(3 + dims), &sizes, x.dtype, x.device)?;
    if out.numel() == 0 {
        return Ok(());
    }
    let acc = x.dtype.float_acc();
    let axes = axes(
        mode,
        &x.sizes[2..],
        &output_size,
        align_corners,
        &scales,
        acc,
    );
    let order: Vec<usize> = (0..dims).rev().collect();
    resample(&x, &out, &axes, &order)
}

/// `upsample_{linear1d,bilinear2d,trilinear3d,bicubic2d}_backward(grad_output, output_size,
/// input_size, align_corners, scales...)`.
fn backward(call: &mut Call, dims: usize, mode: Mode) -> Result<()> {
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
    let axes: Vec<Axis> = axes(
        mode,
        &input_size[2..],
        &output_size,
        align_corners,
        &scales,
        acc,
    )
    .iter()
    .enumerate()
    .map(|(d, a)| transposed(a, input_size[2 + d]))
    .collect();
    let order: Vec<usize> = (0..dims).collect();
    resample(&grad, &gx, &axes, &order)
}

#[cfg(test)]
mod tests {
    use super::axis;

    #[test]
    fn half_pixel_and_aligned_positions() {
        let a = axis(2, 4, false, None, true);
        assert_eq!(a.index[0], [0, 0, 0, 1]);
        assert_eq!(a.index[1], [1, 1, 1, 1]);
        // Past the last element both neighbours are the last one.
        assert_eq!(a.weight[1], [0.0, 0.25, 0.75, 0.25]);
        let b = axis(3, 5, true, None, true);
        assert_eq!(b.index[0], [0, 0, 1, 1, 2]);
        assert_eq!(b.weight[1], [0.0, 0.5, 0.0, 0.5, 0.0]);
    }
}
