//! The column-sum shape of the reduction skeleton: each invocation reduces a chunk of 32
//! neighbouring outputs whose elements lie side by side (a row-major float32 matrix summed
//! over its rows), reading them as eight 16-byte loads (two 64-byte lines) per reduced
//! position. Neighbouring invocations take neighbouring 32s, so the rows are read in long
//! runs. 4096² column sums on lavapipe 25, 2 cores: 4 outputs per invocation 17 ms, 16 6.6 ms,
//! 32 5-6 ms, 64 (registers spilled) 11.5 ms. So many independent sums need no partial sums
//! to hide the adds' latency: each output adds its elements in order.

use super::reduce::per_component;
use super::{Printer, Ty};
use crate::dtype::DType;
use crate::kernels::pattern::ReduceKernel;

/// Outputs per 16-byte load, and loads per invocation and reduced position.
const QUAD: usize = 4;
const QUADS: usize = 8;

/// Outputs per invocation of the column shape.
pub const COLUMN_OUTPUTS: i64 = (QUAD * QUADS) as i64;

/// Reduce arguments as [`super::reduce::reduce`] has them, for one kept and one reduced
/// dimension (the launch coalesces to that or does not choose this shape): `[n_out, n_red, 1,
/// 1, chunk, n_chunks, kept_size, red_size, in_offset, in_kept_stride (1), in_red_stride,
/// (out_offset, out_stride, out_chunk_stride) per output, scalars..]`; `n_out` is a multiple
/// of four and the input's rows start 16 bytes aligned. Invocation `w` takes outputs from
/// `(w % spans) * COLUMN_OUTPUTS` (fours past `n_out` stay idle) for chunk `w / spans`.
pub fn reduce_columns(p: &mut Printer, k: &ReduceKernel) {
    let acc = Ty::Value(k.acc);
    for (w, name) in [(0, "n_out"), (1, "n_red"), (4, "chunk"), (5, "n_chunks")] {
        let value = p.word(format!("{w}u"));
        p.let_(name, Ty::U32, value);
    }
    let outs = k.outputs.len();
    p.scalars(&k.scalars, &format!("{}u", 11 + 3 * outs));
    p.let_(
        "spans",
        Ty::U32,
        format!("(n_out + {}u) / {COLUMN_OUTPUTS}u", COLUMN_OUTPUTS - 1),
    );
    p.grid_loop("w", "spans * n_chunks");
    p.let_("o", Ty::U32, format!("(w % spans) * {COLUMN_OUTPUTS}u"));
    p.let_("c", Ty::U32, "w / spans");
    p.let_("lo", Ty::U32, "c * chunk");
    p.let_("hi", Ty::U32, "min(n_red, lo + chunk)");
    let size = k.input.size();
    p.let_("ib", Ty::U32, format!("{} + o * {size}u", p.word("8u")));
    p.let_("rs", Ty::U32, format!("{} * {size}u", p.word("10u")));
    // The fours this invocation has (the last group may have fewer).
    p.let_(
        "fours",
        Ty::U32,
        format!("min({QUADS}u, (n_out - o) / {QUAD}u)"),
    );
    let zero = p.d.constant(k.acc, 0.0);
    for g in 0..QUADS {
        for q in 0..QUAD {
            p.var(&format!("a{g}_{q}"), acc, &zero);
        }
    }
    // Fours past `fours` read the last four (inside the row) into sums that are never stored,
    // so that no load is conditional (lavapipe masks a conditional block's every update: 4096²
    // 11.5 -> 9.5 ms). Two rows a step, added before the sums, spill registers: 14 ms.
    p.for_up("j", "lo", "hi");
    for g in 0..QUADS {
        let at = format!("ib + j * rs + 16u * min({g}u, fours - 1u)");
        let v = p.d.load4(0, k.input, &at);
        let line = p.d.let_inferred(&format!("v4_{g}"), &v);
        p.line(line);
        per_component(p, k.input, &k.pre, &format!("v4_{g}"), |q, value| {
            format!("a{g}_{q} = a{g}_{q} + {value};")
        });
    }
    p.close();
    for g in 0..QUADS {
        p.if_(format!("{g}u < fours"));
        for q in 0..QUAD {
            p.open("");
            p.let_("x0", acc, format!("{zero} + a{g}_{q}"));
            for (r, (dtype, e)) in k.outputs.iter().enumerate() {
                let base = 11 + 3 * r;
                let at = format!(
                    "{} + ((o + {}u) * {} + c * {}) * {}u",
                    p.word(format!("{base}u")),
                    QUAD * g + q,
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
