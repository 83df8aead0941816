//! The scan skeleton: an inclusive scan along one dimension, a chunk of a line per invocation.

use super::{Printer, Ty};
use crate::kernels::expr::{BinaryOp, Expr};
use crate::kernels::pattern::{ReduceOp, ScanKernel};

/// Scan arguments: `[n_lines, len, nk, chunk, n_chunks, kept_size[nk], in_offset,
/// in_kept_stride[nk], in_stride, out_offset, out_kept_stride[nk], out_stride, carry_offset]`
/// (the last with a carry only). Invocation `i` walks chunk `i % n_chunks` (elements
/// `[c * chunk, (c + 1) * chunk)`) of line `i / n_chunks`, starting from the carry tensor's
/// element `i - 1` (the combined earlier chunks, contiguous per line) when `c > 0`.
pub fn scan(p: &mut Printer, k: &ScanKernel) {
    let op = if k.op == ReduceOp::Prod {
        BinaryOp::Mul
    } else {
        BinaryOp::Add
    };
    let step = Expr::input(0, k.acc).binary(op, Expr::input(1, k.input).cast(k.acc));
    let identity = Expr::constant(k.acc, if k.op == ReduceOp::Prod { 1.0 } else { 0.0 });
    let store = Expr::input(0, k.acc).cast(k.output);
    for (w, name) in ["n", "len", "nk", "chunk", "n_chunks"].iter().enumerate() {
        p.let_(name, Ty::U32, p.word(format!("{w}u")));
    }
    p.let_("io", Ty::U32, "5u + nk");
    p.let_("oo", Ty::U32, "io + 2u + nk");
    p.grid_loop("i", "n * n_chunks");
    p.let_("c", Ty::U32, "i % n_chunks");
    p.var("r", Ty::U32, "i / n_chunks");
    p.var("ein", Ty::U32, "0u");
    p.var("eout", Ty::U32, "0u");
    p.for_("d", "nk", "d > 0u", "d -= 1u");
    p.let_("size", Ty::U32, p.word("4u + d"));
    p.let_("cd", Ty::U32, "r % size");
    p.line("r = r / size;");
    p.line(format!("ein += cd * {};", p.word("io + d")));
    p.line(format!("eout += cd * {};", p.word("oo + d")));
    p.close();
    let identity = p.expr(&identity);
    p.var("x0", Ty::Value(k.acc), identity);
    let out = if k.carry {
        p.if_("c > 0u");
        let carry = p.word("oo + 2u + nk");
        p.line(format!("x0 = ld1({carry} + (i - 1u) * {}u);", k.acc.size()));
        p.close();
        2
    } else {
        1
    };
    // Each tensor's first byte of the chunk's line and its byte stride along it.
    let (is, os) = (k.input.size(), k.output.size());
    let in_base = format!("{} + ein * {is}u", p.word("io"));
    p.let_("ib", Ty::U32, in_base);
    p.let_(
        "istep",
        Ty::U32,
        format!("{} * {is}u", p.word("io + 1u + nk")),
    );
    p.let_("ob", Ty::U32, format!("{} + eout * {os}u", p.word("oo")));
    p.let_(
        "ostep",
        Ty::U32,
        format!("{} * {os}u", p.word("oo + 1u + nk")),
    );
    p.let_("hi", Ty::U32, "min(len, c * chunk + chunk)");
    p.var("j", Ty::U32, "c * chunk");
    let step = p.expr(&step);
    let store = p.expr(&store);
    if k.vector {
        // Unit strides and 16-byte aligned: four elements per access, then the rest below.
        p.if_("istep == 4u && ostep == 4u && ((ib + j * 4u) & 15u) == 0u && ((ob + j * 4u) & 15u) == 0u");
        p.open("while (j + 4u <= hi)");
        let v = p.d.load4(0, k.input, "ib + j * 4u");
        let line = p.d.let_inferred("v", &v);
        p.line(line);
        let results: [String; 4] = std::array::from_fn(|lane| format!("r{lane}"));
        for result in &results {
            let zero = p.d.constant(k.output, 0.0);
            p.var(result, Ty::Value(k.output), zero);
        }
        for (lane, result) in results.iter().enumerate() {
            p.open("");
            let c = p.d.component("v", lane);
            p.let_("x1", Ty::Value(k.input), c);
            p.line(format!("x0 = {step};"));
            p.line(format!("{result} = {store};"));
            p.close();
        }
        let stored = p.d.store4(out, k.output, "ob + j * 4u", &results);
        p.line(stored);
        p.line("j += 4u;");
        p.close();
        p.close();
    }
    p.open("while (j < hi)");
    p.let_("x1", Ty::Value(k.input), "ld0(ib + j * istep)");
    p.line(format!("x0 = {step};"));
    p.line(format!("st{out}(ob + j * ostep, {store});"));
    p.line("j += 1u;");
    p.close();
    p.close();
}
