//! Launch arguments for the sorts (layouts in `kernels::printer::sort`): the rank sort of
//! short lines, the radix sort of long ones, the merge sort of long float64 ones.

use crate::dtype::DType;
use crate::error::Result;
use crate::kernels::printer::{ONE_PASS_BITS, RADIX_BITS};
use crate::kernels::{
    BinaryOp, Expr, Kernel, MapKernel, RadixDigit, RadixKernel, ReduceKernel, ReduceOp, ScanKernel,
    SortKernel,
};
use crate::ops::core::launch::run_reduce;
use crate::ops::core::launch::{check_extent, common_device, run_map, stride_word, submit, word};
use crate::ops::core::layout::coalesce;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::reduce::scan_launch::run_scan;
use crate::ops::shape::copy::copy;
use crate::ops::shape::copy::fill;
use crate::ops::shape::rearrange::narrow;
use crate::runtime::backend;
use smallvec::smallvec;
use std::ops::Range;

/// Lines up to this long are sorted by ranking (one launch, quadratic work); longer ones by
/// radix passes (`key bits / 8` passes of linear work), or, for float64 keys, by merge passes
/// (`log2(len)` passes of `n log(len)` work).
const RANK_SORT_MAX: i64 = 64;

/// Elements per radix tile: one invocation counts and moves a tile, so the counts take a
/// word per digit per tile.
const RADIX_TILE: i64 = 2048;

/// On a CPU device, the least keys per tile per digit: each tile also loops over every digit
/// in both launches, which for 1,024 digits in tiles of 2,048 was a third of the work
/// (index_add of 1M values into 1k: 17 -> 14 ms with tiles of 8,192; 8-bit digits keep
/// 2,048, as 4,096 measured slower).
const CPU_KEYS_PER_DIGIT: i64 = 8;

