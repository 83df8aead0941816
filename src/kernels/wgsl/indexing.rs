//! WGSL for the index patterns: gather/scatter through index tensors, and the deterministic
//! accumulating scatter.

use super::dtype::{compute_type, convert};
use super::expr;
use super::math::Helpers;
use super::patterns::{entry, strided_loop, WORKGROUP_SIZE};
use crate::dtype::DType;
use crate::kernels::pattern::{AccumulateKernel, IndexKernel, SortKernel};

/// Index arguments: the map layout for `src`, the index tensors and `dst` over the iteration
/// shape (`[n, nd, size[nd], (offset, stride[nd]) per tensor]`), then the fault word's
/// offset and `(bound, stride)` per index tensor: the indexed dimension's size and its stride
/// in the indexed tensor (`src` for a gather, `dst` for a scatter).
pub fn index(k: &IndexKernel) -> String {
    let indices = k.indices.len();
    let strided = 2 + indices;
    let mut dtypes = vec![k.dtype];
    dtypes.extend(&k.indices);
    dtypes.push(k.dtype);
    let mut body = format!(
        "    let n = p[0];\n    let nd = p[1];\n    let step = ng.x * {WORKGROUP_SIZE}u;\n    \
         let fw = 2u + nd + {strided}u * (1u + nd);\n"
    );
    body += &strided_loop(&dtypes);
    body += "        var jump = 0u;\n        var ok = true;\n";
    for j in 0..indices {
        body += &format!(
            "        {{\n            let v = i64(ld{t}(a{t}));\n            let bound = i64(p[fw + {b}u]);\n            \
             let w = {wrap};\n            \
             if (w < 0li || w >= bound) {{ ok = false; }} else {{ jump += u32(w) * p[fw + {s}u]; }}\n        }}\n",
            wrap = wrap(k.wrap),
            t = 1 + j,
            b = 1 + 2 * j,
            s = 2 + 2 * j,
        );
    }
    let (dst, sz) = (1 + indices, k.dtype.size());
    body += &format!("        if (!ok) {{\n            st{strided}(p[fw], 1i);\n            continue;\n        }}\n");
    body += &if k.scatter {
        format!("        st{dst}(a{dst} + jump * {sz}u, ld0(a0));\n")
    } else {
        format!("        st{dst}(a{dst}, ld0(a0 + jump * {sz}u));\n")
    };
    body += "    }\n";
    entry(&body)
}

