//! Index skeletons: gather/scatter through index tensors, and the deterministic accumulating
//! scatter.

use super::{Printer, Ty};
use crate::dtype::DType;
use crate::kernels::pattern::{AccumulateKernel, AccumulateKeysKernel, IndexKernel, Runs};

/// Index arguments: the map layout for `src`, the index tensors and `dst` over the iteration
/// shape (`[n, nd, size[nd], (offset, stride[nd]) per tensor]`), then the fault word's
/// offset and `(bound, stride)` per index tensor: the indexed dimension's size and its stride
/// in the indexed tensor (`src` for a gather, `dst` for a scatter), then the launch's fault
/// tag. An index outside its bound touches nothing and reports the fault.
pub fn index(p: &mut Printer, k: &IndexKernel) {
    let indices = k.indices.len();
    let fault = 2 + indices;
    let mut dtypes = vec![k.dtype];
    dtypes.extend(&k.indices);
    dtypes.push(k.dtype);
    p.let_("n", Ty::U32, p.word("0u"));
    p.let_("nd", Ty::U32, p.word("1u"));
    p.let_("fw", Ty::U32, format!("2u + nd + {fault}u * (1u + nd)"));
    // In blocks on a CPU where rows are moved whole, in order on both sides (on the
    // software device, index_select of 1,024 rows of 4,096 float32 by fours: 18 ms strided,
    // 5.4 ms so; of 4,095, one by one: 36 -> 25 ms).
    let dst = 1 + indices;
    let blocked = if k.vector() {
        "true".to_string()
    } else {
        format!("nd == 1u || (sb0 == 1u && sb{dst} == 1u)")
    };
    p.strided_loop_blocked_if(&dtypes, "n", "1u", "2u + nd", &blocked);
    p.var("jump", Ty::U32, "0u");
    p.var("ok", Ty::Bool, "true");
    for j in 0..indices {
        p.open("");
        p.let_("v", Ty::I64, format!("i64(ld{t}(a{t}))", t = 1 + j));
        let bound = format!("i64({})", p.word(format!("fw + {}u", 1 + 2 * j)));
        wrapped(p, k.wrap, &bound);
        p.if_(out_of_bounds(p));
        p.line("ok = false;");
        p.else_(None);
        p.line(format!(
            "jump += u32(w) * {};",
            p.word(format!("fw + {}u", 2 + 2 * j))
        ));
        p.close();
        p.close();
    }
    p.if_("!ok");
    report_fault(p, fault, &format!("fw + {}u", 1 + 2 * indices));
    p.line("continue;");
    p.close();
    let size = k.dtype.size();
    let (from, to) = if k.scatter {
        ("a0".to_string(), format!("a{dst} + jump * {size}u"))
    } else {
        (format!("a0 + jump * {size}u"), format!("a{dst}"))
    };
    if k.vector() {
        for four in 0..k.fours {
            let at = |base: &str| match four {
                0 => base.to_string(),
                _ => format!("{base} + {}u", 4 * four as usize * size),
            };
            let line = p.d.move4(k.dtype, (0, &at(&from)), (dst, &at(&to)));
            p.line(line);
        }
    } else {
        p.line(format!("st{dst}({to}, ld0({from}));"));
    }
    p.close();
}

/// Stores the launch's tag (word `tag_word`) in the fault word (tensor `fault`, at the offset
/// word `fw`) unless an earlier launch stored its own.
pub(super) fn report_fault(p: &mut Printer, fault: usize, tag_word: &str) {
    let zero = p.d.constant(DType::I32, 0.0);
    p.if_(format!("ld{fault}({}) == {zero}", p.word("fw")));
    let tag = p.d.scalar(DType::I32, tag_word);
    p.line(format!("st{fault}({}, {tag});", p.word("fw")));
    p.close();
}

