//! Loads and stores of tensor elements from word bindings.
//!
//! A slot whose buffer exceeds the device's largest binding is bound as consecutive windows
//! (`b{s}_0`, `b{s}_1`, ..., each `1 << window_shift` bytes): its words are read and written
//! through functions (`rd{s}`, `wr{s}`, ...) that pick the window from the high bits of the
//! word index, so every pattern reaches any byte of a buffer up to 4 GiB unchanged.

use super::dtype::{compute_type, from_bits, to_bits};
use super::Bindings;
use crate::dtype::DType;

/// How one slot is declared.
#[derive(Clone, Copy)]
pub struct Slot {
    /// Receives sub-word stores: its words are atomic, so neighbouring elements are never lost.
    pub atomic: bool,
    /// Bound as 16-byte words (the vector loads of maps, reductions and scans).
    pub wide: bool,
    /// A wide slot only read, on a CPU device: its 16-byte words are bound as pairs of
    /// 64-bit words, which lavapipe loads in half the steps (it loads each component of each
    /// invocation on its own, bounds-checked: 16M float32 summed in 5-9 ms instead of 9-13).
    pub pairs: bool,
    /// Consecutive windows it is bound as (1: the whole buffer).
    pub windows: u32,
    /// log2 of a window's size in the slot's array elements.
    pub shift: u32,
}

impl Slot {
    /// The slots of a kernel whose tensors have `dtypes` (the first `inputs` read-only), on
    /// a CPU device or not. Sub-word stores are atomic unless each invocation `owns_words`
    /// it stores to (a vector map: four elements, whole words, per work item).
    pub fn all(
        bindings: &Bindings,
        dtypes: &[DType],
        inputs: usize,
        wide: bool,
        owns_words: bool,
        cpu: bool,
    ) -> Vec<Slot> {
        let count = bindings.slots.iter().max().map_or(0, |m| m + 1);
        let mut atomic = vec![false; count];
        let mut written = vec![false; count];
        for (t, (&dtype, &slot)) in dtypes.iter().zip(&bindings.slots).enumerate() {
            if t >= inputs {
                written[slot] = true;
                atomic[slot] |= dtype.size() < 4 && !owns_words;
            }
        }
        (0..count)
            .map(|s| {
                let wide = wide && !atomic[s];
                Slot {
                    atomic: atomic[s],
                    wide,
                    pairs: wide && cpu && !written[s],
                    windows: bindings.windows.get(s).copied().unwrap_or(1).max(1),
                    shift: bindings.window_shift - if wide { 4 } else { 2 },
                }
            })
            .collect()
    }

    fn windowed(&self) -> bool {
        self.windows > 1
    }

    fn element(&self) -> &'static str {
        if self.atomic {
            "atomic<u32>"
        } else if self.pairs {
            "vec2<u64>"
        } else if self.wide {
            "vec4<u32>"
        } else {
            "u32"
        }
    }
}

/// Declares the bindings: binding 0 holds the launch arguments, then each slot in order, a
/// windowed slot as one binding per window; and the window functions of windowed slots (and
/// on a CPU device, every wide slot's `rd4`).
pub fn bindings(slots: &[Slot], cpu: bool) -> String {
    // A launch's words start at word `launch.words` of binding 0 (immediate data, set per
    // dispatch: a bind group then serves every launch over the same buffers).
    let mut out = String::from(
        "struct Launch { words: u32 }\n\
         var<immediate> launch: Launch;\n\
         @group(0) @binding(0) var<storage, read> p: array<u32>;\n",
    );
    let mut binding = 1;
    for (s, slot) in slots.iter().enumerate() {
        let names: Vec<String> = if slot.windowed() {
            (0..slot.windows).map(|w| format!("b{s}_{w}")).collect()
        } else {
            vec![format!("b{s}")]
        };
        for name in names {
            out += &format!(
                "@group(0) @binding({binding}) var<storage, read_write> {name}: array<{}>;\n",
                slot.element()
            );
            binding += 1;
        }
        if slot.windowed() {
            out += &window_functions(s, slot);
        } else if slot.wide && cpu {
            let word = if slot.pairs {
                format!("unpair(b{s}[i])")
            } else {
                format!("b{s}[i]")
            };
            out += &format!("fn rd4{s}(i: u32) -> vec4<u32> {{\n    return {word};\n}}\n");
        }
    }
    if slots.iter().any(|slot| slot.pairs) {
        out += UNPAIR;
    }
    out
}

