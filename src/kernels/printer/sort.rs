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

/// Digits per radix pass: a pass sorts by 8 bits of the key (a launch word; selections and
/// `radix_pick` always take 8).
pub const RADIX_BITS: u32 = 8;
/// The most key bits one radix pass sorts by: a wider digit costs each tile a loop over its
/// digits in both launches (1,024 digits over a tile's 2,048 keys), less than a second pass.
pub const ONE_PASS_BITS: u32 = 10;
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
            DType::F16 | DType::BF16 | DType::F32 | crate::float8_dtypes!() => {
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
            DType::U64 => {
                let words = p.select("hi", "u32(x >> 32u)", "u32(x)");
                p.let_("k", Ty::U32, words);
            }
            DType::I8 | DType::I16 | DType::I32 => {
                let bias = 1u32 << (8 * dtype.size() - 1);
                p.let_("k", Ty::U32, format!("u32(x) + {bias}u"));
            }
            DType::U8 | DType::U16 | DType::U32 | DType::Bool => p.let_("k", Ty::U32, "u32(x)"),
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
/// shift, mask, digit_bits, ...]` (the pass's digit is bits `[shift, shift + digit_bits)` of
/// the keys, of which only the bits in `mask` count: those values of the dtype can differ
/// in), then each named word of `words` (`(local, word)`), read once.
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
    p.let_("digit_bits", Ty::U32, p.word("6u"));
    p.let_("digits", Ty::U32, "1u << digit_bits");
    // The bits above the digit (none for the top digit; two shifts, each below 32).
    p.let_("above", Ty::U32, "(0xffffffffu << sh) << digit_bits");
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
    p.let_("cb", Ty::U32, "line * digits * tiles + part");
    if k.selects() {
        p.let_(
            "chosen",
            Ty::U32,
            format!("u32(ld{state}(state + line * 8u))"),
        );
    }
}

/// One key as a pass reads it: a value of the keys' dtype, or, for `RadixDigit::Target`, the
/// index's low and high 32-bit words.
enum Key {
    Value(String),
    Words(String, String),
}

/// Prints the loads of the keys at `q` (`four` of them from a 16-byte aligned place, else
/// one) and returns them.
fn load_keys(p: &mut Printer, k: &RadixKernel, four: bool) -> Vec<Key> {
    let size = k.dtype.size();
    if !four {
        let x = format!("ld0(keys + (base + q) * {size}u)");
        p.let_("x", Ty::Value(k.dtype), x);
        if !k.targets() {
            return vec![Key::Value("x".into())];
        }
        let high = if k.dtype == DType::I64 {
            "x >> 32u"
        } else {
            "x >> 31u"
        };
        return vec![Key::Words("u32(x)".into(), format!("u32({high})"))];
    }
    // An int64 index is two words of a load; an int32 one is the low word and its sign.
    let loads = if k.dtype == DType::I64 { 2 } else { 1 };
    let loaded = if k.targets() { DType::I32 } else { k.dtype };
    for l in 0..loads {
        let at = format!("keys + (base + q + {}u) * {size}u", 2 * l);
        let v = p.d.load4(0, loaded, &at);
        let line = p.d.let_inferred(&format!("four{l}"), &v);
        p.line(line);
    }
    (0..4)
        .map(|c| {
            if !k.targets() {
                return Key::Value(p.d.component("four0", c));
            }
            if k.dtype == DType::I64 {
                let words = format!("four{}", c / 2);
                let lo = p.d.component(&words, 2 * (c % 2));
                let hi = p.d.component(&words, 2 * (c % 2) + 1);
                Key::Words(format!("u32({lo})"), format!("u32({hi})"))
            } else {
                let x = p.d.component("four0", c);
                Key::Words(format!("u32({x})"), format!("u32({x} >> 31u)"))
            }
        })
        .collect()
}

/// `g`, the pass's digit of `key` (see `RadixDigit`), and `counted`, whether it counts; for
/// targets, `inside`, whether the index is in range.
fn digit(p: &mut Printer, k: &RadixKernel, key: &Key) {
    match (k.digit, key) {
        (RadixDigit::Target { wrap }, Key::Words(lo, hi)) => {
            super::index::index_in_range(p, lo, hi, "bound", wrap);
            p.let_("g", Ty::U32, p.select("inside", "w", "digits - 1u"));
        }
        (_, Key::Value(x)) => {
            p.let_("kk", Ty::U32, format!("key({x}, hi) & mask"));
            match k.digit {
                RadixDigit::Bits | RadixDigit::Narrowed => {
                    p.let_("g", Ty::U32, "(kk >> sh) & (digits - 1u)");
                }
                RadixDigit::Partition => {
                    let at_or_above = p.select("kk == chosen", "1u", "2u");
                    let g = p.select("kk < chosen", "0u", &at_or_above);
                    p.let_("g", Ty::U32, g);
                }
                RadixDigit::Target { .. } => unreachable!("targets are read as words"),
            }
        }
        (_, Key::Words(..)) => unreachable!("only targets are read as words"),
    }
    let counted = if k.digit == RadixDigit::Narrowed {
        "(kk & above) == (chosen & above)"
    } else {
        "true"
    };
    p.let_("counted", Ty::Bool, counted);
}

