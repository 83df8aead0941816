//! Reductions over any set of dimensions: sum, prod, mean, extrema with indices, variance;
//! the planning (dimensions, kept views, accumulator dtypes) the other reductions share.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Expr, ReduceKernel, ReduceOp, UnaryOp};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::run_reduce;
use crate::ops::core::pointwise::not_implemented_for;
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::tensor::TensorRef;
use crate::ops::elementwise::complex::route;
use crate::ops::reduce::complex_reduce;
use std::ops::Div;

/// Wraps a possibly negative dimension of a tensor of rank `rank` (a scalar counts as rank 1).
pub fn wrap_dim(dim: i64, rank: usize) -> Result<usize> {
    let r = rank.max(1) as i64;
    if dim < -r || dim >= r {
        return Err(Error::index(format!(
            "Dimension out of range (expected to be in range of [{}, {}], but got {dim})",
            -r,
            r - 1
        )));
    }
    Ok(dim.rem_euclid(r) as usize)
}

/// Which dimensions a reduction covers and the shape of its result.
pub(crate) struct Plan {
    pub(crate) reduced: Vec<bool>,
    pub(crate) out_shape: Vec<i64>,
    pub(crate) count: i64,
}

pub(crate) fn plan(t: &TensorRef, dims: Option<&[i64]>, keepdim: bool) -> Result<Plan> {
    let rank = t.sizes.len();
    let mut reduced = vec![false; rank];
    match dims {
        None | Some([]) => reduced.iter_mut().for_each(|r| *r = true),
        Some(dims) => {
            for &d in dims {
                let d = wrap_dim(d, rank)?;
                if rank == 0 {
                    continue;
                }
                if reduced[d] {
                    return Err(Error::runtime(format!(
                        "dim {d} appears multiple times in the list of dims"
                    )));
                }
                reduced[d] = true;
            }
        }
    }
    let mut out_shape = Vec::new();
    let mut count = 1;
    for (d, &r) in reduced.iter().enumerate() {
        if r {
            count *= t.sizes[d];
            if keepdim {
                out_shape.push(1);
            }
        } else {
            out_shape.push(t.sizes[d]);
        }
    }
    Ok(Plan {
        reduced,
        out_shape,
        count,
    })
}

/// An output viewed with only the kept dimensions (dropping kept-size-1 reduced ones).
fn kept_view(out: &TensorRef, plan: &Plan) -> TensorRef {
    if out.sizes.len() == plan.reduced.iter().filter(|r| !**r).count() {
        return out.clone();
    }
    let mut view = out.clone();
    view.sizes.clear();
    view.strides.clear();
    for (d, &r) in plan.reduced.iter().enumerate() {
        if !r {
            view.sizes.push(out.sizes[d]);
            view.strides.push(out.strides[d]);
        }
    }
    view
}

/// The accumulator dtype for sums and products of `dtype`.
pub(crate) fn acc_dtype(dtype: DType) -> DType {
    match dtype {
        DType::F16 | DType::BF16 | DType::F32 => DType::F32,
        DType::F64 => DType::F64,
        _ => DType::I64,
    }
}

/// The result dtype of sum/prod: integers and bool widen to int64 unless `dtype` says.
pub(crate) fn sum_dtype(input: DType, dtype: Option<DType>) -> DType {
    dtype.unwrap_or(if input.is_float() { input } else { DType::I64 })
}

/// One reduction: `pre` maps each element (input 0) into `acc`; `outputs` are expressions
/// of the accumulator (input 0) and the second value (input 1), written to `dests`.
pub(crate) struct Reduction {
    pub(crate) op: ReduceOp,
    pub(crate) acc: DType,
    pub(crate) pre: Expr,
    pub(crate) outputs: Vec<(Dest, DType, Expr)>,
    pub(crate) scalars: Vec<(DType, ScalarArg)>,
}

pub(crate) fn reduce(call: &mut Call, input: &TensorRef, plan: &Plan, r: Reduction) -> Result<()> {
    let mut tensors = Vec::new();
    for (dest, dtype, _) in &r.outputs {
        tensors.push(call.result(*dest, &plan.out_shape, *dtype, input.device)?);
    }
    reduce_into(input, plan, r, tensors)
}

/// [`reduce`] into the given output tensors (one per output of `r`, its `Dest` unused).
pub(crate) fn reduce_into(
    input: &TensorRef,
    plan: &Plan,
    r: Reduction,
    tensors: Vec<TensorRef>,
) -> Result<()> {
    let views: Vec<TensorRef> = tensors.iter().map(|t| kept_view(t, plan)).collect();
    let outputs = r
        .outputs
        .into_iter()
        .zip(&views)
        .map(|((_, _, e), v)| (v.dtype, e.cast(v.dtype)))
        .collect();
    let mut words = Vec::new();
    for (dtype, s) in &r.scalars {
        words.extend(s.words(*dtype));
    }
    let kernel = ReduceKernel {
        per_output: None,
        indexed: false,
        elementwise: None,
        vector: false,
        input: input.dtype,
        scalars: r.scalars.iter().map(|s| s.0).collect(),
        pre: r.pre,
        op: r.op,
        acc: r.acc,
        outputs,
        columns: false,
    };
    let refs: Vec<&TensorRef> = views.iter().collect();
    run_reduce(kernel, input, &refs, &plan.reduced, &words)
}

