//! WGSL for random kernels: cuRAND's Philox4x32-10 and PyTorch's CUDA transforms.

use super::dtype::{compute_type, convert};
use super::expr;
use super::math::Helpers;
use super::patterns::{entry, scalar_load, strided_loop_after, WORKGROUP_SIZE};
use crate::dtype::DType;
use crate::kernels::pattern::{Distribution, Mapping, RandomKernel};
use crate::kernels::{Expr, Kernel, UnaryOp};

/// `philox(key, counter)`: ten rounds, 32x32->64 products from 16-bit halves.
const PHILOX: &str = "fn mulhi(a: u32, b: u32) -> u32 {
    let a0 = a & 0xffffu; let a1 = a >> 16u; let b0 = b & 0xffffu; let b1 = b >> 16u;
    let p01 = a0 * b1; let p10 = a1 * b0;
    let mid = ((a0 * b0) >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
    return a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);
}
fn philox(key: vec2<u32>, counter: vec4<u32>) -> vec4<u32> {
    var c = counter; var k = key;
    for (var r = 0u; r < 10u; r += 1u) {
        let hi0 = mulhi(0xD2511F53u, c.x); let lo0 = 0xD2511F53u * c.x;
        let hi1 = mulhi(0xCD9E8D57u, c.z); let lo1 = 0xCD9E8D57u * c.z;
        c = vec4<u32>(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
        k = k + vec2<u32>(0x9E3779B9u, 0xBB67AE85u);
    }
    return c;
}
";

/// Correctly rounded fused multiply-adds from float64 arithmetic (Boldo and Melquiond's
/// round-to-odd): error-free sums and products, the low parts added with rounding to odd, then
/// one rounding to nearest. `fma32` needs no split: a float32 product is exact in float64.
const FMA_F64: &str = "fn two_sum(a: f64, b: f64) -> vec2<f64> {
    let s = a + b; let bb = s - a;
    return vec2<f64>(s, (a - (s - bb)) + (b - bb));
}
fn round_to_odd(s: f64, e: f64) -> f64 {
    let bits = bitcast<u64>(s);
    if (e == 0.0lf || (bits & 1lu) == 1lu) { return s; }
    if ((e > 0.0lf) == (s > 0.0lf)) { return bitcast<f64>(bits + 1lu); }
    return bitcast<f64>(bits - 1lu);
}
fn split(a: f64) -> vec2<f64> {
    let t = 134217729.0lf * a; let hi = t - (t - a);
    return vec2<f64>(hi, a - hi);
}
fn fma64(a: f64, b: f64, c: f64) -> f64 {
    let p = a * b; let x = split(a); let y = split(b);
    let pl = ((x.x * y.x - p) + x.x * y.y + x.y * y.x) + x.y * y.y;
    let t = two_sum(c, p); let low = two_sum(t.y, pl);
    return t.x + round_to_odd(low.x, low.y);
}
fn fma32(a: f32, b: f32, c: f32) -> f32 {
    let t = two_sum(f64(a) * f64(b), f64(c));
    return f32(round_to_odd(t.x, t.y));
}
";

