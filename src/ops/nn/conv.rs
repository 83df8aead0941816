//! Convolution: `convolution_overrideable` and `convolution_backward_overrideable`, where
//! PyTorch's convolution sends PrivateUse1 tensors after checking and normalizing the
//! arguments (so errors, "same" padding and double backward are PyTorch's own). One to three
//! spatial dimensions, stride, padding, dilation, groups and transposed convolutions, each
//! product an implicit GEMM (`printer::conv`): no unfolded buffer is made. Devices with a GEMM
//! library (cuBLAS) take single-group products through it instead (`conv_gemm`).
//!
//! Every convolution relates a gathered tensor `G` to a scattered tensor `H`: position `pg` of
//! `G` reads `H` at `pg * stride - pad + offset * dilation`, with weights `[C_G, C_H / groups,
//! *kernel]`. A convolution's output is `G` (its input is `H`); a transposed convolution's
//! input is `G` (its output is `H`). The three products are then `G` from `H` (gather),
//! `H` from `G` (transposed) and the weight gradient from both.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::printer::{conv_direct_outputs, GEMM_TILE, GROUP_SIZE};
use crate::kernels::{ConvKernel, ConvPass, Expr, Kernel, MapKernel};
use crate::ops::core::call::Call;
use crate::ops::core::launch::{common_device, run_map, stride_word, submit, word};
use crate::ops::core::layout::channel_planes;
use crate::ops::core::pointwise::not_implemented_for;
use crate::ops::core::registry::OpFn;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::nn::conv_gemm;
use crate::ops::reduce::reduce_launch::sum_into;
use smallvec::smallvec;
use std::ops::Add;

/// The most of the summed dimension one group walks: longer products are split into partial
/// sums added afterwards (a bounded loop per invocation, and more groups for few outputs).
const K_CHUNK: i64 = 2048;

/// Products with at most this many rows per group (depthwise convolutions, the input
/// gradient of a few-channel image) run one invocation per `conv_direct_outputs` output
/// elements of a row: a tile of `GEMM_TILE` rows would be mostly empty.
const DIRECT_ROWS: i64 = 4;

pub const OPS: &[(&str, OpFn)] = &[
    ("convolution_overrideable", convolution),
    ("convolution_backward_overrideable", convolution_backward),
];

/// Stride, padding and dilation over three spatial dimensions (leading missing ones: 1, 0, 1).
pub(crate) struct Geometry {
    pub stride: [i64; 3],
    pub pad: [i64; 3],
    pub dilation: [i64; 3],
    pub groups: i64,
}

/// `values` right-aligned in three, `fill` before them.
pub(crate) fn three(values: &[i64], fill: i64) -> [i64; 3] {
    let mut out = [fill; 3];
    let skip = 3 - values.len().min(3);
    out[skip..].copy_from_slice(&values[values.len().saturating_sub(3)..]);
    out
}

/// The sizes and strides of the spatial dimensions of `[N, C, *spatial]`, as three.
pub(super) fn spatial(t: &TensorRef) -> ([i64; 3], [i64; 3]) {
    (three(&t.sizes[2..], 1), three(&t.strides[2..], 0))
}

/// The stride of the flattened spatial dimensions of `t`, if they flatten.
pub(super) fn flat_spatial(t: &TensorRef) -> Option<i64> {
    channel_planes(t).map(|v| v.strides[2])
}

/// `t`, or a contiguous copy of it when its spatial dimensions do not flatten.
fn flattening(t: &TensorRef) -> Result<(TensorRef, Option<Scratch>)> {
    if flat_spatial(t).is_some() {
        return Ok((t.clone(), None));
    }
    let copy = Scratch::contiguous(t.device, &t.sizes, t.dtype)?;
    crate::ops::shape::copy::copy(&copy.tensor, t)?;
    Ok((copy.tensor.clone(), Some(copy)))
}

/// A matrix view of a tensor: element `(row, col)` of group `g` at `g * group + row * row +
/// (col / split) * hi + (col % split) * lo`.
struct Dense<'a> {
    t: &'a TensorRef,
    group: i64,
    row: i64,
    split: i64,
    hi: i64,
    lo: i64,
}

