//! Adaptive average pooling over 2 or 3 spatial dimensions, and its backward. Output position
//! `o` of a dimension averages input positions `[floor(o * I / O), ceil((o + 1) * I / O))`;
//! windows differ in length, so each offset `k` inside the longest window is gathered through
//! host-computed positions (clamped into the window) and weighed by whether it lies inside
//! it, divided by the window's size. The backward scatters the same weights. Adaptive max
//! pooling walks the same offsets keeping the largest value (NaN wins, as on the CPU) and its
//! flat position in the plane; its backward is max pooling's.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Expr, MapKernel};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::run_map;
use crate::ops::core::layout::batched;
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::nn::upsample::{gather_planes, scatter_add_planes};
use crate::ops::shape::copy::{copy, fill};
use crate::runtime::backend;
use smallvec::smallvec;
use std::ops::{Add, Mul};

pub const OPS: &[(&str, OpFn)] = &[
    ("_adaptive_avg_pool2d", |c| forward(c, 2)),
    ("_adaptive_avg_pool3d", |c| forward(c, 3)),
    ("_adaptive_avg_pool2d_backward", |c| backward(c, 2)),
    ("_adaptive_avg_pool3d_backward", |c| backward(c, 3)),
    ("adaptive_max_pool2d.out", |c| max_forward(c, 2)),
    ("adaptive_max_pool3d.out", |c| max_forward(c, 3)),
    ("adaptive_max_pool2d_backward.grad_input", |c| {
        max_backward(c, 2)
    }),
    ("adaptive_max_pool3d_backward.grad_input", |c| {
        max_backward(c, 3)
    }),
];

/// One dimension's windows: each output position's start and length.
struct Windows {
    start: Vec<i64>,
    len: Vec<i64>,
}

impl Windows {
    fn new(input: i64, output: i64) -> Windows {
        let start: Vec<i64> = (0..output).map(|o| o * input / output).collect();
        let len = (0..output)
            .map(|o| ((o + 1) * input + output - 1) / output - start[o as usize])
            .collect();
        Windows { start, len }
    }

    fn longest(&self) -> i64 {
        self.len.iter().copied().max().unwrap_or(0)
    }

    /// The position offset `k` reads (clamped into the window) and its weight: `1 / len`
    /// inside the window, 0 past it.
    fn offset(&self, k: i64) -> (Vec<i64>, Vec<f64>) {
        let positions = (0..self.start.len())
            .map(|o| self.start[o] + k.min(self.len[o] - 1))
            .collect();
        let weights = self
            .len
            .iter()
            .map(|&len| if k < len { 1.0 / len as f64 } else { 0.0 })
            .collect();
        (positions, weights)
    }
}

/// `values` as a device vector of `dtype`.
fn upload(device: usize, values: &[f64], dtype: DType) -> Result<Scratch> {
    let bytes: Vec<u8> = match dtype {
        DType::F64 => values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        _ => values
            .iter()
            .flat_map(|v| (*v as f32).to_le_bytes())
            .collect(),
    };
    let t = Scratch::contiguous(device, &[values.len() as i64], dtype)?;
    if !bytes.is_empty() {
        backend()?.write(t.tensor.address, &bytes)?;
    }
    Ok(t)
}

/// Every combination of offsets inside the longest windows, one per dimension.
fn offsets(windows: &[Windows]) -> Vec<Vec<i64>> {
    let mut all = vec![vec![]];
    for w in windows {
        all = all
            .into_iter()
            .flat_map(|prefix| {
                (0..w.longest()).map(move |k| {
                    let mut next = prefix.clone();
                    next.push(k);
                    next
                })
            })
            .collect();
    }
    all
}

/// One combination of offsets: the positions it reads per dimension, and its weights per
/// dimension on the device (`_weights`, kept alive) viewed over the output.
struct Combination {
    positions: Vec<Vec<i64>>,
    _weights: Vec<Scratch>,
    views: Vec<TensorRef>,
}

/// The positions and weights of the offset combination `ks` over outputs of `shape`.
fn combination(
    windows: &[Windows],
    ks: &[i64],
    shape: &[i64],
    acc: DType,
    device: usize,
) -> Result<Combination> {
    let mut positions = Vec::new();
    let mut weights = Vec::new();
    for (w, &k) in windows.iter().zip(ks) {
        let (p, v) = w.offset(k);
        positions.push(p);
        weights.push(upload(device, &v, acc)?);
    }
    let views = weights
        .iter()
        .enumerate()
        .map(|(d, w)| {
            let mut strides = vec![0; shape.len()];
            strides[2 + d] = 1;
            TensorRef {
                sizes: shape.to_vec().into(),
                strides: strides.into(),
                ..w.tensor.clone()
            }
        })
        .collect();
    Ok(Combination {
        positions,
        _weights: weights,
        views,
    })
}

