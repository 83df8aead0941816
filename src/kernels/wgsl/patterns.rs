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

/// One pass over this thread's elements and the tree combine across the workgroup; leaves
/// the result in `sh_a[0]` (and `sh_i[0]`). `value` is the mapped element `v`'s expression.
fn reduce_pass(op: ReduceOp, comb: &str, acc_ty: &str, ident: &str, value: &str) -> String {
    let (init, step, merge) = match op {
        ReduceOp::Min | ReduceOp::Max => (
            format!("var acc: {acc_ty} = {ident};\n        var ok = false;"),
            format!("if (ok) {{ acc = {comb}(acc, v); }} else {{ acc = v; ok = true; }}"),
            format!("if (sh_ok[u]) {{ if (sh_ok[t]) {{ sh_a[t] = {comb}(sh_a[t], sh_a[u]); }} else {{ sh_a[t] = sh_a[u]; sh_ok[t] = true; }} }}"),
        ),
        ReduceOp::ArgMin | ReduceOp::ArgMax => (
            format!("var acc: {acc_ty} = {ident};\n        var ok = false;\n        var idx = 0li;"),
            "if (!ok || better(acc, idx, v, i64(j))) { acc = v; idx = i64(j); ok = true; }".to_string(),
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
        "        {{\n        {init}\n        for (var j = t; j < n_red; j += {wg}u) {{\n            \
         let x0 = ld0(elem(j, base, nk, nr));\n            let v = {value};\n            {step}\n        }}\n        \
         sh_a[t] = acc;\n        sh_ok[t] = ok;\n        {save_index}\n        }}\n        workgroupBarrier();\n        \
         for (var s = {half}u; s > 0u; s >>= 1u) {{\n            if (t < s) {{\n                let u = t + s;\n                \
         {merge}\n            }}\n            workgroupBarrier();\n        }}\n",
        wg = WORKGROUP_SIZE,
        half = WORKGROUP_SIZE / 2,
    )
}

/// Reduce arguments: `[n_out, n_red, nk, nr, kept_size[nk], red_size[nr], in_offset,
/// in_kept_stride[nk], in_red_stride[nr], (out_offset, out_stride[nk]) per output, scalars..]`.
/// One workgroup per output element; its invocations split the reduced elements, then combine
/// through workgroup memory.
fn reduce(k: &ReduceKernel, helpers: &mut Helpers) -> String {
    let acc_ty = compute_type(k.acc);
    let second = k.op.second(k.acc);
    let isz = k.input.size();
    let mut src = format!(
        "var<workgroup> sh_a: array<{acc_ty}, {wg}>;\nvar<workgroup> sh_ok: array<bool, {wg}>;\n\
         var<workgroup> sh_i: array<i64, {wg}>;\nvar<workgroup> wn: vec4<u32>;\n",
        wg = WORKGROUP_SIZE
    );
    src += &combine_fn("comb", k.op, k.acc, helpers);
    if k.op == ReduceOp::LogSumExp {
        src += &combine_fn("comb_max", ReduceOp::Max, k.acc, helpers);
    }
    if matches!(k.op, ReduceOp::ArgMin | ReduceOp::ArgMax) {
        src += &better_fn(k.op, k.acc);
    }
    src += &format!(
        "fn elem(j: u32, base: u32, nk: u32, nr: u32) -> u32 {{\n    let io = 4u + nk + nr;\n    \
         var q = j;\n    var e = 0u;\n    for (var d = nr; d > 0u; d -= 1u) {{\n        \
         let c = q % p[3u + nk + d];\n        q = q / p[3u + nk + d];\n        e += c * p[io + nk + d];\n    }}\n    \
         return base + e * {isz}u;\n}}\n"
    );
    let ident = match k.op {
        ReduceOp::Prod => Expr::constant(k.acc, 1.0),
        _ => Expr::constant(k.acc, 0.0),
    };
    let ident = expr::render(&ident, helpers);
    let value = expr::render(&k.pre, helpers);
    let outs = k.outputs.len();
    let mut body = format!(
        "    if (t == 0u) {{ wn = vec4<u32>(p[0], p[1], p[2], p[3]); }}\n    let w = workgroupUniformLoad(&wn);\n    \
         let n_out = w.x;\n    let n_red = w.y;\n    let nk = w.z;\n    let nr = w.w;\n    let io = 4u + nk + nr;\n    \
         let oo = io + 1u + nk + nr;\n    let sc = oo + {outs}u * (1u + nk);\n"
    );
    body += &scalar_lets(&k.scalars, "sc");
    body += "    for (var o = wid.x + wid.y * ng.x; o < n_out; o += ng.x * ng.y) {\n        var r = o;\n        var ein = 0u;\n";
    for q in 0..outs {
        body += &format!("        var eo{q} = 0u;\n");
    }
    body += "        for (var d = nk; d > 0u; d -= 1u) {\n            let c = r % p[3u + d];\n            r = r / p[3u + d];\n            ein += c * p[io + d];\n";
    for q in 0..outs {
        body += &format!("            eo{q} += c * p[oo + {q}u * (1u + nk) + d];\n");
    }
    body += &format!("        }}\n        let base = p[io] + ein * {isz}u;\n");
    match k.op {
        ReduceOp::Variance => {
            body += &reduce_pass(ReduceOp::Sum, "comb", acc_ty, &ident, &value);
            body += &format!(
                "        let x1 = sh_a[0] / {};\n        workgroupBarrier();\n",
                convert("n_red", DType::U8, k.acc)
            );
            let deviation = k.pre.clone().sub(Expr::input(1, k.acc));
            let square = expr::render(&deviation.clone().mul(deviation), helpers);
            body += &reduce_pass(ReduceOp::Sum, "comb", acc_ty, &ident, &square);
        }
        ReduceOp::LogSumExp => {
            body += &reduce_pass(ReduceOp::Max, "comb_max", acc_ty, &ident, &value);
            body += &format!(
                "        let m = sh_a[0];\n        let x1 = select(m, {ident}, !(abs(m) < {}));\n        workgroupBarrier();\n",
                expr::render(&Expr::constant(k.acc, f64::INFINITY), helpers)
            );
            let shifted = expr::render(&k.pre.clone().sub(Expr::input(1, k.acc)).exp(), helpers);
            body += &reduce_pass(ReduceOp::Sum, "comb", acc_ty, &ident, &shifted);
        }
        op => {
            body += &reduce_pass(op, "comb", acc_ty, &ident, &value);
            body += if second.is_some() {
                "        let x1 = sh_i[0];\n"
            } else {
                ""
            };
        }
    }
    body += "        if (t == 0u) {\n            let x0 = sh_a[0];\n";
    for (q, (dtype, e)) in k.outputs.iter().enumerate() {
        body += &format!(
            "            st{}(p[oo + {q}u * (1u + nk)] + eo{q} * {}u, {});\n",
            q + 1,
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

/// Scan arguments: `[n_lines, len, nk, kept_size[nk], in_offset, in_kept_stride[nk],
/// in_stride, out_offset, out_kept_stride[nk], out_stride]`; one invocation per line.
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
    let body = format!(
        "    let n = p[0];\n    let len = p[1];\n    let nk = p[2];\n    let io = 3u + nk;\n    let oo = io + 2u + nk;\n    \
         for (var o = gid.x + gid.y * ng.x * {wg}u; o < n; o += ng.x * ng.y * {wg}u) {{\n        var r = o;\n        \
         var ein = 0u;\n        var eout = 0u;\n        for (var d = nk; d > 0u; d -= 1u) {{\n            \
         let c = r % p[2u + d];\n            r = r / p[2u + d];\n            ein += c * p[io + d];\n            \
         eout += c * p[oo + d];\n        }}\n        var x0: {acc_ty} = {ident};\n        \
         for (var j = 0u; j < len; j += 1u) {{\n            let x1 = ld0(p[io] + (ein + j * p[io + 1u + nk]) * {isz}u);\n            \
         x0 = {step};\n            st1(p[oo] + (eout + j * p[oo + 1u + nk]) * {osz}u, {store});\n        }}\n    }}\n",
        wg = WORKGROUP_SIZE,
        ident = expr::render(&ident, helpers),
        step = expr::render(&step, helpers),
        store = expr::render(&store, helpers),
        isz = k.input.size(),
        osz = k.output.size(),
    );
    entry(&body)
}

/// Masked-select arguments: `[n, nd, size[nd], in_offset, in_stride[nd], mask_offset,
/// mask_stride[nd], out_offset]`; the output is contiguous.
fn masked_select(dtype: DType) -> String {
    let body = format!(
        "    if (gid.x != 0u || gid.y != 0u) {{ return; }}\n    let n = p[0];\n    let nd = p[1];\n\
         var j = 0u;\n    for (var i = 0u; i < n; i += 1u) {{\n        var r = i;\n        var ein = 0u;\n\
         var em = 0u;\n        for (var d = nd; d > 0u; d -= 1u) {{\n            let c = r % p[1u + d];\n\
         r = r / p[1u + d];\n            ein += c * p[2u + nd + d];\n            em += c * p[3u + 2u * nd + d];\n\
         }}\n        if (ld1(p[3u + 2u * nd] + em)) {{\n\
         st2(p[4u + 3u * nd] + j * {sz}u, ld0(p[2u + nd] + ein * {sz}u));\n            j += 1u;\n        }}\n    }}\n",
        sz = dtype.size()
    );
    entry(&body)
}
