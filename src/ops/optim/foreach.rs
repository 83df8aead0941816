//! The `_foreach_*` ops the optimizers' default (foreach) paths use, as multi-tensor kernels:
//! one launch per chunk of tensors. Positions whose tensors are not contiguous run as single
//! maps.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{BinaryOp, Expr, ForeachKernel, MapKernel, UnaryOp};
use crate::ops::core::call::{Call, Located, Operand};
use crate::ops::core::launch::{run_foreach, run_map, FOREACH_BINDINGS};
use crate::ops::core::layout::broadcast_strides;
use crate::ops::core::pointwise::{common_dtype, float_dtype};
use crate::ops::core::promote::can_cast;
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::tensor::TensorRef;
use crate::ops::elementwise::math::{addc_expr, lerp_expr};

/// Where results go: into the first list (in place) or into new tensors.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Into {
    Place,
    New,
}

/// How the compute dtype of a position follows from its operands' common dtype.
#[derive(Clone, Copy)]
enum Compute {
    Common,
    Float,
}

/// An operand kind at one list position, for grouping positions into one kernel.
#[derive(Clone, PartialEq, Eq)]
enum Slot {
    /// A contiguous tensor of this dtype.
    Tensor(DType),
    /// A zero-dimensional device tensor read as one element.
    Broadcast(DType),
    Scalar,
}

/// Applies `f` (over the operands cast to the compute dtype, and the dtype) at every position:
/// `positions[k]` holds position `k`'s operands, list by list.
fn foreach(
    call: &mut Call,
    positions: Vec<Vec<Operand>>,
    into: Into,
    compute: Compute,
    f: impl Fn(&[Expr], DType) -> Expr,
) -> Result<()> {
    struct Planned {
        operands: Vec<Operand>,
        compute: DType,
        out: TensorRef,
        contiguous: bool,
    }
    let mut planned = Vec::new();
    for operands in positions {
        let Operand::Tensor(first) = &operands[0] else {
            return Err(Error::runtime("mojo: foreach lists hold tensors"));
        };
        let refs: Vec<&Operand> = operands.iter().collect();
        let common = common_dtype(&refs)?;
        let dtype = match compute {
            Compute::Common => common,
            Compute::Float => float_dtype(common),
        };
        let out = match into {
            Into::Place => {
                if !can_cast(dtype, first.dtype) {
                    return Err(Error::runtime(format!(
                        "result type {} can't be cast to the desired output type {}",
                        dtype.name(),
                        first.dtype.name()
                    )));
                }
                first.clone()
            }
            Into::New => call.create(&first.sizes, dtype, first.device)?,
        };
        let contiguous = out.is_contiguous()
            && operands.iter().all(|o| match o {
                Operand::Tensor(t) => {
                    t.sizes.is_empty() || t.sizes == out.sizes && t.is_contiguous()
                }
                Operand::Scalar(_) => true,
            });
        planned.push(Planned {
            operands,
            compute: dtype,
            out,
            contiguous,
        });
    }
    let slots = |p: &Planned| -> Vec<Slot> {
        p.operands
            .iter()
            .map(|o| match o {
                Operand::Tensor(t) if t.sizes.is_empty() && !p.out.sizes.is_empty() => {
                    Slot::Broadcast(t.dtype)
                }
                Operand::Tensor(t) => Slot::Tensor(t.dtype),
                Operand::Scalar(_) => Slot::Scalar,
            })
            .collect()
    };
    let kernel_for = |p: &Planned, chunk: usize| -> ForeachKernel {
        let (mut inputs, mut scalars, mut exprs) = (Vec::new(), Vec::new(), Vec::new());
        for (o, slot) in p.operands.iter().zip(slots(p)) {
            match (o, slot) {
                (Operand::Tensor(t), slot) => {
                    exprs.push(Expr::input(inputs.len(), t.dtype).cast(p.compute));
                    inputs.push((t.dtype, matches!(slot, Slot::Broadcast(_))));
                }
                (Operand::Scalar(_), _) => {
                    exprs.push(Expr::scalar(scalars.len(), p.compute));
                    scalars.push(p.compute);
                }
            }
        }
        let value = f(&exprs, p.compute).cast(p.out.dtype);
        ForeachKernel {
            inputs,
            scalars,
            outputs: vec![(p.out.dtype, value)],
            chunk,
        }
    };
    let words = |p: &Planned| -> Vec<u32> {
        p.operands
            .iter()
            .filter_map(|o| match o {
                Operand::Scalar(s) => Some(s.words(p.compute)),
                Operand::Tensor(_) => None,
            })
            .flatten()
            .collect()
    };
    // Positions with one operand layout and dtypes share a kernel; the rest run alone.
    let mut done = vec![false; planned.len()];
    for k in 0..planned.len() {
        if done[k] {
            continue;
        }
        let p = &planned[k];
        if !p.contiguous {
            done[k] = true;
            let kernel = kernel_for(p, 1);
            let map = MapKernel {
                inputs: kernel.inputs.iter().map(|i| i.0).collect(),
                scalars: kernel.scalars.clone().into(),
                outputs: kernel.outputs.clone().into(),
            };
            let views: Vec<TensorRef> = p
                .operands
                .iter()
                .filter_map(|o| match o {
                    Operand::Tensor(t) => Some(TensorRef {
                        strides: broadcast_strides(t, &p.out.sizes).into(),
                        sizes: p.out.sizes.clone(),
                        ..t.clone()
                    }),
                    Operand::Scalar(_) => None,
                })
                .collect();
            let mut tensors: Vec<&TensorRef> = views.iter().collect();
            tensors.push(&p.out);
            run_map(map, &tensors, &p.out.sizes, &words(p))?;
            continue;
        }
        let signature = (slots(p), p.compute, p.out.dtype);
        let group: Vec<usize> = (k..planned.len())
            .filter(|&j| {
                !done[j]
                    && planned[j].contiguous
                    && (slots(&planned[j]), planned[j].compute, planned[j].out.dtype) == signature
            })
            .collect();
        let tensor_lists = p
            .operands
            .iter()
            .filter(|o| matches!(o, Operand::Tensor(_)))
            .count();
        let chunk = (FOREACH_BINDINGS / (tensor_lists + 1))
            .clamp(1, 8)
            .min(group.len());
        let kernel = kernel_for(p, chunk);
        let mut inputs: Vec<Vec<&TensorRef>> = vec![Vec::new(); kernel.inputs.len()];
        let mut scalar_words = Vec::new();
        for &j in &group {
            done[j] = true;
            let mut l = 0;
            for o in &planned[j].operands {
                if let Operand::Tensor(t) = o {
                    inputs[l].push(t);
                    l += 1;
                }
            }
            scalar_words.push(words(&planned[j]));
        }
        let outputs = vec![group.iter().map(|&j| &planned[j].out).collect()];
        run_foreach(&kernel, &inputs, &outputs, &scalar_words)?;
    }
    Ok(())
}

