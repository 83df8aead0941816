//! WGSL for each kernel pattern. Launch-argument layouts (u32 words in binding 0) are documented
//! per pattern and mirrored by `ops::launch_args`.

use super::access::{atomic_slots, bindings, load_fn, store_fn};
use super::dtype::{compute_type, convert, HELPERS};
use super::expr;
use crate::dtype::DType;
use crate::kernels::pattern::{Kernel, MapKernel, ReduceKernel, ReduceOp};

/// Invocations per workgroup.
pub const WORKGROUP_SIZE: u32 = 64;

/// The WGSL source of `kernel`, with tensor argument `t` bound to buffer slot `slots[t]`.
pub fn render(kernel: &Kernel, slots: &[usize]) -> String {
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
    src += &match kernel {
        Kernel::Map(kernel) => map(kernel),
        Kernel::Reduce(kernel) => reduce(kernel),
        Kernel::MaskedSelect(dtype) => masked_select(*dtype),
    };
    src
}

fn entry(body: &str) -> String {
    format!(
        "@compute @workgroup_size({WORKGROUP_SIZE})\n\
         fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) ng: vec3<u32>) {{\n\
         {body}}}\n"
    )
}

/// Reads scalar `k` of `dtype` from word `w` of the arguments.
fn scalar_load(dtype: DType, w: &str) -> String {
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

/// Map arguments: `[n, nd, size[nd], (offset, stride[nd]) per tensor, scalars...]`; offsets are
/// byte addresses, strides are in elements, 64-bit scalars take two words (low first).
fn map(k: &MapKernel) -> String {
    let tensors = k.inputs.len() + k.outputs.len();
    let mut body = String::from(
        "    let n = p[0];\n    let nd = p[1];\n    let step = ng.x * WG;\n    let sc = 2u + nd + TS * (1u + nd);\n",
    )
    .replace("WG", &format!("{WORKGROUP_SIZE}u"))
    .replace("TS", &format!("{tensors}u"));
    let mut word = 0;
    for (s, &dtype) in k.scalars.iter().enumerate() {
        body += &format!(
            "    let s{s} = {};\n",
            scalar_load(dtype, &format!("sc + {word}u"))
        );
        word += if dtype.size() == 8 { 2 } else { 1 };
    }
    body +=
        "    for (var i = gid.x + gid.y * step; i < n; i += step * ng.y) {\n        var r = i;\n";
    for t in 0..tensors {
        body += &format!("        var e{t} = 0u;\n");
    }
    body += "        for (var d = nd; d > 0u; d -= 1u) {\n            let size = p[1u + d];\n            \
             let c = r % size;\n            r = r / size;\n";
    for t in 0..tensors {
        body += &format!("            e{t} += c * p[2u + nd + {t}u * (1u + nd) + d];\n");
    }
    body += "        }\n";
    let dtypes: Vec<DType> = k
        .inputs
        .iter()
        .copied()
        .chain(k.outputs.iter().map(|o| o.0))
        .collect();
    for (t, dtype) in dtypes.iter().enumerate() {
        body += &format!(
            "        let a{t} = p[2u + nd + {t}u * (1u + nd)] + e{t} * {}u;\n",
            dtype.size()
        );
    }
    for t in 0..k.inputs.len() {
        body += &format!("        let x{t} = ld{t}(a{t});\n");
    }
    for (o, (_, value)) in k.outputs.iter().enumerate() {
        let t = k.inputs.len() + o;
        body += &format!("        st{t}(a{t}, {});\n", expr::render(value));
    }
    body += "    }\n";
    entry(&body)
}

/// Reduce arguments: `[n_out, n_red, nk, nr, kept_size[nk], red_size[nr], in_offset,
/// in_kept_stride[nk], in_red_stride[nr], out_offset, out_stride[nk]]`. One invocation per output.
fn reduce(k: &ReduceKernel) -> String {
    let (start, first, step, out) = match k.op {
        ReduceOp::Sum => (
            format!(
                "var acc: {} = {};",
                compute_type(k.output),
                convert("0u", DType::U8, k.output)
            ),
            "0u",
            format!("acc = acc + {};", convert("v", k.input, k.output)),
            "acc".to_string(),
        ),
        ReduceOp::Min | ReduceOp::Max => {
            let (f, cmp, logic) = if k.op == ReduceOp::Min {
                ("min", "<", "&")
            } else {
                ("max", ">", "|")
            };
            let step = if k.input.is_float() {
                format!("if (!(v == v) || (acc == acc && v {cmp} acc)) {{ acc = v; }}")
            } else if k.input == DType::Bool {
                format!("acc = acc {logic} v;")
            } else {
                format!("acc = {f}(acc, v);")
            };
            (
                "var acc = ld0(base);".to_string(),
                "1u",
                step,
                convert("acc", k.input, k.output),
            )
        }
    };
    let body = format!(
        "    let n_out = p[0];\n    let n_red = p[1];\n    let nk = p[2];\n    let nr = p[3];\n\
         let io = 4u + nk + nr;\n    let oo = io + 1u + nk + nr;\n\
         for (var o = gid.x + gid.y * ng.x * {wg}u; o < n_out; o += ng.x * ng.y * {wg}u) {{\n\
         var r = o;\n        var ein = 0u;\n        var eout = 0u;\n\
         for (var d = nk; d > 0u; d -= 1u) {{\n            let c = r % p[3u + d];\n            r = r / p[3u + d];\n\
         ein += c * p[io + d];\n            eout += c * p[oo + d];\n        }}\n\
         let base = p[io] + ein * {isz}u;\n        {start}\n\
         for (var j = {first}; j < n_red; j += 1u) {{\n            var q = j;\n            var e = 0u;\n\
         for (var d = nr; d > 0u; d -= 1u) {{\n                let c = q % p[3u + nk + d];\n\
         q = q / p[3u + nk + d];\n                e += c * p[io + nk + d];\n            }}\n\
         let v = ld0(base + e * {isz}u);\n            {step}\n        }}\n\
         st1(p[oo] + eout * {osz}u, {out});\n    }}\n",
        wg = WORKGROUP_SIZE,
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
