//! The portable GEMM skeleton (cuBLAS/cuBLASLt take over on NVIDIA GPUs): register-tiled.
//! A group of `GROUP_SIZE` (`SIDE` × `SIDE`) invocations computes a `TILE` × `TILE` block of outputs,
//! each invocation a `BLOCK` × `BLOCK` sub-block (rows `ty + SIDE i`, columns `tx + SIDE j`)
//! held in registers;
//! `K_STEP`-deep slices of `a` and `b` are staged through group memory, converted to the
//! accumulator type. Products too small to fill tiles take one invocation per output element
//! instead (`elements`), summing in the same order.

use super::{Printer, Ty, GROUP_SIZE};
use crate::dtype::DType;
use crate::kernels::pattern::{DirectGemm, GemmKernel};

/// Side of a group's output tile.
pub const TILE: u32 = 64;
/// Outputs per invocation along each side.
const BLOCK: u32 = 8;
/// Invocations along each side of the tile.
const SIDE: u32 = TILE / BLOCK;
/// Depth of the slices of `a` and `b` staged per step.
const K_STEP: u32 = 16;

/// GEMM arguments: `[m, n, k, batch, tiles_m, tiles_n, a_off, a_sb, a_sm, a_sk, b_off, b_sb,
/// b_sk, b_sn, (c_off, c_sb, c_sm, c_sn), out_off, out_sb, out_sm, out_sn, alpha, beta]`;
/// alpha and beta are in the accumulator dtype. One group per output tile at a time.
pub fn gemm(p: &mut Printer, k: &GemmKernel) {
    let acc = Ty::Value(k.acc);
    if k.direct.is_none() && !k.elements && !k.lanes {
        shared_tiles(p, acc);
    }
    p.uniform_words("dims", 6);
    let isz = k.input.size();
    // Element (row, col) of operand `t` whose words start at `base`, in the accumulator type.
    let load = |p: &mut Printer, t: usize, row: &str, col: &str, base: usize| {
        let at = format!(
            "{} + (b * {} + ({row}) * {} + ({col}) * {}) * {isz}u",
            p.word(format!("{base}u")),
            p.word(format!("{}u", base + 1)),
            p.word(format!("{}u", base + 2)),
            p.word(format!("{}u", base + 3)),
        );
        p.d.convert(&format!("ld{t}({at})"), k.input, k.acc)
    };
    let out_base = if k.with_c { 18 } else { 14 };
    let alpha_word = out_base + 4;
    let beta_word = alpha_word + if k.acc.size() == 8 { 2 } else { 1 };
    // Stores `alpha * v (+ beta * c)` at (b, row, col) when inside the output (the direct
    // product stores its own).
    if k.direct.is_none() && !k.lanes {
        put_function(p, k, &load, out_base, alpha_word, beta_word);
    }
    let load_a = |p: &mut Printer, row: &str, col: &str| load(p, 0, row, col, 6);
    let load_b = |p: &mut Printer, row: &str, col: &str| load(p, 1, row, col, 10);
    if k.elements && k.direct.is_none() {
        open_element_loop(p);
        p.let_("k_begin", Ty::U32, "0u");
        p.let_("k_end", Ty::U32, "dims[2]");
        element_product(p, k.acc, load_a, load_b);
        p.close();
        return;
    }
    let (rows, cols) = tile(k);
    open_tile_loop(p, rows, cols);
    p.let_("k_begin", Ty::U32, "0u");
    p.let_("k_end", Ty::U32, "dims[2]");
    if k.lanes {
        super::gemm_lanes::lanes_product(p, k, out_base, alpha_word, beta_word);
        p.close();
        return;
    }
    if let Some(direct) = k.direct {
        direct_product(p, k, direct, out_base, alpha_word, beta_word);
        p.close();
        return;
    }
    tile_product(p, k.acc, load_a, load_b);
    p.close();
}

/// Rows and columns of the output tile one group of `k`'s launch computes.
pub fn tile(k: &GemmKernel) -> (u32, u32) {
    if k.lanes {
        super::gemm_lanes::TILE
    } else {
        (TILE, TILE)
    }
}

