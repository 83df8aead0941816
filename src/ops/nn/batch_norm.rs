//! Batch normalization (`native_batch_norm` and its backward), which group and instance
//! normalization also reach. Statistics per channel over the batch and spatial positions,
//! in float32 (float64 for float64) as CUDA keeps them; running statistics updated with the
//! unbiased variance, as cuDNN does.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Expr, MapKernel, UnaryOp};
use crate::ops::core::call::Call;
use crate::ops::core::launch::{run_map, run_reduce};
use crate::ops::core::layout::planes;
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::nn::layer_norm::mean_rstd_kernel;
use crate::ops::reduce::reduce_launch::sum_into;
use smallvec::smallvec;
use std::ops::{Add, Div, Mul, Sub};

pub const OPS: &[(&str, OpFn)] = &[
    ("native_batch_norm", |c| batch_norm(c, Args::NATIVE)),
    ("_native_batch_norm_legit", |c| batch_norm(c, Args::NATIVE)),
    ("_native_batch_norm_legit.no_stats", |c| {
        batch_norm(c, Args::NO_STATS)
    }),
    ("_batch_norm_with_update", |c| {
        batch_norm(c, Args::WITH_UPDATE)?;
        // The reserve space cuDNN would keep: none here.
        let device = c.tensor(0)?.device;
        c.create(&[0], DType::U8, device)?;
        Ok(())
    }),
    ("native_batch_norm_backward", batch_norm_backward),
    // The same arguments and a trailing reserve space (unused).
    ("batch_norm_backward", batch_norm_backward),
];

/// Where each variant keeps its arguments: the running statistics' index (none without),
/// `training` (none: always training) and then `momentum, eps`.
struct Args {
    running: Option<usize>,
    training: Option<usize>,
    momentum: usize,
}

impl Args {
    const NATIVE: Args = Args {
        running: Some(3),
        training: Some(5),
        momentum: 6,
    };
    const NO_STATS: Args = Args {
        running: None,
        training: Some(3),
        momentum: 4,
    };
    const WITH_UPDATE: Args = Args {
        running: Some(3),
        training: None,
        momentum: 5,
    };
}

/// A per-channel vector broadcast over `[N, C, positions]`.
pub(crate) fn per_channel(t: &TensorRef, shape: &[i64]) -> TensorRef {
    TensorRef {
        sizes: shape.to_vec().into(),
        strides: smallvec![0, t.strides.first().copied().unwrap_or(0), 0],
        ..t.clone()
    }
}

/// Runs `outputs` (expressions over `inputs`, in order) elementwise over `shape`.
pub(crate) fn map(
    inputs: &[&TensorRef],
    outputs: &[(&TensorRef, Expr)],
    shape: &[i64],
) -> Result<()> {
    map_scaled(inputs, outputs, shape, DType::F32, &[])
}

/// [`map`] with scalar arguments (`Expr::scalar(k, acc)`: sizes and hyper-parameters are
/// arguments, so one kernel serves them all).
pub(crate) fn map_scaled(
    inputs: &[&TensorRef],
    outputs: &[(&TensorRef, Expr)],
    shape: &[i64],
    acc: DType,
    scalars: &[f64],
) -> Result<()> {
    let kernel = MapKernel {
        inputs: inputs.iter().map(|t| t.dtype).collect(),
        scalars: smallvec![acc; scalars.len()],
        outputs: outputs
            .iter()
            .map(|(t, e)| (t.dtype, e.clone().cast(t.dtype)))
            .collect(),
    };
    let mut tensors = inputs.to_vec();
    tensors.extend(outputs.iter().map(|(t, _)| *t));
    let words: Vec<u32> = scalars
        .iter()
        .flat_map(|&v| ScalarArg::float(v).words(acc))
        .collect();
    run_map(kernel, &tensors, shape, &words)
}

/// Input `i` of a map, in `acc`.
pub(crate) fn arg(i: usize, t: &TensorRef, acc: DType) -> Expr {
    Expr::input(i, t.dtype).cast(acc)
}

