//! Reductions and scans of complex tensors over their (real, imaginary) pair views: sum and
//! mean reduce both parts at once, var/std sum the parts' variances, cumsum scans both parts.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Expr, MapKernel, ReduceOp, ScanKernel, UnaryOp};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::{run_map, run_scan};
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::elementwise::complex::ComplexOperand;
use crate::ops::reduce::reductions::{
    acc_dtype, dims_arg, plan, reduce_into, total_or_mean, wrap_dim, Reduction,
};
use std::ops::{Add, Div};

/// sum / mean of a complex tensor: both parts reduced at once over its pair view, the
/// trailing (real, imaginary) dimension kept.
pub fn sum_or_mean(call: &mut Call, op: &str) -> Result<()> {
    let (dims, keepdim) = (dims_arg(call, 1)?, call.boolean(2)?);
    let ComplexOperand::Tensor {
        view: pairs,
        complex: true,
    } = call.complex_operand(0)?
    else {
        return Err(Error::not_implemented(format!(
            "mojo: {op} of a real tensor into a complex out= is not supported"
        )));
    };
    let component = match call.optional_int(3)? {
        None => pairs.dtype,
        Some(code) => DType::complex_component(code as i32).ok_or_else(|| {
            Error::runtime(format!(
                "{op}(): a complex input needs a complex dtype= argument"
            ))
        })?,
    };
    let parts = plan(&pairs.part(0), dims.as_deref(), keepdim)?;
    let out = call.complex_result(Dest::Arg(4), &parts.out_shape, component, pairs.device)?;
    let mut both = parts;
    both.reduced.push(false);
    both.out_shape.push(2);
    let acc = acc_dtype(component);
    let (value, scalars) = total_or_mean(op, acc, both.count);
    let r = Reduction {
        op: ReduceOp::Sum,
        acc,
        pre: Expr::input(0, pairs.dtype).cast(acc),
        outputs: vec![(Dest::New, component, value)],
        scalars,
    };
    reduce_into(&pairs, &both, r, vec![out])
}

/// var/std (and their means) of a complex tensor: the variance of each part over its pair
/// view (the means, complex, at once), then their sum (a real result).
pub fn variance(call: &mut Call, std: bool, with_mean: bool, dests: [Dest; 2]) -> Result<()> {
    let dims = dims_arg(call, 1)?;
    let correction = call.optional_scalar(2)?.map_or(1.0, |s| s.to_f64());
    let keepdim = call.boolean(3)?;
    let ComplexOperand::Tensor { view: pairs, .. } = call.complex_operand(0)? else {
        return Err(Error::runtime("mojo: var expects a tensor"));
    };
    let (component, device) = (pairs.dtype, pairs.device);
    let mut both = plan(&pairs.part(0), dims.as_deref(), keepdim)?;
    let shape = both.out_shape.clone();
    let divisor = (both.count as f64 - correction).max(0.0);
    both.reduced.push(false);
    both.out_shape.push(2);
    let acc = acc_dtype(component);
    let result = call.result(dests[0], &shape, component, device)?;
    let per_part = Scratch::contiguous(device, &both.out_shape, acc)?;
    let mut outputs = vec![(
        Dest::New,
        acc,
        Expr::input(0, acc).div(Expr::scalar(0, acc)),
    )];
    let mut tensors = vec![per_part.tensor.clone()];
    if with_mean {
        tensors.push(call.complex_result(dests[1], &shape, component, device)?);
        outputs.push((Dest::New, component, Expr::input(1, acc)));
    }
    let r = Reduction {
        op: ReduceOp::Variance,
        acc,
        pre: Expr::input(0, component).cast(acc),
        outputs,
        scalars: vec![(acc, ScalarArg::float(divisor))],
    };
    reduce_into(&pairs, &both, r, tensors)?;
    let mut value = Expr::input(0, acc).add(Expr::input(1, acc));
    if std {
        value = value.unary(UnaryOp::Sqrt);
    }
    let kernel = MapKernel {
        inputs: vec![acc, acc],
        scalars: vec![],
        outputs: vec![(result.dtype, value.cast(result.dtype))],
    };
    let (re, im) = (per_part.tensor.part(0), per_part.tensor.part(1));
    run_map(kernel, &[&re, &im, &result], &shape, &[])
}

/// cumsum of a complex tensor: both parts summed at once along its pair view.
pub fn cumsum(call: &mut Call) -> Result<()> {
    let ComplexOperand::Tensor {
        view,
        complex: true,
    } = call.complex_operand(0)?
    else {
        return Err(Error::not_implemented(
            "mojo: cumsum of a real tensor into a complex out= is not supported",
        ));
    };
    let sizes = view.sizes[..view.sizes.len() - 1].to_vec();
    let dim = wrap_dim(call.int(1)?, sizes.len())?;
    let component = match call.optional_int(2)? {
        None => view.dtype,
        Some(code) => DType::complex_component(code as i32).ok_or_else(|| {
            Error::runtime("cumsum(): a complex input needs a complex dtype= argument")
        })?,
    };
    let out = call.complex_result(Dest::Arg(3), &sizes, component, view.device)?;
    if sizes.is_empty() {
        return crate::ops::shape::copy::copy(&out, &view);
    }
    let kernel = ScanKernel {
        carry: false,
        input: view.dtype,
        acc: component.float_acc(),
        output: component,
        op: ReduceOp::Sum,
        vector: false,
    };
    run_scan(kernel, &view, &out, dim)
}
