//! Fused optimizer steps (`_fused_adam_`, `_fused_adamw_`, `_fused_sgd_`, `_fused_adagrad_`) as multi-tensor
//! kernels with CUDA's math: gradients unscaled by `grad_scale` (and stored back), the whole
//! step skipped on the device when `found_inf` is set, in float64 where the device has it as
//! CUDA's kernels mix in double.

use smallvec::smallvec;

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{BinaryOp, Expr, ForeachKernel, UnaryOp};
use crate::ops::core::call::{Call, Operand};
use crate::ops::core::launch::{check_dtype, run_foreach, FOREACH_BINDINGS};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::tensor::TensorRef;

/// The lists and options of one fused step, with each list's kernel input number.
struct Step {
    /// Input lists (each as long as `params`); broadcast ones hold one tensor per position.
    inputs: Vec<(Vec<TensorRef>, bool)>,
    /// `(input list, value)` per output: the list written in place and its new value.
    outputs: Vec<(usize, Expr)>,
    scalars: Vec<f64>,
}

/// The precision the step computes in: float64 when the device has it (CUDA's kernels take
/// their hyperparameters as doubles), else float32.
fn precision(device: usize) -> DType {
    if check_dtype(device, DType::F64).is_ok() {
        DType::F64
    } else {
        DType::F32
    }
}

fn run(step: Step, acc: DType) -> Result<()> {
    let count = step.inputs[0].0.len();
    if count == 0 {
        return Ok(());
    }
    let lists = step.inputs.len() + step.outputs.len();
    let chunk = (FOREACH_BINDINGS / lists).clamp(1, 8).min(count);
    let kernel = ForeachKernel {
        inputs: step
            .inputs
            .iter()
            .map(|(list, broadcast)| (list[0].dtype, *broadcast))
            .collect(),
        scalars: vec![acc; step.scalars.len()],
        outputs: step
            .outputs
            .iter()
            .map(|(list, value)| {
                let dtype = step.inputs[*list].0[0].dtype;
                (dtype, value.clone().cast(dtype))
            })
            .collect(),
        chunk,
    };
    let words: Vec<u32> = step
        .scalars
        .iter()
        .flat_map(|&v| ScalarArg::float(v).words(acc))
        .collect();
    let inputs: Vec<Vec<&TensorRef>> = step
        .inputs
        .iter()
        .map(|(l, _)| l.iter().collect())
        .collect();
    let outputs: Vec<Vec<&TensorRef>> = step
        .outputs
        .iter()
        .map(|(list, _)| step.inputs[*list].0.iter().collect())
        .collect();
    run_foreach(&kernel, &inputs, &outputs, &vec![words; count])
}

/// Input list `i`'s element at the kernel's position, in the step's precision `acc`.
fn element(inputs: &[(Vec<TensorRef>, bool)], i: usize, acc: DType) -> Expr {
    Expr::input(i, inputs[i].0[0].dtype).cast(acc)
}

/// An optional one-element tensor repeated for every position.
type Broadcast = Option<Vec<TensorRef>>;

/// The learning rate of a `.tensor_lr` overload (argument `at`): a host tensor is read as a
/// number, as CUDA's kernels read it; a device tensor (on the parameters' device) stays there,
/// read by the kernel as one more broadcast input.
enum Rate {
    Value(f64),
    Tensor(TensorRef),
}

fn rate(call: &Call, at: usize, tensor_lr: bool, device: usize) -> Result<Rate> {
    if !tensor_lr {
        return Ok(Rate::Value(call.double(at)?));
    }
    match call.operand(at)? {
        Operand::Scalar(v) => Ok(Rate::Value(v.to_f64())),
        Operand::Tensor(t) if t.device == device && t.numel() == 1 => Ok(Rate::Tensor(t)),
        Operand::Tensor(_) => Err(Error::runtime(
            "lr must be a one-element tensor on the same device as the params",
        )),
    }
}

impl Rate {
    /// The rate as an expression: scalar 0 (`value` on the host side), or the tensor as an
    /// input broadcast to every position.
    fn expr(&self, inputs: &mut Vec<(Vec<TensorRef>, bool)>, count: usize, acc: DType) -> Expr {
        match self {
            Rate::Value(_) => Expr::scalar(0, acc),
            Rate::Tensor(t) => {
                let one = TensorRef {
                    sizes: smallvec![],
                    strides: smallvec![],
                    ..t.clone()
                };
                inputs.push((vec![one; count], true));
                Expr::input(inputs.len() - 1, t.dtype).cast(acc)
            }
        }
    }