// On a CPU the radix passes count a tile's keys in 16-bit halves of group memory
// (`printer::sort::radix_count`): no tile may hold 65,536 keys.
const _: () = assert!(RADIX_TILE < 1 << 16 && CPU_KEYS_PER_DIGIT << ONE_PASS_BITS < 1 << 16);

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
        let mut strides = t.strides.to_vec();
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
pub fn dim_last(t: &TensorRef, dim: usize) -> TensorRef {
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
        inputs: smallvec![],
        scalars: smallvec![DType::I64],
        outputs: smallvec![(
            DType::I64,
            Expr::Index.binary(BinaryOp::Rem, Expr::scalar(0, DType::I64)),
        )],
    };
    let len_words = ScalarArg::int(len).words(DType::I64);
    let flat = TensorRef {
        sizes: smallvec![n],
        strides: smallvec![1],
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
pub(crate) fn key_bits(dtype: DType) -> Option<Range<u32>> {
    Some(match dtype {
        DType::Bool => 0..1,
        DType::U8 | DType::I8 => 0..8,
        DType::I16 | DType::U16 => 0..16,
        DType::I32 | DType::U32 | DType::F32 => 0..32,
        DType::U64 => 0..64,
        // Their float32 values leave at least the low 16 bits clear.
        crate::float8_dtypes!() => 16..32,
        // Their float32 values leave the low 13 (float16) or 16 (bfloat16) bits clear.
        DType::F16 => 13..32,
        DType::BF16 => 16..32,
        DType::I64 => 0..64,
        DType::F64 => return None,
    })
}

/// Sorts integer `keys` (a vector) in `[0, bound)` stably into `sorted`, with the positions
/// in their sorted order in `perm` (int32 or int64): by as few radix passes as the bound
/// needs.
pub fn run_sort_below(
    bound: i64,
    keys: &TensorRef,
    sorted: &TensorRef,
    perm: &TensorRef,
) -> Result<()> {
    if keys.sizes[0] <= RANK_SORT_MAX || bound > 1 << 32 {
        if perm.dtype == DType::I64 {
            return run_sort(false, keys, sorted, perm, 0);
        }
        // The rank and merge sorts write int64 positions.
        let wide = Scratch::contiguous(keys.device, &perm.sizes, DType::I64)?;
        run_sort(false, keys, sorted, &wide.tensor, 0)?;
        return copy(perm, &wide.tensor);
    }
    common_device(&[keys, sorted, perm])?;
    let bits = 64 - (bound.max(2) - 1).leading_zeros();
    radix_sort(false, keys, sorted, perm, 0, 0..bits)
}

/// What a one-pass radix sort leaves of each key's run: the scanned digit counts
/// `[key][tile]` of int32, each tile's cursor past its last element of the key.
pub struct RunEnds {
    pub cursors: Scratch,
    pub tiles: i64,
}

/// An accumulating scatter's index as radix keys (`RadixDigit::Target`): `bound` targets,
/// negative indices from the end when `wrap`, an out-of-range one reported to the fault
/// word at `fault` with `tag`.
pub struct Targets {
    pub bound: i64,
    pub wrap: bool,
    pub fault: u64,
    pub tag: u32,
}

/// The digit bits of a one-pass sort of keys below `bound`: enough to hold `bound` itself,
/// so that the all-ones digit (out-of-range keys) lies past every key.
fn presort_bits(bound: i64) -> u32 {
    64 - bound.max(1).leading_zeros()
}

/// Whether `run_presort` sorts `len` keys below `bound` moving values of `dtype`: one pass,
/// more keys than ranking takes, int32 cursors, values of whole words.
pub fn presort_fits(bound: i64, len: i64, dtype: DType) -> bool {
    len > RANK_SORT_MAX
        && len <= i64::from(i32::MAX)
        && presort_bits(bound) <= ONE_PASS_BITS
        && matches!(dtype.size(), 4 | 8)
}

/// Moves the vector `values` (4 or 8 bytes per element: whole words, which invocations
/// never share) into `moved` stably ordered by `keys` in one radix pass, keeping no keys:
/// int32 keys in `[0, bound)`, or with `targets` the index itself (int32 or int64) as the
/// key. `None` (nothing done) where the keys take more than one pass or are few enough to
/// rank. Keys from `bound` up (out-of-range marks and indices included: the digit covers
/// `bound` itself, so the all-ones digit is at least `bound`) sort last.
pub fn run_presort(
    bound: i64,
    keys: &TensorRef,
    targets: Option<Targets>,
    values: &TensorRef,
    moved: &TensorRef,
) -> Result<Option<RunEnds>> {
    let len = keys.sizes[0];
    if !presort_fits(bound, len, values.dtype) {
        return Ok(None);
    }
    common_device(&[keys, values, moved])?;
    let bits = presort_bits(bound);
    let digit = targets
        .as_ref()
        .map_or(RadixDigit::Bits, |t| RadixDigit::Target { wrap: t.wrap });
    let mut radix = Radix::new(keys, false, 1, len, &(0..bits), bits, values.dtype)?;
    radix.keep_keys = false;
    radix.targets = targets;
    radix.count(digit, 0, keys.address, None)?;
    // Nothing writes keys: their place is the moved values'.
    radix.scatter(
        digit,
        0,
        false,
        (keys.address, values.address),
        (moved.address, moved.address),
        None,
    )?;
    Ok(Some(RunEnds {
        tiles: radix.tiles,
        cursors: radix.scanned,
    }))
}

/// The launches of radix passes over contiguous `[lines, len]` keys of one dtype: tiles of
/// up to `RADIX_TILE` elements, and the digit counts of every tile with their scan.
struct Radix {
    device: usize,
    dtype: DType,
    descending: bool,
    lines: i64,
    len: i64,
    tile: i64,
    tiles: i64,
    /// The bits of a key word that can differ (the others are cleared).
    mask: u32,
    /// The bits of a pass's digit.
    digit_bits: u32,
    /// The dtype of the positions (or values) moved with the keys.
    positions: DType,
    /// Whether the scatter writes the moved keys.
    keep_keys: bool,
    /// The targets' words where the keys are indices into them (`RadixDigit::Target`).
    targets: Option<Targets>,
    counts: Scratch,
    scanned: Scratch,
}

impl Radix {
    fn new(
        input: &TensorRef,
        descending: bool,
        lines: i64,
        len: i64,
        bits: &Range<u32>,
        digit_bits: u32,
        positions: DType,
    ) -> Result<Self> {
        let device = input.device;
        let tile = if backend()?.cpu_device(device) {
            RADIX_TILE.max(CPU_KEYS_PER_DIGIT << digit_bits)
        } else {
            RADIX_TILE
        };
        let tile = tile.min(len);
        let tiles = (len + tile - 1) / tile;
        let digits = 1i64 << digit_bits;
        let counts = Scratch::contiguous(device, &[lines, digits * tiles], DType::I32)?;
        let scanned = Scratch::contiguous(device, &[lines, digits * tiles], DType::I32)?;
        check_extent(&counts.tensor)?;
        // Bits `bits` of a 32-bit key, or all of each word of a 64-bit one.
        let below = |bit: u32| ((1u64 << bit.min(32)) - 1) as u32;
        let mask = if bits.end > 32 {
            u32::MAX
        } else {
            below(bits.end) & !below(bits.start)
        };
        Ok(Radix {
            device,
            dtype: input.dtype,
            descending,
            lines,
            len,
            tile,
            tiles,
            mask,
            digit_bits,
            positions,
            keep_keys: true,
            targets: None,
            counts,
            scanned,
        })
    }

    fn kernel(&self, digit: RadixDigit) -> RadixKernel {
        RadixKernel {
            dtype: self.dtype,
            descending: self.descending,
            digit,
            positions: self.positions,
            keep_keys: self.keep_keys,
        }
    }

    fn head(&self, shift: u32) -> Result<Vec<u32>> {
        Ok(vec![
            word(self.lines * self.tiles, "tile count")?,
            word(self.len, "size")?,
            word(self.tile, "size")?,
            word(self.tiles, "tile count")?,
            shift,
            self.mask,
            self.digit_bits,
        ])
    }

    /// Counts each tile's digits at `shift` of the keys at `keys` (and, selecting, the
    /// lines' state at `state`).
    fn count(&self, digit: RadixDigit, shift: u32, keys: u64, state: Option<u64>) -> Result<()> {
        let mut words = self.head(shift)?;
        words.extend([0, 0, 0]);
        let mut addresses = vec![keys];
        addresses.extend(state);
        addresses.push(self.counts.tensor.address);
        let offsets = if state.is_some() {
            &[7, 9, 8][..]
        } else if let Some(t) = &self.targets {
            addresses.push(t.fault);
            words.extend([word(t.bound, "size")?, t.tag]);
            &[7, 8, 9][..]
        } else {
            &[7, 8][..]
        };
        submit(
            self.device,
            &Kernel::RadixCount(self.kernel(digit)),
            &addresses,
            words,
            offsets,
            (self.lines * self.tiles) as u64,
        )
    }

    /// Moves keys and indices (`from`; indices are positions when `fresh`) to their digit's
    /// places (`to`), by the scan of the counts the last `count` made.
    fn scatter(
        &self,
        digit: RadixDigit,
        shift: u32,
        fresh: bool,
        from: (u64, u64),
        to: (u64, u64),
        state: Option<u64>,
    ) -> Result<()> {
        let scan = ScanKernel::sum(DType::I32, DType::I32);
        run_scan(scan, &self.counts.tensor, &self.scanned.tensor, 1)?;
        let mut words = self.head(shift)?;
        words.push(u32::from(fresh));
        words.extend([0; 7]);
        if let Some(t) = &self.targets {
            words[14] = word(t.bound, "size")?;
        }
        // The scan is written too (it becomes each tile's cursors), so it follows the inputs.
        let mut addresses = vec![from.0, from.1, self.counts.tensor.address];
        addresses.extend(state);
        addresses.extend([self.scanned.tensor.address, to.0, to.1]);
        let offsets = if state.is_some() {
            &[8, 9, 10, 14, 11, 12, 13][..]
        } else {
            &[8, 9, 10, 11, 12, 13][..]
        };
        submit(
            self.device,
            &Kernel::RadixScatter(self.kernel(digit)),
            &addresses,
            words,
            offsets,
            (self.lines * self.tiles) as u64,
        )
    }
}

/// Sorts lines by least-significant-digit radix passes over contiguous `[lines, len]` keys
/// and indices, 8 bits of the keys' `bits` a pass, or all of them in one pass where they are
/// at most `ONE_PASS_BITS`: per pass, each tile's digit counts, their inclusive scan along
/// each line, and each tile's elements moved, in order, to their places.
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
        Scratch::contiguous(device, &moved.sizes, indices.dtype)?,
        Scratch::contiguous(device, &moved.sizes, indices.dtype)?,
    ];
    check_extent(&order[0].tensor)?;
    let digit_bits = if bits.len() <= ONE_PASS_BITS as usize {
        bits.len().max(1) as u32
    } else {
        RADIX_BITS
    };
    let passes = bits.len().div_ceil(digit_bits as usize);
    let (values_out, indices_out) = (dim_last(values, dim), dim_last(indices, dim));
    // The first pass reads a dense input where it lies, and the last writes dense outputs
    // in place, unless one pass would do both over the same memory.
    let (in0, in1) = moved.byte_range();
    let (out0, out1) = values_out.byte_range();
    let read_input = moved.is_contiguous() && (passes > 1 || out1 <= in0 || in1 <= out0);
    let write_outputs = values_out.is_contiguous() && indices_out.is_contiguous();
    if !read_input {
        copy(&keys[0].tensor, &moved)?;
    }
    let radix = Radix::new(
        input,
        descending,
        lines,
        len,
        &bits,
        digit_bits,
        indices.dtype,
    )?;
    let mut current = 0;
    for (pass, shift) in bits.clone().step_by(digit_bits as usize).enumerate() {
        let (from, to) = (current, 1 - current);
        let source = if pass == 0 && read_input {
            moved.address
        } else {
            keys[from].tensor.address
        };
        let target = if pass + 1 == passes && write_outputs {
            (values_out.address, indices_out.address)
        } else {
            (keys[to].tensor.address, order[to].tensor.address)
        };
        radix.count(RadixDigit::Bits, shift, source, None)?;
        radix.scatter(
            RadixDigit::Bits,
            shift,
            pass == 0,
            (source, order[from].tensor.address),
            target,
            None,
        )?;
        current = to;
    }
    if !write_outputs {
        copy(&values_out, &keys[current].tensor)?;
        copy(&indices_out, &order[current].tensor)?;
    }
    Ok(())
}