pub(crate) fn dims_arg(call: &Call, index: usize) -> Result<Option<Vec<i64>>> {
    call.optional_ints(index)
}

/// What a sum-like reduction writes from its accumulator: the total, or for `mean` the
/// total over `count` (a launch scalar).
pub(crate) fn total_or_mean(op: &str, acc: DType, count: i64) -> (Expr, Vec<(DType, ScalarArg)>) {
    if op == "mean" {
        let scalars = vec![(acc, ScalarArg::float(count as f64))];
        (Expr::input(0, acc).div(Expr::scalar(0, acc)), scalars)
    } else {
        (Expr::input(0, acc), Vec::new())
    }
}

/// sum / nansum / mean / prod with `(self, dim, keepdim, dtype, out)` arguments.
fn sum_like(
    call: &mut Call,
    op: &str,
    dims: Option<Vec<i64>>,
    keepdim: bool,
    dtype: Option<DType>,
    dest: Dest,
) -> Result<()> {
    let a = call.tensor(0)?;
    let plan = plan(&a, dims.as_deref(), keepdim)?;
    let mut result = sum_dtype(a.dtype, dtype);
    if op == "mean" {
        result = dtype.unwrap_or(a.dtype);
        if !result.is_float() {
            return Err(Error::runtime(format!(
                "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {}",
                result.torch_name()
            )));
        }
    }
    let acc = acc_dtype(result);
    let x = Expr::input(0, a.dtype);
    let pre = if op == "nansum" && a.dtype.is_float() {
        x.clone()
            .is_nan()
            .select(Expr::constant(a.dtype, 0.0), x)
            .cast(acc)
    } else {
        x.cast(acc)
    };
    let (out, scalars) = total_or_mean(op, acc, plan.count);
    let op = if op == "prod" {
        ReduceOp::Prod
    } else {
        ReduceOp::Sum
    };
    reduce(
        call,
        &a,
        &plan,
        Reduction {
            op,
            acc,
            pre,
            outputs: vec![(dest, result, out)],
            scalars,
        },
    )
}

fn sum_out(call: &mut Call, op: &str) -> Result<()> {
    let (dims, keepdim, dtype) = (dims_arg(call, 1)?, call.boolean(2)?, call.dtype(3)?);
    sum_like(call, op, dims, keepdim, dtype, Dest::Arg(4))
}

/// amax/amin, max/min over all elements, max.dim/min.dim, argmax/argmin.
fn extremum(
    call: &mut Call,
    max: bool,
    dims: Option<Vec<i64>>,
    keepdim: bool,
    values: Option<Dest>,
    indices: Option<Dest>,
    name: &str,
) -> Result<()> {
    let a = call.tensor(0)?;
    let plan = plan(&a, dims.as_deref(), keepdim)?;
    if plan.count == 0 {
        if dims.is_none() {
            return Err(Error::runtime(format!(
                "{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."
            )));
        }
        let d = plan.reduced.iter().position(|r| *r).unwrap_or(0);
        return Err(Error::index(format!(
            "{name}(): Expected reduction dim {d} to have non-zero size."
        )));
    }
    if indices.is_some() && a.dtype == DType::Bool && values.is_none() {
        return Err(not_implemented_for(&format!("{name}_cpu"), a.dtype));
    }
    let op = match (max, indices.is_some()) {
        (true, true) => ReduceOp::ArgMax,
        (false, true) => ReduceOp::ArgMin,
        (true, false) => ReduceOp::Max,
        (false, false) => ReduceOp::Min,
    };
    let acc = a.dtype;
    let mut outputs = Vec::new();
    if let Some(dest) = values {
        outputs.push((dest, a.dtype, Expr::input(0, acc)));
    }
    if let Some(dest) = indices {
        outputs.push((dest, DType::I64, Expr::input(1, DType::I64)));
    }
    reduce(
        call,
        &a,
        &plan,
        Reduction {
            op,
            acc,
            pre: Expr::input(0, a.dtype),
            outputs,
            scalars: vec![],
        },
    )
}

fn extremum_name(max: bool, prefix: &str) -> String {
    format!("{prefix}{}", if max { "max" } else { "min" })
}

/// `amax/amin(self, dim, keepdim, out)`.
fn amax_amin(call: &mut Call, max: bool) -> Result<()> {
    let (dims, keepdim) = (call.ints(1)?, call.boolean(2)?);
    let name = extremum_name(max, "a");
    extremum(
        call,
        max,
        Some(dims),
        keepdim,
        Some(Dest::Arg(3)),
        None,
        &name,
    )
}

/// `max()/min()` over every element.
fn full_extremum(call: &mut Call, max: bool, dest: Dest) -> Result<()> {
    let name = extremum_name(max, "");
    extremum(call, max, None, false, Some(dest), None, &name)
}

