//! Average pooling over two or three spatial dimensions, and its backward: a depthwise
//! convolution with unit weights (zero padding included) divided by each window's divisor;
//! its backward the transposed one.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Expr, MapKernel};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::run_map;
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::nn::conv::{gather, scatter};
use crate::ops::nn::pool::{as5, pooled_sizes, Window};
use crate::ops::shape::copy::{copy, fill};
use crate::runtime::backend;
use smallvec::smallvec;
use std::ops::Div;

pub const OPS: &[(&str, OpFn)] = &[
    ("avg_pool2d.out", |c| avg_pool(c, 2, Dest::Arg(7))),
    ("avg_pool3d.out", |c| avg_pool(c, 3, Dest::Arg(7))),
    ("avg_pool2d_backward.grad_input", |c| {
        avg_pool_backward(c, 2, Dest::Arg(8))
    }),
    ("avg_pool3d_backward.grad_input", |c| {
        avg_pool_backward(c, 3, Dest::Arg(8))
    }),
];

/// The divisor of each output position's window: `divisor_override`, else the window's
/// element count inside the padded image (`count_include_pad`) or inside the image.
fn divisors(
    window: &Window,
    input: [i64; 3],
    output: [i64; 3],
    include_pad: bool,
    divisor: Option<i64>,
    acc: DType,
    device: usize,
) -> Result<Scratch> {
    let mut values = Vec::new();
    for o0 in 0..output[0] {
        for o1 in 0..output[1] {
            for o2 in 0..output[2] {
                let o = [o0, o1, o2];
                let mut count = 1;
                for d in 0..3 {
                    let start = o[d] * window.stride[d] - window.pad[d];
                    let end = (start + window.kernel[d]).min(input[d] + window.pad[d]);
                    let padded = end - start;
                    let inside = end.min(input[d]) - start.max(0);
                    count *= if include_pad { padded } else { inside };
                }
                let value = divisor.unwrap_or(count) as f64;
                match acc {
                    DType::F64 => values.extend_from_slice(&value.to_le_bytes()),
                    _ => values.extend_from_slice(&(value as f32).to_le_bytes()),
                }
            }
        }
    }
    let out = Scratch::contiguous(device, &output, acc)?;
    backend()?.write(out.tensor.address, &values)?;
    Ok(out)
}

/// Reads `count_include_pad, divisor_override` from argument `at`.
fn averaging(call: &Call, at: usize) -> Result<(bool, Option<i64>)> {
    let divisor = call.optional_int(at + 1)?;
    if divisor == Some(0) {
        return Err(Error::runtime("divisor must be not zero"));
    }
    Ok((call.boolean(at)?, divisor))
}

/// Unit weights `[C, 1, *kernel]` for a depthwise convolution.
fn unit_weights(window: &Window, channels: i64, acc: DType, device: usize) -> Result<Scratch> {
    let mut shape = vec![channels, 1];
    shape.extend(window.kernel);
    let w = Scratch::contiguous(device, &shape, acc)?;
    fill(&w.tensor, &ScalarArg::float(1.0))?;
    Ok(w)
}

