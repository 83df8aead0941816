//! Fused scaled dot-product attention, tiled with an online softmax so that no `Tq x Tk` score
//! matrix exists (FlashAttention's scheme). A group takes 64 rows (queries; keys for the
//! key/value gradients), one per invocation, held in local arrays; blocks of the other side's
//! rows are staged through group memory. A launch covers one bounded chunk of the other side,
//! so no invocation loops without bound: launches for successive chunks continue from the
//! per-row state the previous one stored (float32 work tensors of O(rows) elements), and
//! [`AttentionPass::Combine`] turns the forward state into the output.
//!
//! Arguments, all u32 (the attention words of [`AttentionTensor::word`] follow):
//! - `[0..14)` (uniform) `B, H, Hk, Tq, Tk, D, Dv, P, BK, blocks, chunk, causal, tiles,
//!   items`: batch, query heads, key/value heads (`H` a multiple), sequence lengths, head
//!   widths, `P` the wider rounded up to 8 (at most [`WIDTH`]), `BK` rows per staged block
//!   (`BK * P <= STAGE`, `BK <= BLOCK`), blocks per chunk, this launch's chunk (the first
//!   starts the state, later ones continue it), causal (0/1), row tiles (64 rows each) and
//!   the launch's work items (`batch * heads * tiles`);
//! - `[14]` the score scale (float32 bits);
//! - per tensor: `[B, H, T, D]` tensors their offset and four element strides (the bias's
//!   over `[B, H, Tq, Tk]`), work tensors (float32, contiguous) their offset;
//! - `[51..57)` with dropout: the generator's key (two words) and block (its offset / 4, two
//!   words), the keep probability `1 - p` and its inverse (float32 bits).
//!
//! Scores are `scale * q.k + bias`, keys after the query masked when causal (top-left
//! aligned, as PyTorch's). A row that every key is masked from gets a zero output and a
//! logsumexp of +inf (so its gradients are zero), as the math path's safe softmax.
//!
//! Dropout keeps probability `(i, j)` of row `r = (b * H + h) * Tq + i` where cuRAND's
//! uniform of Philox component `j % 4` at subsequence `r`, block `j / 4` is below `1 - p`,
//! scaled by `1 / (1 - p)`: every pass draws the same mask from the same words. The softmax
//! sums (and so the logsumexp) are those of the kept and dropped probabilities alike.

use super::random::{philox, uniform32};
use super::{Printer, Ty, GROUP_SIZE};
use crate::dtype::DType;
use crate::kernels::pattern::{AttentionKernel, AttentionPass, AttentionTensor};

/// The widest head dimension.
pub const WIDTH: u32 = 256;
/// Float32 values of each staged block.
pub const STAGE: u32 = 2048;
/// The most rows of a staged block.
pub const BLOCK: u32 = 64;
/// Unrolled steps of the loops over a row's elements (`P` is a multiple).
const UNROLL: u32 = 8;

/// The first dropout word.
const DROPOUT_WORDS: u32 = 51;

pub fn attention(p: &mut Printer, k: &AttentionKernel) {
    if k.dropout {
        kept_fn(p);
    }
    match k.pass {
        AttentionPass::Forward => forward(p, k),
        AttentionPass::Combine => combine(p, k),
        AttentionPass::Query => query(p, k),
        AttentionPass::KeyValue => key_value(p, k),
    }
}

/// Tensor accessors of one kernel: argument numbers and element addresses.
struct Tensors<'k> {
    k: &'k AttentionKernel,
    order: Vec<AttentionTensor>,
}

impl<'k> Tensors<'k> {
    fn new(k: &'k AttentionKernel) -> Self {
        Tensors {
            k,
            order: k.tensors().0,
        }
    }

    fn arg(&self, t: AttentionTensor) -> usize {
        self.order
            .iter()
            .position(|&x| x == t)
            .expect("the pass has this tensor")
    }

