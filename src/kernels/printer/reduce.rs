//! The reduction skeleton, in two shapes: a group per chunk of one output's reduced elements
//! (its invocations split the chunk, then combine through group memory), or an invocation per
//! chunk (for many outputs: neighbouring invocations then read neighbouring elements when the
//! reduced dimensions are strided, and short rows leave no invocation idle).

use super::{Printer, Ty, GROUP_SIZE};
use crate::dtype::DType;
use crate::kernels::expr::{BinaryOp, Expr};
use crate::kernels::pattern::{Elementwise, ReduceKernel, ReduceOp};
use std::ops::{Mul, Sub};

/// Reduce arguments: `[n_out, n_red, nk, nr, chunk, n_chunks, kept_size[nk], red_size[nr],
/// in_offset, in_kept_stride[nk], in_red_stride[nr], (offset, kept_stride[nk],
/// red_stride[nr]) of the indices if indexed, (offset, kept_stride[nk]) of the per-output
/// tensor if any, (out_offset, out_stride[nk], out_chunk_stride) per output, (offset,
/// kept_stride[nk], red_stride[nr]) of the per-element output if any, scalars..]`.
/// Work item `w` (a group's, or with `group` false an invocation's) reduces chunk `c`
/// (elements `[c * chunk, (c + 1) * chunk)`) of output `o` and writes it at the output's
/// position plus `c` chunk strides. Item `w` is `o * n_chunks + c` for a group, or where the
/// reduced elements are contiguous (`vector`); otherwise `c * n_out + o`, so that neighbouring
/// invocations reduce neighbouring outputs (a column reduction's loads are then adjacent:
/// 4096² column sums 54 -> 24 ms on lavapipe 25, where row sums lose a fifth that way).
pub fn reduce(p: &mut Printer, k: &ReduceKernel, group: bool) {
    let acc = Ty::Value(k.acc);
    if group {
        p.shared("sh_a", acc, GROUP_SIZE);
        p.shared("sh_ok", Ty::Bool, GROUP_SIZE);
        p.shared("sh_i", Ty::I64, GROUP_SIZE);
    }
    combine_fn(p, "comb", k.op, k.acc);
    if k.op == ReduceOp::LogSumExp {
        combine_fn(p, "comb_max", ReduceOp::Max, k.acc);
    }
    if matches!(k.op, ReduceOp::ArgMin | ReduceOp::ArgMax) {
        better_fn(p, "better", k.op, k.acc);
    }
    // The element offset of reduced position `j` through the reduced strides from word `sb`.
    p.function(
        "red",
        &[("j", Ty::U32), ("sb", Ty::U32)],
        Some(Ty::U32),
        |p| {
            p.var("e", Ty::U32, "0u");
            p.if_(format!("{} == 1u", p.word("3u")));
            p.line(format!("e = j * {};", p.word("sb + 1u")));
            p.else_(None);
            p.let_("nk", Ty::U32, p.word("2u"));
            p.var("q", Ty::U32, "j");
            p.for_("d", &p.word("3u"), "d > 0u", "d -= 1u");
            p.let_("size", Ty::U32, p.word("5u + nk + d"));
            p.line(format!("e += (q % size) * {};", p.word("sb + d")));
            p.line("q = q / size;");
            p.close();
            p.close();
            p.line("return e;");
        },
    );
    // A group's loop bounds must be uniform across it (it meets barriers in the loop).
    if group {
        p.uniform_words("wv", 6);
    }
    for (w, name) in ["n_out", "n_red", "nk", "nr", "chunk", "n_chunks"]
        .iter()
        .enumerate()
    {
        let value = if group {
            format!("wv[{w}]")
        } else {
            p.word(format!("{w}u"))
        };
        p.let_(name, Ty::U32, value);
    }
    p.let_("io", Ty::U32, "6u + nk + nr");
    p.var("next", Ty::U32, "io + 1u + nk + nr");
    let mut tensor = 1;
    let index = if k.indexed {
        p.let_("xo", Ty::U32, "next");
        p.line("next += 1u + nk + nr;");
        tensor += 1;
        format!("ld1({} + (ex + red(j, xo + nk)) * 8u)", p.word("xo"))
    } else {
        "i64(j)".to_string()
    };
    if k.per_output.is_some() {
        p.let_("po", Ty::U32, "next");
        p.line("next += 1u + nk;");
    }
    let outs = k.outputs.len();
    p.let_("oo", Ty::U32, "next");
    // The per-element output's block follows the outputs'.
    p.let_("eo", Ty::U32, format!("oo + {outs}u * (2u + nk)"));
    let scalars = if k.elementwise.is_some() {
        "eo + 1u + nk + nr"
    } else {
        "eo"
    };
    p.scalars(&k.scalars, scalars);
    if group {
        p.for_("w", "group", "w < n_out * n_chunks", "w += groups");
    } else {
        p.grid_loop("w", "n_out * n_chunks");
    }
    if group || k.vector {
        p.let_("o", Ty::U32, "w / n_chunks");
        p.let_("c", Ty::U32, "w % n_chunks");
    } else {
        p.let_("o", Ty::U32, "w % n_out");
        p.let_("c", Ty::U32, "w / n_out");
    }
    p.let_("lo", Ty::U32, "c * chunk");
    p.let_("hi", Ty::U32, "min(n_red, lo + chunk)");
    p.var("r", Ty::U32, "o");
    for name in ["ein", "ex", "epo", "eel"] {
        p.var(name, Ty::U32, "0u");
    }
    for q in 0..outs {
        p.var(&format!("eo{q}"), Ty::U32, "0u");
    }
    p.for_("d", "nk", "d > 0u", "d -= 1u");
    p.let_("size", Ty::U32, p.word("5u + d"));
    p.let_("cd", Ty::U32, "r % size");
    p.line("r = r / size;");
    p.line(format!("ein += cd * {};", p.word("io + d")));
    if k.indexed {
        p.line(format!("ex += cd * {};", p.word("xo + d")));
    }
    if k.per_output.is_some() {
        p.line(format!("epo += cd * {};", p.word("po + d")));
    }
    if k.elementwise.is_some() {
        p.line(format!("eel += cd * {};", p.word("eo + d")));
    }
    for q in 0..outs {
        p.line(format!(
            "eo{q} += cd * {};",
            p.word(format!("oo + {q}u * (2u + nk) + d"))
        ));
    }
    p.close();
    if let Some(dtype) = k.per_output {
        let at = format!("{} + epo * {}u", p.word("po"), dtype.size());
        p.let_("x1", Ty::Value(dtype), format!("ld{tensor}({at})"));
    }
    let first_out = 1 + usize::from(k.indexed) + usize::from(k.per_output.is_some());
    // The per-element output's tensor, and whether the last pass stores into it.
    let element_out = first_out + outs;
    let stashed = k.elementwise.as_ref().and_then(|m| m.stashed.as_ref());
    let stashed = stashed.filter(|_| !group);
    if let Some(map) = k.elementwise.as_ref().filter(|_| stashed.is_some()) {
        let size = map.dtype.size();
        let at = format!("{} + eel * {size}u", p.word("eo"));
        p.let_("stash_base", Ty::U32, at);
        // With one reduced dimension, its byte stride in the output.
        let step = format!("{} * {size}u", p.word("eo + nk + 1u"));
        p.let_("stash_step", Ty::U32, step);
    }
    let pass = Pass {
        acc: k.acc,
        input: k.input,
        index,
        group,
        vector: k.vector && !k.indexed,
        stash: None,
    };
    let (value, arg_index) = match k.op {
        ReduceOp::Variance => {
            let (mean, _) = pass.print(p, ReduceOp::Sum, "comb", &k.pre, 0);
            let count = p.d.convert("n_red", DType::U8, k.acc);
            p.let_("x1", acc, format!("{mean} / {count}"));
            pass.barrier(p);
            let deviation = k.pre.clone().sub(Expr::input(1, k.acc));
            pass.print(
                p,
                ReduceOp::Sum,
                "comb",
                &deviation.clone().mul(deviation),
                1,
            )
        }
        ReduceOp::LogSumExp => {
            let (max, _) = pass.print(p, ReduceOp::Max, "comb_max", &k.pre, 0);
            // The maximum, or zero when it is infinite or NaN.
            let m = Expr::input(2, k.acc);
            let shift = m
                .clone()
                .unary(crate::kernels::UnaryOp::IsFinite)
                .select(m, Expr::constant(k.acc, 0.0));
            p.let_("x2", acc, max);
            let shift = p.expr(&shift);
            p.let_("x1", acc, shift);
            pass.barrier(p);
            let last = Pass {
                stash: stashed.map(|_| element_out),
                ..pass.clone()
            };
            last.print(
                p,
                ReduceOp::Sum,
                "comb",
                &k.pre.clone().sub(Expr::input(1, k.acc)).exp(),
                1,
            )
        }
        op => pass.print(p, op, "comb", &k.pre, 0),
    };
    if k.op.second(k.acc) == Some(DType::I64) {
        p.let_("x1", Ty::I64, arg_index);
    }
    if let Some(map) = &k.elementwise {
        let second = matches!(k.op, ReduceOp::Variance | ReduceOp::LogSumExp);
        let second = (second || k.per_output.is_some()).then_some("x1");
        elementwise(p, &pass, map, stashed, (&value, second), element_out);
    }
    if group {
        p.if_("t == 0u");
    } else {
        p.open("");
    }
    p.let_("x0", acc, value);
    for (q, (dtype, e)) in k.outputs.iter().enumerate() {
        let base = format!("oo + {q}u * (2u + nk)");
        let at = format!(
            "{} + (eo{q} + c * {}) * {}u",
            p.word(&base),
            p.word(format!("{base} + 1u + nk")),
            dtype.size()
        );
        let value = p.expr(e);
        p.line(format!("st{}({at}, {value});", first_out + q));
    }
    p.close();
    pass.barrier(p);
    p.close();
}