/// A function of windowed slot `s` over index `i` into windows of `1 << shift` indices:
/// `body(array, j)` is its statement on index `j` of one window's array, the window chosen
/// from the high bits of `i`.
fn over_windows(
    s: usize,
    slot: &Slot,
    shift: u32,
    head: &str,
    body: impl Fn(&str, &str) -> String,
) -> String {
    let last = slot.windows - 1;
    let mut out = format!(
        "{head} {{\n    let j = i & {:#x}u;\n    switch (i >> {shift}u) {{\n",
        (1u64 << shift) - 1,
    );
    for w in 0..last {
        out += &format!(
            "        case {w}u: {{ {} }}\n",
            body(&format!("b{s}_{w}"), "j")
        );
    }
    out += "        default: {}\n    }\n";
    out + &format!("    {}\n}}\n", body(&format!("b{s}_{last}"), "j"))
}

/// The window functions of slot `s`: words `rd{s}`/`wr{s}`, 16-byte words `rd4{s}`/`wr4{s}`
/// when wide, `and{s}`/`or{s}` when atomic.
fn window_functions(s: usize, slot: &Slot) -> String {
    let word_shift = if slot.wide {
        slot.shift + 2
    } else {
        slot.shift
    };
    let mut out = over_windows(
        s,
        slot,
        word_shift,
        &format!("fn rd{s}(i: u32) -> u32"),
        |b, j| format!("return {};", read(slot, b, j)),
    );
    if !slot.pairs {
        out += &over_windows(
            s,
            slot,
            word_shift,
            &format!("fn wr{s}(i: u32, v: u32)"),
            |b, j| format!("{} return;", write(slot, b, j, "v")),
        );
    }
    if slot.atomic {
        for (name, op) in [("and", "atomicAnd"), ("or", "atomicOr")] {
            out += &over_windows(
                s,
                slot,
                word_shift,
                &format!("fn {name}{s}(i: u32, v: u32)"),
                |b, j| format!("{op}(&{b}[{j}], v); return;"),
            );
        }
    }
    if slot.pairs {
        out += &over_windows(
            s,
            slot,
            slot.shift,
            &format!("fn rd4{s}(i: u32) -> vec4<u32>"),
            |b, j| format!("return unpair({b}[{j}]);"),
        );
    } else if slot.wide {
        out += &over_windows(
            s,
            slot,
            slot.shift,
            &format!("fn rd4{s}(i: u32) -> vec4<u32>"),
            |b, j| format!("return {b}[{j}];"),
        );
        out += &over_windows(
            s,
            slot,
            slot.shift,
            &format!("fn wr4{s}(i: u32, v: vec4<u32>)"),
            |b, j| format!("{b}[{j}] = v; return;"),
        );
    }
    out
}

/// Word `j` of array `b` of a slot (whose words are grouped by four when wide).
fn cell(slot: &Slot, b: &str, j: &str) -> String {
    if slot.pairs {
        format!("u32({b}[({j}) >> 2u][(({j}) >> 1u) & 1u] >> ((({j}) & 1u) * 32u))")
    } else if slot.wide {
        format!("{b}[({j}) >> 2u][({j}) & 3u]")
    } else {
        format!("{b}[{j}]")
    }
}

/// Reads word `j` of array `b` of a slot.
fn read(slot: &Slot, b: &str, j: &str) -> String {
    if slot.atomic {
        format!("atomicLoad(&{})", cell(slot, b, j))
    } else {
        cell(slot, b, j)
    }
}

