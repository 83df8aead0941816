//! CUDA C++ for the index patterns (argument layouts in `kernels::wgsl::indexing`; tensor
//! offset words are zero because pointers carry the offsets).

use super::expr::{compute_type, convert, render as expr};
use super::patterns::{strided_loop, GRID_STRIDE};
use crate::dtype::DType;
use crate::kernels::pattern::{AccumulateKernel, IndexKernel, SortKernel};
use crate::kernels::wgsl::MAX_INDEX_DIMS;

pub fn index(k: &IndexKernel) -> String {
    let indices = k.indices.len();
    let strided = 2 + indices;
    let mut dtypes = vec![k.dtype];
    dtypes.extend(&k.indices);
    dtypes.push(k.dtype);
    let mut body =
        format!("    const u32 n = p.w[0], nd = p.w[1], fw = 2u + nd + {strided}u * (1u + nd);\n");
    body += &strided_loop(&dtypes);
    body += "        u32 jump = 0u;\n        bool ok = true;\n";
    for j in 0..indices {
        body += &format!(
            "        {{\n            const i64 v = (i64)ld{t}(a{t}), bound = (i64)p.w[fw + {b}u];\n            \
             const i64 w = {wrap};\n            \
             if (w < 0 || w >= bound) ok = false; else jump += (u32)w * p.w[fw + {s}u];\n        }}\n",
            wrap = if k.wrap { "v < 0 ? v + bound : v" } else { "v" },
            t = 1 + j,
            b = 1 + 2 * j,
            s = 2 + 2 * j,
        );
    }
    let (dst, sz) = (1 + indices, k.dtype.size());
    body += &format!("        if (!ok) {{ st{strided}(0u, 1); continue; }}\n");
    body += &if k.scatter {
        format!("        st{dst}(a{dst} + jump * {sz}u, ld0(a0));\n")
    } else {
        format!("        st{dst}(a{dst}, ld0(a0 + jump * {sz}u));\n")
    };
    body + "    }\n"
}

pub fn accumulate(k: &AccumulateKernel) -> String {
    let indices = k.indices.len();
    let (out, fault, counts, sz) = (2 + indices, 3 + indices, 4 + indices, k.dtype.size());
    let ty = compute_type(k.dtype);
    let mut body = format!(
        "    const u32 n = p.w[0], nd = p.w[1], nl = p.w[2], so = 3u + 2u * nd + nl, vo = so + 1u + nd;\n    \
         const u32 blk = 1u + nd + nl, oo = vo + blk * {}u, fo = oo + 1u + nd, ce = fo + 1u + {}u;\n    \
         const u32 loop_lo = p.w[ce], loop_hi = p.w[ce + 1u];\n    const bool first = p.w[ce + 2u] != 0u, last = p.w[ce + 3u] != 0u;\n    \
         for (u32 i = {GRID_STRIDE}) {{\n        u32 r = i, c[{MAX_INDEX_DIMS}], es = 0u, ev = 0u, eo = 0u;\n        bool inside = true;\n",
        1 + indices,
        2 * indices
    );
    for j in 0..indices {
        body += &format!("        u32 ej{j} = 0u;\n");
    }
    body += "        for (u32 d = nd; d > 0u; d -= 1u) {\n            const u32 size = p.w[2u + d], cd = r % size;\n            \
             r = r / size;\n            c[d - 1u] = cd;\n            if (cd >= p.w[2u + nd + nl + d]) inside = false;\n            \
             es += cd * p.w[so + d];\n            ev += cd * p.w[vo + d];\n            eo += cd * p.w[oo + d];\n";
    for j in 0..indices {
        body += &format!(
            "            ej{j} += cd * p.w[vo + blk * {}u + d];\n",
            1 + j
        );
    }
    let include = k.include_self;
    let (own, prev) = if k.chunked {
        (
            format!("first ? ld0(es * {sz}u) : ld{out}(eo * {sz}u)"),
            format!("first ? 0u : (u32)ld{counts}(i * 4u)"),
        )
    } else {
        (format!("ld0(es * {sz}u)"), "0u".to_string())
    };
    body += &format!(
        "        }}\n        const {ty} own = {own};\n        const u32 prev = {prev};\n        {ty} acc = own;\n        \
         bool has = {include} || prev > 0u;\n        u32 count = prev + {}u;\n        if (inside) {{\n            \
         for (u32 l = loop_lo; l < loop_hi; l += 1u) {{\n                u32 rl = l, lv = ev;\n",
        u32::from(include)
    );
    for j in 0..indices {
        body += &format!("                u32 lj{j} = ej{j};\n");
    }
    body += "                for (u32 q = nl; q > 0u; q -= 1u) {\n                    const u32 size = p.w[2u + nd + q], cq = rl % size;\n                    \
             rl = rl / size;\n                    lv += cq * p.w[vo + nd + q];\n";
    for j in 0..indices {
        body += &format!(
            "                    lj{j} += cq * p.w[vo + blk * {}u + nd + q];\n",
            1 + j
        );
    }
    body += "                }\n                bool hit = true;\n";
    for (j, dtype) in k.indices.iter().enumerate() {
        body += &format!(
            "                {{\n                    const i64 v = (i64)ld{t}(lj{j} * {isz}u), bound = (i64)p.w[fo + {b}u];\n                    \
             const i64 w = {wrap};\n                    \
             if (w < 0 || w >= bound) {{ st{fault}(0u, 1); hit = false; }} else if ((u32)w != c[p.w[fo + {dim}u]]) hit = false;\n                }}\n",
            wrap = if k.wrap { "v < 0 ? v + bound : v" } else { "v" },
            t = 2 + j,
            isz = dtype.size(),
            dim = 1 + 2 * j,
            b = 2 + 2 * j,
        );
    }
    let keep_count = if k.chunked {
        format!(
            "        if (!last) st{counts}(i * 4u, (int)(count - {}u));\n",
            u32::from(include)
        )
    } else {
        String::new()
    };
    body += &format!(
        "                if (hit) {{\n                    const {ty} x1 = ld1(lv * {sz}u);\n                    \
         if (has) {{ const {ty} x0 = acc; acc = {}; }} else {{ acc = x1; has = true; }}\n                    \
         count += 1u;\n                }}\n            }}\n        }}\n        \
         if (has && last) {{\n            const {ty} x0 = acc;\n            const {ty} x1 = {};\n            st{out}(eo * {sz}u, {});\n        \
         }} else {{\n            st{out}(eo * {sz}u, acc);\n        }}\n{keep_count}    }}\n",
        expr(&k.step()),
        convert("count", DType::U8, k.dtype),
        expr(&k.finish()),
    );
    body
}