/// Multiplies each position's first tensor in place by its second operand.
pub fn scale_lists(call: &mut Call, positions: Vec<Vec<Operand>>) -> Result<()> {
    foreach(call, positions, Into::Place, Compute::Common, |e, _| {
        e[0].clone() * e[1].clone()
    })
}

/// The tensors of list argument `at` (host zero-dimensional tensors as scalars).
fn list(call: &Call, at: usize) -> Result<Vec<Operand>> {
    call.optional_tensors_anywhere(at)?
        .into_iter()
        .map(|t| match t {
            Some(Located::Device(t)) => Ok(Operand::Tensor(t)),
            _ => Err(Error::runtime(
                "Expected all tensors to be on the same device, but found at least two devices, mojo:0 and cpu!",
            )),
        })
        .collect()
}

/// Zips lists (each as long as the first) into positions.
fn zip_lists(lists: Vec<Vec<Operand>>) -> Result<Vec<Vec<Operand>>> {
    let n = lists[0].len();
    if lists.iter().any(|l| l.len() != n) {
        return Err(Error::runtime(format!(
            "Tensor lists must have the same number of tensors, got {n} and {}",
            lists.iter().map(Vec::len).find(|&m| m != n).unwrap_or(n)
        )));
    }
    Ok((0..n)
        .map(|k| lists.iter().map(|l| l[k].clone()).collect())
        .collect())
}

/// The per-position scalars of argument `at`: a Scalar, a Scalar[] or a 1-D host tensor.
fn scalars(call: &Call, at: usize, n: usize, form: Form) -> Result<Vec<Operand>> {
    let values: Vec<Operand> = match form {
        Form::Scalar => vec![Operand::Scalar(call.scalar(at)?); n],
        Form::ScalarList => call
            .scalar_list(at)?
            .into_iter()
            .map(Operand::Scalar)
            .collect(),
        Form::Tensor => vec![call.operand(at)?; n],
    };
    if values.len() != n {
        return Err(Error::runtime(format!(
            "Tensor list must have same number of elements as scalar list, got {n} and {}",
            values.len()
        )));
    }
    Ok(values)
}

