//! The software device's GEMM: one subgroup per group, rows of `a` shared by broadcast.
//!
//! Lavapipe runs a group `LANES` invocations at a time as the lanes of SIMD registers, and
//! every load, even one all lanes make from the same address, is a loop over the lanes with
//! a bounds check per element: loads, not arithmetic, bound the product (1024³ float32 on 2
//! cores: 17 ms with the loads taken out, 110 ms with the 8×8 blocks of `direct_product`).
//! So the group's lanes share the tile's rows: all `ROWS` rows of a `ROWS` × `LANES * COLS`
//! tile, each lane `COLS` columns of it. Every lane loads `ROWS / LANES` rows' worth of `a`
//! and its own columns of `b`, and takes each row's values from the lane that loaded them by
//! a subgroup broadcast, a register move: `COLS` + `ROWS / LANES` loaded elements per lane
//! for every `ROWS * COLS` products, against 16 per 64 before (1024³: 110 -> 46 ms; 16 rows
//! 52 ms, 64 rows or 8 columns spill, 60-75 ms). Operands of any layout and inner size
//! qualify: those `DirectGemm` describes are read 16 bytes per load, others an element per
//! load.

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
/// each lane `t` accumulates rows `row0..row0 + ROWS` of columns `col0 + COLS t ..`, four
/// steps of `kk` at a time (their products summed, then added to the accumulator) and then
/// the last few one at a time. Operands of the layouts of `k.direct` are read 16 bytes per
/// load, others an element per load (which costs lavapipe 10-25% more: it loads a vector's
/// elements one by one all the same, but computes each element's address). Rows and columns
/// past the matrices are clamped inside them for loading, so that every lane stays active for
/// the broadcasts; their outputs are dropped.
pub(super) fn lanes_product(
    p: &mut Printer,
    k: &GemmKernel,
    out_base: usize,
    alpha_word: usize,
    beta_word: usize,
) {
    let acc = Ty::Value(k.acc);
    output_words(p, k, out_base, alpha_word, beta_word);
    p.let_("j0", Ty::U32, format!("col0 + t * {COLS}u"));
    match k.direct {
        Some(d) => vector_addresses(p, d),
        None => element_addresses(p, k),
    }
    let zero = p.d.constant(k.acc, 0.0);
    for i in 0..ROWS {
        for c in 0..COLS {
            p.var(&format!("c{i}_{c}"), acc, &zero);
        }
    }
    p.let_("k_fours", Ty::U32, "k_begin + ((k_end - k_begin) & ~3u)");
    p.for_("kk", "k_begin", "kk < k_fours", "kk += 4u");
    match k.direct {
        Some(d) => vector_steps(p, k, d),
        None => element_steps(p, k, 4),
    }
    p.close();
    if k.direct.is_none() {
        p.for_("kk", "k_fours", "kk < k_end", "kk += 1u");
        element_steps(p, k, 1);
        p.close();
    }
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

/// Byte addresses at `kk = 0` of the rows of `a` this lane loads (row `row0 + LANES h + t`
/// for each h, as `ra{h}`) and of its columns of `b` (`cb{c}`), and the bytes per step of
/// `kk` along each (`a_step`, `b_step`).
fn element_addresses(p: &mut Printer, k: &GemmKernel) {
    let isz = k.input.size();
    let (a_off, a_sb, a_sm, a_sk) = (p.word("6u"), p.word("7u"), p.word("8u"), p.word("9u"));
    let (b_off, b_sb, b_sk, b_sn) = (p.word("10u"), p.word("11u"), p.word("12u"), p.word("13u"));
    p.let_("a_step", Ty::U32, format!("{a_sk} * {isz}u"));
    p.let_("b_step", Ty::U32, format!("{b_sk} * {isz}u"));
    for h in 0..ROWS / LANES {
        let row = format!("min(row0 + {}u + t, m - 1u)", h * LANES);
        let at = format!("{a_off} + (b * {a_sb} + {row} * {a_sm}) * {isz}u");
        p.let_(&format!("ra{h}"), Ty::U32, at);
    }
    for c in 0..COLS {
        let col = format!("min(j0 + {c}u, n - 1u)");
        let at = format!("{b_off} + (b * {b_sb} + {col} * {b_sn}) * {isz}u");
        p.let_(&format!("cb{c}"), Ty::U32, at);
    }
}

/// Steps `kk .. kk + count` with an element per load: this lane's elements of `a` and `b`,
/// then the products.
fn element_steps(p: &mut Printer, k: &GemmKernel, count: u32) {
    let acc = Ty::Value(k.acc);
    let element = |p: &mut Printer, t: usize, base: &str, step: &str, q: u32| {
        let at = format!("{base} + (kk + {q}u) * {step}");
        p.d.convert(&format!("ld{t}({at})"), k.input, k.acc)
    };
    for h in 0..ROWS / LANES {
        for q in 0..count {
            let value = element(p, 0, &format!("ra{h}"), "a_step", q);
            p.let_(&format!("va{h}_{q}"), acc, value);
        }
    }
    for q in 0..count {
        for c in 0..COLS {
            let value = element(p, 1, &format!("cb{c}"), "b_step", q);
            p.let_(&format!("b{q}_{c}"), acc, value);
        }
    }
    multiply(p, k, count, |_, i, q| {
        (format!("va{}_{q}", i / LANES), i % LANES)
    });
}

/// [`element_addresses`] for 16-byte loads (float32): along k, rows `row0 + LANES h + t`;
/// along m, the four rows from `row0 + 4 (t / 4 + 2 h)` at `kk + t % 4`; `b` along n, one
/// address, along k one per column.
fn vector_addresses(p: &mut Printer, d: DirectGemm) {
    let (a_off, a_sb, a_sm, a_sk) = (p.word("6u"), p.word("7u"), p.word("8u"), p.word("9u"));
    let (b_off, b_sb, _, b_sn) = (p.word("10u"), p.word("11u"), p.word("12u"), p.word("13u"));
    for h in 0..ROWS / LANES {
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
    for c in 0..if d.b_along_k { COLS } else { 1 } {
        let col = if d.b_along_k {
            format!("min(j0 + {c}u, n - 1u)")
        } else {
            "min(j0, (n - 1u) & ~3u)".to_string()
        };
        let at = format!("{b_off} + (b * {b_sb} + {col} * {b_sn}) * 4u");
        p.let_(&format!("cb{c}"), Ty::U32, at);
    }
}

/// Steps `kk .. kk + 4` with 16-byte loads (see [`vector_addresses`]).
fn vector_steps(p: &mut Printer, k: &GemmKernel, d: DirectGemm) {
    let acc = Ty::Value(k.acc);
    let (a_sk, b_sk) = (p.word("9u"), p.word("12u"));
    for h in 0..ROWS / LANES {
        let at = if d.a_along_k {
            format!("ra{h} + kk * 4u")
        } else {
            format!("ra{h} + kk * {a_sk} * 4u")
        };
        let v = p.d.load4(0, k.acc, &at);
        p.line(p.d.let_inferred(&format!("va{h}"), &v));
    }
    // b{q}_{c} = b[kk + q, column c of this lane].
    for v in 0..COLS {
        let at = if d.b_along_k {
            format!("cb{v} + kk * 4u")
        } else {
            format!("cb0 + (kk + {v}u) * {b_sk} * 4u")
        };
        let value = p.d.load4(1, k.acc, &at);
        p.line(p.d.let_inferred(&format!("vb{v}"), &value));
        for l in 0..4 {
            let (q, c) = if d.b_along_k { (l, v) } else { (v, l) };
            let value = p.d.component(&format!("vb{v}"), l as usize);
            p.let_(&format!("b{q}_{c}"), acc, value);
        }
    }
    // Which lane loaded a[row i, kk + q], and where in its vector.
    multiply(p, k, 4, |p, i, q| {
        let (h, lane, component) = if d.a_along_k {
            (i / LANES, i % LANES, q)
        } else {
            let four = i / 4;
            (four / 2, q + 4 * (four % 2), i % 4)
        };
        (p.d.component(&format!("va{h}"), component as usize), lane)
    });
}

/// The products of `count` steps of `kk`, with `b{q}_{c}` in scope: row `i`'s element at step
/// `q` is `loaded(i, q)` of lane `lane`, taken from it by broadcast. Each accumulator takes
/// the sum of its `count` products in one addition: lavapipe keeps the accumulators in memory
/// and writes each under the loop's mask (a load, a blend and a store), so one write per four
/// products instead of four (1024³: 3% faster, and closer to the exact sum).
fn multiply(
    p: &mut Printer,
    k: &GemmKernel,
    count: u32,
    loaded: impl Fn(&Printer, u32, u32) -> (String, u32),
) {
    let acc = Ty::Value(k.acc);
    for i in 0..ROWS {
        for q in 0..count {
            let (value, lane) = loaded(p, i, q);
            let shared =
                p.d.builtin(Builtin::Broadcast, &[&value, &format!("{lane}u")]);
            p.let_(&format!("a{i}_{q}"), acc, shared);
        }
        for c in 0..COLS {
            let products: Vec<String> =
                (0..count).map(|q| format!("a{i}_{q} * b{q}_{c}")).collect();
            p.line(format!("c{i}_{c} = c{i}_{c} + ({});", products.join(" + ")));
        }
    }
}
