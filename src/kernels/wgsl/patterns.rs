//! WGSL for each kernel pattern. Launch-argument layouts (u32 words in binding 0) are documented
//! per pattern and mirrored by `ops::launch_args`.

use super::access::{atomic_slots, bindings, load_fn, store_fn};
use super::dtype::{compute_type, convert, HELPERS};
use super::expr;
use super::math::Helpers;
use crate::dtype::DType;
use crate::kernels::expr::{BinaryOp, Expr};
use crate::kernels::pattern::{Kernel, MapKernel, ReduceKernel, ReduceOp, ScanKernel};
use std::ops::{Mul, Sub};

/// Invocations per workgroup.
pub const WORKGROUP_SIZE: u32 = 64;

/// The WGSL source of `kernel`, with tensor argument `t` bound to buffer slot `slots[t]`;
/// `f64` says whether the device computes in f64.
pub fn render(kernel: &Kernel, slots: &[usize], f64: bool) -> String {
    let dtypes = kernel.tensor_dtypes();
    let atomic = atomic_slots(&dtypes, slots, kernel.input_count());
    let mut src = String::from(HELPERS);
    src += &bindings(&atomic);
    for (t, (&dtype, &slot)) in dtypes.iter().zip(slots).enumerate() {
        src += &load_fn(t, dtype, slot, atomic[slot]);
        if t >= kernel.input_count() {
            src += &store_fn(t, dtype, slot, atomic[slot]);
        }
    }
    let mut helpers = Helpers::new(f64);
    src += &match kernel {
        Kernel::Map(kernel) => map(kernel, &mut helpers),
        Kernel::Reduce(kernel) => reduce(kernel, &mut helpers),
        Kernel::Scan(kernel) => scan(kernel, &mut helpers),
        Kernel::Gemm(kernel) => super::gemm::gemm(kernel),
        Kernel::MaskedSelect(dtype) => masked_select(*dtype),
        Kernel::Index(kernel) => super::indexing::index(kernel),
        Kernel::Accumulate(kernel) => super::indexing::accumulate(kernel, &mut helpers),
        Kernel::Sort(kernel) => super::indexing::sort(kernel, &mut helpers),
        Kernel::Merge(kernel) => super::indexing::merge(kernel, &mut helpers),
        Kernel::Foreach(kernel) => super::foreach::foreach(kernel, &mut helpers),
        Kernel::Random(kernel) => super::random::random(kernel, &mut helpers),
    };
    src += &helpers.source();
    if src.contains("F64") {
        src.insert_str(0, super::emulated_f64::alias(f64));
    }
    src
}

pub fn entry(body: &str) -> String {
    format!(
        "@compute @workgroup_size({WORKGROUP_SIZE})\n\
         fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) ng: vec3<u32>) {{\n\
         {body}}}\n"
    )
}

/// Reads scalar `k` of `dtype` from word `w` of the arguments.
pub fn scalar_load(dtype: DType, w: &str) -> String {
    match dtype {
        DType::Bool => format!("p[{w}] != 0u"),
        DType::U8 => format!("p[{w}]"),
        DType::I8 | DType::I16 | DType::I32 => format!("bitcast<i32>(p[{w}])"),
        DType::F16 | DType::BF16 | DType::F32 => format!("bitcast<f32>(p[{w}])"),
        DType::I64 | DType::F64 => {
            format!(
                "bitcast<{}>((u64(p[{w} + 1u]) << 32u) | u64(p[{w}]))",
                compute_type(dtype)
            )
        }
    }
}

/// `let s{k} = ...;` for each scalar, reading from word `start` on.
fn scalar_lets(scalars: &[DType], start: &str) -> String {
    let mut out = String::new();
    let mut word = 0;
    for (k, &dtype) in scalars.iter().enumerate() {
        out += &format!(
            "    let s{k} = {};\n",
            scalar_load(dtype, &format!("{start} + {word}u"))
        );
        word += if dtype.size() == 8 { 2 } else { 1 };
    }
    out
}

