//! Softmax, log-softmax and the negative log-likelihood loss, forward and backward, built from
//! the reduce and map patterns (cross_entropy is log_softmax then nll_loss).

use std::ops::{Add, Div, Mul, Neg, Sub};

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{BinaryOp, Elementwise, Expr, MapKernel, ReduceKernel, ReduceOp, UnaryOp};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::{run_map, run_reduce};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::index::index_launch::{run_index, Fault, IndexArg};
use crate::ops::reduce::reduce_launch::run_reduce_elementwise;
use crate::ops::reduce::reductions::wrap_dim;

/// `t` with dimension `dim` dropped: the kept-dimension view of a keepdim result.
fn drop_dim(t: &TensorRef, dim: usize) -> TensorRef {
    let mut v = t.clone();
    if !v.sizes.is_empty() {
        v.sizes.remove(dim);
        v.strides.remove(dim);
    }
    v
}

/// Reduces `input` over `dim` into new contiguous keepdim tensors of dtype `acc`, one per
/// output expression (of the accumulator, input 0, and the op's second value, input 1).
fn reduce_dim(
    input: &TensorRef,
    dim: usize,
    op: ReduceOp,
    pre: Expr,
    acc: DType,
    values: Vec<Expr>,
) -> Result<Vec<Scratch>> {
    let mut shape = input.sizes.clone();
    let mut reduced = vec![false; input.sizes.len()];
    if !shape.is_empty() {
        shape[dim] = 1;
        reduced[dim] = true;
    }
    let outs = values
        .iter()
        .map(|_| Scratch::contiguous(input.device, &shape, acc))
        .collect::<Result<Vec<_>>>()?;
    let views: Vec<TensorRef> = outs.iter().map(|o| drop_dim(&o.tensor, dim)).collect();
    let kernel = ReduceKernel {
        per_output: None,
        indexed: false,
        elementwise: None,
        vector: false,
        input: input.dtype,
        scalars: vec![],
        pre,
        op,
        acc,
        outputs: values.into_iter().map(|v| (acc, v)).collect(),
    };
    run_reduce(
        kernel,
        input,
        &views.iter().collect::<Vec<_>>(),
        &reduced,
        &[],
    )?;
    Ok(outs)
}

/// `t` broadcast to `sizes`.
fn expand(t: &TensorRef, sizes: &[i64]) -> TensorRef {
    TensorRef {
        strides: crate::ops::core::layout::broadcast_strides(t, sizes),
        sizes: sizes.to_vec(),
        ..t.clone()
    }
}

