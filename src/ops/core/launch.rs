//! Builds launch arguments for each kernel pattern and hands them to the backend.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Aligned16, DirectGemm, GemmKernel, Kernel, MapKernel, ReduceKernel, Splat};
use crate::ops::core::layout::{broadcast_strides, coalesce};
use crate::ops::core::tensor::TensorRef;
pub use crate::ops::reduce::reduce_launch::run_reduce;
pub use crate::ops::reduce::scan_launch::run_scan;
use crate::runtime::{backend, Launch};
use smallvec::SmallVec;

/// The index of each tensor's offset word among a launch's words.
pub(crate) type OffsetWords = SmallVec<[usize; 4]>;

/// A stride as a launch word: negative strides wrap (kernels add them with u32 arithmetic,
/// which lands on the right element as long as every address fits 32 bits).
pub(crate) fn stride_word(v: i64) -> Result<u32> {
    i32::try_from(v).map(|s| s as u32).map_err(|_| {
        Error::not_implemented(format!(
            "mojo: stride {v} needs 64-bit indexing, not supported yet"
        ))
    })
}

pub(crate) fn word(v: i64, what: &str) -> Result<u32> {
    u32::try_from(v).map_err(|_| {
        Error::not_implemented(format!(
            "mojo: {what} {v} needs 64-bit indexing, not supported yet"
        ))
    })
}

/// Launches per pattern (indexed like `Kernel::PATTERNS`), for tests that count them.
static LAUNCHES: [std::sync::atomic::AtomicU64; Kernel::PATTERNS.len()] =
    [const { std::sync::atomic::AtomicU64::new(0) }; Kernel::PATTERNS.len()];

/// Launches issued so far, by pattern name.
pub fn launch_counts() -> std::collections::HashMap<String, u64> {
    Kernel::PATTERNS
        .iter()
        .zip(&LAUNCHES)
        .map(|(name, n)| {
            (
                name.to_string(),
                n.load(std::sync::atomic::Ordering::Relaxed),
            )
        })
        .collect()
}

/// Hands one launch to the backend.
pub(crate) fn submit(
    device: usize,
    kernel: &Kernel,
    tensors: &[u64],
    words: Vec<u32>,
    offset_words: &[usize],
    threads: u64,
) -> Result<()> {
    LAUNCHES[kernel.pattern()].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    backend()?.launch(
        device,
        Launch {
            kernel,
            tensors,
            words,
            offset_words,
            threads,
        },
    )
}

/// Checks that every tensor is on one device that supports its dtype; returns the device.
pub fn common_device(tensors: &[&TensorRef]) -> Result<usize> {
    let device = same_device(tensors)?;
    for t in tensors {
        check_dtype(device, t.dtype)?;
    }
    Ok(device)
}

/// The device every tensor is on.
fn same_device(tensors: &[&TensorRef]) -> Result<usize> {
    let device = tensors[0].device;
    for t in tensors {
        if t.device != device {
            return Err(Error::runtime(format!(
                "Expected all tensors to be on the same device, but found at least two devices, mojo:{} and mojo:{}!",
                device, t.device
            )));
        }
        check_extent(t)?;
    }
    Ok(device)
}

/// Refuses a tensor whose elements span 4 GiB or more: kernels address a tensor's elements
/// with 32-bit byte offsets from its first one.
pub(crate) fn check_extent(t: &TensorRef) -> Result<()> {
    let (start, end) = t.byte_range();
    let span = end.wrapping_sub(start);
    if span > u64::from(u32::MAX) {
        return Err(Error::not_implemented(format!(
            "mojo: a tensor spanning {span} bytes needs 64-bit indexing, not supported yet \
             (kernels address less than 4 GiB per tensor)"
        )));
    }
    Ok(())
}

/// Refuses a dtype the device cannot compute with.
pub fn check_dtype(device: usize, dtype: DType) -> Result<()> {
    let b = backend()?;
    if b.supports(device, dtype) {
        return Ok(());
    }
    let what = if dtype == DType::F64 && b.emulates_f64(device) {
        "lacks float64 arithmetic: float64 tensors there support copies, conversions to and \
         from floating types, neg, abs and division"
    } else {
        "lacks the shader feature"
    };
    Err(Error::type_error(format!(
        "mojo: this {} operation is not supported on {} (the adapter {what})",
        dtype.name(),
        b.device_name(device)
    )))
}

