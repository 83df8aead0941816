//! CUDA C++ for each kernel pattern. The argument words have the same layout as on wgpu (see
//! `kernels::wgsl::patterns`), with every tensor offset word zero: pointers carry the offset.

use super::expr::{
    compute_type, constant, convert, from_storage, render as expr, storage_type, to_storage,
};
use crate::dtype::DType;
use crate::kernels::expr::{BinaryOp, Expr};
use crate::kernels::pattern::{Kernel, MapKernel, ReduceKernel, ReduceOp, ScanKernel};
use std::ops::{Mul, Sub};

/// Threads per block (a reduction's threads share one output).
pub const BLOCK_SIZE: u32 = 64;
/// The largest launch-argument word count passed by value.
pub const MAX_WORDS: usize = 256;
/// The kernel's entry point name.
pub const ENTRY: &str = "mojo_kernel";

const PRELUDE: &str = r#"typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;
struct Words { u32 w[MAX_WORDS]; };

__device__ __forceinline__ float mojo_h2f(u32 h) {
    u32 s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0u) return __uint_as_float(s | __float_as_uint((float)m * 5.9604644775390625e-8f));
    if (e == 31u) return __uint_as_float(s | 0x7f800000u | (m << 13));
    return __uint_as_float(s | ((e + 112u) << 23) | (m << 13));
}

__device__ __forceinline__ u32 mojo_f2h(float f) {
    u32 x = __float_as_uint(f), sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
    if (a > 0x7f800000u) return sign | 0x7e00u;
    if (a >= 0x477ff000u) return sign | 0x7c00u;
    if (a < 0x38800000u) {
        u32 e = a >> 23;
        if (e < 102u) return sign;
        u32 m = (a & 0x7fffffu) | 0x800000u, shift = 126u - e;
        u32 q = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
        return sign | (q + ((rem > half || (rem == half && (q & 1u))) ? 1u : 0u));
    }
    return sign | ((a + 0xfffu + ((a >> 13) & 1u) - 0x38000000u) >> 13);
}

__device__ __forceinline__ float mojo_b2f(u32 h) { return __uint_as_float(h << 16); }

