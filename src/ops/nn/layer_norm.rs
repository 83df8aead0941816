//! Layer normalization (`native_layer_norm` and its backward), and the mean/rstd reduction the
//! other normalizations share.

use smallvec::smallvec;
use std::ops::{Add, Div, Mul, Sub};

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Expr, MapKernel, ReduceKernel, ReduceOp, UnaryOp};
use crate::ops::core::call::Call;
use crate::ops::core::launch::{run_map, run_reduce};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;

pub const OPS: &[(&str, OpFn)] = &[
    ("native_layer_norm", layer_norm),
    ("native_layer_norm_backward", layer_norm_backward),
];

/// The leading (kept) and normalized element counts of a layer norm over `normalized` dims.
fn layer_norm_split(input: &TensorRef, normalized: &[i64]) -> Result<(usize, i64, i64)> {
    let rank = input.sizes.len();
    let k = normalized.len();
    if k == 0 || k > rank || input.sizes[rank - k..] != *normalized {
        return Err(Error::runtime(format!(
            "Given normalized_shape={normalized:?}, expected input with shape [*, {}], but got input of size{:?}",
            normalized.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", "),
            input.sizes
        )));
    }
    let axis = rank - k;
    let m: i64 = input.sizes[..axis].iter().product();
    let n: i64 = input.sizes[axis..].iter().product();
    Ok((axis, m, n))
}

/// A contiguous copy of `t`, or None when it already is contiguous.
fn dense_copy(t: &TensorRef) -> Result<Option<Scratch>> {
    if t.is_contiguous() {
        return Ok(None);
    }
    let copy = Scratch::contiguous(t.device, &t.sizes, t.dtype)?;
    crate::ops::shape::copy::copy(&copy.tensor, t)?;
    Ok(Some(copy))
}

/// `t` viewed as `[m, n]` (it is contiguous in the normalized dims or broadcast).
fn as_rows(t: &TensorRef, axis: usize, m: i64, n: i64) -> TensorRef {
    let inner = t.sizes[axis..]
        .iter()
        .zip(&t.strides[axis..])
        .rev()
        .find(|(s, _)| **s != 1);
    let outer = t.sizes[..axis]
        .iter()
        .zip(&t.strides[..axis])
        .rev()
        .find(|(s, _)| **s != 1);
    TensorRef {
        sizes: smallvec![m, n],
        strides: smallvec![outer.map_or(0, |o| *o.1), inner.map_or(0, |i| *i.1)],
        ..t.clone()
    }
}

/// The variance reduction to the mean and `rsqrt(M2 / n + eps)` (`n` and `eps`: scalars 0
/// and 1, in `acc`), as `mean` and `rstd` dtypes: the statistics of the normalizations.
pub(crate) fn mean_rstd_kernel(input: DType, acc: DType, mean: DType, rstd: DType) -> ReduceKernel {
    ReduceKernel {
        per_output: None,
        indexed: false,
        elementwise: None,
        vector: false,
        input,
        scalars: vec![acc, acc],
        pre: Expr::input(0, input).cast(acc),
        op: ReduceOp::Variance,
        acc,
        outputs: vec![
            (mean, Expr::input(1, acc).cast(mean)),
            (
                rstd,
                Expr::input(0, acc)
                    .div(Expr::scalar(0, acc))
                    .add(Expr::scalar(1, acc))
                    .unary(UnaryOp::Rsqrt)
                    .cast(rstd),
            ),
        ],
        columns: false,
    }
}

