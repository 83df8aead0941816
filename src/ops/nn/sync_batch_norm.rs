//! The building blocks `nn.SyncBatchNorm` runs between its collectives: per-process statistics
//! (`batch_norm_stats`), their combination over processes weighted by each one's element count
//! (`batch_norm_gather_stats_with_counts`, updating the running statistics with the unbiased
//! variance), normalization by given statistics (`batch_norm_elemt`), and the backward's
//! per-channel sums (`batch_norm_backward_reduce`) and elementwise step
//! (`batch_norm_backward_elemt`). Statistics are float32 (float64 for float64), as on CUDA.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Expr, UnaryOp};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::run_reduce;
use crate::ops::core::layout::planes;
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::nn::batch_norm::{arg, map, map_scaled, normalize_by, per_channel};
use crate::ops::nn::layer_norm::mean_rstd_kernel;
use crate::ops::reduce::reduce_launch::sum_into;
use smallvec::smallvec;
use std::ops::{Add, Div, Mul, Sub};

pub const OPS: &[(&str, OpFn)] = &[
    ("batch_norm_stats", stats),
    ("batch_norm_elemt", |c| elemt(c, Dest::New)),
    ("batch_norm_elemt.out", |c| elemt(c, Dest::Arg(6))),
    ("batch_norm_gather_stats_with_counts", gather_stats),
    ("batch_norm_backward_reduce", backward_reduce),
    ("batch_norm_backward_elemt", backward_elemt),
];

/// The input as `[N, C, positions]` planes (copied when they do not flatten), checked.
fn input_planes(input: &TensorRef, op: &str) -> Result<(TensorRef, Option<Scratch>)> {
    if input.sizes.len() < 2 {
        return Err(Error::runtime(format!(
            "{op}: expected an input with at least 2 dimensions, got {}",
            input.sizes.len()
        )));
    }
    if !input.dtype.is_float() {
        return Err(crate::ops::core::pointwise::not_implemented_for(
            op,
            input.dtype,
        ));
    }
    planes(input)
}

fn channels_last(t: &TensorRef) -> bool {
    t.sizes.len() >= 4 && t.strides[1] == 1 && !t.is_contiguous()
}

/// `batch_norm_stats(input, eps) -> (mean, invstd)` over every dimension but the channels.
fn stats(call: &mut Call) -> Result<()> {
    let input = call.tensor(0)?;
    let eps = call.double(1)?;
    let (x, _copy) = input_planes(&input, "batch_norm_stats")?;
    let acc = input.dtype.float_acc();
    let channels = x.sizes[1];
    let mean = call.create(&[channels], acc, input.device)?;
    let invstd = call.create(&[channels], acc, input.device)?;
    let count = x.sizes[0] * x.sizes[2];
    if channels == 0 || count == 0 {
        return Ok(());
    }
    let mut words = ScalarArg::float(count as f64).words(acc);
    words.extend(ScalarArg::float(eps).words(acc));
    run_reduce(
        mean_rstd_kernel(x.dtype, acc, acc, acc),
        &x,
        &[&mean, &invstd],
        &[true, false, true],
        &words,
    )
}

/// `batch_norm_elemt(input, weight?, bias?, mean, invstd, eps)`: `(x - mean) * invstd *
/// weight + bias`.
fn elemt(call: &mut Call, dest: Dest) -> Result<()> {
    let input = call.tensor(0)?;
    let (weight, bias) = (call.optional_tensor(1)?, call.optional_tensor(2)?);
    let (mean, invstd) = (call.tensor(3)?, call.tensor(4)?);
    let (x, _copy) = input_planes(&input, "batch_norm_elemt")?;
    let out = match dest {
        Dest::New => call.create_in(
            &input.sizes,
            input.dtype,
            input.device,
            channels_last(&input),
        )?,
        Dest::Arg(_) => call.result(dest, &input.sizes, input.dtype, input.device)?,
    };
    if out.numel() == 0 {
        return Ok(());
    }
    let (out3, out_copy) = planes(&out)?;
    normalize_by(&x, &mean, &invstd, &weight, &bias, &out3)?;
    if out_copy.is_some() {
        crate::ops::shape::copy::copy(
            &out,
            &TensorRef {
                sizes: out.sizes.clone(),
                strides: TensorRef::contiguous_strides(&out.sizes).into(),
                ..out3
            },
        )?;
    }
    Ok(())
}

/// `counts` (one per process) broadcast over `[processes, channels]`, in `acc`.
fn counts_view(counts: &TensorRef, shape: &[i64]) -> TensorRef {
    TensorRef {
        sizes: shape.to_vec().into(),
        strides: smallvec![counts.strides.first().copied().unwrap_or(0), 0],
        ..counts.clone()
    }
}

/// The total count per channel: `sum(counts)`, `[channels]` in `acc`.
fn total(counts: &TensorRef, channels: i64, acc: DType) -> Result<Scratch> {
    let processes = counts.numel() as i64;
    let n = Scratch::contiguous(counts.device, &[channels], acc)?;
    sum_into(
        &counts_view(counts, &[processes, channels]),
        &[true, false],
        &n.tensor,
    )?;
    Ok(n)
}