    /// The value of `[B, H, T, D]` tensor `t` at `(b, h, i, d)`, in float32.
    fn load(&self, p: &mut Printer, t: AttentionTensor, at: [&str; 4]) -> String {
        let w = t.word();
        let word = |i: u32| p.word(format!("{}u", w + i));
        let index = format!(
            "({}) * {} + ({}) * {} + ({}) * {} + ({}) * {}",
            at[0],
            word(1),
            at[1],
            word(2),
            at[2],
            word(3),
            at[3],
            word(4)
        );
        let address = format!("{} + ({index}) * {}u", word(0), self.k.dtype.size());
        let value = format!("ld{}({address})", self.arg(t));
        p.d.convert(&value, self.k.dtype, DType::F32)
    }

    /// The byte address of element `index` of work tensor `t`.
    fn work(&self, p: &Printer, t: AttentionTensor, index: &str) -> String {
        format!("{} + ({index}) * 4u", p.word(format!("{}u", t.word())))
    }

    fn load_work(&self, p: &Printer, t: AttentionTensor, index: &str) -> String {
        format!("ld{}({})", self.arg(t), self.work(p, t, index))
    }

    fn store_work(&self, p: &mut Printer, t: AttentionTensor, index: &str, value: &str) {
        let at = self.work(p, t, index);
        p.line(format!("st{}({at}, {value});", self.arg(t)));
    }
}

fn neg_inf(p: &Printer) -> String {
    p.d.constant(DType::F32, f64::NEG_INFINITY)
}

fn zero(p: &Printer) -> String {
    p.d.constant(DType::F32, 0.0)
}

/// `kept(r, j)`: the dropout factor of probability `j` of row `r` (0, or `1 / (1 - p)`).
fn kept_fn(p: &mut Printer) {
    p.function(
        "kept",
        &[("r", Ty::U32), ("j", Ty::U32)],
        Some(Ty::F32),
        |p| {
            let x = p.d.local_array("x", Ty::U32, 4);
            p.line(x);
            philox(p, "x", "j / 4u", "r", DROPOUT_WORDS);
            p.let_("u", Ty::F32, uniform32("x[j % 4u]"));
            let keep = p.d.scalar(DType::F32, &format!("{}u", DROPOUT_WORDS + 4));
            let scale = p.d.scalar(DType::F32, &format!("{}u", DROPOUT_WORDS + 5));
            let factor = p.select(&format!("u < {keep}"), &scale, &zero(p));
            p.line(format!("return {factor};"));
        },
    );
}

/// `value` times the dropout factor of probability `j` of row `r`, when the kernel drops.
fn dropped(k: &AttentionKernel, value: &str, r: &str, j: &str) -> String {
    if k.dropout {
        format!("{value} * kept({r}, {j})")
    } else {
        value.to_string()
    }
}

/// Opens the loop over the launch's work items (row tiles of a head) with `c` (the chunk),
/// `tile`, `bh` (batch and head), `b`, `h` (the head: of keys when `of_keys`), `hk` (its
/// key/value head), `row` (this invocation's row), `valid` and `resume` (whether the state
/// of earlier chunks is read).
fn open_rows(p: &mut Printer, of_keys: bool) {
    p.uniform_words("dims", 14);
    p.for_("g", "group", "g < dims[13]", "g += groups");
    p.let_("c", Ty::U32, "dims[10]");
    p.let_("tile", Ty::U32, "g % dims[12]");
    p.let_("bh", Ty::U32, "g / dims[12]");
    let heads = if of_keys { "dims[2]" } else { "dims[1]" };
    p.let_("b", Ty::U32, format!("bh / {heads}"));
    p.let_("h", Ty::U32, format!("bh % {heads}"));
    let hk = if of_keys {
        "h"
    } else {
        "h / (dims[1] / dims[2])"
    };
    p.let_("hk", Ty::U32, hk);
    p.let_("row", Ty::U32, format!("tile * {GROUP_SIZE}u + t"));
    let rows = if of_keys { "dims[4]" } else { "dims[3]" };
    p.let_("valid", Ty::Bool, format!("row < {rows}"));
    p.let_("resume", Ty::Bool, "valid && c > 0u");
}

/// Continues local row `name` (`width` elements) from work tensor `t` at `base` when resuming.
fn resume_row(
    p: &mut Printer,
    ts: &Tensors,
    name: &str,
    t: AttentionTensor,
    base: &str,
    width: &str,
) {
    p.if_("resume");
    p.for_up("d", "0u", width);
    let v = ts.load_work(p, t, &format!("{base} + d"));
    p.line(format!("{name}[d] = {v};"));
    p.close();
    p.close();
}