/// Accumulate arguments: `[n, nd, nl, size[nd], loop_size[nl], limit[nd], self_offset,
/// self_stride[nd], (offset, stride[nd], loop_stride[nl]) for values and each index tensor,
/// out_offset, out_stride[nd], fault_offset, (target_dim, bound) per index tensor, loop_lo,
/// loop_hi, first, last, counts_offset]`. Output element `c` takes the values at loop
/// positions `[loop_lo, loop_hi)` where every index tensor's element, wrapped, equals
/// `c[target_dim]`; only elements with every `c[d] < limit[d]` take any. A chunked kernel is
/// launched once per range of loop positions: after the `first` launch it continues from
/// `out` and the per-element count of values taken so far (int32 `counts`, contiguous), and
/// only the `last` launch finishes (the mean's division).
pub fn accumulate(k: &AccumulateKernel, helpers: &mut Helpers) -> String {
    let indices = k.indices.len();
    let (out, fault, counts, sz) = (2 + indices, 3 + indices, 4 + indices, k.dtype.size());
    let ty = compute_type(k.dtype);
    let mut body = format!(
        "    let n = p[0];\n    let nd = p[1];\n    let nl = p[2];\n    let step = ng.x * {WORKGROUP_SIZE}u;\n    \
         let so = 3u + 2u * nd + nl;\n    let vo = so + 1u + nd;\n    let blk = 1u + nd + nl;\n    \
         let oo = vo + blk * {}u;\n    let fo = oo + 1u + nd;\n    let ce = fo + 1u + {}u;\n    \
         let loop_lo = p[ce];\n    let loop_hi = p[ce + 1u];\n    let first = p[ce + 2u] != 0u;\n    \
         let last = p[ce + 3u] != 0u;\n    \
         for (var i = gid.x + gid.y * step; i < n; i += step * ng.y) {{\n        var r = i;\n        \
         var c: array<u32, {MAX_INDEX_DIMS}>;\n        var inside = true;\n        var es = 0u;\n        var ev = 0u;\n        var eo = 0u;\n",
        1 + indices,
        2 * indices
    );
    for j in 0..indices {
        body += &format!("        var ej{j} = 0u;\n");
    }
    body += "        for (var d = nd; d > 0u; d -= 1u) {\n            let size = p[2u + d];\n            \
             let cd = r % size;\n            r = r / size;\n            c[d - 1u] = cd;\n            \
             if (cd >= p[2u + nd + nl + d]) { inside = false; }\n            es += cd * p[so + d];\n            \
             ev += cd * p[vo + d];\n            eo += cd * p[oo + d];\n";
    for j in 0..indices {
        body += &format!("            ej{j} += cd * p[vo + blk * {}u + d];\n", 1 + j);
    }
    let include = k.include_self;
    let (own, prev) = if k.chunked {
        (
            format!("select(ld{out}(p[oo] + eo * {sz}u), ld0(p[so] + es * {sz}u), first)"),
            format!("select(u32(ld{counts}(p[ce + 4u] + i * 4u)), 0u, first)"),
        )
    } else {
        (format!("ld0(p[so] + es * {sz}u)"), "0u".to_string())
    };
    body += &format!(
        "        }}\n        let own = {own};\n        let prev = {prev};\n        var acc: {ty} = own;\n        \
         var has = {include} || prev > 0u;\n        var count = prev + {}u;\n        if (inside) {{\n            \
         for (var l = loop_lo; l < loop_hi; l += 1u) {{\n                var rl = l;\n                var lv = ev;\n",
        u32::from(include)
    );
    for j in 0..indices {
        body += &format!("                var lj{j} = ej{j};\n");
    }
    body += "                for (var q = nl; q > 0u; q -= 1u) {\n                    let size = p[2u + nd + q];\n                    \
             let cq = rl % size;\n                    rl = rl / size;\n                    lv += cq * p[vo + nd + q];\n";
    for j in 0..indices {
        body += &format!(
            "                    lj{j} += cq * p[vo + blk * {}u + nd + q];\n",
            1 + j
        );
    }
    body += "                }\n                var hit = true;\n";
    for (j, dtype) in k.indices.iter().enumerate() {
        body += &format!(
            "                {{\n                    let v = i64(ld{t}(p[vo + blk * {blk}u] + lj{j} * {isz}u));\n                    \
             let bound = i64(p[fo + {b}u]);\n                    let w = {wrap};\n                    \
             if (w < 0li || w >= bound) {{ st{fault}(p[fo], 1i); hit = false; }} \
             else if (u32(w) != c[p[fo + {dim}u]]) {{ hit = false; }}\n                }}\n",
            wrap = wrap(k.wrap),
            t = 2 + j,
            blk = 1 + j,
            isz = dtype.size(),
            dim = 1 + 2 * j,
            b = 2 + 2 * j,
        );
    }
    let keep_count = if k.chunked {
        format!(
            "        if (!last) {{ st{counts}(p[ce + 4u] + i * 4u, i32(count - {}u)); }}\n",
            u32::from(include)
        )
    } else {
        String::new()
    };
    body += &format!(
        "                if (hit) {{\n                    let x1 = ld1(p[vo] + lv * {sz}u);\n                    \
         if (has) {{ let x0 = acc; acc = {}; }} else {{ acc = x1; has = true; }}\n                    \
         count += 1u;\n                }}\n            }}\n        }}\n        \
         if (has && last) {{\n            let x0 = acc;\n            let x1 = {};\n            st{out}(p[oo] + eo * {sz}u, {});\n        \
         }} else {{\n            st{out}(p[oo] + eo * {sz}u, acc);\n        }}\n{keep_count}    }}\n",
        expr::render(&k.step(), helpers),
        convert("count", DType::U8, k.dtype),
        expr::render(&k.finish(), helpers),
    );
    entry(&body)
}

/// The most dimensions an accumulate kernel's output may have.
pub const MAX_INDEX_DIMS: usize = 16;