/// `max.dim/min.dim(self, dim, keepdim, values, indices)`.
fn dim_extremum(call: &mut Call, max: bool) -> Result<()> {
    let (dim, keepdim) = (call.int(1)?, call.boolean(2)?);
    let (values, indices) = (Some(Dest::Arg(3)), Some(Dest::Arg(4)));
    let name = extremum_name(max, "");
    extremum(call, max, Some(vec![dim]), keepdim, values, indices, &name)
}

/// `argmax/argmin(self, dim?, keepdim, out)`.
fn arg_extremum(call: &mut Call, max: bool) -> Result<()> {
    let (dim, keepdim) = (call.optional_int(1)?, call.boolean(2)?);
    let name = extremum_name(max, "arg");
    extremum(
        call,
        max,
        dim.map(|d| vec![d]),
        keepdim,
        None,
        Some(Dest::Arg(3)),
        &name,
    )
}

/// var/std/var_mean/std_mean with `(self, dim, correction, keepdim)`.
fn variance(call: &mut Call, std: bool, with_mean: bool, dests: [Dest; 2]) -> Result<()> {
    if call.complex_component_of(0).is_some() {
        return complex_reduce::variance(call, std, with_mean, dests);
    }
    let a = call.tensor(0)?;
    let dims = dims_arg(call, 1)?;
    let correction = call.optional_scalar(2)?.map_or(1.0, |s| s.to_f64());
    let keepdim = call.boolean(3)?;
    if !a.dtype.is_float() {
        return Err(Error::runtime(
            "std and var only support floating point and complex dtypes",
        ));
    }
    let plan = plan(&a, dims.as_deref(), keepdim)?;
    let acc = acc_dtype(a.dtype);
    let divisor = (plan.count as f64 - correction).max(0.0);
    let mut value = Expr::input(0, acc).div(Expr::scalar(0, acc));
    if std {
        value = value.unary(UnaryOp::Sqrt);
    }
    let mut outputs = vec![(dests[0], a.dtype, value)];
    if with_mean {
        outputs.push((dests[1], a.dtype, Expr::input(1, acc)));
    }
    reduce(
        call,
        &a,
        &plan,
        Reduction {
            op: ReduceOp::Variance,
            acc,
            pre: Expr::input(0, a.dtype).cast(acc),
            outputs,
            scalars: vec![(acc, ScalarArg::float(divisor))],
        },
    )
}

pub const OPS: &[(&str, OpFn)] = &[
    ("sum.IntList_out", |c| {
        route(
            c,
            &[0, 4],
            |c| complex_reduce::sum_or_mean(c, "sum"),
            |c| sum_out(c, "sum"),
        )
    }),
    ("nansum.out", |c| sum_out(c, "nansum")),
    ("nansum", |c| {
        let (dims, keepdim, dtype) = (dims_arg(c, 1)?, c.boolean(2)?, c.dtype(3)?);
        sum_like(c, "nansum", dims, keepdim, dtype, Dest::New)
    }),
    ("mean.out", |c| {
        route(
            c,
            &[0, 4],
            |c| complex_reduce::sum_or_mean(c, "mean"),
            |c| sum_out(c, "mean"),
        )
    }),
    ("prod.int_out", |c| {
        let (dim, keepdim) = (c.int(1)?, c.boolean(2)?);
        if c.complex_component_of(0).is_some() {
            return complex_reduce::prod(c, Some(dim), keepdim, 3, Dest::Arg(4));
        }
        let dtype = c.dtype(3)?;
        sum_like(c, "prod", Some(vec![dim]), keepdim, dtype, Dest::Arg(4))
    }),
    ("prod", |c| {
        if c.complex_component_of(0).is_some() {
            return complex_reduce::prod(c, None, false, 1, Dest::New);
        }
        let dtype = c.dtype(1)?;
        sum_like(c, "prod", None, false, dtype, Dest::New)
    }),
    ("amax.out", |c| amax_amin(c, true)),
    ("amin.out", |c| amax_amin(c, false)),
    ("max", |c| full_extremum(c, true, Dest::New)),
    ("min", |c| full_extremum(c, false, Dest::New)),
    ("max.unary_out", |c| full_extremum(c, true, Dest::Arg(1))),
    ("min.unary_out", |c| full_extremum(c, false, Dest::Arg(1))),
    ("max.dim_max", |c| dim_extremum(c, true)),
    ("min.dim_min", |c| dim_extremum(c, false)),
    ("argmax.out", |c| arg_extremum(c, true)),
    ("argmin.out", |c| arg_extremum(c, false)),
    ("var.correction", |c| {
        variance(c, false, false, [Dest::New; 2])
    }),
    ("var.correction_out", |c| {
        variance(c, false, false, [Dest::Arg(4); 2])
    }),
    ("std.correction", |c| {
        variance(c, true, false, [Dest::New; 2])
    }),
    ("std.correction_out", |c| {
        variance(c, true, false, [Dest::Arg(4); 2])
    }),
    ("var_mean.correction", |c| {
        variance(c, false, true, [Dest::New; 2])
    }),
    ("std_mean.correction", |c| {
        variance(c, true, true, [Dest::New; 2])
    }),
];