/// `let bound` (the int64 `bound`) and `let w`: the index `v` wrapped when negative indices
/// count from the end.
fn wrapped(p: &mut Printer, from_end: bool, bound: &str) {
    p.let_("bound", Ty::I64, bound);
    let zero = p.d.int64(0);
    let w = if from_end {
        p.select(&format!("v < {zero}"), "v + bound", "v")
    } else {
        "v".to_string()
    };
    p.let_("w", Ty::I64, w);
}

fn out_of_bounds(p: &Printer) -> String {
    format!("w < {} || w >= bound", p.d.int64(0))
}

/// Accumulate-keys arguments: the map layout over the sorted space (`[n, nd, size[nd],
/// (offset, stride[nd])` for each index tensor, the keys and the key base`]`), then the fault
/// word's offset, `(bound, key_stride)` per index tensor and the launch's fault tag. The key base is no tensor: its
/// strides are the keyed output dimensions' flat strides, so its element offset is the part
/// of the key the value's own coordinates give; each index adds its wrapped value times its
/// target dimension's flat stride.
pub fn accumulate_keys(p: &mut Printer, k: &AccumulateKeysKernel) {
    let indices = k.indices.len();
    let (keys, fault, base) = (indices, indices + 1, indices + 1);
    let mut dtypes = k.indices.clone();
    dtypes.extend([k.key, DType::U8]);
    p.let_("n", Ty::U32, p.word("0u"));
    p.let_("nd", Ty::U32, p.word("1u"));
    p.let_(
        "fw",
        Ty::U32,
        format!("2u + nd + {}u * (1u + nd)", dtypes.len()),
    );
    // Each index's bound and key stride, read once (a word read in the loop is a load per
    // element), and the key in its own dtype: int32 keys need no 64-bit product.
    let key_ty = Ty::Value(k.key);
    let key_name = p.d.ty(key_ty);
    for j in 0..indices {
        let bound = p.word(format!("fw + {}u", 1 + 2 * j));
        p.let_(&format!("bound{j}"), Ty::I64, format!("i64({bound})"));
        let stride = p.word(format!("fw + {}u", 2 + 2 * j));
        p.let_(&format!("step{j}"), key_ty, format!("{key_name}({stride})"));
    }
    if k.vector() {
        vector_keys(p, k, fault);
        p.else_(None);
    }
    p.strided_loop(&dtypes, "n", "1u", "2u + nd");
    p.var("key", key_ty, format!("{key_name}(e{base})"));
    p.var("ok", Ty::Bool, "true");
    for j in 0..indices {
        p.open("");
        p.let_("v", Ty::I64, format!("i64(ld{j}(a{j}))"));
        wrapped(p, k.wrap, &format!("bound{j}"));
        p.if_(out_of_bounds(p));
        report_fault(p, fault, &format!("fw + {}u", 1 + 2 * indices));
        p.line("ok = false;");
        p.else_(None);
        p.line(format!("key += {key_name}(w) * step{j};"));
        p.close();
        p.close();
    }
    // An int32 key's mark is an int32 literal, not an int64 one.
    let last = match k.key {
        DType::I32 => largest(k.key).to_string(),
        _ => p.d.int64(largest(k.key)),
    };
    let key = p.select("ok", "key", &last);
    p.line(format!("st{keys}(a{keys}, {key});"));
    p.close();
    if k.vector() {
        p.close();
    }
}