/// `_softmax` / `_log_softmax`: `(self, dim, half_to_float, out)`.
fn softmax(call: &mut Call, log: bool) -> Result<()> {
    let a = call.tensor(0)?;
    let dim = wrap_dim(call.int(1)?, a.sizes.len())?;
    let half_to_float = call.boolean(2)?;
    if !a.dtype.is_float() {
        return Err(crate::ops::core::pointwise::not_implemented_for(
            "softmax_lastdim_kernel_impl",
            a.dtype,
        ));
    }
    let result = if half_to_float { DType::F32 } else { a.dtype };
    let out = call.result(Dest::Arg(3), &a.sizes, result, a.device)?;
    if a.numel() == 0 {
        return Ok(());
    }
    let acc = a.dtype.float_acc();
    // The maximum m and log(sum(exp(x - m))) separately: (x - m) - log_sum keeps the bits
    // that m + log_sum would round away.
    let pre = Expr::input(0, a.dtype).cast(acc);
    // Rows that fit one work item: reduced and rewritten by one launch (the row's log of the
    // sum of exp(x - m), then per element with the shift m).
    let shifted = pre
        .clone()
        .sub(Expr::input(2, acc))
        .sub(Expr::input(1, acc));
    let value = if log { shifted } else { shifted.exp() };
    let mut reduced = vec![false; a.sizes.len()];
    if !reduced.is_empty() {
        reduced[dim] = true;
    }
    let fused = ReduceKernel {
        per_output: None,
        indexed: false,
        elementwise: Some(Elementwise {
            dtype: out.dtype,
            row: Expr::input(0, acc).unary(UnaryOp::Log),
            value: value.cast(out.dtype),
        }),
        vector: false,
        input: a.dtype,
        scalars: vec![],
        pre: pre.clone(),
        op: ReduceOp::LogSumExp,
        acc,
        outputs: vec![],
    };
    if run_reduce_elementwise(fused, &a, &[], &reduced, &out, &[])? {
        return Ok(());
    }
    let parts = reduce_dim(
        &a,
        dim,
        ReduceOp::LogSumExp,
        pre,
        acc,
        vec![Expr::input(1, acc), Expr::input(0, acc).unary(UnaryOp::Log)],
    )?;
    let shifted = Expr::input(0, a.dtype)
        .cast(acc)
        .sub(Expr::input(1, acc))
        .sub(Expr::input(2, acc));
    let value = if log { shifted } else { shifted.exp() };
    let kernel = MapKernel {
        inputs: vec![a.dtype, acc, acc],
        scalars: vec![],
        outputs: vec![(out.dtype, value.cast(out.dtype))],
    };
    let (m, log_sum) = (
        expand(&parts[0].tensor, &a.sizes),
        expand(&parts[1].tensor, &a.sizes),
    );
    run_map(kernel, &[&a, &m, &log_sum, &out], &a.sizes, &[])
}

/// `_softmax_backward_data` / `_log_softmax_backward_data`:
/// `(grad_output, output, dim, input_dtype, out)`.
fn softmax_backward(call: &mut Call, log: bool) -> Result<()> {
    let (g, y) = (call.tensor(0)?, call.tensor(1)?);
    let dim = wrap_dim(call.int(2)?, g.sizes.len())?;
    let input_dtype = call.dtype(3)?.unwrap_or(g.dtype);
    let out = call.result(Dest::Arg(4), &g.sizes, input_dtype, g.device)?;
    if g.numel() == 0 {
        return Ok(());
    }
    let acc = g.dtype.float_acc();
    // log_softmax sums the gradient; softmax sums grad * output, computed first.
    let product = if log {
        None
    } else {
        let product = Scratch::contiguous(g.device, &g.sizes, acc)?;
        let value = Expr::input(0, g.dtype)
            .cast(acc)
            .mul(Expr::input(1, y.dtype).cast(acc));
        let kernel = MapKernel {
            inputs: vec![g.dtype, y.dtype],
            scalars: vec![],
            outputs: vec![(acc, value)],
        };
        run_map(kernel, &[&g, &y, &product.tensor], &g.sizes, &[])?;
        Some(product)
    };
    let summed = product.as_ref().map_or(&g, |p| &p.tensor);
    let pre = Expr::input(0, summed.dtype).cast(acc);
    let sum = reduce_dim(
        summed,
        dim,
        ReduceOp::Sum,
        pre,
        acc,
        vec![Expr::input(0, acc)],
    )?;
    let sum_view = expand(&sum[0].tensor, &g.sizes);
    let (gx, yx, sx) = (
        Expr::input(0, g.dtype).cast(acc),
        Expr::input(1, y.dtype).cast(acc),
        Expr::input(2, acc),
    );
    let value = if log {
        gx.sub(yx.exp().mul(sx))
    } else {
        yx.mul(gx.sub(sx))
    };
    let kernel = MapKernel {
        inputs: vec![g.dtype, y.dtype, acc],
        scalars: vec![],
        outputs: vec![(out.dtype, value.cast(out.dtype))],
    };
    run_map(kernel, &[&g, &y, &sum_view, &out], &g.sizes, &[])
}

