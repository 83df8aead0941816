//! Convolution as an implicit GEMM over the GEMM tiles: one operand is a dense matrix view
//! (the weights, or the output gradient), the other is gathered from the image at each tap
//! and position as the tiles are staged, so no unfolded (im2col) buffer exists. Spatial
//! dimensions are always three (depth, height, width; missing ones have size 1).

use super::gemm::{open_tile_loop, shared_tiles, tile_product};
use super::{Printer, Ty};
use crate::kernels::pattern::{ConvKernel, ConvPass};

/// The element index no source element has: a tap that lands in the padding.
const OUTSIDE: &str = "0xffffffffu";

/// Implicit-GEMM arguments, all u32:
/// - `[0..6)` (uniform) `m, n, k, batch, tiles_m, tiles_n`, where a batch entry is a group
///   and a slice of `k`: `batch = groups * splits`;
/// - `[6..8)` `splits, k_chunk`: entry `b` sums `k` in `[(b % splits) * k_chunk, ..)`;
/// - `[8..14)` the dense operand `a`: `offset, group, row, split, hi, lo`: element
///   `(row, col)` of group `g` is at `g * group + row * row + (col / split) * hi +
///   (col % split) * lo`;
/// - `[14..21)` the output, the same and `part`, the stride between splits' partial sums;
/// - `[21..28)` the image: `offset, group, batch, channel, depth, height, width` strides;
/// - `[28..48)` the geometry: position sizes `P[3]`, image sizes `Q[3]`, kernel sizes `Z[3]`,
///   `stride[3]`, `pad[3]`, `dilation[3]`, then the taps per channel (`Z` product) and the
///   positions per batch element (`P` product);
/// - `[48..50)` with a bias: its offset and stride. Rows of group `g` add bias element
///   `g * m + row`, in the partial sums of the first split only.
///
/// `b[tap, position]` (`b[position, tap]` for the weight pass), with `tap = channel * taps +
/// kernel offset` and `position = batch * positions + spatial position`, is the image element
/// at `position * stride - pad + offset * dilation` ([`ConvPass::Gather`], [`ConvPass::Weight`])
/// or at `(position + pad - offset * dilation) / stride` where that divides exactly
/// ([`ConvPass::Transposed`]), zero outside the image.
pub fn conv(p: &mut Printer, k: &ConvKernel) {
    let acc = Ty::Value(k.acc);
    if !k.direct {
        shared_tiles(p, acc);
    }
    p.uniform_words("dims", 6);
    let (isz, osz) = (k.input.size(), k.output.size());
    let dense = |p: &Printer, base: u32, row: &str, col: &str| {
        let w = |i: u32| p.word(format!("{}u", base + i));
        format!(
            "grp * {} + ({row}) * {} + (({col}) / {}) * {} + (({col}) % {}) * {}",
            w(1),
            w(2),
            w(3),
            w(4),
            w(3),
            w(5)
        )
    };
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
            p.let_("grp", Ty::U32, format!("b / {}", p.word("6u")));
            let at = format!(
                "{} + ((b % {}) * {} + {}) * {osz}u",
                p.word("14u"),
                p.word("6u"),
                p.word("20u"),
                dense(p, 14, "row", "col")
            );
            p.var("v", acc, "acc");
            if k.bias {
                p.if_(format!("b % {} == 0u", p.word("6u")));
                let at = format!(
                    "{} + (grp * {} + row) * {} * {isz}u",
                    p.word("48u"),
                    p.word("0u"),
                    p.word("49u")
                );
                let bias = p.d.convert(&format!("ld2({at})"), k.input, k.acc);
                p.line(format!("v = v + {bias};"));
                p.close();
            }
            let value = p.d.convert("v", k.acc, k.output);
            let out = if k.bias { 3 } else { 2 };
            p.line(format!("st{out}({at}, {value});"));
            p.close();
        },
    );
    if k.direct {
        super::conv_direct::direct(p, k);
        return;
    }
    p.function(
        "source",
        &[("tap", Ty::U32), ("pos", Ty::U32), ("grp", Ty::U32)],
        Some(Ty::U32),
        |p| source(p, k.pass),
    );
    open_tile_loop(p, super::gemm::TILE, super::gemm::TILE);
    p.let_("grp", Ty::U32, format!("b / {}", p.word("6u")));
    p.let_(
        "k_begin",
        Ty::U32,
        format!("(b % {}) * {}", p.word("6u"), p.word("7u")),
    );
    p.let_(
        "k_end",
        Ty::U32,
        format!("min(dims[2], k_begin + {})", p.word("7u")),
    );
    let pass = k.pass;
    let load_a = |p: &mut Printer, row: &str, col: &str| {
        let at = format!("{} + ({}) * {isz}u", p.word("8u"), dense(p, 8, row, col));
        p.d.convert(&format!("ld0({at})"), k.input, k.acc)
    };
    let load_b = |p: &mut Printer, row: &str, col: &str| {
        let (tap, pos) = match pass {
            ConvPass::Weight => (col, row),
            ConvPass::Gather | ConvPass::Transposed => (row, col),
        };
        p.let_("e_src", Ty::U32, format!("source({tap}, {pos}, grp)"));
        let zero = p.d.constant(k.acc, 0.0);
        let at = format!("{} + e_src * {isz}u", p.word("21u"));
        let value = p.d.convert(&format!("ld1({at})"), k.input, k.acc);
        p.var("x_src", Ty::Value(k.acc), zero);
        p.if_(format!("e_src != {OUTSIDE}"));
        p.line(format!("x_src = {value};"));
        p.close();
        "x_src".to_string()
    };
    tile_product(p, k.acc, load_a, load_b);
    p.close();
}