/// The keys of one dense index vector with dense int32 keys, 16-byte aligned: four a work
/// item, from whole 16-byte loads (on the software device each load is a loop over the
/// lanes). Opens the branch taken in that case, which the caller closes after the general
/// loop in its `else`. The bounds check is on the index's 32-bit words: an index in range
/// has a zero high word, or all ones when negative indices wrap.
fn vector_keys(p: &mut Printer, k: &AccumulateKeysKernel, fault: usize) {
    let wide = k.indices[0] == DType::I64;
    let word =
        |p: &Printer, t: usize, at: usize| p.word(format!("2u + nd + {t}u * (1u + nd) + {at}u"));
    p.let_("index_at", Ty::U32, word(p, 0, 0));
    p.let_("keys_at", Ty::U32, word(p, 1, 0));
    p.let_("key_step", Ty::U32, word(p, 2, 1));
    let dense = format!(
        "nd == 1u && {} == 1u && {} == 1u && (index_at & 15u) == 0u && (keys_at & 15u) == 0u",
        word(p, 0, 1),
        word(p, 1, 1)
    );
    p.let_("bound_u", Ty::U32, "u32(bound0)");
    let int = p.d.ty(Ty::I32);
    p.if_(dense);
    p.grid_loop("q", "(n + 3u) / 4u");
    p.let_("first", Ty::U32, "q * 4u");
    for j in 0..4 {
        p.var(&format!("key{j}"), Ty::I32, "0");
    }
    p.if_("first + 4u <= n");
    let size = k.indices[0].size();
    let loads = if wide { 2 } else { 1 };
    for half in 0..loads {
        let at = format!("index_at + (first + {}u) * {size}u", 2 * half);
        let v = p.d.load4(0, DType::I32, &at);
        let line = p.d.let_inferred(&format!("words{half}"), &v);
        p.line(line);
    }
    for j in 0..4 {
        p.open("");
        let (lo, hi) = if wide {
            let words = format!("words{}", j / 2);
            let lo = p.d.component(&words, 2 * (j % 2));
            let hi = p.d.component(&words, 2 * (j % 2) + 1);
            (format!("u32({lo})"), format!("u32({hi})"))
        } else {
            let v = p.d.component("words0", j);
            (format!("u32({v})"), format!("u32({v} >> 31u)"))
        };
        index_in_range(p, &lo, &hi, "bound_u", k.wrap);
        p.if_("inside");
        p.line(format!(
            "key{j} = {int}(w) * step0 + {int}((first + {j}u) * key_step);"
        ));
        p.else_(None);
        report_fault(p, fault, &format!("fw + {}u", 1 + 2 * k.indices.len()));
        p.line(format!("key{j} = {};", largest(k.key)));
        p.close();
        p.close();
    }
    let keys = ["key0", "key1", "key2", "key3"].map(String::from);
    let store = p.d.store4(1, DType::I32, "keys_at + first * 4u", &keys);
    p.line(store);
    p.else_(None);
    // The last, partial, four.
    p.for_up("e", "first", "n");
    p.let_("v", Ty::I64, format!("i64(ld0(index_at + e * {size}u))"));
    wrapped(p, k.wrap, "bound0");
    p.var("key", Ty::I32, largest(k.key).to_string());
    p.if_(out_of_bounds(p));
    report_fault(p, fault, &format!("fw + {}u", 1 + 2 * k.indices.len()));
    p.else_(None);
    p.line(format!("key = {int}(w) * step0 + {int}(e * key_step);"));
    p.close();
    p.line("st1(keys_at + e * 4u, key);");
    p.close();
    p.close();
    p.close();
}

/// `let inside`, whether the index whose 32-bit words are `lo` and `hi` lies in `[0, bound)`
/// (or, with `wrap`, `[-bound, bound)`), and `let w`, its target: an index in range has a
/// zero high word, or all ones when it counts from the end, and then `lo + bound` modulo
/// 2^32 is `lo - 2^32 + bound`. No 64-bit arithmetic.
pub(super) fn index_in_range(p: &mut Printer, lo: &str, hi: &str, bound: &str, wrap: bool) {
    p.let_("lo", Ty::U32, lo);
    p.let_("hi", Ty::U32, hi);
    let negative = if wrap {
        format!("(hi == 0xffffffffu && {bound} != 0u && lo >= 0u - {bound})")
    } else {
        "false".into()
    };
    p.let_(
        "inside",
        Ty::Bool,
        format!("(hi == 0u && lo < {bound}) || {negative}"),
    );
    p.let_(
        "w",
        Ty::U32,
        p.select("hi == 0u", "lo", &format!("lo + {bound}")),
    );
}