/// A local float32 array of `WIDTH` elements holding `[B, H, T, D]` tensor `t`'s row
/// `(b, head, row)` (`width` elements, zeros after them and for invalid rows); with `t`
/// None, zeros.
fn local_row(p: &mut Printer, ts: &Tensors, name: &str, t: Option<(AttentionTensor, &str, &str)>) {
    let decl = p.d.local_array(name, Ty::F32, WIDTH as usize);
    p.line(decl);
    let z = zero(p);
    p.for_up("d", "0u", "dims[7]");
    p.line(format!("{name}[d] = {z};"));
    if let Some((t, head, width)) = t {
        p.if_(format!("valid && d < {width}"));
        let v = ts.load(p, t, ["b", head, "row", "d"]);
        p.line(format!("{name}[d] = {v};"));
        p.close();
    }
    p.close();
}

/// Stages rows `first..` (below `limit`) of `b`'s head `head` of each tensor into its group
/// array (`BK` rows of `P`, zeros past the row's width or the limit).
fn stage(
    p: &mut Printer,
    ts: &Tensors,
    first: &str,
    limit: &str,
    head: &str,
    arrays: &[(&str, AttentionTensor, &str)],
) {
    p.for_(
        "e",
        "t",
        "e < dims[8] * dims[7]",
        &format!("e += {GROUP_SIZE}u"),
    );
    p.let_("sr", Ty::U32, format!("{first} + e / dims[7]"));
    p.let_("sd", Ty::U32, "e % dims[7]");
    for &(array, t, width) in arrays {
        p.open("");
        let z = zero(p);
        p.var("x", Ty::F32, z);
        p.if_(format!("sr < {limit} && sd < {width}"));
        let v = ts.load(p, t, ["b", head, "sr", "sd"]);
        p.line(format!("x = {v};"));
        p.close();
        p.line(format!("{array}[e] = x;"));
        p.close();
    }
    p.close();
    p.barrier();
}

/// `sum(a[a_at + d] * b[b_at + d])` over the row (`P` elements, unrolled), into a new `name`.
fn dot(p: &mut Printer, name: &str, a: (&str, &str), b: (&str, &str)) {
    let z = zero(p);
    p.var(name, Ty::F32, z);
    p.for_("d", "0u", "d < dims[7]", &format!("d += {UNROLL}u"));
    for u in 0..UNROLL {
        p.line(format!(
            "{name} = {name} + {}[{} + d + {u}u] * {}[{} + d + {u}u];",
            a.0, a.1, b.0, b.1
        ));
    }
    p.close();
}

/// `to[to_at + d] += scale * from[from_at + d]` over the row (unrolled).
fn axpy(p: &mut Printer, to: (&str, &str), scale: &str, from: (&str, &str)) {
    p.for_("d", "0u", "d < dims[7]", &format!("d += {UNROLL}u"));
    for u in 0..UNROLL {
        let (t, f) = (
            format!("{}[{} + d + {u}u]", to.0, to.1),
            format!("{}[{} + d + {u}u]", from.0, from.1),
        );
        p.line(format!("{t} = {t} + {scale} * {f};"));
    }
    p.close();
}

/// The score of query `qi` of head `head` against key `kj`, from the dot product `dot`.
fn score(p: &mut Printer, ts: &Tensors, dot: &str, head: &str, qi: &str, kj: &str) -> String {
    let scale = p.d.scalar(DType::F32, "14u");
    let mut s = format!("{dot} * {scale}");
    if ts.k.bias {
        let bias = ts.load(p, AttentionTensor::Bias, ["b", head, qi, kj]);
        s = format!("{s} + {bias}");
    }
    s
}

/// Whether query `qi` sees key `kj` under the causal flag.
fn visible(qi: &str, kj: &str) -> String {
    format!("(dims[11] == 0u || {kj} <= {qi})")
}

