//! Launches of the reduce pattern, split so that no invocation walks more than a bounded
//! number of elements whatever the size: a long reduction becomes partial results per chunk
//! and a reduction of those (again, until they fit one chunk); `scan_launch` splits scans
//! alike. (GPUs run long loops slowly; the software device stops any invocation after 65,535
//! loop iterations.)

use crate::error::Result;
use crate::kernels::printer::{columns_eligible, COLUMN_OUTPUTS, GROUP_SIZE};
use crate::kernels::{Expr, Kernel, ReduceKernel, ReduceOp, UnaryOp};
use crate::ops::core::launch::{common_device, stride_word, submit, word};
use crate::ops::core::layout::{broadcast_strides, coalesce};
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::runtime::backend;
use std::ops::{Div, Mul, Sub};

/// Reduced elements per workgroup: 128 per invocation.
pub const REDUCE_CHUNK: i64 = GROUP_SIZE as i64 * 128;

/// What a reduce launch reads: `values` over its `reduced` dimensions and, for combining
/// arg-reductions, the int64 `indices` laid out like it.
#[derive(Clone, Copy)]
pub(super) struct Source<'a> {
    pub values: &'a TensorRef,
    pub indices: Option<&'a TensorRef>,
    pub reduced: &'a [bool],
}

impl Source<'_> {
    fn kept_sizes(&self) -> Vec<i64> {
        pick(&self.values.sizes, self.reduced, false)
    }

    fn n_red(&self) -> i64 {
        pick(&self.values.sizes, self.reduced, true)
            .iter()
            .product()
    }
}

/// The entries of `v` whose dimension is (or is not) reduced.
fn pick(v: &[i64], reduced: &[bool], want: bool) -> Vec<i64> {
    v.iter()
        .zip(reduced)
        .filter(|(_, &r)| r == want)
        .map(|(&x, _)| x)
        .collect()
}

/// `a / b` rounded up, for positive `b`.
pub(super) fn div_ceil(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// An output viewed with the kept sizes, and its stride between chunks (0: one chunk).
pub(super) type Output<'a> = (&'a TensorRef, i64);

/// Reduces `input` over its `reduced` dimensions into `outputs`, each viewed with the kept
/// dimensions' sizes (in order).
pub fn run_reduce(
    kernel: ReduceKernel,
    input: &TensorRef,
    outputs: &[&TensorRef],
    reduced: &[bool],
    scalar_words: &[u32],
) -> Result<()> {
    run_reduce_with(kernel, input, None, outputs, reduced, scalar_words)
}

/// Sums `input` over its `reduced` dimensions into `out` (viewed with the kept sizes),
/// accumulating floats in float32 (float64 for float64) and rounding once.
pub fn sum_into(input: &TensorRef, reduced: &[bool], out: &TensorRef) -> Result<()> {
    let acc = input.dtype.float_acc();
    let kernel = ReduceKernel {
        per_output: None,
        indexed: false,
        elementwise: None,
        vector: false,
        input: input.dtype,
        scalars: vec![],
        pre: Expr::input(0, input.dtype).cast(acc),
        op: ReduceOp::Sum,
        acc,
        outputs: vec![(out.dtype, Expr::input(0, acc).cast(out.dtype))],
        columns: false,
    };
    run_reduce(kernel, input, &[out], reduced, &[])
}

/// [`run_reduce`] with the kernel's per-element output `elementwise` (the input's shape),
/// when each output's reduced elements fit one work item's chunk, so the row is reduced and
/// rewritten by one launch; `Ok(false)`, with nothing launched, when they do not.
pub fn run_reduce_elementwise(
    kernel: ReduceKernel,
    input: &TensorRef,
    outputs: &[&TensorRef],
    reduced: &[bool],
    elementwise: &TensorRef,
    scalar_words: &[u32],
) -> Result<bool> {
    let mut all = vec![input, elementwise];
    all.extend_from_slice(outputs);
    common_device(&all)?;
    let source = Source {
        values: input,
        indices: None,
        reduced,
    };
    let mut chunk = chunk_of(source);
    if chunk != REDUCE_CHUNK && backend()?.direct_loads(input.device) {
        // One launch beats the composed passes for rows up to a softmax over 4,096 classes.
        chunk = chunk.max(ROW_CHUNK);
    }
    if source.n_red() > chunk || source.n_red() == 0 {
        return Ok(false);
    }
    if source.kept_sizes().iter().product::<i64>() == 0 {
        return Ok(true);
    }
    let outputs: Vec<Output> = outputs.iter().map(|o| (*o, 0)).collect();
    launch_reduce_with(
        &kernel,
        source,
        None,
        &outputs,
        Some(elementwise),
        chunk,
        scalar_words,
    )?;
    Ok(true)
}