/// The largest value of an accumulating scatter's key dtype (int32 or int64): the key of
/// positions whose index is out of range.
fn largest(key: DType) -> i64 {
    if key == DType::I32 {
        i64::from(i32::MAX)
    } else {
        i64::MAX
    }
}

/// Run-start arguments: `[n_sorted, bound, keys_offset, starts_offset, by_key]`: each key in
/// `[0, bound)` gets in `starts` (int32) the first position of the ascending sorted keys (of
/// dtype `key`) that holds it. With `by_key` zero, each sorted position that starts a run
/// writes itself to its key's entry (the entries of absent keys keep what they held,
/// `n_sorted`); else each key finds its first position by binary search (`n_sorted` where
/// none holds it), far fewer items where the keys are far fewer than the positions.
pub fn run_starts(p: &mut Printer, key: DType) {
    let size = key.size();
    let sorted = |p: &mut Printer, at: &str| p.d.convert(&format!("ld0({at})"), key, DType::I64);
    p.let_("n", Ty::U32, p.word("0u"));
    p.let_("bound", Ty::U32, p.word("1u"));
    p.let_("keys", Ty::U32, p.word("2u"));
    p.let_("starts", Ty::U32, p.word("3u"));
    let int = p.d.ty(Ty::I32);
    p.if_(format!("{} != 0u", p.word("4u")));
    p.grid_loop("k", "bound");
    p.let_("key", Ty::I64, "i64(k)");
    p.var("lo", Ty::U32, "0u");
    p.var("hi", Ty::U32, "n");
    p.open("while (lo < hi)");
    p.let_("mid", Ty::U32, "lo + (hi - lo) / 2u");
    let below = sorted(p, &format!("keys + mid * {size}u"));
    p.if_(format!("{below} < key"));
    p.line("lo = mid + 1u;");
    p.else_(None);
    p.line("hi = mid;");
    p.close();
    p.close();
    p.var("start", Ty::U32, "n");
    p.if_("lo < n");
    let found = sorted(p, &format!("keys + lo * {size}u"));
    p.if_(format!("{found} == key"));
    p.line("start = lo;");
    p.close();
    p.close();
    p.line(format!("st1(starts + k * 4u, {int}(start));"));
    p.close();
    p.else_(None);
    p.let_("bound64", Ty::I64, "i64(bound)");
    p.grid_loop("i", "n");
    let own = sorted(p, &format!("keys + i * {size}u"));
    p.let_("key", Ty::I64, own);
    p.var("first", Ty::Bool, "i == 0u");
    p.if_("!first");
    let previous = sorted(p, &format!("keys + (i - 1u) * {size}u"));
    p.line(format!("first = {previous} != key;"));
    p.close();
    p.if_(format!("first && key >= {} && key < bound64", p.d.int64(0)));
    p.line(format!("st1(starts + u32(key) * 4u, {int}(i));"));
    p.close();
    p.close();
    p.close();
}

/// The sorted key at position `at`, as int64.
fn sorted_key(p: &mut Printer, k: &AccumulateKernel, at: &str) -> String {
    let index = k.index.size();
    p.d.convert(&format!("ld2(ko + ({at}) * {index}u)"), k.index, DType::I64)
}

/// Finds an accumulate work item's run start `j` (and, from the sorted keys, its key) in
/// sorted keys: by the table of run starts, or as the sorted position `u` if a run starts
/// there; `ok` is whether there is a run.
fn run_start(p: &mut Printer, k: &AccumulateKernel, starts: usize) {
    p.if_("by_keys");
    p.line(format!("j = u32(ld{starts}(sto + u * 4u));"));
    p.line("ok = j < n_sorted;");
    p.else_(None);
    let own = sorted_key(p, k, "u");
    p.let_("k64", Ty::I64, own);
    // Out-of-range indices have the largest key (and have set the fault word).
    p.line(format!("ok = k64 != {};", p.d.int64(largest(k.index))));
    p.if_("ok && u > 0u");
    let previous = sorted_key(p, k, "u - 1u");
    p.line(format!("ok = {previous} != k64;"));
    p.close();
    p.line(format!(
        "key = u32({});",
        p.select("ok", "k64", &p.d.int64(0))
    ));
    p.close();
}

