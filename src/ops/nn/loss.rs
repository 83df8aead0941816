//! Elementwise losses (mse, smooth L1, Huber, binary cross-entropy), forward and backward: a map for the
//! per-element term, then a reduction for 'mean' and 'sum'.

use smallvec::smallvec;
use std::ops::{Div, Mul, Sub};

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Expr, MapKernel, ReduceKernel, ReduceOp, UnaryOp};
use crate::ops::core::call::{Call, Dest, Operand};
use crate::ops::core::launch::{run_map, run_reduce};
use crate::ops::core::layout::{broadcast_shapes, broadcast_strides};
use crate::ops::core::pointwise::{common_dtype, pointwise};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;

/// Which loss, with its parameter (smooth L1's beta, Huber's delta).
#[derive(Clone, Copy)]
enum Kind {
    Mse,
    SmoothL1(f64),
    Huber(f64),
}

/// The per-element loss of the difference `d`.
fn term(kind: Kind, d: Expr, dtype: DType) -> Expr {
    let c = |v: f64| Expr::constant(dtype, v);
    let a = d.clone().unary(UnaryOp::Abs);
    match kind {
        Kind::Mse => d.clone().mul(d),
        Kind::SmoothL1(0.0) => a,
        Kind::SmoothL1(beta) => a.clone().lt(c(beta)).select(
            c(0.5).mul(d.clone()).mul(d).div(c(beta)),
            a.sub(c(0.5 * beta)),
        ),
        Kind::Huber(delta) => a.clone().lt(c(delta)).select(
            c(0.5).mul(d.clone()).mul(d),
            c(delta).mul(a.sub(c(0.5 * delta))),
        ),
    }
}

/// The derivative of the per-element loss with respect to the input, at difference `d`.
fn slope(kind: Kind, d: Expr, dtype: DType) -> Expr {
    let c = |v: f64| Expr::constant(dtype, v);
    let sign = d.clone().unary(UnaryOp::Sign);
    let a = d.clone().unary(UnaryOp::Abs);
    match kind {
        Kind::Mse => c(2.0).mul(d),
        Kind::SmoothL1(0.0) => sign,
        Kind::SmoothL1(beta) => a.lt(c(beta)).select(d.div(c(beta)), sign),
        Kind::Huber(delta) => a.lt(c(delta)).select(d, c(delta).mul(sign)),
    }
}

/// PyTorch's checks of the loss parameter.
fn check(kind: Kind) -> Result<()> {
    match kind {
        Kind::Huber(delta) if delta <= 0.0 => Err(Error::runtime(
            "huber_loss does not support non-positive values for delta.",
        )),
        Kind::SmoothL1(beta) if beta < 0.0 => Err(Error::runtime(
            "smooth_l1_loss does not support negative values for beta.",
        )),
        _ => Ok(()),
    }
}

fn reduction(call: &Call, index: usize) -> Result<i64> {
    let r = call.int(index)?;
    if !(0..=2).contains(&r) {
        return Err(Error::value(format!(
            "{r} is not a valid value for reduction"
        )));
    }
    Ok(r)
}

/// Forward: `(self, target, reduction[, param][, *, out])`.
fn forward(call: &mut Call, kind: Kind, dest: Dest) -> Result<()> {
    check(kind)?;
    let (x, t) = (call.tensor(0)?, call.tensor(1)?);
    let reduction = reduction(call, 2)?;
    let dtype = common_dtype(&[&Operand::Tensor(x.clone()), &Operand::Tensor(t.clone())])?;
    if reduction == 0 {
        let (xo, to) = (Operand::Tensor(x), Operand::Tensor(t));
        return pointwise(call, &[&xo, &to], dest, dtype, dtype, |e| {
            term(kind, e[0].clone().sub(e[1].clone()), dtype)
        });
    }
    let acc = dtype.float_acc();
    let shape = broadcast_shapes(&[&x.sizes, &t.sizes])?;
    let terms = Scratch::contiguous(x.device, &shape, acc)?;
    let expand = |v: &TensorRef| TensorRef {
        strides: broadcast_strides(v, &shape).into(),
        sizes: shape.clone(),
        ..v.clone()
    };
    let kernel = MapKernel {
        inputs: smallvec![x.dtype, t.dtype],
        scalars: smallvec![],
        outputs: smallvec![(
            acc,
            term(
                kind,
                Expr::input(0, x.dtype)
                    .cast(acc)
                    .sub(Expr::input(1, t.dtype).cast(acc)),
                acc,
            ),
        )],
    };
    run_map(
        kernel,
        &[&expand(&x), &expand(&t), &terms.tensor],
        &shape,
        &[],
    )?;
    reduce_terms(call, dest, &terms.tensor, reduction, dtype)
}