/// The per-element pass after a chunk's reduction (the whole row: one chunk per output):
/// the row's value is computed once from the reduced value and the op's second value if any
/// (a variance's mean, a logsumexp's shift, the per-output value), then every element is read
/// again and mapped, with the row's value and the second value, into tensor `out` at the same
/// position; or, `stashed`, the value the last pass stored there is read and mapped by it.
fn elementwise(
    p: &mut Printer,
    pass: &Pass,
    map: &Elementwise,
    stashed: Option<&Expr>,
    (value, second): (&str, Option<&str>),
    out: usize,
) {
    let acc = Ty::Value(pass.acc);
    p.let_("rv", acc, value);
    p.let_("rs", acc, second.unwrap_or("rv"));
    p.var("rr", acc, "rv");
    p.open("");
    p.let_("x0", acc, "rv");
    p.let_("x1", acc, "rs");
    let row = p.expr(&map.row);
    p.line(format!("rr = {row};"));
    p.close();
    p.open("");
    p.let_("x1", acc, "rr");
    p.let_("x2", acc, "rs");
    if stashed.is_some() {
        p.let_("x3", acc, "rv");
    }
    // Each element from the input, or stashed in the output.
    let (source, source_dtype, map_value) = match stashed {
        Some(e) => (out, map.dtype, e),
        None => (0, pass.input, &map.value),
    };
    let (size, out_size) = (pass.input.size(), map.dtype.size());
    // Where both are rows (one reduced dimension), their steps, read once.
    p.let_(
        "eb",
        Ty::U32,
        format!("{} + eel * {out_size}u", p.word("eo")),
    );
    p.var("istep", Ty::U32, "0u");
    p.var("ostep", Ty::U32, "0u");
    p.if_("nr == 1u");
    p.line(format!("istep = {} * {size}u;", p.word("io + nk + 1u")));
    p.line(format!("ostep = {} * {out_size}u;", p.word("eo + nk + 1u")));
    p.close();
    p.let_("ib", Ty::U32, format!("{} + ein * {size}u", p.word("io")));
    let vector =
        pass.vector && pass.input.size() == 4 && matches!(map.dtype, DType::F32 | DType::I32);
    if vector {
        p.if_("istep == 4u && ostep == 4u && (ib & 15u) == 0u && (eb & 15u) == 0u");
        elementwise_vector(p, pass, map, (source, source_dtype, map_value), out);
        p.else_(None);
    }
    if pass.group {
        p.for_("j", "lo + t", "j < hi", &format!("j += {GROUP_SIZE}u"));
    } else {
        p.for_up("j", "lo", "hi");
    }
    p.var("at", Ty::U32, "ib + j * istep");
    p.var("to", Ty::U32, "eb + j * ostep");
    p.if_("nr != 1u");
    p.line(format!("at = ib + red(j, io + nk) * {size}u;"));
    p.line(format!("to = eb + red(j, eo + nk) * {out_size}u;"));
    p.close();
    let load = if stashed.is_some() {
        format!("ld{out}(to)")
    } else {
        "ld0(at)".to_string()
    };
    p.let_("x0", Ty::Value(source_dtype), load);
    let value = p.expr(map_value);
    p.line(format!("st{out}(to, {value});"));
    p.close();
    if vector {
        p.close();
    }
    p.close();
}