/// Writes `value` as word `j` of array `b` of a slot.
fn write(slot: &Slot, b: &str, j: &str, value: &str) -> String {
    if slot.atomic {
        format!("atomicStore(&{}, {value});", cell(slot, b, j))
    } else {
        format!("{} = {value};", cell(slot, b, j))
    }
}

/// The 32-bit word `index` of slot `s`.
fn word(s: usize, slot: &Slot, index: &str) -> String {
    if slot.windowed() {
        format!("rd{s}({index})")
    } else {
        read(slot, &format!("b{s}"), index)
    }
}

/// Stores `value` as the 32-bit word `index` of slot `s`.
fn put(s: usize, slot: &Slot, index: &str, value: &str) -> String {
    if slot.windowed() {
        format!("wr{s}({index}, {value});")
    } else {
        write(slot, &format!("b{s}"), index, value)
    }
}

/// The 16-byte word at byte address `at` of slot `s` (a wide slot). On a CPU device it is
/// read through `rd4{s}`, which [`bindings`] defines for the slot as bound.
pub fn load4(s: usize, windowed: bool, cpu: bool, at: &str) -> String {
    if windowed || cpu {
        format!("rd4{s}(({at}) >> 4u)")
    } else {
        format!("b{s}[({at}) >> 4u]")
    }
}

/// `unpair(v)`: a 16-byte word bound as two 64-bit words, as four 32-bit words.
pub const UNPAIR: &str = "fn unpair(v: vec2<u64>) -> vec4<u32> {
    return vec4<u32>(u32(v.x & 0xfffffffflu), u32(v.x >> 32u), u32(v.y & 0xfffffffflu), u32(v.y >> 32u));
}
fn unpair64(v: u64) -> vec2<u32> {
    return vec2<u32>(u32(v & 0xfffffffflu), u32(v >> 32u));
}
";

/// Stores the 16-byte word `value` at byte address `at` of slot `s` (a wide slot).
pub fn store4(s: usize, windowed: bool, at: &str, value: &str) -> String {
    if windowed {
        format!("wr4{s}(({at}) >> 4u, {value});")
    } else {
        format!("b{s}[({at}) >> 4u] = {value};")
    }
}

/// `fn ld{t}(e: u32) -> T`: the element of tensor `t` at byte address `e` of slot `s`.
pub fn load_fn(t: usize, dtype: DType, s: usize, slot: &Slot) -> String {
    let ty = compute_type(dtype);
    let w = word(s, slot, "e >> 2u");
    let body = match dtype.size() {
        1 => from_bits(&format!("(({w} >> ((e & 3u) * 8u)) & 0xffu)"), dtype),
        2 => from_bits(&format!("(({w} >> ((e & 2u) * 8u)) & 0xffffu)"), dtype),
        4 => from_bits(&w, dtype),
        _ => {
            let hi = word(s, slot, "(e >> 2u) + 1u");
            format!("bitcast<{ty}>((u64({hi}) << 32u) | u64({w}))")
        }
    };
    format!("fn ld{t}(e: u32) -> {ty} {{\n    return {body};\n}}\n")
}

/// `fn st{t}(e: u32, v: T)`: stores the element of tensor `t` at byte address `e` of slot `s`.
pub fn store_fn(t: usize, dtype: DType, s: usize, slot: &Slot) -> String {
    let ty = compute_type(dtype);
    let body = match dtype.size() {
        1 | 2 => {
            let bits = to_bits("v", dtype);
            let (mask, shift) = match dtype.size() {
                1 => ("0xffu", "(e & 3u) * 8u"),
                _ => ("0xffffu", "(e & 2u) * 8u"),
            };
            if !slot.atomic {
                // The word is this invocation's alone.
                let kept = format!("({} & ~({mask} << sh))", word(s, slot, "e >> 2u"));
                let value = format!("{kept} | ({bits} << sh)");
                format!("let sh = {shift};\n    {}", put(s, slot, "e >> 2u", &value))
            } else if slot.windowed() {
                format!(
                    "let sh = {shift};\n    and{s}(e >> 2u, ~({mask} << sh));\n    \
                     or{s}(e >> 2u, {bits} << sh);"
                )
            } else {
                format!(
                    "let sh = {shift};\n    atomicAnd(&b{s}[e >> 2u], ~({mask} << sh));\n    \
                     atomicOr(&b{s}[e >> 2u], {bits} << sh);"
                )
            }
        }
        4 => put(s, slot, "e >> 2u", &to_bits("v", dtype)),
        _ => format!(
            "let x = bitcast<u64>(v);\n    {}\n    {}",
            put(s, slot, "e >> 2u", "u32(x & 0xfffffffflu)"),
            put(s, slot, "(e >> 2u) + 1u", "u32(x >> 32u)")
        ),
    };
    format!("fn st{t}(e: u32, v: {ty}) {{\n    {body}\n}}\n")
}

