//! Sorting and what builds on it: sort, topk and unique.

use super::call::{Call, Dest};
use super::copy::{copy, fill};
use super::index_launch::{run_accumulate, run_index, run_sort, Fault, IndexArg};
use super::indexing::at_least_1d;
use super::launch::{run_map, run_scan};
use super::reduce::wrap_dim;
use super::registry::OpFn;
use super::scalar::ScalarArg;
use super::scratch::Scratch;
use super::shape::narrow;
use super::tensor::TensorRef;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Accumulate, Expr, MapKernel, ReduceOp, ScanKernel};
use crate::runtime::backend;

/// `sort.values_stable(self, stable, dim, descending, values, indices)`.
fn sort(call: &mut Call) -> Result<()> {
    let a = call.tensor(0)?;
    let dim = wrap_dim(call.int(2)?, a.sizes.len())?;
    let descending = call.boolean(3)?;
    let values = call.result(Dest::Arg(4), &a.sizes, a.dtype, a.device)?;
    let indices = call.result(Dest::Arg(5), &a.sizes, DType::I64, a.device)?;
    run_sort(
        descending,
        &at_least_1d(&a),
        &at_least_1d(&values),
        &at_least_1d(&indices),
        dim,
    )
}

/// `topk.values(self, k, dim, largest, sorted, values, indices)`: the first `k` of a sort.
fn topk(call: &mut Call) -> Result<()> {
    let a = call.tensor(0)?;
    let k = call.int(1)?;
    let dim = wrap_dim(call.int(2)?, a.sizes.len())?;
    let largest = call.boolean(3)?;
    let a1 = at_least_1d(&a);
    if k < 0 || k > a1.sizes[dim] {
        return Err(Error::runtime("selected index k out of range"));
    }
    let mut sizes = a.sizes.clone();
    if !sizes.is_empty() {
        sizes[dim] = k;
    }
    let values = call.result(Dest::Arg(5), &sizes, a.dtype, a.device)?;
    let indices = call.result(Dest::Arg(6), &sizes, DType::I64, a.device)?;
    let sorted = Scratch::contiguous(a.device, &a1.sizes, a.dtype)?;
    let order = Scratch::contiguous(a.device, &a1.sizes, DType::I64)?;
    run_sort(largest, &a1, &sorted.tensor, &order.tensor, dim)?;
    copy(&at_least_1d(&values), &narrow(&sorted.tensor, dim, 0, k))?;
    copy(&at_least_1d(&indices), &narrow(&order.tensor, dim, 0, k))
}

/// `x[1:] != x[:-1]` over a sorted vector, with element 0 marked: where each run starts.
fn run_starts(sorted: &TensorRef) -> Result<Scratch> {
    let n = sorted.sizes[0];
    let starts = Scratch::contiguous(sorted.device, &[n], DType::I64)?;
    fill(&narrow(&starts.tensor, 0, 0, 1), &ScalarArg::float(1.0))?;
    if n > 1 {
        let dtype = sorted.dtype;
        let differs = Expr::input(0, dtype)
            .eq(Expr::input(1, dtype))
            .unary(crate::kernels::UnaryOp::Not)
            .cast(DType::I64);
        let kernel = MapKernel {
            inputs: vec![dtype, dtype],
            scalars: vec![],
            outputs: vec![(DType::I64, differs)],
        };
        run_map(
            kernel,
            &[
                &narrow(sorted, 0, 1, n - 1),
                &narrow(sorted, 0, 0, n - 1),
                &narrow(&starts.tensor, 0, 1, n - 1),
            ],
            &[n - 1],
            &[],
        )?;
    }
    Ok(starts)
}