/// [`elementwise`]'s loop over contiguous, aligned 4-byte rows: four elements per 16-byte
/// load and store, the last partial four one by one, each element read from tensor `source`
/// (of its dtype: the input's, or the output where stashed) and mapped by `value`.
fn elementwise_vector(
    p: &mut Printer,
    pass: &Pass,
    map: &Elementwise,
    (source, source_dtype, value): (usize, DType, &Expr),
    out: usize,
) {
    if pass.group {
        let stride = 4 * GROUP_SIZE;
        p.for_("j", "lo + 4u * t", "j < hi", &format!("j += {stride}u"));
    } else {
        p.for_("j", "lo", "j < hi", "j += 4u");
    }
    p.if_("j + 4u <= hi");
    let from = if source == 0 { "ib" } else { "eb" };
    let v = p.d.load4(source, source_dtype, &format!("{from} + j * 4u"));
    let line = p.d.let_inferred("v4", &v);
    p.line(line);
    let results: [String; 4] = std::array::from_fn(|c| format!("r{c}"));
    for name in &results {
        let zero = p.d.constant(map.dtype, 0.0);
        p.var(name, Ty::Value(map.dtype), zero);
    }
    per_component(p, source_dtype, value, "v4", |c, value| {
        format!("{} = {value};", results[c])
    });
    let store = p.d.store4(out, map.dtype, "eb + j * 4u", &results);
    p.line(store);
    p.else_(None);
    p.for_up("jj", "j", "hi");
    let load = format!("ld{source}({from} + jj * 4u)");
    p.let_("x0", Ty::Value(source_dtype), load);
    let value = p.expr(value);
    p.line(format!("st{out}(eb + jj * 4u, {value});"));
    p.close();
    p.close();
    p.close();
}

