//! Index skeletons: gather/scatter through index tensors, and the deterministic accumulating
//! scatter.

use super::{Printer, Ty};
use crate::dtype::DType;
use crate::kernels::pattern::{AccumulateKernel, IndexKernel};

/// The most dimensions an accumulate kernel's output may have.
pub const MAX_INDEX_DIMS: usize = 16;

/// Index arguments: the map layout for `src`, the index tensors and `dst` over the iteration
/// shape (`[n, nd, size[nd], (offset, stride[nd]) per tensor]`), then the fault word's
/// offset and `(bound, stride)` per index tensor: the indexed dimension's size and its stride
/// in the indexed tensor (`src` for a gather, `dst` for a scatter). An index outside its
/// bound touches nothing and sets the fault word.
pub fn index(p: &mut Printer, k: &IndexKernel) {
    let indices = k.indices.len();
    let fault = 2 + indices;
    let mut dtypes = vec![k.dtype];
    dtypes.extend(&k.indices);
    dtypes.push(k.dtype);
    p.let_("n", Ty::U32, p.word("0u"));
    p.let_("nd", Ty::U32, p.word("1u"));
    p.let_("fw", Ty::U32, format!("2u + nd + {fault}u * (1u + nd)"));
    p.grid_loop("i", "n");
    p.addresses(&dtypes, "1u", "2u + nd");
    p.var("jump", Ty::U32, "0u");
    p.var("ok", Ty::Bool, "true");
    for j in 0..indices {
        p.open("");
        p.let_("v", Ty::I64, format!("i64(ld{t}(a{t}))", t = 1 + j));
        wrapped(p, k.wrap, &format!("fw + {}u", 1 + 2 * j));
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
    let one = p.d.constant(DType::I32, 1.0);
    p.line(format!("st{fault}({}, {one});", p.word("fw")));
    p.line("continue;");
    p.close();
    let (dst, size) = (1 + indices, k.dtype.size());
    p.line(if k.scatter {
        format!("st{dst}(a{dst} + jump * {size}u, ld0(a0));")
    } else {
        format!("st{dst}(a{dst}, ld0(a0 + jump * {size}u));")
    });
    p.close();
}

/// `let bound` (word `bound_word`) and `let w`: the index `v` wrapped when negative indices
/// count from the end.
fn wrapped(p: &mut Printer, from_end: bool, bound_word: &str) {
    p.let_("bound", Ty::I64, format!("i64({})", p.word(bound_word)));
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

/// Accumulate arguments: `[n, nd, nl, size[nd], loop_size[nl], limit[nd], self_offset,
/// self_stride[nd], (offset, stride[nd], loop_stride[nl]) for values and each index tensor,
/// out_offset, out_stride[nd], fault_offset, (target_dim, bound) per index tensor, loop_lo,
/// loop_hi, first, last, counts_offset]`. Output element `c` takes the values at loop
/// positions `[loop_lo, loop_hi)` where every index tensor's element, wrapped, equals
/// `c[target_dim]`; only elements with every `c[d] < limit[d]` take any. A chunked kernel is
/// launched once per range of loop positions: after the `first` launch it continues from
/// `out` and the per-element count of values taken so far (int32 `counts`, contiguous), and
/// only the `last` launch finishes (the mean's division).
pub fn accumulate(p: &mut Printer, k: &AccumulateKernel) {
    let indices = k.indices.len();
    let (out, fault, counts, size) = (2 + indices, 3 + indices, 4 + indices, k.dtype.size());
    let ty = Ty::Value(k.dtype);
    p.let_("n", Ty::U32, p.word("0u"));
    p.let_("nd", Ty::U32, p.word("1u"));
    p.let_("nl", Ty::U32, p.word("2u"));
    p.let_("so", Ty::U32, "3u + 2u * nd + nl");
    p.let_("vo", Ty::U32, "so + 1u + nd");
    p.let_("blk", Ty::U32, "1u + nd + nl");
    p.let_("oo", Ty::U32, format!("vo + blk * {}u", 1 + indices));
    p.let_("fo", Ty::U32, "oo + 1u + nd");
    p.let_("ce", Ty::U32, format!("fo + 1u + {}u", 2 * indices));
    p.let_("loop_lo", Ty::U32, p.word("ce"));
    p.let_("loop_hi", Ty::U32, p.word("ce + 1u"));
    p.let_("first", Ty::Bool, format!("{} != 0u", p.word("ce + 2u")));
    p.let_("last", Ty::Bool, format!("{} != 0u", p.word("ce + 3u")));
    p.grid_loop("i", "n");
    p.var("r", Ty::U32, "i");
    let c = p.d.local_array("c", Ty::U32, MAX_INDEX_DIMS);
    p.line(c);
    p.var("inside", Ty::Bool, "true");
    for name in ["es", "ev", "eo"] {
        p.var(name, Ty::U32, "0u");
    }
    for j in 0..indices {
        p.var(&format!("ej{j}"), Ty::U32, "0u");
    }
    p.for_("d", "nd", "d > 0u", "d -= 1u");
    p.let_("size", Ty::U32, p.word("2u + d"));
    p.let_("cd", Ty::U32, "r % size");
    p.line("r = r / size;");
    p.line("c[d - 1u] = cd;");
    p.if_(format!("cd >= {}", p.word("2u + nd + nl + d")));
    p.line("inside = false;");
    p.close();
    p.line(format!("es += cd * {};", p.word("so + d")));
    p.line(format!("ev += cd * {};", p.word("vo + d")));
    p.line(format!("eo += cd * {};", p.word("oo + d")));
    for j in 0..indices {
        p.line(format!(
            "ej{j} += cd * {};",
            p.word(format!("vo + blk * {}u + d", 1 + j))
        ));
    }
    p.close();
    let own_self = format!("ld0({} + es * {size}u)", p.word("so"));
    let include = k.include_self;
    if k.chunked {
        let own_out = format!("ld{out}({} + eo * {size}u)", p.word("oo"));
        p.let_("own", ty, p.select("first", &own_self, &own_out));
        let prev = format!("u32(ld{counts}({} + i * 4u))", p.word("ce + 4u"));
        p.let_("prev", Ty::U32, p.select("first", "0u", &prev));
    } else {
        p.let_("own", ty, own_self);
        p.let_("prev", Ty::U32, "0u");
    }
    p.var("acc", ty, "own");
    p.var("has", Ty::Bool, format!("{include} || prev > 0u"));
    p.var("count", Ty::U32, format!("prev + {}u", u32::from(include)));
    p.if_("inside");
    p.for_up("l", "loop_lo", "loop_hi");
    p.var("rl", Ty::U32, "l");
    p.var("lv", Ty::U32, "ev");
    for j in 0..indices {
        p.var(&format!("lj{j}"), Ty::U32, format!("ej{j}"));
    }
    p.for_("q", "nl", "q > 0u", "q -= 1u");
    p.let_("size", Ty::U32, p.word("2u + nd + q"));
    p.let_("cq", Ty::U32, "rl % size");
    p.line("rl = rl / size;");
    p.line(format!("lv += cq * {};", p.word("vo + nd + q")));
    for j in 0..indices {
        p.line(format!(
            "lj{j} += cq * {};",
            p.word(format!("vo + blk * {}u + nd + q", 1 + j))
        ));
    }
    p.close();
    p.var("hit", Ty::Bool, "true");
    for (j, dtype) in k.indices.iter().enumerate() {
        p.open("");
        let at = format!(
            "{} + lj{j} * {}u",
            p.word(format!("vo + blk * {}u", 1 + j)),
            dtype.size()
        );
        p.let_("v", Ty::I64, format!("i64(ld{}({at}))", 2 + j));
        wrapped(p, k.wrap, &format!("fo + {}u", 2 + 2 * j));
        p.if_(out_of_bounds(p));
        let one = p.d.constant(DType::I32, 1.0);
        p.line(format!("st{fault}({}, {one});", p.word("fo")));
        p.line("hit = false;");
        p.else_(Some(&format!(
            "u32(w) != c[{}]",
            p.word(format!("fo + {}u", 1 + 2 * j))
        )));
        p.line("hit = false;");
        p.close();
        p.close();
    }
    p.if_("hit");
    p.let_("x1", ty, format!("ld1({} + lv * {size}u)", p.word("vo")));
    p.if_("has");
    p.let_("x0", ty, "acc");
    let step = p.expr(&k.step());
    p.line(format!("acc = {step};"));
    p.else_(None);
    p.line("acc = x1;");
    p.line("has = true;");
    p.close();
    p.line("count += 1u;");
    p.close();
    p.close();
    p.close();
    let at = format!("{} + eo * {size}u", p.word("oo"));
    p.if_("has && last");
    p.let_("x0", ty, "acc");
    let count = p.d.convert("count", DType::U8, k.dtype);
    p.let_("x1", ty, count);
    let finish = p.expr(&k.finish());
    p.line(format!("st{out}({at}, {finish});"));
    p.else_(None);
    p.line(format!("st{out}({at}, acc);"));
    p.close();
    if k.chunked {
        p.if_("!last");
        let kept = format!("count - {}u", u32::from(include));
        let kept = p.d.convert(&kept, DType::U8, DType::I32);
        p.line(format!(
            "st{counts}({} + i * 4u, {kept});",
            p.word("ce + 4u")
        ));
        p.close();
    }
    p.close();
}