__device__ __forceinline__ u32 mojo_f2b(float f) {
    u32 x = __float_as_uint(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return 0x7fc0u;
    return (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
}

template <class T> __device__ __forceinline__ T mojo_rem(T a, T b) {
    T m = fmod(a, b);
    return (m != T(0) && ((b < T(0)) != (m < T(0)))) ? m + b : m;
}

template <class T> __device__ __forceinline__ T mojo_floordiv(T a, T b) {
    if (b == T(0)) return a / b;
    T m = fmod(a, b);
    T d = (a - m) / b;
    if (m != T(0) && ((b < T(0)) != (m < T(0)))) d -= T(1);
    if (d == T(0)) return copysign(T(0), a / b);
    T f = floor(d);
    return (d - f > T(0.5)) ? f + T(1) : f;
}

template <class T> __device__ __forceinline__ T mojo_ipow(T a, T b) {
    if (b < T(0)) {
        if (a == T(1)) return T(1);
        if (a == T(0) - T(1)) return (b & T(1)) ? a : T(1);
        return T(0);
    }
    T r = T(1);
    while (b > T(0)) {
        if (b & T(1)) r = r * a;
        a = a * a;
        b = b >> 1;
    }
    return r;
}
"#;

/// The CUDA C++ source of `kernel`.
pub fn render(kernel: &Kernel) -> String {
    let dtypes = kernel.tensor_dtypes();
    let params: Vec<String> = (0..dtypes.len())
        .map(|t| format!("char* __restrict__ b{t}"))
        .collect();
    let mut body = String::new();
    for (t, &dtype) in dtypes.iter().enumerate() {
        let ct = compute_type(dtype);
        let st = storage_type(dtype);
        body += &format!(
            "    auto ld{t} = [&](u32 e) -> {ct} {{ return {}; }};\n",
            from_storage(&format!("*(const {st}*)(b{t} + e)"), dtype)
        );
        if t >= kernel.input_count() {
            body += &format!(
                "    auto st{t} = [&](u32 e, {ct} v) {{ *({st}*)(b{t} + e) = {}; }};\n",
                to_storage("v", dtype)
            );
        }
    }
    body += &match kernel {
        Kernel::Map(k) => map(k),
        Kernel::Reduce(k) => reduce(k),
        Kernel::Scan(k) => scan(k),
        Kernel::Gemm(k) => super::gemm::gemm(k),
        Kernel::MaskedSelect(dtype) => masked_select(*dtype),
        Kernel::Index(k) => super::indexing::index(k),
        Kernel::Accumulate(k) => super::indexing::accumulate(k),
        Kernel::Sort(k) => super::indexing::sort(k),
        Kernel::Merge(k) => super::indexing::merge(k),
        Kernel::Foreach(k) => super::foreach::foreach(k),
        Kernel::Random(k) => super::random::random(k),
    };
    format!(
        "{}\nextern \"C\" __global__ void __launch_bounds__({BLOCK_SIZE}) {ENTRY}(Words p, {}) {{\n{body}}}\n",
        PRELUDE.replace("MAX_WORDS", &MAX_WORDS.to_string()),
        params.join(", ")
    )
}

/// Reads a scalar of `dtype` from word `w` (two words, low first, for 64-bit types).
pub fn scalar_load(dtype: DType, w: &str) -> String {
    match dtype {
        DType::Bool => format!("(p.w[{w}] != 0u)"),
        DType::U8 => format!("p.w[{w}]"),
        DType::I8 | DType::I16 | DType::I32 => format!("(int)p.w[{w}]"),
        DType::F16 | DType::BF16 | DType::F32 => format!("__uint_as_float(p.w[{w}])"),
        DType::I64 => format!("(i64)(((u64)p.w[{w} + 1] << 32) | p.w[{w}])"),
        DType::F64 => format!("__longlong_as_double((i64)(((u64)p.w[{w} + 1] << 32) | p.w[{w}]))"),
    }
}

fn scalar_lets(scalars: &[DType], start: &str) -> String {
    let mut out = String::new();
    let mut word = 0;
    for (k, &dtype) in scalars.iter().enumerate() {
        out += &format!(
            "    const {} s{k} = {};\n",
            compute_type(dtype),
            scalar_load(dtype, &format!("{start} + {word}"))
        );
        word += if dtype.size() == 8 { 2 } else { 1 };
    }
    out
}

pub const GRID_STRIDE: &str =
    "blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x";

fn map(k: &MapKernel) -> String {
    let tensors = k.inputs.len() + k.outputs.len();
    let mut body =
        format!("    const u32 n = p.w[0], nd = p.w[1], sc = 2u + nd + {tensors}u * (1u + nd);\n");
    body += &scalar_lets(&k.scalars, "sc");
    let dtypes: Vec<DType> = k
        .inputs
        .iter()
        .copied()
        .chain(k.outputs.iter().map(|o| o.0))
        .collect();
    body += &strided_loop(&dtypes);
    for t in 0..k.inputs.len() {
        body += &format!("        const auto x{t} = ld{t}(a{t});\n");
    }
    for (o, (_, value)) in k.outputs.iter().enumerate() {
        let t = k.inputs.len() + o;
        body += &format!("        st{t}(a{t}, {});\n", expr(value));
    }
    body + "    }\n"
}

/// Opens the grid-stride loop of a map-style kernel (arguments as in `map`, with `n` and `nd`
/// defined) and computes `a{t}`, the byte offset of tensor `t`'s element `i`.
pub fn strided_loop(dtypes: &[DType]) -> String {
    let mut body = format!("    for (u32 i = {GRID_STRIDE}) {{\n        u32 r = i;\n");
    for t in 0..dtypes.len() {
        body += &format!("        u32 e{t} = 0u;\n");
    }
    body += "        for (u32 d = nd; d > 0u; d -= 1u) {\n            const u32 c = r % p.w[1u + d];\n            r = r / p.w[1u + d];\n";
    for t in 0..dtypes.len() {
        body += &format!("            e{t} += c * p.w[2u + nd + {t}u * (1u + nd) + d];\n");
    }
    body += "        }\n";
    for (t, dtype) in dtypes.iter().enumerate() {
        body += &format!("        const u32 a{t} = e{t} * {}u;\n", dtype.size());
    }
    body
}

/// One pass over this thread's elements and the tree combine across the block; leaves the
/// result in `sh_a[0]` (and `sh_i[0]`).
fn reduce_pass(op: ReduceOp, acc: DType, value: &str, index: &str, isz: usize) -> String {
    let ty = compute_type(acc);
    let comb = |x: &str, y: &str| {
        let bop = match op {
            ReduceOp::Prod => BinaryOp::Mul,
            ReduceOp::Min | ReduceOp::ArgMin => BinaryOp::Min,
            ReduceOp::Max | ReduceOp::ArgMax => BinaryOp::Max,
            _ => BinaryOp::Add,
        };
        expr(&Expr::input(0, acc).binary(bop, Expr::input(1, acc)))
            .replace("x0", x)
            .replace("x1", y)
    };
    let ident = constant(
        acc,
        if op == ReduceOp::Prod {
            1f64.to_bits()
        } else {
            0
        },
    );
    let arg = matches!(op, ReduceOp::ArgMin | ReduceOp::ArgMax);
    let (step, merge) = match op {
        ReduceOp::Min | ReduceOp::Max => (
            format!("if (ok) {{ acc = {}; }} else {{ acc = v; ok = true; }}", comb("acc", "v")),
            format!(
                "if (sh_ok[u]) {{ sh_a[t] = sh_ok[t] ? {} : sh_a[u]; sh_ok[t] = true; }}",
                comb("sh_a[t]", "sh_a[u]")
            ),
        ),
        ReduceOp::ArgMin | ReduceOp::ArgMax => (
            format!("const i64 k = {index};\n                if (!ok || better(acc, idx, v, k)) {{ acc = v; idx = k; ok = true; }}"),
            "if (sh_ok[u] && (!sh_ok[t] || better(sh_a[t], sh_i[t], sh_a[u], sh_i[u]))) { sh_a[t] = sh_a[u]; sh_i[t] = sh_i[u]; sh_ok[t] = true; }".into(),
        ),
        _ => (
            format!("acc = {}; ok = true;", comb("acc", "v")),
            format!("sh_a[t] = {};", comb("sh_a[t]", "sh_a[u]")),
        ),
    };
    let save_index = if arg { "sh_i[t] = idx;" } else { "" };
    format!(
        "        {{\n            {ty} acc = {ident};\n            bool ok = false;\n            i64 idx = 0;\n            \
         for (u32 j = lo + t; j < hi; j += {BLOCK_SIZE}u) {{\n                const auto x0 = ld0((ein + red(j, io + nk)) * {isz}u);\n                \
         const {ty} v = {value};\n                {step}\n            }}\n            \
         sh_a[t] = acc;\n            sh_ok[t] = ok || !{arg_or_extremum};\n            {save_index}\n        }}\n        __syncthreads();\n        \
         for (u32 s = {half}u; s > 0u; s >>= 1) {{\n            if (t < s) {{\n                const u32 u = t + s;\n                \
         {merge}\n            }}\n            __syncthreads();\n        }}\n",
        arg_or_extremum = matches!(op, ReduceOp::Min | ReduceOp::Max | ReduceOp::ArgMin | ReduceOp::ArgMax),
        half = BLOCK_SIZE / 2,
        isz = isz,
    )
}

fn better_fn(op: ReduceOp, acc: DType) -> String {
    let ty = compute_type(acc);
    let cmp = if op == ReduceOp::ArgMax { ">" } else { "<" };
    let (strict, tie) = if acc.is_float() {
        (
            format!("(w {cmp} v) || (isnan(w) && !isnan(v))"),
            "(w == v || (isnan(w) && isnan(v)))",
        )
    } else {
        (format!("(w {cmp} v)"), "w == v")
    };
    format!(
        "    auto better = [](const {ty} v, const i64 i, const {ty} w, const i64 j) -> bool {{ return {strict} || ({tie} && j < i); }};\n"
    )
}

/// A block per chunk of an output's reduced elements, as on wgpu (arguments there).
fn reduce(k: &ReduceKernel) -> String {
    let ty = compute_type(k.acc);
    let outs = k.outputs.len();
    let isz = k.input.size();
    let mut body = format!(
        "    __shared__ {ty} sh_a[{BLOCK_SIZE}];\n    __shared__ bool sh_ok[{BLOCK_SIZE}];\n    __shared__ i64 sh_i[{BLOCK_SIZE}];\n    \
         const u32 t = threadIdx.x;\n    const u32 n_out = p.w[0], n_red = p.w[1], nk = p.w[2], nr = p.w[3], chunk = p.w[4], n_chunks = p.w[5];\n    \
         const u32 io = 6u + nk + nr;\n    u32 next = io + 1u + nk + nr;\n    \
         auto red = [&](u32 j, u32 sb) -> u32 {{\n        u32 q = j, e = 0u;\n        \
         for (u32 d = nr; d > 0u; d -= 1u) {{ const u32 size = p.w[5u + nk + d]; e += (q % size) * p.w[sb + d]; q = q / size; }}\n        \
         return e;\n    }};\n"
    );
    let mut tensor = 1;
    let index = if k.indexed {
        body += "    const u32 xo = next;\n    next += 1u + nk + nr;\n";
        let t = tensor;
        tensor += 1;
        format!("ld{t}((ex + red(j, xo + nk)) * 8u)")
    } else {
        "(i64)j".to_string()
    };
    if k.per_output.is_some() {
        body += "    const u32 po = next;\n    next += 1u + nk;\n";
    }
    body += &format!("    const u32 oo = next, sc = oo + {outs}u * (2u + nk);\n");
    body += &scalar_lets(&k.scalars, "sc");
    if matches!(k.op, ReduceOp::ArgMin | ReduceOp::ArgMax) {
        body += &better_fn(k.op, k.acc);
    }
    body += "    for (u32 w = blockIdx.x; w < n_out * n_chunks; w += gridDim.x) {\n        \
             const u32 o = w / n_chunks, c = w % n_chunks, lo = c * chunk, hi = min(n_red, lo + chunk);\n        \
             u32 r = o, ein = 0u, ex = 0u, epo = 0u;\n";
    for q in 0..outs {
        body += &format!("        u32 eo{q} = 0u;\n");
    }
    body += "        for (u32 d = nk; d > 0u; d -= 1u) {\n            const u32 size = p.w[5u + d], cd = r % size;\n            \
             r = r / size;\n            ein += cd * p.w[io + d];\n";
    if k.indexed {
        body += "            ex += cd * p.w[xo + d];\n";
    }
    if k.per_output.is_some() {
        body += "            epo += cd * p.w[po + d];\n";
    }
    for q in 0..outs {
        body += &format!("            eo{q} += cd * p.w[oo + {q}u * (2u + nk) + d];\n");
    }
    body += "        }\n";
    if let Some(dtype) = k.per_output {
        body += &format!(
            "        const auto x1 = ld{tensor}(epo * {}u);\n",
            dtype.size()
        );
    }
    let value = expr(&k.pre);
    match k.op {
        ReduceOp::Variance => {
            body += &reduce_pass(ReduceOp::Sum, k.acc, &value, &index, isz);
            body += &format!(
                "        const {ty} x1 = sh_a[0] / {};\n        __syncthreads();\n",
                convert("n_red", DType::U8, k.acc)
            );
            let deviation = k.pre.clone().sub(Expr::input(1, k.acc));
            body += &reduce_pass(
                ReduceOp::Sum,
                k.acc,
                &expr(&deviation.clone().mul(deviation)),
                &index,
                isz,
            );
        }
        ReduceOp::LogSumExp => {
            body += &reduce_pass(ReduceOp::Max, k.acc, &value, &index, isz);
            body += &format!(
                "        const {ty} x1 = isinf(sh_a[0]) ? {} : sh_a[0];\n        __syncthreads();\n",
                constant(k.acc, 0)
            );
            let shifted = k.pre.clone().sub(Expr::input(1, k.acc)).exp();
            body += &reduce_pass(ReduceOp::Sum, k.acc, &expr(&shifted), &index, isz);
        }
        op => {
            body += &reduce_pass(op, k.acc, &value, &index, isz);
            if op.second(k.acc).is_some() {
                body += "        const i64 x1 = sh_i[0];\n";
            }
        }
    }
    body += &format!("        if (t == 0u) {{\n            const {ty} x0 = sh_a[0];\n");
    let first_out = 1 + usize::from(k.indexed) + usize::from(k.per_output.is_some());
    for (q, (dtype, e)) in k.outputs.iter().enumerate() {
        body += &format!(
            "            st{}((eo{q} + c * p.w[oo + {q}u * (2u + nk) + 1u + nk]) * {}u, {});\n",
            first_out + q,
            dtype.size(),
            expr(e)
        );
    }
    body + "        }\n        __syncthreads();\n    }\n"
}

/// A thread per chunk of a line, as on wgpu (arguments there).
fn scan(k: &ScanKernel) -> String {
    let bop = if k.op == ReduceOp::Prod {
        BinaryOp::Mul
    } else {
        BinaryOp::Add
    };
    let step = Expr::input(0, k.acc).binary(bop, Expr::input(1, k.input).cast(k.acc));
    let ident = Expr::constant(k.acc, if k.op == ReduceOp::Prod { 1.0 } else { 0.0 });
    let (start, out) = if k.carry {
        (
            format!("if (c > 0u) x0 = ld1((i - 1u) * {}u);", k.acc.size()),
            2,
        )
    } else {
        (String::new(), 1)
    };
    format!(
        "    const u32 n = p.w[0] * p.w[4], len = p.w[1], nk = p.w[2], chunk = p.w[3], n_chunks = p.w[4], io = 5u + nk, oo = io + 2u + nk;\n    \
         for (u32 i = {GRID_STRIDE}) {{\n        const u32 o = i / n_chunks, c = i % n_chunks;\n        u32 r = o, ein = 0u, eout = 0u;\n        \
         for (u32 d = nk; d > 0u; d -= 1u) {{ const u32 cd = r % p.w[4u + d]; r = r / p.w[4u + d]; ein += cd * p.w[io + d]; eout += cd * p.w[oo + d]; }}\n        \
         {acc} x0 = {ident};\n        {start}\n        const u32 hi = min(len, c * chunk + chunk);\n        \
         for (u32 j = c * chunk; j < hi; j += 1u) {{\n            \
         const auto x1 = ld0((ein + j * p.w[io + 1u + nk]) * {isz}u);\n            x0 = {step};\n            \
         st{out}((eout + j * p.w[oo + 1u + nk]) * {osz}u, {store});\n        }}\n    }}\n",
        acc = compute_type(k.acc),
        ident = expr(&ident),
        step = expr(&step),
        store = expr(&Expr::input(0, k.acc).cast(k.output)),
        isz = k.input.size(),
        osz = k.output.size(),
    )
}

/// A thread per element, as on wgpu (arguments there).
fn masked_select(dtype: DType) -> String {
    let sz = dtype.size();
    let mut body = String::from("    const u32 n = p.w[0], nd = p.w[1];\n");
    body += &strided_loop(&[dtype, DType::Bool, DType::I64]);
    body += &format!("        if (ld1(a1)) st3((u32)(ld2(a2) - 1) * {sz}u, ld0(a0));\n    }}\n");
    body
}