/// Random arguments: `[n, threads, seed_lo, seed_hi, block_lo, block_hi, nd, size[nd],
/// (offset, stride[nd]) per tensor, scalars]` where `block` is the generator offset / 4.
pub fn random(k: &RandomKernel, helpers: &mut Helpers) -> String {
    let dtypes = Kernel::Random(k.clone()).tensor_dtypes();
    let tensors = dtypes.len();
    let acc = if k.double || k.dtype == DType::F64 {
        DType::F64
    } else {
        DType::F32
    };
    let mut body = format!(
        "    let n = p[0];\n    let threads = p[1];\n    let nd = p[6];\n    let step = ng.x * {WORKGROUP_SIZE}u;\n    \
         let sc = 7u + nd + {tensors}u * (1u + nd);\n"
    );
    let mut word = 0;
    for (q, dtype) in k.scalars().iter().enumerate() {
        body += &format!(
            "    let s{q} = {};\n",
            scalar_load(*dtype, &format!("sc + {word}u"))
        );
        word += if dtype.size() == 8 { 2 } else { 1 };
    }
    body += &strided_loop_after(&dtypes, 5);
    // Subsequence `t`, block `kb` (past the generator's) and component `c`.
    body += &match k.mapping {
        Mapping::Grid { unroll } => format!(
            "        let t = i % threads;\n        let q = i / threads;\n        let kb = q / {unroll}u;\n        let c = q % {unroll}u;\n"
        ),
        Mapping::Quad => {
            "        let t = i / 4u;\n        let kb = 0u;\n        let c = i % 4u;\n".to_string()
        }
        Mapping::Vector { width } => {
            let (kb, c) = if width == 8 {
                ("2u * j + l / 4u", "l % 4u")
            } else {
                ("j", "l")
            };
            format!(
                "        let g = i / {width}u;\n        let t = g % threads;\n        let j = g / threads;\n        \
                 let l = i % {width}u;\n        let kb = {kb};\n        let c = {c};\n"
            )
        }
    };
    body +=
        "        let lo = p[4] + kb;\n        let hi = p[5] + select(0u, 1u, lo < kb);\n        \
             let x = philox(vec2<u32>(p[2], p[3]), vec4<u32>(lo, hi, t, 0u));\n";
    let address = |t: usize| format!("a{t}");
    let uniform = if acc == DType::F64 {
        "        let a = x[2u * c];\n        let b = x[2u * c + 1u];\n        \
         let u = f64(u64(a) ^ (u64(b) << 21u)) * 1.1102230246251565e-16lf + 5.551115123125783e-17lf;\n"
            .to_string()
    } else {
        "        let u = f32(x[c]) * 2.3283064e-10f + 1.1641532e-10f;\n".to_string()
    };
    let ty = compute_type(acc);
    // CUDA contracts `a * b + c` into an FMA; WGSL's fma() need not fuse (lavapipe's does
    // not), so where the device has float64 the fused result is computed exactly (FMA_F64).
    let fused = |a: &str, b: &str, c: &str| match acc {
        DType::F32 if helpers.f64 => format!("fma32({a}, {b}, {c})"),
        DType::F64 => format!("fma64({a}, {b}, {c})"),
        _ => format!("fma({a}, {b}, {c})"),
    };
    let (fma_uniform, fma_normal) = (fused("u", "s1", "s0"), fused("z", "s1", "s0"));
    // A normal's stored value: `mean + z * std`, or its exp for the log-normal.
    let (normal_let, normal_value) = if k.distribution == Distribution::LogNormal {
        let exp = expr::render(&Expr::input(2, acc).exp(), helpers);
        (format!("let x2 = {fma_normal};\n        "), exp)
    } else {
        (String::new(), fma_normal.clone())
    };
    let out = tensors - 1 - usize::from(k.distribution == Distribution::Dropout);
    body += &match k.distribution {
        Distribution::Uniform => format!(
            "{uniform}        let v = {};\n        st{out}({}, select(v, {}, v == s2));\n",
            convert(&fma_uniform, acc, k.dtype),
            address(out),
            convert("s0", acc, k.dtype),
        ),
        Distribution::Normal | Distribution::LogNormal if acc == DType::F64 => {
            let pair = "        let a = x[0]; let b = x[1]; let cc = x[2]; let dd = x[3];\n        \
                        let u = f64(u64(a) ^ (u64(b) << 21u)) * 1.1102230246251565e-16lf + 5.551115123125783e-17lf;\n        \
                        let w = f64(u64(cc) ^ (u64(dd) << 21u)) * 2.220446049250313e-16lf + 1.1102230246251565e-16lf;\n";
            let (u, w) = (Expr::input(0, DType::F64), Expr::input(1, DType::F64));
            let radius = (u.unary(UnaryOp::Log) * Expr::constant(DType::F64, -2.0))
                .unary(UnaryOp::Sqrt);
            let angle = w * Expr::constant(DType::F64, std::f64::consts::PI);
            let sin = radius.clone() * angle.clone().unary(UnaryOp::Sin);
            let cos = radius * angle.unary(UnaryOp::Cos);
            format!(
                "{pair}        let x0 = u;\n        let x1 = w;\n        let z = select({}, {}, c == 0u);\n        \
                 {normal_let}st{out}({}, {});\n",
                expr::render(&cos, helpers),
                expr::render(&sin, helpers),
                address(out),
                convert(&normal_value, acc, k.dtype),
            )
        }
        Distribution::Normal | Distribution::LogNormal => format!(
            "        let pr = c / 2u;\n        let u = f32(x[2u * pr]) * 2.3283064e-10f + 1.1641532e-10f;\n        \
             let w = f32(x[2u * pr + 1u]) * {two_pi:e}f + {half_two_pi:e}f;\n        \
             let radius = sqrt(-2.0f * log(u));\n        let z = select(radius * cos(w), radius * sin(w), c % 2u == 0u);\n        \
             {normal_let}st{out}({}, {});\n",
            address(out),
            convert(&normal_value, acc, k.dtype),
            two_pi = two_pi_over_2pow32(),
            half_two_pi = two_pi_over_2pow32() / 2.0,
        ),
        Distribution::Integer { wide } => {
            let draw = if wide {
                "(u64(x[2u * c]) << 32u) | u64(x[2u * c + 1u])"
            } else {
                "u64(x[c])"
            };
            format!(
                "        let d = {draw};\n        let range = bitcast<u64>(s1);\n        let v = i64(select(d % max(range, 1lu), d, range == 0lu)) + s0;\n        st{out}({}, {});\n",
                address(out),
                convert("v", DType::I64, k.dtype),
            )
        }
        Distribution::Exponential | Distribution::Geometric | Distribution::Cauchy => {
            let value = k.transform().expect("a one-uniform transform");
            format!(
                "{uniform}        let x0 = u;\n        st{out}({}, {});\n",
                address(out),
                convert(&expr::render(&value, helpers), acc, k.dtype),
            )
        }
        Distribution::BernoulliTensor { p } => format!(
            "        let u = f32(x[c]) * 2.3283064e-10f + 1.1641532e-10f;\n        st1(a1, {});\n",
            convert(
                &format!("{ty}(u) <= {}", convert("ld0(a0)", p, acc)),
                DType::Bool,
                k.dtype
            ),
        ),
        Distribution::Poisson => poisson(k.dtype),
        Distribution::IslandShuffle => island_shuffle(),
        Distribution::Bernoulli => format!(
            "{uniform}        st{out}({}, {});\n",
            address(out),
            convert("u < s0", DType::Bool, k.dtype),
        ),
        Distribution::Dropout => format!(
            "        let u = f32(x[c]) * 2.3283064e-10f + 1.1641532e-10f;\n        let keep = {ty}(u) < s0;\n        \
             st2({}, keep);\n        let xv = {};\n        st1({}, {});\n",
            address(2),
            convert(&format!("ld0({})", address(0)), k.dtype, acc),
            address(1),
            convert(&format!("xv * select({ty}(0), {ty}(1), keep) * s1"), acc, k.dtype),
        ),
    };
    body += "    }\n";
    let fma = if helpers.f64 { FMA_F64 } else { "" };
    let poisson = if k.distribution == Distribution::Poisson {
        LOG_FACTORIAL
    } else {
        ""
    };
    format!("{PHILOX}{fma}{poisson}{}", entry(&body))
}