impl<'a> Dense<'a> {
    /// `[N, C, *spatial]` as `[C / groups, N * positions]` per group.
    fn channels_by_positions(t: &'a TensorRef, groups: i64) -> Self {
        let positions: i64 = t.sizes[2..].iter().product();
        Dense {
            t,
            group: t.sizes[1] / groups * t.strides[1],
            row: t.strides[1],
            split: positions.max(1),
            hi: t.strides[0],
            lo: flat_spatial(t).expect("spatial dimensions flatten"),
        }
    }

    /// Weights `[C_G, C_H / groups, *kernel]` as `[C_G / groups, C_H / groups * taps]` per
    /// group, or transposed (`[C_H / groups, C_G / groups * taps]`).
    fn weights(w: &'a TensorRef, groups: i64, transposed: bool) -> Self {
        let taps: i64 = w.sizes[2..].iter().product();
        let (row, hi) = if transposed {
            (w.strides[1], w.strides[0])
        } else {
            (w.strides[0], w.strides[1])
        };
        Dense {
            t: w,
            group: w.sizes[0] / groups * w.strides[0],
            row,
            split: taps.max(1),
            hi,
            lo: flat_spatial(w).expect("kernel dimensions flatten"),
        }
    }

    /// The view `[groups, rows, cols / split, split]` of `rows` x `cols` matrices.
    fn view(&self, groups: i64, rows: i64, cols: i64) -> TensorRef {
        TensorRef {
            sizes: smallvec![groups, rows, cols / self.split, self.split],
            strides: smallvec![self.group, self.row, self.hi, self.lo],
            ..self.t.clone()
        }
    }
}

/// One implicit GEMM `out[g] (m x n) = a[g] (m x k) * b[g] (k x n)` with `b` gathered from
/// `image` ([`ConvPass`]); `positions` and `image_sizes` are the spatial sizes of the
/// position space and of the image.
struct Product<'a> {
    pass: ConvPass,
    m: i64,
    n: i64,
    k: i64,
    a: Dense<'a>,
    image: &'a TensorRef,
    out: Dense<'a>,
    positions: [i64; 3],
    kernel: [i64; 3],
    /// Added to each output channel (the products of a forward convolution).
    bias: Option<&'a TensorRef>,
}