/// Opens the loop over the launch's `rows` x `cols` tiles, with uniform words `dims` = `[m,
/// n, k, batch, tiles_m, tiles_n]`: `m`, `n`, the batch entry `b` and the tile's first row and
/// column.
pub(super) fn open_tile_loop(p: &mut Printer, rows: u32, cols: u32) {
    p.let_("m", Ty::U32, "dims[0]");
    p.let_("n", Ty::U32, "dims[1]");
    p.let_("tiles", Ty::U32, "dims[4] * dims[5]");
    p.for_("g", "group", "g < dims[3] * tiles", "g += groups");
    p.let_("b", Ty::U32, "g / tiles");
    p.let_(
        "row0",
        Ty::U32,
        format!("((g % tiles) / dims[5]) * {rows}u"),
    );
    p.let_(
        "col0",
        Ty::U32,
        format!("((g % tiles) % dims[5]) * {cols}u"),
    );
}

/// Opens the loop over the launch's output elements, one invocation each, with uniform words
/// `dims` = `[m, n, k, batch, ..]`: `m`, `n`, the batch entry `b`, `row` and `col`.
pub(super) fn open_element_loop(p: &mut Printer) {
    p.let_("m", Ty::U32, "dims[0]");
    p.let_("n", Ty::U32, "dims[1]");
    p.grid_loop("i", "dims[3] * m * n");
    p.let_("col", Ty::U32, "i % n");
    p.let_("row", Ty::U32, "(i / n) % m");
    p.let_("b", Ty::U32, "i / n / m");
}

/// The direct product of one output element, inside the element loop: with `row`, `col`,
/// `b`, `k_begin` and `k_end` in scope, accumulates `a[row, kk] * b[kk, col]` over `kk` in
/// order (as `tile_product` does, so both give the same sums) and hands it to `put`.
pub(super) fn element_product(
    p: &mut Printer,
    acc_dtype: DType,
    load_a: impl FnOnce(&mut Printer, &str, &str) -> String,
    load_b: impl FnOnce(&mut Printer, &str, &str) -> String,
) {
    let zero = p.d.constant(acc_dtype, 0.0);
    p.var("c", Ty::Value(acc_dtype), zero);
    p.for_up("kk", "k_begin", "k_end");
    let a = load_a(p, "row", "kk");
    p.let_("av", Ty::Value(acc_dtype), a);
    let b = load_b(p, "kk", "col");
    p.line(format!("c = c + av * {b};"));
    p.close();
    p.line("put(b, row, col, c);");
}

/// The group memory `tile_product` stages its slices through.
pub(super) fn shared_tiles(p: &mut Printer, acc: Ty) {
    let staged = TILE * K_STEP;
    p.shared("sa", acc, staged);
    p.shared("sb", acc, staged);
}

