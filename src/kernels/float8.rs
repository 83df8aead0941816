//! The float8 dtypes' conversions to and from float32, on the host and as kernel helpers
//! written once over the printer: `f32_to_<dtype>(f) -> u32` rounds to nearest even (c10's
//! rules: float8_e5m2 overflows to infinity, float8_e4m3fn to NaN, the fnuz formats to their
//! one NaN and lose the sign of zero; float8_e8m0fnu rounds the exponent of `|f|`), and
//! `<dtype>_to_f32(bits) -> f32` widens exactly. A kernel gets the helpers its text calls.

use crate::dtype::{DType, Float8, Float8Specials};
use crate::kernels::printer::{helper_functions, Builtin, Dialect, Printer, Ty};

/// The float8 dtypes.
const FLOAT8: [DType; 5] = [
    DType::F8E5M2,
    DType::F8E4M3,
    DType::F8E5M2Fnuz,
    DType::F8E4M3Fnuz,
    DType::F8E8M0,
];

/// The helper rounding a float32 to `dtype`'s bits.
pub fn narrow_name(dtype: DType) -> String {
    format!("f32_to_{}", dtype.name())
}

/// The helper widening `dtype`'s bits to float32.
pub fn widen_name(dtype: DType) -> String {
    format!("{}_to_f32", dtype.name())
}

/// The helper functions of every float8 dtype `source` calls (both of a dtype's where either
/// is called), in dialect `d`.
pub fn helpers(d: &mut dyn Dialect, source: &str) -> String {
    helper_functions(d, |p| {
        for dtype in FLOAT8 {
            if source.contains(&narrow_name(dtype)) || source.contains(&widen_name(dtype)) {
                define(p, dtype);
            }
        }
    })
}

/// The pattern of a float32 NaN.
const NAN: u32 = 0x7fc0_0000;

/// Prints both helpers of `dtype`.
fn define(p: &mut Printer, dtype: DType) {
    let f = dtype.float8().expect("a float8 dtype");
    let narrow = narrow_name(dtype);
    let widen = widen_name(dtype);
    if f.specials == Float8Specials::ExponentOnly {
        p.function(&narrow, &[("f", Ty::F32)], Some(Ty::U32), |p| {
            let bits = p.d.builtin(Builtin::FloatBits, &["f"]);
            p.let_("x", Ty::U32, bits);
            p.let_("e", Ty::U32, "(x >> 23u) & 0xffu");
            p.if_("e == 0xffu");
            p.line("return 0xffu;");
            p.close();
            // Up past half the binade, or at half when the implied bit (set for normal
            // floats) is odd.
            let up = "((x >> 22u) & 1u) == 1u && (((x >> 21u) & 1u) == 1u || (x & 0x1fffffu) != 0u || e > 0u)";
            let one = p.select(up, "1u", "0u");
            p.line(format!("return e + {one};"));
        });
        p.function(&widen, &[("b", Ty::U32)], Some(Ty::F32), |p| {
            p.if_("b == 0u");
            return_float(p, "0x400000u");
            p.close();
            p.if_("b == 0xffu");
            return_float(p, &format!("{NAN:#x}u"));
            p.close();
            return_float(p, "b << 23u");
        });
        return;
    }
    let Float8 {
        mantissa_bits: m,
        bias,
        specials,
        ..
    } = f;
    // float32's biased exponent of the format's smallest normal, and the shift from
    // float32's mantissa to the format's.
    let min_normal = 128 - bias;
    let shift = 23 - m;
    let rebias = (127 - bias) << m;
    p.function(&narrow, &[("f", Ty::F32)], Some(Ty::U32), |p| {
        let bits = p.d.builtin(Builtin::FloatBits, &["f"]);
        p.let_("x", Ty::U32, bits);
        p.let_("a", Ty::U32, "x & 0x7fffffffu");
        p.let_("sign", Ty::U32, "(x >> 24u) & 0x80u");
        let nan = match specials {
            Float8Specials::Fnuz => "0x80u".to_string(),
            _ => "sign | 0x7fu".to_string(),
        };
        p.if_("a > 0x7f800000u");
        p.line(format!("return {nan};"));
        p.close();
        p.var("r", Ty::U32, "0u");
        p.if_(format!("a >= {:#x}u", min_normal << 23));
        // Normal: round the mantissa's dropped bits to nearest even; a carry moves into
        // the exponent, as it should.
        p.line(format!(
            "r = ((a + {:#x}u + ((a >> {shift}u) & 1u)) >> {shift}u) - {rebias:#x}u;",
            (1u32 << (shift - 1)) - 1
        ));
        // Subnormal: the significand in units of the smallest subnormal, rounded to
        // nearest even; below half of it, zero.
        p.else_(Some(&format!("a >= {:#x}u", (min_normal - 1 - m) << 23)));
        p.let_("m", Ty::U32, "(a & 0x7fffffu) | 0x800000u");
        p.let_("s", Ty::U32, format!("{}u - (a >> 23u)", 151 - bias - m));
        p.let_("q", Ty::U32, "m >> s");
        p.let_("rest", Ty::U32, "m & ((1u << s) - 1u)");
        p.let_("half", Ty::U32, "1u << (s - 1u)");
        let up = p.select(
            "rest > half || (rest == half && (q & 1u) == 1u)",
            "1u",
            "0u",
        );
        p.line(format!("r = q + {up};"));
        p.close();
        match specials {
            // Past the largest finite value: infinity, or NaN.
            Float8Specials::Ieee => p.line("return sign | min(r, 0x7cu);"),
            Float8Specials::Fn => p.line("return sign | min(r, 0x7fu);"),
            // Past the largest: the one NaN; zero has no sign.
            _ => {
                let signed = p.select("r == 0u", "0u", "sign | r");
                let value = p.select("r > 0x7fu", "0x80u", &signed);
                p.line(format!("return {value};"));
            }
        }
    });
    p.function(&widen, &[("b", Ty::U32)], Some(Ty::F32), |p| {
        p.let_("sign", Ty::U32, "(b & 0x80u) << 24u");
        p.let_("mag", Ty::U32, "b & 0x7fu");
        let nan = float_of(p, &format!("(sign | {NAN:#x}u)"));
        match specials {
            Float8Specials::Ieee => {
                p.if_("mag >= 0x7cu");
                let inf = float_of(p, "(sign | 0x7f800000u)");
                let special = p.select("mag == 0x7cu", &inf, &nan);
                p.line(format!("return {special};"));
                p.close();
            }
            Float8Specials::Fn => {
                p.if_("mag == 0x7fu");
                p.line(format!("return {nan};"));
                p.close();
            }
            _ => {
                p.if_("b == 0x80u");
                return_float(p, &format!("{NAN:#x}u"));
                p.close();
            }
        }
        // Subnormal: the mantissa times the smallest subnormal (exact in float32).
        p.if_(format!("mag < {}u", 1u32 << m));
        let unit = float_of(p, &format!("{:#x}u", (127 + 1 - bias - m) << 23));
        let value =
            p.d.builtin(Builtin::FloatBits, &[&format!("(f32(mag) * {unit})")]);
        return_float(p, &format!("(sign | {value})"));
        p.close();
        let normal = format!("(sign | ((mag + {rebias:#x}u) << {shift}u))");
        return_float(p, &normal);
    });
}