fn run_product(p: Product, geometry: &Geometry) -> Result<()> {
    let Product { m, n, k, .. } = p;
    let groups = geometry.groups;
    if m * n * groups == 0 {
        return Ok(());
    }
    let out_tensor = p.out.view(groups, m, n);
    let out_split = p.out.split;
    if k == 0 {
        crate::ops::shape::copy::fill(
            &out_tensor,
            &crate::ops::core::scalar::ScalarArg::float(0.0),
        )?;
        if let Some(bias) = p.bias {
            add_bias(p.out.t, bias)?;
        }
        return Ok(());
    }
    let device = common_device(&[p.a.t, p.image, p.out.t])?;
    let acc = p.out.t.dtype.float_acc();
    let splits = (k + K_CHUNK - 1) / K_CHUNK;
    // Partial sums of a split product go to [splits, groups, m, n] in the accumulator type.
    let partial = if splits > 1 {
        Some(Scratch::contiguous(device, &[splits, groups, m, n], acc)?)
    } else {
        None
    };
    let (out, part) = match &partial {
        Some(s) => (
            Dense {
                t: &s.tensor,
                group: m * n,
                row: n,
                split: n,
                hi: 0,
                lo: 1,
            },
            groups * m * n,
        ),
        None => (p.out, 0),
    };
    let tile = i64::from(GEMM_TILE);
    let (tiles_m, tiles_n) = ((m + tile - 1) / tile, (n + tile - 1) / tile);
    let mut words = Vec::with_capacity(48);
    for v in [m, n, k, groups * splits, tiles_m, tiles_n, splits, K_CHUNK] {
        words.push(word(v, "size")?);
    }
    let matrix = |words: &mut Vec<u32>, d: &Dense| -> Result<()> {
        words.push(0);
        words.push(stride_word(d.group)?);
        words.push(stride_word(d.row)?);
        words.push(word(d.split, "size")?);
        words.push(stride_word(d.hi)?);
        words.push(stride_word(d.lo)?);
        Ok(())
    };
    matrix(&mut words, &p.a)?;
    matrix(&mut words, &out)?;
    words.push(word(part, "size")?);
    let image = p.image;
    let (image_sizes, image_strides) = spatial(image);
    words.push(0);
    for s in [
        image.sizes[1] / groups * image.strides[1],
        image.strides[0],
        image.strides[1],
    ]
    .into_iter()
    .chain(image_strides)
    {
        words.push(stride_word(s)?);
    }
    for v in p
        .positions
        .iter()
        .chain(&image_sizes)
        .chain(&p.kernel)
        .chain(&geometry.stride)
        .chain(&geometry.pad)
        .chain(&geometry.dilation)
    {
        words.push(word(*v, "size")?);
    }
    words.push(word(p.kernel.iter().product(), "size")?);
    words.push(word(p.positions.iter().product(), "size")?);
    let mut addresses = vec![p.a.t.address, image.address];
    let mut offset_words = vec![8, 21];
    if let Some(bias) = p.bias {
        offset_words.push(words.len());
        words.push(0);
        words.push(stride_word(bias.strides[0])?);
        addresses.push(bias.address);
    }
    addresses.push(out.t.address);
    offset_words.push(14);
    let kernel = Kernel::Conv(ConvKernel {
        input: p.a.t.dtype,
        acc,
        output: out.t.dtype,
        pass: p.pass,
        bias: p.bias.is_some(),
        direct: m <= DIRECT_ROWS,
        strided: m <= DIRECT_ROWS
            && p.pass == ConvPass::Transposed
            && geometry.stride.iter().any(|&s| s != 1),
    });
    let threads = if m <= DIRECT_ROWS {
        let outputs = i64::from(conv_direct_outputs(p.pass));
        groups * splits * m * ((n + outputs - 1) / outputs)
    } else {
        groups * splits * tiles_m * tiles_n * i64::from(GROUP_SIZE)
    };
    submit(
        device,
        &kernel,
        &addresses,
        words,
        &offset_words,
        threads as u64,
    )?;
    if let Some(partial) = &partial {
        let sums = TensorRef {
            sizes: [vec![splits], out_tensor.sizes.to_vec()].concat().into(),
            strides: [vec![groups * m * n], vec![m * n, n, out_split, 1]]
                .concat()
                .into(),
            ..partial.tensor.clone()
        };
        sum_into(&sums, &[true, false, false, false, false], &out_tensor)?;
    }
    Ok(())
}

/// The checked common dtype of the operands; only floating point convolves, as on CUDA.
fn conv_dtype(x: &TensorRef, w: &TensorRef, bias: Option<&TensorRef>) -> Result<DType> {
    for (name, t) in [("weight", Some(w)), ("bias", bias)] {
        if let Some(t) = t.filter(|t| t.dtype != x.dtype) {
            return Err(Error::runtime(format!(
                "Input type ({}) and {name} type ({}) should be the same",
                x.dtype.torch_name(),
                t.dtype.torch_name()
            )));
        }
    }
    if !matches!(x.dtype, DType::F32 | DType::F64 | DType::F16 | DType::BF16) {
        return Err(not_implemented_for("convolution_overrideable", x.dtype));
    }
    Ok(x.dtype)
}

/// Whether results follow the channels-last format, as CUDA's: when the input or the
/// weights (4 or 5 dimensions) are channels-last and not also contiguous.
fn channels_last(tensors: &[&TensorRef]) -> bool {
    tensors.iter().any(|t| {
        let rank = t.sizes.len();
        (rank == 4 || rank == 5)
            && !t.is_contiguous()
            && t.strides[1] == 1
            && t.sizes[1] > 1
            && flat_spatial(t).is_some_and(|s| s == t.sizes[1])
    })
}

