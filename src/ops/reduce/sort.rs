//! Sorting and what builds on it: sort, topk and unique.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Expr, MapKernel, ReduceKernel, ReduceOp, ScanKernel, UnaryOp};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::{run_map, run_reduce, run_scan};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::index::index_launch::{run_index, Fault, IndexArg};
use crate::ops::index::indexing::at_least_1d;
use crate::ops::reduce::reductions::wrap_dim;
use crate::ops::reduce::sort_launch::{dim_last, run_select, run_sort};
use crate::ops::reduce::top_launch::run_top;
use crate::ops::shape::copy::{copy, fill};
use crate::ops::shape::rearrange::narrow;
use crate::runtime::backend;
use smallvec::smallvec;

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

/// Lines at least this long select by radix passes (topk, kthvalue) instead of sorting.
const SELECT_MIN: i64 = 1024;

/// `topk.values(self, k, dim, largest, sorted, values, indices)`: the first `k` of a stable
/// sort (long lines: for `k` up to 64 the best of tiles in rounds, above it the `k` a radix
/// selection picks, then sorted).
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
    if a1.sizes[dim] >= SELECT_MIN {
        if let Some((top, order)) = run_top(largest, &a1, dim, k)? {
            copy(&dim_last(&at_least_1d(&values), dim), &top.tensor)?;
            return copy(&dim_last(&at_least_1d(&indices), dim), &order.tensor);
        }
    }
    if k > 0 && a1.sizes[dim] >= SELECT_MIN {
        if let Some((picked, order)) = run_select(largest, &a1, dim, k)? {
            let last = a1.sizes.len() - 1;
            let picked = narrow(&picked.tensor, last, 0, k);
            let order = narrow(&order.tensor, last, 0, k);
            // Sorted among themselves (stably: equal keys stay in index order), and each
            // takes its original index.
            let perm = Scratch::contiguous(a.device, &picked.sizes, DType::I64)?;
            let values = dim_last(&at_least_1d(&values), dim);
            let indices = dim_last(&at_least_1d(&indices), dim);
            run_sort(largest, &picked, &values, &perm.tensor, last)?;
            let mut from = order.strides.clone();
            from[last] = 0;
            return run_index(
                false,
                &picked.sizes,
                (&order, from.to_vec()),
                (&indices, indices.strides.to_vec()),
                &[IndexArg {
                    tensor: &perm.tensor,
                    strides: perm.tensor.strides.to_vec(),
                    loop_strides: vec![],
                    bound: k,
                    target: order.strides[last],
                }],
                Fault::runtime("topk: internal index out of range".into()),
            );
        }
    }
    let sorted = Scratch::contiguous(a.device, &a1.sizes, a.dtype)?;
    let order = Scratch::contiguous(a.device, &a1.sizes, DType::I64)?;
    run_sort(largest, &a1, &sorted.tensor, &order.tensor, dim)?;
    copy(&at_least_1d(&values), &narrow(&sorted.tensor, dim, 0, k))?;
    copy(&at_least_1d(&indices), &narrow(&order.tensor, dim, 0, k))
}