/// Map arguments: `[n, nd, size[nd], (offset, stride[nd]) per tensor, scalars...]`; offsets are
/// byte addresses, strides are in elements, 64-bit scalars take two words (low first).
fn map(k: &MapKernel, helpers: &mut Helpers) -> String {
    let tensors = k.inputs.len() + k.outputs.len();
    let mut body = String::from(
        "    let n = p[0];\n    let nd = p[1];\n    let step = ng.x * WG;\n    let sc = 2u + nd + TS * (1u + nd);\n",
    )
    .replace("WG", &format!("{WORKGROUP_SIZE}u"))
    .replace("TS", &format!("{tensors}u"));
    body += &scalar_lets(&k.scalars, "sc");
    let dtypes: Vec<DType> = k
        .inputs
        .iter()
        .copied()
        .chain(k.outputs.iter().map(|o| o.0))
        .collect();
    body += &strided_loop(&dtypes);
    for t in 0..k.inputs.len() {
        body += &format!("        let x{t} = ld{t}(a{t});\n");
    }
    for (o, (_, value)) in k.outputs.iter().enumerate() {
        let t = k.inputs.len() + o;
        body += &format!("        st{t}(a{t}, {});\n", expr::render(value, helpers));
    }
    body += "    }\n";
    entry(&body)
}

/// Opens the grid-stride loop of a map-style kernel (arguments as in `map`, with `n`, `nd` and
/// `step` defined) and computes `a{t}`, the byte address of tensor `t`'s element `i`.
pub fn strided_loop(dtypes: &[DType]) -> String {
    strided_loop_after(dtypes, 0)
}

/// [`strided_loop`] for a layout whose map-style words start `skip` words later.
pub fn strided_loop_after(dtypes: &[DType], skip: usize) -> String {
    let tensors = dtypes.len();
    let mut body = String::from(
        "    for (var i = gid.x + gid.y * step; i < n; i += step * ng.y) {\n        var r = i;\n",
    );
    for t in 0..tensors {
        body += &format!("        var e{t} = 0u;\n");
    }
    body += &format!(
        "        for (var d = nd; d > 0u; d -= 1u) {{\n            let size = p[{}u + d];\n            \
         let c = r % size;\n            r = r / size;\n",
        1 + skip
    );
    for t in 0..tensors {
        body += &format!(
            "            e{t} += c * p[{}u + nd + {t}u * (1u + nd) + d];\n",
            2 + skip
        );
    }
    body += "        }\n";
    for (t, dtype) in dtypes.iter().enumerate() {
        body += &format!(
            "        let a{t} = p[{}u + nd + {t}u * (1u + nd)] + e{t} * {}u;\n",
            2 + skip,
            dtype.size()
        );
    }
    body
}

/// `fn {name}(x0: T, x1: T) -> T` for a reduction's combining operation.
fn combine_fn(name: &str, op: ReduceOp, acc: DType, helpers: &mut Helpers) -> String {
    let bop = match op {
        ReduceOp::Sum | ReduceOp::Variance | ReduceOp::LogSumExp => BinaryOp::Add,
        ReduceOp::Prod => BinaryOp::Mul,
        ReduceOp::Min | ReduceOp::ArgMin => BinaryOp::Min,
        ReduceOp::Max | ReduceOp::ArgMax => BinaryOp::Max,
    };
    let e = Expr::input(0, acc).binary(bop, Expr::input(1, acc));
    let ty = compute_type(acc);
    format!(
        "fn {name}(x0: {ty}, x1: {ty}) -> {ty} {{\n    return {};\n}}\n",
        expr::render(&e, helpers)
    )
}

/// `fn better(v, i, w, j) -> bool`: whether candidate (w, j) beats (v, i) for arg-reductions.
fn better_fn(op: ReduceOp, acc: DType) -> String {
    let ty = compute_type(acc);
    let cmp = if op == ReduceOp::ArgMax { ">" } else { "<" };
    let (strict, tie) = if acc == DType::Bool {
        (
            format!("(select(0u, 1u, w) {cmp} select(0u, 1u, v))"),
            "w == v".to_string(),
        )
    } else if acc.is_float() {
        (
            format!("(w {cmp} v) || (!(w == w) && v == v)"),
            "(w == v || (!(w == w) && !(v == v)))".to_string(),
        )
    } else {
        (format!("(w {cmp} v)"), "w == v".to_string())
    };
    format!(
        "fn better(v: {ty}, i: i64, w: {ty}, j: i64) -> bool {{\n    return {strict} || ({tie} && j < i);\n}}\n"
    )
}