fn geometry(call: &Call, at: usize, spatial_dims: usize) -> Result<Geometry> {
    let (stride, pad, dilation) = (call.ints(at)?, call.ints(at + 1)?, call.ints(at + 2)?);
    let groups = call.int(at + 5)?;
    for (name, v) in [
        ("stride", &stride),
        ("padding", &pad),
        ("dilation", &dilation),
    ] {
        if v.len() != spatial_dims {
            return Err(Error::runtime(format!(
                "expected {name} to have {spatial_dims} elements, got {}",
                v.len()
            )));
        }
    }
    if spatial_dims > 3 {
        return Err(Error::not_implemented(format!(
            "mojo: convolution over {spatial_dims} spatial dimensions"
        )));
    }
    Ok(Geometry {
        stride: three(&stride, 1),
        pad: three(&pad, 0),
        dilation: three(&dilation, 1),
        groups,
    })
}

/// `G` from `H`: `g[b, c, pg] = sum w[c, ch, o] h[b, ch, pg * stride - pad + o * dilation]`.
pub(crate) fn gather(
    geometry: &Geometry,
    w: &TensorRef,
    h: &TensorRef,
    g: &TensorRef,
    bias: Option<&TensorRef>,
) -> Result<()> {
    if conv_gemm::gather(geometry, w, h, g, bias)? {
        return Ok(());
    }
    let groups = geometry.groups;
    let (positions, _) = spatial(g);
    Product {
        pass: ConvPass::Gather,
        m: g.sizes[1] / groups,
        n: g.sizes[0] * positions.iter().product::<i64>(),
        k: w.sizes[1] * w.sizes[2..].iter().product::<i64>(),
        a: Dense::weights(w, groups, false),
        image: h,
        out: Dense::channels_by_positions(g, groups),
        positions,
        kernel: three(&w.sizes[2..], 1),
        bias,
    }
    .run(geometry)
}

/// `H` from `G`: every `g` element that reads `h[b, ch, q]` adds its weight times itself.
pub(crate) fn scatter(
    geometry: &Geometry,
    w: &TensorRef,
    g: &TensorRef,
    h: &TensorRef,
    bias: Option<&TensorRef>,
) -> Result<()> {
    if conv_gemm::scatter(geometry, w, g, h, bias)? {
        return Ok(());
    }
    let groups = geometry.groups;
    let (positions, _) = spatial(h);
    Product {
        pass: ConvPass::Transposed,
        m: h.sizes[1] / groups,
        n: h.sizes[0] * positions.iter().product::<i64>(),
        k: w.sizes[0] / groups * w.sizes[2..].iter().product::<i64>(),
        a: Dense::weights(w, groups, true),
        image: g,
        out: Dense::channels_by_positions(h, groups),
        positions,
        kernel: three(&w.sizes[2..], 1),
        bias,
    }
    .run(geometry)
}

/// The weight gradient `dw[c, ch, o] = sum over b, pg of g[b, c, pg] h[b, ch, pg * stride -
/// pad + o * dilation]`.
fn weight_grad(geometry: &Geometry, g: &TensorRef, h: &TensorRef, dw: &TensorRef) -> Result<()> {
    if conv_gemm::weight_grad(geometry, g, h, dw)? {
        return Ok(());
    }
    let groups = geometry.groups;
    let (positions, _) = spatial(g);
    Product {
        pass: ConvPass::Weight,
        m: g.sizes[1] / groups,
        n: dw.sizes[1] * dw.sizes[2..].iter().product::<i64>(),
        k: g.sizes[0] * positions.iter().product::<i64>(),
        a: Dense::channels_by_positions(g, groups),
        image: h,
        out: Dense::weights(dw, groups, false),
        positions,
        kernel: three(&dw.sizes[2..], 1),
        bias: None,
    }
    .run(geometry)
}

impl Product<'_> {
    fn run(self, geometry: &Geometry) -> Result<()> {
        run_product(self, geometry)
    }
}