/// `input`'s lines along `dim` as contiguous `[lines, len]` elements: their address, in a
/// copy (returned, to keep it alive) unless the lines already lie so.
pub(crate) fn dense_lines(input: &TensorRef, dim: usize) -> Result<(Option<Scratch>, u64)> {
    let moved = dim_last(input, dim);
    if moved.is_contiguous() {
        return Ok((None, moved.address));
    }
    let dense = Scratch::contiguous(input.device, &moved.sizes, input.dtype)?;
    copy(&dense.tensor, &moved)?;
    let address = dense.tensor.address;
    Ok((Some(dense), address))
}

/// Selection along `dim` by radix passes from the top digit: per line, the digit counts of
/// the keys that share the bits chosen so far pick the next digit of the k-th key (the
/// `k`-th smallest, or largest when `largest`; NaN the largest), then a stable partition of
/// each line into the keys before it, equal to it and after it. Returns the partitioned
/// values and indices, contiguous `[lines, len]` (dimension `dim` last): each line's first
/// `k` are the `k` a stable sort puts first, in index order among the keys before the k-th
/// and among those equal to it, and element `k - 1` is the k-th (the keys after it are not
/// written). None for int64 and float64 keys.
pub fn run_select(
    largest: bool,
    input: &TensorRef,
    dim: usize,
    k: i64,
) -> Result<Option<(Scratch, Scratch)>> {
    let bits = match key_bits(input.dtype) {
        Some(bits) if bits.end <= 32 => bits,
        _ => return Ok(None),
    };
    let device = common_device(&[input])?;
    let len = input.sizes[dim];
    let lines = input.numel() as i64 / len;
    let (_keys, source) = dense_lines(input, dim)?;
    let radix = Radix::new(input, largest, lines, len, &bits, RADIX_BITS, DType::I64)?;
    // Per line: the chosen bits (none yet) and the wanted rank among the keys having them.
    let state = Scratch::contiguous(device, &[lines, 2], DType::I32)?;
    fill(&state.tensor, &ScalarArg::int(k))?;
    fill(&narrow(&state.tensor, 1, 0, 1), &ScalarArg::int(0))?;
    let sums = Scratch::contiguous(device, &[lines, 1 << RADIX_BITS], DType::I32)?;
    let by_tile = TensorRef {
        sizes: smallvec![lines, 1 << RADIX_BITS, radix.tiles],
        strides: TensorRef::contiguous_strides(&[lines, 1 << RADIX_BITS, radix.tiles]).into(),
        ..radix.counts.tensor.clone()
    };
    let sum = ReduceKernel {
        input: DType::I32,
        scalars: vec![],
        pre: Expr::input(0, DType::I32),
        op: ReduceOp::Sum,
        acc: DType::I32,
        outputs: vec![(DType::I32, Expr::input(0, DType::I32))],
        per_output: None,
        indexed: false,
        elementwise: None,
        vector: false,
        columns: false,
    };
    let shifts: Vec<u32> = bits.step_by(RADIX_BITS as usize).collect();
    for &shift in shifts.iter().rev() {
        radix.count(
            RadixDigit::Narrowed,
            shift,
            source,
            Some(state.tensor.address),
        )?;
        run_reduce(
            sum.clone(),
            &by_tile,
            &[&sums.tensor],
            &[false, false, true],
            &[],
        )?;
        let words = vec![word(lines, "line count")?, shift, 0, 0];
        let addresses = [sums.tensor.address, state.tensor.address];
        submit(
            device,
            &Kernel::RadixPick,
            &addresses,
            words,
            &[2, 3],
            lines as u64,
        )?;
    }
    let values = Scratch::contiguous(device, &dim_last(input, dim).sizes, input.dtype)?;
    let order = Scratch::contiguous(device, &dim_last(input, dim).sizes, DType::I64)?;
    check_extent(&order.tensor)?;
    let state_at = Some(state.tensor.address);
    radix.count(RadixDigit::Partition, 0, source, state_at)?;
    radix.scatter(
        RadixDigit::Partition,
        0,
        true,
        (source, order.tensor.address),
        (values.tensor.address, order.tensor.address),
        state_at,
    )?;
    Ok(Some((values, order)))
}