/// The nll_loss arguments viewed as `[n, c]` input, `[n, c]`-broadcast target and weight.
struct Nll {
    input: TensorRef,
    target: TensorRef,
    weight: Option<TensorRef>,
    reduction: i64,
    ignore_index: i64,
    n: i64,
    c: i64,
}

fn nll_args(call: &Call, input: usize) -> Result<Nll> {
    nll_parts(
        call.tensor(input)?,
        call.tensor(input + 1)?,
        call.optional_tensor(input + 2)?,
        call.int(input + 3)?,
        call.int(input + 4)?,
    )
}

fn nll_parts(
    x: TensorRef,
    t: TensorRef,
    weight: Option<TensorRef>,
    reduction: i64,
    ignore_index: i64,
) -> Result<Nll> {
    if x.sizes.is_empty() || x.sizes.len() > 2 {
        return Err(Error::runtime(format!(
            "input tensor should be 1D or 2D but got {}D",
            x.sizes.len()
        )));
    }
    if t.dtype != DType::I64 && t.dtype != DType::U8 {
        return Err(Error::runtime(format!(
            "expected scalar type Long but found {}",
            t.dtype.torch_name()
        )));
    }
    let (n, c) = if x.sizes.len() == 2 {
        (x.sizes[0], x.sizes[1])
    } else {
        (1, x.sizes[0])
    };
    let t_n = if t.sizes.is_empty() { 1 } else { t.sizes[0] };
    if t.sizes.len() > 1 || t_n != n {
        return Err(Error::value(format!(
            "Expected input batch_size ({n}) to match target batch_size ({t_n})."
        )));
    }
    if let Some(w) = &weight {
        if w.numel() != c as u64 {
            return Err(Error::runtime(format!(
                "weight tensor should be defined either for all {c} classes or no classes but got weight tensor of shape: {:?}",
                w.sizes
            )));
        }
    }
    let shape = [n, c];
    let as_nc = |t: &TensorRef, strides: [i64; 2]| TensorRef {
        sizes: shape.to_vec(),
        strides: strides.to_vec(),
        ..t.clone()
    };
    let x_strides = if x.sizes.len() == 2 {
        [x.strides[0], x.strides[1]]
    } else {
        [0, x.strides[0]]
    };
    let t_stride = t.strides.first().copied().unwrap_or(0);
    let nll = Nll {
        input: as_nc(&x, x_strides),
        target: as_nc(&t, [t_stride, 0]),
        weight: weight.map(|w| as_nc(&w, [0, w.strides[0]])),
        reduction,
        ignore_index,
        n,
        c,
    };
    nll.check_targets()?;
    Ok(nll)
}

impl Nll {
    /// Reports a class target outside `[0, c)` other than `ignore_index` at the next
    /// synchronising call, with CPU's IndexError (CUDA asserts on the device): each row's
    /// target picks its input element through an index kernel, which checks the bound.
    fn check_targets(&self) -> Result<()> {
        let device = self.input.device;
        let target = TensorRef {
            sizes: vec![self.n],
            strides: vec![self.target.strides[0]],
            ..self.target.clone()
        };
        let picked_class = Scratch::contiguous(device, &[self.n], DType::I64)?;
        let t = Expr::input(0, target.dtype).cast(DType::I64);
        let ignored = t.clone().eq(Expr::scalar(0, DType::I64));
        let kernel = MapKernel {
            inputs: vec![target.dtype],
            scalars: vec![DType::I64],
            outputs: vec![(
                DType::I64,
                ignored.select(Expr::constant(DType::I64, 0.0), t),
            )],
        };
        let words = ScalarArg::int(self.ignore_index).words(DType::I64);
        run_map(kernel, &[&target, &picked_class.tensor], &[self.n], &words)?;
        let picked = Scratch::contiguous(device, &[self.n], self.input.dtype)?;
        let class = IndexArg {
            tensor: &picked_class.tensor,
            strides: vec![1],
            loop_strides: vec![],
            bound: self.c,
            target: self.input.strides[1],
        };
        run_index(
            false,
            &[self.n],
            (&self.input, vec![self.input.strides[0]]),
            (&picked.tensor, vec![1]),
            &[class],
            Fault::index("Target is out of bounds.".to_string()),
        )
    }