/// [`run_reduce`] with the kernel's per-output tensor (viewed with the kept sizes), if any.
pub fn run_reduce_with(
    kernel: ReduceKernel,
    input: &TensorRef,
    per_output: Option<&TensorRef>,
    outputs: &[&TensorRef],
    reduced: &[bool],
    scalar_words: &[u32],
) -> Result<()> {
    let mut all = vec![input];
    all.extend(per_output);
    all.extend_from_slice(outputs);
    common_device(&all)?;
    let source = Source {
        values: input,
        indices: None,
        reduced,
    };
    if source.kept_sizes().iter().product::<i64>() == 0 {
        return Ok(());
    }
    let outputs: Vec<Output> = outputs.iter().map(|o| (*o, 0)).collect();
    // Variance and logsumexp reduce in two passes over the elements, so their partial
    // results do not combine: longer reductions run in stages.
    let single = source.n_red() <= chunk_of(source);
    match kernel.op {
        ReduceOp::Variance if !single => variance_in_stages(kernel, source, &outputs, scalar_words),
        ReduceOp::LogSumExp if !single => {
            logsumexp_in_stages(kernel, source, &outputs, scalar_words)
        }
        _ if per_output.is_none()
            && super::inner_first::reduce_inner_first(&kernel, source, &outputs, scalar_words)? =>
        {
            Ok(())
        }
        _ => reduce_in_chunks(kernel, source, per_output, &outputs, scalar_words),
    }
}

/// A long variance: the mean per output first, then the sum of squared deviations from it.
fn variance_in_stages(
    k: ReduceKernel,
    source: Source,
    outputs: &[Output],
    scalar_words: &[u32],
) -> Result<()> {
    let mean = Scratch::contiguous(source.values.device, &source.kept_sizes(), k.acc)?;
    let n = Expr::scalar(k.scalars.len(), k.acc);
    let sum = ReduceKernel {
        op: ReduceOp::Sum,
        outputs: vec![(k.acc, Expr::input(0, k.acc).div(n))],
        scalars: [k.scalars.clone(), vec![k.acc]].concat(),
        ..k.clone()
    };
    let mut words = scalar_words.to_vec();
    words.extend(ScalarArg::float(source.n_red() as f64).words(k.acc));
    reduce_in_chunks(sum, source, None, &[(&mean.tensor, 0)], &words)?;
    let deviation = k.pre.clone().sub(Expr::input(1, k.acc));
    let squares = ReduceKernel {
        op: ReduceOp::Sum,
        pre: deviation.clone().mul(deviation),
        per_output: Some(k.acc),
        ..k
    };
    reduce_in_chunks(squares, source, Some(&mean.tensor), outputs, scalar_words)
}

/// A long logsumexp: the maximum per output first (0 where it is not finite), then the sum
/// of `exp(x - max)`.
fn logsumexp_in_stages(
    k: ReduceKernel,
    source: Source,
    outputs: &[Output],
    scalar_words: &[u32],
) -> Result<()> {
    let max = Scratch::contiguous(source.values.device, &source.kept_sizes(), k.acc)?;
    let m = Expr::input(0, k.acc);
    let finite = m
        .clone()
        .unary(UnaryOp::Abs)
        .lt(Expr::constant(k.acc, f64::INFINITY));
    let largest = ReduceKernel {
        op: ReduceOp::Max,
        outputs: vec![(k.acc, finite.select(m, Expr::constant(k.acc, 0.0)))],
        ..k.clone()
    };
    reduce_in_chunks(largest, source, None, &[(&max.tensor, 0)], scalar_words)?;
    let shifted = ReduceKernel {
        op: ReduceOp::Sum,
        pre: k.pre.clone().sub(Expr::input(1, k.acc)).exp(),
        per_output: Some(k.acc),
        ..k
    };
    reduce_in_chunks(shifted, source, Some(&max.tensor), outputs, scalar_words)
}

