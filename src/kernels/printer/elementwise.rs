//! Elementwise skeletons: the strided map, the multi-tensor (foreach) map and masked_select.

use super::{Printer, Ty};
use crate::dtype::DType;
use crate::kernels::pattern::{Aligned16, ForeachKernel, MapKernel, Splat};
use crate::kernels::Expr;

/// The output values of a map.
fn outputs(k: &MapKernel) -> Vec<&Expr> {
    k.outputs.iter().map(|(_, value)| value).collect()
}

/// Map arguments: `[n, nd, size[nd], (offset, stride[nd]) per tensor, scalars...]`; offsets
/// are byte addresses, strides are in elements, 64-bit scalars take two words (low first).
/// One invocation per element at a time.
pub fn map(p: &mut Printer, k: &MapKernel) {
    let tensors = k.inputs.len() + k.outputs.len();
    p.let_("n", Ty::U32, p.word("0u"));
    p.let_("nd", Ty::U32, p.word("1u"));
    p.scalars(&k.scalars, &format!("2u + nd + {tensors}u * (1u + nd)"));
    let dtypes: Vec<DType> = k
        .inputs
        .iter()
        .copied()
        .chain(k.outputs.iter().map(|o| o.0))
        .collect();
    p.strided_loop(&dtypes, "n", "1u", "2u + nd");
    for (t, &dtype) in k.inputs.iter().enumerate() {
        p.let_(&format!("x{t}"), Ty::Value(dtype), format!("ld{t}(a{t})"));
    }
    for (o, value) in p.values(&outputs(k), 0).into_iter().enumerate() {
        let t = k.inputs.len() + o;
        p.line(format!("st{t}(a{t}, {value});"));
    }
    p.close();
}