/// One pass over this thread's elements `j` of `[lo, hi)` and the tree combine across the
/// workgroup; leaves the result in `sh_a[0]` (and `sh_i[0]`). `value` is the mapped element
/// `v`'s expression, `index` the candidate index of element `j`.
fn reduce_pass(
    op: ReduceOp,
    comb: &str,
    acc_ty: &str,
    ident: &str,
    value: &str,
    index: &str,
) -> String {
    let (init, step, merge) = match op {
        ReduceOp::Min | ReduceOp::Max => (
            format!("var acc: {acc_ty} = {ident};\n        var ok = false;"),
            format!("if (ok) {{ acc = {comb}(acc, v); }} else {{ acc = v; ok = true; }}"),
            format!("if (sh_ok[u]) {{ if (sh_ok[t]) {{ sh_a[t] = {comb}(sh_a[t], sh_a[u]); }} else {{ sh_a[t] = sh_a[u]; sh_ok[t] = true; }} }}"),
        ),
        ReduceOp::ArgMin | ReduceOp::ArgMax => (
            format!("var acc: {acc_ty} = {ident};\n        var ok = false;\n        var idx = 0li;"),
            format!("let k = {index};\n            if (!ok || better(acc, idx, v, k)) {{ acc = v; idx = k; ok = true; }}"),
            "if (sh_ok[u] && (!sh_ok[t] || better(sh_a[t], sh_i[t], sh_a[u], sh_i[u]))) { sh_a[t] = sh_a[u]; sh_i[t] = sh_i[u]; sh_ok[t] = true; }".to_string(),
        ),
        _ => (
            format!("var acc: {acc_ty} = {ident};\n        let ok = true;"),
            format!("acc = {comb}(acc, v);"),
            format!("sh_a[t] = {comb}(sh_a[t], sh_a[u]);"),
        ),
    };
    let save_index = if matches!(op, ReduceOp::ArgMin | ReduceOp::ArgMax) {
        "sh_i[t] = idx;"
    } else {
        ""
    };
    format!(
        "        {{\n        {init}\n        for (var j = lo + t; j < hi; j += {wg}u) {{\n            \
         let x0 = ld0(p[io] + (ein + red(j, io + nk)) * ISZu);\n            let v = {value};\n            {step}\n        }}\n        \
         sh_a[t] = acc;\n        sh_ok[t] = ok;\n        {save_index}\n        }}\n        workgroupBarrier();\n        \
         for (var s = {half}u; s > 0u; s >>= 1u) {{\n            if (t < s) {{\n                let u = t + s;\n                \
         {merge}\n            }}\n            workgroupBarrier();\n        }}\n",
        wg = WORKGROUP_SIZE,
        half = WORKGROUP_SIZE / 2,
    )
}

