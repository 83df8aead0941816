//! The direct convolution: one invocation per run of neighbouring output elements of a
//! product with few rows per group (depthwise convolutions), each summing `a[row, kk] *
//! b[kk, col]` over its slice of `kk` in order, as the implicit GEMM does (so both give the
//! same sums). The launch words are read once, and the coordinates of the walked operand
//! (taps, or positions for the weight gradient) are stepped with carries instead of divided
//! out at each `kk`: on a CPU an integer division is a scalar instruction per lane, and the
//! divisions and word reads of each tap were most of the kernel's time.

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

/// Neighbouring output columns one invocation computes in `pass`: the dense operand's
/// element and the walked coordinates serve all of them. Eight positions (forward and input
/// gradient), but four taps for the weight gradient, whose rows are a kernel's few taps
/// (measured, depthwise 3x3 96@56: forward 8.3 -> 6.3 ms and input gradient 8.2 -> 5.8 ms
/// from four to eight; the weight gradient 5.2 -> 9.3 ms).
pub fn outputs(pass: ConvPass) -> u32 {
    match pass {
        ConvPass::Weight => 4,
        ConvPass::Gather | ConvPass::Transposed => 8,
    }
}

/// The body of a direct convolution kernel, after `put` is defined: work item `i` is columns
/// `[outputs * (i % runs), ..)` of row `(i / runs) % m` of batch entry `i / runs / m`.
pub fn direct(p: &mut Printer, k: &ConvKernel) {
    let isz = k.input.size();
    let outputs = outputs(k.pass);
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
    p.let_("m", Ty::U32, "dims[0]");
    p.let_("n", Ty::U32, "dims[1]");
    p.let_(
        "runs",
        Ty::U32,
        format!("(n + {}u) / {outputs}u", outputs - 1),
    );
    p.grid_loop("i", "dims[3] * m * runs");
    p.let_("col", Ty::U32, format!("(i % runs) * {outputs}u"));
    p.let_("row", Ty::U32, "(i / runs) % m");
    p.let_("b", Ty::U32, "i / runs / m");
    p.let_("grp", Ty::U32, "b / splits");
    p.let_("k_begin", Ty::U32, "(b % splits) * chunk");
    p.let_("k_end", Ty::U32, "min(dims[2], k_begin + chunk)");
    // The dense operand's column `kk` as `(kk / split, kk % split)`, stepped with `kk`.
    p.var("a_q", Ty::U32, "k_begin / a_split");
    p.var("a_r", Ty::U32, "k_begin % a_split");
    p.let_("a_base", Ty::U32, "grp * a_group + row * a_row");
    // The tap's channel and kernel offsets and the position's batch element and spatial
    // coordinates: one of them is the column (each output's own, named with its number),
    // the other walks with `kk`.
    let taps = Walk::TAPS;
    let positions = Walk::POSITIONS;
    let (fixed, walked) = match k.pass {
        ConvPass::Weight => (taps, positions),
        ConvPass::Gather | ConvPass::Transposed => (positions, taps),
    };
    walked.split(p, "k_begin", "");
    fixed.split(p, "col", "_0");
    for l in 1..outputs {
        for digit in fixed.digits {
            p.var(
                &format!("{digit}_{l}"),
                Ty::U32,
                format!("{digit}_{}", l - 1),
            );
        }
        fixed.step(p, &format!("_{l}"));
    }
    let zero = p.d.constant(k.acc, 0.0);
    for l in 0..outputs {
        p.var(&format!("c{l}"), Ty::Value(k.acc), zero.clone());
    }
    p.for_up("kk", "k_begin", "k_end");
    let a = p.d.convert(
        &format!("ld0(a_at + (a_base + a_q * a_hi + a_r * a_lo) * {isz}u)"),
        k.input,
        k.acc,
    );
    p.let_("av", Ty::Value(k.acc), a);
    for l in 0..outputs {
        let (tap, pos) = match k.pass {
            ConvPass::Weight => (format!("_{l}"), String::new()),
            ConvPass::Gather | ConvPass::Transposed => (String::new(), format!("_{l}")),
        };
        p.open("");
        // Columns past the last take nothing (their coordinates lie outside the operands).
        p.var("inside", Ty::Bool, format!("col + {l}u < n"));
        p.var(
            "e",
            Ty::U32,
            format!("grp * x_group + bn{pos} * x_batch + ch{tap} * x_channel"),
        );
        for d in 0..3 {
            image_coordinate(p, k, d, &tap, &pos);
        }
        p.var("x", Ty::Value(k.acc), zero.clone());
        p.if_("inside");
        let x =
            p.d.convert(&format!("ld1(x_at + e * {isz}u)"), k.input, k.acc);
        p.line(format!("x = {x};"));
        p.close();
        p.line(format!("c{l} = c{l} + av * x;"));
        p.close();
    }
    carry(p, &["a_r", "a_q"], &["a_split"]);
    walked.step(p, "");
    p.close();
    for l in 0..outputs {
        p.line(format!("put(b, row, col + {l}u, c{l});"));
    }
    p.close();
}