/// For each component `c` of the 16-byte vector named `vector`, in a block of its own: `x0`
/// (of `input`) bound to it, and the line `assign(c, e)` of `e` printed over `x0`.
pub(super) fn per_component(
    p: &mut Printer,
    input: DType,
    e: &Expr,
    vector: &str,
    assign: impl Fn(usize, &str) -> String,
) {
    for c in 0..4 {
        p.open("");
        let x0 = p.d.component(vector, c);
        p.let_("x0", Ty::Value(input), x0);
        let value = p.expr(e);
        p.line(assign(c, &value));
        p.close();
    }
}

/// `fn name(x0, x1) -> acc` for a reduction's combining operation.
fn combine_fn(p: &mut Printer, name: &str, op: ReduceOp, acc: DType) {
    let bop = match op {
        ReduceOp::Sum | ReduceOp::Variance | ReduceOp::LogSumExp => BinaryOp::Add,
        ReduceOp::Prod => BinaryOp::Mul,
        ReduceOp::Min | ReduceOp::ArgMin => BinaryOp::Min,
        ReduceOp::Max | ReduceOp::ArgMax => BinaryOp::Max,
    };
    let e = Expr::input(0, acc).binary(bop, Expr::input(1, acc));
    let ty = Ty::Value(acc);
    p.function(name, &[("x0", ty), ("x1", ty)], Some(ty), |p| {
        let value = p.expr(&e);
        p.line(format!("return {value};"));
    });
}

