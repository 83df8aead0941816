//! Sort skeletons: the rank sort of short lines, one pass of the merge sort of long ones, and
//! the two kernels of a pass of the radix sort of long ones.

use super::{Builtin, Printer, Ty};
use crate::dtype::DType;
use crate::kernels::pattern::{RadixDigit, RadixKernel, SortKernel};

/// Sort arguments: `[n, len, nk, kept_size[nk], (offset, kept_stride[nk], stride)` for the
/// input, the values and the indices`]`; one invocation per element, which counts the
/// elements of its line sorting before it and writes its value and index at that rank.
pub fn sort(p: &mut Printer, k: &SortKernel) {
    let size = k.dtype.size();
    let ty = Ty::Value(k.dtype);
    p.let_("n", Ty::U32, p.word("0u"));
    p.let_("len", Ty::U32, p.word("1u"));
    p.let_("nk", Ty::U32, p.word("2u"));
    p.let_("io", Ty::U32, "3u + nk");
    p.let_("vo", Ty::U32, "io + 2u + nk");
    p.let_("xo", Ty::U32, "vo + 2u + nk");
    p.grid_loop("i", "n");
    p.let_("j", Ty::U32, "i % len");
    p.var("r", Ty::U32, "i / len");
    for name in ["ein", "ev", "ex"] {
        p.var(name, Ty::U32, "0u");
    }
    p.for_("d", "nk", "d > 0u", "d -= 1u");
    p.let_("c", Ty::U32, format!("r % {}", p.word("2u + d")));
    p.line(format!("r = r / {};", p.word("2u + d")));
    for (e, base) in [("ein", "io"), ("ev", "vo"), ("ex", "xo")] {
        p.line(format!("{e} += c * {};", p.word(format!("{base} + d"))));
    }
    p.close();
    p.let_("ib", Ty::U32, format!("{} + ein * {size}u", p.word("io")));
    p.let_(
        "istep",
        Ty::U32,
        format!("{} * {size}u", p.word("io + 1u + nk")),
    );
    let element = |at: &str| format!("ld0(ib + {at} * istep)");
    p.let_("x1", ty, element("j"));
    p.var("rank", Ty::U32, "0u");
    p.for_up("q", "0u", "len");
    p.let_("x0", ty, element("q"));
    let before = p.expr(&k.before());
    let equal = p.expr(&k.equal());
    p.if_(format!("({before}) || (q < j && ({equal}))"));
    p.line("rank += 1u;");
    p.close();
    p.close();
    p.line(format!(
        "st1({} + (ev + rank * {}) * {size}u, x1);",
        p.word("vo"),
        p.word("vo + 1u + nk")
    ));
    p.line(format!(
        "st2({} + (ex + rank * {}) * 8u, i64(j));",
        p.word("xo"),
        p.word("xo + 1u + nk")
    ));
    p.close();
}