/// The range of keys of chunk `c` a query tile reads: `lo..hi`, clipped to the tile's last
/// query when causal.
fn key_range(p: &mut Printer) {
    p.let_("lo", Ty::U32, "c * dims[9] * dims[8]");
    p.var("hi", Ty::U32, "min(dims[4], lo + dims[9] * dims[8])");
    p.if_("dims[11] != 0u");
    p.line(format!(
        "hi = min(hi, tile * {GROUP_SIZE}u + {GROUP_SIZE}u);"
    ));
    p.close();
}

fn shared_blocks(p: &mut Printer, names: [&str; 2]) {
    for name in names {
        p.shared(name, Ty::F32, STAGE);
    }
}

/// Per query row, over a key chunk: the state `[B * H * Tq, P + 2]` (the output scaled by
/// `exp(-m)`, then the running maximum `m` and the sum `l` of `exp(score - m)`).
fn forward(p: &mut Printer, k: &AttentionKernel) {
    use AttentionTensor::*;
    let ts = Tensors::new(k);
    shared_blocks(p, ["sk", "sv"]);
    open_rows(p, false);
    local_row(p, &ts, "qv", Some((Query, "h", "dims[5]")));
    local_row(p, &ts, "ov", None);
    let s = p.d.local_array("s", Ty::F32, BLOCK as usize);
    p.line(s);
    let (ninf, z) = (neg_inf(p), zero(p));
    p.var("m", Ty::F32, &ninf);
    p.var("l", Ty::F32, &z);
    p.let_("r", Ty::U32, "bh * dims[3] + row");
    p.let_("base", Ty::U32, "r * (dims[7] + 2u)");
    resume_row(p, &ts, "ov", Partial, "base", "dims[7]");
    p.if_("resume");
    let (m, l) = (
        ts.load_work(p, Partial, "base + dims[7]"),
        ts.load_work(p, Partial, "base + dims[7] + 1u"),
    );
    p.line(format!("m = {m};"));
    p.line(format!("l = {l};"));
    p.close();
    key_range(p);
    p.for_("kb", "lo", "kb < hi", "kb += dims[8]");
    stage(
        p,
        &ts,
        "kb",
        "hi",
        "hk",
        &[("sk", Key, "dims[5]"), ("sv", Value, "dims[6]")],
    );
    p.var("bm", Ty::F32, &ninf);
    p.for_up("j", "0u", "dims[8]");
    dot(p, "qk", ("qv", "0u"), ("sk", "j * dims[7]"));
    let sc = score(p, &ts, "qk", "h", "row", "kb + j");
    let ok = format!("valid && kb + j < hi && {}", visible("row", "kb + j"));
    let masked = p.select(&ok, &sc, &ninf);
    p.line(format!("s[j] = {masked};"));
    p.line("bm = max(bm, s[j]);");
    p.close();
    p.let_("mn", Ty::F32, "max(m, bm)");
    p.if_(format!("mn != {ninf}"));
    p.let_("corr", Ty::F32, "exp(m - mn)");
    p.line("l = l * corr;");
    p.for_up("d", "0u", "dims[7]");
    p.line("ov[d] = ov[d] * corr;");
    p.close();
    p.for_up("j", "0u", "dims[8]");
    p.let_("pj", Ty::F32, "exp(s[j] - mn)");
    p.line("l = l + pj;");
    p.let_("wj", Ty::F32, dropped(k, "pj", "r", "kb + j"));
    axpy(p, ("ov", "0u"), "wj", ("sv", "j * dims[7]"));
    p.close();
    p.line("m = mn;");
    p.close();
    p.barrier();
    p.close();
    p.if_("valid");
    p.for_up("d", "0u", "dims[7]");
    ts.store_work(p, Partial, "base + d", "ov[d]");
    p.close();
    ts.store_work(p, Partial, "base + dims[7]", "m");
    ts.store_work(p, Partial, "base + dims[7] + 1u", "l");
    p.close();
    p.close();
}