/// The register-tiled product of the current tile, inside the loop over tiles: with `m`, `n`,
/// `row0`, `col0`, `b`, `k_begin` and `k_end` in scope, accumulates `a[row, kk] * b[kk, col]`
/// over `kk` in `k_begin..k_end` and hands each output to `put(b, row, col, acc)`. The loads
/// print the element's value (in the accumulator type) and may print statements before it;
/// they run only inside the matrices.
pub(super) fn tile_product(
    p: &mut Printer,
    acc_dtype: DType,
    mut load_a: impl FnMut(&mut Printer, &str, &str) -> String,
    mut load_b: impl FnMut(&mut Printer, &str, &str) -> String,
) {
    let acc = Ty::Value(acc_dtype);
    let zero = p.d.constant(acc_dtype, 0.0);
    let staged = TILE * K_STEP;
    p.let_("ty", Ty::U32, format!("t / {SIDE}u"));
    p.let_("tx", Ty::U32, format!("t % {SIDE}u"));
    for i in 0..BLOCK {
        for j in 0..BLOCK {
            p.var(&format!("c{i}_{j}"), acc, &zero);
        }
    }
    p.for_("k0", "k_begin", "k0 < k_end", &format!("k0 += {K_STEP}u"));
    // Stage a[row0.., k0..] as sa[kk][r] and b[k0.., col0..] as sb[kk][c], each invocation
    // `staged / GROUP_SIZE` elements of each.
    p.for_(
        "e",
        "t",
        &format!("e < {staged}u"),
        &format!("e += {GROUP_SIZE}u"),
    );
    p.let_("r", Ty::U32, format!("e / {K_STEP}u"));
    p.let_("kk", Ty::U32, format!("e % {K_STEP}u"));
    p.var("v", acc, &zero);
    p.if_("row0 + r < m && k0 + kk < k_end");
    let a = load_a(p, "row0 + r", "k0 + kk");
    p.line(format!("v = {a};"));
    p.close();
    p.line(format!("sa[kk * {TILE}u + r] = v;"));
    p.let_("kb", Ty::U32, format!("e / {TILE}u"));
    p.let_("c", Ty::U32, format!("e % {TILE}u"));
    p.var("w", acc, &zero);
    p.if_("k0 + kb < k_end && col0 + c < n");
    let b = load_b(p, "k0 + kb", "col0 + c");
    p.line(format!("w = {b};"));
    p.close();
    p.line(format!("sb[kb * {TILE}u + c] = w;"));
    p.close();
    p.barrier();
    p.for_up("kk", "0u", &format!("{K_STEP}u"));
    for i in 0..BLOCK {
        p.let_(
            &format!("a{i}"),
            acc,
            format!("sa[kk * {TILE}u + ty + {}u]", i * SIDE),
        );
    }
    for j in 0..BLOCK {
        p.let_(
            &format!("b{j}"),
            acc,
            format!("sb[kk * {TILE}u + tx + {}u]", j * SIDE),
        );
    }
    for i in 0..BLOCK {
        for j in 0..BLOCK {
            p.line(format!("c{i}_{j} = c{i}_{j} + a{i} * b{j};"));
        }
    }
    p.close();
    p.barrier();
    p.close();
    for i in 0..BLOCK {
        for j in 0..BLOCK {
            p.line(format!(
                "put(b, row0 + ty + {}u, col0 + tx + {}u, c{i}_{j});",
                i * SIDE,
                j * SIDE
            ));
        }
    }
}

/// Rows and columns of the block each invocation of `direct_product` owns (multiples of 4).
const DIRECT_ROWS: u32 = 8;
const DIRECT_COLS: u32 = 8;