    /// Map inputs (input, target, weight), whether an element is its row's target (and not
    /// ignored), and its class weight.
    fn picked_weight(&self, acc: DType) -> (Vec<&TensorRef>, Expr, Expr) {
        let class = Expr::Index.binary(BinaryOp::Rem, Expr::scalar(0, DType::I64));
        let target = Expr::input(1, self.target.dtype).cast(DType::I64);
        let picked = class
            .eq(target.clone())
            .and(target.binary(BinaryOp::Ne, Expr::scalar(1, DType::I64)));
        let mut inputs = vec![&self.input, &self.target];
        let w = match &self.weight {
            Some(w) => {
                inputs.push(w);
                Expr::input(2, w.dtype).cast(acc)
            }
            None => Expr::constant(acc, 1.0),
        };
        (inputs, picked, w)
    }

    fn scalar_words(&self) -> Vec<u32> {
        let mut words = ScalarArg::int(self.c).words(DType::I64);
        words.extend(ScalarArg::int(self.ignore_index).words(DType::I64));
        words
    }
}

/// `nll_loss_forward.output(self, target, weight, reduction, ignore_index, *, output, total_weight)`.
fn nll_loss_forward(call: &mut Call) -> Result<()> {
    let nll = nll_args(call, 0)?;
    let none_shape: Vec<i64> = if call.tensor(0)?.sizes.len() == 2 {
        vec![nll.n]
    } else {
        vec![]
    };
    nll_forward(call, nll, none_shape, [Dest::Arg(5), Dest::Arg(6)])
}

/// The forward of `nll` into `dests`: the loss (`none_shape` for reduction 'none') and the
/// total weight, created or returned in that order.
fn nll_forward(call: &mut Call, nll: Nll, none_shape: Vec<i64>, dests: [Dest; 2]) -> Result<()> {
    let dtype = nll.input.dtype;
    if !dtype.is_float() {
        return Err(crate::ops::core::pointwise::not_implemented_for(
            "nll_loss_out_frame",
            dtype,
        ));
    }
    let acc = dtype.float_acc();
    let device = nll.input.device;
    let (n, c) = (nll.n, nll.c);
    // Per element: the weighted negated log-probability and the weight, zero off target.
    let (mut inputs, picked, w) = nll.picked_weight(acc);
    let loss_nc = Scratch::contiguous(device, &[n, c], acc)?;
    let weight_nc = Scratch::contiguous(device, &[n, c], acc)?;
    let x = Expr::input(0, dtype).cast(acc);
    let zero = Expr::constant(acc, 0.0);
    let kernel = MapKernel {
        inputs: inputs.iter().map(|t| t.dtype).collect(),
        scalars: vec![DType::I64, DType::I64],
        outputs: vec![
            (
                acc,
                picked.clone().select(x.neg().mul(w.clone()), zero.clone()),
            ),
            (acc, picked.select(w, zero)),
        ],
    };
    inputs.push(&loss_nc.tensor);
    inputs.push(&weight_nc.tensor);
    run_map(kernel, &inputs, &[n, c], &nll.scalar_words())?;
    if !(0..=2).contains(&nll.reduction) {
        return Err(Error::value(format!(
            "{} is not a valid value for reduction",
            nll.reduction
        )));
    }
    let out_shape = if nll.reduction == 0 {
        none_shape
    } else {
        vec![]
    };
    let out = call.result(dests[0], &out_shape, dtype, device)?;
    let total_weight = call.result(dests[1], &[], dtype, device)?;
    // Sums of the [n, c] terms over both dimensions, or per row.
    let sum = |source: &TensorRef, out: &TensorRef, reduced: &[bool]| -> Result<()> {
        let kernel = ReduceKernel {
            per_output: None,
            indexed: false,
            elementwise: None,
            vector: false,
            input: acc,
            scalars: vec![],
            pre: Expr::input(0, acc),
            op: ReduceOp::Sum,
            acc,
            outputs: vec![(out.dtype, Expr::input(0, acc).cast(out.dtype))],
        };
        run_reduce(kernel, source, &[out], reduced, &[])
    };
    let sum_all = |source: &TensorRef, out: &TensorRef| sum(source, out, &[true, true]);
    let weight_sum = Scratch::contiguous(device, &[], acc)?;
    sum_all(&weight_nc.tensor, &weight_sum.tensor)?;
    crate::ops::shape::copy::copy(&total_weight, &weight_sum.tensor)?;
    match nll.reduction {
        0 => {
            let out_view = TensorRef {
                sizes: vec![n],
                strides: vec![out.strides.last().copied().unwrap_or(0)],
                ..out
            };
            sum(&loss_nc.tensor, &out_view, &[false, true])
        }
        _ => {
            let loss_sum = Scratch::contiguous(device, &[], acc)?;
            sum_all(&loss_nc.tensor, &loss_sum.tensor)?;
            let value = if nll.reduction == 1 {
                Expr::input(0, acc).div(Expr::input(1, acc))
            } else {
                Expr::input(0, acc)
            };
            let kernel = MapKernel {
                inputs: vec![acc, acc],
                scalars: vec![],
                outputs: vec![(dtype, value.cast(dtype))],
            };
            run_map(
                kernel,
                &[&loss_sum.tensor, &weight_sum.tensor, &out],
                &[],
                &[],
            )
        }
    }
}