/// The 'mean' (reduction 1) or 'sum' (2) of the per-element `terms` as a `dtype` scalar.
fn reduce_terms(
    call: &mut Call,
    dest: Dest,
    terms: &TensorRef,
    reduction: i64,
    dtype: DType,
) -> Result<()> {
    let acc = terms.dtype;
    let result = call.result(dest, &[], dtype, terms.device)?;
    let count = terms.numel() as f64;
    let value = if reduction == 1 {
        Expr::input(0, acc).div(Expr::scalar(0, acc))
    } else {
        Expr::input(0, acc)
    };
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
        outputs: vec![(result.dtype, value.cast(result.dtype))],
        columns: false,
    };
    let reduced = vec![true; terms.sizes.len()];
    let words = ScalarArg::float(count).words(acc);
    run_reduce(kernel, terms, &[&result], &reduced, &words)
}

/// `binary_cross_entropy(self, target, weight, reduction[, *, out])`: `-w (t log x + (1 - t)
/// log(1 - x))` with each logarithm clamped at -100, as PyTorch computes it.
fn bce_forward(call: &mut Call, dest: Dest) -> Result<()> {
    let (x, t) = (call.tensor(0)?, call.tensor(1)?);
    let weight = call.optional_tensor(2)?;
    let reduction = reduction(call, 3)?;
    if x.sizes != t.sizes {
        return Err(Error::value(format!(
            "Using a target size ({:?}) that is different to the input size ({:?}) is deprecated. Please ensure they have the same size.",
            t.sizes, x.sizes
        )));
    }
    let dtype = x.dtype;
    let term = |e: &[Expr], ty: DType| {
        let c = |v: f64| Expr::constant(ty, v);
        let (x, t) = (e[0].clone(), e[1].clone());
        let log_x = x.clone().unary(UnaryOp::Log).max(c(-100.0));
        let log_1mx = (-x).log1p().max(c(-100.0));
        let loss = (t.clone() - c(1.0)) * log_1mx - t * log_x;
        match e.get(2) {
            Some(w) => loss * w.clone(),
            None => loss,
        }
    };
    let mut operands = vec![Operand::Tensor(x.clone()), Operand::Tensor(t.clone())];
    operands.extend(weight.clone().map(Operand::Tensor));
    let refs: Vec<&Operand> = operands.iter().collect();
    if reduction == 0 {
        return pointwise(call, &refs, dest, dtype, dtype, |e| term(e, dtype));
    }
    let acc = dtype.float_acc();
    let terms = Scratch::contiguous(x.device, &x.sizes, acc)?;
    let mut tensors = vec![x.clone(), t.clone()];
    if let Some(w) = &weight {
        tensors.push(TensorRef {
            strides: broadcast_strides(w, &x.sizes).into(),
            sizes: x.sizes.clone(),
            ..w.clone()
        });
    }
    let inputs: Vec<Expr> = tensors
        .iter()
        .enumerate()
        .map(|(i, t)| Expr::input(i, t.dtype).cast(acc))
        .collect();
    let kernel = MapKernel {
        inputs: tensors.iter().map(|t| t.dtype).collect(),
        scalars: smallvec![],
        outputs: smallvec![(acc, term(&inputs, acc))],
    };
    let mut args: Vec<&TensorRef> = tensors.iter().collect();
    args.push(&terms.tensor);
    run_map(kernel, &args, &x.sizes, &[])?;
    reduce_terms(call, dest, &terms.tensor, reduction, dtype)
}