/// `fn name(v, i, w, j) -> bool`: whether candidate (w, j) beats (v, i) for arg-reductions:
/// a strictly better value (NaN beats everything), or an equal one at a smaller index.
pub(super) fn better_fn(p: &mut Printer, name: &str, op: ReduceOp, acc: DType) {
    let (v, w) = (Expr::input(0, acc), Expr::input(1, acc));
    let strict = if op == ReduceOp::ArgMax {
        w.clone().gt(v.clone())
    } else {
        w.clone().lt(v.clone())
    };
    let (strict, tie) = if acc.is_float() {
        (
            strict.or(w
                .clone()
                .is_nan()
                .and(v.clone().is_nan().unary(crate::kernels::UnaryOp::Not))),
            w.clone().eq(v.clone()).or(w.is_nan().and(v.is_nan())),
        )
    } else {
        (strict, w.eq(v))
    };
    let ty = Ty::Value(acc);
    p.function(
        name,
        &[("x0", ty), ("i", Ty::I64), ("x1", ty), ("j", Ty::I64)],
        Some(Ty::Bool),
        |p| {
            let (strict, tie) = (p.expr(&strict), p.expr(&tie));
            p.line(format!("return {strict} || ({tie} && j < i);"));
        },
    );
}

/// Interleaved partial sums per invocation, and bytes summed as a tree per step of the
/// vector loop (see [`Pass::print_partial_sums`]).
pub(super) const PARTIALS: usize = 8;
const TREE_BYTES: usize = 128;
/// Straight-line expressions of at most this many nodes are mapped `TREE_BYTES` per step.
const SHORT: usize = 8;

/// Elements per step of an invocation's vector loop: `TREE_BYTES` of its `input` dtype (at
/// most 64 elements) for a straight-line mapped `value` ([`Expr::straight_line`]), else 16, or
/// 8 for long expressions, so that a kernel prints no long expression many times. (lavapipe,
/// 2 cores, 16 -> 32 float32 a step: 16M summed 4.2 -> 3.3 ms, 4096² over rows 4.1 -> 3.3
/// ms; 64 no faster.)
fn step_width(value: &Expr, input: DType) -> usize {
    if value.straight_line(SHORT) {
        (TREE_BYTES / input.size()).min(64)
    } else if value.nodes() <= SHORT {
        16
    } else {
        8
    }
}

/// `values` added as a tree, neighbours first, as a group's invocations combine.
fn tree(mut level: Vec<String>) -> String {
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| format!("({} + {})", pair[0], pair[1]))
            .collect();
    }
    level.remove(0)
}

/// What [`Pass::element`] does with an element: reduction `op` combining by function `comb`
/// the element mapped by `value`, into the accumulator names `(a, ok, idx)`.
struct Step<'a> {
    op: ReduceOp,
    comb: &'a str,
    value: &'a Expr,
    names: (&'a str, &'a str, &'a str),
}

/// One pass of a reduction over the chunk `[lo, hi)`.
#[derive(Clone)]
struct Pass {
    acc: DType,
    input: DType,
    /// The candidate index of element `j` (arg-reductions).
    index: String,
    /// Whether a group (else one invocation) reduces the chunk.
    group: bool,
    /// Whether contiguous rows are read four elements at a time (4-byte inputs bound as
    /// 16-byte words; not for indexed partials).
    vector: bool,
    /// The per-element output each element's mapped value is stored in (from
    /// `stash_base`), if any.
    stash: Option<usize>,
}

impl Pass {
    /// A barrier where a group reduces (its shared results are then read or overwritten).
    fn barrier(&self, p: &mut Printer) {
        if self.group {
            p.barrier();
        }
    }

    /// The loop over the chunk's elements `j` (a group's invocations take every
    /// `GROUP_SIZE`-th each), each read at byte `at`, mapped by `value` and combined into the
    /// accumulator names `(a, ok, idx)`.
    fn element_loop(&self, p: &mut Printer, step: &Step, at: &str) {
        if self.group {
            p.for_("j", "lo + t", "j < hi", &format!("j += {GROUP_SIZE}u"));
        } else {
            p.for_up("j", "lo", "hi");
        }
        let x0 = format!("ld0({at})");
        self.element(p, step, &x0, &self.index, "j");
        p.close();
    }

