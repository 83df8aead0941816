//! Launch arguments for the index patterns (layouts in `kernels::printer::index`).

use super::copy::copy;
use super::faults;
use super::launch::run_map;
use super::launch::{common_device, stride_word, strided_words, submit, word};
use super::layout::coalesce;
use super::scalar::ScalarArg;
use super::scratch::Scratch;
use super::tensor::TensorRef;
use crate::dtype::DType;
use crate::error::{ErrorKind, Result};
use crate::kernels::{BinaryOp, Expr, MapKernel};
use crate::kernels::{IndexKernel, Kernel, SortKernel};

/// An index tensor as a kernel reads it.
pub struct IndexArg<'a> {
    pub tensor: &'a TensorRef,
    /// Its strides over the iteration (output) dimensions.
    pub strides: Vec<i64>,
    /// Its strides over the loop dimensions (accumulate only).
    pub loop_strides: Vec<i64>,
    /// The size of the dimension it indexes: its values wrap and are checked against it.
    pub bound: i64,
    /// Gather/scatter: its stride in the indexed tensor; accumulate: the output dimension
    /// its values must equal.
    pub target: i64,
}

/// The error an out-of-range index raises at the next synchronising call, and whether
/// negative indices count from the end instead.
pub struct Fault {
    pub kind: ErrorKind,
    pub message: String,
    pub wrap: bool,
}

impl Fault {
    pub fn index(message: String) -> Self {
        Fault {
            kind: ErrorKind::Index,
            message,
            wrap: false,
        }
    }
    pub fn runtime(message: String) -> Self {
        Fault {
            kind: ErrorKind::Runtime,
            message,
            wrap: false,
        }
    }
    /// Negative indices count from the end of their dimension.
    pub fn wrapping(self) -> Self {
        Fault { wrap: true, ..self }
    }
}

/// A tensor with its strides over the iteration dimensions.
pub type Strided<'a> = (&'a TensorRef, Vec<i64>);

/// Gathers (`dst[i] = src[at(i)]`) or scatters (`dst[at(i)] = src[i]`) over `shape`.
pub fn run_index(
    scatter: bool,
    shape: &[i64],
    src: Strided,
    dst: Strided,
    indices: &[IndexArg],
    fault: Fault,
) -> Result<()> {
    let n: i64 = shape.iter().product();
    if n == 0 {
        return Ok(());
    }
    let mut tensors = vec![src.0];
    tensors.extend(indices.iter().map(|i| i.tensor));
    tensors.push(dst.0);
    let device = common_device(&tensors)?;
    let mut strides = vec![src.1];
    strides.extend(indices.iter().map(|i| i.strides.clone()));
    strides.push(dst.1);
    let (mut words, mut offset_words) = strided_words(shape, &strides)?;
    offset_words.push(words.len());
    words.push(0);
    for i in indices {
        words.push(word(i.bound, "size")?);
        words.push(stride_word(i.target)?);
    }
    let mut addresses: Vec<u64> = tensors.iter().map(|t| t.address).collect();
    let wrap = fault.wrap;
    let (fault_word, tag) = faults::word(device, fault.kind, fault.message)?;
    addresses.push(fault_word);
    words.push(tag);
    let kernel = Kernel::Index(IndexKernel {
        dtype: dst.0.dtype,
        indices: indices.iter().map(|i| i.tensor.dtype).collect(),
        scatter,
        wrap,
    });
    submit(device, &kernel, &addresses, words, &offset_words, n as u64)
}

/// Lines up to this long are sorted by ranking (a pass, quadratic work); longer ones by
/// merge passes (`log2(len)` passes of `n log(len)` work).
const RANK_SORT_MAX: i64 = 2048;