/// The barrier-free product of the current tile (see [`DirectGemm`]), inside the loop over
/// tiles: the group's invocations take `DIRECT_ROWS` × `DIRECT_COLS` blocks of it in turn and
/// accumulate each from 16-byte loads of `a` and `b`, four steps of `kk` per load, in the
/// order of `kk` (as `tile_product`). Rows and columns past the matrices are clamped inside
/// them for loading; `put` drops their outputs.
fn direct_product(
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
    let zero = p.d.constant(acc_dtype, 0.0);
    let (rows, cols) = (DIRECT_ROWS as usize, DIRECT_COLS as usize);
    let across = TILE / DIRECT_COLS;
    let blocks = (TILE / DIRECT_ROWS) * across;
    p.for_(
        "s",
        "t",
        &format!("s < {blocks}u"),
        &format!("s += {GROUP_SIZE}u"),
    );
    p.let_(
        "i0",
        Ty::U32,
        format!("row0 + (s / {across}u) * {DIRECT_ROWS}u"),
    );
    p.let_(
        "j0",
        Ty::U32,
        format!("col0 + (s % {across}u) * {DIRECT_COLS}u"),
    );
    p.if_("i0 < m && j0 < n");
    // Byte addresses of the rows of `a` (every row along k, every fourth along m) and of the
    // columns of `b` (every column along k, every fourth along n) at `kk = 0`.
    let (a_off, a_sb, a_sm, a_sk) = (p.word("6u"), p.word("7u"), p.word("8u"), p.word("9u"));
    let (b_off, b_sb, b_sk, b_sn) = (p.word("10u"), p.word("11u"), p.word("12u"), p.word("13u"));
    let a_step = if d.a_along_k { 1 } else { 4 };
    for i in (0..rows).step_by(a_step) {
        let row = if d.a_along_k {
            format!("min(i0 + {i}u, m - 1u)")
        } else {
            format!("min(i0 + {i}u, (m - 1u) & ~3u)")
        };
        let at = format!("{a_off} + (b * {a_sb} + {row} * {a_sm}) * 4u");
        p.let_(&format!("ra{i}"), Ty::U32, at);
    }
    let b_step = if d.b_along_k { 1 } else { 4 };
    for j in (0..cols).step_by(b_step) {
        let col = if d.b_along_k {
            format!("min(j0 + {j}u, n - 1u)")
        } else {
            format!("min(j0 + {j}u, (n - 1u) & ~3u)")
        };
        let at = format!("{b_off} + (b * {b_sb} + {col} * {b_sn}) * 4u");
        p.let_(&format!("cb{j}"), Ty::U32, at);
    }
    for i in 0..rows {
        for j in 0..cols {
            p.var(&format!("c{i}_{j}"), acc, &zero);
        }
    }
    p.for_("kk", "k_begin", "kk < k_end", "kk += 4u");
    // a{i}_{q} = a[row i, kk + q] and b{q}_{j} = b[kk + q, column j].
    for i in (0..rows).step_by(a_step) {
        if d.a_along_k {
            let v = p.d.load4(0, acc_dtype, &format!("ra{i} + kk * 4u"));
            p.line(p.d.let_inferred(&format!("va{i}"), &v));
            for q in 0..4 {
                let value = p.d.component(&format!("va{i}"), q);
                p.let_(&format!("a{i}_{q}"), acc, value);
            }
        } else {
            for q in 0..4 {
                let at = format!("ra{i} + (kk + {q}u) * {a_sk} * 4u");
                let v = p.d.load4(0, acc_dtype, &at);
                p.line(p.d.let_inferred(&format!("va{i}_{q}"), &v));
                for l in 0..4 {
                    let value = p.d.component(&format!("va{i}_{q}"), l);
                    p.let_(&format!("a{}_{q}", i + l), acc, value);
                }
            }
        }
    }
    for j in (0..cols).step_by(b_step) {
        if d.b_along_k {
            let v = p.d.load4(1, acc_dtype, &format!("cb{j} + kk * 4u"));
            p.line(p.d.let_inferred(&format!("vb{j}"), &v));
            for q in 0..4 {
                let value = p.d.component(&format!("vb{j}"), q);
                p.let_(&format!("b{q}_{j}"), acc, value);
            }
        } else {
            for q in 0..4 {
                let at = format!("cb{j} + (kk + {q}u) * {b_sk} * 4u");
                let v = p.d.load4(1, acc_dtype, &at);
                p.line(p.d.let_inferred(&format!("vb{j}_{q}"), &v));
                for l in 0..4 {
                    let value = p.d.component(&format!("vb{j}_{q}"), l);
                    p.let_(&format!("b{q}_{}", j + l), acc, value);
                }
            }
        }
    }
    for q in 0..4 {
        for i in 0..rows {
            for j in 0..cols {
                p.line(format!("c{i}_{j} = c{i}_{j} + a{i}_{q} * b{q}_{j};"));
            }
        }
    }
    p.close();
    for i in 0..rows {
        p.let_(&format!("out_row{i}"), Ty::U32, format!("i0 + {i}u"));
        for j in 0..cols {
            store_output(
                p,
                k,
                &format!("out_row{i}"),
                &format!("j0 + {j}u"),
                &format!("c{i}_{j}"),
            );
        }
    }
    p.close();
    p.close();
}