/// `log(k!)`: summed below 10, Stirling's series (to 1/(360 n³)) above.
const LOG_FACTORIAL: &str = "fn log_factorial(k: f32) -> f32 {
    if (k < 10.0f) {
        var r = 0.0f;
        for (var j = 2.0f; j <= k; j += 1.0f) { r += log(j); }
        return r;
    }
    let n = k + 1.0f;
    return (n - 0.5f) * log(n) - n + 0.9189385f + 1.0f / (12.0f * n) - 1.0f / (360.0f * n * n * n);
}
";

/// The next 32-bit value of element `i`'s own Philox subsequence (cuRAND's `curand` after
/// `curand_init(seed, i, offset)`), into `name`.
fn next_draw(name: &str) -> String {
    format!(
        "                if (pc == 4u) {{ let lo = p[4] + pj; let hi = p[5] + select(0u, 1u, lo < pj); \
         y = philox(vec2<u32>(p[2], p[3]), vec4<u32>(lo, hi, i, 0u)); pj += 1u; pc = 0u; }}\n                \
         let {name} = y[pc]; pc += 1u;\n"
    )
}

/// The next float32 uniform of element `i`'s own Philox subsequence, into `name`.
fn next_uniform(name: &str) -> String {
    format!(
        "{}                let {name} = f32(draw_{name}) * 2.3283064e-10f + 1.1641532e-10f;\n",
        next_draw(&format!("draw_{name}"))
    )
}

