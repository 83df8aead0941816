//! Reductions built on the shared planning: logical any/all, vector norms, logsumexp,
//! count_nonzero, and the scans cumsum and cumprod.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::complex::{magnitude, truth};
use crate::kernels::{BinaryOp, Expr, ReduceOp, ScanKernel, UnaryOp};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::run_scan;
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::elementwise::complex::{self};
use crate::ops::reduce::complex_reduce;
use crate::ops::reduce::reductions::{
    acc_dtype, dims_arg, plan, reduce, sum_dtype, wrap_dim, Reduction,
};
use std::ops::{Add, Mul};

/// any/all with `(self, dims?, keepdim, out)` (`dims` index None: over everything).
fn logical(
    call: &mut Call,
    all: bool,
    dims: Option<usize>,
    keepdim: Option<usize>,
    out: usize,
) -> Result<()> {
    let (a, _truths) = truths_or_tensor(call, 0)?;
    let dims = match dims {
        Some(i) => dims_arg(call, i)?,
        None => None,
    };
    let keepdim = match keepdim {
        Some(i) => call.boolean(i)?,
        None => false,
    };
    let plan = plan(&a, dims.as_deref(), keepdim)?;
    let result = if a.dtype == DType::U8 {
        DType::U8
    } else {
        DType::Bool
    };
    reduce(
        call,
        &a,
        &plan,
        Reduction {
            op: if all { ReduceOp::Prod } else { ReduceOp::Sum },
            acc: DType::Bool,
            pre: Expr::input(0, a.dtype).cast(DType::Bool),
            outputs: vec![(Dest::Arg(out), result, Expr::input(0, DType::Bool))],
            scalars: vec![],
        },
    )
}

