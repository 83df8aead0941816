//! The random skeleton: cuRAND's Philox4x32-10 and PyTorch's CUDA transforms, so that a seed
//! and offset give the numbers CUDA gives.

use super::{Builtin, Printer, Ty};
use crate::dtype::DType;
use crate::kernels::pattern::{Distribution, Mapping, RandomKernel};
use crate::kernels::{Expr, Kernel, UnaryOp};

/// Random arguments: `[n, threads, seed_lo, seed_hi, block_lo, block_hi, nd, size[nd],
/// (offset, stride[nd]) per tensor, scalars]` where `block` is the generator offset / 4.
/// Element `i` (row-major) takes its subsequence, block and component from the mapping.
pub fn random(p: &mut Printer, k: &RandomKernel) {
    let dtypes = Kernel::Random(k.clone()).tensor_dtypes();
    let tensors = dtypes.len();
    let acc = k.acc();
    p.let_("n", Ty::U32, p.word("0u"));
    p.let_("threads", Ty::U32, p.word("1u"));
    p.let_("nd", Ty::U32, p.word("6u"));
    p.scalars(&k.scalars(), &format!("7u + nd + {tensors}u * (1u + nd)"));
    if k.distribution == Distribution::Poisson {
        log_factorial_fn(p);
    }
    p.strided_loop(&dtypes, "n", "6u", "7u + nd");
    // Subsequence `sub`, block `kb` (past the generator's) and component `c`.
    match k.mapping {
        Mapping::Grid { unroll } => {
            p.let_("sub", Ty::U32, "i % threads");
            p.let_("q", Ty::U32, "i / threads");
            p.let_("kb", Ty::U32, format!("q / {unroll}u"));
            p.let_("c", Ty::U32, format!("q % {unroll}u"));
        }
        Mapping::Quad => {
            p.let_("sub", Ty::U32, "i / 4u");
            p.let_("kb", Ty::U32, "0u");
            p.let_("c", Ty::U32, "i % 4u");
        }
        Mapping::Vector { width } => {
            p.let_("g", Ty::U32, format!("i / {width}u"));
            p.let_("sub", Ty::U32, "g % threads");
            p.let_("j", Ty::U32, "g / threads");
            p.let_("l", Ty::U32, format!("i % {width}u"));
            let (kb, c) = if width == 8 {
                ("2u * j + l / 4u", "l % 4u")
            } else {
                ("j", "l")
            };
            p.let_("kb", Ty::U32, kb);
            p.let_("c", Ty::U32, c);
        }
    }
    let x = p.d.local_array("x", Ty::U32, 4);
    p.line(x);
    philox(p, "x", "kb", "sub", 2);
    let out = tensors - 1 - usize::from(k.distribution == Distribution::Dropout);
    let ty = Ty::Value(acc);
    let uniform_c = uniform32("x[c]");
    let uniform = |p: &mut Printer| {
        if acc == DType::F64 {
            uniform64(p, "u", "x[2u * c]", "x[2u * c + 1u]", false)
        } else {
            p.let_("u", Ty::F32, &uniform_c);
        }
    };
    let fma = |p: &mut Printer, a: &str| p.d.builtin(Builtin::Fma(acc), &[a, "s1", "s0"]);
    match k.distribution {
        Distribution::Uniform => {
            uniform(p);
            let v = fma(p, "u");
            let v = p.d.convert(&v, acc, k.dtype);
            p.let_("v", Ty::Value(k.dtype), v);
            let from = p.d.convert("s0", acc, k.dtype);
            let folded = p.select("v == s2", &from, "v");
            p.line(format!("st{out}(a{out}, {folded});"));
        }
        Distribution::Normal | Distribution::LogNormal => {
            if acc == DType::F64 {
                uniform64(p, "u", "x[0]", "x[1]", false);
                uniform64(p, "w", "x[2]", "x[3]", true);
                p.let_("x0", ty, "u");
                let radius = Expr::input(0, acc)
                    .unary(UnaryOp::Log)
                    .with(crate::kernels::BinaryOp::Mul, -2.0)
                    .unary(UnaryOp::Sqrt);
                let radius = p.expr(&radius);
                p.let_("radius", ty, radius);
                let sin = p.d.builtin(Builtin::SinPiF64, &["w"]);
                let cos = p.d.builtin(Builtin::CosPiF64, &["w"]);
                p.let_(
                    "z",
                    ty,
                    format!("{} * radius", p.select("c == 0u", &sin, &cos)),
                );
            } else {
                p.let_("pr", Ty::U32, "c / 2u");
                p.let_("u", Ty::F32, uniform32("x[2u * pr]"));
                let step = two_pi_over_2pow32();
                p.let_(
                    "w",
                    Ty::F32,
                    format!("f32(x[2u * pr + 1u]) * {step:e}f + {:e}f", step / 2.0),
                );
                let log = p.d.builtin(Builtin::FastLogF32, &["u"]);
                p.let_("radius", Ty::F32, format!("sqrt(-2.0f * {log})"));
                let sin = p.d.builtin(Builtin::FastSinF32, &["w"]);
                let cos = p.d.builtin(Builtin::FastCosF32, &["w"]);
                p.let_(
                    "z",
                    Ty::F32,
                    format!("{} * radius", p.select("c % 2u == 0u", &sin, &cos)),
                );
            }
            let mut value = fma(p, "z");
            if k.distribution == Distribution::LogNormal {
                p.let_("x2", ty, value);
                value = p.expr(&Expr::input(2, acc).exp());
            }
            let value = p.d.convert(&value, acc, k.dtype);
            p.line(format!("st{out}(a{out}, {value});"));
        }
        Distribution::Integer { wide } => {
            let draw = if wide {
                "(u64(x[2u * c]) << 32u) | u64(x[2u * c + 1u])"
            } else {
                "u64(x[c])"
            };
            p.let_("d", Ty::U64, draw);
            p.let_("range", Ty::U64, "u64(s1)");
            let v = p.select("range == u64(0u)", "d", "d % max(range, u64(1u))");
            p.let_("v", Ty::I64, format!("i64({v}) + s0"));
            let v = p.d.convert("v", DType::I64, k.dtype);
            p.line(format!("st{out}(a{out}, {v});"));
        }
        Distribution::Exponential | Distribution::Geometric | Distribution::Cauchy => {
            uniform(p);
            p.let_("x0", ty, "u");
            if k.uses_log() {
                let log = if acc == DType::F32 {
                    p.d.builtin(Builtin::ApproxLogF32, &["u"])
                } else {
                    p.expr(&Expr::input(0, acc).unary(UnaryOp::Log))
                };
                p.let_("x1", ty, log);
            }
            let value = p.expr(&k.transform().expect("a one-uniform transform"));
            let value = p.d.convert(&value, acc, k.dtype);
            p.line(format!("st{out}(a{out}, {value});"));
        }
        Distribution::Bernoulli => {
            uniform(p);
            let value = p.d.convert("u < s0", DType::Bool, k.dtype);
            p.line(format!("st{out}(a{out}, {value});"));
        }
        Distribution::BernoulliTensor { p: prob } => {
            p.let_("u", Ty::F32, &uniform_c);
            let prob = p.d.convert("ld0(a0)", prob, acc);
            let hit = format!("{}(u) <= {prob}", p.d.ty(ty));
            let value = p.d.convert(&hit, DType::Bool, k.dtype);
            p.line(format!("st1(a1, {value});"));
        }
        Distribution::Dropout => {
            p.let_("u", Ty::F32, &uniform_c);
            p.let_("keep", Ty::Bool, format!("{}(u) < s0", p.d.ty(ty)));
            p.line("st2(a2, keep);");
            let x = p.d.convert("ld0(a0)", k.dtype, acc);
            p.let_("xv", ty, x);
            let (one, zero) = (p.d.constant(acc, 1.0), p.d.constant(acc, 0.0));
            let scaled = format!("xv * {} * s1", p.select("keep", &one, &zero));
            let value = p.d.convert(&scaled, acc, k.dtype);
            p.line(format!("st1(a1, {value});"));
        }
        Distribution::Poisson => poisson(p, k.dtype),
        Distribution::IslandShuffle => island_shuffle(p),
    }
    p.close();
}