/// Checks that an optional per-channel tensor has `channels` elements.
fn check_channels(name: &str, t: Option<&TensorRef>, channels: i64) -> Result<()> {
    match t {
        Some(t) if t.numel() as i64 != channels => Err(Error::runtime(format!(
            "{name} should contain {channels} elements not {}",
            t.numel()
        ))),
        _ => Ok(()),
    }
}

/// `native_batch_norm(input, weight?, bias?, running_mean?, running_var?, training, momentum,
/// eps) -> (out, save_mean, save_invstd)` and its variants ([`Args`]).
fn batch_norm(call: &mut Call, args: Args) -> Result<()> {
    let input = call.tensor(0)?;
    let (weight, bias) = (call.optional_tensor(1)?, call.optional_tensor(2)?);
    let (running_mean, running_var) = match args.running {
        Some(at) => (call.optional_tensor(at)?, call.optional_tensor(at + 1)?),
        None => (None, None),
    };
    let training = match args.training {
        Some(at) => call.boolean(at)?,
        None => true,
    };
    let (momentum, eps) = (call.double(args.momentum)?, call.double(args.momentum + 1)?);
    if input.sizes.len() < 2 {
        return Err(Error::runtime(format!(
            "batch_norm: expected an input with at least 2 dimensions, got {}",
            input.sizes.len()
        )));
    }
    let channels = input.sizes[1];
    for (name, t) in [
        ("weight", &weight),
        ("bias", &bias),
        ("running_mean", &running_mean),
        ("running_var", &running_var),
    ] {
        check_channels(name, t.as_ref(), channels)?;
    }
    if !input.dtype.is_float() {
        return Err(crate::ops::core::pointwise::not_implemented_for(
            "batch_norm",
            input.dtype,
        ));
    }
    let acc = input.dtype.float_acc();
    let device = input.device;
    let (x, _copy) = planes(&input)?;
    let shape = x.sizes.clone();
    let channels_last = input.sizes.len() >= 4 && input.strides[1] == 1 && !input.is_contiguous();
    let out = call.create_in(&input.sizes, input.dtype, device, channels_last)?;
    let (out3, _) = planes(&out)?;
    let stat_len = if training { channels } else { 0 };
    let save_mean = call.create(&[stat_len], acc, device)?;
    let save_invstd = call.create(&[stat_len], acc, device)?;
    let count = shape[0] * shape[2];
    if !training {
        let (Some(mean), Some(var)) = (&running_mean, &running_var) else {
            return Err(Error::runtime(
                "running_mean and running_var must be defined in evaluation mode",
            ));
        };
        if input.numel() == 0 {
            return Ok(());
        }
        let (mean_v, var_v) = (per_channel(mean, &shape), per_channel(var, &shape));
        let invstd = arg(2, &var_v, acc)
            .add(Expr::scalar(0, acc))
            .unary(UnaryOp::Rsqrt);
        return normalize(
            &x,
            &mean_v,
            (invstd, &[eps]),
            &var_v,
            &weight,
            &bias,
            &out3,
            acc,
        );
    }
    if count == 0 || channels == 0 {
        return Ok(());
    }
    // mean and invstd per channel, and the unbiased variance for the running statistics.
    let unbiased = Scratch::contiguous(device, &[channels], acc)?;
    let mut kernel = mean_rstd_kernel(x.dtype, acc, acc, acc);
    kernel.scalars.push(acc);
    kernel
        .outputs
        .push((acc, Expr::input(0, acc).div(Expr::scalar(2, acc))));
    let mut words = ScalarArg::float(count as f64).words(acc);
    words.extend(ScalarArg::float(eps).words(acc));
    words.extend(ScalarArg::float(count as f64 - 1.0).words(acc));
    run_reduce(
        kernel,
        &x,
        &[&save_mean, &save_invstd, &unbiased.tensor],
        &[true, false, true],
        &words,
    )?;
    if let (Some(rm), Some(rv)) = (&running_mean, &running_var) {
        // running = (1 - momentum) * running + momentum * batch statistic.
        let blend = |r: Expr, s: Expr| r.mul(Expr::scalar(0, acc)).add(s.mul(Expr::scalar(1, acc)));
        map_scaled(
            &[rm, &save_mean, rv, &unbiased.tensor],
            &[
                (rm, blend(arg(0, rm, acc), arg(1, &save_mean, acc))),
                (rv, blend(arg(2, rv, acc), arg(3, &unbiased.tensor, acc))),
            ],
            &[channels],
            acc,
            &[1.0 - momentum, momentum],
        )?;
    }
    normalize_by(&x, &save_mean, &save_invstd, &weight, &bias, &out3)
}