/// Checks an adaptive pooling's input and output size; returns the output's sizes.
fn output_sizes(x: &TensorRef, output_size: &[i64], dims: usize, kind: &str) -> Result<Vec<i64>> {
    let rank = x.sizes.len();
    if (rank != dims + 1 && rank != dims + 2) || output_size.len() != dims {
        return Err(Error::runtime(format!(
            "adaptive_{kind}_pool{dims}d(): Expected {}D or {}D tensor, but got {:?}",
            dims + 1,
            dims + 2,
            x.sizes
        )));
    }
    if x.sizes[rank - dims..].contains(&0) || output_size.iter().any(|&s| s < 0) {
        return Err(Error::runtime(format!(
            "adaptive_{kind}_pool{dims}d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes {:?}",
            x.sizes
        )));
    }
    if !x.dtype.is_float() && (kind == "avg" || !x.dtype.is_int()) {
        return Err(crate::ops::core::pointwise::not_implemented_for(
            &format!("adaptive_{kind}_pool{dims}d"),
            x.dtype,
        ));
    }
    let mut sizes = x.sizes[..rank - dims].to_vec();
    sizes.extend(output_size);
    Ok(sizes)
}

/// `_adaptive_avg_pool{2,3}d(self, output_size)`.
fn forward(call: &mut Call, dims: usize) -> Result<()> {
    let x = call.tensor(0)?;
    let output_size = call.ints(1)?;
    let sizes = output_sizes(&x, &output_size, dims, "avg")?;
    let out = call.result(Dest::New, &sizes, x.dtype, x.device)?;
    let (x4, out4) = (batched(&x, dims), batched(&out, dims));
    if out.numel() == 0 {
        return Ok(());
    }
    let acc = x.dtype.float_acc();
    let windows: Vec<Windows> = (0..dims)
        .map(|d| Windows::new(x4.sizes[2 + d], output_size[d]))
        .collect();
    let shape = out4.sizes.clone();
    let sums = Scratch::contiguous(x.device, &shape, acc)?;
    fill(&sums.tensor, &ScalarArg::float(0.0))?;
    let gathered = Scratch::contiguous(x.device, &shape, x.dtype)?;
    for ks in offsets(&windows) {
        // Bound whole: its weights must outlive the launches that read them.
        let combo = combination(&windows, &ks, &shape, acc, x.device)?;
        let (positions, views) = (&combo.positions, &combo.views);
        gather_planes(&x4, &gathered.tensor, positions)?;
        let mut inputs = vec![&sums.tensor, &gathered.tensor];
        let mut term = Expr::input(1, x.dtype).cast(acc);
        for v in views {
            term = term.mul(Expr::input(inputs.len(), acc));
            inputs.push(v);
        }
        let kernel = MapKernel {
            inputs: inputs.iter().map(|t| t.dtype).collect(),
            scalars: smallvec![],
            outputs: smallvec![(acc, Expr::input(0, acc).add(term))],
        };
        inputs.push(&sums.tensor);
        run_map(kernel, &inputs, &shape, &[])?;
    }
    copy(&out4, &sums.tensor)
}

/// `_adaptive_avg_pool{2,3}d_backward(grad_output, self)`.
fn backward(call: &mut Call, dims: usize) -> Result<()> {
    let (grad, x) = (call.tensor(0)?, call.tensor(1)?);
    let gx = call.result(Dest::New, &x.sizes, x.dtype, x.device)?;
    let (g4, gx4) = (batched(&grad, dims), batched(&gx, dims));
    if gx.numel() == 0 {
        return Ok(());
    }
    let acc = x.dtype.float_acc();
    let windows: Vec<Windows> = (0..dims)
        .map(|d| Windows::new(gx4.sizes[2 + d], g4.sizes[2 + d]))
        .collect();
    let shape = g4.sizes.clone();
    let sums = Scratch::contiguous(x.device, &gx4.sizes, acc)?;
    let weighted = Scratch::contiguous(x.device, &shape, acc)?;
    for (i, ks) in offsets(&windows).into_iter().enumerate() {
        // Bound whole: its weights must outlive the launches that read them.
        let combo = combination(&windows, &ks, &shape, acc, x.device)?;
        let (positions, views) = (&combo.positions, &combo.views);
        let mut inputs = vec![&g4];
        let mut value = Expr::input(0, grad.dtype).cast(acc);
        for v in views {
            value = value.mul(Expr::input(inputs.len(), acc));
            inputs.push(v);
        }
        let kernel = MapKernel {
            inputs: inputs.iter().map(|t| t.dtype).collect(),
            scalars: smallvec![],
            outputs: smallvec![(acc, value)],
        };
        inputs.push(&weighted.tensor);
        run_map(kernel, &inputs, &shape, &[])?;
        scatter_add_planes(&weighted.tensor, &sums.tensor, positions, i == 0)?;
    }
    copy(&gx4, &sums.tensor)
}

