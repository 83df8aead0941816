//! WGSL for the multi-tensor (foreach) pattern.

use super::expr;
use super::math::Helpers;
use super::patterns::{entry, scalar_load, WORKGROUP_SIZE};
use crate::kernels::pattern::ForeachKernel;

/// Foreach arguments: `[n, end[chunk], offset per tensor argument, scalars per position]`;
/// position `k` covers the elements `end[k - 1] <= i < end[k]` of the total `n`.
pub fn foreach(k: &ForeachKernel, helpers: &mut Helpers) -> String {
    let chunk = k.chunk;
    let lists = k.inputs.len() + k.outputs.len();
    let offsets = 1 + chunk;
    let scalar_words: usize = k.scalars.iter().map(|d| d.size().div_ceil(4).min(2)).sum();
    let mut body = format!(
        "    let n = p[0];\n    let step = ng.x * {WORKGROUP_SIZE}u;\n    \
         for (var i = gid.x + gid.y * step; i < n; i += step * ng.y) {{\n"
    );
    for pos in 0..chunk {
        let start = if pos == 0 {
            "0u".to_string()
        } else {
            format!("p[{pos}u]")
        };
        let keyword = if pos == 0 { "if" } else { "} else if" };
        body += &format!(
            "        {keyword} (i < p[{}u]) {{\n            let j = i - {start};\n",
            pos + 1
        );
        let base = offsets + lists * chunk + pos * scalar_words;
        let mut word = 0;
        for (q, dtype) in k.scalars.iter().enumerate() {
            body += &format!(
                "            let s{q} = {};\n",
                scalar_load(*dtype, &format!("{}u", base + word))
            );
            word += dtype.size().div_ceil(4).min(2);
        }
        for (l, (dtype, broadcast)) in k.inputs.iter().enumerate() {
            let t = l * chunk + pos;
            let at = if *broadcast {
                format!("p[{}u]", offsets + t)
            } else {
                format!("p[{}u] + j * {}u", offsets + t, dtype.size())
            };
            body += &format!("            let x{l} = ld{t}({at});\n");
        }
        for (o, (dtype, value)) in k.outputs.iter().enumerate() {
            let t = (k.inputs.len() + o) * chunk + pos;
            body += &format!(
                "            st{t}(p[{}u] + j * {}u, {});\n",
                offsets + t,
                dtype.size(),
                expr::render(value, helpers)
            );
        }
    }
    body += "        }\n    }\n";
    entry(&body)
}
