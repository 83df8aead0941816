//! Group normalization (`native_group_norm` and its backward): statistics per sample and
//! group of channels, an affine transform per channel. Computed in float32 (float64 for
//! float64); the saved mean and rstd have the input's dtype, as on CUDA.

use crate::error::{Error, Result};
use crate::kernels::Expr;
use crate::ops::core::call::Call;
use crate::ops::core::launch::run_reduce;
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::nn::batch_norm::{arg, map, map_scaled};
use crate::ops::nn::layer_norm::mean_rstd_kernel;
use crate::ops::reduce::reduce_launch::sum_into;
use smallvec::smallvec;
use std::ops::{Add, Div, Mul, Sub};

pub const OPS: &[(&str, OpFn)] = &[
    ("native_group_norm", group_norm),
    ("native_group_norm_backward", group_norm_backward),
];

/// The problem's sizes: samples, channels, positions per channel, groups.
struct Sizes {
    n: i64,
    c: i64,
    hw: i64,
    groups: i64,
}

impl Sizes {
    fn read(call: &Call, at: usize, input: &TensorRef) -> Result<Sizes> {
        let s = Sizes {
            n: call.int(at)?,
            c: call.int(at + 1)?,
            hw: call.int(at + 2)?,
            groups: call.int(at + 3)?,
        };
        if s.groups <= 0 || s.c % s.groups != 0 {
            return Err(Error::runtime(format!(
                "Expected number of channels in input to be divisible by num_groups, but got input of shape {:?} and num_groups={}",
                input.sizes, s.groups
            )));
        }
        if s.n * s.c * s.hw != input.numel() as i64 {
            return Err(Error::runtime(format!(
                "Expected the input of {} elements to hold N x C x HxW = {} x {} x {}",
                input.numel(),
                s.n,
                s.c,
                s.hw
            )));
        }
        Ok(s)
    }

    /// `[N, groups, C / groups, HxW]`.
    fn shape(&self) -> Vec<i64> {
        vec![self.n, self.groups, self.c / self.groups, self.hw]
    }

    /// A contiguous `[N, C, ...]` tensor viewed as [`Sizes::shape`].
    fn view(&self, t: &TensorRef) -> TensorRef {
        let shape = self.shape();
        TensorRef {
            strides: TensorRef::contiguous_strides(&shape).into(),
            sizes: shape.into(),
            ..t.clone()
        }
    }

    /// A per-sample-and-group `[N, groups]` tensor broadcast over [`Sizes::shape`].
    fn per_group(&self, t: &TensorRef) -> TensorRef {
        TensorRef {
            sizes: self.shape().into(),
            strides: smallvec![self.groups, 1, 0, 0],
            ..t.clone()
        }
    }

    /// A per-channel `[C]` tensor broadcast over [`Sizes::shape`].
    fn per_channel(&self, t: &TensorRef) -> TensorRef {
        let s = t.strides.first().copied().unwrap_or(1);
        TensorRef {
            sizes: self.shape().into(),
            strides: smallvec![0, self.c / self.groups * s, s, 0],
            ..t.clone()
        }
    }
}

/// `t`, or a contiguous copy of it.
fn contiguous(t: &TensorRef) -> Result<(TensorRef, Option<Scratch>)> {
    if t.is_contiguous() {
        return Ok((t.clone(), None));
    }
    let copy = Scratch::contiguous(t.device, &t.sizes, t.dtype)?;
    crate::ops::shape::copy::copy(&copy.tensor, t)?;
    Ok((copy.tensor.clone(), Some(copy)))
}

/// `native_group_norm(input, weight?, bias?, N, C, HxW, group, eps) -> (out, mean, rstd)`.
fn group_norm(call: &mut Call) -> Result<()> {
    let input = call.tensor(0)?;
    let (weight, bias) = (call.optional_tensor(1)?, call.optional_tensor(2)?);
    let sizes = Sizes::read(call, 3, &input)?;
    let eps = call.double(7)?;
    let acc = input.dtype.float_acc();
    let device = input.device;
    let (x, _copy) = contiguous(&input)?;
    let out = call.create(&input.sizes, input.dtype, device)?;
    let stats = [sizes.n, sizes.groups];
    let mean = call.create(&stats, input.dtype, device)?;
    let rstd = call.create(&stats, input.dtype, device)?;
    if input.numel() == 0 {
        return Ok(());
    }
    let per_group = sizes.c / sizes.groups * sizes.hw;
    let rows = TensorRef {
        sizes: smallvec![sizes.n * sizes.groups, per_group],
        strides: smallvec![per_group, 1],
        ..x.clone()
    };
    let flat = |t: &TensorRef| TensorRef {
        sizes: smallvec![sizes.n * sizes.groups],
        strides: smallvec![1],
        ..t.clone()
    };
    let kernel = mean_rstd_kernel(x.dtype, acc, mean.dtype, rstd.dtype);
    let mut words = ScalarArg::float(per_group as f64).words(acc);
    words.extend(ScalarArg::float(eps).words(acc));
    run_reduce(
        kernel,
        &rows,
        &[&flat(&mean), &flat(&rstd)],
        &[false, true],
        &words,
    )?;
    let (x4, mean4, rstd4) = (
        sizes.view(&x),
        sizes.per_group(&mean),
        sizes.per_group(&rstd),
    );
    let mut inputs = vec![&x4, &mean4, &rstd4];
    let mut value = arg(0, &x4, acc)
        .sub(arg(1, &mean4, acc))
        .mul(arg(2, &rstd4, acc));
    let weight4 = weight.as_ref().map(|w| sizes.per_channel(w));
    let bias4 = bias.as_ref().map(|b| sizes.per_channel(b));
    if let Some(w) = &weight4 {
        value = value.mul(arg(inputs.len(), w, acc));
        inputs.push(w);
    }
    if let Some(b) = &bias4 {
        value = value.add(arg(inputs.len(), b, acc));
        inputs.push(b);
    }
    map(&inputs, &[(&sizes.view(&out), value)], &sizes.shape())
}