/// `out = (x - mean) * invstd * weight + bias` with per-channel `mean` and `invstd` tensors.
pub(crate) fn normalize_by(
    x: &TensorRef,
    mean: &TensorRef,
    invstd: &TensorRef,
    weight: &Option<TensorRef>,
    bias: &Option<TensorRef>,
    out: &TensorRef,
) -> Result<()> {
    let acc = x.dtype.float_acc();
    let (mean_v, invstd_v) = (per_channel(mean, &x.sizes), per_channel(invstd, &x.sizes));
    normalize(
        x,
        &mean_v,
        (arg(2, &invstd_v, acc), &[]),
        &invstd_v,
        weight,
        bias,
        out,
        acc,
    )
}

/// `out = (x - mean) * invstd * weight + bias`, with `invstd` an expression of input 2.
#[allow(clippy::too_many_arguments)]
fn normalize(
    x: &TensorRef,
    mean: &TensorRef,
    (invstd, scalars): (Expr, &[f64]),
    stat: &TensorRef,
    weight: &Option<TensorRef>,
    bias: &Option<TensorRef>,
    out: &TensorRef,
    acc: DType,
) -> Result<()> {
    let shape = x.sizes.clone();
    let mut inputs = vec![x, mean, stat];
    let mut value = arg(0, x, acc).sub(arg(1, mean, acc)).mul(invstd);
    let weight_v = weight.as_ref().map(|w| per_channel(w, &shape));
    let bias_v = bias.as_ref().map(|b| per_channel(b, &shape));
    if let Some(w) = &weight_v {
        value = value.mul(arg(inputs.len(), w, acc));
        inputs.push(w);
    }
    if let Some(b) = &bias_v {
        value = value.add(arg(inputs.len(), b, acc));
        inputs.push(b);
    }
    map_scaled(&inputs, &[(out, value)], &shape, acc, scalars)
}