/// A float64 uniform in (0, 1] from two draws, as cuRAND's `curand_uniform2_double` (`wide`:
/// the second of a pair, scaled to (0, 2]).
fn uniform64(p: &mut Printer, name: &str, a: &str, b: &str, wide: bool) {
    let (scale, shift) = if wide {
        (2.220446049250313e-16, 1.1102230246251565e-16)
    } else {
        (1.1102230246251565e-16, 5.551115123125783e-17)
    };
    let (scale, shift) = (
        p.d.constant(DType::F64, scale),
        p.d.constant(DType::F64, shift),
    );
    p.let_(
        name,
        Ty::F64,
        format!("f64(u64({a}) ^ (u64({b}) << 21u)) * {scale} + {shift}"),
    );
}

/// Fills the local array `out` with Philox4x32-10 of the generator's key (words `at` and
/// `at + 1`) at counter `(block offset (words `at + 2`, `at + 3`) + block, subsequence, 0)`.
pub(super) fn philox(p: &mut Printer, out: &str, block: &str, subsequence: &str, at: u32) {
    let w = |p: &Printer, i: u32| p.word(format!("{}u", at + i));
    p.open("");
    p.let_("lo", Ty::U32, format!("{} + {block}", w(p, 2)));
    let carry = p.select(&format!("lo < {block}"), "1u", "0u");
    let hi = format!("{} + {carry}", w(p, 3));
    let key = [w(p, 0), w(p, 1)];
    philox_rounds(p, out, ["lo", &hi, subsequence, "0u"], [&key[0], &key[1]]);
    p.close();
}