/// One launch when the reduced elements fit a chunk; else partial results per chunk into a
/// scratch `[kept..., chunks]`, then their reduction.
pub(super) fn reduce_in_chunks(
    k: ReduceKernel,
    source: Source,
    per_output: Option<&TensorRef>,
    outputs: &[Output],
    scalar_words: &[u32],
) -> Result<()> {
    let n_red = source.n_red();
    let chunk = chunk_of(source);
    if n_red <= chunk {
        return launch_reduce(&k, source, per_output, outputs, chunk, scalar_words);
    }
    let (values, indices) = partials(&k, source, per_output, chunk, scalar_words)?;
    let combine = ReduceKernel {
        input: k.acc,
        pre: Expr::input(0, k.acc),
        indexed: indices.is_some(),
        ..k
    };
    let mut reduced = vec![false; source.kept_sizes().len()];
    reduced.push(true);
    let source = Source {
        values: &values.tensor,
        indices: indices.as_ref().map(|i| &i.tensor),
        reduced: &reduced,
    };
    reduce_in_chunks(combine, source, per_output, outputs, scalar_words)
}

/// Each output's reduction of every `chunk` reduced elements, into contiguous `[kept...,
/// chunks]` accumulators (and the arg-reductions' indices).
pub(super) fn partials(
    k: &ReduceKernel,
    source: Source,
    per_output: Option<&TensorRef>,
    chunk: i64,
    scalar_words: &[u32],
) -> Result<(Scratch, Option<Scratch>)> {
    let device = source.values.device;
    let kept = source.kept_sizes();
    let chunks = div_ceil(source.n_red(), chunk);
    let shape = [kept.clone(), vec![chunks]].concat();
    let values = Scratch::contiguous(device, &shape, k.acc)?;
    let arg = matches!(k.op, ReduceOp::ArgMin | ReduceOp::ArgMax);
    let indices = if arg {
        Some(Scratch::contiguous(
            device,
            &shape,
            crate::dtype::DType::I64,
        )?)
    } else {
        None
    };
    let view = |t: &TensorRef| TensorRef {
        sizes: kept.clone().into(),
        strides: t.strides[..kept.len()].to_vec().into(),
        ..t.clone()
    };
    let mut outputs = vec![(k.acc, Expr::input(0, k.acc))];
    let mut views = vec![view(&values.tensor)];
    if let Some(i) = &indices {
        outputs.push((
            crate::dtype::DType::I64,
            Expr::input(1, crate::dtype::DType::I64),
        ));
        views.push(view(&i.tensor));
    }
    let kernel = ReduceKernel {
        outputs,
        ..k.clone()
    };
    let outs: Vec<Output> = views.iter().map(|v| (v, 1)).collect();
    launch_reduce(&kernel, source, per_output, &outs, chunk, scalar_words)?;
    Ok((values, indices))
}

/// Reduce arguments as `kernels::printer::reduce` lays them out.
fn launch_reduce(
    k: &ReduceKernel,
    source: Source,
    per_output: Option<&TensorRef>,
    outputs: &[Output],
    chunk: i64,
    scalar_words: &[u32],
) -> Result<()> {
    launch_reduce_with(k, source, per_output, outputs, None, chunk, scalar_words)
}