/// `out += bias` along the channel dimension.
fn add_bias(out: &TensorRef, bias: &TensorRef) -> Result<()> {
    let mut strides = vec![0; out.sizes.len()];
    strides[1] = bias.strides[0];
    let bias_view = TensorRef {
        sizes: out.sizes.clone(),
        strides: strides.into(),
        ..bias.clone()
    };
    let acc = out.dtype.float_acc();
    let sum = Expr::input(0, out.dtype)
        .cast(acc)
        .add(Expr::input(1, bias.dtype).cast(acc));
    let kernel = MapKernel {
        inputs: smallvec![out.dtype, bias.dtype],
        scalars: smallvec![],
        outputs: smallvec![(out.dtype, sum.cast(out.dtype))],
    };
    run_map(kernel, &[out, &bias_view, out], &out.sizes, &[])
}

/// `convolution_overrideable(input, weight, bias?, stride, padding, dilation, transposed,
/// output_padding, groups)`.
fn convolution(call: &mut Call) -> Result<()> {
    let (x, w) = (call.tensor(0)?, call.tensor(1)?);
    let bias = call.optional_tensor(2)?;
    let dtype = conv_dtype(&x, &w, bias.as_ref())?;
    let geometry = geometry(call, 3, x.sizes.len().saturating_sub(2))?;
    let transposed = call.boolean(6)?;
    let output_padding = three(&call.ints(7)?, 0);
    let (x_sizes, _) = spatial(&x);
    let kernel = three(&w.sizes[2..], 1);
    let mut sizes = vec![x.sizes[0]];
    let channels = if transposed {
        w.sizes[1] * geometry.groups
    } else {
        w.sizes[0]
    };
    sizes.push(channels);
    let skip = 3 - (x.sizes.len() - 2);
    for d in skip..3 {
        let reach = geometry.dilation[d] * (kernel[d] - 1);
        sizes.push(if transposed {
            (x_sizes[d] - 1) * geometry.stride[d] - 2 * geometry.pad[d]
                + reach
                + output_padding[d]
                + 1
        } else {
            (x_sizes[d] + 2 * geometry.pad[d] - reach - 1) / geometry.stride[d] + 1
        });
    }
    let out = call.create_in(&sizes, dtype, x.device, channels_last(&[&x, &w]))?;
    // The image is read through its own strides; the weights must flatten.
    let (w, _w_copy) = flattening(&w)?;
    if transposed {
        scatter(&geometry, &w, &x, &out, bias.as_ref())
    } else {
        gather(&geometry, &w, &x, &out, bias.as_ref())
    }
}

/// `convolution_backward_overrideable(grad_output, input, weight, stride, padding, dilation,
/// transposed, output_padding, groups, output_mask) -> (grad_input, grad_weight, grad_bias)`.
fn convolution_backward(call: &mut Call) -> Result<()> {
    let (gy, x, w) = (call.tensor(0)?, call.tensor(1)?, call.tensor(2)?);
    conv_dtype(&x, &w, None)?;
    let geometry = geometry(call, 3, x.sizes.len().saturating_sub(2))?;
    let transposed = call.boolean(6)?;
    let mask = call.ints(9)?;
    let format = channels_last(&[&x, &w]);
    let (gy, _gy_copy) = flattening(&gy)?;
    let (xf, _x_copy) = flattening(&x)?;
    let (wf, _w_copy) = flattening(&w)?;
    if mask.first() == Some(&1) {
        let gx = call.create_in(&x.sizes, x.dtype, x.device, format)?;
        if transposed {
            gather(&geometry, &wf, &gy, &gx, None)?;
        } else {
            scatter(&geometry, &wf, &gy, &gx, None)?;
        }
    } else {
        call.return_undefined();
    }
    if mask.get(1) == Some(&1) {
        let gw = call.create_in(&w.sizes, w.dtype, w.device, format)?;
        if transposed {
            weight_grad(&geometry, &xf, &gy, &gw)?;
        } else {
            weight_grad(&geometry, &gy, &xf, &gw)?;
        }
    } else {
        call.return_undefined();
    }
    if mask.get(2) == Some(&1) {
        let gb = call.create(&[gy.sizes[1]], gy.dtype, gy.device)?;
        let mut reduced = vec![true; gy.sizes.len()];
        reduced[1] = false;
        sum_into(&gy, &reduced, &gb)?;
    } else {
        call.return_undefined();
    }
    Ok(())
}