/// The whole words of tensor `t`'s slot `s` that four of its elements (of `size` bytes,
/// under four) fill, from word `j`: `fn rw{t}(j) -> u32` and, where `written`,
/// `fn ww{t}(j, v: u32)` for one word; `rwp{t}`/`wwp{t}` with `vec2<u32>` for two.
pub fn word_fns(t: usize, size: usize, s: usize, slot: &Slot, written: bool) -> String {
    let (suffix, ty, value, stores) = if size == 1 {
        ("", "u32", word(s, slot, "j"), put(s, slot, "j", "v"))
    } else {
        // Two words from an even `j`: one 64-bit load where the slot is bound as pairs.
        let value = if slot.pairs && !slot.windowed() {
            format!("unpair64(b{s}[j >> 2u][(j >> 1u) & 1u])")
        } else {
            format!(
                "vec2<u32>({}, {})",
                word(s, slot, "j"),
                word(s, slot, "j + 1u")
            )
        };
        let stores = format!(
            "{}\n    {}",
            put(s, slot, "j", "v.x"),
            put(s, slot, "j + 1u", "v.y")
        );
        ("p", "vec2<u32>", value, stores)
    };
    let mut out = format!("fn rw{suffix}{t}(j: u32) -> {ty} {{\n    return {value};\n}}\n");
    if written {
        out += &format!("fn ww{suffix}{t}(j: u32, v: {ty}) {{\n    {stores}\n}}\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a CPU device a wide slot only read is bound as pairs of 64-bit words and read
    /// through `rd4`; a written one stays four 32-bit words; elsewhere wide slots are read
    /// directly.
    #[test]
    fn read_only_wide_slots_are_pairs_on_a_cpu() {
        let bindings = Bindings::separate(2);
        let dtypes = [DType::F32, DType::F32];
        let cpu = Slot::all(&bindings, &dtypes, 1, true, false, true);
        assert!(cpu[0].pairs && !cpu[1].pairs && cpu[1].wide);
        let text = super::bindings(&cpu, true);
        assert!(text.contains("var<storage, read_write> b0: array<vec2<u64>>;"));
        assert!(text.contains("var<storage, read_write> b1: array<vec4<u32>>;"));
        assert!(text.contains("fn rd40(i: u32) -> vec4<u32> {\n    return unpair(b0[i]);"));
        assert!(text.contains("fn rd41(i: u32) -> vec4<u32> {\n    return b1[i];"));
        assert!(text.contains("fn unpair("));
        assert_eq!(load4(0, false, true, "at"), "rd40((at) >> 4u)");
        // A word of a paired slot: the half of its 64-bit word.
        assert_eq!(
            cell(&cpu[0], "b0", "j"),
            "u32(b0[(j) >> 2u][((j) >> 1u) & 1u] >> (((j) & 1u) * 32u))"
        );
        let gpu = Slot::all(&bindings, &dtypes, 1, true, false, false);
        assert!(!gpu[0].pairs && gpu[0].wide);
        let text = super::bindings(&gpu, false);
        assert!(!text.contains("u64") && !text.contains("fn rd4"));
        assert_eq!(load4(0, false, false, "at"), "b0[(at) >> 4u]");
    }
}