/// A map several elements per work item (layout as [`map`], one or two dimensions whose rows
/// are a multiple of four long; see [`Kernel::MapVector`]): work item `q` takes the `lanes`
/// elements from `lanes * q` ([`MapKernel::vector_lanes`]), four at a time through one load of
/// four elements per vector input (16 bytes of float32, one word of uint8) and one store per
/// output. An item inside one row finds its row once and loads each splat input (the element
/// of its row) once, and moves its tensors of under four bytes 16 bytes at a time where they
/// are [`Aligned16`] (16M uint8 adds on lavapipe, 2 cores: 6.0 -> 3.2 ms); an item across
/// rows does both per four elements; a one-dimensional map's last elements that are not four
/// go one by one.
///
/// [`Kernel::MapVector`]: crate::kernels::Kernel::MapVector
pub fn map_vector(p: &mut Printer, k: &MapKernel, splat: Splat, aligned: Aligned16) {
    let tensors = k.inputs.len() + k.outputs.len();
    let lanes = k.vector_lanes(splat, p.d.blocked_grid());
    p.let_("n", Ty::U32, p.word("0u"));
    p.let_("nd", Ty::U32, p.word("1u"));
    p.let_("inner", Ty::U32, p.word("1u + nd"));
    p.scalars(&k.scalars, &format!("2u + nd + {tensors}u * (1u + nd)"));
    // Each tensor's offset and row stride (zero with one dimension).
    for t in 0..tensors {
        let at = format!("2u + nd + {t}u * (1u + nd)");
        p.let_(&format!("o{t}"), Ty::U32, p.word(&at));
        p.var(&format!("rs{t}"), Ty::U32, "0u");
    }
    p.if_("nd == 2u");
    for t in 0..tensors {
        let stride = p.word(format!("2u + nd + {t}u * (1u + nd) + 1u"));
        p.line(format!("rs{t} = {stride};"));
    }
    p.close();
    p.grid_loop("q", &format!("(n + {}u) / {lanes}u", lanes - 1));
    p.let_("base", Ty::U32, format!("q * {lanes}u"));
    // Where tensor `t`'s element at column `col` of row `row` lies (a splat input's: its
    // row's).
    let size = |t: usize| match k.inputs.get(t) {
        Some(dtype) => dtype.size(),
        None => k.outputs[t - k.inputs.len()].0.size(),
    };
    let at = |t: usize, col: &str| {
        if t < k.inputs.len() && splat.has(t) {
            format!("o{t} + row * rs{t} * {}u", size(t))
        } else {
            format!("o{t} + (row * rs{t} + {col}) * {}u", size(t))
        }
    };
    let out_dtypes: Vec<DType> = k.outputs.iter().map(|o| o.0).collect();
    // Fours per 16-byte chunk of tensor `t` where an item inside a row moves it by chunks
    // (see `Aligned16`), else None. Chunk `g` of the item is `w{t}_{g}`.
    let per_chunk = |t: usize| {
        let along_row = t >= k.inputs.len() || !splat.has(t);
        let fours = 4 / size(t) as u32;
        (aligned.0 && along_row && fours > 1 && lanes >= 4 * fours).then_some(fours as usize)
    };
    // The four elements from `first`, at column `col` of row `row`; `f`, the four's place in
    // an item inside a row (whose tensors may move by chunks).
    let four = |p: &mut Printer, first: &str, col: &str, f: Option<usize>| {
        let chunked = |t: usize| f.zip(per_chunk(t));
        p.open("");
        p.let_("first", Ty::U32, first);
        for (t, &dtype) in k.inputs.iter().enumerate() {
            if !splat.has(t) {
                let v = match chunked(t) {
                    Some((f, fours)) => {
                        p.d.four_of16(&format!("w{t}_{}", f / fours), dtype, f % fours)
                    }
                    None => p.d.load4(t, dtype, &at(t, col)),
                };
                let line = p.d.let_inferred(&format!("loaded{t}"), &v);
                p.line(line);
            }
        }
        let results = four_lanes(
            p,
            &k.inputs,
            &|t| !splat.has(t),
            (&out_dtypes, &outputs(k)),
            Some("first"),
        );
        for (o, (dtype, _)) in k.outputs.iter().enumerate() {
            let t = k.inputs.len() + o;
            let store = match chunked(t) {
                Some((f, fours)) => {
                    let chunk = format!("w{t}_{}", f / fours);
                    p.d.set_four_of16(&chunk, *dtype, f % fours, &results[o])
                }
                None => p.d.store4(t, *dtype, &at(t, col), &results[o]),
            };
            p.line(store);
        }
        p.close();
    };
    // Chunks of the item inside a row: loaded (inputs) or declared (outputs) before their
    // first four, stored after their last.
    let chunk_edges = |p: &mut Printer, f: usize, before: bool| {
        for t in 0..tensors {
            let Some(fours) = per_chunk(t) else { continue };
            let chunk = format!("w{t}_{}", f / fours);
            let first = f - f % fours;
            let col = format!("col + {}u", 4 * first);
            if before && f.is_multiple_of(fours) {
                let line = if t < k.inputs.len() {
                    p.d.let_inferred(&chunk, &p.d.load16(t, &at(t, &col)))
                } else {
                    p.d.chunk16(&chunk)
                };
                p.line(line);
            } else if !before && t >= k.inputs.len() && f % fours == fours - 1 {
                let line = p.d.store16(t, &at(t, &col), &chunk);
                p.line(line);
            }
        }
    };
    // Where the element `first` lies: its row and column.
    let locate = |p: &mut Printer, first: &str| {
        p.var("row", Ty::U32, "0u");
        p.var("col", Ty::U32, first);
        p.if_("nd == 2u");
        p.line(format!("row = {first} / inner;"));
        p.line(format!("col = {first} - row * inner;"));
        p.close();
    };
    let splats = |p: &mut Printer| {
        for (t, &dtype) in k.inputs.iter().enumerate() {
            if splat.has(t) {
                p.let_(
                    &format!("x{t}"),
                    Ty::Value(dtype),
                    format!("ld{t}({})", at(t, "")),
                );
            }
        }
    };
    p.let_("end", Ty::U32, format!("min(base + {lanes}u, n)"));
    locate(p, "base");
    // A whole item inside one row: its rows and splat inputs read once.
    let row_end = p.select("nd == 2u", "inner", "n");
    p.if_(format!(
        "base + {lanes}u <= n && col + {lanes}u <= {row_end}"
    ));
    splats(p);
    for step in (0..lanes).step_by(4) {
        let (first, col) = match step {
            0 => ("base".to_string(), "col".to_string()),
            _ => (format!("base + {step}u"), format!("col + {step}u")),
        };
        let f = step as usize / 4;
        chunk_edges(p, f, true);
        four(p, &first, &col, Some(f));
        chunk_edges(p, f, false);
    }
    // Else four elements at a time (rows are a multiple of four long), then one by one.
    p.else_(None);
    if lanes > 4 {
        p.for_("four", "base", "four + 4u <= end", "four += 4u");
        locate(p, "four");
        splats(p);
        four(p, "four", "col", None);
        p.close();
    }
    // The last elements of a one-dimensional map that are not four, one by one.
    p.for_up("i", "end & ~3u", "end");
    for (t, &dtype) in k.inputs.iter().enumerate() {
        p.let_(
            &format!("x{t}"),
            Ty::Value(dtype),
            format!("ld{t}({})", at(t, "i")),
        );
    }
    for (o, value) in p.values(&outputs(k), 0).into_iter().enumerate() {
        let t = k.inputs.len() + o;
        p.line(format!("st{t}({}, {value});", at(t, "i")));
    }
    p.close();
    p.close();
    p.close();
}