/// `nll_loss_backward.grad_input(grad_output, self, target, weight, reduction, ignore_index,
/// total_weight, *, grad_input)`.
fn nll_loss_backward(call: &mut Call) -> Result<()> {
    let g = call.tensor(0)?;
    let nll = nll_args(call, 1)?;
    let total_weight = call.tensor(6)?;
    let x = call.tensor(1)?;
    let out = call.result(Dest::Arg(7), &x.sizes, x.dtype, x.device)?;
    let out_view = TensorRef {
        sizes: vec![nll.n, nll.c],
        strides: if x.sizes.len() == 2 {
            out.strides.clone()
        } else {
            vec![0, out.strides[0]]
        },
        ..out
    };
    let g_stride = g.strides.first().copied().unwrap_or(0);
    nll_backward_into(&g, g_stride, &nll, &total_weight, &out_view)
}

/// The input gradient of `nll` into the `[n, c]` view `out_view`; `g` is the loss gradient,
/// read along the rows with `g_stride` for reduction 'none'.
fn nll_backward_into(
    g: &TensorRef,
    g_stride: i64,
    nll: &Nll,
    total_weight: &TensorRef,
    out_view: &TensorRef,
) -> Result<()> {
    let dtype = out_view.dtype;
    let acc = dtype.float_acc();
    let (n, c) = (nll.n, nll.c);
    let (mut inputs, picked, w) = nll.picked_weight(acc);
    let w = picked.select(w, Expr::constant(acc, 0.0));
    let grad_index = inputs.len();
    let g_view = TensorRef {
        sizes: vec![n, c],
        strides: if nll.reduction == 0 && !g.sizes.is_empty() {
            vec![g_stride, 0]
        } else {
            vec![0, 0]
        },
        ..g.clone()
    };
    let tw_view = TensorRef {
        sizes: vec![n, c],
        strides: vec![0, 0],
        ..total_weight.clone()
    };
    inputs.push(&g_view);
    inputs.push(&tw_view);
    let mut value = w.neg().mul(Expr::input(grad_index, g.dtype).cast(acc));
    if nll.reduction == 1 {
        value = value.div(Expr::input(grad_index + 1, total_weight.dtype).cast(acc));
    }
    let kernel = MapKernel {
        inputs: inputs.iter().map(|t| t.dtype).collect(),
        scalars: vec![DType::I64, DType::I64],
        outputs: vec![(dtype, value.cast(dtype))],
    };
    inputs.push(out_view);
    run_map(kernel, &inputs, &[n, c], &nll.scalar_words())
}