/// Merge arguments: `[n, len, width, keys_offset, indices_offset, merged_keys_offset,
/// merged_indices_offset]` over contiguous `[n / len, len]` tensors: runs of `width` sorted
/// elements are merged pairwise, stably, each element finding its place by a binary search in
/// the other run.
pub fn merge(p: &mut Printer, k: &SortKernel) {
    let size = k.dtype.size();
    let ty = Ty::Value(k.dtype);
    let before = k.before();
    p.function("before", &[("x0", ty), ("x1", ty)], Some(Ty::Bool), |p| {
        let value = p.expr(&before);
        p.line(format!("return {value};"));
    });
    p.let_("n", Ty::U32, p.word("0u"));
    p.let_("len", Ty::U32, p.word("1u"));
    p.let_("w", Ty::U32, p.word("2u"));
    p.let_("keys", Ty::U32, p.word("3u"));
    let keys = "keys";
    p.grid_loop("i", "n");
    p.let_("j", Ty::U32, "i % len");
    p.let_("base", Ty::U32, "i - j");
    p.let_("start", Ty::U32, "j - j % (2u * w)");
    p.let_("mid", Ty::U32, "min(start + w, len)");
    p.let_("end", Ty::U32, "min(mid + w, len)");
    p.let_("x", ty, format!("ld0({keys} + i * {size}u)"));
    p.var("dest", Ty::U32, "0u");
    let key = format!("ld0({keys} + (base + m) * {size}u)");
    // An element of the first run goes after the equal elements of the second.
    p.if_("j < mid");
    p.var("lo", Ty::U32, "mid");
    p.var("hi", Ty::U32, "end");
    p.open("while (lo < hi)");
    p.let_("m", Ty::U32, "(lo + hi) / 2u");
    p.if_(format!("before({key}, x)"));
    p.line("lo = m + 1u;");
    p.else_(None);
    p.line("hi = m;");
    p.close();
    p.close();
    p.line("dest = j + (lo - mid);");
    p.else_(None);
    p.var("lo", Ty::U32, "start");
    p.var("hi", Ty::U32, "mid");
    p.open("while (lo < hi)");
    p.let_("m", Ty::U32, "(lo + hi) / 2u");
    p.if_(format!("before(x, {key})"));
    p.line("hi = m;");
    p.else_(None);
    p.line("lo = m + 1u;");
    p.close();
    p.close();
    p.line("dest = j - mid + lo;");
    p.close();
    p.line(format!(
        "st2({} + (base + dest) * {size}u, x);",
        p.word("5u")
    ));
    p.line(format!(
        "st3({} + (base + dest) * 8u, ld1({} + i * 8u));",
        p.word("6u"),
        p.word("4u")
    ));
    p.close();
}

/// Digits per radix pass: a pass sorts by 8 bits of the key.
pub const RADIX_BITS: u32 = 8;
const DIGITS: usize = 1 << RADIX_BITS;

/// `key(x, hi)`: the u32 radix key of a value, whose unsigned order is the ascending sort's
/// (inverted for a descending one). Floats by their bits with the sign flipped (negatives
/// inverted), -0 as +0 and NaN the largest; signed integers offset by half their range.
/// int64 keys have 64 bits: `hi` picks the high word.
fn radix_key(p: &mut Printer, k: &RadixKernel) {
    let ty = Ty::Value(k.dtype);
    let dtype = k.dtype;
    let descending = k.descending;
    p.function("key", &[("x", ty), ("hi", Ty::Bool)], Some(Ty::U32), |p| {
        match dtype {
            DType::F16 | DType::BF16 | DType::F32 => {
                let f = p.d.convert("x", dtype, DType::F32);
                let bits = p.d.builtin(Builtin::FloatBits, &[&f]);
                p.let_("b", Ty::U32, bits);
                let flipped = p.select("(b & 0x80000000u) != 0u", "~b", "b | 0x80000000u");
                p.var("k", Ty::U32, flipped);
                p.if_("(b & 0x7fffffffu) == 0u");
                p.line("k = 0x80000000u;");
                p.close();
                p.if_("(b & 0x7fffffffu) > 0x7f800000u");
                p.line("k = 0xffffffffu;");
                p.close();
            }
            DType::I64 => {
                let words = p.select("hi", "u32(x >> 32u) ^ 0x80000000u", "u32(x)");
                p.let_("k", Ty::U32, words);
            }
            DType::I8 | DType::I16 | DType::I32 => {
                let bias = 1u32 << (8 * dtype.size() - 1);
                p.let_("k", Ty::U32, format!("u32(x) + {bias}u"));
            }
            DType::U8 | DType::Bool => p.let_("k", Ty::U32, "u32(x)"),
            DType::F64 => unreachable!("float64 sorts by merging"),
        }
        p.line(if descending {
            "return ~k;"
        } else {
            "return k;"
        });
    });
}

/// The words both radix passes start with: `[tiles in all, len, tile, tiles per line,
/// shift, mask, ...]` (the pass's digit is bits `[shift, shift + 8)` of the keys, of which
/// only the bits in `mask` count: those values of the dtype can differ in), then each named
/// word of `words` (`(local, word)`), read once.
fn radix_words(p: &mut Printer, k: &RadixKernel, words: &[(&str, &str)]) {
    radix_key(p, k);
    p.let_("n", Ty::U32, p.word("0u"));
    p.let_("len", Ty::U32, p.word("1u"));
    p.let_("tile", Ty::U32, p.word("2u"));
    p.let_("tiles", Ty::U32, p.word("3u"));
    p.let_("shift", Ty::U32, p.word("4u"));
    p.let_("hi", Ty::Bool, "shift >= 32u");
    p.let_("sh", Ty::U32, "shift & 31u");
    p.let_("mask", Ty::U32, p.word("5u"));
    // The bits above the digit (none for the top digit; two shifts, each below 32).
    p.let_("above", Ty::U32, "(0xffffffffu << sh) << 8u");
    for (name, word) in words {
        p.let_(name, Ty::U32, p.word(word));
    }
}