/// Foreach arguments: `[n, end[chunk], offset per tensor argument, scalars per position]`;
/// position `k` covers the elements `end[k - 1] <= i < end[k]` of the total `n`. The positions
/// are walked one after another, each over the whole grid, so that a position's words are
/// read once per invocation rather than per element, and (see [`ForeachKernel::vector`])
/// four elements per work item by 16-byte loads and stores where its tensors are aligned:
/// lavapipe took 20 ms for four 1M-element tensors element by element, against 5.5 ms for
/// four maps.
pub fn foreach(p: &mut Printer, k: &ForeachKernel) {
    let chunk = k.chunk;
    let lists = k.inputs.len() + k.outputs.len();
    let offsets = 1 + chunk;
    let scalar_words: usize = k.scalars.iter().map(|d| d.size().div_ceil(4).min(2)).sum();
    for pos in 0..chunk {
        p.open("");
        let start = if pos == 0 {
            "0u".to_string()
        } else {
            p.word(format!("{pos}u"))
        };
        p.let_("start", Ty::U32, start);
        let end = p.word(format!("{}u", pos + 1));
        p.let_("count", Ty::U32, format!("{end} - start"));
        p.scalars(
            &k.scalars,
            &format!("{}u", offsets + lists * chunk + pos * scalar_words),
        );
        // Tensor `t` of this position (list `l`) starts at byte `o{t}`; a broadcast input is
        // its one element.
        let tensor = |l: usize| l * chunk + pos;
        for l in 0..lists {
            let t = tensor(l);
            p.let_(
                &format!("o{t}"),
                Ty::U32,
                p.word(format!("{}u", offsets + t)),
            );
        }
        for (l, &(dtype, broadcast)) in k.inputs.iter().enumerate() {
            if broadcast {
                let t = tensor(l);
                p.let_(&format!("x{l}"), Ty::Value(dtype), format!("ld{t}(o{t})"));
            }
        }
        if k.vector() {
            let aligned: Vec<String> = (0..lists)
                .filter(|&l| !k.inputs.get(l).is_some_and(|i| i.1))
                .map(|l| format!("(o{} & 15u) == 0u", tensor(l)))
                .collect();
            p.let_("aligned", Ty::Bool, aligned.join(" && "));
            foreach_fours(p, k, &tensor);
        } else {
            p.grid_loop("j", "count");
            foreach_element(p, k, &tensor, "j");
            p.close();
        }
        p.close();
    }
}

/// Element `j` of a foreach position: its inputs loaded (broadcast ones are already), its
/// outputs computed and stored.
fn foreach_element(p: &mut Printer, k: &ForeachKernel, tensor: &dyn Fn(usize) -> usize, j: &str) {
    for (l, &(dtype, broadcast)) in k.inputs.iter().enumerate() {
        if !broadcast {
            let t = tensor(l);
            let at = format!("o{t} + {j} * {}u", dtype.size());
            p.let_(&format!("x{l}"), Ty::Value(dtype), format!("ld{t}({at})"));
        }
    }
    for (o, (dtype, value)) in k.outputs.iter().enumerate() {
        let t = tensor(k.inputs.len() + o);
        let value = p.expr(value);
        p.line(format!("st{t}(o{t} + {j} * {}u, {value});", dtype.size()));
    }
}