/// Prints the walk over a tile's keys `[start, end)`: four at a time (`body` gets four keys,
/// each in its own scope) while `aligned` holds (where the keys are read four at a time),
/// then one at a time.
fn walk_keys(
    p: &mut Printer,
    k: &RadixKernel,
    aligned: &str,
    body: &mut dyn FnMut(&mut Printer, &[Key], bool),
) {
    p.var("q", Ty::U32, "start");
    if k.vector() {
        // A load is a loop over the lanes on the software device: four keys a load.
        p.if_(aligned);
        p.open("while (q + 4u <= end)");
        let keys = load_keys(p, k, true);
        body(p, &keys, true);
        p.line("q += 4u;");
        p.close();
        p.close();
    }
    p.open("while (q < end)");
    let keys = load_keys(p, k, false);
    body(p, &keys, false);
    p.line("q += 1u;");
    p.close();
}

/// Whether the tile's first element of the tensor at byte offset `at` (elements of `size`
/// bytes) is 16-byte aligned.
fn aligned(at: &str, size: usize) -> String {
    format!("((({at}) + (base + start) * {size}u) & 15u) == 0u")
}

/// Radix count arguments: `[tiles in all, len, tile, tiles per line, shift, mask, digit_bits,
/// keys_offset, counts_offset, state_offset]` over contiguous `[lines, len]` keys (for
/// targets: `[..., keys_offset, counts_offset, fault_offset, bound, fault_tag]`): each
/// invocation counts the digits of one tile of a line into int32 `counts[line][digit][tile]`,
/// in place. Neither radix pass keeps a private array of its 256 digits: on lavapipe such an
/// array, indexed by a value, compiled for about 4 seconds per kernel (as memory it costs
/// nothing to build). On a CPU they keep them in group memory instead, each invocation its
/// own words (index_add of 1M values into 1k: 7.5 -> 6.5 ms for both passes).
pub fn radix_count(p: &mut Printer, k: &RadixKernel) {
    let (state, counts) = if k.selects() { (1, 2) } else { (1, 1) };
    let fault = counts + 1;
    let words: &[(&str, &str)] = if k.targets() {
        &[("keys", "7u"), ("counts", "8u"), ("bound", "10u")]
    } else if k.selects() {
        &[("keys", "7u"), ("counts", "8u"), ("state", "9u")]
    } else {
        &[("keys", "7u"), ("counts", "8u")]
    };
    radix_words(p, k, words);
    if k.targets() {
        // The fault word's offset is word `fw`, the launch's tag two words on.
        p.let_("fw", Ty::U32, "9u");
    }
    // On a CPU each invocation counts in its own 16-bit halves of group memory (a tile has
    // at most 8,192 keys), which the software device reads and writes without the bounds
    // checks and descriptor loads of a buffer, and then writes its counts out.
    let cpu = p.d.blocked_grid();
    if cpu {
        p.shared("hist", Ty::U32, (1 << ONE_PASS_BITS) / 2 * p.group);
    }
    radix_tiles(p, k, state);
    let zero = format!("{}(0)", p.d.ty(Ty::I32));
    if cpu {
        p.for_up("d", "0u", "(digits + 1u) / 2u");
        p.line(format!("hist[d * {}u + t] = 0u;", p.group));
    } else {
        p.for_up("d", "0u", "digits");
        p.line(format!(
            "st{counts}(counts + (cb + d * tiles) * 4u, {zero});"
        ));
    }
    p.close();
    walk_keys(p, k, &aligned("keys", k.dtype.size()), &mut |p, keys, _| {
        for key in keys {
            p.open("");
            digit(p, k, key);
            if k.targets() {
                p.if_("!inside");
                super::index::report_fault(p, fault, "fw + 2u");
                p.close();
            }
            p.if_("counted");
            if cpu {
                p.let_("w", Ty::U32, format!("(g >> 1u) * {}u + t", p.group));
                p.line("hist[w] = hist[w] + (1u << ((g & 1u) * 16u));");
            } else {
                p.let_("at", Ty::U32, "counts + (cb + g * tiles) * 4u");
                p.line(format!("st{counts}(at, ld{counts}(at) + 1);"));
            }
            p.close();
            p.close();
        }
    });
    if cpu {
        p.for_up("d", "0u", "digits");
        let half = format!(
            "(hist[(d >> 1u) * {}u + t] >> ((d & 1u) * 16u)) & 0xffffu",
            p.group
        );
        let int = p.d.ty(Ty::I32);
        p.line(format!(
            "st{counts}(counts + (cb + d * tiles) * 4u, {int}({half}));"
        ));
        p.close();
    }
    p.close();
}

