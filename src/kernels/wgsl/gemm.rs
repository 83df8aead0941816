//! WGSL for the GEMM pattern.

use super::dtype::{compute_type, convert};
use crate::kernels::pattern::GemmKernel;

/// Side of an output tile; a workgroup has one invocation per tile element.
pub const TILE: u32 = 8;

/// GEMM arguments: `[m, n, k, batch, tiles_m, tiles_n, a_off, a_sb, a_sm, a_sk, b_off, b_sb,
/// b_sk, b_sn, (c_off, c_sb, c_sm, c_sn), out_off, out_sb, out_sm, out_sn, alpha, beta]`;
/// alpha and beta are in the accumulator dtype. One workgroup per output tile.
pub fn gemm(k: &GemmKernel) -> String {
    let acc = compute_type(k.acc);
    let zero = convert("0u", crate::dtype::DType::U8, k.acc);
    let isz = k.input.size();
    let load = |t: usize, row: &str, col: &str, base: usize| {
        convert(
            &format!(
                "ld{t}(p[{base}u] + (b * p[{}u] + ({row}) * p[{}u] + ({col}) * p[{}u]) * {isz}u)",
                base + 1,
                base + 2,
                base + 3
            ),
            k.input,
            k.acc,
        )
    };
    let out_base = if k.with_c { 18 } else { 14 };
    let out_t = if k.with_c { 3 } else { 2 };
    let scalars = out_base + 4;
    let scalar = |w: usize| super::patterns::scalar_load(k.acc, &format!("{w}u"));
    let c_term = if k.with_c {
        format!("v = v + beta * {};", load(2, "row", "col", 14))
    } else {
        String::new()
    };
    let beta_word = scalars + if k.acc.size() == 8 { 2 } else { 1 };
    format!(
        "var<workgroup> sa: array<{acc}, {n}>;\nvar<workgroup> sb: array<{acc}, {n}>;\n\
         var<workgroup> dims: array<u32, 6>;\n\
         @compute @workgroup_size({n})\n\
         fn main(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>, \
         @builtin(num_workgroups) ng: vec3<u32>) {{\n    \
         if (t == 0u) {{ for (var i = 0u; i < 6u; i += 1u) {{ dims[i] = p[i]; }} }}\n    \
         let d = workgroupUniformLoad(&dims);\n    let tiles = d[4] * d[5];\n    \
         let alpha = {alpha};\n    let beta = {beta};\n    let ty = t / {tile}u;\n    let tx = t % {tile}u;\n    \
         for (var g = wid.x + wid.y * ng.x; g < d[3] * tiles; g += ng.x * ng.y) {{\n        \
         let b = g / tiles;\n        let row = ((g % tiles) / d[5]) * {tile}u + ty;\n        \
         let col = ((g % tiles) % d[5]) * {tile}u + tx;\n        var acc: {acc} = {zero};\n        \
         for (var k0 = 0u; k0 < d[2]; k0 += {tile}u) {{\n            \
         var va: {acc} = {zero};\n            var vb: {acc} = {zero};\n            \
         if (row < d[0] && k0 + tx < d[2]) {{ va = {a}; }}\n            \
         if (k0 + ty < d[2] && col < d[1]) {{ vb = {b}; }}\n            \
         sa[t] = va;\n            sb[t] = vb;\n            workgroupBarrier();\n            \
         for (var kk = 0u; kk < {tile}u; kk += 1u) {{ acc = acc + sa[ty * {tile}u + kk] * sb[kk * {tile}u + tx]; }}\n            \
         workgroupBarrier();\n        }}\n        \
         if (row < d[0] && col < d[1]) {{\n            var v = alpha * acc;\n            {c_term}\n            \
         st{out_t}(p[{ob}u] + (b * p[{ob1}u] + row * p[{ob2}u] + col * p[{ob3}u]) * {osz}u, {store});\n        }}\n    }}\n}}\n",
        n = TILE * TILE,
        tile = TILE,
        alpha = scalar(scalars),
        beta = scalar(beta_word),
        a = load(0, "row", "k0 + tx", 6),
        b = load(1, "k0 + ty", "col", 10),
        ob = out_base,
        ob1 = out_base + 1,
        ob2 = out_base + 2,
        ob3 = out_base + 3,
        osz = k.output.size(),
        store = convert("v", k.acc, k.output),
    )
}