/// `native_group_norm_backward(grad_out, input, mean, rstd, weight?, N, C, HxW, group,
/// output_mask) -> (grad_input, grad_weight, grad_bias)`: with `xhat = (x - mean) * rstd`
/// and `gw = grad * weight`, `grad_input = rstd * (gw - mean(gw) - xhat * mean(gw * xhat))`
/// (means over each sample's group), `grad_weight = sum(grad * xhat)` and `grad_bias =
/// sum(grad)` over samples and positions.
fn group_norm_backward(call: &mut Call) -> Result<()> {
    let (grad, input) = (call.tensor(0)?, call.tensor(1)?);
    let (mean, rstd) = (call.tensor(2)?, call.tensor(3)?);
    let weight = call.optional_tensor(4)?;
    let sizes = Sizes::read(call, 5, &input)?;
    let mask = call.ints(9)?;
    let acc = input.dtype.float_acc();
    let device = input.device;
    let (x, _x_copy) = contiguous(&input)?;
    let (g, _g_copy) = contiguous(&grad)?;
    let shape = sizes.shape();
    let (x4, g4) = (sizes.view(&x), sizes.view(&g));
    let (mean4, rstd4) = (sizes.per_group(&mean), sizes.per_group(&rstd));
    let xhat = || {
        arg(0, &x4, acc)
            .sub(arg(1, &mean4, acc))
            .mul(arg(2, &rstd4, acc))
    };
    let empty = input.numel() == 0;
    if mask.first() == Some(&1) {
        let gx = call.create(&input.sizes, input.dtype, device)?;
        if !empty {
            grad_input(&sizes, &x4, &g4, &mean4, &rstd4, &weight, &gx, acc)?;
        }
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
        let out = call.create(&[sizes.c], dtype, device)?;
        let out4 = TensorRef {
            sizes: smallvec![sizes.groups, sizes.c / sizes.groups],
            strides: smallvec![sizes.c / sizes.groups, 1],
            ..out.clone()
        };
        if i == 0 {
            let product = Scratch::contiguous(device, &shape, acc)?;
            map(
                &[&x4, &mean4, &rstd4, &g4],
                &[(&product.tensor, xhat().mul(arg(3, &g4, acc)))],
                &shape,
            )?;
            sum_into(&product.tensor, &[true, false, false, true], &out4)?;
        } else {
            sum_into(&g4, &[true, false, false, true], &out4)?;
        }
    }
    Ok(())
}

/// `grad_input` of group normalization (see [`group_norm_backward`]).
#[allow(clippy::too_many_arguments)]
fn grad_input(
    sizes: &Sizes,
    x4: &TensorRef,
    g4: &TensorRef,
    mean4: &TensorRef,
    rstd4: &TensorRef,
    weight: &Option<TensorRef>,
    gx: &TensorRef,
    acc: crate::dtype::DType,
) -> Result<()> {
    let device = x4.device;
    let shape = sizes.shape();
    let xhat = arg(0, x4, acc)
        .sub(arg(1, mean4, acc))
        .mul(arg(2, rstd4, acc));
    let weight4 = weight.as_ref().map(|w| sizes.per_channel(w));
    let mut inputs = vec![x4, mean4, rstd4, g4];
    let mut gw = arg(3, g4, acc);
    if let Some(w) = &weight4 {
        gw = gw.mul(arg(4, w, acc));
        inputs.push(w);
    }
    // gw and gw * xhat, then their means over each sample's group.
    let (gw_t, gwx_t) = (
        Scratch::contiguous(device, &shape, acc)?,
        Scratch::contiguous(device, &shape, acc)?,
    );
    map(
        &inputs,
        &[
            (&gw_t.tensor, gw.clone()),
            (&gwx_t.tensor, gw.mul(xhat.clone())),
        ],
        &shape,
    )?;
    let stats = [sizes.n, sizes.groups];
    let (sum_gw, sum_gwx) = (
        Scratch::contiguous(device, &stats, acc)?,
        Scratch::contiguous(device, &stats, acc)?,
    );
    let reduced = [false, false, true, true];
    sum_into(&gw_t.tensor, &reduced, &sum_gw.tensor)?;
    sum_into(&gwx_t.tensor, &reduced, &sum_gwx.tensor)?;
    let count = Expr::scalar(0, acc);
    let (mg, mgx) = (
        sizes.per_group(&sum_gw.tensor),
        sizes.per_group(&sum_gwx.tensor),
    );
    let value = arg(3, &gw_t.tensor, acc)
        .sub(arg(4, &mg, acc).div(count.clone()))
        .sub(xhat.mul(arg(5, &mgx, acc).div(count)))
        .mul(arg(2, rstd4, acc));
    let gw_view = gw_t.tensor.clone();
    map_scaled(
        &[x4, mean4, rstd4, &gw_view, &mg, &mgx],
        &[(&sizes.view(gx), value)],
        &shape,
        acc,
        &[(sizes.c / sizes.groups * sizes.hw) as f64],
    )
}