/// `[N, C, d...]` as a contiguous `[N * d..., C]` copy (classes last), and `N * d...`.
fn classes_last(x: &TensorRef) -> Result<(Scratch, i64)> {
    let rank = x.sizes.len();
    let mut order: Vec<usize> = (0..rank).filter(|&d| d != 1).collect();
    order.push(1);
    let permuted = TensorRef {
        sizes: order.iter().map(|&d| x.sizes[d]).collect(),
        strides: order.iter().map(|&d| x.strides[d]).collect(),
        ..x.clone()
    };
    let dense = Scratch::contiguous(x.device, &permuted.sizes, x.dtype)?;
    crate::ops::shape::copy::copy(&dense.tensor, &permuted)?;
    let rows = permuted.sizes[..rank - 1].iter().product();
    Ok((dense, rows))
}

/// `t` as a contiguous vector of its `rows` elements.
fn flat_rows(t: &TensorRef, rows: i64) -> Result<(Scratch, TensorRef)> {
    let dense = Scratch::contiguous(t.device, &t.sizes, t.dtype)?;
    crate::ops::shape::copy::copy(&dense.tensor, t)?;
    let view = TensorRef {
        sizes: vec![rows],
        strides: vec![1],
        ..dense.tensor.clone()
    };
    Ok((dense, view))
}

/// The `[N * H * W, C]` problem of a `[N, C, H, W]` nll_loss2d call starting at argument `at`.
fn nll_2d(call: &Call, at: usize) -> Result<(Nll, Vec<Scratch>, Vec<i64>)> {
    let x = call.tensor(at)?;
    let t = call.tensor(at + 1)?;
    if x.sizes.len() != 4 || t.sizes.len() != 3 {
        return Err(Error::runtime(format!(
            "only batches of spatial targets supported (3D tensors) but got targets of dimension: {}",
            t.sizes.len()
        )));
    }
    let spatial = vec![x.sizes[0], x.sizes[2], x.sizes[3]];
    if t.sizes != spatial {
        return Err(Error::runtime(format!(
            "size mismatch (got input: {:?} , target: {:?}",
            x.sizes, t.sizes
        )));
    }
    let (dense, rows) = classes_last(&x)?;
    let (targets, target_view) = flat_rows(&t, rows)?;
    let input_view = TensorRef {
        sizes: vec![rows, x.sizes[1]],
        strides: vec![x.sizes[1], 1],
        ..dense.tensor.clone()
    };
    let nll = nll_parts(
        input_view,
        target_view,
        call.optional_tensor(at + 2)?,
        call.int(at + 3)?,
        call.int(at + 4)?,
    )?;
    Ok((nll, vec![dense, targets], spatial))
}

/// `nll_loss2d_forward.output(self, target, weight, reduction, ignore_index, *, output,
/// total_weight)`.
fn nll_loss2d_forward(call: &mut Call, dests: [Dest; 2]) -> Result<()> {
    let (nll, _keep, spatial) = nll_2d(call, 0)?;
    nll_forward(call, nll, spatial, dests)
}

