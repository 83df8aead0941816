//! Reductions and scans of complex tensors over their (real, imaginary) pair views: sum and
//! mean reduce both parts at once, var/std sum the parts' variances, cumsum scans both parts,
//! prod and cumprod multiply positions pairwise in log2(n) elementwise passes.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{complex, Expr, MapKernel, ReduceOp, ScanKernel, UnaryOp};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::{run_map, run_scan};
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::elementwise::complex::ComplexOperand;
use crate::ops::reduce::reductions::{
    acc_dtype, dims_arg, plan, reduce_into, total_or_mean, wrap_dim, Reduction,
};
use crate::ops::shape::copy::fill;
use smallvec::smallvec;
use std::ops::{Add, Div};

/// sum / mean of a complex tensor: both parts reduced at once over its pair view, the
/// trailing (real, imaginary) dimension kept.
pub fn sum_or_mean(call: &mut Call, op: &str) -> Result<()> {
    let (dims, keepdim) = (dims_arg(call, 1)?, call.boolean(2)?);
    let pairs = complex_input(call, op)?;
    let component = result_component(call, 3, pairs.dtype, op)?;
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
        inputs: smallvec![acc, acc],
        scalars: smallvec![],
        outputs: smallvec![(result.dtype, value.cast(result.dtype))],
    };
    let (re, im) = (per_part.tensor.part(0), per_part.tensor.part(1));
    run_map(kernel, &[&re, &im, &result], &shape, &[])
}