/// `return` of the float32 with the u32 `bits`.
fn return_float(p: &mut Printer, bits: &str) {
    let value = float_of(p, bits);
    p.line(format!("return {value};"));
}

/// The float32 with the u32 `bits`.
fn float_of(p: &mut Printer, bits: &str) -> String {
    p.d.builtin(Builtin::BitsFloat, &[bits])
}

/// The float32 value of float8 `bits` of `dtype` (the host's copy of the kernels' helper).
pub fn to_f32(bits: u8, dtype: DType) -> f32 {
    let f = dtype.float8().expect("a float8 dtype");
    let b = u32::from(bits);
    if f.specials == Float8Specials::ExponentOnly {
        return match b {
            0 => f32::from_bits(0x40_0000),
            0xff => f32::NAN,
            _ => f32::from_bits(b << 23),
        };
    }
    let (sign, mag) = (if b & 0x80 != 0 { -1.0 } else { 1.0 }, b & 0x7f);
    let (m, bias) = (f.mantissa_bits, f.bias as i32);
    let special = match f.specials {
        Float8Specials::Ieee if mag == 0x7c => Some(sign * f32::INFINITY),
        Float8Specials::Ieee if mag > 0x7c => Some(f32::NAN),
        Float8Specials::Fn if mag == 0x7f => Some(f32::NAN),
        Float8Specials::Fnuz if b == 0x80 => Some(f32::NAN),
        _ => None,
    };
    if let Some(value) = special {
        return value;
    }
    let exponent = (mag >> m) as i32;
    let mantissa = (mag & ((1 << m) - 1)) as f32 / (1 << m) as f32;
    sign * if exponent == 0 {
        mantissa * 2f32.powi(1 - bias)
    } else {
        (1.0 + mantissa) * 2f32.powi(exponent - bias)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The formats' largest finite values, smallest subnormals and specials, as c10 has them.
    #[test]
    fn decodes_the_formats_landmarks() {
        assert_eq!(to_f32(0x7e, DType::F8E4M3), 448.0);
        assert!(to_f32(0x7f, DType::F8E4M3).is_nan());
        assert_eq!(to_f32(0x01, DType::F8E4M3), 2f32.powi(-9));
        assert_eq!(to_f32(0x7b, DType::F8E5M2), 57344.0);
        assert_eq!(to_f32(0xfc, DType::F8E5M2), f32::NEG_INFINITY);
        assert!(to_f32(0x7d, DType::F8E5M2).is_nan());
        assert_eq!(to_f32(0x7f, DType::F8E4M3Fnuz), 240.0);
        assert!(to_f32(0x80, DType::F8E4M3Fnuz).is_nan());
        assert_eq!(to_f32(0x01, DType::F8E5M2Fnuz), 2f32.powi(-17));
        assert_eq!(to_f32(0x7f, DType::F8E8M0), 1.0);
        assert_eq!(to_f32(0x00, DType::F8E8M0), 2f32.powi(-127));
    }
}
