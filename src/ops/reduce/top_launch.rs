//! Launch arguments for top-k by tile rounds (layout in `kernels::printer::sort::top_tiles`):
//! for `k` up to 64, linear work where a radix selection reads every key once per digit.

use crate::dtype::DType;
use crate::error::Result;
use crate::kernels::{Kernel, SortKernel};
use crate::ops::core::launch::{check_extent, common_device, submit, word};
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::reduce::sort_launch::{dense_lines, dim_last, key_bits};

/// The largest `k` selected by tile rounds ([`run_top`]); above it, by radix selection.
const TOP_TILES_MAX: i64 = 64;

/// Elements per tile of a top-k round at most: with `k` at most 64, an invocation takes at
/// most `(4096 + 128) * 8` loop steps (the software device stops one after 65,535).
const TOP_TILE: i64 = 4096;

/// The least `k` for which a top-k selection first bounds the lines (below it, few elements
/// take a heap insertion anyway).
const TOP_BOUND_MIN: i64 = 8;

/// The `k` (at most `TOP_TILES_MAX`) first elements of a stable sort of each line of
/// `input` along `dim` (descending when `largest`), as contiguous `[lines, k]` values and
/// int64 indices, by rounds in which each tile of a line keeps its best `k` (see
/// `printer::sort::top_tiles`) until one tile holds a line's candidates. Lines longer than
/// a tile first take a bound, so that the tiles skip almost every element (a heap insertion
/// costs an invocation dozens of steps): the `k`-th best of the bests of `4k` samples spread
/// over the line (an eighth of it), which at least `k` elements of the line equal or
/// beat. Work is linear in the elements; None for int64 and float64 keys.
pub fn run_top(
    largest: bool,
    input: &TensorRef,
    dim: usize,
    k: i64,
) -> Result<Option<(Scratch, Scratch)>> {
    match key_bits(input.dtype) {
        Some(bits) if bits.end <= 32 && (1..=TOP_TILES_MAX).contains(&k) => {}
        _ => return Ok(None),
    }
    let device = common_device(&[input])?;
    let len = input.sizes[dim];
    let lines = input.numel() as i64 / len;
    let (_dense, source) = dense_lines(input, dim)?;
    let mut top_sizes = dim_last(input, dim).sizes;
    *top_sizes.last_mut().expect("a line dimension") = k;
    let round = TopRound {
        device,
        kernel: Kernel::TopTiles(SortKernel {
            dtype: input.dtype,
            descending: largest,
        }),
        lines,
        input_len: len,
        input: source,
        values: Scratch::contiguous(device, &top_sizes, input.dtype)?,
        indices: Scratch::contiguous(device, &top_sizes, DType::I64)?,
    };
    let mut bound = None;
    if len > TOP_TILE && k >= TOP_BOUND_MIN {
        let chunks = 4 * k;
        let tiles = chunks.max((len + 8 * TOP_TILE - 1) / (8 * TOP_TILE));
        let bests = round.run(1, (tiles, 8 * tiles), None, None, false)?;
        let mut kept = round.run(k, tiles_taking_all(tiles), Some(&bests), None, false)?;
        while kept.tiles > 1 {
            kept = round.run(
                k,
                tiles_taking_all(kept.tiles * k),
                Some(&kept),
                None,
                false,
            )?;
        }
        bound = Some(kept);
    }
    let mut kept = round.run(k, tiles_taking_all(len), None, bound.as_ref(), true)?;
    while kept.tiles > 1 {
        kept = round.run(k, tiles_taking_all(kept.tiles * k), Some(&kept), None, true)?;
    }
    Ok(Some((round.values, round.indices)))
}

/// Tiles per line and their step for `len` candidates per line: each tile takes every one
/// of its elements, at most `TOP_TILE`.
fn tiles_taking_all(len: i64) -> (i64, i64) {
    let tiles = (len + TOP_TILE - 1) / TOP_TILE;
    (tiles, tiles)
}

/// The launches of one top-k selection's rounds over contiguous `[lines, input_len]` values.
struct TopRound {
    device: usize,
    kernel: Kernel,
    lines: i64,
    input_len: i64,
    input: u64,
    values: Scratch,
    indices: Scratch,
}

/// What a top-k round keeps: per tile of each line, `k` keys and indices (int32).
struct Kept {
    keys: Scratch,
    indices: Scratch,
    k: i64,
    tiles: i64,
}

impl TopRound {
    /// Keeps the `k` best of each of `tiles` tiles per line of the candidates, whose elements
    /// lie `step` apart (`None`: the input's values, with at least `bound`'s last kept key
    /// when given); with `top`, a round that keeps one tile per line writes the values and
    /// indices.
    fn run(
        &self,
        k: i64,
        (tiles, step): (i64, i64),
        from: Option<&Kept>,
        bound: Option<&Kept>,
        top: bool,
    ) -> Result<Kept> {
        let len = from.map_or(self.input_len, |f| f.tiles * f.k);
        let kept = Kept {
            keys: Scratch::contiguous(self.device, &[self.lines * tiles * k], DType::I32)?,
            indices: Scratch::contiguous(self.device, &[self.lines * tiles * k], DType::I32)?,
            k,
            tiles,
        };
        check_extent(&kept.keys.tensor)?;
        let mut words = vec![
            word(self.lines * tiles, "tile count")?,
            word(len, "size")?,
            word(step, "size")?,
            word(tiles, "tile count")?,
            word(k, "size")?,
            u32::from(from.is_none()),
            u32::from(top && tiles == 1),
            word(self.input_len, "size")?,
        ];
        words.extend([0; 7]);
        words.push(u32::from(bound.is_some()));
        // Candidates, or the bound's keys (the input stands in for what a round does not read).
        let (keys, indices) = match (from, bound) {
            (Some(f), _) => (f.keys.tensor.address, f.indices.tensor.address),
            (None, Some(b)) => (b.keys.tensor.address, self.input),
            (None, None) => (self.input, self.input),
        };
        let addresses = [
            self.input,
            keys,
            indices,
            kept.keys.tensor.address,
            kept.indices.tensor.address,
            self.values.tensor.address,
            self.indices.tensor.address,
        ];
        submit(
            self.device,
            &self.kernel,
            &addresses,
            words,
            &[8, 9, 10, 11, 12, 13, 14],
            (self.lines * tiles) as u64,
        )?;
        Ok(kept)
    }
}