/// [`launch_reduce`] with the kernel's per-element output, if any.
fn launch_reduce_with(
    k: &ReduceKernel,
    source: Source,
    per_output: Option<&TensorRef>,
    outputs: &[Output],
    elementwise: Option<&TensorRef>,
    chunk: i64,
    scalar_words: &[u32],
) -> Result<()> {
    let Source {
        values,
        indices,
        reduced,
    } = source;
    let kept_sizes = source.kept_sizes();
    let red_sizes = pick(&values.sizes, reduced, true);
    let n_out: i64 = kept_sizes.iter().product();
    let n_red: i64 = red_sizes.iter().product();
    let chunks = div_ceil(n_red, chunk).max(1);
    let mut read = vec![values];
    read.extend(indices);
    let mut kept_strides: Vec<Vec<i64>> = read
        .iter()
        .map(|t| pick(&t.strides, reduced, false))
        .collect();
    kept_strides.extend(per_output.map(|t| broadcast_strides(t, &kept_sizes)));
    kept_strides.extend(
        outputs
            .iter()
            .map(|(o, _)| broadcast_strides(o, &kept_sizes)),
    );
    kept_strides.extend(elementwise.map(|t| pick(&t.strides, reduced, false)));
    let red_strides: Vec<Vec<i64>> = read
        .iter()
        .chain(&elementwise)
        .map(|t| pick(&t.strides, reduced, true))
        .collect();
    let (kept_sizes, kept) = coalesce(&kept_sizes, &kept_strides);
    let (red_sizes, red) = coalesce(&red_sizes, &red_strides);
    let mut words = vec![
        word(n_out, "element count")?,
        word(n_red, "element count")?,
        kept_sizes.len() as u32,
        red_sizes.len() as u32,
        word(chunk, "size")?,
        word(chunks, "size")?,
    ];
    word(n_out * chunks, "element count")?;
    for &s in kept_sizes.iter().chain(&red_sizes) {
        words.push(word(s, "size")?);
    }
    let mut offset_words = Vec::new();
    let mut block = |words: &mut Vec<u32>, strides: &[&[i64]]| -> Result<()> {
        offset_words.push(words.len());
        words.push(0);
        for &s in strides.iter().flat_map(|s| s.iter()) {
            words.push(stride_word(s)?);
        }
        Ok(())
    };
    for (t, red) in red.iter().take(read.len()).enumerate() {
        block(&mut words, &[&kept[t], red])?;
    }
    let mut next = read.len();
    if per_output.is_some() {
        block(&mut words, &[&kept[next]])?;
        next += 1;
    }
    for (q, (_, chunk_stride)) in outputs.iter().enumerate() {
        block(&mut words, &[&kept[next + q], &[*chunk_stride]])?;
    }
    if elementwise.is_some() {
        block(&mut words, &[&kept[next + outputs.len()], &red[read.len()]])?;
    }
    words.extend_from_slice(scalar_words);
    let mut addresses: Vec<u64> = read.iter().map(|t| t.address).collect();
    addresses.extend(per_output.map(|t| t.address));
    addresses.extend(outputs.iter().map(|(o, _)| o.address));
    addresses.extend(elementwise.map(|t| t.address));
    if n_red == 0 {
        // Nothing is read: an empty input may have no memory, so bind an output in its place.
        addresses[0] = outputs[0].0.address;
    }
    let items = (n_out * chunks) as u64;
    // One contiguous reduced dimension of an input of at most 4-byte elements: four
    // elements per load where a row starts aligned to four (the kernel checks each row;
    // 16M float16 / bfloat16 summed on the software device: 15 / 11 ms -> 7 / 3.4-6 ms). Not with
    // sub-word outputs, whose stores need atomic words (which may share a binding with the
    // input).
    let word_outputs = k
        .outputs
        .iter()
        .map(|(d, _)| *d)
        .chain(k.elementwise.as_ref().map(|e| e.dtype))
        .all(|d| d.size() >= 4);
    let vector = k.input.size() <= 4 && !k.indexed && red[0] == [1] && word_outputs;
    // `COLUMN_OUTPUTS` neighbouring outputs per invocation where they lie side by side in the
    // input and every row of them starts 16 bytes aligned (see `printer::reduce_columns`).
    let columns = chunk != REDUCE_CHUNK
        && columns_eligible(k)
        && kept_sizes.len() == 1
        && red_sizes.len() == 1
        && kept[0] == [1]
        && red[0][0] % 4 == 0
        && n_out % 4 == 0
        && values.address % 16 == 0;
    let k = ReduceKernel {
        vector: vector && !columns,
        columns,
        ..k.clone()
    };
    let items = if columns {
        div_ceil(n_out, COLUMN_OUTPUTS) as u64 * chunks as u64
    } else {
        items
    };
    let (kernel, threads) = if chunk != REDUCE_CHUNK {
        (Kernel::ReduceEach(k), items)
    } else {
        (Kernel::Reduce(k), items * u64::from(GROUP_SIZE))
    };
    submit(
        values.device,
        &kernel,
        &addresses,
        words,
        &offset_words,
        threads,
    )
}