/// Per query row and element: the output (`[B, H, Tq, Dv]`, strided) from the forward state
/// and, for the first element, the logsumexp.
fn combine(p: &mut Printer, k: &AttentionKernel) {
    use AttentionTensor::*;
    let ts = Tensors::new(k);
    p.uniform_words("dims", 14);
    let z = zero(p);
    p.let_("width", Ty::U32, "max(dims[6], 1u)");
    p.grid_loop("i", "dims[0] * dims[1] * dims[3] * width");
    p.let_("r", Ty::U32, "i / width");
    p.let_("d", Ty::U32, "i % width");
    p.let_("base", Ty::U32, "r * (dims[7] + 2u)");
    let (m, l) = (
        ts.load_work(p, Partial, "base + dims[7]"),
        ts.load_work(p, Partial, "base + dims[7] + 1u"),
    );
    p.let_("m", Ty::F32, m);
    p.let_("l", Ty::F32, l);
    p.let_("bh", Ty::U32, "r / dims[3]");
    p.let_("qi", Ty::U32, "r % dims[3]");
    p.let_("b", Ty::U32, "bh / dims[1]");
    p.let_("h", Ty::U32, "bh % dims[1]");
    p.if_("d < dims[6]");
    let o = ts.load_work(p, Partial, "base + d");
    let value = p.select(&format!("l == {z}"), &z, &format!("{o} / l"));
    let value = p.d.convert(&value, DType::F32, k.dtype);
    let word = |p: &Printer, i: u32| p.word(format!("{}u", Out.word() + i));
    let at = format!(
        "{} + (b * {} + h * {} + qi * {} + d * {}) * {}u",
        word(p, 0),
        word(p, 1),
        word(p, 2),
        word(p, 3),
        word(p, 4),
        k.dtype.size()
    );
    p.line(format!("st{}({at}, {value});", ts.arg(Out)));
    p.close();
    p.if_("d == 0u");
    let inf = p.d.constant(DType::F32, f64::INFINITY);
    let lse = p.select(&format!("l == {z}"), &inf, "m + log(l)");
    ts.store_work(p, LogSumExp, "r", &lse);
    p.close();
    p.close();
}

/// Per query row, over a key chunk: the query gradient's state (`[B * H * Tq, D]`, not yet
/// scaled); the first chunk also computes `delta = sum(grad_out * out)` of the row, which
/// later chunks and the key/value pass read.
fn query(p: &mut Printer, k: &AttentionKernel) {
    use AttentionTensor::*;
    let ts = Tensors::new(k);
    shared_blocks(p, ["sk", "sv"]);
    open_rows(p, false);
    local_row(p, &ts, "qv", Some((Query, "h", "dims[5]")));
    local_row(p, &ts, "gv", Some((GradOut, "h", "dims[6]")));
    local_row(p, &ts, "dq", None);
    let z = zero(p);
    p.let_("r", Ty::U32, "bh * dims[3] + row");
    resume_row(p, &ts, "dq", GradQuery, "r * dims[5]", "dims[5]");
    p.var("lse", Ty::F32, &z);
    p.var("delta", Ty::F32, &z);
    p.if_("valid");
    let lse = ts.load_work(p, LogSumExp, "r");
    p.line(format!("lse = {lse};"));
    // The first chunk computes delta and stores it; later ones read it back.
    p.if_("c == 0u");
    p.for_up("d", "0u", "dims[6]");
    let o = ts.load(p, Out, ["b", "h", "row", "d"]);
    p.line(format!("delta = delta + gv[d] * {o};"));
    p.close();
    ts.store_work(p, Delta, "r", "delta");
    p.else_(None);
    let stored = ts.load_work(p, Delta, "r");
    p.line(format!("delta = {stored};"));
    p.close();
    p.close();
    key_range(p);
    p.for_("kb", "lo", "kb < hi", "kb += dims[8]");
    stage(
        p,
        &ts,
        "kb",
        "hi",
        "hk",
        &[("sk", Key, "dims[5]"), ("sv", Value, "dims[6]")],
    );
    p.for_up("j", "0u", "dims[8]");
    p.if_(format!(
        "valid && kb + j < hi && {}",
        visible("row", "kb + j")
    ));
    dot(p, "qk", ("qv", "0u"), ("sk", "j * dims[7]"));
    let sc = score(p, &ts, "qk", "h", "row", "kb + j");
    p.let_("pj", Ty::F32, format!("exp({sc} - lse)"));
    dot(p, "dp", ("gv", "0u"), ("sv", "j * dims[7]"));
    let dp = dropped(k, "dp", "r", "kb + j");
    p.let_("ds", Ty::F32, format!("pj * ({dp} - delta)"));
    axpy(p, ("dq", "0u"), "ds", ("sk", "j * dims[7]"));
    p.close();
    p.close();
    p.barrier();
    p.close();
    p.if_("valid");
    p.for_up("d", "0u", "dims[5]");
    ts.store_work(p, GradQuery, "r * dims[5] + d", "dq[d]");
    p.close();
    p.close();
    p.close();
}

