//! Tensors computed from their index: arange, linspace, logspace and eye; and the zero tensors
//! autograd formulas ask for.

use smallvec::smallvec;
use std::ops::{Add, Div, Mul, Sub};

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::complex::{pow, Parts};
use crate::kernels::functions::Function;
use crate::kernels::{BinaryOp, Expr, MapKernel, UnaryOp};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::{check_dtype, run_map};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::{round_to, ScalarArg};
use crate::ops::elementwise::complex::ComplexOperand;

/// Writes `value` (an expression of the element index and scalar arguments of `dtypes`) into
/// argument `out`, resized to `shape`.
fn fill_by_index(
    call: &mut Call,
    out: usize,
    shape: &[i64],
    scalars: &[(DType, ScalarArg)],
    value: Expr,
) -> Result<()> {
    let mut words = Vec::new();
    for (dtype, s) in scalars {
        words.extend(s.words(*dtype));
    }
    let scalars = scalars.iter().map(|s| s.0).collect();
    if let Some(component) = call.complex_component_of(out) {
        // A complex output: the value as the real part, a zero imaginary part.
        let zero = Expr::constant(component, 0.0);
        return fill_parts_by_index(call, out, component, shape, scalars, words, (value, zero));
    }
    let target = call.tensor(out)?;
    let t = call.result(Dest::Arg(out), shape, target.dtype, target.device)?;
    let kernel = MapKernel {
        inputs: smallvec![],
        scalars: scalars.into(),
        outputs: smallvec![(t.dtype, value.cast(t.dtype))],
    };
    run_map(kernel, &[&t], shape, &words)
}

/// Fills the complex argument `out` (parts of `component`) with `(re, im)` of each element's
/// index, given launch `scalars` and their `words`.
fn fill_parts_by_index(
    call: &mut Call,
    out: usize,
    component: DType,
    shape: &[i64],
    scalars: Vec<DType>,
    words: Vec<u32>,
    (re, im): Parts,
) -> Result<()> {
    let device = call.tensor_arg(out)?.device as usize;
    let t = call.complex_result(Dest::Arg(out), shape, component, device)?;
    let kernel = MapKernel {
        inputs: smallvec![],
        scalars: scalars.into(),
        outputs: smallvec![
            (component, re.cast(component)),
            (component, im.cast(component)),
        ],
    };
    run_map(kernel, &[&t.part(0), &t.part(1)], shape, &words)
}

/// The dtype index arithmetic runs in for an output of `dtype`: float64 when the device has
/// it (CPU computes in double), else float32; int64 for integers.
fn index_dtype(call: &Call, out: usize) -> Result<DType> {
    let t = call.tensor(out)?;
    Ok(if !t.dtype.is_float() {
        DType::I64
    } else if check_dtype(t.device, DType::F64).is_ok() {
        DType::F64
    } else {
        DType::F32
    })
}

/// `arange.start_out(start, end, step, *, out)`.
fn arange(call: &mut Call) -> Result<()> {
    let (mut start, mut end, mut step) = (call.scalar(0)?, call.scalar(1)?, call.scalar(2)?);
    let dtype = index_dtype(call, 3)?;
    // An integer range steps in int64 from the truncated start and step, as CPU and CUDA
    // do; an int64 one also counts its length from the truncated bounds (the others from
    // the bounds as given).
    let truncated = |x: ScalarArg| ScalarArg::int(x.to_f64().trunc() as i64);
    if call.tensor(3)?.dtype == DType::I64 {
        (start, end, step) = (truncated(start), truncated(end), truncated(step));
    }
    let (s, e, d) = (start.to_f64(), end.to_f64(), step.to_f64());
    if d == 0.0 {
        return Err(Error::runtime("step must be nonzero"));
    }
    if !s.is_finite() || !e.is_finite() {
        return Err(Error::runtime(format!("unsupported range: {s} -> {e}")));
    }
    if !((d > 0.0 && e >= s) || (d < 0.0 && e <= s)) {
        return Err(Error::runtime(
            "upper bound and larger bound inconsistent with step sign",
        ));
    }
    let any_float = start.is_float() || end.is_float() || step.is_float();
    let size = if any_float {
        ((e - s) / d).ceil() as i64
    } else {
        let (s, e, d) = (start.i, end.i, step.i);
        (e - s + d - d.signum()) / d
    };
    let value = Expr::Index
        .cast(dtype)
        .mul(Expr::scalar(1, dtype))
        .add(Expr::scalar(0, dtype));
    if !dtype.is_float() {
        (start, step) = (truncated(start), truncated(step));
    }
    fill_by_index(call, 3, &[size], &[(dtype, start), (dtype, step)], value)
}