/// `batch_norm_gather_stats_with_counts(input, mean, invstd, running_mean?, running_var?,
/// momentum, eps, counts) -> (mean, invstd)`: each process's statistics `[processes,
/// channels]` combined with weights `counts`; processes with no elements count for nothing.
fn gather_stats(call: &mut Call) -> Result<()> {
    let (mean, invstd) = (call.tensor(1)?, call.tensor(2)?);
    let (running_mean, running_var) = (call.optional_tensor(3)?, call.optional_tensor(4)?);
    let (momentum, eps) = (call.double(5)?, call.double(6)?);
    let counts = call.tensor(7)?;
    if mean.sizes.len() != 2 || invstd.sizes != mean.sizes {
        return Err(Error::runtime(format!(
            "batch_norm_gather_stats_with_counts: expected mean and invstd of [processes, channels], got {:?} and {:?}",
            mean.sizes, invstd.sizes
        )));
    }
    let shape = mean.sizes.clone();
    let (processes, channels) = (shape[0], shape[1]);
    if counts.numel() as i64 != processes {
        return Err(Error::runtime(format!(
            "batch_norm_gather_stats_with_counts: {} counts for {processes} processes",
            counts.numel()
        )));
    }
    let acc = mean.dtype.float_acc();
    let device = mean.device;
    let out_mean = call.create(&[channels], mean.dtype, device)?;
    let out_invstd = call.create(&[channels], mean.dtype, device)?;
    if channels == 0 {
        return Ok(());
    }
    let n = counts_view(&counts, &shape);
    let total = total(&counts, channels, acc)?;
    let weighted = |value: Expr| {
        let count = arg(0, &n, acc);
        count
            .clone()
            .gt(Expr::constant(acc, 0.0))
            .select(count.mul(value), Expr::constant(acc, 0.0))
    };
    // The combined mean: sum(n * mean) / N.
    let terms = Scratch::contiguous(device, &shape, acc)?;
    map(
        &[&n, &mean],
        &[(&terms.tensor, weighted(arg(1, &mean, acc)))],
        &shape,
    )?;
    let sum = Scratch::contiguous(device, &[channels], acc)?;
    sum_into(&terms.tensor, &[true, false], &sum.tensor)?;
    let global = Scratch::contiguous(device, &[channels], acc)?;
    map(
        &[&sum.tensor, &total.tensor],
        &[(
            &global.tensor,
            arg(0, &sum.tensor, acc).div(arg(1, &total.tensor, acc)),
        )],
        &[channels],
    )?;
    // The sum of squared deviations: sum(n * (var + (mean - global)^2)), var = invstd^-2 - eps.
    let global_v = TensorRef {
        sizes: shape.clone(),
        strides: smallvec![0, 1],
        ..global.tensor.clone()
    };
    let s = arg(2, &invstd, acc);
    let deviation = arg(1, &mean, acc).sub(arg(3, &global_v, acc));
    let variance = Expr::constant(acc, 1.0)
        .div(s.clone().mul(s))
        .sub(Expr::scalar(0, acc))
        .add(deviation.clone().mul(deviation));
    map_scaled(
        &[&n, &mean, &invstd, &global_v],
        &[(&terms.tensor, weighted(variance))],
        &shape,
        acc,
        &[eps],
    )?;
    let m2 = Scratch::contiguous(device, &[channels], acc)?;
    sum_into(&terms.tensor, &[true, false], &m2.tensor)?;
    let (m2_t, n_t) = (&m2.tensor, &total.tensor);
    let rstd = arg(0, m2_t, acc)
        .div(arg(1, n_t, acc))
        .add(Expr::scalar(0, acc))
        .unary(UnaryOp::Rsqrt);
    map_scaled(
        &[m2_t, n_t, &global.tensor],
        &[
            (&out_invstd, rstd),
            (&out_mean, arg(2, &global.tensor, acc)),
        ],
        &[channels],
        acc,
        &[eps],
    )?;
    if let (Some(rm), Some(rv)) = (&running_mean, &running_var) {
        let blend = |r: Expr, s: Expr| r.mul(Expr::scalar(0, acc)).add(s.mul(Expr::scalar(1, acc)));
        let unbiased = arg(3, m2_t, acc).div(arg(4, n_t, acc).sub(Expr::constant(acc, 1.0)));
        map_scaled(
            &[rm, &global.tensor, rv, m2_t, n_t],
            &[
                (rm, blend(arg(0, rm, acc), arg(1, &global.tensor, acc))),
                (rv, blend(arg(2, rv, acc), unbiased)),
            ],
            &[channels],
            acc,
            &[1.0 - momentum, momentum],
        )?;
    }
    Ok(())
}