    /// The host value of scalar 0 (unused for a tensor rate).
    fn value(&self) -> f64 {
        match self {
            Rate::Value(v) => *v,
            Rate::Tensor(_) => 0.0,
        }
    }
}

/// Reads the optional `grad_scale` and `found_inf` (arguments `at`, `at + 1`) as one-element
/// lists broadcast to every position.
fn scale_and_overflow(call: &Call, at: usize, count: usize) -> Result<(Broadcast, Broadcast)> {
    let one = |t: Option<TensorRef>| {
        t.map(|t| {
            vec![
                TensorRef {
                    sizes: smallvec![],
                    strides: smallvec![],
                    ..t
                };
                count
            ]
        })
    };
    Ok((
        one(call.optional_tensor(at)?),
        one(call.optional_tensor(at + 1)?),
    ))
}

/// The gradient (input 1, `g0`) divided by `grad_scale`, and the condition that skips the
/// step (`found_inf` nonzero), adding those tensors to `inputs`.
fn unscaled(
    inputs: &mut Vec<(Vec<TensorRef>, bool)>,
    g0: &Expr,
    grad_scale: Broadcast,
    found_inf: Broadcast,
    acc: DType,
) -> (Expr, Option<Expr>) {
    let mut input = |list: Vec<TensorRef>| {
        let dtype = list[0].dtype;
        inputs.push((list, true));
        Expr::input(inputs.len() - 1, dtype).cast(acc)
    };
    let g = match grad_scale {
        Some(scale) => g0.clone() / input(scale),
        None => g0.clone(),
    };
    let skip = found_inf.map(|found| input(found).binary(BinaryOp::Ne, Expr::constant(acc, 0.0)));
    (g, skip)
}

/// The outputs of a step: each `(list, new, old)` update kept at `old` when the step is
/// skipped, and the unscaled gradient `g` stored back over `g0` (as CUDA's kernels do) when
/// a grad scale changed it.
fn step_outputs(
    skip: &Option<Expr>,
    updates: Vec<(usize, Expr, Expr)>,
    g: Expr,
    g0: Expr,
) -> Vec<(usize, Expr)> {
    let mut outputs: Vec<(usize, Expr)> = updates
        .into_iter()
        .map(|(list, new, old)| (list, kept_unless(skip, new, old)))
        .collect();
    if g != g0 {
        outputs.push((1, kept_unless(skip, g, g0)));
    }
    outputs
}

/// `new`, or `old` where `skip` holds.
fn kept_unless(skip: &Option<Expr>, new: Expr, old: Expr) -> Expr {
    match skip {
        Some(skip) => skip.clone().select(old, new),
        None => new,
    }
}

