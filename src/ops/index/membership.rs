//! Membership tests: `isin` (each element against a tensor or a scalar of test elements),
//! which generation loops in Hugging Face transformers call every step. Against a tensor it
//! is a reduction over the test elements per element (split across groups when they are
//! many), comparing in the promoted dtype; NaN is in nothing, as on the CPU.

use crate::dtype::DType;
use crate::error::Result;
use crate::kernels::{Expr, ReduceKernel, ReduceOp};
use crate::ops::core::call::{Call, Dest, Operand};
use crate::ops::core::pointwise::{common_dtype, pointwise};
use crate::ops::core::promote::promote_types;
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::reduce::reduce_launch::run_reduce_with;
use crate::ops::shape::copy::{copy, fill};
use smallvec::smallvec;

pub const OPS: &[(&str, OpFn)] = &[
    ("isin.Tensor_Tensor", |c| isin(c, Dest::New)),
    ("isin.Tensor_Tensor_out", |c| isin(c, Dest::Arg(4))),
    ("isin.Tensor_Scalar", |c| isin_scalar(c, Dest::New)),
    ("isin.Tensor_Scalar_out", |c| isin_scalar(c, Dest::Arg(4))),
];

/// `t` as a flat contiguous tensor: itself, or a contiguous copy when it is strided.
fn flat(t: &TensorRef) -> Result<(TensorRef, Option<Scratch>)> {
    let n = t.numel() as i64;
    if t.is_contiguous() {
        let view = TensorRef {
            sizes: smallvec![n],
            strides: smallvec![1],
            ..t.clone()
        };
        return Ok((view, None));
    }
    let copied = Scratch::contiguous(t.device, &t.sizes, t.dtype)?;
    copy(&copied.tensor, t)?;
    let view = TensorRef {
        sizes: smallvec![n],
        strides: smallvec![1],
        ..copied.tensor.clone()
    };
    Ok((view, Some(copied)))
}

/// `isin(elements, test_elements, *, assume_unique, invert)`.
fn isin(call: &mut Call, dest: Dest) -> Result<()> {
    let (elements, test) = (call.tensor(0)?, call.tensor(1)?);
    let invert = call.boolean(3)?;
    let out = call.result(dest, &elements.sizes, DType::Bool, elements.device)?;
    let (n, m) = (elements.numel() as i64, test.numel() as i64);
    if n == 0 {
        return Ok(());
    }
    if m == 0 {
        return fill(&out, &ScalarArg::int(i64::from(invert)));
    }
    let compute = promote_types(elements.dtype, test.dtype)?;
    let (values, _keep_values) = flat(&elements)?;
    let (tests, _keep_tests) = flat(&test)?;
    // Every element against every test element: [n, m], reduced over m.
    let pairs = TensorRef {
        sizes: smallvec![n, m],
        strides: smallvec![0, 1],
        ..tests
    };
    let found = Expr::input(1, elements.dtype)
        .cast(compute)
        .eq(Expr::input(0, test.dtype).cast(compute))
        .cast(DType::I32);
    let any = Expr::input(0, DType::I32);
    let result = if invert {
        any.eq(Expr::constant(DType::I32, 0.0))
    } else {
        any.gt(Expr::constant(DType::I32, 0.0))
    };
    let kernel = ReduceKernel {
        input: test.dtype,
        scalars: vec![],
        pre: found,
        op: ReduceOp::Max,
        acc: DType::I32,
        outputs: vec![(DType::Bool, result)],
        per_output: Some(elements.dtype),
        indexed: false,
        elementwise: None,
        vector: false,
        columns: false,
    };
    let (target, written) = flat(&out)?;
    run_reduce_with(
        kernel,
        &pairs,
        Some(&values),
        &[&target],
        &[false, true],
        &[],
    )?;
    if written.is_some() {
        copy(
            &out,
            &TensorRef {
                sizes: out.sizes.clone(),
                strides: TensorRef::contiguous_strides(&out.sizes).into(),
                ..target
            },
        )?;
    }
    Ok(())
}

/// `isin(elements, test_element: Scalar, *, assume_unique, invert)`: an equality test.
fn isin_scalar(call: &mut Call, dest: Dest) -> Result<()> {
    let elements = call.operand(0)?;
    let test = Operand::Scalar(call.scalar(1)?);
    let invert = call.boolean(3)?;
    let compute = common_dtype(&[&elements, &test])?;
    pointwise(call, &[&elements, &test], dest, compute, DType::Bool, |e| {
        let equal = e[0].clone().eq(e[1].clone());
        if invert {
            equal.eq(Expr::constant(DType::Bool, 0.0))
        } else {
            equal
        }
    })
}