/// Sorts `input` along `dim` into `values` and `indices` (same shape).
pub fn run_sort(
    descending: bool,
    input: &TensorRef,
    values: &TensorRef,
    indices: &TensorRef,
    dim: usize,
) -> Result<()> {
    let device = common_device(&[input, values, indices])?;
    let n: i64 = input.sizes.iter().product();
    if n == 0 {
        return Ok(());
    }
    if input.sizes[dim] > RANK_SORT_MAX {
        return merge_sort(descending, input, values, indices, dim);
    }
    let mut kept_sizes = input.sizes.clone();
    let len = kept_sizes.remove(dim);
    let mut kept = Vec::new();
    let mut along = Vec::new();
    for t in [input, values, indices] {
        let mut strides = t.strides.clone();
        along.push(strides.remove(dim));
        kept.push(strides);
    }
    let (kept_sizes, kept) = coalesce(&kept_sizes, &kept);
    let mut words = vec![word(n, "element count")?, word(len, "size")?];
    words.push(kept_sizes.len() as u32);
    for &s in &kept_sizes {
        words.push(word(s, "size")?);
    }
    let mut offset_words = Vec::new();
    for (strides, along) in kept.iter().zip(along) {
        offset_words.push(words.len());
        words.push(0);
        for &s in strides {
            words.push(stride_word(s)?);
        }
        words.push(stride_word(along)?);
    }
    let kernel = Kernel::Sort(SortKernel {
        dtype: input.dtype,
        descending,
    });
    submit(
        device,
        &kernel,
        &[input.address, values.address, indices.address],
        words,
        &offset_words,
        n as u64,
    )
}

/// `t` with dimension `dim` moved last.
fn dim_last(t: &TensorRef, dim: usize) -> TensorRef {
    let mut view = t.clone();
    let size = view.sizes.remove(dim);
    let stride = view.strides.remove(dim);
    view.sizes.push(size);
    view.strides.push(stride);
    view
}

/// Sorts long lines by merge passes over contiguous `[lines, len]` keys and indices: runs of
/// 1, 2, 4, ... sorted elements merged pairwise until one run covers the line.
fn merge_sort(
    descending: bool,
    input: &TensorRef,
    values: &TensorRef,
    indices: &TensorRef,
    dim: usize,
) -> Result<()> {
    let device = input.device;
    let len = input.sizes[dim];
    let n: i64 = input.sizes.iter().product();
    let moved = dim_last(input, dim);
    let keys = [
        Scratch::contiguous(device, &moved.sizes, input.dtype)?,
        Scratch::contiguous(device, &moved.sizes, input.dtype)?,
    ];
    let order = [
        Scratch::contiguous(device, &moved.sizes, DType::I64)?,
        Scratch::contiguous(device, &moved.sizes, DType::I64)?,
    ];
    super::launch::check_extent(&order[0].tensor)?;
    copy(&keys[0].tensor, &moved)?;
    let position = MapKernel {
        inputs: vec![],
        scalars: vec![DType::I64],
        outputs: vec![(
            DType::I64,
            Expr::Index.binary(BinaryOp::Rem, Expr::scalar(0, DType::I64)),
        )],
    };
    let len_words = ScalarArg::int(len).words(DType::I64);
    let flat = TensorRef {
        sizes: vec![n],
        strides: vec![1],
        ..order[0].tensor.clone()
    };
    run_map(position, &[&flat], &[n], &len_words)?;
    let kernel = Kernel::Merge(SortKernel {
        dtype: input.dtype,
        descending,
    });
    let mut current = 0;
    let mut width = 1;
    while width < len {
        let (from, to) = (current, 1 - current);
        let words = vec![
            word(n, "element count")?,
            word(len, "size")?,
            word(width, "size")?,
            0,
            0,
            0,
            0,
        ];
        let addresses = [
            keys[from].tensor.address,
            order[from].tensor.address,
            keys[to].tensor.address,
            order[to].tensor.address,
        ];
        submit(device, &kernel, &addresses, words, &[3, 4, 5, 6], n as u64)?;
        current = to;
        width *= 2;
    }
    copy(&dim_last(values, dim), &keys[current].tensor)?;
    copy(&dim_last(indices, dim), &order[current].tensor)
}