    /// [`Pass::element_loop`] over contiguous elements (of at most four bytes) from byte
    /// `base`: four elements per load (a group's invocations take four neighbours each), the
    /// last partial four one by one.
    fn vector_loop(&self, p: &mut Printer, step: &Step, base: &str) {
        if !self.group {
            self.vector_steps(p, step, base);
            return;
        }
        let stride = 4 * GROUP_SIZE;
        let size = self.input.size();
        p.for_("j", "lo + 4u * t", "j < hi", &format!("j += {stride}u"));
        p.if_("j + 4u <= hi");
        let v = p.d.load4(0, self.input, &format!("{base} + j * {size}u"));
        let line = p.d.let_inferred("v4", &v);
        p.line(line);
        for c in 0..4 {
            p.open("");
            let x0 = p.d.lane("v4", self.input, c);
            self.element(
                p,
                step,
                &x0,
                &format!("i64(j + {c}u)"),
                &format!("j + {c}u"),
            );
            p.close();
        }
        p.else_(None);
        p.for_up("jj", "j", "hi");
        self.element(
            p,
            step,
            &format!("ld0({base} + jj * {size}u)"),
            "i64(jj)",
            "jj",
        );
        p.close();
        p.close();
        p.close();
    }

    /// [`Pass::vector_loop`] for one invocation (and the contiguous rows of
    /// [`Pass::print_partial_sums`]): [`step_width`] elements a step, four a load, while
    /// whole steps remain, then the rest one by one. (A test inside the loop for
    /// the last step, as a group's loop has, makes lavapipe mask every update in the loop:
    /// 4096² amax over rows 15 -> 11-12 ms.)
    ///
    /// Elements under four bytes are read 16 bytes a load where a step holds whole 16-byte
    /// words, from the chunk's first 16-byte boundary (the elements before it one by one):
    /// 16M bfloat16 summed on lavapipe, 2 cores, 2.4 -> 2.1 ms.
    fn vector_steps(&self, p: &mut Printer, step: &Step, base: &str) {
        let width = step_width(step.value, self.input);
        let size = self.input.size();
        let per16 = 16 / size;
        let chunks = size < 4 && width.is_multiple_of(per16);
        let from = if chunks {
            let skip = format!("((16u - (({base} + lo * {size}u) & 15u)) & 15u) / {size}u");
            p.let_("head", Ty::U32, format!("min(hi, lo + {skip})"));
            p.for_up("j", "lo", "head");
            let x0 = format!("ld0({base} + j * {size}u)");
            self.element(p, step, &x0, "i64(j)", "j");
            p.close();
            "head"
        } else {
            "lo"
        };
        p.let_(
            "whole",
            Ty::U32,
            format!("{from} + (hi - {from}) / {width}u * {width}u"),
        );
        p.for_("j", from, "j < whole", &format!("j += {width}u"));
        for c in 0..if chunks { width / per16 } else { 0 } {
            let v =
                p.d.load16(0, &format!("{base} + (j + {}u) * {size}u", per16 * c));
            let line = p.d.let_inferred(&format!("c16_{c}"), &v);
            p.line(line);
        }
        for q in 0..width / 4 {
            let v = if chunks {
                let fours = per16 / 4;
                p.d.four_of16(&format!("c16_{}", q / fours), self.input, q % fours)
            } else {
                p.d.load4(
                    0,
                    self.input,
                    &format!("{base} + (j + {}u) * {size}u", 4 * q),
                )
            };
            let line = p.d.let_inferred(&format!("v4_{q}"), &v);
            p.line(line);
        }
        // A float sum adds the step's mapped elements as a tree, then updates its running
        // sum once (see `Pass::print_partial_sums`); other reductions take them one by one.
        let tree_sum = step.op == ReduceOp::Sum && self.acc.is_float();
        let values: Vec<String> = (0..width).map(|u| format!("s_{u}")).collect();
        for (u, value) in values.iter().enumerate() {
            let pos = format!("j + {u}u");
            if tree_sum {
                p.var(value, Ty::Value(self.acc), p.d.constant(self.acc, 0.0));
            }
            p.open("");
            let x0 = p.d.lane(&format!("v4_{}", u / 4), self.input, u % 4);
            if tree_sum {
                self.mapped(p, step, &x0, &pos);
                p.line(format!("{value} = v;"));
            } else {
                self.element(p, step, &x0, &format!("i64({pos})"), &pos);
            }
            p.close();
        }
        if tree_sum {
            let (a, comb) = (step.names.0, step.comb);
            p.line(format!("{a} = {comb}({a}, {});", tree(values)));
        }
        p.close();
        p.for_up("j", "whole", "hi");
        self.element(
            p,
            step,
            &format!("ld0({base} + j * {size}u)"),
            "i64(j)",
            "j",
        );
        p.close();
    }