/// `native_batch_norm_backward(grad_out, input, weight?, running_mean?, running_var?,
/// save_mean?, save_invstd?, train, eps, output_mask) -> (grad_input, grad_weight,
/// grad_bias)`: with `xhat = (x - mean) * invstd`, `grad_bias = sum(g)`, `grad_weight =
/// sum(g * xhat)` and `grad_input = weight * invstd * (g - mean(g) - xhat * mean(g * xhat))`
/// in training (`weight * invstd * g` in evaluation, where the statistics are constants).
fn batch_norm_backward(call: &mut Call) -> Result<()> {
    let (grad, input) = (call.tensor(0)?, call.tensor(1)?);
    let weight = call.optional_tensor(2)?;
    let (running_mean, running_var) = (call.optional_tensor(3)?, call.optional_tensor(4)?);
    let (save_mean, save_invstd) = (call.optional_tensor(5)?, call.optional_tensor(6)?);
    let (training, eps) = (call.boolean(7)?, call.double(8)?);
    let mask = call.ints(9)?;
    let acc = input.dtype.float_acc();
    let device = input.device;
    let channels = input.sizes[1];
    let (x, _x_copy) = planes(&input)?;
    let (g, _g_copy) = planes(&grad)?;
    let shape = x.sizes.clone();
    let count = shape[0] * shape[2];
    // The statistics: the saved ones in training, the running ones (invstd made here) else.
    let invstd_made;
    let (mean, invstd) = if training {
        match (&save_mean, &save_invstd) {
            (Some(m), Some(s)) => (m.clone(), s.clone()),
            _ => return Err(Error::runtime(
                "native_batch_norm_backward: save_mean and save_invstd are required in training",
            )),
        }
    } else {
        let (Some(rm), Some(rv)) = (&running_mean, &running_var) else {
            return Err(Error::runtime(
                "running_mean and running_var must be defined in evaluation mode",
            ));
        };
        invstd_made = Scratch::contiguous(device, &[channels], acc)?;
        let value = arg(0, rv, acc)
            .add(Expr::scalar(0, acc))
            .unary(UnaryOp::Rsqrt);
        map_scaled(
            &[rv],
            &[(&invstd_made.tensor, value)],
            &[channels],
            acc,
            &[eps],
        )?;
        (rm.clone(), invstd_made.tensor.clone())
    };
    let (mean_v, invstd_v) = (per_channel(&mean, &shape), per_channel(&invstd, &shape));
    let xhat = || {
        arg(0, &x, acc)
            .sub(arg(1, &mean_v, acc))
            .mul(arg(2, &invstd_v, acc))
    };
    let needs_sums = mask.get(1) == Some(&1) || (training && mask.first() == Some(&1));
    // Per channel: sum(g) and sum(g * xhat).
    let sums = if needs_sums || mask.get(2) == Some(&1) {
        let sum_g = Scratch::contiguous(device, &[channels], acc)?;
        let sum_gx = Scratch::contiguous(device, &[channels], acc)?;
        sum_into(&g, &[true, false, true], &sum_g.tensor)?;
        if needs_sums {
            let product = Scratch::contiguous(device, &shape, acc)?;
            map(
                &[&x, &mean_v, &invstd_v, &g],
                &[(&product.tensor, xhat().mul(arg(3, &g, acc)))],
                &shape,
            )?;
            sum_into(&product.tensor, &[true, false, true], &sum_gx.tensor)?;
        }
        Some((sum_g, sum_gx))
    } else {
        None
    };
    if mask.first() == Some(&1) {
        let channels_last =
            input.sizes.len() >= 4 && input.strides[1] == 1 && !input.is_contiguous();
        let gx = call.create_in(&input.sizes, input.dtype, device, channels_last)?;
        let (gx3, _) = planes(&gx)?;
        let weight_v = weight.as_ref().map(|w| per_channel(w, &shape));
        let mut inputs = vec![&x, &mean_v, &invstd_v, &g];
        let scale = match &weight_v {
            Some(w) => {
                inputs.push(w);
                arg(2, &invstd_v, acc).mul(arg(4, w, acc))
            }
            None => arg(2, &invstd_v, acc),
        };
        let mut value = arg(3, &g, acc);
        let sum_views;
        if training {
            let (sum_g, sum_gx) = sums.as_ref().expect("sums are made in training");
            sum_views = (
                per_channel(&sum_g.tensor, &shape),
                per_channel(&sum_gx.tensor, &shape),
            );
            let n = Expr::scalar(0, acc);
            let mean_g = arg(inputs.len(), &sum_views.0, acc).div(n.clone());
            let mean_gx = arg(inputs.len() + 1, &sum_views.1, acc).div(n);
            inputs.push(&sum_views.0);
            inputs.push(&sum_views.1);
            value = value.sub(mean_g).sub(xhat().mul(mean_gx));
        }
        let scalars = if training { vec![count as f64] } else { vec![] };
        map_scaled(&inputs, &[(&gx3, value.mul(scale))], &shape, acc, &scalars)?;
    } else {
        call.return_undefined();
    }
    for (i, wanted) in [mask.get(1) == Some(&1), mask.get(2) == Some(&1)]
        .into_iter()
        .enumerate()
    {
        if !wanted {
            call.return_undefined();
            continue;
        }
        let dtype = weight.as_ref().map_or(input.dtype, |w| w.dtype);
        let out = call.create(&[channels], dtype, device)?;
        let (sum_g, sum_gx) = sums.as_ref().expect("sums are made when a gradient is");
        let source = if i == 0 { sum_gx } else { sum_g };
        map(
            &[&source.tensor],
            &[(&out, Expr::input(0, acc))],
            &[channels],
        )?;
    }
    Ok(())
}
