//! Pooling over two or three spatial dimensions, and its backward. Max pooling reduces each
//! window of a strided view (of a copy padded with the lowest value where windows reach
//! outside the image) with an arg-max, whose window offsets become the flat plane indices
//! PyTorch returns; its backward sums the gradient at those indices (the sorted, deterministic
//! accumulate). The window geometry is shared with average pooling (`avg_pool.rs`).

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Accumulate, BinaryOp, Expr, MapKernel, ReduceKernel, ReduceOp};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::{run_map, run_reduce};
use crate::ops::core::layout::planes;
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::index::accumulate::run_accumulate;
use crate::ops::index::index_launch::{Fault, IndexArg};
use crate::ops::nn::conv::{three, Geometry};
use crate::ops::shape::copy::{copy, fill};
use crate::runtime::backend;
use smallvec::smallvec;
use std::ops::{Add, Div, Mul};

pub const OPS: &[(&str, OpFn)] = &[
    ("max_pool2d_with_indices.out", |c| {
        max_pool(c, 2, [Dest::Arg(6), Dest::Arg(7)])
    }),
    ("max_pool3d_with_indices", |c| {
        max_pool(c, 3, [Dest::New, Dest::New])
    }),
    ("max_pool3d_with_indices.out", |c| {
        max_pool(c, 3, [Dest::Arg(6), Dest::Arg(7)])
    }),
    ("max_pool2d_with_indices_backward.grad_input", |c| {
        max_pool_backward(c, 2, Dest::Arg(8))
    }),
    ("max_pool3d_with_indices_backward", |c| {
        max_pool_backward(c, 3, Dest::New)
    }),
    ("max_pool3d_with_indices_backward.grad_input", |c| {
        max_pool_backward(c, 3, Dest::Arg(8))
    }),
    ("fractional_max_pool2d_backward", |c| {
        fractional_max_pool_backward(c, 2, Dest::New)
    }),
    ("fractional_max_pool2d_backward.grad_input", |c| {
        fractional_max_pool_backward(c, 2, Dest::Arg(5))
    }),
    ("fractional_max_pool3d_backward", |c| {
        fractional_max_pool_backward(c, 3, Dest::New)
    }),
    ("fractional_max_pool3d_backward.grad_input", |c| {
        fractional_max_pool_backward(c, 3, Dest::Arg(5))
    }),
];

/// A pooling window over three spatial dimensions (leading missing ones: size 1).
pub(crate) struct Window {
    pub(crate) kernel: [i64; 3],
    pub(crate) stride: [i64; 3],
    pub(crate) pad: [i64; 3],
    pub(crate) dilation: [i64; 3],
    pub(crate) ceil: bool,
}

/// `values` (one value meaning all `dims`) as `dims` values.
fn spread(name: &str, values: &[i64], dims: usize) -> Result<Vec<i64>> {
    match values.len() {
        1 => Ok(vec![values[0]; dims]),
        n if n == dims => Ok(values.to_vec()),
        _ => Err(Error::runtime(format!(
            "{name} must either be a single int, or a tuple of {dims} ints"
        ))),
    }
}

impl Window {
    /// Reads `kernel_size, stride, padding[, dilation], ceil_mode` from argument `at` on.
    pub(crate) fn read(call: &Call, at: usize, dims: usize, dilated: bool) -> Result<Window> {
        let kernel = spread("kernel_size", &call.ints(at)?, dims)?;
        let stride = call.ints(at + 1)?;
        let stride = if stride.is_empty() {
            kernel.clone()
        } else {
            spread("stride", &stride, dims)?
        };
        let pad = spread("padding", &call.ints(at + 2)?, dims)?;
        let (dilation, ceil) = if dilated {
            (
                spread("dilation", &call.ints(at + 3)?, dims)?,
                call.boolean(at + 4)?,
            )
        } else {
            (vec![1; dims], call.boolean(at + 3)?)
        };
        for d in 0..dims {
            if kernel[d] <= 0 || stride[d] <= 0 || dilation[d] <= 0 {
                return Err(Error::runtime(
                    "pooling: kernel_size, stride and dilation must be greater than zero",
                ));
            }
            if pad[d] < 0 || pad[d] > (dilation[d] * (kernel[d] - 1) + 1) / 2 {
                return Err(Error::runtime(
                    "pad should be at most half of effective kernel size",
                ));
            }
        }
        Ok(Window {
            kernel: three(&kernel, 1),
            stride: three(&stride, 1),
            pad: three(&pad, 0),
            dilation: three(&dilation, 1),
            ceil,
        })
    }

