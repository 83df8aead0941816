//! The negative log-likelihood loss (1-d and 2-d), forward and backward: weighted picks of
//! each row's target class, reduced by the reduce pattern.

use smallvec::smallvec;
use std::ops::{Div, Mul, Neg};

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{BinaryOp, Expr, MapKernel, ReduceKernel, ReduceOp};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::{run_map, run_reduce};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::index::index_launch::{run_index, Fault, IndexArg};

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
        sizes: shape.to_vec().into(),
        strides: strides.to_vec().into(),
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
            sizes: smallvec![self.n],
            strides: smallvec![self.target.strides[0]],
            ..self.target.clone()
        };
        let picked_class = Scratch::contiguous(device, &[self.n], DType::I64)?;
        let t = Expr::input(0, target.dtype).cast(DType::I64);
        let ignored = t.clone().eq(Expr::scalar(0, DType::I64));
        let kernel = MapKernel {
            inputs: smallvec![target.dtype],
            scalars: smallvec![DType::I64],
            outputs: smallvec![(
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
        scalars: smallvec![DType::I64, DType::I64],
        outputs: smallvec![
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
            columns: false,
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
                sizes: smallvec![n],
                strides: smallvec![out.strides.last().copied().unwrap_or(0)],
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
                inputs: smallvec![acc, acc],
                scalars: smallvec![],
                outputs: smallvec![(dtype, value.cast(dtype))],
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
        sizes: smallvec![nll.n, nll.c],
        strides: if x.sizes.len() == 2 {
            out.strides.clone()
        } else {
            smallvec![0, out.strides[0]]
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
        sizes: smallvec![n, c],
        strides: if nll.reduction == 0 && !g.sizes.is_empty() {
            smallvec![g_stride, 0]
        } else {
            smallvec![0, 0]
        },
        ..g.clone()
    };
    let tw_view = TensorRef {
        sizes: smallvec![n, c],
        strides: smallvec![0, 0],
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
        scalars: smallvec![DType::I64, DType::I64],
        outputs: smallvec![(dtype, value.cast(dtype))],
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
        sizes: smallvec![rows],
        strides: smallvec![1],
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
    if t.sizes[..] != spatial[..] {
        return Err(Error::runtime(format!(
            "size mismatch (got input: {:?} , target: {:?}",
            x.sizes, t.sizes
        )));
    }
    let (dense, rows) = classes_last(&x)?;
    let (targets, target_view) = flat_rows(&t, rows)?;
    let input_view = TensorRef {
        sizes: smallvec![rows, x.sizes[1]],
        strides: smallvec![x.sizes[1], 1],
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
        sizes: smallvec![n, c, h, w],
        strides: smallvec![h * w * c, 1, w * c, c],
        ..grad.tensor.clone()
    };
    crate::ops::shape::copy::copy(&out, &source)
}

pub const OPS: &[(&str, OpFn)] = &[
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
];