/// randperm's run shuffle over contiguous int64 keys (tensor 0) and values (tensor 1).
fn island_shuffle() -> String {
    format!(
        "        let b0 = p[7u + nd]; let b1 = p[8u + 2u * nd];\n        \
         if (i + 1u >= n) {{ continue; }}\n        let key = ld0(b0 + i * 8u);\n        \
         if (ld0(b0 + (i + 1u) * 8u) != key) {{ continue; }}\n        \
         if (i != 0u && ld0(b0 + (i - 1u) * 8u) == key) {{ continue; }}\n        \
         var size = 1u;\n        loop {{ if (i + size >= n || ld0(b0 + (i + size) * 8u) != key) {{ break; }} size += 1u; }}\n        \
         var pj = 0u; var pc = 4u; var y = vec4<u32>(0u);\n        \
         for (var j = size - 1u; j > 0u; j -= 1u) {{\n{draw}                let r = v % (j + 1u);\n                \
         if (r != j) {{ let tmp = ld1(b1 + (i + j) * 8u); st1(b1 + (i + j) * 8u, ld1(b1 + (i + r) * 8u)); st1(b1 + (i + r) * 8u, tmp); }}\n        }}\n",
        draw = next_draw("v"),
    )
}

/// The Poisson body: input 0 holds the rates, tensor 1 receives the counts.
fn poisson(dtype: DType) -> String {
    format!(
        "        let lam = {rate};\n        var pj = 0u; var pc = 4u; var y = vec4<u32>(0u);\n        var k = 0.0f;\n        \
         if (lam < 10.0f) {{\n            let limit = exp(-lam);\n            var prod = 1.0f;\n            loop {{\n{u}                \
         prod = prod * u;\n                if (prod <= limit) {{ break; }}\n                k = k + 1.0f;\n            }}\n        }} else {{\n            \
         let slam = sqrt(lam); let loglam = log(lam);\n            let b = 0.931f + 2.53f * slam; let a = -0.059f + 0.02483f * b;\n            \
         let inv_alpha = 1.1239f + 1.1328f / (b - 3.4f); let vr = 0.9277f - 3.6224f / (b - 2.0f);\n            loop {{\n{u0}{v}                \
         let uu = u0 - 0.5f; let us = 0.5f - abs(uu);\n                k = floor((2.0f * a / us + b) * uu + lam + 0.43f);\n                \
         if (us >= 0.07f && v <= vr) {{ break; }}\n                if (k < 0.0f || (us < 0.013f && v > us)) {{ continue; }}\n                \
         if (log(v) + log(inv_alpha) - log(a / (us * us) + b) <= -lam + k * loglam - log_factorial(k)) {{ break; }}\n            }}\n        }}\n        \
         st1(a1, {count});\n",
        rate = convert("ld0(a0)", dtype, DType::F32),
        u = next_uniform("u"),
        u0 = next_uniform("u0"),
        v = next_uniform("v"),
        count = convert("k", DType::F32, dtype),
    )
}

/// CURAND_2POW32_INV_2PI: 2^-32 times 2π, as the float32 product cuRAND computes.
pub fn two_pi_over_2pow32() -> f32 {
    2.328_306_4e-10_f32 * 6.283_185_5_f32
}
