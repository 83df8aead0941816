//! Counting ops: bincount and histc, as deterministic accumulations into bins.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Accumulate, Expr, MapKernel, ReduceOp};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::{reduce_to_host, run_map};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::index::accumulate::run_accumulate;
use crate::ops::index::index_launch::{Fault, IndexArg};
use crate::ops::shape::copy::{copy, fill};
use crate::ops::shape::rearrange::narrow;
use smallvec::smallvec;

/// Adds `values` (one per element of `bins`, or ones) into `out` at the bin numbers `bins`
/// (int64, all within `out`).
fn count_into(out: &TensorRef, bins: &TensorRef, values: Option<&TensorRef>) -> Result<()> {
    let zero = Scratch::contiguous(out.device, &[], out.dtype)?;
    fill(&zero.tensor, &ScalarArg::float(0.0))?;
    let one = Scratch::contiguous(out.device, &[], out.dtype)?;
    fill(&one.tensor, &ScalarArg::float(1.0))?;
    let cast;
    let (values, strides) = match values {
        Some(v) if v.dtype == out.dtype => (v, v.strides.to_vec()),
        Some(v) => {
            cast = Scratch::contiguous(out.device, &v.sizes, out.dtype)?;
            copy(&cast.tensor, v)?;
            (&cast.tensor, cast.tensor.strides.to_vec())
        }
        None => (&one.tensor, vec![0; bins.sizes.len()]),
    };
    run_accumulate(
        Accumulate::Sum,
        true,
        (&zero.tensor, vec![0]),
        out,
        &out.sizes,
        &bins.sizes,
        (values, vec![0], strides),
        &[IndexArg {
            tensor: bins,
            strides: vec![0],
            loop_strides: bins.strides.to_vec(),
            bound: out.sizes[0],
            target: 0,
        }],
        Fault::runtime("bincount: bin out of range".into()),
    )
}

/// `bincount(self, weights, minlength)`.
fn bincount(call: &mut Call) -> Result<()> {
    let a = call.tensor(0)?;
    let weights = call.optional_tensor(1)?;
    let minlength = call.int(2)?;
    if a.sizes.len() != 1 || a.dtype.is_float() || a.dtype == DType::Bool {
        return Err(Error::runtime(
            "bincount only supports 1-d non-negative integral inputs.",
        ));
    }
    if minlength < 0 {
        return Err(Error::runtime("minlength should be >= 0"));
    }
    if let Some(w) = &weights {
        if w.sizes.len() != 1 || w.sizes[0] != a.sizes[0] {
            return Err(Error::runtime(
                "weights should be 1-d and have the same length as input",
            ));
        }
    }
    let n = a.sizes[0];
    let length = if n == 0 {
        minlength
    } else {
        if reduce_to_host(&a, ReduceOp::Min)? < 0.0 {
            return Err(Error::runtime(
                "bincount only supports 1-d non-negative integral inputs.",
            ));
        }
        minlength.max(reduce_to_host(&a, ReduceOp::Max)? as i64 + 1)
    };
    let dtype = match &weights {
        None => DType::I64,
        Some(w) if w.dtype == DType::F32 => DType::F32,
        Some(_) => DType::F64,
    };
    let out = call.create(&[length], dtype, a.device)?;
    if length == 0 {
        return Ok(());
    }
    let bins = Scratch::contiguous(a.device, &[n], DType::I64)?;
    copy(&bins.tensor, &a)?;
    count_into(&out, &bins.tensor, weights.as_ref())
}

/// `histc.out(self, bins, min, max, out)`: `bins` equal-width bins over `[min, max]` (the data's
/// range when both are 0); elements outside are not counted.
fn histc(call: &mut Call, dest: Dest) -> Result<()> {
    let a = call.tensor(0)?;
    let bins = call.int(1)?;
    let (mut low, mut high) = (call.double(2)?, call.double(3)?);
    if !a.dtype.is_float() {
        return Err(crate::ops::core::pointwise::not_implemented_for(
            "histogram_cpu",
            a.dtype,
        ));
    }
    if bins <= 0 {
        return Err(Error::runtime(format!(
            "torch.histc(): bins must be > 0, but got {bins} for dimension 0"
        )));
    }
    if low == high && a.numel() > 0 {
        low = reduce_to_host(&a, ReduceOp::Min)?;
        high = reduce_to_host(&a, ReduceOp::Max)?;
    }
    if low == high {
        low -= 1.0;
        high += 1.0;
    }
    if low > high || !low.is_finite() || !high.is_finite() {
        return Err(Error::runtime(format!(
            "torch.histc(): max must be larger than min, but got min {low} max {high}"
        )));
    }
    let out = call.result(dest, &[bins], a.dtype, a.device)?;
    // Bin number per element: `bins` (an overflow bin) outside the range.
    let n = a.numel() as i64;
    let numbers = Scratch::contiguous(a.device, &a.sizes, DType::I64)?;
    // As the CPU: (x - min) * bins / (max - min) in the input's dtype, truncated; the top
    // edge belongs to the last bin.
    let dtype = a.dtype;
    let x = Expr::input(0, dtype);
    let (lo, hi, count) = (
        Expr::scalar(0, dtype),
        Expr::scalar(1, dtype),
        Expr::scalar(2, DType::I64),
    );
    let position = ((x.clone() - lo.clone()) * count.clone().cast(dtype)
        / (hi.clone() - lo.clone()))
    .cast(DType::I64);
    let last = count.clone() - Expr::constant(DType::I64, 1.0);
    let position = position.clone().ge(count.clone()).select(last, position);
    let inside = x.clone().ge(lo).and(x.le(hi));
    let number = inside.select(position, count);
    let kernel = MapKernel {
        inputs: smallvec![dtype],
        scalars: smallvec![dtype, dtype, DType::I64],
        outputs: smallvec![(DType::I64, number)],
    };
    let mut words = ScalarArg::float(low).words(dtype);
    words.extend(ScalarArg::float(high).words(dtype));
    words.extend(ScalarArg::int(bins).words(DType::I64));
    run_map(kernel, &[&a, &numbers.tensor], &a.sizes, &words)?;
    let with_overflow = Scratch::contiguous(a.device, &[bins + 1], a.dtype)?;
    let flat = TensorRef {
        sizes: smallvec![n],
        strides: smallvec![1],
        ..numbers.tensor.clone()
    };
    count_into(&with_overflow.tensor, &flat, None)?;
    copy(&out, &narrow(&with_overflow.tensor, 0, 0, bins))
}

pub const OPS: &[(&str, OpFn)] = &[
    ("bincount", bincount),
    ("histc", |c| histc(c, Dest::New)),
    ("histc.out", |c| histc(c, Dest::Arg(4))),
];