/// Fills the local array `out` with Philox4x32-10 of `key` at `counter` (u32 expressions),
/// in the enclosing block.
pub(super) fn philox_rounds(p: &mut Printer, out: &str, counter: [&str; 4], key: [&str; 2]) {
    for (c, value) in counter.iter().enumerate() {
        p.var(&format!("c{c}"), Ty::U32, *value);
    }
    p.var("k0", Ty::U32, key[0]);
    p.var("k1", Ty::U32, key[1]);
    p.for_up("round", "0u", "10u");
    let hi0 = p.d.builtin(Builtin::MulHi, &["0xD2511F53u", "c0"]);
    let hi1 = p.d.builtin(Builtin::MulHi, &["0xCD9E8D57u", "c2"]);
    p.let_("hi0", Ty::U32, hi0);
    p.let_("lo0", Ty::U32, "0xD2511F53u * c0");
    p.let_("hi1", Ty::U32, hi1);
    p.let_("lo1", Ty::U32, "0xCD9E8D57u * c2");
    p.line("c0 = hi1 ^ c1 ^ k0;");
    p.line("c1 = lo1;");
    p.line("c2 = hi0 ^ c3 ^ k1;");
    p.line("c3 = lo0;");
    p.line("k0 += 0x9E3779B9u;");
    p.line("k1 += 0xBB67AE85u;");
    p.close();
    for c in 0..4 {
        p.line(format!("{out}[{c}] = c{c};"));
    }
}

/// `let name` = the next 32-bit value of element `i`'s own Philox subsequence (cuRAND's
/// `curand` after `curand_init(seed, i, offset)`), from the state `y`, `pj`, `pc`.
fn next_draw(p: &mut Printer, name: &str) {
    p.if_("pc == 4u");
    philox(p, "y", "pj", "i", 2);
    p.line("pj += 1u;");
    p.line("pc = 0u;");
    p.close();
    p.let_(name, Ty::U32, "y[pc]");
    p.line("pc += 1u;");
}

/// The draw state of [`next_draw`].
fn draw_state(p: &mut Printer) {
    p.var("pj", Ty::U32, "0u");
    p.var("pc", Ty::U32, "4u");
    let y = p.d.local_array("y", Ty::U32, 4);
    p.line(y);
}

/// `let name` = the next float32 uniform of element `i`'s own Philox subsequence.
fn next_uniform(p: &mut Printer, name: &str) {
    let draw = format!("draw_{name}");
    next_draw(p, &draw);
    p.let_(name, Ty::F32, uniform32(&draw));
}

/// cuRAND's float32 uniform in (0, 1] of a 32-bit draw.
pub(super) fn uniform32(draw: &str) -> String {
    format!("f32({draw}) * 2.3283064e-10f + 1.1641532e-10f")
}