/// `native_layer_norm(input, normalized_shape, weight?, bias?, eps) -> (out, mean, rstd)`.
fn layer_norm(call: &mut Call) -> Result<()> {
    let input = call.tensor(0)?;
    let dense = dense_copy(&input)?;
    let x = dense.as_ref().map_or(input.clone(), |d| d.tensor.clone());
    let normalized = call.ints(1)?;
    let (weight, bias, eps) = (
        call.optional_tensor(2)?,
        call.optional_tensor(3)?,
        call.double(4)?,
    );
    for (name, t) in [("weight", &weight), ("bias", &bias)] {
        if let Some(t) = t {
            if t.sizes[..] != normalized[..] {
                return Err(Error::runtime(format!(
                    "Expected {name} to be of same shape as normalized_shape, but got {name} of shape {:?} and normalized_shape = {normalized:?}",
                    t.sizes
                )));
            }
        }
    }
    let (axis, m, n) = layer_norm_split(&x, &normalized)?;
    let acc = x.dtype.float_acc();
    let out = call.create(&x.sizes, x.dtype, x.device)?;
    let mut stat_shape = x.sizes[..axis].to_vec();
    stat_shape.extend(std::iter::repeat_n(1, normalized.len()));
    let mean = call.create(&stat_shape, acc, x.device)?;
    let rstd = call.create(&stat_shape, acc, x.device)?;
    if m == 0 {
        return Ok(());
    }
    let rows = as_rows(&x, axis, m, n);
    let flat = |t: &TensorRef| TensorRef {
        sizes: smallvec![m],
        strides: smallvec![1],
        ..t.clone()
    };
    let kernel = mean_rstd_kernel(x.dtype, acc, acc, acc);
    let mut words = ScalarArg::float(n as f64).words(acc);
    words.extend(ScalarArg::float(eps).words(acc));
    run_reduce(
        kernel,
        &rows,
        &[&flat(&mean), &flat(&rstd)],
        &[false, true],
        &words,
    )?;
    // out = (x - mean) * rstd * weight + bias.
    let stat = |t: &TensorRef| TensorRef {
        sizes: smallvec![m, n],
        strides: smallvec![1, 0],
        ..t.clone()
    };
    let (mean_v, rstd_v) = (stat(&mean), stat(&rstd));
    let mut tensors = vec![&rows, &mean_v, &rstd_v];
    let mut value = Expr::input(0, x.dtype)
        .cast(acc)
        .sub(Expr::input(1, acc))
        .mul(Expr::input(2, acc));
    let weight_v = weight.as_ref().map(|w| as_rows(w, 0, m, n)).map(|mut w| {
        w.strides[0] = 0;
        w
    });
    let bias_v = bias.as_ref().map(|b| as_rows(b, 0, m, n)).map(|mut b| {
        b.strides[0] = 0;
        b
    });
    if let Some(w) = &weight_v {
        value = value.mul(Expr::input(tensors.len(), w.dtype).cast(acc));
        tensors.push(w);
    }
    if let Some(b) = &bias_v {
        value = value.add(Expr::input(tensors.len(), b.dtype).cast(acc));
        tensors.push(b);
    }
    let kernel = MapKernel {
        inputs: tensors.iter().map(|t| t.dtype).collect(),
        scalars: smallvec![],
        outputs: smallvec![(x.dtype, value.cast(x.dtype))],
    };
    let out_rows = as_rows(&out, axis, m, n);
    tensors.push(&out_rows);
    run_map(kernel, &tensors, &[m, n], &[])
}