    /// An invocation's float sum of its chunk. Contiguous rows at a 16-byte boundary are
    /// read `TREE` elements per step, summed as a tree and the step's sum added to the
    /// accumulator: lavapipe stores a loop-carried variable under the invocations' mask on
    /// every update, so one update per step instead of one per element (16M float32 summed
    /// 20% faster). Other rows go to `PARTIALS` interleaved partial sums (element `j` into
    /// partial `j % PARTIALS`) added as a tree at the end. Either way each addition to a
    /// running sum adds a sum of many elements, so a long row sums about as exactly as a
    /// group reduces it. (Compensated summation would be undone: Mesa's compiler simplifies
    /// `(a + b) - a` to `b`.)
    fn print_partial_sums(&self, p: &mut Printer, step: &Step, number: usize) {
        let (a, ok, idx) = step.names;
        let parts: Vec<String> = (0..PARTIALS).map(|u| format!("{a}_{u}")).collect();
        let zero = p.d.constant(self.acc, 0.0);
        for part in &parts {
            p.var(part, Ty::Value(self.acc), &zero);
        }
        let into = |u: usize| Step {
            names: (&parts[u], ok, idx),
            ..*step
        };
        let (ib, size) = (format!("ib{number}"), self.input.size());
        // Elements `j + u` (u < PARTIALS) read at `at(u)` into their partials, each inside
        // the chunk.
        let guarded = |p: &mut Printer, at: &dyn Fn(usize) -> String| {
            p.for_("j", "lo", "j < hi", &format!("j += {PARTIALS}u"));
            for u in 0..PARTIALS {
                p.if_(format!("j + {u}u < hi"));
                let pos = format!("j + {u}u");
                self.element(p, &into(u), &format!("ld0({})", at(u)), "i64(j)", &pos);
                p.close();
            }
            p.close();
        };
        p.if_("nr == 1u");
        if self.vector {
            // Contiguous rows whose chunk starts aligned to four elements: whole steps by
            // loads of four, the rest one by one. (The chunk's start, not the row's: a row of
            // 8,193 float32 split at 2,049 read elements 2,048..2,051 for 2,049..2,052.)
            p.if_(format!(
                "rs{number} == {size}u && (({ib} + lo * {size}u) & {}u) == 0u",
                4 * size - 1
            ));
            self.vector_steps(p, step, &ib);
            p.else_(None);
        }
        guarded(p, &|u| format!("{ib} + (j + {u}u) * rs{number}"));
        if self.vector {
            p.close();
        }
        p.else_(None);
        guarded(p, &|u| format!("{ib} + red(j + {u}u, io + nk) * {size}u"));
        p.close();
        p.line(format!("{a} = {}({a}, {});", step.comb, tree(parts)));
    }

    /// One element `x0` (read by `load`, at candidate index `index` and position `pos` of the
    /// reduced elements) mapped and combined.
    /// Element `x0` (read by `load`, at position `pos` of the reduced elements) mapped as `v`,
    /// and stored where the pass stashes mapped values.
    fn mapped(&self, p: &mut Printer, step: &Step, load: &str, pos: &str) {
        p.let_("x0", Ty::Value(self.input), load);
        let value = p.expr(step.value);
        p.let_("v", Ty::Value(self.acc), value);
        if let Some(out) = self.stash {
            let size = self.acc.size();
            p.var("sat", Ty::U32, format!("stash_base + ({pos}) * stash_step"));
            p.if_("nr != 1u");
            p.line(format!("sat = stash_base + red({pos}, eo + nk) * {size}u;"));
            p.close();
            p.line(format!("st{out}(sat, v);"));
        }
    }

    fn element(&self, p: &mut Printer, step: &Step, load: &str, index: &str, pos: &str) {
        let Step {
            op,
            comb,
            names: (a, ok, idx),
            ..
        } = step;
        self.mapped(p, step, load, pos);
        if matches!(op, ReduceOp::ArgMin | ReduceOp::ArgMax) {
            p.let_("k", Ty::I64, index);
            p.if_(format!("!{ok} || better({a}, {idx}, v, k)"));
            p.line(format!("{a} = v;"));
            p.line(format!("{idx} = k;"));
            p.line(format!("{ok} = true;"));
            p.close();
        } else if matches!(op, ReduceOp::Min | ReduceOp::Max) {
            p.if_(ok);
            p.line(format!("{a} = {comb}({a}, v);"));
            p.else_(None);
            p.line(format!("{a} = v;"));
            p.line(format!("{ok} = true;"));
            p.close();
        } else {
            p.line(format!("{a} = {comb}({a}, v);"));
        }
    }