/// linalg_vector_norm with `(self, ord, dim, keepdim, dtype, out)`.
fn vector_norm(
    call: &mut Call,
    ord: f64,
    dims: Option<Vec<i64>>,
    keepdim: bool,
    dtype: Option<DType>,
    dest: Dest,
) -> Result<()> {
    // A complex tensor's norm is its magnitudes' norm.
    let magnitudes = complex::per_element(call, 0, None, magnitude)?;
    let a = match &magnitudes {
        Some(m) => m.tensor.clone(),
        None => call.tensor(0)?,
    };
    if !a.dtype.is_float() {
        return Err(Error::runtime(format!(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got {}",
            a.dtype.torch_name()
        )));
    }
    let plan = plan(&a, dims.as_deref(), keepdim)?;
    if ord.is_infinite() && plan.count == 0 {
        return Err(Error::index(
            "linalg.vector_norm cannot compute the inf norm on an empty tensor because the operation does not have an identity",
        ));
    }
    let result = dtype.unwrap_or(a.dtype);
    let acc = acc_dtype(result);
    let abs = Expr::input(0, a.dtype).cast(acc).unary(UnaryOp::Abs);
    let x0 = Expr::input(0, acc);
    let (op, pre, out, scalars) = if ord == f64::INFINITY {
        (ReduceOp::Max, abs, x0, vec![])
    } else if ord == f64::NEG_INFINITY {
        (ReduceOp::Min, abs, x0, vec![])
    } else if ord == 0.0 {
        let nonzero = abs.gt(Expr::constant(acc, 0.0)).cast(acc);
        (ReduceOp::Sum, nonzero, x0, vec![])
    } else if ord == 1.0 {
        (ReduceOp::Sum, abs, x0, vec![])
    } else if ord == 2.0 {
        (
            ReduceOp::Sum,
            abs.clone().mul(abs),
            x0.unary(UnaryOp::Sqrt),
            vec![],
        )
    } else {
        let p = Expr::scalar(0, acc);
        let inv = Expr::scalar(1, acc);
        (
            ReduceOp::Sum,
            abs.binary(BinaryOp::Pow, p),
            x0.binary(BinaryOp::Pow, inv),
            vec![
                (acc, ScalarArg::float(ord)),
                (acc, ScalarArg::float(1.0 / ord)),
            ],
        )
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

fn logsumexp(call: &mut Call) -> Result<()> {
    let a = call.tensor(0)?;
    let dims = dims_arg(call, 1)?;
    let keepdim = call.boolean(2)?;
    let plan = plan(&a, dims.as_deref(), keepdim)?;
    let result = if a.dtype.is_float() {
        a.dtype
    } else {
        DType::F32
    };
    let acc = acc_dtype(result);
    let out = Expr::input(0, acc)
        .unary(UnaryOp::Log)
        .add(Expr::input(1, acc));
    reduce(
        call,
        &a,
        &plan,
        Reduction {
            op: ReduceOp::LogSumExp,
            acc,
            pre: Expr::input(0, a.dtype).cast(acc),
            outputs: vec![(Dest::Arg(3), result, out)],
            scalars: vec![],
        },
    )
}

/// A complex argument as whether each element is nonzero; a real one as it is.
fn truths_or_tensor(call: &Call, index: usize) -> Result<(TensorRef, Option<Scratch>)> {
    Ok(
        match complex::per_element(call, index, Some(DType::Bool), truth)? {
            Some(t) => (t.tensor.clone(), Some(t)),
            None => (call.tensor(index)?, None),
        },
    )
}

fn count_nonzero(call: &mut Call) -> Result<()> {
    let (a, _truths) = truths_or_tensor(call, 0)?;
    let dims = call.ints(1)?;
    let plan = plan(&a, Some(&dims), false)?;
    let pre = Expr::input(0, a.dtype).cast(DType::Bool).cast(DType::I64);
    reduce(
        call,
        &a,
        &plan,
        Reduction {
            op: ReduceOp::Sum,
            acc: DType::I64,
            pre,
            outputs: vec![(Dest::New, DType::I64, Expr::input(0, DType::I64))],
            scalars: vec![],
        },
    )
}

/// cumsum/cumprod with `(self, dim, dtype, out)`.
fn scan(call: &mut Call, prod: bool) -> Result<()> {
    if call.complex_component_of(0).is_some() {
        return if prod {
            complex_reduce::cumprod(call)
        } else {
            complex_reduce::cumsum(call)
        };
    }
    let a = call.tensor(0)?;
    let dim = wrap_dim(call.int(1)?, a.sizes.len())?;
    let result = sum_dtype(a.dtype, call.dtype(2)?);
    let out = call.result(Dest::Arg(3), &a.sizes, result, a.device)?;
    if a.sizes.is_empty() {
        return crate::ops::shape::copy::copy(&out, &a);
    }
    let kernel = ScanKernel {
        carry: false,
        input: a.dtype,
        acc: acc_dtype(result),
        output: out.dtype,
        op: if prod { ReduceOp::Prod } else { ReduceOp::Sum },
        vector: false,
    };
    run_scan(kernel, &a, &out, dim)
}

/// A norm's `dtype` argument as the real dtype it computes in: a complex input takes a
/// complex dtype (its component is used), a real input a real one, as PyTorch checks.
fn norm_dtype(call: &Call, index: usize) -> Result<Option<DType>> {
    let Some(code) = call.optional_int(index)? else {
        return Ok(None);
    };
    let component = DType::complex_component(code as i32);
    let input_complex = call.complex_component_of(0).is_some();
    match (component, input_complex) {
        (Some(component), true) => Ok(Some(component)),
        (None, false) => Ok(Some(DType::from_code(code as i32)?)),
        (_, true) => Err(Error::runtime(format!(
            "linalg.vector_norm: dtype should be complex for complex inputs, but got {}",
            DType::from_code(code as i32)?.torch_name()
        ))),
        (Some(component), false) => Err(Error::runtime(format!(
            "linalg.vector_norm: dtype should be real for real inputs, but got {}",
            component.complex_torch_name()
        ))),
    }
}

fn norm_out(call: &mut Call, with_dtype: bool) -> Result<()> {
    let p = call.optional_scalar(1)?.map_or(2.0, |s| s.to_f64());
    let dims = call.ints(2)?;
    let keepdim = call.boolean(3)?;
    let (dtype, out) = if with_dtype {
        (norm_dtype(call, 4)?, 5)
    } else {
        (None, 4)
    };
    vector_norm(call, p, Some(dims), keepdim, dtype, Dest::Arg(out))
}

pub const OPS: &[(&str, OpFn)] = &[
    ("any.all_out", |c| logical(c, false, None, None, 1)),
    ("all.all_out", |c| logical(c, true, None, None, 1)),
    ("any.dims_out", |c| logical(c, false, Some(1), Some(2), 3)),
    ("all.dims_out", |c| logical(c, true, Some(1), Some(2), 3)),
    ("any.out", |c| logical(c, false, Some(1), Some(2), 3)),
    ("all.out", |c| logical(c, true, Some(1), Some(2), 3)),
    ("linalg_vector_norm.out", |c| {
        let ord = c.scalar(1)?.to_f64();
        let (dims, keepdim, dtype) = (dims_arg(c, 2)?, c.boolean(3)?, norm_dtype(c, 4)?);
        vector_norm(c, ord, dims, keepdim, dtype, Dest::Arg(5))
    }),
    ("norm.out", |c| norm_out(c, false)),
    ("norm.dtype_out", |c| norm_out(c, true)),
    ("logsumexp.out", logsumexp),
    ("count_nonzero.dim_IntList", count_nonzero),
    ("cumsum.out", |c| scan(c, false)),
    ("cumprod.out", |c| scan(c, true)),
];