/// The device of a map kernel's tensors, refusing dtypes it cannot compute with; float64
/// passes on a device that emulates it when every output stays within the emulation (looked
/// at only when float64 is refused, so launches elsewhere pay nothing for it).
fn map_device(kernel: &MapKernel, tensors: &[&TensorRef]) -> Result<usize> {
    let device = same_device(tensors)?;
    let emulated = || {
        backend().is_ok_and(|b| b.emulates_f64(device))
            && kernel
                .outputs
                .iter()
                .all(|(_, value)| value.within_emulated_f64())
    };
    let dtypes = tensors
        .iter()
        .map(|t| t.dtype)
        .chain(kernel.scalars.iter().copied());
    for dtype in dtypes {
        if let Err(refused) = check_dtype(device, dtype) {
            if !(dtype == DType::F64 && emulated()) {
                return Err(refused);
            }
        }
    }
    Ok(device)
}

/// The map layout's words for tensors walked with `strides` over `shape` (coalesced):
/// `[n, nd, size[nd], (offset, stride[nd]) per tensor]`, and each tensor's offset word.
pub(crate) fn strided_words(
    shape: &[i64],
    strides: &[Vec<i64>],
) -> Result<(Vec<u32>, OffsetWords)> {
    let n: i64 = shape.iter().product();
    let (shape, strides) = coalesce(shape, strides);
    // Room for the layout and a few scalar words after it, so no push reallocates.
    let mut words = Vec::with_capacity(2 + (strides.len() + 1) * (shape.len() + 1) + 8);
    words.extend([word(n, "element count")?, shape.len() as u32]);
    for &s in &shape {
        words.push(word(s, "size")?);
    }
    let mut offset_words = OffsetWords::new();
    for st in &strides {
        offset_words.push(words.len());
        words.push(0);
        for &s in st {
            words.push(stride_word(s)?);
        }
    }
    Ok((words, offset_words))
}

/// [`strided_words`] for `count` dense tensors of `n > 1` elements (one dimension, stride 1),
/// with room for `scalars` more words.
fn dense_words(n: i64, count: usize, scalars: usize) -> Result<(Vec<u32>, OffsetWords)> {
    let n = word(n, "element count")?;
    let mut words = Vec::with_capacity(3 + 2 * count + scalars);
    words.extend([n, 1, n]);
    for _ in 0..count {
        words.extend([0, 1]);
    }
    Ok((words, (0..count).map(|t| 3 + 2 * t).collect()))
}

/// Runs an elementwise map over `shape`; `tensors` are the inputs then the outputs, each read
/// through its own strides broadcast to `shape`.
pub fn run_map(
    kernel: MapKernel,
    tensors: &[&TensorRef],
    shape: &[i64],
    scalar_words: &[u32],
) -> Result<()> {
    let n: i64 = shape.iter().product();
    if n == 0 {
        return Ok(());
    }
    let device = map_device(&kernel, tensors)?;
    // Same-shape contiguous tensors, the common case: their coalesced layout directly.
    let dense = n > 1
        && tensors
            .iter()
            .all(|t| t.sizes[..] == *shape && t.is_contiguous());
    let (mut words, offset_words) = if dense {
        dense_words(n, tensors.len(), scalar_words.len())?
    } else {
        let strides: Vec<Vec<i64>> = tensors
            .iter()
            .map(|t| broadcast_strides(t, shape))
            .collect();
        strided_words(shape, &strides)?
    };
    words.extend_from_slice(scalar_words);
    let addresses: SmallVec<[u64; 4]> = tensors.iter().map(|t| t.address).collect();
    let (kernel, items) = match vector_splat(&kernel, tensors, &words, &offset_words) {
        Some(splat) => {
            let lanes = kernel.vector_lanes(splat, backend()?.cpu_device(device));
            let aligned = aligned16(tensors, &words, &offset_words, splat);
            (
                Kernel::MapVector(kernel, splat, aligned),
                (n as u64).div_ceil(lanes.into()),
            )
        }
        None => (Kernel::Map(kernel), n as u64),
    };
    submit(device, &kernel, &addresses, words, &offset_words, items)
}