/// `linspace.out(start, end, steps, *, out)` and `logspace.out(start, end, steps, base, *,
/// out)` (`log`) as CPU and CUDA compute them: one step fills `start` (logspace: `base^start`
/// in double); otherwise the ends are converted to the output's dtype, the step and each
/// value are computed in that dtype (in double for integer outputs; linspace rounds half
/// types after each operation, logspace's exponents stay float32), the first half counting
/// up from `start`, the second down from `end`.
fn linspace(call: &mut Call, log: bool) -> Result<()> {
    let out = if log { 4 } else { 3 };
    if call.int(2)? < 0 {
        return Err(Error::runtime("number of steps must be non-negative"));
    }
    if let Some(component) = call.complex_component_of(out) {
        return complex_linspace(call, log, out, component);
    }
    let (start, end, steps) = (call.scalar(0)?, call.scalar(1)?, call.int(2)?);
    let base = if log { Some(call.double(3)?) } else { None };
    let target = call.tensor(out)?.dtype;
    if steps <= 1 {
        let device = call.tensor(out)?.device;
        let t = call.result(Dest::Arg(out), &[steps], target, device)?;
        if steps == 1 {
            let value = match base {
                Some(base) => base.powf(start.to_f64()),
                None => round_to(start.to_f64(), target),
            };
            crate::ops::shape::copy::fill(&t, &ScalarArg::float(value))?;
        }
        return Ok(());
    }
    let dtype = if target.is_float() {
        target
    } else {
        DType::F64
    };
    let (start, end) = (
        round_to(start.to_f64(), target),
        round_to(end.to_f64(), target),
    );
    // logspace keeps its exponents in float32 for half types.
    let exact = if log && matches!(dtype, DType::F16 | DType::BF16) {
        DType::F32
    } else {
        dtype
    };
    let step = round_to(round_to(end - start, exact) / (steps - 1) as f64, exact);
    let round = |e: Expr| crate::ops::elementwise::math::round_to(e, exact);
    let i = Expr::Index.cast(dtype);
    // Step counts and the base are launch scalars (3 to 5), never kernel constants.
    let halfway = Expr::scalar(3, dtype);
    let last = Expr::scalar(4, dtype);
    let (s0, s1, s2) = (
        Expr::scalar(0, dtype),
        Expr::scalar(1, dtype),
        Expr::scalar(2, dtype),
    );
    // Float32 and float64 fuse each product into its sum, as the CPU's and CUDA's compilers
    // do; half types round after each operation, as their C++ arithmetic does.
    let (up, down) = if exact == dtype && !matches!(dtype, DType::F16 | DType::BF16) {
        let fma = |a: Expr, b: Expr, c: Expr| Expr::call(Function::Fma, vec![a, b, c]);
        (
            fma(s2.clone(), i.clone(), s0),
            fma(-s2, last.sub(i.clone()), s1),
        )
    } else {
        (
            round(s0.add(round(s2.clone().mul(i.clone())))),
            round(s1.sub(round(s2.mul(round(last.sub(i.clone())))))),
        )
    };
    let mut value = i.lt(halfway).select(up, down);
    if base.is_some() {
        value = Expr::scalar(5, dtype).binary(BinaryOp::Pow, value);
        if !target.is_float() {
            // An integer power exactly, though the device's pow may miss it by an ulp.
            let nearest = value.clone().unary(UnaryOp::Round);
            let close = (value.clone() - nearest.clone())
                .unary(UnaryOp::Abs)
                .le(nearest
                    .clone()
                    .unary(UnaryOp::Abs)
                    .with(BinaryOp::Mul, 1e-12));
            value = close.select(nearest, value);
        }
    }
    let scalars = [
        (dtype, ScalarArg::float(start)),
        (dtype, ScalarArg::float(end)),
        (dtype, ScalarArg::float(step)),
        (dtype, ScalarArg::float((steps / 2) as f64)),
        (dtype, ScalarArg::float((steps - 1) as f64)),
        (dtype, ScalarArg::float(base.unwrap_or(1.0))),
    ];
    fill_by_index(call, out, &[steps], &scalars, value)
}