/// The body of `source(tap, pos, grp)`: the image element index of a tap at a position, or
/// `OUTSIDE`. The three spatial dimensions are unrolled, innermost first.
fn source(p: &mut Printer, pass: ConvPass) {
    let w = |p: &Printer, i: u32| p.word(format!("{i}u"));
    p.let_("ch", Ty::U32, format!("tap / {}", w(p, 46)));
    p.var("z", Ty::U32, format!("tap % {}", w(p, 46)));
    p.let_("bn", Ty::U32, format!("pos / {}", w(p, 47)));
    p.var("s", Ty::U32, format!("pos % {}", w(p, 47)));
    p.var(
        "e",
        Ty::U32,
        format!("grp * {} + bn * {} + ch * {}", w(p, 22), w(p, 23), w(p, 24)),
    );
    for d in (0..3u32).rev() {
        let (size_p, size_q, size_z) = (w(p, 28 + d), w(p, 31 + d), w(p, 34 + d));
        let (stride, pad, dil) = (w(p, 37 + d), w(p, 40 + d), w(p, 43 + d));
        p.let_(&format!("o{d}"), Ty::U32, format!("z % {size_z}"));
        p.line(format!("z = z / {size_z};"));
        p.let_(&format!("p{d}"), Ty::U32, format!("s % {size_p}"));
        p.line(format!("s = s / {size_p};"));
        match pass {
            ConvPass::Gather | ConvPass::Weight => {
                p.let_(
                    &format!("u{d}"),
                    Ty::U32,
                    format!("p{d} * {stride} + o{d} * {dil}"),
                );
                p.if_(format!("u{d} < {pad} || u{d} - {pad} >= {size_q}"));
                p.line(format!("return {OUTSIDE};"));
                p.close();
                p.line(format!("e += (u{d} - {pad}) * {};", w(p, 25 + d)));
            }
            ConvPass::Transposed => {
                p.let_(&format!("u{d}"), Ty::U32, format!("p{d} + {pad}"));
                p.let_(&format!("v{d}"), Ty::U32, format!("o{d} * {dil}"));
                p.if_(format!(
                    "u{d} < v{d} || (u{d} - v{d}) % {stride} != 0u || (u{d} - v{d}) / {stride} >= {size_q}"
                ));
                p.line(format!("return {OUTSIDE};"));
                p.close();
                p.line(format!(
                    "e += ((u{d} - v{d}) / {stride}) * {};",
                    w(p, 25 + d)
                ));
            }
        }
    }
    p.line("return e;");
}