/// Per key row, over a chunk of query blocks (of the key's `H / Hk` query heads): the key and
/// value gradients' state (`[B * Hk * Tk, D or Dv]`, the key's not yet scaled).
fn key_value(p: &mut Printer, k: &AttentionKernel) {
    use AttentionTensor::*;
    let ts = Tensors::new(k);
    shared_blocks(p, ["sq", "sg"]);
    open_rows(p, true);
    local_row(p, &ts, "kv", Some((Key, "hk", "dims[5]")));
    local_row(p, &ts, "vv", Some((Value, "hk", "dims[6]")));
    local_row(p, &ts, "dk", None);
    local_row(p, &ts, "dv", None);
    p.let_("rk", Ty::U32, "bh * dims[4] + row");
    resume_row(p, &ts, "dk", GradKey, "rk * dims[5]", "dims[5]");
    resume_row(p, &ts, "dv", GradValue, "rk * dims[6]", "dims[6]");
    p.let_("rep", Ty::U32, "dims[1] / dims[2]");
    p.let_("per_head", Ty::U32, "(dims[3] + dims[8] - 1u) / dims[8]");
    p.let_("n_lo", Ty::U32, "c * dims[9]");
    p.let_("n_hi", Ty::U32, "min(rep * per_head, n_lo + dims[9])");
    p.for_up("n", "n_lo", "n_hi");
    p.let_("hq", Ty::U32, "hk * rep + n / per_head");
    p.let_("i0", Ty::U32, "(n % per_head) * dims[8]");
    // Causal: a block whose queries all precede the tile's keys sees none of them.
    p.if_(format!(
        "dims[11] == 0u || i0 + dims[8] > tile * {GROUP_SIZE}u"
    ));
    stage(
        p,
        &ts,
        "i0",
        "dims[3]",
        "hq",
        &[("sq", Query, "dims[5]"), ("sg", GradOut, "dims[6]")],
    );
    p.for_up("ii", "0u", "dims[8]");
    p.let_("qi", Ty::U32, "i0 + ii");
    p.if_(format!("valid && qi < dims[3] && {}", visible("qi", "row")));
    p.let_("r", Ty::U32, "(b * dims[1] + hq) * dims[3] + qi");
    dot(p, "qk", ("sq", "ii * dims[7]"), ("kv", "0u"));
    let sc = score(p, &ts, "qk", "hq", "qi", "row");
    let lse = ts.load_work(p, LogSumExp, "r");
    p.let_("pj", Ty::F32, format!("exp({sc} - {lse})"));
    let (wj, dp) = if k.dropout {
        p.let_("zj", Ty::F32, "kept(r, row)");
        ("pj * zj", "dp * zj")
    } else {
        ("pj", "dp")
    };
    axpy(p, ("dv", "0u"), wj, ("sg", "ii * dims[7]"));
    dot(p, "dp", ("sg", "ii * dims[7]"), ("vv", "0u"));
    let delta = ts.load_work(p, Delta, "r");
    p.let_("ds", Ty::F32, format!("pj * ({dp} - {delta})"));
    axpy(p, ("dk", "0u"), "ds", ("sq", "ii * dims[7]"));
    p.close();
    p.close();
    p.barrier();
    p.close();
    p.close();
    p.if_("valid");
    p.for_up("d", "0u", "dims[5]");
    ts.store_work(p, GradKey, "rk * dims[5] + d", "dk[d]");
    p.close();
    p.for_up("d", "0u", "dims[6]");
    ts.store_work(p, GradValue, "rk * dims[6] + d", "dv[d]");
    p.close();
    p.close();
    p.close();
}
