//! CUDA C++ for the GEMM pattern (the portable kernel; cuBLASLt takes over on NVIDIA GPUs).

use super::expr::{compute_type, convert};
use super::patterns::scalar_load;
use crate::dtype::DType;
use crate::kernels::pattern::GemmKernel;

const TILE: u32 = 8;

/// The body of the GEMM kernel; arguments as in `kernels::wgsl::gemm` (offsets are zero).
pub fn gemm(k: &GemmKernel) -> String {
    let acc = compute_type(k.acc);
    let zero = convert("0u", DType::U8, k.acc);
    let isz = k.input.size();
    let load = |t: usize, row: &str, col: &str, base: usize| {
        convert(
            &format!(
                "ld{t}((b * p.w[{}] + ({row}) * p.w[{}] + ({col}) * p.w[{}]) * {isz}u)",
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
    let alpha_word = out_base + 4;
    let beta_word = alpha_word + if k.acc.size() == 8 { 2 } else { 1 };
    let c_term = if k.with_c {
        format!("v = v + beta * {};", load(2, "row", "col", 14))
    } else {
        String::new()
    };
    format!(
        "    __shared__ {acc} sa[{n}];\n    __shared__ {acc} sb[{n}];\n    const u32 t = threadIdx.x, ty = t / {tile}u, tx = t % {tile}u;\n    \
         const u32 m = p.w[0], n = p.w[1], kk_end = p.w[2], tiles = p.w[4] * p.w[5];\n    \
         const {acc} alpha = {alpha}, beta = {beta};\n    \
         for (u32 g = blockIdx.x; g < p.w[3] * tiles; g += gridDim.x) {{\n        \
         const u32 b = g / tiles, row = ((g % tiles) / p.w[5]) * {tile}u + ty, col = ((g % tiles) % p.w[5]) * {tile}u + tx;\n        \
         {acc} acc = {zero};\n        for (u32 k0 = 0u; k0 < kk_end; k0 += {tile}u) {{\n            \
         sa[t] = (row < m && k0 + tx < kk_end) ? {a} : {zero};\n            \
         sb[t] = (k0 + ty < kk_end && col < n) ? {b} : {zero};\n            __syncthreads();\n            \
         for (u32 kk = 0u; kk < {tile}u; kk += 1u) acc = acc + sa[ty * {tile}u + kk] * sb[kk * {tile}u + tx];\n            \
         __syncthreads();\n        }}\n        if (row < m && col < n) {{\n            {acc} v = alpha * acc;\n            {c_term}\n            \
         st{out_t}((b * p.w[{ob1}] + row * p.w[{ob2}] + col * p.w[{ob3}]) * {osz}u, {store});\n        }}\n    }}\n",
        n = TILE * TILE,
        tile = TILE,
        alpha = scalar_load(k.acc, &alpha_word.to_string()),
        beta = scalar_load(k.acc, &beta_word.to_string()),
        a = load(0, "row", "k0 + tx", 6),
        b = load(1, "k0 + ty", "col", 10),
        ob1 = out_base + 1,
        ob2 = out_base + 2,
        ob3 = out_base + 3,
        osz = k.output.size(),
        store = convert("v", k.acc, k.output),
    )
}