#[derive(Clone, Copy)]
enum Form {
    Scalar,
    ScalarList,
    Tensor,
}

/// `_foreach_<op>[_].<form>(self, other[, alpha])` for add, sub, mul, div, maximum.
fn binary(
    call: &mut Call,
    op: BinaryOp,
    form: Option<Form>,
    alpha_at: Option<usize>,
    into: Into,
) -> Result<()> {
    let selves = list(call, 0)?;
    let others = match form {
        None => list(call, 1)?,
        Some(form) => scalars(call, 1, selves.len(), form)?,
    };
    let alpha = match alpha_at {
        Some(at) if !call.is_none(at) => Some(call.scalar(at)?),
        _ => None,
    };
    let mut lists = vec![selves, others];
    if let Some(alpha) = alpha {
        lists.push(vec![Operand::Scalar(alpha); lists[0].len()]);
    }
    let compute = if op == BinaryOp::Div {
        Compute::Float
    } else {
        Compute::Common
    };
    foreach(call, zip_lists(lists)?, into, compute, |e, _| {
        let other = match e.get(2) {
            Some(alpha) => e[1].clone() * alpha.clone(),
            None => e[1].clone(),
        };
        e[0].clone().binary(op, other)
    })
}

/// `_foreach_addcmul[_]` / `_foreach_addcdiv[_]` `.Scalar/.ScalarList/.Tensor`.
fn addc(call: &mut Call, divide: bool, form: Form, into: Into) -> Result<()> {
    let selves = list(call, 0)?;
    let n = selves.len();
    let values = match form {
        Form::Tensor => host_values(call, 3, n)?,
        _ => scalars(call, 3, n, form)?,
    };
    let lists = vec![selves, list(call, 1)?, list(call, 2)?, values];
    foreach(call, zip_lists(lists)?, into, Compute::Common, |e, _| {
        addc_expr(
            e[0].clone(),
            e[1].clone(),
            e[2].clone(),
            e[3].clone(),
            divide,
        )
    })
}

/// The values of a 1-D host tensor argument, one per position.
fn host_values(call: &Call, at: usize, n: usize) -> Result<Vec<Operand>> {
    let Located::Host(t) = call.located(at)? else {
        return Err(Error::runtime(
            "mojo: expected the scalars as a 1-D CPU tensor",
        ));
    };
    if t.numel() as usize != n {
        return Err(Error::runtime(format!(
            "Expected length of scalars to match input of length {n} but got {} instead",
            t.numel()
        )));
    }
    (0..n)
        .map(|k| {
            let stride = t.strides.first().copied().unwrap_or(1);
            let at = t
                .address
                .wrapping_add_signed(k as i64 * stride * t.dtype.size() as i64);
            // SAFETY: the glue passed a live host tensor with `n` readable elements.
            unsafe { ScalarArg::read_host(at, t.dtype.code()) }.map(Operand::Scalar)
        })
        .collect()
}

/// `_foreach_lerp[_]` `.List` (tensor weights), `.Scalar`, `.ScalarList`.
fn lerp(call: &mut Call, form: Option<Form>, into: Into) -> Result<()> {
    let selves = list(call, 0)?;
    let n = selves.len();
    let weights = match form {
        None => list(call, 2)?,
        Some(form) => scalars(call, 2, n, form)?,
    };
    let lists = vec![selves, list(call, 1)?, weights];
    foreach(call, zip_lists(lists)?, into, Compute::Common, |e, d| {
        lerp_expr(e[0].clone(), e[1].clone(), e[2].clone(), d)
    })
}

/// `_foreach_<unary>[_](self)`.
fn unary(call: &mut Call, op: UnaryOp, into: Into) -> Result<()> {
    let positions = zip_lists(vec![list(call, 0)?])?;
    let compute = if op.is_transcendental() {
        Compute::Float
    } else {
        Compute::Common
    };
    foreach(call, positions, into, compute, |e, _| {
        e[0].clone().unary(op)
    })
}

/// `_foreach_reciprocal[_](self)`.
fn reciprocal(call: &mut Call, into: Into) -> Result<()> {
    let positions = zip_lists(vec![list(call, 0)?])?;
    foreach(call, positions, into, Compute::Float, |e, d| {
        Expr::constant(d, 1.0) / e[0].clone()
    })
}