/// Rows this short are reduced by one invocation each.
const SHORT_ROW: i64 = 32;

/// Reduced elements per invocation when each invocation reduces its own chunk, at least
/// and, on the software device, at most (a variance's two passes then stay far below the
/// software device's 65,535 loop iterations): each launch after the first costs a hand-over between the devices'
/// queues, so chunks grow while every core keeps work items (`EACH_ITEMS`), and a small
/// reduction takes one launch (sums of 4096² over rows 2 -> 1 launch, of 16M 3 -> 2).
const EACH_CHUNK: i64 = 1024;
const EACH_CHUNK_MAX: i64 = 4096;

/// Work items that keep every core of the software device busy (32 groups of 64).
const EACH_ITEMS: i64 = 2048;

/// A reduction of at most this many elements in all runs in one launch when its rows allow.
const SMALL_REDUCTION: i64 = 1 << 16;

/// The longest row an invocation of the software device reduces and rewrites in one launch
/// (`run_reduce_elementwise`): its eight partial sums then add 512 elements each.
const ROW_CHUNK: i64 = 4096;

/// The reduced elements one work item (a group, or an invocation: see [`each`]) takes.
fn chunk_of(source: Source) -> i64 {
    if !each(source) {
        return REDUCE_CHUNK;
    }
    // Columns (strided reduced elements) keep short chunks: a column block walked 4,096 rows
    // down took 15 ms for 4096², against 5.8 ms in chunks of 1,024.
    let values = source.values;
    let red_sizes = pick(&values.sizes, source.reduced, true);
    let (_, red) = coalesce(&red_sizes, &[pick(&values.strides, source.reduced, true)]);
    // One dense reduced dimension: several walk each element's coordinates in a loop, which
    // counts against the software device's loop budget.
    let rows = red[0].len() <= 1 && red[0].last().is_none_or(|&s| s == 1);
    if !rows || !backend().is_ok_and(|b| b.cpu_device(values.device)) {
        return EACH_CHUNK;
    }
    let n_red = source.n_red();
    let total = n_red.saturating_mul(source.kept_sizes().iter().product());
    if n_red <= EACH_CHUNK_MAX && total <= SMALL_REDUCTION {
        return n_red.max(EACH_CHUNK);
    }
    div_ceil(total, EACH_ITEMS).clamp(EACH_CHUNK, EACH_CHUNK_MAX)
}

/// Whether an invocation (rather than a group) should reduce each output's chunks: always on
/// the software device (where a group's exchange of partial results through group memory and
/// its barriers cost more than walking the row alone); elsewhere when there are enough
/// outputs to fill the groups and a group's invocations would not read neighbouring elements
/// (the reduced elements are strided while the outputs are not) or would mostly idle (short
/// rows).
fn each(source: Source) -> bool {
    let values = source.values;
    if backend().is_ok_and(|b| b.direct_loads(values.device)) {
        return true;
    }
    let kept_sizes = source.kept_sizes();
    let n_out: i64 = kept_sizes.iter().product();
    let red_sizes = pick(&values.sizes, source.reduced, true);
    let (_, kept) = coalesce(&kept_sizes, &[pick(&values.strides, source.reduced, false)]);
    let (_, red) = coalesce(&red_sizes, &[pick(&values.strides, source.reduced, true)]);
    let strided = red[0].last().is_some_and(|&s| s != 1) && kept[0].last() == Some(&1);
    n_out >= 2 * i64::from(GROUP_SIZE) && (strided || source.n_red() <= SHORT_ROW)
}
