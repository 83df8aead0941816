//! Launch arguments for the sorts (layouts in `kernels::printer::sort`): the rank sort of
//! short lines, the radix sort of long ones, the merge sort of long float64 ones.

use super::copy::copy;
use super::launch::{check_extent, common_device, run_map, stride_word, submit, word};
use super::layout::coalesce;
use super::reduce_launch::run_scan;
use super::scalar::ScalarArg;
use super::scratch::Scratch;
use super::tensor::TensorRef;
use crate::dtype::DType;
use crate::error::Result;
use crate::kernels::printer::RADIX_BITS;
use crate::kernels::{BinaryOp, Expr, Kernel, MapKernel, ReduceOp, ScanKernel, SortKernel};
use std::ops::Range;

/// Lines up to this long are sorted by ranking (one launch, quadratic work); longer ones by
/// radix passes (`key bits / 8` passes of linear work), or, for float64 keys, by merge passes
/// (`log2(len)` passes of `n log(len)` work).
const RANK_SORT_MAX: i64 = 64;

/// Elements per radix tile: one invocation counts and moves a tile, so the counts take 256
/// words per tile.
const RADIX_TILE: i64 = 2048;

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
        return match key_bits(input.dtype) {
            Some(bits) => radix_sort(descending, input, values, indices, dim, bits),
            None => merge_sort(descending, input, values, indices, dim),
        };
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
    check_extent(&order[0].tensor)?;
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

/// The bits of `dtype`'s radix key (see `kernels::printer::sort`) that can differ between
/// values; None for float64, which sorts by merging.
fn key_bits(dtype: DType) -> Option<Range<u32>> {
    Some(match dtype {
        DType::Bool => 0..1,
        DType::U8 | DType::I8 => 0..8,
        DType::I16 => 0..16,
        DType::I32 | DType::F32 => 0..32,
        // Their float32 values leave the low 13 (float16) or 16 (bfloat16) bits clear.
        DType::F16 => 13..32,
        DType::BF16 => 16..32,
        DType::I64 => 0..64,
        DType::F64 => return None,
    })
}

/// Sorts int64 `keys` (a vector) in `[0, bound)` stably into `sorted`, with the positions in
/// their sorted order in `perm`: by as few radix passes as the bound needs.
pub fn run_sort_below(
    bound: i64,
    keys: &TensorRef,
    sorted: &TensorRef,
    perm: &TensorRef,
) -> Result<()> {
    if keys.sizes[0] <= RANK_SORT_MAX || bound > 1 << 32 {
        return run_sort(false, keys, sorted, perm, 0);
    }
    common_device(&[keys, sorted, perm])?;
    let bits = 64 - (bound.max(2) - 1).leading_zeros();
    radix_sort(false, keys, sorted, perm, 0, 0..bits)
}

/// Sorts lines by least-significant-digit radix passes over contiguous `[lines, len]` keys
/// and indices, 8 bits of the keys' `bits` a pass: per pass, each tile's digit counts, their
/// inclusive scan along each line, and each tile's elements moved, in order, to their places.
fn radix_sort(
    descending: bool,
    input: &TensorRef,
    values: &TensorRef,
    indices: &TensorRef,
    dim: usize,
    bits: Range<u32>,
) -> Result<()> {
    let device = input.device;
    let len = input.sizes[dim];
    let lines = input.numel() as i64 / len;
    let moved = dim_last(input, dim);
    let keys = [
        Scratch::contiguous(device, &moved.sizes, input.dtype)?,
        Scratch::contiguous(device, &moved.sizes, input.dtype)?,
    ];
    let order = [
        Scratch::contiguous(device, &moved.sizes, DType::I64)?,
        Scratch::contiguous(device, &moved.sizes, DType::I64)?,
    ];
    check_extent(&order[0].tensor)?;
    copy(&keys[0].tensor, &moved)?;
    let tile = RADIX_TILE.min(len);
    let tiles = (len + tile - 1) / tile;
    let digits = 1i64 << RADIX_BITS;
    let counts = Scratch::contiguous(device, &[lines, digits * tiles], DType::I32)?;
    let scanned = Scratch::contiguous(device, &[lines, digits * tiles], DType::I32)?;
    check_extent(&counts.tensor)?;
    let sort = SortKernel {
        dtype: input.dtype,
        descending,
    };
    let scan = ScanKernel {
        carry: false,
        input: DType::I32,
        acc: DType::I32,
        output: DType::I32,
        op: ReduceOp::Sum,
    };
    let mut current = 0;
    for shift in bits.clone().step_by(RADIX_BITS as usize) {
        let (from, to) = (current, 1 - current);
        let head = vec![
            word(lines * tiles, "tile count")?,
            word(len, "size")?,
            word(tile, "size")?,
            word(tiles, "tile count")?,
            shift,
        ];
        let mut words = head.clone();
        words.extend([0, 0]);
        submit(
            device,
            &Kernel::RadixCount(sort.clone()),
            &[keys[from].tensor.address, counts.tensor.address],
            words,
            &[5, 6],
            (lines * tiles) as u64,
        )?;
        run_scan(scan.clone(), &counts.tensor, &scanned.tensor, 1)?;
        let mut words = head;
        words.push(u32::from(shift == bits.start));
        words.extend([0; 6]);
        let addresses = [
            keys[from].tensor.address,
            order[from].tensor.address,
            counts.tensor.address,
            scanned.tensor.address,
            keys[to].tensor.address,
            order[to].tensor.address,
        ];
        submit(
            device,
            &Kernel::RadixScatter(sort.clone()),
            &addresses,
            words,
            &[6, 7, 8, 9, 10, 11],
            (lines * tiles) as u64,
        )?;
        current = to;
    }
    copy(&dim_last(values, dim), &keys[current].tensor)?;
    copy(&dim_last(indices, dim), &order[current].tensor)
}
