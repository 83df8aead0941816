//! CUDA C++ for random kernels (layout in `kernels::wgsl::random`), with cuRAND's arithmetic:
//! `__umulhi` products, `logf` and `__sincosf` for float normals, `sincospi` for doubles.

use super::expr::{compute_type, convert, render as expr};
use super::patterns::{scalar_load, GRID_STRIDE};
use crate::dtype::DType;
use crate::kernels::pattern::{Distribution, Mapping, RandomKernel};
use crate::kernels::wgsl::random::two_pi_over_2pow32;
use crate::kernels::Kernel;

const PHILOX: &str =
    "    auto philox = [](u32 k0, u32 k1, u32 c0, u32 c1, u32 c2, u32 c3, u32* out) {
        for (int r = 0; r < 10; ++r) {
            const u32 hi0 = __umulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
            const u32 hi1 = __umulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
            c0 = hi1 ^ c1 ^ k0; c1 = lo1; c2 = hi0 ^ c3 ^ k1; c3 = lo0;
            k0 += 0x9E3779B9u; k1 += 0xBB67AE85u;
        }
        out[0] = c0; out[1] = c1; out[2] = c2; out[3] = c3;
    };
";

pub fn random(k: &RandomKernel) -> String {
    let dtypes = Kernel::Random(k.clone()).tensor_dtypes();
    let tensors = dtypes.len();
    let acc = if k.double || k.dtype == DType::F64 {
        DType::F64
    } else {
        DType::F32
    };
    let ty = compute_type(acc);
    let mut body = String::from(PHILOX);
    body += &format!(
        "    const u32 n = p.w[0], threads = p.w[1], nd = p.w[6], sc = 7u + nd + {tensors}u * (1u + nd);\n"
    );
    let mut word = 0;
    for (q, dtype) in k.scalars().iter().enumerate() {
        body += &format!(
            "    const auto s{q} = {};\n",
            scalar_load(*dtype, &format!("sc + {word}"))
        );
        word += if dtype.size() == 8 { 2 } else { 1 };
    }
    body += &format!("    for (u32 i = {GRID_STRIDE}) {{\n        u32 r = i;\n");
    for t in 0..tensors {
        body += &format!("        u32 e{t} = 0u;\n");
    }
    body += "        for (u32 d = nd; d > 0u; d -= 1u) {\n            const u32 cd = r % p.w[6u + d];\n            r = r / p.w[6u + d];\n";
    for t in 0..tensors {
        body += &format!("            e{t} += cd * p.w[7u + nd + {t}u * (1u + nd) + d];\n");
    }
    body += "        }\n";
    body += &match k.mapping {
        Mapping::Grid { unroll } => format!(
            "        const u32 t = i % threads, q = i / threads, kb = q / {unroll}u, c = q % {unroll}u;\n"
        ),
        Mapping::Quad => "        const u32 t = i / 4u, kb = 0u, c = i % 4u;\n".to_string(),
        Mapping::Vector { width } => {
            let (kb, c) = if width == 8 {
                ("2u * j + l / 4u", "l % 4u")
            } else {
                ("j", "l")
            };
            format!(
                "        const u32 g = i / {width}u, t = g % threads, j = g / threads, l = i % {width}u;\n        \
                 const u32 kb = {kb}, c = {c};\n"
            )
        }
    };
    body += "        const u32 lo = p.w[4] + kb, hi = p.w[5] + (lo < kb ? 1u : 0u);\n        u32 x[4];\n        \
             philox(p.w[2], p.w[3], lo, hi, t, 0u, x);\n";
    let address = |t: usize| format!("e{t} * {}u", dtypes[t].size());
    let uniform = if acc == DType::F64 {
        "        const double u = (double)((u64)x[2u * c] ^ ((u64)x[2u * c + 1u] << 21)) * 1.1102230246251565e-16 + 5.551115123125783e-17;\n"
    } else {
        "        const float u = (float)x[c] * 2.3283064e-10f + 1.1641532e-10f;\n"
    };
    let fma = if acc == DType::F64 { "fma" } else { "fmaf" };
    // A normal's stored value: `mean + z * std`, or its exp for the log-normal.
    let (normal_let, normal_value) = if k.distribution == Distribution::LogNormal {
        (
            format!("const {ty} x2 = {fma}(z, s1, s0);\n        "),
            expr(&crate::kernels::Expr::input(2, acc).exp()),
        )
    } else {
        (String::new(), format!("{fma}(z, s1, s0)"))
    };
    let out = tensors - 1 - usize::from(k.distribution == Distribution::Dropout);
    body += &match k.distribution {
        Distribution::Uniform => format!(
            "{uniform}        const auto v = {};\n        st{out}({}, v == s2 ? {} : v);\n",
            convert(&format!("{fma}(u, s1, s0)"), acc, k.dtype),
            address(out),
            convert("s0", acc, k.dtype),
        ),
        Distribution::Normal | Distribution::LogNormal if acc == DType::F64 => format!(
            "        const double u = (double)((u64)x[0] ^ ((u64)x[1] << 21)) * 1.1102230246251565e-16 + 5.551115123125783e-17;\n        \
             const double w = (double)((u64)x[2] ^ ((u64)x[3] << 21)) * 2.220446049250313e-16 + 1.1102230246251565e-16;\n        \
             double sn, cs;\n        sincospi(w, &sn, &cs);\n        const double radius = sqrt(-2.0 * log(u));\n        \
             const double z = (c == 0u ? sn : cs) * radius;\n        {normal_let}st{out}({}, {});\n",
            address(out),
            convert(&normal_value, acc, k.dtype),
        ),
        Distribution::Normal | Distribution::LogNormal => format!(
            "        const u32 pr = c / 2u;\n        const float u = (float)x[2u * pr] * 2.3283064e-10f + 1.1641532e-10f;\n        \
             const float w = (float)x[2u * pr + 1u] * {two_pi:e}f + {half:e}f;\n        \
             const float radius = sqrtf(-2.0f * logf(u));\n        float sn, cs;\n        __sincosf(w, &sn, &cs);\n        \
             const float z = (c % 2u == 0u ? sn : cs) * radius;\n        {normal_let}st{out}({}, {});\n",
            address(out),
            convert(&normal_value, acc, k.dtype),
            two_pi = two_pi_over_2pow32(),
            half = two_pi_over_2pow32() / 2.0,
        ),
        Distribution::Integer { wide } => {
            let draw = if wide {
                "(((u64)x[2u * c] << 32) | (u64)x[2u * c + 1u])"
            } else {
                "(u64)x[c]"
            };
            format!(
                "        const u64 d = {draw};\n        const i64 v = (i64)((u64)s1 == 0ull ? d : d % (u64)s1) + s0;\n        st{out}({}, {});\n",
                address(out),
                convert("v", DType::I64, k.dtype),
            )
        }
        Distribution::Exponential | Distribution::Geometric | Distribution::Cauchy => {
            let value = k.transform().expect("a one-uniform transform");
            format!(
                "{uniform}        const {ty} x0 = u;\n        st{out}({}, {});\n",
                address(out),
                convert(&expr(&value), acc, k.dtype),
            )
        }
        Distribution::BernoulliTensor { p } => format!(
            "        const float u = (float)x[c] * 2.3283064e-10f + 1.1641532e-10f;\n        st1({}, {});\n",
            address(1),
            convert(
                &format!(
                    "(({ty})u <= {})",
                    convert(&format!("ld0({})", address(0)), p, acc)
                ),
                DType::Bool,
                k.dtype
            ),
        ),
        Distribution::Poisson => poisson(k.dtype, &address(0), &address(1)),
        Distribution::IslandShuffle => ISLAND_SHUFFLE.to_string(),
        Distribution::Bernoulli => format!(
            "{uniform}        st{out}({}, {});\n",
            address(out),
            convert("(u < s0)", DType::Bool, k.dtype),
        ),
        Distribution::Dropout => format!(
            "        const float u = (float)x[c] * 2.3283064e-10f + 1.1641532e-10f;\n        const bool keep = ({ty})u < s0;\n        \
             st2({}, keep);\n        const {ty} xv = {};\n        st1({}, {});\n",
            address(2),
            convert(&format!("ld0({})", address(0)), k.dtype, acc),
            address(1),
            convert(&format!("xv * ({ty})(keep ? 1 : 0) * s1"), acc, k.dtype),
        ),
    };
    body + "    }\n"
}