/// Opens the loop over tiles with the tile's line `line`, element range `[start, end)`, the
/// line's first element `base`, `cb`, the tile's first count (counts are
/// `[line][digit][tile]`) and, when selecting, `chosen`: the line's chosen key or prefix.
fn radix_tiles(p: &mut Printer, k: &RadixKernel, state: usize) {
    p.grid_loop("i", "n");
    p.let_("line", Ty::U32, "i / tiles");
    p.let_("part", Ty::U32, "i % tiles");
    p.let_("start", Ty::U32, "part * tile");
    p.let_("end", Ty::U32, "min(start + tile, len)");
    p.let_("base", Ty::U32, "line * len");
    p.let_("cb", Ty::U32, format!("line * {DIGITS}u * tiles + part"));
    if k.selects() {
        p.let_(
            "chosen",
            Ty::U32,
            format!("u32(ld{state}(state + line * 8u))"),
        );
    }
}

/// `g`, the pass's digit of key `kk` (see `RadixDigit`), and `counted`, whether it counts.
fn digit(p: &mut Printer, k: &RadixKernel, kk: &str) {
    p.let_("kk", Ty::U32, format!("{kk} & mask"));
    match k.digit {
        RadixDigit::Bits | RadixDigit::Narrowed => {
            p.let_("g", Ty::U32, format!("(kk >> sh) & {}u", DIGITS - 1));
        }
        RadixDigit::Partition => {
            let at_or_above = p.select("kk == chosen", "1u", "2u");
            let g = p.select("kk < chosen", "0u", &at_or_above);
            p.let_("g", Ty::U32, g);
        }
    }
    let counted = if k.digit == RadixDigit::Narrowed {
        "(kk & above) == (chosen & above)"
    } else {
        "true"
    };
    p.let_("counted", Ty::Bool, counted);
}

/// Radix count arguments: `[tiles in all, len, tile, tiles per line, shift, mask,
/// keys_offset, counts_offset, state_offset]` over contiguous `[lines, len]` keys: each
/// invocation counts the digits of one tile of a line into int32 `counts[line][digit][tile]`,
/// in place. Neither radix pass keeps a private array of its 256 digits: on lavapipe such an
/// array, indexed by a value, compiled for about 4 seconds per kernel (as memory it costs
/// nothing to build).
pub fn radix_count(p: &mut Printer, k: &RadixKernel) {
    let size = k.dtype.size();
    let (state, counts) = if k.selects() { (1, 2) } else { (1, 1) };
    radix_words(
        p,
        k,
        &[("keys", "6u"), ("counts", "7u"), ("state", "8u")][..2 + usize::from(k.selects())],
    );
    radix_tiles(p, k, state);
    let zero = format!("{}(0)", p.d.ty(Ty::I32));
    p.for_up("d", "0u", &format!("{DIGITS}u"));
    p.line(format!(
        "st{counts}(counts + (cb + d * tiles) * 4u, {zero});"
    ));
    p.close();
    p.for_up("q", "start", "end");
    digit(p, k, &format!("key(ld0(keys + (base + q) * {size}u), hi)"));
    p.if_("counted");
    p.let_("at", Ty::U32, "counts + (cb + g * tiles) * 4u");
    p.line(format!("st{counts}(at, ld{counts}(at) + 1);"));
    p.close();
    p.close();
    p.close();
}