/// `binary_cross_entropy_backward(grad_output, self, target, weight, reduction[, *,
/// grad_input])`: `g w (x - t) / max(x (1 - x), 1e-12)`, over the count for 'mean'.
fn bce_backward(call: &mut Call, dest: Dest) -> Result<()> {
    let (g, x, t) = (call.operand(0)?, call.tensor(1)?, call.operand(2)?);
    let weight = call.optional_tensor(3)?;
    let reduction = reduction(call, 4)?;
    let scale = if reduction == 1 {
        1.0 / x.numel().max(1) as f64
    } else {
        1.0
    };
    let dtype = x.dtype;
    let mut operands = vec![
        g,
        Operand::Tensor(x),
        t,
        Operand::Scalar(ScalarArg::float(scale)),
    ];
    operands.extend(weight.map(Operand::Tensor));
    let refs: Vec<&Operand> = operands.iter().collect();
    pointwise(call, &refs, dest, dtype, dtype, |e| {
        let c = |v: f64| Expr::constant(dtype, v);
        let (g, x, t) = (e[0].clone(), e[1].clone(), e[2].clone());
        let denominator = ((c(1.0) - x.clone()) * x.clone()).max(c(1e-12));
        let grad = g * (x - t) / denominator;
        let grad = match e.get(4) {
            Some(w) => grad * w.clone(),
            None => grad,
        };
        grad * e[3].clone()
    })
}

/// Backward: `(grad_output, self, target, reduction[, param][, *, grad_input])`.
fn backward(call: &mut Call, kind: Kind, dest: Dest) -> Result<()> {
    check(kind)?;
    let (g, x, t) = (call.operand(0)?, call.operand(1)?, call.operand(2)?);
    let reduction = reduction(call, 3)?;
    let dtype = common_dtype(&[&x, &t])?;
    let count = match (&x, &t) {
        (Operand::Tensor(x), Operand::Tensor(t)) => broadcast_shapes(&[&x.sizes, &t.sizes])?
            .iter()
            .product::<i64>(),
        _ => 1,
    };
    // The 1/count of 'mean' is a launch scalar, not a kernel constant.
    let scale = if reduction == 1 {
        1.0 / count as f64
    } else {
        1.0
    };
    let scale = Operand::Scalar(ScalarArg::float(scale));
    pointwise(call, &[&g, &x, &t, &scale], dest, dtype, dtype, |e| {
        let d = e[1].clone().sub(e[2].clone());
        slope(kind, d, dtype).mul(e[0].clone()).mul(e[3].clone())
    })
}

pub const OPS: &[(&str, OpFn)] = &[
    ("binary_cross_entropy", |c| bce_forward(c, Dest::New)),
    ("binary_cross_entropy.out", |c| bce_forward(c, Dest::Arg(4))),
    ("binary_cross_entropy_backward", |c| {
        bce_backward(c, Dest::New)
    }),
    ("binary_cross_entropy_backward.grad_input", |c| {
        bce_backward(c, Dest::Arg(5))
    }),
    ("mse_loss.out", |c| forward(c, Kind::Mse, Dest::Arg(3))),
    ("mse_loss_backward.grad_input", |c| {
        backward(c, Kind::Mse, Dest::Arg(4))
    }),
    ("mse_loss_backward", |c| backward(c, Kind::Mse, Dest::New)),
    ("smooth_l1_loss.out", |c| {
        let beta = c.double(3)?;
        forward(c, Kind::SmoothL1(beta), Dest::Arg(4))
    }),
    ("smooth_l1_loss_backward.grad_input", |c| {
        let beta = c.double(4)?;
        backward(c, Kind::SmoothL1(beta), Dest::Arg(5))
    }),
    ("huber_loss", |c| {
        let delta = c.double(3)?;
        forward(c, Kind::Huber(delta), Dest::New)
    }),
    ("huber_loss.out", |c| {
        let delta = c.double(3)?;
        forward(c, Kind::Huber(delta), Dest::Arg(4))
    }),
    ("huber_loss_backward.out", |c| {
        let delta = c.double(4)?;
        backward(c, Kind::Huber(delta), Dest::Arg(5))
    }),
];