/// `_fused_adam_` / `_fused_adamw_(self, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs,
/// state_steps, *, lr, beta1, beta2, weight_decay, eps, amsgrad, maximize, grad_scale,
/// found_inf)`.
fn adam(call: &mut Call, decoupled: bool, tensor_lr: bool) -> Result<()> {
    let params = call.tensors(0)?;
    let lists: Vec<Vec<TensorRef>> = (1..6).map(|i| call.tensors(i)).collect::<Result<_>>()?;
    let [grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps] =
        <[Vec<TensorRef>; 5]>::try_from(lists).expect("five lists");
    let (beta1, beta2) = (call.double(7)?, call.double(8)?);
    let (weight_decay, eps) = (call.double(9)?, call.double(10)?);
    let (amsgrad, maximize) = (call.boolean(11)?, call.boolean(12)?);
    let n = params.len();
    if [&grads, &exp_avgs, &exp_avg_sqs, &steps]
        .iter()
        .any(|l| l.len() != n)
        || amsgrad && max_exp_avg_sqs.len() != n
    {
        return Err(Error::runtime(
            "the fused Adam lists must all have one tensor per parameter",
        ));
    }
    let Some(first) = params.first() else {
        return Ok(());
    };
    let acc = precision(first.device);
    let lr = rate(call, 6, tensor_lr, first.device)?;
    let (grad_scale, found_inf) = scale_and_overflow(call, 13, n)?;
    let mut inputs = vec![
        (params, false),
        (grads, false),
        (exp_avgs, false),
        (exp_avg_sqs, false),
    ];
    let x = |i: usize, inputs: &[(Vec<TensorRef>, bool)]| element(inputs, i, acc);
    let (p, g0, m, v) = (x(0, &inputs), x(1, &inputs), x(2, &inputs), x(3, &inputs));
    let vmax = amsgrad.then(|| {
        inputs.push((max_exp_avg_sqs, false));
        x(4, &inputs)
    });
    inputs.push((steps, true));
    let step = x(inputs.len() - 1, &inputs);
    let (g, skip) = unscaled(&mut inputs, &g0, grad_scale, found_inf, acc);
    let s = |i: usize| Expr::scalar(i, acc);
    let lr_e = lr.expr(&mut inputs, n, acc);
    let (beta1_e, beta2_e, wd_e, eps_e) = (s(1), s(2), s(3), s(4));
    // 1 - beta comes from the host in float64: in float32, 1 - f32(0.999) is 1.3e-5 off.
    let (rest1, rest2) = (s(5), s(6));
    let signed = if maximize { -g.clone() } else { g.clone() };
    let (p1, grad) = match (weight_decay != 0.0, decoupled) {
        (false, _) => (p.clone(), signed),
        (true, true) => (p.clone() - lr_e.clone() * wd_e * p.clone(), signed),
        (true, false) => (p.clone(), signed + p.clone() * wd_e),
    };
    let m1 = beta1_e * m.clone() + rest1.clone() * grad.clone();
    let v1 = beta2_e * v.clone() + rest2.clone() * grad.clone() * grad;
    // 1 - beta^step as -expm1(step * log1p(-(1 - beta))): no cancellation in float32.
    let correction = |rest: Expr| -(step.clone() * (-rest).log1p()).unary(UnaryOp::Expm1);
    let correction1 = correction(rest1);
    let correction2_sqrt = correction(rest2).unary(UnaryOp::Sqrt);
    let vmax1 = vmax.clone().map(|vmax| vmax.max(v1.clone()));
    let second = vmax1.clone().unwrap_or_else(|| v1.clone());
    let denom = second.unary(UnaryOp::Sqrt) / correction2_sqrt + eps_e;
    let p2 = p1 - (lr_e / correction1) * m1.clone() / denom;
    let mut updates = vec![(0, p2, p), (2, m1, m), (3, v1, v)];
    if let (Some(new), Some(old)) = (vmax1, vmax) {
        updates.push((4, new, old));
    }
    let outputs = step_outputs(&skip, updates, g, g0);
    run(
        Step {
            inputs,
            outputs,
            scalars: vec![
                lr.value(),
                beta1,
                beta2,
                weight_decay,
                eps,
                1.0 - beta1,
                1.0 - beta2,
            ],
        },
        acc,
    )
}

/// `_fused_sgd_(self, grads, momentum_buffer_list, *, weight_decay, momentum, lr, dampening,
/// nesterov, maximize, is_first_step, grad_scale, found_inf)`.
fn sgd(call: &mut Call, tensor_lr: bool) -> Result<()> {
    let params = call.tensors(0)?;
    let grads = call.tensors(1)?;
    let buffers = call.tensors(2)?;
    let (weight_decay, momentum, dampening) = (call.double(3)?, call.double(4)?, call.double(6)?);
    let (nesterov, maximize, first) = (call.boolean(7)?, call.boolean(8)?, call.boolean(9)?);
    let n = params.len();
    if grads.len() != n || momentum != 0.0 && buffers.len() != n {
        return Err(Error::runtime(
            "the fused SGD lists must all have one tensor per parameter",
        ));
    }
    let Some(first_param) = params.first() else {
        return Ok(());
    };
    let acc = precision(first_param.device);
    let lr = rate(call, 5, tensor_lr, first_param.device)?;
    let (grad_scale, found_inf) = scale_and_overflow(call, 10, n)?;
    let mut inputs = vec![(params, false), (grads, false)];
    let x = |i: usize, inputs: &[(Vec<TensorRef>, bool)]| element(inputs, i, acc);
    let (p, g0) = (x(0, &inputs), x(1, &inputs));
    let buffer = (momentum != 0.0).then(|| {
        inputs.push((buffers, false));
        x(2, &inputs)
    });
    let (g, skip) = unscaled(&mut inputs, &g0, grad_scale, found_inf, acc);
    let s = |i: usize| Expr::scalar(i, acc);
    let mut grad = if maximize { -g.clone() } else { g.clone() };
    if weight_decay != 0.0 {
        grad = grad + p.clone() * s(2);
    }
    let new_buffer = buffer.clone().map(|b| {
        if first {
            grad.clone()
        } else {
            s(1) * b + s(3) * grad.clone()
        }
    });
    if let Some(nb) = &new_buffer {
        grad = if nesterov {
            grad + s(1) * nb.clone()
        } else {
            nb.clone()
        };
    }
    let p1 = p.clone() - lr.expr(&mut inputs, n, acc) * grad;
    let mut updates = vec![(0, p1, p)];
    if let (Some(new), Some(old)) = (new_buffer, buffer) {
        updates.push((2, new, old));
    }
    let outputs = step_outputs(&skip, updates, g, g0);
    run(
        Step {
            inputs,
            outputs,
            scalars: vec![lr.value(), momentum, weight_decay, 1.0 - dampening],
        },
        acc,
    )
}