    /// The pooled size of an input dimension `d` of size `size`, as PyTorch computes it.
    pub(crate) fn output_size(&self, d: usize, size: i64) -> i64 {
        let (k, s, p, dil) = (
            self.kernel[d],
            self.stride[d],
            self.pad[d],
            self.dilation[d],
        );
        let num = size + 2 * p - dil * (k - 1) - 1 + if self.ceil { s - 1 } else { 0 };
        let mut out = num.div_euclid(s) + 1;
        if self.ceil && (out - 1) * s >= size + p {
            out -= 1;
        }
        out
    }

    pub(crate) fn geometry(&self, channels: i64) -> Geometry {
        Geometry {
            stride: self.stride,
            pad: self.pad,
            dilation: self.dilation,
            groups: channels,
        }
    }
}

/// `t` (`[N, C, *spatial]` or unbatched `[C, *spatial]`, `dims` spatial dimensions) as
/// `[N, C, d0, d1, d2]`.
pub(crate) fn as5(t: &TensorRef, dims: usize) -> TensorRef {
    let mut sizes = t.sizes.clone();
    let mut strides = t.strides.clone();
    if sizes.len() == dims + 1 {
        sizes.insert(0, 1);
        strides.insert(0, 0);
    }
    for _ in dims..3 {
        sizes.insert(2, 1);
        strides.insert(2, 0);
    }
    TensorRef {
        sizes,
        strides,
        ..t.clone()
    }
}

/// Checks the input's rank and returns the pooled output sizes (in the input's layout).
pub(crate) fn pooled_sizes(
    x: &TensorRef,
    dims: usize,
    window: &Window,
    name: &str,
) -> Result<Vec<i64>> {
    let rank = x.sizes.len();
    if rank != dims + 1 && rank != dims + 2 {
        return Err(Error::runtime(format!(
            "{name}: Expected {}D or {}D input tensor, but got {:?}",
            dims + 1,
            dims + 2,
            x.sizes
        )));
    }
    for d in rank - dims - 1..rank {
        if x.sizes[d] == 0 {
            return Err(Error::runtime(format!(
                "{name}: Expected input's non-batch dimensions to have positive length, but input has a shape of {:?} and non-batch dimension {d} has length zero!",
                x.sizes
            )));
        }
    }
    let mut sizes = x.sizes.clone();
    let x5 = as5(x, dims);
    for d in 3 - dims..3 {
        let out = window.output_size(d, x5.sizes[2 + d]);
        if out < 1 {
            return Err(Error::runtime(format!(
                "{name}: Given input size {:?}, calculated output size is too small",
                x.sizes
            )));
        }
        sizes[rank - 3 + d] = out;
    }
    Ok(sizes.to_vec())
}

/// Whether results follow the channels-last format of `x`.
pub(crate) fn channels_last(x: &TensorRef) -> bool {
    (x.sizes.len() == 4 || x.sizes.len() == 5) && x.strides[1] == 1 && !x.is_contiguous()
}