/// cumsum of a complex tensor: both parts summed at once along its pair view.
pub fn cumsum(call: &mut Call) -> Result<()> {
    let view = complex_input(call, "cumsum")?;
    let sizes = view.sizes[..view.sizes.len() - 1].to_vec();
    let dim = wrap_dim(call.int(1)?, sizes.len())?;
    let component = result_component(call, 2, view.dtype, "cumsum")?;
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

/// `out = a * b` over complex pair views of one shape (`out` may be `a`), each product as
/// the CPU's complex multiplication (half types computed in float32).
fn multiply_pairs(a: &TensorRef, b: &TensorRef, out: &TensorRef) -> Result<()> {
    let (d, c) = (a.dtype, a.dtype.float_acc());
    let input = |i: usize| Expr::input(i, d).cast(c);
    let (re, im) = complex::mul(&(input(0), input(1)), &(input(2), input(3)));
    let kernel = MapKernel {
        inputs: smallvec![d; 4],
        scalars: smallvec![],
        outputs: smallvec![
            (out.dtype, re.cast(out.dtype)),
            (out.dtype, im.cast(out.dtype)),
        ],
    };
    let operands = [
        a.part(0),
        a.part(1),
        b.part(0),
        b.part(1),
        out.part(0),
        out.part(1),
    ];
    let refs: Vec<&TensorRef> = operands.iter().collect();
    run_map(kernel, &refs, &a.sizes[..a.sizes.len() - 1], &[])
}

/// A contiguous copy of a complex tensor's pair view in `component`, shaped `[*sizes, 2]`,
/// and the positions `[from, from + len)` of its dimension `dim` as views of it.
struct Along {
    copy: Scratch,
    dim: usize,
}

impl Along {
    fn new(view: &TensorRef, sizes: &[i64], dim: usize, component: DType) -> Result<Self> {
        let copy = Scratch::contiguous(view.device, &[sizes, &[2]].concat(), component)?;
        let reshaped = TensorRef {
            strides: TensorRef::contiguous_strides(&view.sizes).into(),
            sizes: view.sizes.clone(),
            ..copy.tensor.clone()
        };
        crate::ops::shape::copy::copy(&reshaped, view)?;
        Ok(Along { copy, dim })
    }

    fn run(&self, from: i64, len: i64) -> TensorRef {
        let t = &self.copy.tensor;
        let mut view = t.clone();
        view.sizes[self.dim] = len;
        view.address += (from * t.strides[self.dim]) as u64 * t.dtype.size() as u64;
        view
    }
}

/// Argument 0 of a complex reduction or scan as its pair view (a real input reaches it only
/// with a complex `out=`, not supported).
fn complex_input(call: &Call, op: &str) -> Result<TensorRef> {
    match call.complex_operand(0)? {
        ComplexOperand::Tensor {
            view,
            complex: true,
        } => Ok(view),
        _ => Err(Error::not_implemented(format!(
            "mojo: {op} of a real tensor into a complex out= is not supported"
        ))),
    }
}

/// The component dtype of a complex op's result: its input's, or that of a complex `dtype=`
/// argument at `at`.
fn result_component(call: &Call, at: usize, input: DType, op: &str) -> Result<DType> {
    match call.optional_int(at)? {
        None => Ok(input),
        Some(code) => DType::complex_component(code as i32).ok_or_else(|| {
            Error::runtime(format!(
                "{op}(): a complex input needs a complex dtype= argument"
            ))
        }),
    }
}

/// prod of a complex tensor over `dim` (every element when none): halving passes, each
/// multiplying the first half of the remaining positions by the last (a tree of products,
/// where the CPU multiplies in order: equal within rounding). `(self, [dim, keepdim,]
/// dtype[, out])` with the dtype at `dtype_at`.
pub fn prod(
    call: &mut Call,
    dim: Option<i64>,
    keepdim: bool,
    dtype_at: usize,
    dest: Dest,
) -> Result<()> {
    let view = complex_input(call, "prod")?;
    let component = result_component(call, dtype_at, view.dtype, "prod")?;
    let sizes = view.sizes[..view.sizes.len() - 1].to_vec();
    let (reduced, dim) = match dim {
        Some(d) if !sizes.is_empty() => (sizes.clone(), wrap_dim(d, sizes.len())?),
        Some(d) => (vec![1], wrap_dim(d, 1)?),
        None => (vec![sizes.iter().product()], 0),
    };
    let mut shape = reduced.clone();
    if keepdim && !sizes.is_empty() && sizes.len() == reduced.len() {
        shape[dim] = 1;
    } else {
        shape.remove(dim);
    }
    let out = call.complex_result(dest, &shape, component, view.device)?;
    let along = Along::new(&view, &reduced, dim, component)?;
    let mut n = reduced[dim];
    if n == 0 {
        fill(&out.part(0), &ScalarArg::float(1.0))?;
        return fill(&out.part(1), &ScalarArg::float(0.0));
    }
    while n > 1 {
        let half = n / 2;
        let first = along.run(0, half);
        multiply_pairs(&first, &along.run(n - half, half), &first)?;
        n -= half;
    }
    let mut result = along.run(0, 1);
    if shape.len() < reduced.len() {
        result.sizes.remove(dim);
        result.strides.remove(dim);
    }
    crate::ops::shape::copy::copy(&out, &result)
}

/// cumprod of a complex tensor (`self, dim, dtype, out`): doubling passes, position `i` of
/// pass `k` multiplied by position `i - 2^k` of the pass before (products in another order
/// than the CPU's loop: equal within rounding).
pub fn cumprod(call: &mut Call) -> Result<()> {
    let view = complex_input(call, "cumprod")?;
    let sizes = view.sizes[..view.sizes.len() - 1].to_vec();
    let dim = wrap_dim(call.int(1)?, sizes.len())?;
    let component = result_component(call, 2, view.dtype, "cumprod")?;
    let out = call.complex_result(Dest::Arg(3), &sizes, component, view.device)?;
    if sizes.is_empty() || out.numel() == 0 {
        return crate::ops::shape::copy::copy(&out, &view);
    }
    let mut from = Along::new(&view, &sizes, dim, component)?;
    let mut to = Along::new(&view, &sizes, dim, component)?;
    let n = sizes[dim];
    let mut step = 1;
    while step < n {
        multiply_pairs(
            &from.run(step, n - step),
            &from.run(0, n - step),
            &to.run(step, n - step),
        )?;
        crate::ops::shape::copy::copy(&to.run(0, step), &from.run(0, step))?;
        std::mem::swap(&mut from, &mut to);
        step *= 2;
    }
    crate::ops::shape::copy::copy(&out, &from.run(0, n))
}
