//! Antialiased bilinear and bicubic resampling (`F.interpolate(..., antialias=True)`, what
//! torchvision's `Resize` runs on tensors) and their backward. As PyTorch's CPU kernel, the
//! filter (a triangle, or Keys' cubic with a = -0.5) is stretched by the downscaling factor,
//! so each output position averages every input position under it, with weights normalised
//! per position and computed on the host; the resampling itself is `interpolate.rs`'s
//! separable passes (width, then height) and their transposed passes for the backward.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::registry::OpFn;
use crate::ops::nn::interpolate::{options, resample, source_scale, transposed, Axis};

pub const OPS: &[(&str, OpFn)] = &[
    ("_upsample_bilinear2d_aa.out", |c| {
        forward(c, Filter::Triangle)
    }),
    ("_upsample_bicubic2d_aa.out", |c| forward(c, Filter::Cubic)),
    ("_upsample_bilinear2d_aa_backward.grad_input", |c| {
        backward(c, Filter::Triangle)
    }),
    ("_upsample_bicubic2d_aa_backward.grad_input", |c| {
        backward(c, Filter::Cubic)
    }),
];

#[derive(Clone, Copy)]
enum Filter {
    Triangle,
    Cubic,
}

impl Filter {
    /// Half the filter's width at scale 1.
    fn radius(self) -> f64 {
        match self {
            Filter::Triangle => 1.0,
            Filter::Cubic => 2.0,
        }
    }

    fn weight(self, x: f64) -> f64 {
        let x = x.abs();
        match self {
            Filter::Triangle => {
                if x < 1.0 {
                    1.0 - x
                } else {
                    0.0
                }
            }
            Filter::Cubic => {
                let a = -0.5;
                if x < 1.0 {
                    ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
                } else if x < 2.0 {
                    ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a
                } else {
                    0.0
                }
            }
        }
    }
}

/// One dimension's taps (PyTorch's `_compute_indices_min_size_weights_aa`): per output
/// position the input positions `xmin..xmin + xsize` under the stretched filter and their
/// normalised weights, padded to the widest position with zero weights.
fn aa_axis(
    input: i64,
    output: i64,
    align_corners: bool,
    scale: Option<f64>,
    f64_math: bool,
    filter: Filter,
) -> Axis {
    let r = |v: f64| if f64_math { v } else { v as f32 as f64 };
    let scale = source_scale(input, output, align_corners, scale, r);
    let (support, invscale) = if scale >= 1.0 {
        (r(filter.radius() * scale), r(1.0 / scale))
    } else {
        (filter.radius(), 1.0)
    };
    let taps = (support.ceil() as usize) * 2 + 1;
    let mut axis = Axis {
        index: vec![Vec::new(); taps],
        weight: vec![Vec::new(); taps],
    };
    for i in 0..output {
        let center = r(scale * (i as f64 + 0.5));
        let xmin = ((center - support + 0.5) as i64).max(0);
        let xsize = (((center + support + 0.5) as i64).min(input) - xmin).clamp(0, taps as i64);
        let weights: Vec<f64> = (0..xsize)
            .map(|j| r(filter.weight(r((j + xmin) as f64 - center + 0.5) * invscale)))
            .collect();
        let total: f64 = weights.iter().sum();
        for k in 0..taps {
            let w = weights.get(k).copied().unwrap_or(0.0);
            let w = if total != 0.0 { r(w / total) } else { w };
            axis.index[k].push((xmin + k as i64).min(input - 1).max(0));
            axis.weight[k].push(w);
        }
    }
    axis
}

fn axes(
    filter: Filter,
    input: &[i64],
    output: &[i64],
    align_corners: bool,
    scales: &[Option<f64>],
    acc: DType,
) -> [Axis; 2] {
    [0, 1].map(|d| {
        aa_axis(
            input[d],
            output[d],
            align_corners,
            scales[d],
            acc == DType::F64,
            filter,
        )
    })
}

/// `_upsample_{bilinear,bicubic}2d_aa(self, output_size, align_corners, scales_h, scales_w)`.
fn forward(call: &mut Call, filter: Filter) -> Result<()> {
    let x = call.tensor(0)?;
    let output_size = call.ints(1)?;
    let (align_corners, scales) = options(call, 2, 2)?;
    if x.sizes.len() != 4 || output_size.len() != 2 {
        return Err(Error::runtime(format!(
            "upsample: expected a 4D input and 2 output sizes, got input of size {:?} and output_size {output_size:?}",
            x.sizes
        )));
    }
    if !x.dtype.is_float() {
        return Err(crate::ops::core::pointwise::not_implemented_for(
            "upsample_aa",
            x.dtype,
        ));
    }
    let (n, c, h, w) = (x.sizes[0], x.sizes[1], x.sizes[2], x.sizes[3]);
    let out = call.result(
        Dest::Arg(5),
        &[n, c, output_size[0], output_size[1]],
        x.dtype,
        x.device,
    )?;
    if out.numel() == 0 {
        return Ok(());
    }
    let acc = x.dtype.float_acc();
    let axes = axes(filter, &[h, w], &output_size, align_corners, &scales, acc);
    resample(&x, &out, &axes, &[1, 0])
}

/// `_upsample_{bilinear,bicubic}2d_aa_backward(grad_output, output_size, input_size,
/// align_corners, scales_h, scales_w)`.
fn backward(call: &mut Call, filter: Filter) -> Result<()> {
    let grad = call.tensor(0)?;
    let output_size = call.ints(1)?;
    let input_size = call.ints(2)?;
    let (align_corners, scales) = options(call, 3, 2)?;
    if input_size.len() != 4 || grad.sizes[2..] != output_size[..] {
        return Err(Error::runtime(format!(
            "upsample_backward: grad_output of size {:?} does not match output_size {output_size:?}",
            grad.sizes
        )));
    }
    let gx = call.result(Dest::Arg(6), &input_size, grad.dtype, grad.device)?;
    if gx.numel() == 0 {
        return Ok(());
    }
    let acc = grad.dtype.float_acc();
    let axes = axes(
        filter,
        &input_size[2..],
        &output_size,
        align_corners,
        &scales,
        acc,
    );
    let [rows, cols] = axes;
    let transposed = [
        transposed(&rows, input_size[2]),
        transposed(&cols, input_size[3]),
    ];
    resample(&grad, &gx, &transposed, &[0, 1])
}