/// Radix scatter arguments: `[tiles in all, len, tile, tiles per line, shift, mask,
/// digit_bits, fresh, keys_offset, indices_offset, counts_offset, scanned_offset,
/// out_keys_offset, out_indices_offset, state_offset]` (for targets, `bound` in place of
/// `state_offset`): each invocation moves its tile's keys and indices, in
/// order, to their digit's next place in the line: the counts' inclusive scan along the
/// line, less the tile's own count, is where the tile's elements of that digit start. The
/// first pass (`fresh` nonzero) reads no indices: an element's index is its position. A
/// partition moves only the keys before and at the chosen one. Tensors: keys, indices,
/// counts, (state), the scan (rewritten in place as each tile's cursors, which a CPU keeps in
/// group memory), keys and indices out.
pub fn radix_scatter(p: &mut Printer, k: &RadixKernel) {
    let size = k.dtype.size();
    let selects = usize::from(k.selects());
    let (state, scanned) = (3, 3 + selects);
    let (out_keys, out_indices) = (scanned + 1, scanned + 2);
    let mut words = vec![
        ("fresh", "7u"),
        ("keys", "8u"),
        ("indices", "9u"),
        ("counts", "10u"),
        ("scanned", "11u"),
        ("out_keys", "12u"),
        ("out_indices", "13u"),
    ];
    if k.selects() {
        words.push(("state", "14u"));
    }
    if k.targets() {
        words.push(("bound", "14u"));
    }
    radix_words(p, k, &words);
    // On a CPU each invocation keeps its cursors in its own words of group memory (see
    // `radix_count`).
    let cpu = p.d.blocked_grid();
    let lanes = p.group;
    if cpu {
        p.shared("cursors", Ty::U32, (1 << ONE_PASS_BITS) * lanes);
    }
    radix_tiles(p, k, state);
    // The scan becomes the tile's cursors: where its next element of each digit goes.
    p.for_up("d", "0u", "digits");
    p.let_("at", Ty::U32, "(cb + d * tiles) * 4u");
    let start = format!("ld{scanned}(scanned + at) - ld2(counts + at)");
    if cpu {
        let unsigned = p.d.ty(Ty::U32);
        p.line(format!("cursors[d * {lanes}u + t] = {unsigned}({start});"));
    } else {
        p.line(format!("st{scanned}(scanned + at, {start});"));
    }
    p.close();
    // Moves `key` and what moves with it, `index`, to its digit's next place.
    let move_one = |p: &mut Printer, key: &Key, index: &str| {
        p.open("");
        digit(p, k, key);
        if cpu {
            p.let_("cursor", Ty::U32, format!("g * {lanes}u + t"));
            p.let_("place", Ty::U32, "cursors[cursor]");
            p.let_("dest", Ty::U32, "base + place");
            p.line("cursors[cursor] = place + 1u;");
        } else {
            p.let_("cursor", Ty::U32, "scanned + (cb + g * tiles) * 4u");
            p.let_("place", Ty::I32, format!("ld{scanned}(cursor)"));
            p.let_("dest", Ty::U32, "base + u32(place)");
            p.line(format!("st{scanned}(cursor, place + 1);"));
        }
        if k.digit == RadixDigit::Partition {
            // Only the keys before the chosen one and equal to it are ever read.
            p.if_("g < 2u");
        }
        if k.keep_keys {
            let Key::Value(x) = key else {
                unreachable!("targets are not kept")
            };
            p.line(format!("st{out_keys}(out_keys + dest * {size}u, {x});"));
        }
        p.line(format!(
            "st{out_indices}(out_indices + dest * {}u, {index});",
            k.positions.size()
        ));
        if k.digit == RadixDigit::Partition {
            p.close();
        }
        p.close();
    };
    let positions = Ty::Value(k.positions);
    let position_ty = p.d.ty(positions);
    let position = |q: &str| format!("{position_ty}({q})");
    let stored = |q: &str| format!("ld1(indices + ({q}) * {}u)", k.positions.size());
    // Four keys (and four 4-byte indices) a load from aligned starts.
    let wide_indices = k.positions.size() == 4;
    let indices_aligned = if wide_indices {
        format!("(fresh != 0u || {})", aligned("indices", 4))
    } else {
        "true".into()
    };
    let keys_aligned = format!("{} && {indices_aligned}", aligned("keys", size));
    walk_keys(p, k, &keys_aligned, &mut |p, keys, four| {
        if !four {
            p.var("index", positions, position("q"));
            p.if_("fresh == 0u");
            p.line(format!("index = {};", stored("base + q")));
            p.close();
            move_one(p, &keys[0], "index");
            return;
        }
        for fresh in [true, false] {
            if fresh {
                p.if_("fresh != 0u");
            } else {
                p.else_(None);
            }
            if !fresh && wide_indices {
                let indices = p.d.load4(1, k.positions, "indices + (base + q) * 4u");
                let line = p.d.let_inferred("four_indices", &indices);
                p.line(line);
            }
            for (c, key) in keys.iter().enumerate() {
                let index = match (fresh, wide_indices) {
                    (true, _) => position(&format!("q + {c}u")),
                    (false, true) => p.d.component("four_indices", c),
                    (false, false) => stored(&format!("base + q + {c}u")),
                };
                move_one(p, key, &index);
            }
        }
        p.close();
    });
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

/// Top-k round arguments: `[tiles in all, len, step, tiles per line, k, fresh, last,
/// input_len, input_offset, keys_offset, indices_offset, kept_keys_offset,
/// kept_indices_offset, values_offset, top_indices_offset, bounded]` over contiguous
/// `[lines, len]` candidates. Tile `p` of a line is its elements `p, p + step, ...` (`step`
/// is the tiles per line, or a multiple of it to sample the line), so that neighbouring
/// invocations read neighbouring elements. Each invocation keeps, in `kept[i * k .. i * k +
/// k]`, the `k` best of its tile (smallest radix key, then smallest index: a stable sort's
/// first `k`), as a heap whose root is the worst kept one (in memory: a private array
/// indexed by a value builds slowly on lavapipe), then sorts them best first; places a
/// short tile leaves get the worst key and index. The first round (`fresh` nonzero) reads
/// the input's values (lines `input_len` long) and takes positions as indices, and, when
/// `bounded`, only those not worse than the line's bound: the key at `keys[line * k + k -
/// 1]` (the last kept key of a round over other elements of the line, so at least `k`
/// elements are as good). The last round (one tile per line) also writes each kept
/// candidate's value and index. Loop steps per invocation: at most `(len / step + 2k) *
/// (log2(k) + 2)`, which the launch bounds.
pub fn top_tiles(p: &mut Printer, k: &SortKernel) {
    let size = k.dtype.size();
    radix_key(
        p,
        &RadixKernel {
            dtype: k.dtype,
            descending: k.descending,
            digit: RadixDigit::Bits,
            positions: DType::I64,
            keep_keys: true,
        },
    );
    let i32 = p.d.ty(Ty::I32);
    // `worse(a, b)`: kept candidate `a` (key, index) sorts after `b`.
    p.function(
        "worse",
        &[
            ("ak", Ty::U32),
            ("ai", Ty::U32),
            ("bk", Ty::U32),
            ("bi", Ty::U32),
        ],
        Some(Ty::Bool),
        |p| p.line("return ak > bk || (ak == bk && ai > bi);"),
    );
    p.let_("n", Ty::U32, p.word("0u"));
    p.let_("len", Ty::U32, p.word("1u"));
    p.let_("step", Ty::U32, p.word("2u"));
    p.let_("tiles", Ty::U32, p.word("3u"));
    p.let_("k", Ty::U32, p.word("4u"));
    p.let_("fresh", Ty::Bool, format!("{} != 0u", p.word("5u")));
    p.let_("last", Ty::Bool, format!("{} != 0u", p.word("6u")));
    p.let_("input_len", Ty::U32, p.word("7u"));
    let names = [
        "input",
        "keys",
        "indices",
        "kept_keys",
        "kept_indices",
        "values",
        "top",
    ];
    for (t, name) in names.iter().enumerate() {
        p.let_(name, Ty::U32, p.word(format!("{}u", 8 + t)));
    }
    p.let_("bounded", Ty::Bool, format!("{} != 0u", p.word("15u")));
    p.grid_loop("i", "n");
    p.let_("line", Ty::U32, "i / tiles");
    p.var("bound", Ty::U32, "0xffffffffu");
    p.if_("fresh && bounded");
    p.line("bound = u32(ld1(keys + (line * k + k - 1u) * 4u));");
    p.close();
    // Kept candidate `j`'s key and index, and storing one.
    p.let_("kept", Ty::U32, "i * k");
    let key_at = |j: &str| format!("u32(ld3(kept_keys + (kept + {j}) * 4u))");
    let index_at = |j: &str| format!("u32(ld4(kept_indices + (kept + {j}) * 4u))");
    let put = |p: &mut Printer, j: &str, key: &str, index: &str| {
        p.line(format!("st3(kept_keys + (kept + {j}) * 4u, {i32}({key}));"));
        p.line(format!(
            "st4(kept_indices + (kept + {j}) * 4u, {i32}({index}));"
        ));
    };
    // Moves candidate (kk, ki) down from place `j` of a heap of `size` places until no
    // child is worse: each worse child moves up.
    let sift_down = |p: &mut Printer, size: &str| {
        p.open("while (true)");
        p.var("c", Ty::U32, "2u * j + 1u");
        p.if_(format!("c >= {size}"));
        p.line("break;");
        p.close();
        p.if_(format!(
            "c + 1u < {size} && worse({}, {}, {}, {})",
            key_at("c + 1u"),
            index_at("c + 1u"),
            key_at("c"),
            index_at("c")
        ));
        p.line("c += 1u;");
        p.close();
        p.let_("ck", Ty::U32, key_at("c"));
        p.let_("ci", Ty::U32, index_at("c"));
        p.if_("!worse(ck, ci, kk, ki)");
        p.line("break;");
        p.close();
        put(p, "j", "ck", "ci");
        p.line("j = c;");
        p.close();
        put(p, "j", "kk", "ki");
    };
    p.var("filled", Ty::U32, "0u");
    // The root's key and index, kept at hand for the test most candidates fail.
    p.var("root_key", Ty::U32, "0u");
    p.var("root_index", Ty::U32, "0u");
    p.for_("q", "i % tiles", "q < len", "q += step");
    p.var("kk", Ty::U32, "0u");
    p.var("ki", Ty::U32, "q");
    p.if_("fresh");
    p.line(format!(
        "kk = key(ld0(input + (line * input_len + q) * {size}u), false);"
    ));
    p.if_("kk > bound");
    p.line("continue;");
    p.close();
    p.else_(None);
    p.line("kk = u32(ld1(keys + (line * len + q) * 4u));");
    p.line("ki = u32(ld2(indices + (line * len + q) * 4u));");
    p.close();
    p.if_("filled < k");
    // Joins the heap at its end and moves up past better parents.
    p.var("j", Ty::U32, "filled");
    p.line("filled += 1u;");
    p.open("while (j > 0u)");
    p.let_("up", Ty::U32, "(j - 1u) / 2u");
    p.let_("uk", Ty::U32, key_at("up"));
    p.let_("ui", Ty::U32, index_at("up"));
    p.if_("!worse(kk, ki, uk, ui)");
    p.line("break;");
    p.close();
    put(p, "j", "uk", "ui");
    p.line("j = up;");
    p.close();
    put(p, "j", "kk", "ki");
    // A full heap takes only candidates better than its root, which it drops.
    p.line(format!("root_key = {};", key_at("0u")));
    p.line(format!("root_index = {};", index_at("0u")));
    p.else_(Some("worse(root_key, root_index, kk, ki)"));
    p.var("j", Ty::U32, "0u");
    sift_down(p, "k");
    p.line(format!("root_key = {};", key_at("0u")));
    p.line(format!("root_index = {};", index_at("0u")));
    p.close();
    p.close();
    // Heap sort: the root (the worst left) goes last, the rest sift down again.
    p.var("m", Ty::U32, "filled");
    p.open("while (m > 1u)");
    p.line("m -= 1u;");
    p.let_("rk", Ty::U32, key_at("0u"));
    p.let_("ri", Ty::U32, index_at("0u"));
    p.let_("kk", Ty::U32, key_at("m"));
    p.let_("ki", Ty::U32, index_at("m"));
    put(p, "m", "rk", "ri");
    p.var("j", Ty::U32, "0u");
    sift_down(p, "m");
    p.close();
    p.for_up("j", "filled", "k");
    put(p, "j", "0xffffffffu", "0xffffffffu");
    p.close();
    p.if_("last");
    p.for_up("j", "0u", "k");
    p.let_("at", Ty::U32, index_at("j"));
    p.line(format!(
        "st5(values + (kept + j) * {size}u, ld0(input + (line * input_len + at) * {size}u));"
    ));
    p.line("st6(top + (kept + j) * 8u, i64(at));");
    p.close();
    p.close();
    p.close();
}