/// Reduce arguments: `[n_out, n_red, nk, nr, chunk, n_chunks, kept_size[nk], red_size[nr],
/// in_offset, in_kept_stride[nk], in_red_stride[nr], (offset, kept_stride[nk],
/// red_stride[nr]) of the indices if indexed, (offset, kept_stride[nk]) of the per-output
/// tensor if any, (out_offset, out_stride[nk], out_chunk_stride) per output, scalars..]`.
/// Workgroup `w` reduces chunk `w % n_chunks` (elements `[c * chunk, (c + 1) * chunk)`) of
/// output `w / n_chunks` and writes it at the output's position plus `c` chunk strides: its
/// invocations split the chunk, then combine through workgroup memory.
fn reduce(k: &ReduceKernel, helpers: &mut Helpers) -> String {
    let acc_ty = compute_type(k.acc);
    let second = k.op.second(k.acc);
    let isz = k.input.size();
    let mut src = format!(
        "var<workgroup> sh_a: array<{acc_ty}, {wg}>;\nvar<workgroup> sh_ok: array<bool, {wg}>;\n\
         var<workgroup> sh_i: array<i64, {wg}>;\nvar<workgroup> wn: array<u32, 6>;\n",
        wg = WORKGROUP_SIZE
    );
    src += &combine_fn("comb", k.op, k.acc, helpers);
    if k.op == ReduceOp::LogSumExp {
        src += &combine_fn("comb_max", ReduceOp::Max, k.acc, helpers);
    }
    if matches!(k.op, ReduceOp::ArgMin | ReduceOp::ArgMax) {
        src += &better_fn(k.op, k.acc);
    }
    // The element offset of reduced position `j` through the reduced strides from word `sb`.
    src += "fn red(j: u32, sb: u32) -> u32 {\n    let nk = p[2];\n    let nr = p[3];\n    var q = j;\n    \
            var e = 0u;\n    for (var d = nr; d > 0u; d -= 1u) {\n        let size = p[5u + nk + d];\n        \
            e += (q % size) * p[sb + d];\n        q = q / size;\n    }\n    return e;\n}\n";
    let ident = match k.op {
        ReduceOp::Prod => Expr::constant(k.acc, 1.0),
        _ => Expr::constant(k.acc, 0.0),
    };
    let ident = expr::render(&ident, helpers);
    let value = expr::render(&k.pre, helpers);
    let outs = k.outputs.len();
    let mut tensor = 1;
    let mut body = String::from(
        "    if (t == 0u) { wn = array<u32, 6>(p[0], p[1], p[2], p[3], p[4], p[5]); }\n    \
         let wv = workgroupUniformLoad(&wn);\n    let n_out = wv[0];\n    let n_red = wv[1];\n    let nk = wv[2];\n    \
         let nr = wv[3];\n    let chunk = wv[4];\n    let n_chunks = wv[5];\n    let io = 6u + nk + nr;\n    \
         var next = io + 1u + nk + nr;\n",
    );
    let index = if k.indexed {
        body += "    let xo = next;\n    next += 1u + nk + nr;\n";
        let t = tensor;
        tensor += 1;
        format!("ld{t}(p[xo] + (ex + red(j, xo + nk)) * 8u)")
    } else {
        "i64(j)".to_string()
    };
    if k.per_output.is_some() {
        body += "    let po = next;\n    next += 1u + nk;\n";
    }
    body += &format!("    let oo = next;\n    let sc = oo + {outs}u * (2u + nk);\n");
    body += &scalar_lets(&k.scalars, "sc");
    body += "    for (var w = wid.x + wid.y * ng.x; w < n_out * n_chunks; w += ng.x * ng.y) {\n        \
             let o = w / n_chunks;\n        let c = w % n_chunks;\n        let lo = c * chunk;\n        \
             let hi = min(n_red, lo + chunk);\n        var r = o;\n        var ein = 0u;\n        var ex = 0u;\n        var epo = 0u;\n";
    for q in 0..outs {
        body += &format!("        var eo{q} = 0u;\n");
    }
    body += "        for (var d = nk; d > 0u; d -= 1u) {\n            let size = p[5u + d];\n            \
             let cd = r % size;\n            r = r / size;\n            ein += cd * p[io + d];\n";
    if k.indexed {
        body += "            ex += cd * p[xo + d];\n";
    }
    if k.per_output.is_some() {
        body += "            epo += cd * p[po + d];\n";
    }
    for q in 0..outs {
        body += &format!("            eo{q} += cd * p[oo + {q}u * (2u + nk) + d];\n");
    }
    body += "        }\n";
    if let Some(dtype) = k.per_output {
        body += &format!(
            "        let x1 = ld{tensor}(p[po] + epo * {}u);\n",
            dtype.size()
        );
    }
    let pass = |op, comb: &str, value: &str| {
        reduce_pass(op, comb, acc_ty, &ident, value, &index).replace("ISZ", &isz.to_string())
    };
    match k.op {
        ReduceOp::Variance => {
            body += &pass(ReduceOp::Sum, "comb", &value);
            body += &format!(
                "        let x1 = sh_a[0] / {};\n        workgroupBarrier();\n",
                convert("n_red", DType::U8, k.acc)
            );
            let deviation = k.pre.clone().sub(Expr::input(1, k.acc));
            let square = expr::render(&deviation.clone().mul(deviation), helpers);
            body += &pass(ReduceOp::Sum, "comb", &square);
        }
        ReduceOp::LogSumExp => {
            body += &pass(ReduceOp::Max, "comb_max", &value);
            body += &format!(
                "        let m = sh_a[0];\n        let x1 = select(m, {ident}, !(abs(m) < {}));\n        workgroupBarrier();\n",
                expr::render(&Expr::constant(k.acc, f64::INFINITY), helpers)
            );
            let shifted = expr::render(&k.pre.clone().sub(Expr::input(1, k.acc)).exp(), helpers);
            body += &pass(ReduceOp::Sum, "comb", &shifted);
        }
        op => {
            body += &pass(op, "comb", &value);
            body += if second.is_some() {
                "        let x1 = sh_i[0];\n"
            } else {
                ""
            };
        }
    }
    body += "        if (t == 0u) {\n            let x0 = sh_a[0];\n";
    let first_out = 1 + usize::from(k.indexed) + usize::from(k.per_output.is_some());
    for (q, (dtype, e)) in k.outputs.iter().enumerate() {
        body += &format!(
            "            st{}(p[oo + {q}u * (2u + nk)] + (eo{q} + c * p[oo + {q}u * (2u + nk) + 1u + nk]) * {}u, {});\n",
            first_out + q,
            dtype.size(),
            expr::render(e, helpers)
        );
    }
    body += "        }\n        workgroupBarrier();\n    }\n";
    src + &format!(
        "@compute @workgroup_size({WORKGROUP_SIZE})\n\
         fn main(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>, \
         @builtin(num_workgroups) ng: vec3<u32>) {{\n{body}}}\n"
    )
}