/// `max_pool{2,3}d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)
/// -> (out, indices)`.
fn max_pool(call: &mut Call, dims: usize, dests: [Dest; 2]) -> Result<()> {
    let x = call.tensor(0)?;
    let window = Window::read(call, 1, dims, true)?;
    let name = format!("max_pool{dims}d");
    let sizes = pooled_sizes(&x, dims, &window, &name)?;
    if !x.dtype.is_float() && !x.dtype.is_int() {
        return Err(crate::ops::core::pointwise::not_implemented_for(
            &name, x.dtype,
        ));
    }
    let (out, indices) = match dests {
        [Dest::New, Dest::New] => {
            let format = channels_last(&x);
            (
                call.create_in(&sizes, x.dtype, x.device, format)?,
                call.create_in(&sizes, DType::I64, x.device, format)?,
            )
        }
        [a, b] => (
            call.result(a, &sizes, x.dtype, x.device)?,
            call.result(b, &sizes, DType::I64, x.device)?,
        ),
    };
    if out.numel() == 0 {
        return Ok(());
    }
    let (x5, out5, idx5) = (as5(&x, dims), as5(&out, dims), as5(&indices, dims));
    let input: [i64; 3] = x5.sizes[2..].try_into().expect("three spatial sizes");
    let output: [i64; 3] = out5.sizes[2..].try_into().expect("three spatial sizes");
    // Windows read a copy padded with the lowest value where they reach outside the image
    // (of a wider type for integers, so that padding never ties with an element).
    let extent: [i64; 3] = std::array::from_fn(|d| {
        (input[d] + window.pad[d]).max(
            (output[d] - 1) * window.stride[d] + (window.kernel[d] - 1) * window.dilation[d] + 1,
        )
    });
    let padded;
    let source = if (0..3).any(|d| window.pad[d] > 0 || extent[d] > input[d]) {
        let shape = [x5.sizes[0], x5.sizes[1], extent[0], extent[1], extent[2]];
        let wide = match x.dtype {
            DType::U8 | DType::I8 => DType::I16,
            DType::I16 => DType::I32,
            DType::I32 => DType::I64,
            other => other,
        };
        padded = Scratch::contiguous(x.device, &shape, wide)?;
        let lowest = if x.dtype.is_float() {
            ScalarArg::float(f64::NEG_INFINITY)
        } else {
            ScalarArg::int(lowest_int(wide))
        };
        fill(&padded.tensor, &lowest)?;
        let strides = padded.tensor.strides.clone();
        let offset: i64 = (0..3).map(|d| window.pad[d] * strides[2 + d]).sum();
        let interior = TensorRef {
            address: padded.tensor.address + (offset * wide.size() as i64) as u64,
            sizes: x5.sizes.clone(),
            ..padded.tensor.clone()
        };
        copy(&interior, &x5)?;
        padded.tensor.clone()
    } else {
        x5.clone()
    };
    let s = &source.strides;
    let mut sizes = out5.sizes.clone();
    sizes.extend(window.kernel);
    let mut strides = vec![s[0], s[1]];
    strides.extend((0..3).map(|d| s[2 + d] * window.stride[d]));
    strides.extend((0..3).map(|d| s[2 + d] * window.dilation[d]));
    let windows = TensorRef {
        sizes,
        strides: strides.into(),
        ..source.clone()
    };
    let kernel = ReduceKernel {
        per_output: None,
        indexed: false,
        elementwise: None,
        vector: false,
        input: source.dtype,
        scalars: vec![],
        pre: Expr::input(0, source.dtype),
        op: ReduceOp::ArgMax,
        acc: source.dtype,
        outputs: vec![
            (x.dtype, Expr::input(0, source.dtype).cast(x.dtype)),
            (DType::I64, Expr::input(1, DType::I64)),
        ],
        columns: false,
    };
    let reduced = [false, false, false, false, false, true, true, true];
    run_reduce(kernel, &windows, &[&out5, &idx5], &reduced, &[])?;
    window_offsets_to_indices(&window, input, output, &idx5)
}

/// The smallest value of an integer dtype.
fn lowest_int(dtype: DType) -> i64 {
    match dtype.size() {
        2 => i16::MIN.into(),
        4 => i32::MIN.into(),
        _ => i64::MIN,
    }
}

/// Turns each window offset `k` in `indices` into the flat plane index of the element it
/// names: `base(position) + sum over d of z_d * dilation_d * plane_stride_d`, with `z` the
/// offset's coordinates in the kernel.
fn window_offsets_to_indices(
    window: &Window,
    input: [i64; 3],
    output: [i64; 3],
    idx5: &TensorRef,
) -> Result<()> {
    let plane = [input[1] * input[2], input[2], 1];
    let mut base = Vec::with_capacity(output.iter().product::<i64>() as usize);
    for o0 in 0..output[0] {
        for o1 in 0..output[1] {
            for o2 in 0..output[2] {
                let o = [o0, o1, o2];
                let start: i64 = (0..3)
                    .map(|d| (o[d] * window.stride[d] - window.pad[d]) * plane[d])
                    .sum();
                base.extend_from_slice(&start.to_le_bytes());
            }
        }
    }
    let bases = Scratch::contiguous(idx5.device, &output, DType::I64)?;
    backend()?.write(bases.tensor.address, &base)?;
    let base_view = TensorRef {
        sizes: idx5.sizes.clone(),
        strides: smallvec![0, 0, output[1] * output[2], output[2], 1],
        ..bases.tensor.clone()
    };
    // Kernel and plane sizes are scalar arguments (one kernel serves every size): `k1 * k2`,
    // `k2`, `k1`, then each dimension's `dilation * plane_stride`.
    let [_, k1, k2] = window.kernel;
    let mut values = vec![k1 * k2, k2, k1];
    values.extend((0..3).map(|d| window.dilation[d] * plane[d]));
    let s = |i: usize| Expr::scalar(i, DType::I64);
    let k = Expr::input(0, DType::I64);
    let z = [
        k.clone().div(s(0)),
        k.clone().div(s(1)).binary(BinaryOp::Rem, s(2)),
        k.binary(BinaryOp::Rem, s(1)),
    ];
    let mut index = Expr::input(1, DType::I64);
    for (d, z) in z.into_iter().enumerate() {
        index = index.add(z.mul(s(3 + d)));
    }
    let kernel = MapKernel {
        inputs: smallvec![DType::I64, DType::I64],
        scalars: smallvec![DType::I64; values.len()],
        outputs: smallvec![(DType::I64, index)],
    };
    let words: Vec<u32> = values
        .iter()
        .flat_map(|&v| ScalarArg::int(v).words(DType::I64))
        .collect();
    run_map(kernel, &[idx5, &base_view, idx5], &idx5.sizes, &words)
}

