//! Loads and stores of tensor elements from word bindings.

use super::dtype::compute_type;
use crate::dtype::DType;

/// Declares the word bindings: binding 0 holds the launch arguments, binding `1 + s` slot `s`
/// (as 16-byte words when `wide`).
pub fn bindings(slot_atomic: &[bool], wide: bool) -> String {
    let mut out = String::from("@group(0) @binding(0) var<storage, read> p: array<u32>;\n");
    for (s, atomic) in slot_atomic.iter().enumerate() {
        let ty = if *atomic {
            "array<atomic<u32>>"
        } else if wide {
            "array<vec4<u32>>"
        } else {
            "array<u32>"
        };
        out += &format!(
            "@group(0) @binding({}) var<storage, read_write> b{s}: {ty};\n",
            s + 1
        );
    }
    out
}

/// Which slots need atomic words: those that receive a sub-word store.
pub fn atomic_slots(dtypes: &[DType], slots: &[usize], inputs: usize) -> Vec<bool> {
    let count = slots.iter().max().map_or(0, |m| m + 1);
    let mut atomic = vec![false; count];
    for (t, (&dtype, &slot)) in dtypes.iter().zip(slots).enumerate() {
        if t >= inputs && dtype.size() < 4 {
            atomic[slot] = true;
        }
    }
    atomic
}

/// The 32-bit word `index` of a slot (whose words are grouped by four when `wide`).
fn word(slot: usize, atomic: bool, wide: bool, index: &str) -> String {
    if atomic {
        format!("atomicLoad(&b{slot}[{index}])")
    } else if wide {
        format!("b{slot}[({index}) >> 2u][({index}) & 3u]")
    } else {
        format!("b{slot}[{index}]")
    }
}

/// `fn ld{t}(e: u32) -> T`: the element of tensor `t` at byte address `e` of its slot.
pub fn load_fn(t: usize, dtype: DType, slot: usize, atomic: bool, wide: bool) -> String {
    let ty = compute_type(dtype);
    let w = word(slot, atomic, wide, "e >> 2u");
    let body = match dtype.size() {
        1 => {
            let bits = format!("(({w} >> ((e & 3u) * 8u)) & 0xffu)");
            match dtype {
                DType::Bool => format!("{bits} != 0u"),
                DType::U8 => bits,
                _ => format!("bitcast<i32>({bits} << 24u) >> 24u"),
            }
        }
        2 => {
            let bits = format!("(({w} >> ((e & 2u) * 8u)) & 0xffffu)");
            match dtype {
                DType::F16 => format!("f16_to_f32({bits})"),
                DType::BF16 => format!("bf16_to_f32({bits})"),
                _ => format!("bitcast<i32>({bits} << 16u) >> 16u"),
            }
        }
        4 => match dtype {
            DType::F32 => format!("bitcast<f32>({w})"),
            _ => format!("bitcast<i32>({w})"),
        },
        _ => {
            let hi = word(slot, atomic, wide, "(e >> 2u) + 1u");
            format!("bitcast<{ty}>((u64({hi}) << 32u) | u64({w}))")
        }
    };
    format!("fn ld{t}(e: u32) -> {ty} {{\n    return {body};\n}}\n")
}

/// `fn st{t}(e: u32, v: T)`: stores the element of tensor `t` at byte address `e`.
pub fn store_fn(t: usize, dtype: DType, slot: usize, atomic: bool, wide: bool) -> String {
    let ty = compute_type(dtype);
    let body = match dtype.size() {
        1 | 2 => {
            let (bits, mask, shift) = match dtype {
                DType::Bool => ("select(0u, 1u, v)", "0xffu", "(e & 3u) * 8u"),
                DType::U8 => ("v", "0xffu", "(e & 3u) * 8u"),
                DType::I8 => ("(bitcast<u32>(v) & 0xffu)", "0xffu", "(e & 3u) * 8u"),
                DType::I16 => ("(bitcast<u32>(v) & 0xffffu)", "0xffffu", "(e & 2u) * 8u"),
                DType::F16 => ("f32_to_f16(v)", "0xffffu", "(e & 2u) * 8u"),
                _ => ("f32_to_bf16(v)", "0xffffu", "(e & 2u) * 8u"),
            };
            format!(
                "let sh = {shift};\n    atomicAnd(&b{slot}[e >> 2u], ~({mask} << sh));\n    \
                 atomicOr(&b{slot}[e >> 2u], {bits} << sh);"
            )
        }
        4 => put(slot, atomic, wide, "e >> 2u", "bitcast<u32>(v)"),
        _ => format!(
            "let x = bitcast<u64>(v);\n    {}\n    {}",
            put(slot, atomic, wide, "e >> 2u", "u32(x & 0xfffffffflu)"),
            put(slot, atomic, wide, "(e >> 2u) + 1u", "u32(x >> 32u)")
        ),
    };
    format!("fn st{t}(e: u32, v: {ty}) {{\n    {body}\n}}\n")
}

fn put(slot: usize, atomic: bool, wide: bool, index: &str, value: &str) -> String {
    if atomic {
        format!("atomicStore(&b{slot}[{index}], {value});")
    } else {
        format!("{} = {value};", word(slot, false, wide, index))
    }
}
