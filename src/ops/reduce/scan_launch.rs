//! Launches of the scan pattern: a scan longer than one chunk becomes the chunks' totals (a
//! reduction), their scan, and a scan of each chunk from its carry.

use super::reduce_launch::{div_ceil, partials, Source};
use crate::dtype::DType;
use crate::error::Result;
use crate::kernels::{Expr, Kernel, ReduceKernel, ScanKernel};
use crate::ops::core::launch::{common_device, stride_word, submit, word};
use crate::ops::core::layout::coalesce;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;

/// Elements one scan invocation walks.
pub const SCAN_CHUNK: i64 = 2048;

/// Scans `input` along `dim` into `output` (same shape).
pub fn run_scan(
    kernel: ScanKernel,
    input: &TensorRef,
    output: &TensorRef,
    dim: usize,
) -> Result<()> {
    common_device(&[input, output])?;
    if input.numel() == 0 {
        return Ok(());
    }
    let len = input.sizes[dim];
    if len <= SCAN_CHUNK {
        return launch_scan(&kernel, input, None, output, dim);
    }
    // The total of each chunk, their inclusive scan per line, then each chunk from the
    // total of the chunks before it.
    let mut reduced = vec![false; input.sizes.len()];
    reduced[dim] = true;
    let totals_kernel = ReduceKernel {
        input: kernel.input,
        scalars: vec![],
        pre: Expr::input(0, kernel.input).cast(kernel.acc),
        op: kernel.op,
        acc: kernel.acc,
        outputs: vec![],
        per_output: None,
        indexed: false,
        elementwise: None,
        vector: false,
        columns: false,
    };
    let source = Source {
        values: input,
        indices: None,
        reduced: &reduced,
    };
    let (totals, _) = partials(&totals_kernel, source, None, SCAN_CHUNK, &[])?;
    let carry = Scratch::contiguous(input.device, &totals.tensor.sizes, kernel.acc)?;
    let carry_scan = ScanKernel {
        input: kernel.acc,
        output: kernel.acc,
        carry: false,
        ..kernel.clone()
    };
    let last = totals.tensor.sizes.len() - 1;
    run_scan(carry_scan, &totals.tensor, &carry.tensor, last)?;
    let kernel = ScanKernel {
        carry: true,
        ..kernel
    };
    launch_scan(&kernel, input, Some(&carry.tensor), output, dim)
}

/// Scan arguments as `kernels::printer::scan` lays them out.
fn launch_scan(
    kernel: &ScanKernel,
    input: &TensorRef,
    carry: Option<&TensorRef>,
    output: &TensorRef,
    dim: usize,
) -> Result<()> {
    let mut kept_sizes = input.sizes.clone();
    let len = kept_sizes.remove(dim);
    let chunks = div_ceil(len, SCAN_CHUNK).max(1);
    let mut in_kept = input.strides.clone();
    let in_stride = in_kept.remove(dim);
    let mut out_kept = output.strides.clone();
    let out_stride = out_kept.remove(dim);
    let (kept_sizes, kept) = coalesce(&kept_sizes, &[in_kept.to_vec(), out_kept.to_vec()]);
    let lines: i64 = kept_sizes.iter().product();
    let mut words = vec![
        word(lines, "element count")?,
        word(len, "size")?,
        kept_sizes.len() as u32,
        word(SCAN_CHUNK, "size")?,
        word(chunks, "size")?,
    ];
    word(lines * chunks, "element count")?;
    for &s in &kept_sizes {
        words.push(word(s, "size")?);
    }
    let mut offset_words = Vec::new();
    for (strides, along) in kept.iter().zip([in_stride, out_stride]) {
        offset_words.push(words.len());
        words.push(0);
        for &s in strides {
            words.push(stride_word(s)?);
        }
        words.push(stride_word(along)?);
    }
    let mut addresses = vec![input.address];
    if let Some(carry) = carry {
        // Tensor order: input, carry, output; the carry's offset word comes last.
        offset_words.insert(1, words.len());
        words.push(0);
        addresses.push(carry.address);
    }
    addresses.push(output.address);
    // Unit strides along float32/int32 lines: four elements per 16-byte access.
    let word_sized = |d: DType| matches!(d, DType::F32 | DType::I32);
    let kernel = ScanKernel {
        vector: word_sized(input.dtype)
            && word_sized(output.dtype)
            && in_stride == 1
            && out_stride == 1,
        ..kernel.clone()
    };
    submit(
        input.device,
        &Kernel::Scan(kernel),
        &addresses,
        words,
        &offset_words,
        (lines * chunks) as u64,
    )
}
