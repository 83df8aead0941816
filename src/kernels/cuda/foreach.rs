//! CUDA C++ for the multi-tensor (foreach) pattern (layout in `kernels::wgsl::foreach`).

use super::expr::render as expr;
use super::patterns::{scalar_load, GRID_STRIDE};
use crate::kernels::pattern::ForeachKernel;

pub fn foreach(k: &ForeachKernel) -> String {
    let chunk = k.chunk;
    let lists = k.inputs.len() + k.outputs.len();
    let offsets = 1 + chunk;
    let scalar_words: usize = k.scalars.iter().map(|d| d.size().div_ceil(4).min(2)).sum();
    let mut body = format!("    const u32 n = p.w[0];\n    for (u32 i = {GRID_STRIDE}) {{\n");
    for pos in 0..chunk {
        let start = if pos == 0 {
            "0u".to_string()
        } else {
            format!("p.w[{pos}]")
        };
        let keyword = if pos == 0 { "if" } else { "} else if" };
        body += &format!(
            "        {keyword} (i < p.w[{}]) {{\n            const u32 j = i - {start};\n",
            pos + 1
        );
        let base = offsets + lists * chunk + pos * scalar_words;
        let mut word = 0;
        for (q, dtype) in k.scalars.iter().enumerate() {
            body += &format!(
                "            const auto s{q} = {};\n",
                scalar_load(*dtype, &format!("{}", base + word))
            );
            word += dtype.size().div_ceil(4).min(2);
        }
        for (l, (dtype, broadcast)) in k.inputs.iter().enumerate() {
            let t = l * chunk + pos;
            let at = if *broadcast {
                "0u".to_string()
            } else {
                format!("j * {}u", dtype.size())
            };
            body += &format!("            const auto x{l} = ld{t}({at});\n");
        }
        for (o, (dtype, value)) in k.outputs.iter().enumerate() {
            let t = (k.inputs.len() + o) * chunk + pos;
            body += &format!(
                "            st{t}(j * {}u, {});\n",
                dtype.size(),
                expr(value)
            );
        }
    }
    body + "        }\n    }\n"
}