/// `log(k!)`: summed below 10, Stirling's series (to 1/(360 n³)) above.
fn log_factorial_fn(p: &mut Printer) {
    p.function("log_factorial", &[("k", Ty::F32)], Some(Ty::F32), |p| {
        p.if_("k < 10.0f");
        p.var("r", Ty::F32, "0.0f");
        p.var("j", Ty::F32, "2.0f");
        p.open("while (j <= k)");
        p.line("r += log(j);");
        p.line("j += 1.0f;");
        p.close();
        p.line("return r;");
        p.close();
        p.let_("m", Ty::F32, "k + 1.0f");
        p.line(
            "return (m - 0.5f) * log(m) - m + 0.9189385f + 1.0f / (12.0f * m) \
             - 1.0f / (360.0f * m * m * m);",
        );
    });
}

/// A Poisson count with the rate of input 0's element: multiplied uniforms below rate 10,
/// Hörmann's transformed rejection (PTRS) above; tensor 1 receives the counts.
fn poisson(p: &mut Printer, dtype: DType) {
    let rate = p.d.convert("ld0(a0)", dtype, DType::F32);
    p.let_("lam", Ty::F32, rate);
    draw_state(p);
    p.var("k", Ty::F32, "0.0f");
    p.if_("lam < 10.0f");
    p.let_("limit", Ty::F32, "exp(-lam)");
    p.var("prod", Ty::F32, "1.0f");
    p.open("while (true)");
    next_uniform(p, "u");
    p.line("prod = prod * u;");
    p.if_("prod <= limit");
    p.line("break;");
    p.close();
    p.line("k = k + 1.0f;");
    p.close();
    p.else_(None);
    p.let_("slam", Ty::F32, "sqrt(lam)");
    p.let_("loglam", Ty::F32, "log(lam)");
    p.let_("b", Ty::F32, "0.931f + 2.53f * slam");
    p.let_("a", Ty::F32, "-0.059f + 0.02483f * b");
    p.let_("inv_alpha", Ty::F32, "1.1239f + 1.1328f / (b - 3.4f)");
    p.let_("vr", Ty::F32, "0.9277f - 3.6224f / (b - 2.0f)");
    p.open("while (true)");
    next_uniform(p, "u0");
    next_uniform(p, "v");
    p.let_("uu", Ty::F32, "u0 - 0.5f");
    p.let_("us", Ty::F32, "0.5f - abs(uu)");
    p.line("k = floor((2.0f * a / us + b) * uu + lam + 0.43f);");
    p.if_("us >= 0.07f && v <= vr");
    p.line("break;");
    p.close();
    p.if_("k < 0.0f || (us < 0.013f && v > us)");
    p.line("continue;");
    p.close();
    p.if_(
        "log(v) + log(inv_alpha) - log(a / (us * us) + b) <= -lam + k * loglam - log_factorial(k)",
    );
    p.line("break;");
    p.close();
    p.close();
    p.close();
    let count = p.d.convert("k", DType::F32, dtype);
    p.line(format!("st1(a1, {count});"));
}

/// randperm's pass over runs of equal keys (contiguous int64 tensor 0): the invocation at the
/// start of a run shuffles the run's slice of tensor 1 (int64) with Fisher-Yates.
fn island_shuffle(p: &mut Printer) {
    p.let_("b0", Ty::U32, p.word("7u + nd"));
    p.let_("b1", Ty::U32, p.word("8u + 2u * nd"));
    p.if_("i + 1u >= n");
    p.line("continue;");
    p.close();
    p.let_("key", Ty::I64, "ld0(b0 + i * 8u)");
    p.if_("ld0(b0 + (i + 1u) * 8u) != key || (i != 0u && ld0(b0 + (i - 1u) * 8u) == key)");
    p.line("continue;");
    p.close();
    p.var("size", Ty::U32, "1u");
    p.open("while (i + size < n && ld0(b0 + (i + size) * 8u) == key)");
    p.line("size += 1u;");
    p.close();
    draw_state(p);
    p.for_("j", "size - 1u", "j > 0u", "j -= 1u");
    next_draw(p, "v");
    p.let_("r", Ty::U32, "v % (j + 1u)");
    p.if_("r != j");
    p.let_("tmp", Ty::I64, "ld1(b1 + (i + j) * 8u)");
    p.line("st1(b1 + (i + j) * 8u, ld1(b1 + (i + r) * 8u));");
    p.line("st1(b1 + (i + r) * 8u, tmp);");
    p.close();
    p.close();
}

/// CURAND_2POW32_INV_2PI: 2^-32 times 2π, as the float32 product cuRAND computes.
pub fn two_pi_over_2pow32() -> f32 {
    2.328_306_4e-10_f32 * 6.283_185_5_f32
}