/// Accumulate arguments: `[n, nd, ns, size[nd], limit[nd], sorted_size[ns], self_offset,
/// self_stride[nd], value_offset, value_stride[nd], value_sorted_stride[ns], keys_offset,
/// perm_offset, starts_offset, out_offset, out_stride[nd], key_stride[nd], n_sorted, free,
/// by_keys, run_lo, run_hi, first, last, counts_offset, tiles]`. Output element `c` has the key
/// `sum(c[d] * key_stride[d])` over its keyed dimensions (nonzero key strides); its other,
/// free, dimensions (`free` elements in all) take the values alike. The values whose sorted
/// keys equal an element's key form a run, whose positions `[run_lo, run_hi)` this launch
/// combines into the element (those with a `c[d] >= limit[d]` take none). Work item `w` is
/// free position `w % free` of a run: with `by_keys` zero, of the run starting at sorted
/// position `w / free` (nothing when no run starts there); else of key `w / free`'s run, which
/// starts at `starts[key]` (int32; `n_sorted` for none). Sorted position `r` holds the value
/// at position `perm[r]` of the sorted space (`sorted_size`), addressed through
/// `value_sorted_stride` plus the element's own coordinates through `value_stride`. Elements
/// no run reaches are left as they are (`out` holds `self` already). A chunked kernel is
/// launched once per range of run positions: after the `first` launch it continues from
/// `out` and the per-element count of values taken so far (int32 `counts`, contiguous in the
/// output's shape), and only the `last` launch finishes (the mean's division). With lanes,
/// `free` counts groups of four free elements along the innermost dimension, which one work
/// item combines together. A `Presorted` kernel reads values already in run order (sorted
/// position `r` is the value's position in the sorted space) and no keys or permutation:
/// `starts` is a one-pass radix sort's digit counts `[key][tile]` (`tiles` per key) as its
/// scatter leaves them, each tile's cursor past its last value of the key, so key `u`'s run
/// is `[cursor[u * tiles - 1], cursor[u * tiles + tiles - 1])`, by keys always. A `Scanned`
/// kernel's keys are unsorted and it has no permutation or run starts: key `u`'s run is every
/// position whose key is `u`, walked among all of them in index order, by keys always.
pub fn accumulate(p: &mut Printer, k: &AccumulateKernel) {
    let (starts, out, counts, size) = (4, 5, 6, k.dtype.size());
    // The sorted keys and the permutation, read as int64 and u32.
    let index = k.index.size();
    let ty = Ty::Value(k.dtype);
    p.let_("n", Ty::U32, p.word("0u"));
    p.let_("nd", Ty::U32, p.word("1u"));
    p.let_("ns", Ty::U32, p.word("2u"));
    p.let_("so", Ty::U32, "3u + 2u * nd + ns");
    p.let_("vo", Ty::U32, "so + 1u + nd");
    p.let_("ko", Ty::U32, p.word("vo + 1u + nd + ns"));
    p.let_("po", Ty::U32, p.word("vo + 2u + nd + ns"));
    p.let_("sto", Ty::U32, p.word("vo + 3u + nd + ns"));
    p.let_("oo", Ty::U32, "vo + 4u + nd + ns");
    p.let_("ks", Ty::U32, "oo + nd");
    p.let_("ce", Ty::U32, "ks + nd + 1u");
    p.let_("n_sorted", Ty::U32, p.word("ce"));
    p.let_("free", Ty::U32, p.word("ce + 1u"));
    p.let_("by_keys", Ty::Bool, format!("{} != 0u", p.word("ce + 2u")));
    p.let_("run_lo", Ty::U32, p.word("ce + 3u"));
    p.let_("run_hi", Ty::U32, p.word("ce + 4u"));
    p.let_("first", Ty::Bool, format!("{} != 0u", p.word("ce + 5u")));
    p.let_("last", Ty::Bool, format!("{} != 0u", p.word("ce + 6u")));
    // The values' first byte and, with one sorted dimension (the usual case), its stride,
    // read once.
    p.let_("vb", Ty::U32, p.word("vo"));
    p.var("vstep", Ty::U32, "0u");
    p.if_("ns == 1u");
    p.line(format!("vstep = {};", p.word("vo + nd + 1u")));
    p.close();
    if k.lanes {
        // The values' innermost stride: lane `l` reads `l` of them further.
        p.let_("vinner", Ty::U32, p.word("vo + nd"));
    }
    if k.runs == Runs::Presorted {
        p.let_("tiles", Ty::U32, p.word("ce + 8u"));
    }
    p.grid_loop("w", "n");
    p.let_("u", Ty::U32, "w / free");
    // The run's start `j`, end and key.
    p.var("j", Ty::U32, "u");
    p.var("key", Ty::U32, "u");
    p.var("ok", Ty::Bool, "true");
    p.var("run_end", Ty::U32, "n_sorted");
    match k.runs {
        Runs::Presorted => {
            // After the radix scatter each tile's cursor of a digit is where the tile's
            // elements of it end: the last tile's ends the digit's run, and the one before
            // it starts it.
            let cursor = |at: &str| format!("u32(ld{starts}(sto + ({at}) * 4u))");
            p.line(format!("run_end = {};", cursor("u * tiles + tiles - 1u")));
            p.line("j = 0u;");
            p.if_("u > 0u");
            p.line(format!("j = {};", cursor("u * tiles - 1u")));
            p.close();
        }
        Runs::Sorted => run_start(p, k, starts),
        Runs::Scanned => p.line("j = 0u;"),
    }
    p.if_("ok");
    // The element's coordinates: the keyed ones from the key, the free ones from `w % free`
    // (times four with lanes: lane `l` is `l` further along the innermost dimension).
    let lanes = if k.lanes { 4 } else { 1 };
    p.var("r", Ty::U32, format!("(w % free) * {lanes}u"));
    p.var("inside", Ty::Bool, "true");
    p.var("flat", Ty::U32, "0u");
    p.var("scale", Ty::U32, "1u");
    for name in ["es", "ev", "eo"] {
        p.var(name, Ty::U32, "0u");
    }
    p.for_("d", "nd", "d > 0u", "d -= 1u");
    p.let_("size", Ty::U32, p.word("2u + d"));
    p.let_("kd", Ty::U32, p.word("ks + d"));
    p.var("cd", Ty::U32, "(key / max(kd, 1u)) % size");
    p.if_("kd == 0u");
    p.line("cd = r % size;");
    p.line("r = r / size;");
    p.close();
    p.if_(format!("cd >= {}", p.word("2u + nd + d")));
    p.line("inside = false;");
    p.close();
    for (e, base) in [("es", "so"), ("ev", "vo"), ("eo", "oo")] {
        p.line(format!("{e} += cd * {};", p.word(format!("{base} + d"))));
    }
    p.line("flat += cd * scale;");
    p.line("scale *= size;");
    p.close();
    p.if_("inside");
    // Lane `l`'s element of self, the values and out: `l` innermost strides further.
    let lane = |p: &Printer, e: &str, base: &str, l: usize| {
        if l == 0 {
            e.to_string()
        } else {
            format!("{e} + {l}u * {}", p.word(format!("{base} + nd")))
        }
    };
    let include = k.include_self;
    for l in 0..lanes {
        let es = lane(p, "es", "so", l);
        let own_self = format!("ld0({} + ({es}) * {size}u)", p.word("so"));
        if k.chunked {
            let eo = lane(p, "eo", "oo", l);
            let own_out = format!("ld{out}({} + ({eo}) * {size}u)", p.word("oo"));
            p.var(
                &format!("acc{l}"),
                ty,
                p.select("first", &own_self, &own_out),
            );
        } else {
            p.var(&format!("acc{l}"), ty, own_self);
        }
    }
    if k.chunked {
        // Every lane has taken as many values (they share the run).
        let prev = format!("u32(ld{counts}({} + flat * 4u))", p.word("ce + 7u"));
        p.let_("prev", Ty::U32, p.select("first", "0u", &prev));
    } else {
        p.let_("prev", Ty::U32, "0u");
    }
    p.var("has", Ty::Bool, format!("{include} || prev > 0u"));
    p.var("count", Ty::U32, format!("prev + {}u", u32::from(include)));
    match k.runs {
        Runs::Presorted => {}
        Runs::Sorted => {
            let wanted = sorted_key(p, k, "j");
            p.let_("wanted", Ty::I64, wanted);
        }
        Runs::Scanned => {
            let wanted = p.d.convert("key", DType::U32, DType::I64);
            p.let_("wanted", Ty::I64, wanted);
        }
    }
    p.var("at", Ty::U32, "j + min(run_lo, run_end - j)");
    p.let_("end", Ty::U32, "j + min(run_hi, run_end - j)");
    p.open("while (at < end)");
    match k.runs {
        // The values lie in run order.
        Runs::Presorted => p.var("rv", Ty::U32, "at"),
        Runs::Sorted => {
            let other = sorted_key(p, k, "at");
            p.if_(format!("{other} != wanted"));
            p.line("break;");
            p.close();
            p.var("rv", Ty::U32, format!("u32(ld3(po + at * {index}u))"));
        }
        // Positions of other keys are passed over.
        Runs::Scanned => {
            let other = sorted_key(p, k, "at");
            p.if_(format!("{other} != wanted"));
            p.line("at += 1u;");
            p.line("continue;");
            p.close();
            p.var("rv", Ty::U32, "at");
        }
    }
    p.var("lv", Ty::U32, "ev");
    p.if_("ns == 1u");
    p.line("lv += rv * vstep;");
    p.else_(None);
    p.for_("q", "ns", "q > 0u", "q -= 1u");
    p.let_("size", Ty::U32, p.word("2u + 2u * nd + q"));
    p.line(format!("lv += (rv % size) * {};", p.word("vo + nd + q")));
    p.line("rv = rv / size;");
    p.close();
    p.close();
    for l in 0..lanes {
        p.open("");
        let lv = match l {
            0 => "lv".to_string(),
            _ => format!("lv + {l}u * vinner"),
        };
        p.let_("x1", ty, format!("ld1(vb + ({lv}) * {size}u)"));
        p.if_("has");
        p.let_("x0", ty, format!("acc{l}"));
        let step = p.expr(&k.step());
        p.line(format!("acc{l} = {step};"));
        p.else_(None);
        p.line(format!("acc{l} = x1;"));
        p.close();
        p.close();
    }
    p.line("has = true;");
    p.line("count += 1u;");
    p.line("at += 1u;");
    p.close();
    for l in 0..lanes {
        let eo = lane(p, "eo", "oo", l);
        let at = format!("{} + ({eo}) * {size}u", p.word("oo"));
        p.if_("has && last");
        p.let_("x0", ty, format!("acc{l}"));
        let count = p.d.convert("count", DType::U8, k.dtype);
        p.let_("x1", ty, count);
        let finish = p.expr(&k.finish());
        p.line(format!("st{out}({at}, {finish});"));
        p.else_(None);
        p.line(format!("st{out}({at}, acc{l});"));
        p.close();
    }
    if k.chunked {
        p.if_("!last");
        let kept = format!("count - {}u", u32::from(include));
        let kept = p.d.convert(&kept, DType::U8, DType::I32);
        for l in 0..lanes {
            p.line(format!(
                "st{counts}({} + (flat + {l}u) * 4u, {kept});",
                p.word("ce + 7u")
            ));
        }
        p.close();
    }
    p.close();
    p.close();
    p.close();
}
