//! Launch arguments for the index patterns (layouts in `kernels::printer::index`).

use crate::error::{ErrorKind, Result};
use crate::kernels::{IndexKernel, Kernel};
use crate::ops::core::faults;
use crate::ops::core::launch::{common_device, stride_word, strided_words, submit, word};
use crate::ops::core::tensor::TensorRef;

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
