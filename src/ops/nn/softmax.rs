//! Softmax and log-softmax, forward and backward, built from the reduce and map patterns
//! (cross_entropy is log_softmax then nll_loss).

use smallvec::smallvec;
use std::ops::{Div, Mul, Sub};

use crate::dtype::DType;
use crate::error::Result;
use crate::kernels::{Elementwise, Expr, MapKernel, ReduceKernel, ReduceOp, UnaryOp};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::{run_map, run_reduce};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
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
        columns: false,
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
        strides: crate::ops::core::layout::broadcast_strides(t, sizes).into(),
        sizes: sizes.to_vec().into(),
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
    let value = undefined_rows(
        Expr::input(1, acc),
        if log { shifted } else { shifted.exp() },
    );
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
            // A softmax stores exp(x - m) as it sums it, then scales it by 1 / sum, as the CPU
            // does. An infinite sum comes of m = +inf (shifted by 0), where the CPU's
            // exp(inf - inf) makes the row NaN.
            stashed: (!log && out.dtype == acc).then(|| {
                let sum = Expr::input(3, acc);
                let inverse = sum.clone().unary(UnaryOp::IsInf).select(
                    Expr::constant(acc, f64::NAN),
                    Expr::constant(acc, 1.0).div(sum),
                );
                Expr::input(0, acc).mul(inverse)
            }),
        }),
        vector: false,
        input: a.dtype,
        scalars: vec![],
        pre: pre.clone(),
        op: ReduceOp::LogSumExp,
        acc,
        outputs: vec![],
        columns: false,
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
    let value = undefined_rows(
        Expr::input(2, acc),
        if log { shifted } else { shifted.exp() },
    );
    let kernel = MapKernel {
        inputs: smallvec![a.dtype, acc, acc],
        scalars: smallvec![],
        outputs: smallvec![(out.dtype, value.cast(out.dtype))],
    };
    let (m, log_sum) = (
        expand(&parts[0].tensor, &a.sizes),
        expand(&parts[1].tensor, &a.sizes),
    );
    run_map(kernel, &[&a, &m, &log_sum, &out], &a.sizes, &[])
}

/// `value`, or NaN in a row whose log of the sum of exp(x - m) is infinite: a row holding +inf
/// (shifted by 0, not m) or only -inf, which the CPU's exp(x - m) makes NaN throughout.
fn undefined_rows(log_sum: Expr, value: Expr) -> Expr {
    let nan = Expr::constant(value.dtype(), f64::NAN);
    log_sum.unary(UnaryOp::IsInf).select(nan, value)
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
            inputs: smallvec![g.dtype, y.dtype],
            scalars: smallvec![],
            outputs: smallvec![(acc, value)],
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
        inputs: smallvec![g.dtype, y.dtype, acc],
        scalars: smallvec![],
        outputs: smallvec![(out.dtype, value.cast(out.dtype))],
    };
    run_map(kernel, &[&g, &y, &sum_view, &out], &g.sizes, &[])
}

pub const OPS: &[(&str, OpFn)] = &[
    ("_softmax.out", |c| softmax(c, false)),
    ("_log_softmax.out", |c| softmax(c, true)),
    ("_softmax_backward_data.out", |c| softmax_backward(c, false)),
    ("_log_softmax_backward_data.out", |c| {
        softmax_backward(c, true)
    }),
];
