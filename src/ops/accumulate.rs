//! The accumulating scatter (index_add_, index_put_ with accumulate, scatter_add/scatter_reduce,
//! embedding backward, histograms) as a sort: each value's target becomes a key, the keys are
//! sorted stably with their positions, and each output element combines the run of values
//! with its key, found by binary search, in index order. Work is O(n log n) in the values,
//! whatever the number of outputs.

use super::copy::copy;
use super::faults;
use super::index_launch::{run_sort, Fault, IndexArg, Strided};
use super::launch::{common_device, stride_word, strided_words, submit, word};
use super::scratch::Scratch;
use super::tensor::TensorRef;
use crate::dtype::DType;
use crate::error::Result;
use crate::kernels::{Accumulate, AccumulateKernel, AccumulateKeysKernel, Kernel};

/// Run positions an accumulate invocation combines per launch (each costs a handful of loop
/// steps; the software device stops an invocation after 65,535).
const RUN_STEPS: i64 = 4096;

/// Where the values of an accumulating scatter come from: the values over the output's
/// dimensions (stride 0 along the indexed ones) and over the loop dimensions.
pub type Values<'a> = (&'a TensorRef, Vec<i64>, Vec<i64>);

/// The accumulating scatter into `out` (the shape of `self_`'s strides): elements with every
/// coordinate below `limits` combine the `values` (strided over the output and the loop
/// dimensions) whose indices point at them, in index order.
#[allow(clippy::too_many_arguments)]
pub fn run_accumulate(
    op: Accumulate,
    include_self: bool,
    self_: Strided,
    out: &TensorRef,
    limits: &[i64],
    loop_sizes: &[i64],
    values: Values,
    indices: &[IndexArg],
    fault: Fault,
) -> Result<()> {
    let shape = &out.sizes;
    let n: i64 = shape.iter().product();
    if n == 0 {
        return Ok(());
    }
    let mut tensors = vec![self_.0, values.0];
    tensors.extend(indices.iter().map(|i| i.tensor));
    tensors.push(out);
    let device = common_device(&tensors)?;
    if values.0.numel() == 0 || indices.iter().any(|i| i.tensor.numel() == 0) {
        // Nothing is scattered: every element keeps self's value.
        let own = TensorRef {
            sizes: shape.clone(),
            strides: self_.1.clone(),
            ..self_.0.clone()
        };
        if own.address == out.address && own.strides == out.strides {
            return Ok(());
        }
        return copy(out, &own);
    }
    let plan = Plan::new(shape, limits, loop_sizes, &values, indices);
    let n_sorted: i64 = plan.sizes.iter().product();
    let sorted = if n_sorted > 0 {
        Some(sorted_keys(&plan, indices, fault)?)
    } else {
        None
    };
    // The most values one output element can take: one per loop position.
    let run: i64 = loop_sizes.iter().product();
    let chunked = run > RUN_STEPS;
    let kernel = Kernel::Accumulate(AccumulateKernel {
        dtype: out.dtype,
        op,
        include_self,
        chunked,
    });
    let mut words = vec![
        word(n, "element count")?,
        shape.len() as u32,
        plan.sizes.len() as u32,
    ];
    for &s in shape.iter().chain(limits).chain(&plan.sizes) {
        words.push(word(s, "size")?);
    }
    let mut offset_words = vec![words.len()];
    words.push(0);
    for &s in &self_.1 {
        words.push(stride_word(s)?);
    }
    offset_words.push(words.len());
    words.push(0);
    for &s in plan.value_free.iter().chain(&plan.value_sorted) {
        words.push(stride_word(s)?);
    }
    offset_words.extend([words.len(), words.len() + 1, words.len() + 2]);
    words.extend([0, 0, 0]);
    for &s in &out.strides {
        words.push(stride_word(s)?);
    }
    for &s in &plan.key_strides {
        words.push(word(s, "size")?);
    }
    words.push(word(n_sorted, "element count")?);
    let (keys, perm) = match &sorted {
        Some((keys, perm)) => (keys.tensor.address, perm.tensor.address),
        // Nothing is read: bind the output in their place.
        None => (out.address, out.address),
    };
    let value_address = if values.0.numel() == 0 {
        out.address
    } else {
        values.0.address
    };
    let mut addresses = vec![self_.0.address, value_address, keys, perm, out.address];
    let counts = if chunked {
        Some(Scratch::contiguous(device, &[n], DType::I32)?)
    } else {
        None
    };
    if let Some(counts) = &counts {
        offset_words.push(words.len() + 4);
        addresses.push(counts.tensor.address);
    }
    let mut lo = 0;
    loop {
        let hi = (lo + RUN_STEPS).min(run.max(1));
        let mut launch_words = words.clone();
        launch_words.extend([
            word(lo, "size")?,
            word(hi, "size")?,
            u32::from(lo == 0),
            u32::from(hi >= run),
            0,
        ]);
        submit(
            device,
            &kernel,
            &addresses,
            launch_words,
            &offset_words,
            n as u64,
        )?;
        if hi >= run {
            return Ok(());
        }
        lo = hi;
    }
}