/// `adaptive_max_pool{2,3}d(self, output_size) -> (out, indices)`.
fn max_forward(call: &mut Call, dims: usize) -> Result<()> {
    let x = call.tensor(0)?;
    let output_size = call.ints(1)?;
    let sizes = output_sizes(&x, &output_size, dims, "max")?;
    let out = call.result(Dest::Arg(2), &sizes, x.dtype, x.device)?;
    let indices = call.result(Dest::Arg(3), &sizes, DType::I64, x.device)?;
    if out.numel() == 0 {
        return Ok(());
    }
    let (x4, out4, idx4) = (
        batched(&x, dims),
        batched(&out, dims),
        batched(&indices, dims),
    );
    let windows: Vec<Windows> = (0..dims)
        .map(|d| Windows::new(x4.sizes[2 + d], output_size[d]))
        .collect();
    let shape = out4.sizes.clone();
    // Flat plane stride of each spatial dimension, as the returned indices count.
    let plane: Vec<i64> = (0..dims)
        .map(|d| x4.sizes[3 + d..].iter().product())
        .collect();
    let best = Scratch::contiguous(x.device, &shape, x.dtype)?;
    let best_at = Scratch::contiguous(x.device, &shape, DType::I64)?;
    let gathered = Scratch::contiguous(x.device, &shape, x.dtype)?;
    let acc = x.dtype.float_acc();
    for (n, ks) in offsets(&windows).into_iter().enumerate() {
        let combo = combination(&windows, &ks, &shape, acc, x.device)?;
        let target = if n == 0 {
            &best.tensor
        } else {
            &gathered.tensor
        };
        gather_planes(&x4, target, &combo.positions)?;
        // This offset's flat position in the plane.
        let flat: Vec<i64> = {
            let mut all = vec![0i64];
            for (p, &stride) in combo.positions.iter().zip(&plane) {
                all = all
                    .iter()
                    .flat_map(|base| p.iter().map(move |q| base + q * stride))
                    .collect();
            }
            all
        };
        let flat_t = Scratch::contiguous(x.device, &output_size, DType::I64)?;
        let bytes: Vec<u8> = flat.iter().flat_map(|v| v.to_le_bytes()).collect();
        backend()?.write(flat_t.tensor.address, &bytes)?;
        let mut strides = vec![0, 0];
        strides.extend(crate::ops::core::tensor::TensorRef::contiguous_strides(
            &output_size,
        ));
        let flat_view = TensorRef {
            sizes: shape.clone(),
            strides: strides.into(),
            ..flat_t.tensor.clone()
        };
        if n == 0 {
            copy(&best_at.tensor, &flat_view)?;
            continue;
        }
        // Inside every dimension's window, and larger (or NaN): the new best.
        let value = Expr::input(2, x.dtype);
        let mut wins = value.clone().gt(Expr::input(0, x.dtype));
        if x.dtype.is_float() {
            wins = wins.or(value.clone().is_nan());
        }
        let mut inputs = vec![&best.tensor, &best_at.tensor, &gathered.tensor, &flat_view];
        for v in &combo.views {
            wins = wins.and(Expr::input(inputs.len(), acc).gt(Expr::constant(acc, 0.0)));
            inputs.push(v);
        }
        let kernel = MapKernel {
            inputs: inputs.iter().map(|t| t.dtype).collect(),
            scalars: smallvec![],
            outputs: smallvec![
                (x.dtype, wins.clone().select(value, Expr::input(0, x.dtype))),
                (
                    DType::I64,
                    wins.select(Expr::input(3, DType::I64), Expr::input(1, DType::I64)),
                ),
            ],
        };
        inputs.push(&best.tensor);
        inputs.push(&best_at.tensor);
        run_map(kernel, &inputs, &shape, &[])?;
    }
    copy(&out4, &best.tensor)?;
    copy(&idx4, &best_at.tensor)
}

/// `adaptive_max_pool{2,3}d_backward(grad_output, self, indices)`.
fn max_backward(call: &mut Call, dims: usize) -> Result<()> {
    let (grad, x, indices) = (call.tensor(0)?, call.tensor(1)?, call.tensor(2)?);
    let gx = call.result(Dest::Arg(3), &x.sizes, x.dtype, x.device)?;
    crate::ops::nn::pool::scatter_to_indices(
        &grad,
        &indices,
        &gx,
        dims,
        crate::kernels::Accumulate::Sum,
        "adaptive max pooling backward",
    )
}

#[cfg(test)]
mod tests {
    use super::Windows;

    #[test]
    fn windows_cover_the_input() {
        let w = Windows::new(5, 3);
        assert_eq!(w.start, [0, 1, 3]);
        assert_eq!(w.len, [2, 3, 2]);
        assert_eq!(w.offset(2).0, [1, 3, 4]);
    }
}