/// `max_pool{2,3}d_with_indices_backward(grad_output, self, kernel_size, stride, padding,
/// dilation, ceil_mode, indices)`: each plane's gradient sums, at every input position, the
/// output gradients whose index names it.
fn max_pool_backward(call: &mut Call, dims: usize, dest: Dest) -> Result<()> {
    let (grad, x) = (call.tensor(0)?, call.tensor(1)?);
    let indices = call.tensor(7)?;
    if grad.sizes != indices.sizes {
        return Err(Error::runtime(format!(
            "max_pool{dims}d_backward: grad_output of size {:?} does not match indices of size {:?}",
            grad.sizes, indices.sizes
        )));
    }
    let gx = match dest {
        Dest::New => call.create_in(&x.sizes, x.dtype, x.device, channels_last(&x))?,
        Dest::Arg(_) => call.result(dest, &x.sizes, x.dtype, x.device)?,
    };
    scatter_to_indices(
        &grad,
        &indices,
        &gx,
        dims,
        Accumulate::Sum,
        "max pooling backward",
    )
}

/// `fractional_max_pool{2,3}d_backward(grad_output, self, kernel_size, output_size, indices)`:
/// as max pooling's (the forward, `python/torch_mojo_backend/_fractional_pool.py`, returns
/// indices the same way); the result is contiguous, as the CPU's.
fn fractional_max_pool_backward(call: &mut Call, dims: usize, dest: Dest) -> Result<()> {
    let (grad, x) = (call.tensor(0)?, call.tensor(1)?);
    let (output_size, indices) = (call.ints(3)?, call.tensor(4)?);
    let batch_dims = x.sizes.len().saturating_sub(dims);
    let mut expected = x.sizes[..batch_dims].to_vec();
    expected.extend(output_size.iter().take(dims));
    for (t, what) in [(&grad, "gradOutput"), (&indices, "indices")] {
        if t.sizes[..] != expected[..] {
            return Err(Error::runtime(format!(
                "fractional_max_pool{dims}d_backward(): {what} sizes unexpected"
            )));
        }
    }
    let gx = match dest {
        Dest::New => call.create_in(&x.sizes, x.dtype, x.device, false)?,
        Dest::Arg(_) => call.result(dest, &x.sizes, x.dtype, x.device)?,
    };
    scatter_to_indices(
        &grad,
        &indices,
        &gx,
        dims,
        Accumulate::Sum,
        "fractional max pooling backward",
    )
}

/// Combines (`op`: sums, or the last in index order wins) each `grad` element into the
/// element of its plane of `gx` (zeroed here) that `indices` (flat positions within the
/// plane, as max pooling returns them) names; `what` names the op in the error for an index
/// out of range.
pub(crate) fn scatter_to_indices(
    grad: &TensorRef,
    indices: &TensorRef,
    gx: &TensorRef,
    dims: usize,
    op: Accumulate,
    what: &str,
) -> Result<()> {
    if gx.numel() == 0 {
        return Ok(());
    }
    let (g3, _g) = planes(&as5(grad, dims))?;
    let (i3, _i) = planes(&as5(indices, dims))?;
    let (gx3, gx_copy) = planes(&as5(gx, dims))?;
    let zero = Scratch::contiguous(gx.device, &[], gx.dtype)?;
    fill(&zero.tensor, &ScalarArg::float(0.0))?;
    let positions = gx3.sizes[2];
    run_accumulate(
        op,
        true,
        (&zero.tensor, vec![0, 0, 0]),
        &gx3,
        &gx3.sizes,
        &[g3.sizes[2]],
        (
            &g3,
            vec![g3.strides[0], g3.strides[1], 0],
            vec![g3.strides[2]],
        ),
        &[IndexArg {
            tensor: &i3,
            strides: vec![i3.strides[0], i3.strides[1], 0],
            loop_strides: vec![i3.strides[2]],
            bound: positions,
            target: 2,
        }],
        Fault::index(format!(
            "{what}: index out of range of the {positions} positions of a plane"
        )),
    )?;
    if gx_copy.is_some() {
        copy(&as5(gx, dims), &as5(&gx3, dims))?;
    }
    Ok(())
}