/// `avg_pool{2,3}d(self, kernel_size, stride, padding, ceil_mode, count_include_pad,
/// divisor_override)`.
fn avg_pool(call: &mut Call, dims: usize, dest: Dest) -> Result<()> {
    let x = call.tensor(0)?;
    let window = Window::read(call, 1, dims, false)?;
    let (include_pad, divisor) = averaging(call, 5)?;
    let name = format!("avg_pool{dims}d");
    let sizes = pooled_sizes(&x, dims, &window, &name)?;
    if !x.dtype.is_float() {
        return Err(crate::ops::core::pointwise::not_implemented_for(
            &name, x.dtype,
        ));
    }
    let out = call.result(dest, &sizes, x.dtype, x.device)?;
    if out.numel() == 0 {
        return Ok(());
    }
    let (x5, out5) = (as5(&x, dims), as5(&out, dims));
    let acc = x.dtype.float_acc();
    let channels = x5.sizes[1];
    let input: [i64; 3] = x5.sizes[2..].try_into().expect("three spatial sizes");
    let output: [i64; 3] = out5.sizes[2..].try_into().expect("three spatial sizes");
    // Window sums in the accumulator type, then divided and rounded once.
    let (xa, _xa) = converted(&x5, acc)?;
    let weights = unit_weights(&window, channels, acc, x.device)?;
    let sums = Scratch::contiguous(x.device, &out5.sizes, acc)?;
    gather(
        &window.geometry(channels),
        &weights.tensor,
        &xa,
        &sums.tensor,
        None,
    )?;
    let div = divisors(&window, input, output, include_pad, divisor, acc, x.device)?;
    let div_view = TensorRef {
        sizes: out5.sizes.clone(),
        strides: smallvec![0, 0, output[1] * output[2], output[2], 1],
        ..div.tensor.clone()
    };
    let kernel = MapKernel {
        inputs: smallvec![acc, acc],
        scalars: smallvec![],
        outputs: smallvec![(
            x.dtype,
            Expr::input(0, acc).div(Expr::input(1, acc)).cast(x.dtype),
        )],
    };
    run_map(kernel, &[&sums.tensor, &div_view, &out5], &out5.sizes, &[])
}

/// `t` in dtype `dtype` (a converted contiguous copy when it differs), and the copy.
fn converted(t: &TensorRef, dtype: DType) -> Result<(TensorRef, Option<Scratch>)> {
    if t.dtype == dtype {
        return Ok((t.clone(), None));
    }
    let c = Scratch::contiguous(t.device, &t.sizes, dtype)?;
    copy(&c.tensor, t)?;
    Ok((c.tensor.clone(), Some(c)))
}

/// `avg_pool{2,3}d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode,
/// count_include_pad, divisor_override)`: each input position sums `grad / divisor` over
/// the windows that hold it.
fn avg_pool_backward(call: &mut Call, dims: usize, dest: Dest) -> Result<()> {
    let (grad, x) = (call.tensor(0)?, call.tensor(1)?);
    let window = Window::read(call, 2, dims, false)?;
    let (include_pad, divisor) = averaging(call, 6)?;
    let gx = call.result(dest, &x.sizes, x.dtype, x.device)?;
    if gx.numel() == 0 {
        return Ok(());
    }
    let (g5, gx5) = (as5(&grad, dims), as5(&gx, dims));
    let acc = x.dtype.float_acc();
    let channels = gx5.sizes[1];
    let input: [i64; 3] = gx5.sizes[2..].try_into().expect("three spatial sizes");
    let output: [i64; 3] = g5.sizes[2..].try_into().expect("three spatial sizes");
    let div = divisors(&window, input, output, include_pad, divisor, acc, x.device)?;
    let div_view = TensorRef {
        sizes: g5.sizes.clone(),
        strides: smallvec![0, 0, output[1] * output[2], output[2], 1],
        ..div.tensor.clone()
    };
    let scaled = Scratch::contiguous(x.device, &g5.sizes, acc)?;
    let kernel = MapKernel {
        inputs: smallvec![grad.dtype, acc],
        scalars: smallvec![],
        outputs: smallvec![(
            acc,
            Expr::input(0, grad.dtype)
                .cast(acc)
                .div(Expr::input(1, acc)),
        )],
    };
    run_map(kernel, &[&g5, &div_view, &scaled.tensor], &g5.sizes, &[])?;
    let weights = unit_weights(&window, channels, acc, x.device)?;
    let sums = Scratch::contiguous(x.device, &gx5.sizes, acc)?;
    scatter(
        &window.geometry(channels),
        &weights.tensor,
        &scaled.tensor,
        &sums.tensor,
        None,
    )?;
    copy(&gx5, &sums.tensor)
}