/// `nll_loss2d_backward.grad_input(grad_output, self, target, weight, reduction,
/// ignore_index, total_weight, *, grad_input)`.
fn nll_loss2d_backward(call: &mut Call, dest: Dest) -> Result<()> {
    let g = call.tensor(0)?;
    let (nll, _keep, _) = nll_2d(call, 1)?;
    let total_weight = call.tensor(6)?;
    let x = call.tensor(1)?;
    let out = call.result(dest, &x.sizes, x.dtype, x.device)?;
    let (_g_keep, g_rows) = if nll.reduction == 0 {
        let (keep, view) = flat_rows(&g, nll.n)?;
        (Some(keep), view)
    } else {
        (None, g.clone())
    };
    let grad = Scratch::contiguous(x.device, &[nll.n, nll.c], x.dtype)?;
    nll_backward_into(&g_rows, 1, &nll, &total_weight, &grad.tensor)?;
    // Back to [N, C, H, W]: the gradient rows are (n, h, w) and the columns classes.
    let (n, c, h, w) = (x.sizes[0], x.sizes[1], x.sizes[2], x.sizes[3]);
    let source = TensorRef {
        sizes: vec![n, c, h, w],
        strides: vec![h * w * c, 1, w * c, c],
        ..grad.tensor.clone()
    };
    crate::ops::shape::copy::copy(&out, &source)
}

pub const OPS: &[(&str, OpFn)] = &[
    ("_softmax.out", |c| softmax(c, false)),
    ("_log_softmax.out", |c| softmax(c, true)),
    ("_softmax_backward_data.out", |c| softmax_backward(c, false)),
    ("_log_softmax_backward_data.out", |c| {
        softmax_backward(c, true)
    }),
    ("nll_loss_forward.output", nll_loss_forward),
    ("nll_loss2d_forward", |c| {
        nll_loss2d_forward(c, [Dest::New, Dest::New])
    }),
    ("nll_loss2d_forward.output", |c| {
        nll_loss2d_forward(c, [Dest::Arg(5), Dest::Arg(6)])
    }),
    ("nll_loss2d_backward", |c| nll_loss2d_backward(c, Dest::New)),
    ("nll_loss2d_backward.grad_input", |c| {
        nll_loss2d_backward(c, Dest::Arg(7))
    }),
    ("nll_loss_backward.grad_input", nll_loss_backward),
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
        sizes: vec![m, n],
        strides: vec![outer.map_or(0, |o| *o.1), inner.map_or(0, |i| *i.1)],
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
            if t.sizes != normalized {
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
        sizes: vec![m],
        strides: vec![1],
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
        sizes: vec![m, n],
        strides: vec![1, 0],
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
        scalars: vec![],
        outputs: vec![(x.dtype, value.cast(x.dtype))],
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
        sizes: vec![m, n],
        strides: vec![1, 0],
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
        scalars: vec![],
        outputs: vec![(acc, gw.clone()), (acc, gw.mul(xhat.clone()))],
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
        };
        let words = ScalarArg::float(n as f64).words(acc);
        run_reduce(kernel, source, &[&out.tensor], &[false, true], &words)?;
        Ok(out)
    };
    let results: [Option<(Vec<i64>, DType)>; 3] = [
        (mask.first() == Some(&1)).then(|| (input.sizes.clone(), input.dtype)),
        (mask.get(1) == Some(&1) && weight.is_some())
            .then(|| (weight.as_ref().map_or(vec![], |w| w.sizes.clone()), x.dtype)),
        (mask.get(2) == Some(&1) && bias.is_some())
            .then(|| (bias.as_ref().map_or(vec![], |b| b.sizes.clone()), x.dtype)),
    ];
    if let Some((sizes, dtype)) = &results[0] {
        let grad_input = call.create(sizes, *dtype, device)?;
        let (mean_g, mean_gx) = (row_mean(&gw_rows.tensor)?, row_mean(&gx_rows.tensor)?);
        let broadcast = |t: &TensorRef| TensorRef {
            sizes: vec![m, n],
            strides: vec![1, 0],
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
            scalars: vec![],
            outputs: vec![(grad_input.dtype, value.cast(grad_input.dtype))],
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
            sizes: vec![n],
            strides: vec![1],
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
                inputs: vec![x_rows.dtype, mean_v.dtype, rstd_v.dtype, g_rows.dtype],
                scalars: vec![],
                outputs: vec![(acc, product)],
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