pub fn sort(k: &SortKernel) -> String {
    let sz = k.dtype.size();
    let ty = compute_type(k.dtype);
    format!(
        "    const u32 n = p.w[0], len = p.w[1], nk = p.w[2], io = 3u + nk, vo = io + 2u + nk, xo = vo + 2u + nk;\n    \
         for (u32 i = {GRID_STRIDE}) {{\n        const u32 j = i % len;\n        u32 r = i / len, ein = 0u, ev = 0u, ex = 0u;\n        \
         for (u32 d = nk; d > 0u; d -= 1u) {{ const u32 c = r % p.w[2u + d]; r = r / p.w[2u + d]; \
         ein += c * p.w[io + d]; ev += c * p.w[vo + d]; ex += c * p.w[xo + d]; }}\n        \
         const {ty} x1 = ld0((ein + j * p.w[io + 1u + nk]) * {sz}u);\n        u32 rank = 0u;\n        \
         for (u32 q = 0u; q < len; q += 1u) {{\n            const {ty} x0 = ld0((ein + q * p.w[io + 1u + nk]) * {sz}u);\n            \
         if (({before}) || (q < j && ({equal}))) rank += 1u;\n        }}\n        \
         st1((ev + rank * p.w[vo + 1u + nk]) * {sz}u, x1);\n        st2((ex + rank * p.w[xo + 1u + nk]) * 8u, (i64)j);\n    }}\n",
        before = expr(&k.before()),
        equal = expr(&k.equal()),
    )
}

/// One merge pass (see `kernels::wgsl::indexing::merge` for the arguments).
pub fn merge(k: &SortKernel) -> String {
    let sz = k.dtype.size();
    let ty = compute_type(k.dtype);
    format!(
        "    auto before = [](const {ty} x0, const {ty} x1) -> bool {{ return {before}; }};\n    \
         const u32 n = p.w[0], len = p.w[1], w = p.w[2];\n    \
         for (u32 i = {GRID_STRIDE}) {{\n        const u32 j = i % len, base = i - j, start = j - j % (2u * w);\n        \
         const u32 mid = min(start + w, len), end = min(mid + w, len);\n        const {ty} x = ld0(i * {sz}u);\n        \
         u32 dest;\n        if (j < mid) {{\n            u32 lo = mid, hi = end;\n            while (lo < hi) {{\n                \
         const u32 m = (lo + hi) / 2u;\n                if (before(ld0((base + m) * {sz}u), x)) lo = m + 1u; else hi = m;\n            }}\n            \
         dest = j + (lo - mid);\n        }} else {{\n            u32 lo = start, hi = mid;\n            while (lo < hi) {{\n                \
         const u32 m = (lo + hi) / 2u;\n                if (before(x, ld0((base + m) * {sz}u))) hi = m; else lo = m + 1u;\n            }}\n            \
         dest = j - mid + lo;\n        }}\n        st2((base + dest) * {sz}u, x);\n        st3((base + dest) * 8u, ld1(i * 8u));\n    }}\n",
        before = expr(&k.before()),
    )
}