/// `native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight?, bias?,
/// output_mask) -> (grad_input, grad_weight, grad_bias)`:
/// grad_input = rstd * (g - mean(g) - xhat * mean(g * xhat)) with g = grad_out * weight.
fn layer_norm_backward(call: &mut Call) -> Result<()> {
    let (grad, input) = (call.tensor(0)?, call.tensor(1)?);
    let normalized = call.ints(2)?;
    let (mean, rstd) = (call.tensor(3)?, call.tensor(4)?);
    let (weight, bias) = (call.optional_tensor(5)?, call.optional_tensor(6)?);
    let mask = call.ints(7)?;
    let (dense_g, dense_x) = (dense_copy(&grad)?, dense_copy(&input)?);
    let g = dense_g.as_ref().map_or(grad.clone(), |d| d.tensor.clone());
    let x = dense_x.as_ref().map_or(input.clone(), |d| d.tensor.clone());
    let (axis, m, n) = layer_norm_split(&x, &normalized)?;
    let acc = x.dtype.float_acc();
    let device = x.device;
    let (g_rows, x_rows) = (as_rows(&g, axis, m, n), as_rows(&x, axis, m, n));
    let stat = |t: &TensorRef| TensorRef {
        sizes: smallvec![m, n],
        strides: smallvec![1, 0],
        ..t.clone()
    };
    let (mean_v, rstd_v) = (stat(&mean), stat(&rstd));
    let weight_v = weight.as_ref().map(|w| {
        let mut v = as_rows(w, 0, m, n);
        v.strides[0] = 0;
        v
    });
    // xhat and g * weight as float rows.
    let xhat = xhat_expr(x.dtype, mean.dtype, rstd.dtype, acc);
    let gw = match &weight_v {
        Some(w) => Expr::input(3, g.dtype)
            .cast(acc)
            .mul(Expr::input(4, w.dtype).cast(acc)),
        None => Expr::input(3, g.dtype).cast(acc),
    };
    let (gw_rows, gx_rows) = (
        Scratch::contiguous(device, &[m, n], acc)?,
        Scratch::contiguous(device, &[m, n], acc)?,
    );
    let mut tensors = vec![&x_rows, &mean_v, &rstd_v, &g_rows];
    if let Some(w) = &weight_v {
        tensors.push(w);
    }
    let kernel = MapKernel {
        inputs: tensors.iter().map(|t| t.dtype).collect(),
        scalars: smallvec![],
        outputs: smallvec![(acc, gw.clone()), (acc, gw.mul(xhat.clone()))],
    };
    tensors.push(&gw_rows.tensor);
    tensors.push(&gx_rows.tensor);
    run_map(kernel, &tensors, &[m, n], &[])?;
    let row_mean = |source: &TensorRef| -> Result<Scratch> {
        let out = Scratch::contiguous(device, &[m], acc)?;
        let kernel = ReduceKernel {
            per_output: None,
            indexed: false,
            elementwise: None,
            vector: false,
            input: acc,
            scalars: vec![acc],
            pre: Expr::input(0, acc),
            op: ReduceOp::Sum,
            acc,
            outputs: vec![(acc, Expr::input(0, acc).div(Expr::scalar(0, acc)))],
            columns: false,
        };
        let words = ScalarArg::float(n as f64).words(acc);
        run_reduce(kernel, source, &[&out.tensor], &[false, true], &words)?;
        Ok(out)
    };
    let results: [Option<(Vec<i64>, DType)>; 3] = [
        (mask.first() == Some(&1)).then(|| (input.sizes.to_vec(), input.dtype)),
        (mask.get(1) == Some(&1) && weight.is_some()).then(|| {
            (
                weight.as_ref().map_or(vec![], |w| w.sizes.to_vec()),
                x.dtype,
            )
        }),
        (mask.get(2) == Some(&1) && bias.is_some())
            .then(|| (bias.as_ref().map_or(vec![], |b| b.sizes.to_vec()), x.dtype)),
    ];
    if let Some((sizes, dtype)) = &results[0] {
        let grad_input = call.create(sizes, *dtype, device)?;
        let (mean_g, mean_gx) = (row_mean(&gw_rows.tensor)?, row_mean(&gx_rows.tensor)?);
        let broadcast = |t: &TensorRef| TensorRef {
            sizes: smallvec![m, n],
            strides: smallvec![1, 0],
            ..t.clone()
        };
        let (mg, mgx) = (broadcast(&mean_g.tensor), broadcast(&mean_gx.tensor));
        let value = Expr::input(3, acc)
            .sub(Expr::input(4, acc))
            .sub(xhat.mul(Expr::input(5, acc)))
            .mul(Expr::input(2, rstd.dtype).cast(acc));
        let out_rows = as_rows(&grad_input, axis, m, n);
        let tensors = [&x_rows, &mean_v, &rstd_v, &gw_rows.tensor, &mg, &mgx];
        let kernel = MapKernel {
            inputs: tensors.iter().map(|t| t.dtype).collect(),
            scalars: smallvec![],
            outputs: smallvec![(grad_input.dtype, value.cast(grad_input.dtype))],
        };
        let mut all: Vec<&TensorRef> = tensors.to_vec();
        all.push(&out_rows);
        run_map(kernel, &all, &[m, n], &[])?;
    } else {
        call.return_undefined();
    }
    // grad_weight = sum over rows of grad * xhat; grad_bias = sum over rows of grad.
    for (i, result) in results.iter().enumerate().skip(1) {
        let Some((sizes, dtype)) = result else {
            call.return_undefined();
            continue;
        };
        let out = call.create(sizes, *dtype, device)?;
        let view = TensorRef {
            sizes: smallvec![n],
            strides: smallvec![1],
            ..out
        };
        // grad_weight sums grad * xhat, without the weight (dividing it back out would fail
        // on zero weights), so that product is computed here.
        let scratch;
        let pre_source = if i == 1 {
            scratch = Scratch::contiguous(device, &[m, n], acc)?;
            let product = Expr::input(3, g_rows.dtype).cast(acc).mul(xhat_expr(
                x_rows.dtype,
                mean_v.dtype,
                rstd_v.dtype,
                acc,
            ));
            let kernel = MapKernel {
                inputs: smallvec![x_rows.dtype, mean_v.dtype, rstd_v.dtype, g_rows.dtype],
                scalars: smallvec![],
                outputs: smallvec![(acc, product)],
            };
            let tensors = [&x_rows, &mean_v, &rstd_v, &g_rows, &scratch.tensor];
            run_map(kernel, &tensors, &[m, n], &[])?;
            &scratch.tensor
        } else {
            &g_rows
        };
        let kernel = ReduceKernel {
            per_output: None,
            indexed: false,
            elementwise: None,
            vector: false,
            input: pre_source.dtype,
            scalars: vec![],
            pre: Expr::input(0, pre_source.dtype).cast(acc),
            op: ReduceOp::Sum,
            acc,
            outputs: vec![(view.dtype, Expr::input(0, acc).cast(view.dtype))],
            columns: false,
        };
        run_reduce(kernel, pre_source, &[&view], &[true, false], &[])?;
    }
    Ok(())
}

/// `(x - mean) * rstd` over inputs 0, 1, 2 in `acc`.
fn xhat_expr(x: DType, mean: DType, rstd: DType, acc: DType) -> Expr {
    Expr::input(0, x)
        .cast(acc)
        .sub(Expr::input(1, mean).cast(acc))
        .mul(Expr::input(2, rstd).cast(acc))
}
