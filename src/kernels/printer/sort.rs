//! Sort skeletons: the rank sort of short lines and one pass of the merge sort of long ones.

use super::{Printer, Ty};
use crate::kernels::pattern::SortKernel;

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
