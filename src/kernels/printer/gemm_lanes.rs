//! The software device's GEMM: one subgroup per group, rows of `a` shared by broadcast.
//!
//! Lavapipe runs a group `LANES` invocations at a time as the lanes of SIMD registers, and
//! every load, even one all lanes make from the same address, is a loop over the lanes with
//! a bounds check per element: loads, not arithmetic, bound the product (1024³ float32 on 2
//! cores: 17 ms with the loads taken out, 110 ms with the 8×8 blocks of `direct_product`).
//! So the group's lanes share the tile's rows: all `ROWS` rows of a `ROWS` × `LANES * COLS`
//! tile, each lane `COLS` columns of it. Every lane loads `ROWS / LANES` rows' worth of `a`
//! (16-byte loads) and its own columns of `b`, and takes each row's values from the lane
//! that loaded them by a subgroup broadcast, a register move: `COLS` + `ROWS / LANES`
//! loaded elements per lane for every `ROWS * COLS` products, against 16 per 64 before
//! (1024³: 110 -> 46 ms; 16 rows 52 ms, 64 rows or 8 columns spill, 60-75 ms).

use super::gemm::{output_words, store_output};
use super::{Builtin, Printer, Ty};
use crate::kernels::pattern::{DirectGemm, GemmKernel};

/// Invocations per group: one subgroup (lavapipe's SIMD width on AVX2; the device takes this
/// kernel only where subgroups are at least this wide).
pub const LANES: u32 = 8;
/// Rows of the tile; every lane computes all of them.
const ROWS: u32 = 32;
/// Columns each lane computes.
const COLS: u32 = 4;
/// Rows and columns of a group's tile.
pub const TILE: (u32, u32) = (ROWS, LANES * COLS);

/// The product of the current tile, inside the loop over tiles (see the module comment):
/// each lane `t` accumulates rows `row0..row0 + ROWS` of columns `col0 + COLS t ..` in the
/// order of `kk` (as `tile_product`), four steps of `kk` per load. Rows and columns past the
/// matrices are clamped inside them for loading, so that every lane stays active for the
/// broadcasts; their outputs are dropped.
pub(super) fn lanes_product(
    p: &mut Printer,
    k: &GemmKernel,
    d: DirectGemm,
    out_base: usize,
    alpha_word: usize,
    beta_word: usize,
) {
    let acc_dtype = k.acc;
    let acc = Ty::Value(acc_dtype);
    output_words(p, k, out_base, alpha_word, beta_word);
    let (a_off, a_sb, a_sm, a_sk) = (p.word("6u"), p.word("7u"), p.word("8u"), p.word("9u"));
    let (b_off, b_sb, b_sk, b_sn) = (p.word("10u"), p.word("11u"), p.word("12u"), p.word("13u"));
    p.let_("j0", Ty::U32, format!("col0 + t * {COLS}u"));
    // The rows of `a` this lane loads, as byte addresses at `kk = 0`: along k, row
    // `row0 + LANES h + t` for each h; along m, the four rows from `row0 + 4 (t / 4 + 2 h)` at
    // `kk + t % 4`.
    let loads = ROWS / LANES;
    for h in 0..loads {
        let (row, lane_k) = if d.a_along_k {
            (
                format!("min(row0 + {}u + t, m - 1u)", h * LANES),
                String::new(),
            )
        } else {
            (
                format!("min(row0 + 4u * (t / 4u + {}u), (m - 1u) & ~3u)", 2 * h),
                format!(" + (t % 4u) * {a_sk} * 4u"),
            )
        };
        let at = format!("{a_off} + (b * {a_sb} + {row} * {a_sm}) * 4u{lane_k}");
        p.let_(&format!("ra{h}"), Ty::U32, at);
    }
    // This lane's columns of `b` at `kk = 0`: along n one address, along k one per column.
    let columns = if d.b_along_k { COLS } else { 1 };
    for c in 0..columns {
        let col = if d.b_along_k {
            format!("min(j0 + {c}u, n - 1u)")
        } else {
            "min(j0, (n - 1u) & ~3u)".to_string()
        };
        let at = format!("{b_off} + (b * {b_sb} + {col} * {b_sn}) * 4u");
        p.let_(&format!("cb{c}"), Ty::U32, at);
    }
    let zero = p.d.constant(acc_dtype, 0.0);
    for i in 0..ROWS {
        for c in 0..COLS {
            p.var(&format!("c{i}_{c}"), acc, &zero);
        }
    }
    p.for_("kk", "k_begin", "kk < k_end", "kk += 4u");
    for h in 0..loads {
        let at = if d.a_along_k {
            format!("ra{h} + kk * 4u")
        } else {
            format!("ra{h} + kk * {a_sk} * 4u")
        };
        let v = p.d.load4(0, acc_dtype, &at);
        p.line(p.d.let_inferred(&format!("va{h}"), &v));
    }
    // b{q}_{c} = b[kk + q, column c of this lane].
    for v in 0..COLS {
        let at = if d.b_along_k {
            format!("cb{v} + kk * 4u")
        } else {
            format!("cb0 + (kk + {v}u) * {b_sk} * 4u")
        };
        let value = p.d.load4(1, acc_dtype, &at);
        p.line(p.d.let_inferred(&format!("vb{v}"), &value));
        for l in 0..4 {
            let (q, c) = if d.b_along_k { (l, v) } else { (v, l) };
            let value = p.d.component(&format!("vb{v}"), l as usize);
            p.let_(&format!("b{q}_{c}"), acc, value);
        }
    }
    for q in 0..4 {
        for i in 0..ROWS {
            // Which lane loaded a[row i, kk + q], and where in its vector.
            let (h, lane, component) = if d.a_along_k {
                (i / LANES, i % LANES, q)
            } else {
                let four = i / 4;
                (four / 2, q + 4 * (four % 2), i % 4)
            };
            let value = p.d.component(&format!("va{h}"), component as usize);
            let shared =
                p.d.builtin(Builtin::Broadcast, &[&value, &format!("{lane}u")]);
            p.let_(&format!("a{i}_{q}"), acc, shared);
            for c in 0..COLS {
                p.line(format!("c{i}_{c} = c{i}_{c} + a{i}_{q} * b{q}_{c};"));
            }
        }
    }
    p.close();
    for i in 0..ROWS {
        p.let_(&format!("out_row{i}"), Ty::U32, format!("row0 + {i}u"));
        for c in 0..COLS {
            store_output(
                p,
                k,
                &format!("out_row{i}"),
                &format!("j0 + {c}u"),
                &format!("c{i}_{c}"),
            );
        }
    }
}