/// How an accumulating scatter's values are keyed and sorted. The output's dimensions are
/// keyed (an index targets them, or an index varies along them) or free (the values for
/// every coordinate along them sort alike, so they stay out of the sort); the sorted space
/// is the keyed non-target dimensions (up to their limits) and then the loop dimensions.
struct Plan {
    /// The sorted space's sizes.
    sizes: Vec<i64>,
    /// Each output dimension's stride in the key (0 for free dimensions).
    key_strides: Vec<i64>,
    /// The key's part from the sorted space's coordinates, per sorted dimension.
    key_base: Vec<i64>,
    /// The values' strides over the free output dimensions (0 for keyed ones) and over the
    /// sorted space.
    value_free: Vec<i64>,
    value_sorted: Vec<i64>,
    /// Each index tensor's strides over the sorted space.
    index_sorted: Vec<Vec<i64>>,
}

impl Plan {
    fn new(
        shape: &[i64],
        limits: &[i64],
        loop_sizes: &[i64],
        values: &Values,
        indices: &[IndexArg],
    ) -> Self {
        let nd = shape.len();
        let target = |d: usize| indices.iter().any(|i| i.target == d as i64);
        let varies = |d: usize| !target(d) && indices.iter().any(|i| i.strides[d] != 0);
        let keyed: Vec<bool> = (0..nd).map(|d| target(d) || varies(d)).collect();
        let mut key_strides = vec![0; nd];
        let mut stride = 1;
        for d in (0..nd).rev().filter(|&d| keyed[d]) {
            key_strides[d] = stride;
            stride *= shape[d];
        }
        let (mut sizes, mut key_base, mut value_sorted) = (vec![], vec![], vec![]);
        let mut index_sorted = vec![vec![]; indices.len()];
        for d in (0..nd).filter(|&d| varies(d)) {
            sizes.push(limits[d]);
            key_base.push(key_strides[d]);
            value_sorted.push(values.1[d]);
            for (j, i) in indices.iter().enumerate() {
                index_sorted[j].push(i.strides[d]);
            }
        }
        for (l, &size) in loop_sizes.iter().enumerate() {
            sizes.push(size);
            key_base.push(0);
            value_sorted.push(values.2[l]);
            for (j, i) in indices.iter().enumerate() {
                index_sorted[j].push(i.loop_strides[l]);
            }
        }
        let value_free = (0..nd)
            .map(|d| if keyed[d] { 0 } else { values.1[d] })
            .collect();
        Plan {
            sizes,
            key_strides,
            key_base,
            value_free,
            value_sorted,
            index_sorted,
        }
    }

    /// Each index's target dimension's stride in the key.
    fn key_strides_of(&self, indices: &[IndexArg]) -> Vec<i64> {
        indices
            .iter()
            .map(|i| self.key_strides[i.target as usize])
            .collect()
    }
}

/// The keys of every position of the sorted space, sorted stably, and the positions in their
/// sorted order.
fn sorted_keys(plan: &Plan, indices: &[IndexArg], fault: Fault) -> Result<(Scratch, Scratch)> {
    let device = indices[0].tensor.device;
    let n: i64 = plan.sizes.iter().product();
    let keys = Scratch::contiguous(device, &[n], DType::I64)?;
    let mut strides = plan.index_sorted.clone();
    strides.push(TensorRef::contiguous_strides(&plan.sizes));
    strides.push(plan.key_base.clone());
    let (mut words, mut offset_words) = strided_words(&plan.sizes, &strides)?;
    // The key base is no tensor: its offset word stays zero.
    offset_words.pop();
    offset_words.push(words.len());
    words.push(0);
    for (i, &target) in indices.iter().zip(&plan.key_strides_of(indices)) {
        words.push(word(i.bound, "size")?);
        words.push(word(target, "size")?);
    }
    let kernel = Kernel::AccumulateKeys(AccumulateKeysKernel {
        indices: indices.iter().map(|i| i.tensor.dtype).collect(),
        wrap: fault.wrap,
    });
    let mut addresses: Vec<u64> = indices.iter().map(|i| i.tensor.address).collect();
    addresses.push(keys.tensor.address);
    let (fault_word, tag) = faults::word(device, fault.kind, fault.message)?;
    addresses.push(fault_word);
    words.push(tag);
    submit(device, &kernel, &addresses, words, &offset_words, n as u64)?;
    let sorted = Scratch::contiguous(device, &[n], DType::I64)?;
    let perm = Scratch::contiguous(device, &[n], DType::I64)?;
    run_sort(false, &keys.tensor, &sorted.tensor, &perm.tensor, 0)?;
    Ok((sorted, perm))
}