/// Whether a map's coalesced layout (`words`, each tensor's offset word at `offset_words`)
/// runs four elements at a time ([`Kernel::MapVector`]), and which inputs it then reads
/// once per row: one row, or two dimensions whose rows are a multiple of four long, every
/// tensor of elements of at most four bytes with unit stride along the row, its rows and
/// address aligned to four elements, except inputs with stride zero along it (of any dtype).
/// Four elements of under four bytes are whole words, stored without the atomics a single
/// element's store needs on wgpu (16M uint8 adds on the software device: 60 ms element by
/// element, 15 ms by words).
fn vector_splat(
    kernel: &MapKernel,
    tensors: &[&TensorRef],
    words: &[u32],
    offset_words: &[usize],
) -> Option<Splat> {
    let nd = words[1] as usize;
    if nd == 0 || nd > 2 || (nd == 2 && !words[3].is_multiple_of(4)) {
        return None;
    }
    let inputs = kernel.inputs.len();
    let mut splat = 0;
    for (t, (tensor, &o)) in tensors.iter().zip(offset_words).enumerate() {
        let row_stride = if nd == 2 { words[o + 1] as i32 } else { 0 };
        match words[o + nd] {
            0 if t < inputs => splat |= 1 << t,
            1 if tensor.dtype.size() <= 4
                && tensor
                    .address
                    .is_multiple_of(4 * tensor.dtype.size() as u64)
                && row_stride % 4 == 0 => {}
            _ => return None,
        }
    }
    Some(Splat(splat))
}

/// Whether a vector map's tensors of under four bytes along the rows are [`Aligned16`]: each
/// address and row stride a multiple of 16 bytes, and the rows (of two dimensions) a multiple
/// of 16 bytes of the narrowest of them. False where there are none (one kernel fewer).
fn aligned16(
    tensors: &[&TensorRef],
    words: &[u32],
    offset_words: &[usize],
    splat: Splat,
) -> Aligned16 {
    let nd = words[1] as usize;
    let along_rows = || {
        (tensors.iter().zip(offset_words).enumerate())
            .filter(move |&(t, (tensor, _))| !splat.has(t) && tensor.dtype.size() < 4)
            .map(|(_, pair)| pair)
    };
    let Some(narrowest) = along_rows().map(|(t, _)| t.dtype.size() as u32).min() else {
        return Aligned16(false);
    };
    let rows_whole = nd == 1 || words[3].is_multiple_of(16 / narrowest);
    Aligned16(
        rows_whole
            && along_rows().all(|(t, &o)| {
                let row_bytes = if nd == 2 {
                    words[o + 1].wrapping_mul(t.dtype.size() as u32)
                } else {
                    0
                };
                t.address.is_multiple_of(16) && row_bytes.is_multiple_of(16)
            }),
    )
}