    /// The elements `j` of the chunk (a group's invocations take every `GROUP_SIZE`-th each)
    /// mapped by `value` (input 0 is the element) and combined by `comb`; a group then
    /// combines its invocations' results as a tree. Returns the names holding the result and,
    /// for arg-reductions, its index (pass `number` keeps an invocation's names apart).
    fn print(
        &self,
        p: &mut Printer,
        op: ReduceOp,
        comb: &str,
        value: &Expr,
        number: usize,
    ) -> (String, String) {
        let acc = Ty::Value(self.acc);
        let arg = matches!(op, ReduceOp::ArgMin | ReduceOp::ArgMax);
        let extremum = arg || matches!(op, ReduceOp::Min | ReduceOp::Max);
        let (a, ok, idx) = if self.group {
            p.open("");
            ("acc".to_string(), "ok".to_string(), "idx".to_string())
        } else {
            (
                format!("acc{number}"),
                format!("ok{number}"),
                format!("idx{number}"),
            )
        };
        let identity =
            p.d.constant(self.acc, if op == ReduceOp::Prod { 1.0 } else { 0.0 });
        p.var(&a, acc, identity);
        p.var(&ok, Ty::Bool, if extremum { "false" } else { "true" });
        if arg {
            p.var(&idx, Ty::I64, p.d.int64(0));
        }
        // The chunk's first byte and, when one dimension is reduced (the usual case after
        // coalescing), its byte stride, read once instead of per element.
        let size = self.input.size();
        p.let_(
            &format!("ib{number}"),
            Ty::U32,
            format!("{} + ein * {size}u", p.word("io")),
        );
        p.let_(
            &format!("rs{number}"),
            Ty::U32,
            format!("{} * {size}u", p.word("io + nk + 1u")),
        );
        let step = Step {
            op,
            comb,
            value,
            names: (&a, &ok, &idx),
        };
        let ib = format!("ib{number}");
        if !self.group && op == ReduceOp::Sum && self.acc.is_float() {
            self.print_partial_sums(p, &step, number);
            return (a, idx);
        }
        p.if_("nr == 1u");
        if self.vector {
            // Contiguous rows whose chunk starts aligned to four elements take the vector
            // loop.
            p.if_(format!(
                "rs{number} == {size}u && (({ib} + lo * {size}u) & {}u) == 0u",
                4 * size - 1
            ));
            self.vector_loop(p, &step, &ib);
            p.else_(None);
        }
        self.element_loop(p, &step, &format!("{ib} + j * rs{number}"));
        if self.vector {
            p.close();
        }
        p.else_(None);
        self.element_loop(p, &step, &format!("{ib} + red(j, io + nk) * {size}u"));
        p.close();
        if !self.group {
            return (a, idx);
        }
        p.line("sh_a[t] = acc;");
        p.line("sh_ok[t] = ok;");
        if arg {
            p.line("sh_i[t] = idx;");
        }
        p.close();
        p.barrier();
        p.for_("s", &format!("{}u", GROUP_SIZE / 2), "s > 0u", "s >>= 1u");
        p.if_("t < s");
        p.let_("u", Ty::U32, "t + s");
        if arg {
            p.if_("sh_ok[u] && (!sh_ok[t] || better(sh_a[t], sh_i[t], sh_a[u], sh_i[u]))");
            p.line("sh_a[t] = sh_a[u];");
            p.line("sh_i[t] = sh_i[u];");
            p.line("sh_ok[t] = true;");
            p.close();
        } else if extremum {
            p.if_("sh_ok[u]");
            p.if_("sh_ok[t]");
            p.line(format!("sh_a[t] = {comb}(sh_a[t], sh_a[u]);"));
            p.else_(None);
            p.line("sh_a[t] = sh_a[u];");
            p.line("sh_ok[t] = true;");
            p.close();
            p.close();
        } else {
            p.line(format!("sh_a[t] = {comb}(sh_a[t], sh_a[u]);"));
        }
        p.close();
        p.barrier();
        p.close();
        ("sh_a[0]".to_string(), "sh_i[0]".to_string())
    }
}