/// `batch_norm_backward_reduce(grad_out, input, mean, invstd, weight?, input_g, weight_g,
/// bias_g) -> (sum_dy, sum_dy_xmu, grad_weight, grad_bias)`, each only when asked for.
fn backward_reduce(call: &mut Call) -> Result<()> {
    let (grad, input) = (call.tensor(0)?, call.tensor(1)?);
    let (mean, invstd) = (call.tensor(2)?, call.tensor(3)?);
    let weight = call.optional_tensor(4)?;
    let (input_g, weight_g, bias_g) = (call.boolean(5)?, call.boolean(6)?, call.boolean(7)?);
    let (x, _x_copy) = input_planes(&input, "batch_norm_backward_reduce")?;
    let (g, _g_copy) = planes(&grad)?;
    let shape = x.sizes.clone();
    let channels = shape[1];
    let acc = input.dtype.float_acc();
    let device = input.device;
    let sum_dy = Scratch::contiguous(device, &[channels], acc)?;
    let sum_dy_xmu = Scratch::contiguous(device, &[channels], acc)?;
    sum_into(&g, &[true, false, true], &sum_dy.tensor)?;
    let mean_v = per_channel(&mean, &shape);
    let product = Scratch::contiguous(device, &shape, acc)?;
    map(
        &[&g, &x, &mean_v],
        &[(
            &product.tensor,
            arg(0, &g, acc).mul(arg(1, &x, acc).sub(arg(2, &mean_v, acc))),
        )],
        &shape,
    )?;
    sum_into(&product.tensor, &[true, false, true], &sum_dy_xmu.tensor)?;
    let copy_out = |call: &mut Call, dtype: DType, value: Expr, inputs: &[&TensorRef]| {
        let out = call.create(&[channels], dtype, device)?;
        map(inputs, &[(&out, value)], &[channels])
    };
    if input_g {
        for sums in [&sum_dy, &sum_dy_xmu] {
            copy_out(call, mean.dtype, arg(0, &sums.tensor, acc), &[&sums.tensor])?;
        }
    } else {
        call.return_undefined();
        call.return_undefined();
    }
    let dtype = weight.as_ref().map_or(input.dtype, |w| w.dtype);
    if weight_g {
        let value = arg(0, &sum_dy_xmu.tensor, acc).mul(arg(1, &invstd, acc));
        copy_out(call, dtype, value, &[&sum_dy_xmu.tensor, &invstd])?;
    } else {
        call.return_undefined();
    }
    if bias_g {
        copy_out(call, dtype, arg(0, &sum_dy.tensor, acc), &[&sum_dy.tensor])?;
    } else {
        call.return_undefined();
    }
    Ok(())
}

/// `batch_norm_backward_elemt(grad_out, input, mean, invstd, weight?, sum_dy, sum_dy_xmu,
/// count)`: `(g - sum_dy / N - (x - mean) * invstd^2 * sum_dy_xmu / N) * invstd * weight`
/// with `N = sum(count)`.
fn backward_elemt(call: &mut Call) -> Result<()> {
    let (grad, input) = (call.tensor(0)?, call.tensor(1)?);
    let (mean, invstd) = (call.tensor(2)?, call.tensor(3)?);
    let weight = call.optional_tensor(4)?;
    let (sum_dy, sum_dy_xmu) = (call.tensor(5)?, call.tensor(6)?);
    let counts = call.tensor(7)?;
    let (x, _x_copy) = input_planes(&input, "batch_norm_backward_elemt")?;
    let (g, _g_copy) = planes(&grad)?;
    let shape = x.sizes.clone();
    let channels = shape[1];
    let acc = input.dtype.float_acc();
    let gx = call.create_in(
        &input.sizes,
        input.dtype,
        input.device,
        channels_last(&input),
    )?;
    if gx.numel() == 0 {
        return Ok(());
    }
    let (gx3, _) = planes(&gx)?;
    let n = total(&counts, channels, acc)?;
    let views: Vec<TensorRef> = [&mean, &invstd, &sum_dy, &sum_dy_xmu, &n.tensor]
        .iter()
        .map(|t| per_channel(t, &shape))
        .collect();
    let mut inputs: Vec<&TensorRef> = vec![&g, &x];
    inputs.extend(views.iter());
    let (mean_v, invstd_v, dy_v, dyx_v, n_v) =
        (&views[0], &views[1], &views[2], &views[3], &views[4]);
    let s = arg(3, invstd_v, acc);
    let count = arg(6, n_v, acc);
    let mut value = arg(0, &g, acc)
        .sub(arg(4, dy_v, acc).div(count.clone()))
        .sub(
            arg(1, &x, acc)
                .sub(arg(2, mean_v, acc))
                .mul(s.clone().mul(s.clone()))
                .mul(arg(5, dyx_v, acc).div(count)),
        )
        .mul(s);
    let weight_v = weight.as_ref().map(|w| per_channel(w, &shape));
    if let Some(w) = &weight_v {
        value = value.mul(arg(inputs.len(), w, acc));
        inputs.push(w);
    }
    map(&inputs, &[(&gx3, value)], &shape)
}