/// Reduces all of `t` with `op` and reads the value back to the host: a synchronising call,
/// for ops whose result size depends on it. Integers and bools accumulate as int64, floats in
/// their own precision (at least float32), so no device needs float64 for it.
pub fn reduce_to_host(t: &TensorRef, op: crate::kernels::ReduceOp) -> Result<f64> {
    use crate::kernels::Expr;
    let acc = match t.dtype {
        DType::F64 => DType::F64,
        DType::F16 | DType::BF16 | DType::F32 => DType::F32,
        _ => DType::I64,
    };
    let total = crate::ops::core::scratch::Scratch::contiguous(t.device, &[], acc)?;
    let kernel = ReduceKernel {
        per_output: None,
        indexed: false,
        elementwise: None,
        vector: false,
        input: t.dtype,
        scalars: vec![],
        pre: Expr::input(0, t.dtype).cast(acc),
        op,
        acc,
        outputs: vec![(acc, Expr::input(0, acc))],
        columns: false,
    };
    run_reduce(kernel, t, &[&total.tensor], &vec![true; t.sizes.len()], &[])?;
    let mut bytes = [0u8; 8];
    let b = backend()?;
    Ok(match acc {
        DType::F32 => {
            b.read(total.tensor.address, &mut bytes[..4])?;
            f64::from(f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
        }
        DType::F64 => {
            b.read(total.tensor.address, &mut bytes)?;
            f64::from_le_bytes(bytes)
        }
        _ => {
            b.read(total.tensor.address, &mut bytes)?;
            i64::from_le_bytes(bytes) as f64
        }
    })
}

/// Copies the elements of `input` (viewed with `shape`) whose `mask` element is set into the
/// contiguous `output`, each to the place `positions` gives (the inclusive count of set mask
/// elements up to it); `mask` and `positions` are contiguous over `shape`.
pub fn run_masked_select(
    input: &TensorRef,
    mask: &TensorRef,
    positions: &TensorRef,
    output: &TensorRef,
    shape: &[i64],
) -> Result<()> {
    let device = common_device(&[input, mask, positions, output])?;
    if output.numel() == 0 {
        return Ok(());
    }
    let dense = TensorRef::contiguous_strides(shape);
    let strides = [broadcast_strides(input, shape), dense.clone(), dense];
    let (mut words, mut offset_words) = strided_words(shape, &strides)?;
    offset_words.push(words.len());
    words.push(0);
    let addresses = [
        input.address,
        mask.address,
        positions.address,
        output.address,
    ];
    let n: i64 = shape.iter().product();
    submit(
        device,
        &Kernel::MaskedSelect(input.dtype),
        &addresses,
        words,
        &offset_words,
        n as u64,
    )
}

/// `out = alpha * a @ b (+ beta * c)` for 3-D views `a: [batch, m, k]`, `b: [batch, k, n]`,
/// `c` and `out: [batch, m, n]` (any strides; `c` may broadcast with zero strides).
pub fn run_gemm(
    kernel: GemmKernel,
    a: &TensorRef,
    b: &TensorRef,
    c: Option<&TensorRef>,
    out: &TensorRef,
    scalar_words: &[u32],
) -> Result<()> {
    let (batch, m, k, n) = (a.sizes[0], a.sizes[1], a.sizes[2], b.sizes[2]);
    if batch * m * n == 0 {
        return Ok(());
    }
    let mut tensors = vec![a, b];
    tensors.extend(c);
    tensors.push(out);
    let device = common_device(&tensors)?;
    let small = m * n <= ELEMENT_GEMM_OUTPUTS || m.min(n) < ELEMENT_GEMM_SIDE;
    let lanes = !small && lanes_gemm(device, &kernel)?;
    let direct = direct_gemm(device, &kernel, a, b)?;
    let kernel = GemmKernel {
        elements: direct.is_none() && !lanes && small,
        direct,
        lanes,
        ..kernel
    };
    let (rows, cols) = crate::kernels::printer::gemm_tile(&kernel);
    let (rows, cols) = (i64::from(rows), i64::from(cols));
    let (tiles_m, tiles_n) = ((m + rows - 1) / rows, (n + cols - 1) / cols);
    let mut words = Vec::new();
    for (v, what) in [(m, "size"), (n, "size"), (k, "size"), (batch, "size")] {
        words.push(word(v, what)?);
    }
    words.push(word(tiles_m, "size")?);
    words.push(word(tiles_n, "size")?);
    let mut offset_words = Vec::new();
    for t in &tensors {
        offset_words.push(words.len());
        words.push(0);
        for &s in &t.strides {
            words.push(stride_word(s)?);
        }
    }
    words.extend_from_slice(scalar_words);
    let mut addresses: Vec<u64> = tensors.iter().map(|t| t.address).collect();
    if k == 0 {
        // Empty operands have no memory and are never read: bind the output in their place.
        let out_address = out.address;
        addresses[0] = out_address;
        addresses[1] = out_address;
    }
    let kernel = Kernel::Gemm(kernel);
    let invocations = match &kernel {
        Kernel::Gemm(k) if k.elements => batch * m * n,
        _ => batch * tiles_m * tiles_n * i64::from(kernel.group_size(false)),
    };
    submit(
        device,
        &kernel,
        &addresses,
        words,
        &offset_words,
        invocations as u64,
    )
}

/// Products of at most this many outputs per matrix (a quarter of a tile), or with fewer rows
/// or columns than [`ELEMENT_GEMM_SIDE`], take one invocation per output: a tile's group
/// would mostly idle. Measured on the software device, float64: 3x3x3 0.21 -> 0.008 ms,
/// 20x20x20 0.51 -> 0.18 ms, 1x1000x1000 97 -> 15 ms; 64x64x64 is 5x slower per element.
const ELEMENT_GEMM_OUTPUTS: i64 = 32 * 32;
const ELEMENT_GEMM_SIDE: i64 = 8;

/// Whether `kernel`'s products on `device` (not too small for a tile) take the lanes GEMM
/// (see `printer::gemm_lanes`): float inputs summed in float32, where the device's subgroups
/// broadcast.
fn lanes_gemm(device: usize, kernel: &GemmKernel) -> Result<bool> {
    let float = matches!(kernel.input, DType::F32 | DType::F16 | DType::BF16);
    Ok(float && kernel.acc == DType::F32 && backend()?.lane_broadcast(device))
}

/// The direct GEMM's layout where `device` wants direct loads and the operands (`a: [batch,
/// m, k]`, `b: [batch, k, n]`) allow 16-byte loads along one dimension each (see
/// [`DirectGemm`]).
fn direct_gemm(
    device: usize,
    kernel: &GemmKernel,
    a: &TensorRef,
    b: &TensorRef,
) -> Result<Option<DirectGemm>> {
    if kernel.input != DType::F32
        || a.sizes[2] % 4 != 0
        || a.sizes[2] == 0
        || !backend()?.direct_loads(device)
    {
        return Ok(None);
    }
    // A unit stride along `along`, every other stride a multiple of four elements.
    let along = |t: &TensorRef, along: usize| {
        t.address.is_multiple_of(16)
            && t.strides[along] == 1
            && (0..3).all(|d| d == along || t.sizes[d] == 1 || t.strides[d] % 4 == 0)
    };
    let a_along_k = if along(a, 2) {
        true
    } else if along(a, 1) {
        false
    } else {
        return Ok(None);
    };
    let b_along_k = if along(b, 1) {
        true
    } else if along(b, 2) {
        false
    } else {
        return Ok(None);
    };
    Ok(Some(DirectGemm {
        a_along_k,
        b_along_k,
    }))
}

/// The most tensor arguments one foreach launch binds (Metal's argument table holds 31
/// buffers; the launch arguments take one).
pub const FOREACH_BINDINGS: usize = 24;

/// Runs a foreach kernel over positions `0..count`: `inputs[l][k]` and `outputs[o][k]` are
/// position `k`'s tensors (contiguous; a broadcast input is one element), `scalar_words[k]`
/// its scalar words. Launches `kernel.chunk` positions at a time.
pub fn run_foreach(
    kernel: &crate::kernels::ForeachKernel,
    inputs: &[Vec<&TensorRef>],
    outputs: &[Vec<&TensorRef>],
    scalar_words: &[Vec<u32>],
) -> Result<()> {
    let count = outputs[0].len();
    let chunk = kernel.chunk;
    for start in (0..count).step_by(chunk) {
        let positions: Vec<usize> = (start..(start + chunk).min(count)).collect();
        // A short last chunk repeats its first position with no elements.
        let pick = |slot: usize| positions.get(slot).copied();
        let mut all: Vec<&TensorRef> = Vec::new();
        for list in inputs.iter().chain(outputs) {
            for slot in 0..chunk {
                all.push(list[pick(slot).unwrap_or(positions[0])]);
            }
        }
        let device = common_device(&all)?;
        let mut words = vec![0u32];
        let mut total = 0u64;
        for slot in 0..chunk {
            if let Some(k) = pick(slot) {
                total += outputs[0][k].numel();
            }
            words.push(word(total as i64, "element count")?);
        }
        words[0] = word(total as i64, "element count")?;
        let offset_words: Vec<usize> = (0..all.len()).map(|t| words.len() + t).collect();
        words.extend(std::iter::repeat_n(0, all.len()));
        for slot in 0..chunk {
            words.extend_from_slice(&scalar_words[pick(slot).unwrap_or(positions[0])]);
        }
        if total == 0 {
            continue;
        }
        let mut addresses: Vec<u64> = all.iter().map(|t| t.address).collect();
        for (a, t) in addresses.iter_mut().zip(&all) {
            if t.numel() == 0 {
                // Empty tensors have no memory and are never read.
                *a = all[0].address;
            }
        }
        submit(
            device,
            &Kernel::Foreach(kernel.clone()),
            &addresses,
            words,
            &offset_words,
            total,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(sizes: Vec<i64>, strides: Vec<i64>, dtype: DType) -> TensorRef {
        TensorRef {
            address: 1 << 40,
            sizes: sizes.into(),
            strides: strides.into(),
            dtype,
            device: 0,
        }
    }

    #[test]
    fn tensors_spanning_4_gib_are_refused() {
        let under = view(vec![(1 << 30) - 1], vec![1], DType::F32);
        let at = view(vec![1 << 30], vec![1], DType::F32);
        let strided = view(vec![2, 3], vec![1 << 31, 1], DType::F64);
        let expanded = view(vec![1 << 40], vec![0], DType::F64);
        assert!(check_extent(&under).is_ok());
        assert!(check_extent(&at).is_err());
        assert!(check_extent(&strided).is_err());
        assert!(check_extent(&expanded).is_ok());
    }

    #[test]
    fn dense_words_are_the_coalesced_layout() {
        let shape = [3, 4, 5];
        let dense = vec![20, 5, 1];
        let strided = strided_words(&shape, &[dense.clone(), dense.clone(), dense]).unwrap();
        assert_eq!(dense_words(60, 3, 2).unwrap(), strided);
    }
}
