//! The direct convolution: one invocation per output element of a product with few rows per
//! group (depthwise convolutions), summing `a[row, kk] * b[kk, col]` over its slice of `kk`
//! in order, as the implicit GEMM does (so both give the same sums). The launch words are
//! read once, and the coordinates of the walked operand (taps, or positions for the weight
//! gradient) are stepped with carries instead of divided out at each `kk`: on a CPU an
//! integer division is a scalar instruction per lane, and the divisions and word reads
//! of each tap were most of the kernel's time.

use super::gemm::open_element_loop;
use super::{Printer, Ty};
use crate::kernels::pattern::{ConvKernel, ConvPass};

/// The words of the implicit GEMM's layout (see `conv::conv`) this kernel reads, by name.
const WORDS: [(&str, u32); 14] = [
    ("splits", 6),
    ("chunk", 7),
    ("a_at", 8),
    ("a_group", 9),
    ("a_row", 10),
    ("a_split", 11),
    ("a_hi", 12),
    ("a_lo", 13),
    ("x_at", 21),
    ("x_group", 22),
    ("x_batch", 23),
    ("x_channel", 24),
    ("taps", 46),
    ("positions", 47),
];

/// Per spatial dimension `d` (depth, height, width): the image stride, position, image and
/// kernel sizes, stride, padding and dilation, by name prefix and first word.
const SPATIAL: [(&str, u32); 7] = [
    ("xs", 25),
    ("np", 28),
    ("nq", 31),
    ("nz", 34),
    ("stride", 37),
    ("pad", 40),
    ("dil", 43),
];

/// The body of a direct convolution kernel, after `put` is defined.
pub fn direct(p: &mut Printer, k: &ConvKernel) {
    let isz = k.input.size();
    for (name, at) in WORDS {
        p.let_(name, Ty::U32, p.word(format!("{at}u")));
    }
    for d in 0..3 {
        for (name, at) in SPATIAL {
            p.let_(
                &format!("{name}{d}"),
                Ty::U32,
                p.word(format!("{}u", at + d)),
            );
        }
    }
    open_element_loop(p);
    p.let_("grp", Ty::U32, "b / splits");
    p.let_("k_begin", Ty::U32, "(b % splits) * chunk");
    p.let_("k_end", Ty::U32, "min(dims[2], k_begin + chunk)");
    // The dense operand's column `kk` as `(kk / split, kk % split)`, stepped with `kk`.
    p.var("a_q", Ty::U32, "k_begin / a_split");
    p.var("a_r", Ty::U32, "k_begin % a_split");
    p.let_("a_base", Ty::U32, "grp * a_group + row * a_row");
    // The tap's channel and kernel offsets, and the position's batch element and spatial
    // coordinates: one of them is the column, the other walks with `kk`.
    let (tap, pos) = match k.pass {
        ConvPass::Weight => ("col", "k_begin"),
        ConvPass::Gather | ConvPass::Transposed => ("k_begin", "col"),
    };
    split(p, tap, "taps", ["ch", "o0", "o1", "o2"], "nz");
    split(p, pos, "positions", ["bn", "p0", "p1", "p2"], "np");
    let zero = p.d.constant(k.acc, 0.0);
    p.var("c", Ty::Value(k.acc), zero.clone());
    p.for_up("kk", "k_begin", "k_end");
    let a = p.d.convert(
        &format!("ld0(a_at + (a_base + a_q * a_hi + a_r * a_lo) * {isz}u)"),
        k.input,
        k.acc,
    );
    p.let_("av", Ty::Value(k.acc), a);
    p.var("inside", Ty::Bool, "true");
    p.var(
        "e",
        Ty::U32,
        "grp * x_group + bn * x_batch + ch * x_channel",
    );
    for d in 0..3 {
        image_coordinate(p, k.pass, d);
    }
    p.var("x", Ty::Value(k.acc), zero);
    p.if_("inside");
    let x =
        p.d.convert(&format!("ld1(x_at + e * {isz}u)"), k.input, k.acc);
    p.line(format!("x = {x};"));
    p.close();
    p.line("c = c + av * x;");
    carry(p, &["a_r", "a_q"], &["a_split"]);
    match k.pass {
        ConvPass::Weight => carry(p, &["p2", "p1", "p0", "bn"], &["np2", "np1", "np0"]),
        ConvPass::Gather | ConvPass::Transposed => {
            carry(p, &["o2", "o1", "o0", "ch"], &["nz2", "nz1", "nz0"])
        }
    }
    p.close();
    p.line("put(b, row, col, c);");
    p.close();
}

/// `outer = value / per`, and the rest split innermost last over the sizes `{sizes}0..2`
/// into `names[1..4]` (variables, as one of the two walks).
fn split(p: &mut Printer, value: &str, per: &str, names: [&str; 4], sizes: &str) {
    p.var(names[0], Ty::U32, format!("{value} / {per}"));
    p.var(
        &format!("{}_rest", names[0]),
        Ty::U32,
        format!("{value} % {per}"),
    );
    let rest = format!("{}_rest", names[0]);
    for d in (0..3).rev() {
        p.var(names[1 + d], Ty::U32, format!("{rest} % {sizes}{d}"));
        p.line(format!("{rest} = {rest} / {sizes}{d};"));
    }
}

/// Where spatial dimension `d` of the tap at the position lands in the image: adds it to
/// `e`, or clears `inside` in the padding (or, transposed, off the stride's grid).
fn image_coordinate(p: &mut Printer, pass: ConvPass, d: u32) {
    match pass {
        ConvPass::Gather | ConvPass::Weight => {
            p.let_(
                &format!("u{d}"),
                Ty::U32,
                format!("p{d} * stride{d} + o{d} * dil{d}"),
            );
            p.line(format!(
                "inside = inside && u{d} >= pad{d} && u{d} - pad{d} < nq{d};"
            ));
            p.line(format!("e += (u{d} - pad{d}) * xs{d};"));
        }
        ConvPass::Transposed => {
            p.let_(&format!("u{d}"), Ty::U32, format!("p{d} + pad{d}"));
            p.let_(&format!("v{d}"), Ty::U32, format!("o{d} * dil{d}"));
            p.var(&format!("r{d}"), Ty::U32, format!("u{d} - v{d}"));
            p.line(format!("inside = inside && u{d} >= v{d};"));
            // Unit strides (most) divide nothing.
            p.if_(format!("stride{d} != 1u"));
            p.line(format!("inside = inside && r{d} % stride{d} == 0u;"));
            p.line(format!("r{d} = r{d} / stride{d};"));
            p.close();
            p.line(format!("inside = inside && r{d} < nq{d};"));
            p.line(format!("e += r{d} * xs{d};"));
        }
    }
}

/// Steps the mixed-radix counter `digits` (innermost first; the last is unbounded) by one,
/// each digit `i` below `sizes[i]`, with carries and no branches.
fn carry(p: &mut Printer, digits: &[&str], sizes: &[&str]) {
    p.line(format!("{} += 1u;", digits[0]));
    for (i, size) in sizes.iter().enumerate() {
        let (digit, next) = (digits[i], digits[i + 1]);
        p.open("");
        p.let_("up", Ty::U32, format!("u32({digit} == {size})"));
        p.line(format!("{digit} -= up * {size};"));
        p.line(format!("{next} += up;"));
        p.close();
    }
}