/// `kthvalue.values(self, k, dim, keepdim, values, indices)`: the `k`-th smallest element
/// along `dim` (NaN the largest) and its index, from a stable sort.
fn kthvalue(call: &mut Call) -> Result<()> {
    let a = call.tensor(0)?;
    let k = call.int(1)?;
    let dim = wrap_dim(call.int(2)?, a.sizes.len())?;
    let keepdim = call.boolean(3)?;
    let a1 = at_least_1d(&a);
    if k < 1 || k > a1.sizes[dim] {
        return Err(Error::runtime(format!(
            "kthvalue(): selected number k out of range for dimension {dim}"
        )));
    }
    let mut sizes = a.sizes.clone();
    if !sizes.is_empty() {
        if keepdim {
            sizes[dim] = 1;
        } else {
            sizes.remove(dim);
        }
    }
    for out in [4, 5] {
        call.tensor(out)?.assert_no_overlap(&a)?;
    }
    let values = call.result(Dest::Arg(4), &sizes, a.dtype, a.device)?;
    let indices = call.result(Dest::Arg(5), &sizes, DType::I64, a.device)?;
    if a1.sizes[dim] >= SELECT_MIN {
        if let Some((picked, order)) = run_select(false, &a1, dim, k)? {
            // Element k - 1 of each partitioned line (dimension `dim` last): one per line,
            // laid out as the lines, `len` apart.
            let len = a1.sizes[dim];
            let mut kept = a1.sizes.clone();
            kept.remove(dim);
            let mut strides: Vec<i64> = TensorRef::contiguous_strides(&kept)
                .iter()
                .map(|s| s * len)
                .collect();
            let mut view_sizes = kept;
            if keepdim && !a.sizes.is_empty() {
                view_sizes.insert(dim, 1);
                strides.insert(dim, 1);
            }
            let kth = |t: &TensorRef| TensorRef {
                address: t.address + (k - 1) as u64 * t.dtype.size() as u64,
                sizes: view_sizes.clone(),
                strides: strides.clone().into(),
                ..t.clone()
            };
            copy(&values, &kth(&picked.tensor))?;
            return copy(&indices, &kth(&order.tensor));
        }
    }
    let sorted = Scratch::contiguous(a.device, &a1.sizes, a.dtype)?;
    let order = Scratch::contiguous(a.device, &a1.sizes, DType::I64)?;
    run_sort(false, &a1, &sorted.tensor, &order.tensor, dim)?;
    // The k-th slice, viewed with the kept dimension of size 1 (dropped when not kept).
    let slice = |t: &TensorRef| {
        let mut view = narrow(t, dim, k - 1, 1);
        if !keepdim && !a.sizes.is_empty() {
            view.sizes.remove(dim);
            view.strides.remove(dim);
        } else if a.sizes.is_empty() {
            view.sizes.clear();
            view.strides.clear();
        }
        view
    };
    copy(&values, &slice(&sorted.tensor))?;
    copy(&indices, &slice(&order.tensor))
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
            inputs: smallvec![dtype, dtype],
            scalars: smallvec![],
            outputs: smallvec![(DType::I64, differs)],
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
        sizes: smallvec![n],
        strides: smallvec![1],
        ..flat.tensor.clone()
    };
    let sorted = Scratch::contiguous(a.device, &[n], a.dtype)?;
    let order = Scratch::contiguous(a.device, &[n], DType::I64)?;
    run_sort(false, &flat, &sorted.tensor, &order.tensor, 0)?;
    let starts = run_starts(&sorted.tensor)?;
    // Run number of each sorted element: the running count of starts, minus one.
    let group = Scratch::contiguous(a.device, &[n], DType::I64)?;
    let scan = ScanKernel::sum(DType::I64, DType::I64);
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
        inputs: smallvec![DType::I64],
        scalars: smallvec![],
        outputs: smallvec![(DType::I64, minus_one)],
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
        a.sizes.to_vec()
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
    if with_counts && count > 0 {
        run_lengths(&starts.tensor, &group.tensor, count, &counts)?;
    }
    Ok(())
}