/// Radix scatter arguments: `[tiles in all, len, tile, tiles per line, shift, mask, fresh,
/// keys_offset, indices_offset, counts_offset, scanned_offset, out_keys_offset,
/// out_indices_offset, state_offset]`: each invocation moves its tile's keys and indices, in
/// order, to their digit's next place in the line: the counts' inclusive scan along the
/// line, less the tile's own count, is where the tile's elements of that digit start. The
/// first pass (`fresh` nonzero) reads no indices: an element's index is its position. A
/// partition moves only the keys before and at the chosen one. Tensors: keys, indices,
/// counts, (state), the scan (rewritten in place as each tile's cursors), keys and indices
/// out.
pub fn radix_scatter(p: &mut Printer, k: &RadixKernel) {
    let size = k.dtype.size();
    let selects = usize::from(k.selects());
    let (state, scanned) = (3, 3 + selects);
    let (out_keys, out_indices) = (scanned + 1, scanned + 2);
    let words = [
        ("fresh", "6u"),
        ("keys", "7u"),
        ("indices", "8u"),
        ("counts", "9u"),
        ("scanned", "10u"),
        ("out_keys", "11u"),
        ("out_indices", "12u"),
        ("state", "13u"),
    ];
    radix_words(p, k, &words[..7 + selects]);
    radix_tiles(p, k, state);
    // The scan becomes the tile's cursors: where its next element of each digit goes.
    p.for_up("d", "0u", &format!("{DIGITS}u"));
    p.let_("at", Ty::U32, "(cb + d * tiles) * 4u");
    p.line(format!(
        "st{scanned}(scanned + at, ld{scanned}(scanned + at) - ld2(counts + at));"
    ));
    p.close();
    p.for_up("q", "start", "end");
    p.let_(
        "x",
        Ty::Value(k.dtype),
        format!("ld0(keys + (base + q) * {size}u)"),
    );
    digit(p, k, "key(x, hi)");
    p.let_("cursor", Ty::U32, "scanned + (cb + g * tiles) * 4u");
    p.let_("dest", Ty::U32, format!("base + u32(ld{scanned}(cursor))"));
    p.line(format!("st{scanned}(cursor, ld{scanned}(cursor) + 1);"));
    if k.digit == RadixDigit::Partition {
        // Only the keys before the chosen one and equal to it are ever read.
        p.if_("g < 2u");
    }
    p.line(format!("st{out_keys}(out_keys + dest * {size}u, x);"));
    p.var("index", Ty::I64, "i64(q)");
    p.if_("fresh == 0u");
    p.line("index = ld1(indices + (base + q) * 8u);");
    p.close();
    p.line(format!("st{out_indices}(out_indices + dest * 8u, index);"));
    if k.digit == RadixDigit::Partition {
        p.close();
    }
    p.close();
    p.close();
}

/// Radix pick arguments: `[lines, shift, sums_offset, state_offset]`: per line, with state
/// `(chosen, rank)` (the key bits chosen so far, and the rank, from 1, the wanted key has
/// among the keys that have them), the digit at `shift` whose bucket holds that rank, by
/// the line's digit counts `sums[line][digit]`; the digit joins `chosen` and the rank
/// becomes the rank within its bucket.
pub fn radix_pick(p: &mut Printer) {
    p.let_("n", Ty::U32, p.word("0u"));
    p.let_("shift", Ty::U32, p.word("1u"));
    p.let_("sums", Ty::U32, p.word("2u"));
    p.let_("state", Ty::U32, p.word("3u"));
    p.grid_loop("i", "n");
    p.let_("rank", Ty::U32, "u32(ld1(state + i * 8u + 4u))");
    p.var("before", Ty::U32, "0u");
    p.var("chosen", Ty::U32, format!("{}u", DIGITS - 1));
    p.for_up("d", "0u", &format!("{DIGITS}u"));
    p.let_(
        "c",
        Ty::U32,
        format!("u32(ld0(sums + (i * {DIGITS}u + d) * 4u))"),
    );
    p.if_("before + c >= rank");
    p.line("chosen = d;");
    p.line("break;");
    p.close();
    p.line("before += c;");
    p.close();
    let i32 = p.d.ty(Ty::I32);
    p.line(format!(
        "st1(state + i * 8u, {i32}(u32(ld1(state + i * 8u)) | (chosen << shift)));"
    ));
    p.line(format!("st1(state + i * 8u + 4u, {i32}(rank - before));"));
    p.close();
}