/// `_foreach_zero_(self)`.
fn zero(call: &mut Call) -> Result<()> {
    let positions = zip_lists(vec![list(call, 0)?])?;
    foreach(call, positions, Into::Place, Compute::Common, |_, d| {
        Expr::constant(d, 0.0)
    })
}

/// `_foreach_copy_(self, src, non_blocking)`.
fn copy(call: &mut Call) -> Result<()> {
    let positions = zip_lists(vec![list(call, 0)?, list(call, 1)?])?;
    foreach(call, positions, Into::Place, Compute::Common, |e, _| {
        e[1].clone()
    })
}

pub const OPS: &[(&str, OpFn)] = &[
    ("_foreach_add_.Scalar", |c| {
        binary(c, BinaryOp::Add, Some(Form::Scalar), None, Into::Place)
    }),
    ("_foreach_add.Scalar", |c| {
        binary(c, BinaryOp::Add, Some(Form::Scalar), None, Into::New)
    }),
    ("_foreach_add_.List", |c| {
        binary(c, BinaryOp::Add, None, Some(2), Into::Place)
    }),
    ("_foreach_add.List", |c| {
        binary(c, BinaryOp::Add, None, Some(2), Into::New)
    }),
    ("_foreach_add_.ScalarList", |c| {
        binary(c, BinaryOp::Add, Some(Form::ScalarList), None, Into::Place)
    }),
    ("_foreach_add.ScalarList", |c| {
        binary(c, BinaryOp::Add, Some(Form::ScalarList), None, Into::New)
    }),
    ("_foreach_add_.Tensor", |c| {
        binary(c, BinaryOp::Add, Some(Form::Tensor), Some(2), Into::Place)
    }),
    ("_foreach_add.Tensor", |c| {
        binary(c, BinaryOp::Add, Some(Form::Tensor), Some(2), Into::New)
    }),
    ("_foreach_sub_.Scalar", |c| {
        binary(c, BinaryOp::Sub, Some(Form::Scalar), None, Into::Place)
    }),
    ("_foreach_sub.Scalar", |c| {
        binary(c, BinaryOp::Sub, Some(Form::Scalar), None, Into::New)
    }),
    ("_foreach_sub_.List", |c| {
        binary(c, BinaryOp::Sub, None, Some(2), Into::Place)
    }),
    ("_foreach_sub.List", |c| {
        binary(c, BinaryOp::Sub, None, Some(2), Into::New)
    }),
    ("_foreach_sub_.ScalarList", |c| {
        binary(c, BinaryOp::Sub, Some(Form::ScalarList), None, Into::Place)
    }),
    ("_foreach_sub.ScalarList", |c| {
        binary(c, BinaryOp::Sub, Some(Form::ScalarList), None, Into::New)
    }),
    ("_foreach_mul_.Scalar", |c| {
        binary(c, BinaryOp::Mul, Some(Form::Scalar), None, Into::Place)
    }),
    ("_foreach_mul.Scalar", |c| {
        binary(c, BinaryOp::Mul, Some(Form::Scalar), None, Into::New)
    }),
    ("_foreach_mul_.List", |c| {
        binary(c, BinaryOp::Mul, None, None, Into::Place)
    }),
    ("_foreach_mul.List", |c| {
        binary(c, BinaryOp::Mul, None, None, Into::New)
    }),
    ("_foreach_mul_.ScalarList", |c| {
        binary(c, BinaryOp::Mul, Some(Form::ScalarList), None, Into::Place)
    }),
    ("_foreach_mul.ScalarList", |c| {
        binary(c, BinaryOp::Mul, Some(Form::ScalarList), None, Into::New)
    }),
    ("_foreach_mul_.Tensor", |c| {
        binary(c, BinaryOp::Mul, Some(Form::Tensor), None, Into::Place)
    }),
    ("_foreach_mul.Tensor", |c| {
        binary(c, BinaryOp::Mul, Some(Form::Tensor), None, Into::New)
    }),
    ("_foreach_div_.Scalar", |c| {
        binary(c, BinaryOp::Div, Some(Form::Scalar), None, Into::Place)
    }),
    ("_foreach_div.Scalar", |c| {
        binary(c, BinaryOp::Div, Some(Form::Scalar), None, Into::New)
    }),
    ("_foreach_div_.List", |c| {
        binary(c, BinaryOp::Div, None, None, Into::Place)
    }),
    ("_foreach_div.List", |c| {
        binary(c, BinaryOp::Div, None, None, Into::New)
    }),
    ("_foreach_div_.ScalarList", |c| {
        binary(c, BinaryOp::Div, Some(Form::ScalarList), None, Into::Place)
    }),
    ("_foreach_div.ScalarList", |c| {
        binary(c, BinaryOp::Div, Some(Form::ScalarList), None, Into::New)
    }),
    ("_foreach_div_.Tensor", |c| {
        binary(c, BinaryOp::Div, Some(Form::Tensor), None, Into::Place)
    }),
    ("_foreach_div.Tensor", |c| {
        binary(c, BinaryOp::Div, Some(Form::Tensor), None, Into::New)
    }),
    ("_foreach_maximum_.List", |c| {
        binary(c, BinaryOp::Max, None, None, Into::Place)
    }),
    ("_foreach_maximum.List", |c| {
        binary(c, BinaryOp::Max, None, None, Into::New)
    }),
    ("_foreach_addcmul_.Scalar", |c| {
        addc(c, false, Form::Scalar, Into::Place)
    }),
    ("_foreach_addcmul.Scalar", |c| {
        addc(c, false, Form::Scalar, Into::New)
    }),
    ("_foreach_addcmul_.ScalarList", |c| {
        addc(c, false, Form::ScalarList, Into::Place)
    }),
    ("_foreach_addcmul.ScalarList", |c| {
        addc(c, false, Form::ScalarList, Into::New)
    }),
    ("_foreach_addcmul_.Tensor", |c| {
        addc(c, false, Form::Tensor, Into::Place)
    }),
    ("_foreach_addcmul.Tensor", |c| {
        addc(c, false, Form::Tensor, Into::New)
    }),
    ("_foreach_addcdiv_.Scalar", |c| {
        addc(c, true, Form::Scalar, Into::Place)
    }),
    ("_foreach_addcdiv.Scalar", |c| {
        addc(c, true, Form::Scalar, Into::New)
    }),
    ("_foreach_addcdiv_.ScalarList", |c| {
        addc(c, true, Form::ScalarList, Into::Place)
    }),
    ("_foreach_addcdiv.ScalarList", |c| {
        addc(c, true, Form::ScalarList, Into::New)
    }),
    ("_foreach_addcdiv_.Tensor", |c| {
        addc(c, true, Form::Tensor, Into::Place)
    }),
    ("_foreach_addcdiv.Tensor", |c| {
        addc(c, true, Form::Tensor, Into::New)
    }),
    ("_foreach_lerp_.List", |c| lerp(c, None, Into::Place)),
    ("_foreach_lerp.List", |c| lerp(c, None, Into::New)),
    ("_foreach_lerp_.Scalar", |c| {
        lerp(c, Some(Form::Scalar), Into::Place)
    }),
    ("_foreach_lerp.Scalar", |c| {
        lerp(c, Some(Form::Scalar), Into::New)
    }),
    ("_foreach_lerp_.ScalarList", |c| {
        lerp(c, Some(Form::ScalarList), Into::Place)
    }),
    ("_foreach_lerp.ScalarList", |c| {
        lerp(c, Some(Form::ScalarList), Into::New)
    }),
    ("_foreach_sqrt_", |c| unary(c, UnaryOp::Sqrt, Into::Place)),
    ("_foreach_sqrt", |c| unary(c, UnaryOp::Sqrt, Into::New)),
    ("_foreach_neg_", |c| unary(c, UnaryOp::Neg, Into::Place)),
    ("_foreach_neg", |c| unary(c, UnaryOp::Neg, Into::New)),
    ("_foreach_abs_", |c| unary(c, UnaryOp::Abs, Into::Place)),
    ("_foreach_abs", |c| unary(c, UnaryOp::Abs, Into::New)),
    ("_foreach_exp_", |c| unary(c, UnaryOp::Exp, Into::Place)),
    ("_foreach_exp", |c| unary(c, UnaryOp::Exp, Into::New)),
    ("_foreach_sign_", |c| unary(c, UnaryOp::Sign, Into::Place)),
    ("_foreach_sign", |c| unary(c, UnaryOp::Sign, Into::New)),
    ("_foreach_reciprocal_", |c| reciprocal(c, Into::Place)),
    ("_foreach_reciprocal", |c| reciprocal(c, Into::New)),
    ("_foreach_zero_", zero),
    ("_foreach_copy_", copy),
];