/// The output's words (`o_b`, `o_sm`, `o_sn` in bytes), `alpha`, and where `k` reads `c`, its
/// words (`c_b`, `c_sm`, `c_sn`) and `beta`, for [`store_output`]. Read once: every word read
/// is a load (a loop over the lanes on the software device), and the stores in between keep
/// the compiler from reusing them.
pub(super) fn output_words(
    p: &mut Printer,
    k: &GemmKernel,
    out_base: usize,
    alpha_word: usize,
    beta_word: usize,
) {
    let acc = Ty::Value(k.acc);
    let words = |p: &Printer, base: usize| -> [String; 4] {
        std::array::from_fn(|i| p.word(format!("{}u", base + i)))
    };
    let [o_off, o_sb, o_sm, o_sn] = words(p, out_base);
    let (osz, isz) = (k.output.size(), k.input.size());
    p.let_("o_b", Ty::U32, format!("{o_off} + b * {o_sb} * {osz}u"));
    p.let_("o_sm", Ty::U32, format!("{o_sm} * {osz}u"));
    p.let_("o_sn", Ty::U32, format!("{o_sn} * {osz}u"));
    let alpha = p.d.scalar(k.acc, &format!("{alpha_word}u"));
    p.let_("alpha", acc, alpha);
    if k.with_c {
        let [c_off, c_sb, c_sm, c_sn] = words(p, 14);
        p.let_("c_b", Ty::U32, format!("{c_off} + b * {c_sb} * {isz}u"));
        p.let_("c_sm", Ty::U32, format!("{c_sm} * {isz}u"));
        p.let_("c_sn", Ty::U32, format!("{c_sn} * {isz}u"));
        let beta = p.d.scalar(k.acc, &format!("{beta_word}u"));
        p.let_("beta", acc, beta);
    }
}

/// Stores `alpha * value (+ beta * c)` at (`row`, `col`) of the output when inside it, with
/// the names of [`output_words`] in scope; `row` is a name.
pub(super) fn store_output(p: &mut Printer, k: &GemmKernel, row: &str, col: &str, value: &str) {
    let acc = Ty::Value(k.acc);
    p.if_(format!("{row} < m && {col} < n"));
    p.var("v", acc, format!("alpha * {value}"));
    let at = |base: &str, sm: &str, sn: &str| format!("{base} + {row} * {sm} + ({col}) * {sn}");
    if k.with_c {
        let c = p.d.convert(
            &format!("ld2({})", at("c_b", "c_sm", "c_sn")),
            k.input,
            k.acc,
        );
        p.line(format!("v = v + beta * {c};"));
    }
    let stored = p.d.convert("v", k.acc, k.output);
    let out_t = if k.with_c { 3 } else { 2 };
    p.line(format!(
        "st{out_t}({}, {stored});",
        at("o_b", "o_sm", "o_sn")
    ));
    p.close();
}

/// The `put(b, row, col, acc)` helper of the tiled product: `alpha * acc (+ beta * c)` stored
/// at (b, row, col) when inside the output.
fn put_function(
    p: &mut Printer,
    k: &GemmKernel,
    load: &dyn Fn(&mut Printer, usize, &str, &str, usize) -> String,
    out_base: usize,
    alpha_word: usize,
    beta_word: usize,
) {
    let acc = Ty::Value(k.acc);
    let out_t = if k.with_c { 3 } else { 2 };
    p.function(
        "put",
        &[
            ("b", Ty::U32),
            ("row", Ty::U32),
            ("col", Ty::U32),
            ("acc", acc),
        ],
        None,
        |p| {
            p.if_(format!("row < {} && col < {}", p.word("0u"), p.word("1u")));
            let alpha = p.d.scalar(k.acc, &format!("{alpha_word}u"));
            p.var("v", acc, format!("{alpha} * acc"));
            if k.with_c {
                let beta = p.d.scalar(k.acc, &format!("{beta_word}u"));
                let c = load(p, 2, "row", "col", 14);
                p.line(format!("v = v + {beta} * {c};"));
            }
            let at = format!(
                "{} + (b * {} + row * {} + col * {}) * {}u",
                p.word(format!("{out_base}u")),
                p.word(format!("{}u", out_base + 1)),
                p.word(format!("{}u", out_base + 2)),
                p.word(format!("{}u", out_base + 3)),
                k.output.size()
            );
            let store = p.d.convert("v", k.acc, k.output);
            p.line(format!("st{out_t}({at}, {store});"));
            p.close();
        },
    );
}