/// The length of each of the `count` runs of a sorted vector, from where runs start and each
/// element's run number: every run start writes its position into `begin[run]` (the other
/// elements into a spare slot, then set to `n`), and a run's length is the next run's
/// beginning minus its own.
fn run_lengths(
    starts: &TensorRef,
    group: &TensorRef,
    count: i64,
    counts: &TensorRef,
) -> Result<()> {
    let device = starts.device;
    let n = starts.sizes[0];
    let target = Scratch::contiguous(device, &[n], DType::I64)?;
    let spare = Expr::scalar(0, DType::I64);
    let pick = MapKernel {
        inputs: smallvec![starts.dtype, DType::I64],
        scalars: smallvec![DType::I64],
        outputs: smallvec![
            (
                DType::I64,
                Expr::input(0, starts.dtype)
                    .cast(DType::Bool)
                    .select(Expr::input(1, DType::I64), spare),
            ),
            (DType::I64, Expr::Index),
        ],
    };
    let position = Scratch::contiguous(device, &[n], DType::I64)?;
    let words = ScalarArg::int(count).words(DType::I64);
    run_map(
        pick,
        &[starts, group, &target.tensor, &position.tensor],
        &[n],
        &words,
    )?;
    let begin = Scratch::contiguous(device, &[count + 1], DType::I64)?;
    run_index(
        true,
        &[n],
        (&position.tensor, vec![1]),
        (&begin.tensor, vec![0]),
        &[IndexArg {
            tensor: &target.tensor,
            strides: vec![1],
            loop_strides: vec![],
            bound: count + 1,
            target: 1,
        }],
        Fault::index("unique: internal index out of range".into()),
    )?;
    fill(&narrow(&begin.tensor, 0, count, 1), &ScalarArg::int(n))?;
    let length = MapKernel {
        inputs: smallvec![DType::I64, DType::I64],
        scalars: smallvec![],
        outputs: smallvec![(
            DType::I64,
            Expr::input(1, DType::I64) - Expr::input(0, DType::I64),
        )],
    };
    run_map(
        length,
        &[
            &narrow(&begin.tensor, 0, 0, count),
            &narrow(&begin.tensor, 0, 1, count),
            counts,
        ],
        &[count],
        &[],
    )
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

/// `searchsorted.Tensor(sorted_sequence, self, *, out_int32, right, side, sorter[, out])`: for
/// each value, how many boundaries of its row sort before it (or not after it, with `right`).
/// Counts the boundaries that fail the comparison a binary search makes, so NaNs land as in
/// PyTorch's search.
fn searchsorted(call: &mut Call, dest: Dest) -> Result<()> {
    let seq = call.tensor(0)?;
    let holder;
    let values = match call.operand(1)? {
        crate::ops::core::call::Operand::Tensor(t) => t,
        crate::ops::core::call::Operand::Scalar(v) => {
            holder = Scratch::contiguous(seq.device, &[], seq.dtype)?;
            fill(&holder.tensor, &v)?;
            holder.tensor.clone()
        }
    };
    let out_int32 = call.boolean(2)?;
    let mut right = call.boolean(3)?;
    if let Some(side) = call.string(4)? {
        if side != "left" && side != "right" {
            return Err(Error::runtime(format!(
                "torch.searchsorted(): side can only be 'left' or 'right' but got {side}"
            )));
        }
        if right && side == "left" {
            return Err(Error::runtime(
                "torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True",
            ));
        }
        right = side == "right";
    }
    let sorter = call.optional_tensor(5)?;
    let leading_match = seq.sizes.len() == values.sizes.len()
        && seq.sizes[..seq.sizes.len().saturating_sub(1)]
            == values.sizes[..values.sizes.len().saturating_sub(1)];
    if seq.sizes.is_empty() || !(seq.sizes.len() == 1 || leading_match) {
        return Err(Error::runtime(format!(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor {:?} and input value tensor {:?}",
            seq.sizes, values.sizes
        )));
    }
    if seq.dtype != values.dtype {
        return Err(Error::runtime(format!(
            "torch.searchsorted(): boundary and input value tensors should have same dtype, but got boundary tensor with dtype {} and input value tensor with dtype {}",
            seq.dtype.torch_name(),
            values.dtype.torch_name()
        )));
    }
    let result = if out_int32 { DType::I32 } else { DType::I64 };
    let out = call.result(dest, &values.sizes, result, values.device)?;
    let last = seq.sizes.len() - 1;
    let len = seq.sizes[last];
    let ordered;
    let seq = match sorter {
        Some(sorter) => {
            if sorter.sizes != seq.sizes {
                return Err(Error::runtime(
                    "torch.searchsorted(): boundary and sorter must have the same size",
                ));
            }
            ordered = Scratch::contiguous(seq.device, &seq.sizes, seq.dtype)?;
            let mut src = seq.strides.clone();
            src[last] = 0;
            run_index(
                false,
                &seq.sizes,
                (&seq, src.to_vec()),
                (&ordered.tensor, ordered.tensor.strides.to_vec()),
                &[IndexArg {
                    tensor: &sorter,
                    strides: sorter.strides.to_vec(),
                    loop_strides: vec![],
                    bound: len,
                    target: seq.strides[last],
                }],
                Fault::runtime(format!(
                    "torch.searchsorted(): sorter index out of range for a boundary of size {len}"
                ))
                .wrapping(),
            )?;
            ordered.tensor.clone()
        }
        None => seq,
    };
    if out.numel() == 0 {
        return Ok(());
    }
    search_in_parts(&seq, &values, &out, right, result)
}

/// The most (value, boundary) pairs one counting pass holds (an int64 each: 32 MiB).
const SEARCH_PAIRS: u64 = 1 << 22;

/// Searches in parts of at most `SEARCH_PAIRS` pairs: halves along the outermost dimension of
/// the values longer than 1 (and of the boundaries' matching leading dimension) until a part
/// fits, so memory stays bounded whatever the sizes.
fn search_in_parts(
    seq: &TensorRef,
    values: &TensorRef,
    out: &TensorRef,
    right: bool,
    result: DType,
) -> Result<()> {
    let len = seq.sizes[seq.sizes.len() - 1];
    let split = values.sizes.iter().position(|&n| n > 1);
    match split {
        Some(d) if values.numel() * len as u64 > SEARCH_PAIRS => {
            let half = values.sizes[d] / 2;
            let rest = values.sizes[d] - half;
            let leading = seq.sizes.len() > 1 && d < seq.sizes.len() - 1;
            for (start, n) in [(0, half), (half, rest)] {
                let part_seq = if leading {
                    narrow(seq, d, start, n)
                } else {
                    seq.clone()
                };
                let part_values = narrow(values, d, start, n);
                let part_out = narrow(out, d, start, n);
                search_in_parts(&part_seq, &part_values, &part_out, right, result)?;
            }
            Ok(())
        }
        _ => count_before(seq, values, out, right, result),
    }
}

/// For each value, counts the boundaries of its row that sort before it.
fn count_before(
    seq: &TensorRef,
    values: &TensorRef,
    out: &TensorRef,
    right: bool,
    result: DType,
) -> Result<()> {
    let last = seq.sizes.len() - 1;
    let len = seq.sizes[last];
    // Per (value, boundary): 1 where the boundary sorts before the value.
    let mut shape = values.sizes.clone();
    shape.push(len);
    let rank = values.sizes.len();
    let mut value_strides = values.strides.clone();
    value_strides.push(0);
    let mut seq_strides = vec![0; rank + 1];
    seq_strides[rank] = seq.strides[last];
    if seq.sizes.len() > 1 {
        seq_strides[..last].copy_from_slice(&seq.strides[..last]);
    }
    let view = |t: &TensorRef, strides: Vec<i64>| TensorRef {
        sizes: shape.clone(),
        strides: strides.into(),
        ..t.clone()
    };
    let before = Scratch::contiguous(values.device, &shape, DType::I64)?;
    let dtype = values.dtype;
    let (b, v) = (Expr::input(0, dtype), Expr::input(1, dtype));
    let passes = if right { b.gt(v) } else { b.ge(v) };
    let kernel = MapKernel {
        inputs: smallvec![dtype, dtype],
        scalars: smallvec![],
        outputs: smallvec![(DType::I64, passes.unary(UnaryOp::Not).cast(DType::I64))],
    };
    run_map(
        kernel,
        &[
            &view(seq, seq_strides),
            &view(values, value_strides.to_vec()),
            &before.tensor,
        ],
        &shape,
        &[],
    )?;
    let kernel = ReduceKernel {
        per_output: None,
        indexed: false,
        elementwise: None,
        vector: false,
        input: DType::I64,
        scalars: vec![],
        pre: Expr::input(0, DType::I64),
        op: ReduceOp::Sum,
        acc: DType::I64,
        outputs: vec![(result, Expr::input(0, DType::I64).cast(result))],
        columns: false,
    };
    let mut reduced = vec![false; rank];
    reduced.push(true);
    run_reduce(kernel, &before.tensor, &[out], &reduced, &[])
}

pub const OPS: &[(&str, OpFn)] = &[
    ("searchsorted.Tensor", |c| searchsorted(c, Dest::New)),
    ("searchsorted.Tensor_out", |c| searchsorted(c, Dest::Arg(6))),
    ("searchsorted.Scalar", |c| searchsorted(c, Dest::New)),
    ("searchsorted.Scalar_out", |c| searchsorted(c, Dest::Arg(6))),
    ("sort.values_stable", sort),
    ("topk.values", topk),
    ("kthvalue.values", kthvalue),
    ("_unique2", unique2),
    ("_unique", unique1),
];