/// The four elements of a vector work item: input `t` is lane `l` of `loaded{t}` where
/// `vector(t)` (others are already `x{t}`); output `o`'s value for lane `l` goes into
/// `r{o}_{l}`, declared here, whose names are returned. With `first` (the index of lane 0's
/// element), each lane first names its element index `i`, which map expressions may read.
fn four_lanes(
    p: &mut Printer,
    inputs: &[DType],
    vector: &dyn Fn(usize) -> bool,
    (dtypes, values): (&[DType], &[&Expr]),
    first: Option<&str>,
) -> Vec<[String; 4]> {
    let results: Vec<[String; 4]> = (0..dtypes.len())
        .map(|o| std::array::from_fn(|lane| format!("r{o}_{lane}")))
        .collect();
    for (names, &dtype) in results.iter().zip(dtypes) {
        for name in names {
            let zero = p.d.constant(dtype, 0.0);
            p.var(name, Ty::Value(dtype), zero);
        }
    }
    for lane in 0..4 {
        p.open("");
        if let Some(first) = first {
            p.let_("i", Ty::U32, format!("{first} + {lane}u"));
        }
        for (t, &dtype) in inputs.iter().enumerate() {
            if vector(t) {
                let c = p.d.lane(&format!("loaded{t}"), dtype, lane);
                p.let_(&format!("x{t}"), Ty::Value(dtype), c);
            }
        }
        for (o, value) in p.values(values, 0).into_iter().enumerate() {
            p.line(format!("r{o}_{lane} = {value};"));
        }
        p.close();
    }
    results
}

/// A foreach position four elements per work item `q` (of 4-byte elements): by 16-byte loads
/// and stores where its tensors are `aligned`, else (and the last partial four) one by one.
fn foreach_fours(p: &mut Printer, k: &ForeachKernel, tensor: &dyn Fn(usize) -> usize) {
    p.grid_loop("q", "(count + 3u) / 4u");
    p.let_("base", Ty::U32, "q * 4u");
    p.if_("aligned && base + 4u <= count");
    for (l, &(dtype, broadcast)) in k.inputs.iter().enumerate() {
        if !broadcast {
            let t = tensor(l);
            let v = p.d.load4(t, dtype, &format!("o{t} + base * 4u"));
            let line = p.d.let_inferred(&format!("loaded{l}"), &v);
            p.line(line);
        }
    }
    let in_dtypes: Vec<DType> = k.inputs.iter().map(|i| i.0).collect();
    let out_dtypes: Vec<DType> = k.outputs.iter().map(|o| o.0).collect();
    let values: Vec<&Expr> = k.outputs.iter().map(|o| &o.1).collect();
    let results = four_lanes(
        p,
        &in_dtypes,
        &|l| !k.inputs[l].1,
        (&out_dtypes, &values),
        None,
    );
    for (o, (dtype, _)) in k.outputs.iter().enumerate() {
        let t = tensor(k.inputs.len() + o);
        let store =
            p.d.store4(t, *dtype, &format!("o{t} + base * 4u"), &results[o]);
        p.line(store);
    }
    p.else_(None);
    p.for_up("jj", "base", "min(base + 4u, count)");
    foreach_element(p, k, tensor, "jj");
    p.close();
    p.close();
    p.close();
}

/// Masked-select arguments: `[n, nd, size[nd], (offset, stride[nd]) of the input, the mask
/// and the positions, out_offset]`: `positions` is the inclusive count of set mask elements
/// (int64, any strides); element `i` with its mask set goes to output element
/// `positions[i] - 1` (the output is contiguous).
pub fn masked_select(p: &mut Printer, dtype: DType) {
    p.let_("n", Ty::U32, p.word("0u"));
    p.let_("nd", Ty::U32, p.word("1u"));
    p.let_("out", Ty::U32, p.word("2u + nd + 3u * (1u + nd)"));
    p.strided_loop(&[dtype, DType::Bool, DType::I64], "n", "1u", "2u + nd");
    p.if_("ld1(a1)");
    p.let_("at", Ty::U32, "u32(ld2(a2)) - 1u");
    p.line(format!("st3(out + at * {}u, ld0(a0));", dtype.size()));
    p.close();
    p.close();
}