/// The sorted distinct values of `a`, each element's position among them (shaped like `a`;
/// empty unless `with_inverse`) and, when `counts` is given, each value's count (empty unless
/// `Some(true)`).
fn unique(call: &mut Call, a: &TensorRef, with_inverse: bool, counts: Option<bool>) -> Result<()> {
    let n = a.numel() as i64;
    let flat = Scratch::contiguous(a.device, &a.sizes, a.dtype)?;
    copy(&flat.tensor, a)?;
    let flat = TensorRef {
        sizes: vec![n],
        strides: vec![1],
        ..flat.tensor.clone()
    };
    let sorted = Scratch::contiguous(a.device, &[n], a.dtype)?;
    let order = Scratch::contiguous(a.device, &[n], DType::I64)?;
    run_sort(false, &flat, &sorted.tensor, &order.tensor, 0)?;
    let starts = run_starts(&sorted.tensor)?;
    // Run number of each sorted element: the running count of starts, minus one.
    let group = Scratch::contiguous(a.device, &[n], DType::I64)?;
    let scan = ScanKernel {
        input: DType::I64,
        acc: DType::I64,
        output: DType::I64,
        op: ReduceOp::Sum,
    };
    run_scan(scan, &starts.tensor, &group.tensor, 0)?;
    let count = if n == 0 {
        0
    } else {
        let mut bytes = [0u8; 8];
        let last = narrow(&group.tensor, 0, n - 1, 1);
        backend()?.read(last.address, &mut bytes)?;
        i64::from_le_bytes(bytes)
    };
    let minus_one = Expr::input(0, DType::I64) - Expr::constant(DType::I64, 1.0);
    let kernel = MapKernel {
        inputs: vec![DType::I64],
        scalars: vec![],
        outputs: vec![(DType::I64, minus_one)],
    };
    run_map(kernel, &[&group.tensor, &group.tensor], &[n], &[])?;
    let fault = || Fault::index("unique: internal index out of range".into());
    let values = call.create(&[count], a.dtype, a.device)?;
    run_index(
        true,
        &[n],
        (&sorted.tensor, vec![1]),
        (&values, vec![0]),
        &[IndexArg {
            tensor: &group.tensor,
            strides: vec![1],
            loop_strides: vec![],
            bound: count,
            target: values.strides.first().copied().unwrap_or(1),
        }],
        fault(),
    )?;
    let inverse_sizes = if with_inverse {
        a.sizes.clone()
    } else {
        vec![0]
    };
    let inverse = call.create(&inverse_sizes, DType::I64, a.device)?;
    if with_inverse {
        run_index(
            true,
            &[n],
            (&group.tensor, vec![1]),
            (&inverse, vec![0]),
            &[IndexArg {
                tensor: &order.tensor,
                strides: vec![1],
                loop_strides: vec![],
                bound: n,
                target: 1,
            }],
            fault(),
        )?;
    }
    let Some(with_counts) = counts else {
        return Ok(());
    };
    let counts = call.create(&[if with_counts { count } else { 0 }], DType::I64, a.device)?;
    if with_counts {
        let zero = Scratch::contiguous(a.device, &[], DType::I64)?;
        fill(&zero.tensor, &ScalarArg::float(0.0))?;
        let one = Scratch::contiguous(a.device, &[], DType::I64)?;
        fill(&one.tensor, &ScalarArg::float(1.0))?;
        run_accumulate(
            Accumulate::Sum,
            true,
            (&zero.tensor, vec![0]),
            &counts,
            &[count],
            &[n],
            (&one.tensor, vec![0], vec![0]),
            &[IndexArg {
                tensor: &group.tensor,
                strides: vec![0],
                loop_strides: vec![1],
                bound: count,
                target: 0,
            }],
            fault(),
        )?;
    }
    Ok(())
}

/// `_unique2(self, sorted, return_inverse, return_counts)`; results are always sorted, as
/// on CUDA.
fn unique2(call: &mut Call) -> Result<()> {
    let a = call.tensor(0)?;
    let (inverse, counts) = (call.boolean(2)?, call.boolean(3)?);
    unique(call, &a, inverse, Some(counts))
}

/// `_unique(self, sorted, return_inverse)`: the values and the inverse.
fn unique1(call: &mut Call) -> Result<()> {
    let a = call.tensor(0)?;
    let inverse = call.boolean(2)?;
    unique(call, &a, inverse, None)
}

pub const OPS: &[(&str, OpFn)] = &[
    ("sort.values_stable", sort),
    ("topk.values", topk),
    ("_unique2", unique2),
    ("_unique", unique1),
];
