//! The column-sum shape of the reduction skeleton: each invocation reduces a chunk of four
//! neighbouring outputs whose elements lie side by side (a row-major float32 matrix summed
//! over its rows), reading the four as one 16-byte load per reduced position. Neighbouring
//! invocations take neighbouring fours, so a group reads 1 KiB of each row it visits where
//! one output per invocation read 256 bytes (4096² column sums 59 -> 27 ms on lavapipe 25, one
//! core). Each output sums exactly as the one-output shape does (`Pass::print_partial_sums`):
//! element `j` into partial `(j - lo) % PARTIALS`, the partials added as a tree.

use super::reduce::{per_component, PARTIALS};
use super::{Printer, Ty};
use crate::dtype::DType;
use crate::kernels::pattern::ReduceKernel;

/// Outputs per invocation (the components of a 16-byte load).
const OUTPUTS: usize = 4;

/// Reduce arguments as [`super::reduce::reduce`] has them, for one kept and one reduced
/// dimension (the launch coalesces to that or does not choose this shape): `[n_out, n_red, 1,
/// 1, chunk, n_chunks, kept_size, red_size, in_offset, in_kept_stride (1), in_red_stride,
/// (out_offset, out_stride, out_chunk_stride) per output, scalars..]`; `n_out` is a multiple
/// of four and the input's rows start 16 bytes aligned.
pub fn reduce_columns(p: &mut Printer, k: &ReduceKernel) {
    let acc = Ty::Value(k.acc);
    for (w, name) in [(0, "n_out"), (1, "n_red"), (4, "chunk"), (5, "n_chunks")] {
        let value = p.word(format!("{w}u"));
        p.let_(name, Ty::U32, value);
    }
    let outs = k.outputs.len();
    p.scalars(&k.scalars, &format!("{}u", 11 + 3 * outs));
    p.let_("quads", Ty::U32, format!("n_out / {OUTPUTS}u"));
    p.grid_loop("w", "quads * n_chunks");
    p.let_("o", Ty::U32, format!("(w % quads) * {OUTPUTS}u"));
    p.let_("c", Ty::U32, "w / quads");
    p.let_("lo", Ty::U32, "c * chunk");
    p.let_("hi", Ty::U32, "min(n_red, lo + chunk)");
    let size = k.input.size();
    p.let_("ib", Ty::U32, format!("{} + o * {size}u", p.word("8u")));
    p.let_("rs", Ty::U32, format!("{} * {size}u", p.word("10u")));
    let zero = p.d.constant(k.acc, 0.0);
    for q in 0..OUTPUTS {
        for u in 0..PARTIALS {
            p.var(&format!("a{q}_{u}"), acc, &zero);
        }
    }
    p.for_("j", "lo", "j < hi", &format!("j += {PARTIALS}u"));
    for u in 0..PARTIALS {
        p.if_(format!("j + {u}u < hi"));
        let v = p.d.load4(0, k.input, &format!("ib + (j + {u}u) * rs"));
        let line = p.d.let_inferred("v4", &v);
        p.line(line);
        per_component(p, k.input, &k.pre, |q, value| {
            format!("a{q}_{u} = a{q}_{u} + {value};")
        });
        p.close();
    }
    p.close();
    for q in 0..OUTPUTS {
        // The tree: neighbours first, then added to the identity, as the one-output shape.
        let mut level: Vec<String> = (0..PARTIALS).map(|u| format!("a{q}_{u}")).collect();
        while level.len() > 1 {
            level = level
                .chunks(2)
                .map(|pair| format!("({} + {})", pair[0], pair[1]))
                .collect();
        }
        p.open("");
        p.let_("x0", acc, format!("{zero} + {}", level[0]));
        for (r, (dtype, e)) in k.outputs.iter().enumerate() {
            let base = 11 + 3 * r;
            let at = format!(
                "{} + ((o + {q}u) * {} + c * {}) * {}u",
                p.word(format!("{base}u")),
                p.word(format!("{}u", base + 1)),
                p.word(format!("{}u", base + 2)),
                dtype.size()
            );
            let value = p.expr(e);
            p.line(format!("st{}({at}, {value});", 1 + r));
        }
        p.close();
    }
    p.close();
}

/// Whether a reduction may take the column shape: a float32 sum without indices, per-output
/// or per-element tensors (the launch also checks the layout).
pub fn eligible(k: &ReduceKernel) -> bool {
    k.op == crate::kernels::ReduceOp::Sum
        && k.input == DType::F32
        && k.acc == DType::F32
        && !k.indexed
        && k.per_output.is_none()
        && k.elementwise.is_none()
}