/// linspace/logspace into a complex `out`: each part counts as a real linspace of its ends
/// does (without fused products: CPU's complex arithmetic rounds each product), in the
/// component's compute type; logspace raises the real `base` to each complex value.
fn complex_linspace(call: &mut Call, log: bool, out: usize, component: DType) -> Result<()> {
    let number = |index: usize| match call.complex_operand(index)? {
        ComplexOperand::Scalar { re, im, .. } => Ok([re, im]),
        ComplexOperand::Tensor { .. } => Err(Error::runtime("linspace: expected a number")),
    };
    let (start, mut end, steps) = (number(0)?, number(1)?, call.int(2)?);
    if steps == 1 {
        // Counting down from an end equal to the start gives the start.
        end = start;
    }
    let compute = component.float_acc();
    let step = |p: usize| {
        let span = round_to(end[p] - start[p], component);
        round_to(span / (steps - 1).max(1) as f64, component)
    };
    let mut scalars = vec![
        ScalarArg::float((steps / 2) as f64),
        ScalarArg::float((steps - 1).max(0) as f64),
        ScalarArg::float(if log { call.double(3)? } else { 1.0 }),
    ];
    for p in 0..2 {
        scalars.extend([start[p], end[p], step(p)].map(ScalarArg::float));
    }
    let i = Expr::Index.cast(compute);
    let (halfway, last) = (Expr::scalar(0, compute), Expr::scalar(1, compute));
    let part = |p: usize| {
        let at = |k: usize| Expr::scalar(3 + 3 * p + k, compute);
        let up = at(0).add(at(2).mul(i.clone()));
        let down = at(1).sub(at(2).mul(last.clone().sub(i.clone())));
        i.clone().lt(halfway.clone()).select(up, down)
    };
    let mut value = (part(0), part(1));
    if log {
        let base = (Expr::scalar(2, compute), Expr::constant(compute, 0.0));
        value = pow(&base, &value);
    }
    let words = scalars.iter().flat_map(|s| s.words(compute)).collect();
    let dtypes = vec![compute; scalars.len()];
    fill_parts_by_index(call, out, component, &[steps], dtypes, words, value)
}

/// `eye.m_out(n, m, *, out)`.
/// `_efficientzerotensor(size, dtype, layout, device, pin_memory)` on the current device: a
/// plain tensor of zeros (CPU's and CUDA's ZeroTensor key only saves them the memory).
fn zero_tensor(call: &mut Call) -> Result<()> {
    let sizes = call.ints(0)?;
    let dtype = call.dtype(1)?.unwrap_or(DType::F32);
    let zeros = call.create(&sizes, dtype, crate::runtime::current_device())?;
    crate::ops::shape::copy::fill(&zeros, &ScalarArg::float(0.0))
}

fn eye(call: &mut Call) -> Result<()> {
    let (n, m) = (call.int(0)?, call.int(1)?);
    if n < 0 || m < 0 {
        return Err(Error::runtime(format!(
            "n must be greater or equal to 0, got {}",
            n.min(m)
        )));
    }
    let columns = Expr::scalar(0, DType::I64);
    let value = Expr::Index
        .div(columns.clone())
        .eq(Expr::Index.binary(BinaryOp::Rem, columns));
    let width = ScalarArg::int(m.max(1));
    fill_by_index(call, 2, &[n, m], &[(DType::I64, width)], value)
}

pub const OPS: &[(&str, OpFn)] = &[
    ("_efficientzerotensor", zero_tensor),
    ("arange.start_out", arange),
    ("linspace.out", |c| linspace(c, false)),
    ("logspace.out", |c| linspace(c, true)),
    ("eye.m_out", eye),
];
