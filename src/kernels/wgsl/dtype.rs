//! How each dtype is held in WGSL: storage is always 32-bit words (sub-word types packed,
//! 64-bit types as two words); values are computed in a wider WGSL type where WGSL lacks one.

use crate::dtype::DType;

/// The WGSL type a value of `dtype` is computed in (`F64` is an alias: see `emulated_f64`).
pub fn compute_type(dtype: DType) -> &'static str {
    match dtype {
        DType::Bool => "bool",
        DType::U8 => "u32",
        DType::I8 | DType::I16 | DType::I32 => "i32",
        DType::I64 => "i64",
        DType::F16 | DType::BF16 | DType::F32 => "f32",
        DType::F64 => "F64",
    }
}

/// A WGSL literal of `dtype` holding `value` (small integers, used for zero, one and bounds).
pub fn literal(dtype: DType, value: i64) -> String {
    match dtype {
        DType::Bool => (value != 0).to_string(),
        DType::U8 => format!("{value}u"),
        DType::I8 | DType::I16 | DType::I32 => format!("{value}i"),
        DType::I64 => format!("{value}li"),
        DType::F16 | DType::BF16 | DType::F32 => format!("{value}.0f"),
        DType::F64 => format!("{value}.0lf"),
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
        let (down, up) = if to == DType::F16 {
            ("f32_to_f16", "f16_to_f32")
        } else {
            ("f32_to_bf16", "bf16_to_f32")
        };
        return format!("{up}({down}({wide}))");
    }
    let wide = compute_type(to);
    match to {
        // `!(x == 0)` so that NaN, which compares unequal to everything, is true.
        DType::Bool => format!("(!({x} == {}))", literal(from, 0)),
        DType::U8 => format!("({} & 0xffu)", to_u32(x, from)),
        DType::I8 => format!("((bitcast<i32>({}) << 24u) >> 24u)", to_u32(x, from)),
        DType::I16 => format!("((bitcast<i32>({}) << 16u) >> 16u)", to_u32(x, from)),
        DType::I32 => match from {
            DType::Bool => format!("select(0i, 1i, {x})"),
            DType::U8 => format!("bitcast<i32>({x})"),
            _ => format!("i32({x})"),
        },
        DType::I64 | DType::F16 | DType::BF16 | DType::F32 | DType::F64 => match from {
            DType::Bool => format!("select({}, {}, {x})", literal(to, 0), literal(to, 1)),
            _ => format!("{wide}({x})"),
        },
    }
}

fn to_half(to: DType) -> bool {
    matches!(to, DType::F16 | DType::BF16)
}

/// True when converting between two dtypes with the same compute type still needs wrapping.
fn narrows(from: DType, to: DType) -> bool {
    matches!(
        (from, to),
        (DType::I32 | DType::I16, DType::I8) | (DType::I32, DType::I16)
    )
}

/// The low 32 bits of `x` as u32, for wrapping integer conversions.
fn to_u32(x: &str, from: DType) -> String {
    match from {
        DType::Bool => format!("select(0u, 1u, {x})"),
        DType::U8 => x.to_string(),
        DType::I8 | DType::I16 | DType::I32 => format!("bitcast<u32>({x})"),
        DType::I64 => format!("u32(bitcast<u64>({x}) & 0xfffffffflu)"),
        DType::F16 | DType::BF16 | DType::F32 | DType::F64 => format!("bitcast<u32>(i32({x}))"),
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