/// Scan arguments: `[n_lines, len, nk, chunk, n_chunks, kept_size[nk], in_offset,
/// in_kept_stride[nk], in_stride, out_offset, out_kept_stride[nk], out_stride, carry_offset]`
/// (the last with a carry only). Invocation `i` walks chunk `i % n_chunks` (elements
/// `[c * chunk, (c + 1) * chunk)`) of line `i / n_chunks`, starting from the carry tensor's
/// element `i - 1` (the combined earlier chunks, contiguous per line) when `c > 0`.
fn scan(k: &ScanKernel, helpers: &mut Helpers) -> String {
    let acc_ty = compute_type(k.acc);
    let bop = if k.op == ReduceOp::Prod {
        BinaryOp::Mul
    } else {
        BinaryOp::Add
    };
    let step = Expr::input(0, k.acc).binary(bop, Expr::input(1, k.input).cast(k.acc));
    let ident = Expr::constant(k.acc, if k.op == ReduceOp::Prod { 1.0 } else { 0.0 });
    let store = Expr::input(0, k.acc).cast(k.output);
    let (start, out) = if k.carry {
        (
            format!(
                "if (c > 0u) {{ x0 = ld1(p[oo + 2u + nk] + (i - 1u) * {}u); }}",
                k.acc.size()
            ),
            2,
        )
    } else {
        (String::new(), 1)
    };
    let body = format!(
        "    let n = p[0];\n    let len = p[1];\n    let nk = p[2];\n    let chunk = p[3];\n    let n_chunks = p[4];\n    \
         let io = 5u + nk;\n    let oo = io + 2u + nk;\n    \
         for (var i = gid.x + gid.y * ng.x * {wg}u; i < n * n_chunks; i += ng.x * ng.y * {wg}u) {{\n        \
         let o = i / n_chunks;\n        let c = i % n_chunks;\n        var r = o;\n        \
         var ein = 0u;\n        var eout = 0u;\n        for (var d = nk; d > 0u; d -= 1u) {{\n            \
         let cd = r % p[4u + d];\n            r = r / p[4u + d];\n            ein += cd * p[io + d];\n            \
         eout += cd * p[oo + d];\n        }}\n        var x0: {acc_ty} = {ident};\n        {start}\n        \
         let hi = min(len, c * chunk + chunk);\n        \
         for (var j = c * chunk; j < hi; j += 1u) {{\n            let x1 = ld0(p[io] + (ein + j * p[io + 1u + nk]) * {isz}u);\n            \
         x0 = {step};\n            st{out}(p[oo] + (eout + j * p[oo + 1u + nk]) * {osz}u, {store});\n        }}\n    }}\n",
        wg = WORKGROUP_SIZE,
        ident = expr::render(&ident, helpers),
        step = expr::render(&step, helpers),
        store = expr::render(&store, helpers),
        isz = k.input.size(),
        osz = k.output.size(),
    );
    entry(&body)
}

/// Masked-select arguments: `[n, nd, size[nd], (offset, stride[nd]) of the input, the mask
/// and the positions, out_offset]`: `positions` is the inclusive count of set mask elements
/// (int64, any strides); element `i` with its mask set goes to output element
/// `positions[i] - 1` (the output is contiguous).
fn masked_select(dtype: DType) -> String {
    let mut body =
        String::from("    let n = p[0];\n    let nd = p[1];\n    let step = ng.x * WGu;\n")
            .replace("WG", &WORKGROUP_SIZE.to_string());
    body += &strided_loop(&[dtype, DType::Bool, DType::I64]);
    body += &format!(
        "        if (ld1(a1)) {{\n            let at = u32(ld2(a2)) - 1u;\n            \
         st3(p[2u + nd + 3u * (1u + nd)] + at * {sz}u, ld0(a0));\n        }}\n    }}\n",
        sz = dtype.size()
    );
    entry(&body)
}
