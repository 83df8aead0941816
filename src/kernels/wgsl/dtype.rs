//! How each dtype is held in WGSL: storage is always 32-bit words (sub-word types packed,
//! 64-bit types as two words); values are computed in a wider WGSL type where WGSL lacks one.

use crate::dtype::DType;
use crate::kernels::float8;

/// The WGSL type a value of `dtype` is computed in (`F64` is an alias: see `emulated_f64`).
pub fn compute_type(dtype: DType) -> &'static str {
    match dtype {
        DType::Bool => "bool",
        DType::U8 | DType::U16 | DType::U32 => "u32",
        DType::I8 | DType::I16 | DType::I32 => "i32",
        DType::I64 => "i64",
        DType::U64 => "u64",
        DType::F64 => "F64",
        _ => "f32",
    }
}

/// A WGSL literal of `dtype` holding `value` (small integers, used for zero, one and bounds).
pub fn literal(dtype: DType, value: i64) -> String {
    match dtype {
        DType::Bool => (value != 0).to_string(),
        DType::U8 | DType::U16 | DType::U32 => format!("{value}u"),
        DType::I8 | DType::I16 | DType::I32 => format!("{value}i"),
        DType::I64 => format!("{value}li"),
        DType::U64 => format!("u64({value}u)"),
        DType::F64 => format!("{value}.0lf"),
        _ => format!("{value}.0f"),
    }
}

/// Converts `x`, computed as `from`, to the compute type of `to` with PyTorch's cast semantics
/// (integers wrap to the target width, floats truncate toward zero, nonzero is true).
pub fn convert(x: &str, from: DType, to: DType) -> String {
    if from == to || (compute_type(from) == compute_type(to) && !narrows(from, to) && !to_half(to))
    {
        return x.to_string();
    }
    if to_half(to) {
        let wide = convert(x, from, DType::F32);
        let (down, up) = narrow_float_helpers(to);
        return format!("{up}({down}({wide}))");
    }
    let wide = compute_type(to);
    match to {
        // `!(x == 0)` so that NaN, which compares unequal to everything, is true.
        DType::Bool => format!("(!({x} == {}))", literal(from, 0)),
        DType::U8 => format!("({} & 0xffu)", to_u32(x, from)),
        DType::U16 => format!("({} & 0xffffu)", to_u32(x, from)),
        // Floats through i64, so that values past i32 keep their low bits as on the CPU.
        DType::U32 if from.is_float() => format!("u32(bitcast<u64>(i64({x})) & 0xfffffffflu)"),
        DType::U32 => to_u32(x, from),
        DType::U64 => match from {
            DType::Bool => format!("select(u64(0u), u64(1u), {x})"),
            DType::U8 | DType::U16 | DType::U32 => format!("u64({x})"),
            _ if from.is_float() => {
                format!(
                    "select(u64({x}), bitcast<u64>(i64({x})), {x} < {})",
                    literal(from, 0)
                )
            }
            _ => format!("bitcast<u64>(i64({x}))"),
        },
        DType::I8 => format!("((bitcast<i32>({}) << 24u) >> 24u)", to_u32(x, from)),
        DType::I16 => format!("((bitcast<i32>({}) << 16u) >> 16u)", to_u32(x, from)),
        DType::I32 => match from {
            DType::Bool => format!("select(0i, 1i, {x})"),
            DType::U8 | DType::U16 | DType::U32 | DType::U64 => {
                format!("bitcast<i32>({})", to_u32(x, from))
            }
            _ => format!("i32({x})"),
        },
        DType::I64 if from == DType::U64 => format!("bitcast<i64>({x})"),
        // Zero-extended through u64 (naga's i64 of a u32 extends its sign).
        DType::I64 if from.is_unsigned() => format!("bitcast<i64>(u64({x}))"),
        _ => match from {
            DType::Bool => format!("select({}, {}, {x})", literal(to, 0), literal(to, 1)),
            _ => format!("{wide}({x})"),
        },
    }
}

/// True for the floating dtypes computed as f32 whose values are rounded to fewer bits.
fn to_half(to: DType) -> bool {
    matches!(to, DType::F16 | DType::BF16) || to.is_float8()
}

/// The helpers that round a float32 to `dtype`'s bits and widen them back.
pub fn narrow_float_helpers(dtype: DType) -> (String, String) {
    match dtype {
        DType::F16 => ("f32_to_f16".into(), "f16_to_f32".into()),
        DType::BF16 => ("f32_to_bf16".into(), "bf16_to_f32".into()),
        _ => (float8::narrow_name(dtype), float8::widen_name(dtype)),
    }
}