/// The mixed-radix coordinates of a tap or a position: the outer one (channel or batch
/// element) and the spatial ones, innermost (width) first in `digits`, over the sizes
/// `{sizes}2, {sizes}1, {sizes}0`.
#[derive(Clone, Copy)]
struct Walk {
    digits: [&'static str; 4],
    per: &'static str,
    sizes: &'static str,
}

impl Walk {
    const TAPS: Walk = Walk {
        digits: ["o2", "o1", "o0", "ch"],
        per: "taps",
        sizes: "nz",
    };
    const POSITIONS: Walk = Walk {
        digits: ["p2", "p1", "p0", "bn"],
        per: "positions",
        sizes: "np",
    };

    /// Variables `{digit}{suffix}` holding the coordinates of `value`.
    fn split(&self, p: &mut Printer, value: &str, suffix: &str) {
        let outer = format!("{}{suffix}", self.digits[3]);
        let rest = format!("{outer}_rest");
        p.var(&outer, Ty::U32, format!("{value} / {}", self.per));
        p.var(&rest, Ty::U32, format!("{value} % {}", self.per));
        for (i, digit) in self.digits[..3].iter().enumerate() {
            let size = format!("{}{}", self.sizes, 2 - i);
            p.var(
                &format!("{digit}{suffix}"),
                Ty::U32,
                format!("{rest} % {size}"),
            );
            p.line(format!("{rest} = {rest} / {size};"));
        }
    }

    /// Steps the coordinates `{digit}{suffix}` to the next tap or position.
    fn step(&self, p: &mut Printer, suffix: &str) {
        let digits: Vec<String> = self.digits.iter().map(|d| format!("{d}{suffix}")).collect();
        let sizes: Vec<String> = (0..3).map(|i| format!("{}{}", self.sizes, 2 - i)).collect();
        let digits: Vec<&str> = digits.iter().map(String::as_str).collect();
        let sizes: Vec<&str> = sizes.iter().map(String::as_str).collect();
        carry(p, &digits, &sizes);
    }
}

/// Where spatial dimension `d` of the tap (coordinates named with `tap`) at the position
/// (named with `pos`) lands in the image: adds it to `e`, or clears `inside` in the padding
/// (or, transposed, off the stride's grid).
fn image_coordinate(p: &mut Printer, k: &ConvKernel, d: u32, tap: &str, pos: &str) {
    let (o, q) = (format!("o{d}{tap}"), format!("p{d}{pos}"));
    match k.pass {
        ConvPass::Gather | ConvPass::Weight => {
            p.let_(
                &format!("u{d}"),
                Ty::U32,
                format!("{q} * stride{d} + {o} * dil{d}"),
            );
            p.line(format!(
                "inside = inside && u{d} >= pad{d} && u{d} - pad{d} < nq{d};"
            ));
            p.line(format!("e += (u{d} - pad{d}) * xs{d};"));
        }
        ConvPass::Transposed => {
            p.let_(&format!("u{d}"), Ty::U32, format!("{q} + pad{d}"));
            p.let_(&format!("v{d}"), Ty::U32, format!("{o} * dil{d}"));
            p.var(&format!("r{d}"), Ty::U32, format!("u{d} - v{d}"));
            p.line(format!("inside = inside && u{d} >= v{d};"));
            // With unit strides (most) nothing divides: a division is a scalar instruction
            // per lane on a CPU, even in a branch no lane takes.
            if k.strided {
                p.line(format!("inside = inside && r{d} % stride{d} == 0u;"));
                p.line(format!("r{d} = r{d} / stride{d};"));
            }
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