/// The Poisson body (see `kernels::wgsl::random`): element `i` draws float32 uniforms from its
/// own Philox subsequence, block after block; input 0 holds the rates, tensor 1 the counts.
fn poisson(dtype: DType, rate: &str, count: &str) -> String {
    format!(
        "        const float lam = {lam};\n        u32 pj = 0u, pc = 4u, y[4];\n        \
         auto next = [&]() -> float {{\n            if (pc == 4u) {{ const u32 lo = p.w[4] + pj, hi = p.w[5] + (lo < pj ? 1u : 0u); \
         philox(p.w[2], p.w[3], lo, hi, i, 0u, y); pj += 1u; pc = 0u; }}\n            \
         return (float)y[pc++] * 2.3283064e-10f + 1.1641532e-10f;\n        }};\n        \
         auto log_factorial = [](float k) -> float {{\n            if (k < 10.0f) {{ float r = 0.0f; for (float j = 2.0f; j <= k; j += 1.0f) r += logf(j); return r; }}\n            \
         const float n = k + 1.0f;\n            return (n - 0.5f) * logf(n) - n + 0.9189385f + 1.0f / (12.0f * n) - 1.0f / (360.0f * n * n * n);\n        }};\n        \
         float k = 0.0f;\n        if (lam < 10.0f) {{\n            const float limit = expf(-lam);\n            float prod = 1.0f;\n            \
         for (;;) {{ prod *= next(); if (prod <= limit) break; k += 1.0f; }}\n        }} else {{\n            \
         const float slam = sqrtf(lam), loglam = logf(lam), b = 0.931f + 2.53f * slam, a = -0.059f + 0.02483f * b;\n            \
         const float inv_alpha = 1.1239f + 1.1328f / (b - 3.4f), vr = 0.9277f - 3.6224f / (b - 2.0f);\n            \
         for (;;) {{\n                const float u0 = next(), v = next(), uu = u0 - 0.5f, us = 0.5f - fabsf(uu);\n                \
         k = floorf((2.0f * a / us + b) * uu + lam + 0.43f);\n                if (us >= 0.07f && v <= vr) break;\n                \
         if (k < 0.0f || (us < 0.013f && v > us)) continue;\n                \
         if (logf(v) + logf(inv_alpha) - logf(a / (us * us) + b) <= -lam + k * loglam - log_factorial(k)) break;\n            }}\n        }}\n        \
         st1({count}, {value});\n",
        lam = convert(&format!("ld0({rate})"), dtype, DType::F32),
        value = convert("k", DType::F32, dtype),
    )
}

/// randperm's run shuffle over contiguous int64 keys (tensor 0) and values (tensor 1); the
/// pointers carry the offsets.
const ISLAND_SHUFFLE: &str = "        if (i + 1u >= n) continue;
        const i64 key = ld0(i * 8u);
        if (ld0((i + 1u) * 8u) != key) continue;
        if (i != 0u && ld0((i - 1u) * 8u) == key) continue;
        u32 size = 1u;
        while (i + size < n && ld0((i + size) * 8u) == key) size += 1u;
        u32 pj = 0u, pc = 4u, y[4];
        for (u32 j = size - 1u; j > 0u; j -= 1u) {
            if (pc == 4u) { const u32 lo = p.w[4] + pj, hi = p.w[5] + (lo < pj ? 1u : 0u); philox(p.w[2], p.w[3], lo, hi, i, 0u, y); pj += 1u; pc = 0u; }
            const u32 r = y[pc++] % (j + 1u);
            if (r != j) { const i64 t = ld1((i + j) * 8u); st1((i + j) * 8u, ld1((i + r) * 8u)); st1((i + r) * 8u, t); }
        }
";