/// True when converting between two integer dtypes with the same compute type still needs
/// wrapping.
fn narrows(from: DType, to: DType) -> bool {
    to.is_int() && from.size() > to.size()
}

/// The low 32 bits of `x` as u32, for wrapping integer conversions.
fn to_u32(x: &str, from: DType) -> String {
    match from {
        DType::Bool => format!("select(0u, 1u, {x})"),
        DType::U8 | DType::U16 | DType::U32 => x.to_string(),
        DType::I8 | DType::I16 | DType::I32 => format!("bitcast<u32>({x})"),
        DType::I64 => format!("u32(bitcast<u64>({x}) & 0xfffffffflu)"),
        DType::U64 => format!("u32({x} & 0xfffffffflu)"),
        _ => format!("bitcast<u32>(i32({x}))"),
    }
}

/// A stored element of `dtype` (four bytes or fewer) as its compute value, from `bits`: a u32
/// holding the element's bytes in its low bits and zeros above.
pub fn from_bits(bits: &str, dtype: DType) -> String {
    match dtype {
        DType::Bool => format!("({bits} != 0u)"),
        DType::U8 | DType::U16 | DType::U32 => bits.to_string(),
        DType::I8 => format!("(bitcast<i32>({bits} << 24u) >> 24u)"),
        DType::I16 => format!("(bitcast<i32>({bits} << 16u) >> 16u)"),
        DType::I32 => format!("bitcast<i32>({bits})"),
        DType::F32 => format!("bitcast<f32>({bits})"),
        DType::F16 | DType::BF16 | crate::float8_dtypes!() => {
            format!("{}({bits})", narrow_float_helpers(dtype).1)
        }
        DType::I64 | DType::U64 | DType::F64 => unreachable!("{dtype:?} is stored as two words"),
    }
}

/// A compute value of `dtype` (four bytes or fewer) as the u32 holding its stored bytes in
/// its low bits and zeros above.
pub fn to_bits(v: &str, dtype: DType) -> String {
    match dtype {
        DType::Bool => format!("select(0u, 1u, {v})"),
        DType::U8 => format!("({v} & 0xffu)"),
        DType::U16 => format!("({v} & 0xffffu)"),
        DType::U32 => v.to_string(),
        DType::I8 => format!("(bitcast<u32>({v}) & 0xffu)"),
        DType::I16 => format!("(bitcast<u32>({v}) & 0xffffu)"),
        DType::I32 | DType::F32 => format!("bitcast<u32>({v})"),
        DType::F16 | DType::BF16 | crate::float8_dtypes!() => {
            format!("{}({v})", narrow_float_helpers(dtype).0)
        }
        DType::I64 | DType::U64 | DType::F64 => unreachable!("{dtype:?} is stored as two words"),
    }
}

/// Helper functions every kernel includes: exact f16 and bf16 conversions (round to nearest
/// even, NaN patterns as c10 writes them).
pub const HELPERS: &str = r#"
fn f16_to_f32(h: u32) -> f32 {
    let s = (h & 0x8000u) << 16u;
    let e = (h >> 10u) & 0x1fu;
    let m = h & 0x3ffu;
    if (e == 0u) {
        return bitcast<f32>(s | bitcast<u32>(f32(m) * 5.9604644775390625e-8f));
    }
    if (e == 31u) {
        return bitcast<f32>(s | 0x7f800000u | (m << 13u));
    }
    return bitcast<f32>(s | ((e + 112u) << 23u) | (m << 13u));
}

fn f32_to_f16(f: f32) -> u32 {
    let x = bitcast<u32>(f);
    let sign = (x >> 16u) & 0x8000u;
    let a = x & 0x7fffffffu;
    if (a > 0x7f800000u) {
        return sign | 0x7e00u;
    }
    if (a >= 0x477ff000u) {
        return sign | 0x7c00u;
    }
    if (a < 0x38800000u) {
        let e = a >> 23u;
        if (e < 102u) {
            return sign;
        }
        let m = (a & 0x7fffffu) | 0x800000u;
        let shift = 126u - e;
        let q = m >> shift;
        let rem = m & ((1u << shift) - 1u);
        let half = 1u << (shift - 1u);
        let up = select(0u, 1u, rem > half || (rem == half && (q & 1u) == 1u));
        return sign | (q + up);
    }
    let r = a + 0xfffu + ((a >> 13u) & 1u);
    return sign | ((r - 0x38000000u) >> 13u);
}

fn bf16_to_f32(h: u32) -> f32 {
    return bitcast<f32>(h << 16u);
}

fn f32_to_bf16(f: f32) -> u32 {
    let x = bitcast<u32>(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) {
        return 0x7fc0u;
    }
    return (x + 0x7fffu + ((x >> 16u) & 1u)) >> 16u;
}
"#;