/// `_fused_adagrad_(self, grads, state_sums, state_steps, *, lr, lr_decay, weight_decay, eps,
/// maximize, grad_scale, found_inf)`: the step's learning rate `lr / (1 + (step - 1) *
/// lr_decay)` (the optimizer has counted this step), the sum of squared gradients, and the
/// parameter less `clr * grad / (sqrt(sum) + eps)`.
fn adagrad(call: &mut Call, tensor_lr: bool) -> Result<()> {
    let params = call.tensors(0)?;
    let (grads, sums, steps) = (call.tensors(1)?, call.tensors(2)?, call.tensors(3)?);
    let lr_decay = call.double(5)?;
    let (weight_decay, eps, maximize) = (call.double(6)?, call.double(7)?, call.boolean(8)?);
    let n = params.len();
    if [&grads, &sums, &steps].iter().any(|l| l.len() != n) {
        return Err(Error::runtime(
            "the fused Adagrad lists must all have one tensor per parameter",
        ));
    }
    let Some(first) = params.first() else {
        return Ok(());
    };
    let acc = precision(first.device);
    let lr = rate(call, 4, tensor_lr, first.device)?;
    let (grad_scale, found_inf) = scale_and_overflow(call, 9, n)?;
    let mut inputs = vec![
        (params, false),
        (grads, false),
        (sums, false),
        (steps, true),
    ];
    let x = |i: usize, inputs: &[(Vec<TensorRef>, bool)]| element(inputs, i, acc);
    let (p, g0, sum, step) = (x(0, &inputs), x(1, &inputs), x(2, &inputs), x(3, &inputs));
    let (g, skip) = unscaled(&mut inputs, &g0, grad_scale, found_inf, acc);
    let s = |i: usize| Expr::scalar(i, acc);
    let one = || Expr::constant(acc, 1.0);
    let mut grad = if maximize { -g.clone() } else { g.clone() };
    if weight_decay != 0.0 {
        grad = grad + p.clone() * s(2);
    }
    let clr = lr.expr(&mut inputs, n, acc) / (one() + (step - one()) * s(1));
    let sum1 = sum.clone() + grad.clone() * grad.clone();
    let std = sum1.clone().unary(UnaryOp::Sqrt) + s(3);
    let p1 = p.clone() - clr * grad / std;
    let outputs = step_outputs(&skip, vec![(0, p1, p), (2, sum1, sum)], g, g0);
    run(
        Step {
            inputs,
            outputs,
            scalars: vec![lr.value(), lr_decay, weight_decay, eps],
        },
        acc,
    )
}

pub const OPS: &[(&str, OpFn)] = &[
    ("_fused_adam_", |c| adam(c, false, false)),
    ("_fused_adam_.tensor_lr", |c| adam(c, false, true)),
    ("_fused_adamw_", |c| adam(c, true, false)),
    ("_fused_adamw_.tensor_lr", |c| adam(c, true, true)),
    ("_fused_sgd_", |c| sgd(c, false)),
    ("_fused_sgd_.tensor_lr", |c| sgd(c, true)),
    ("_fused_adagrad_", |c| adagrad(c, false)),
    ("_fused_adagrad_.tensor_lr", |c| adagrad(c, true)),
];