/// The wrapped index `w` of the value `v` in a dimension of size `bound`.
fn wrap(negative_from_end: bool) -> &'static str {
    if negative_from_end {
        "select(v, v + bound, v < 0li)"
    } else {
        "v"
    }
}

/// Sort arguments: `[n, len, nk, kept_size[nk], (offset, kept_stride[nk], stride)` for the
/// input, the values and the indices`]`; one invocation per element.
pub fn sort(k: &SortKernel, helpers: &mut Helpers) -> String {
    let sz = k.dtype.size();
    let body = format!(
        "    let n = p[0];\n    let len = p[1];\n    let nk = p[2];\n    let io = 3u + nk;\n    \
         let vo = io + 2u + nk;\n    let xo = vo + 2u + nk;\n    let step = ng.x * {WORKGROUP_SIZE}u;\n    \
         for (var i = gid.x + gid.y * step; i < n; i += step * ng.y) {{\n        let j = i % len;\n        \
         var r = i / len;\n        var ein = 0u;\n        var ev = 0u;\n        var ex = 0u;\n        \
         for (var d = nk; d > 0u; d -= 1u) {{\n            let c = r % p[2u + d];\n            r = r / p[2u + d];\n            \
         ein += c * p[io + d];\n            ev += c * p[vo + d];\n            ex += c * p[xo + d];\n        }}\n        \
         let x1 = ld0(p[io] + (ein + j * p[io + 1u + nk]) * {sz}u);\n        var rank = 0u;\n        \
         for (var q = 0u; q < len; q += 1u) {{\n            let x0 = ld0(p[io] + (ein + q * p[io + 1u + nk]) * {sz}u);\n            \
         if ({before} || (q < j && {equal})) {{ rank += 1u; }}\n        }}\n        \
         st1(p[vo] + (ev + rank * p[vo + 1u + nk]) * {sz}u, x1);\n        \
         st2(p[xo] + (ex + rank * p[xo + 1u + nk]) * 8u, i64(j));\n    }}\n",
        before = expr::render(&k.before(), helpers),
        equal = expr::render(&k.equal(), helpers),
    );
    entry(&body)
}

/// Merge arguments: `[n, len, width, keys_offset, indices_offset, merged_keys_offset,
/// merged_indices_offset]` over contiguous `[n / len, len]` tensors.
pub fn merge(k: &SortKernel, helpers: &mut Helpers) -> String {
    let sz = k.dtype.size();
    let ty = compute_type(k.dtype);
    let before = format!(
        "fn before(x0: {ty}, x1: {ty}) -> bool {{\n    return {};\n}}\n",
        expr::render(&k.before(), helpers)
    );
    let body = format!(
        "    let n = p[0];\n    let len = p[1];\n    let w = p[2];\n    let step = ng.x * {WORKGROUP_SIZE}u;\n    \
         for (var i = gid.x + gid.y * step; i < n; i += step * ng.y) {{\n        let j = i % len;\n        \
         let base = i - j;\n        let start = j - j % (2u * w);\n        let mid = min(start + w, len);\n        \
         let end = min(mid + w, len);\n        let x = ld0(p[3] + i * {sz}u);\n        var dest = 0u;\n        \
         if (j < mid) {{\n            var lo = mid;\n            var hi = end;\n            while (lo < hi) {{\n                \
         let m = (lo + hi) / 2u;\n                if (before(ld0(p[3] + (base + m) * {sz}u), x)) {{ lo = m + 1u; }} else {{ hi = m; }}\n            }}\n            \
         dest = j + (lo - mid);\n        }} else {{\n            var lo = start;\n            var hi = mid;\n            \
         while (lo < hi) {{\n                let m = (lo + hi) / 2u;\n                \
         if (before(x, ld0(p[3] + (base + m) * {sz}u))) {{ hi = m; }} else {{ lo = m + 1u; }}\n            }}\n            \
         dest = j - mid + lo;\n        }}\n        st2(p[5] + (base + dest) * {sz}u, x);\n        \
         st3(p[6] + (base + dest) * 8u, ld1(p[4] + i * 8u));\n    }}\n"
    );
    before + &entry(&body)
}
