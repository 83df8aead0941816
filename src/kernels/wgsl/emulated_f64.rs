//! Float64 for devices without shader-f64 (Apple GPUs): values are held as their IEEE bits
//! in u64 (`alias F64 = u64`) and the few ops `Expr::within_emulated_f64` allows are computed
//! with integer arithmetic, correctly rounded (round to nearest even, subnormals kept).

use super::math::Helpers;
use crate::dtype::DType;

/// The kernel's `F64` type: the hardware type, or its bits when emulated.
pub fn alias(hardware: bool) -> &'static str {
    if hardware {
        "alias F64 = f64;\n"
    } else {
        "alias F64 = u64;\n"
    }
}

/// `x` (computed as `from`) converted to emulated float64; floating types only.
pub fn from(x: &str, from: DType, helpers: &mut Helpers) -> String {
    let single = super::dtype::convert(x, from, DType::F32);
    format!("{}({single})", helpers.need("f64bits_from_f32"))
}

/// Emulated float64 `x` rounded to float32.
pub fn to_f32(x: &str, helpers: &mut Helpers) -> String {
    format!("{}({x})", helpers.need("f64bits_to_f32"))
}

pub fn neg(x: &str) -> String {
    format!("({x} ^ 0x8000000000000000lu)")
}

pub fn abs(x: &str) -> String {
    format!("({x} & 0x7ffffffffffffffflu)")
}

pub fn div(a: &str, b: &str, helpers: &mut Helpers) -> String {
    format!("{}({a}, {b})", helpers.need("f64bits_div"))
}

/// The WGSL source of helper `name`.
pub fn helper(name: &str) -> &'static str {
    match name {
        "f64bits_from_f32" => FROM_F32,
        "f64bits_to_f32" => TO_F32,
        "f64bits_div" => DIV,
        "f64bits_unpack" => UNPACK,
        _ => panic!("no emulated float64 helper {name}"),
    }
}

const FROM_F32: &str = "fn f64bits_from_f32(f: f32) -> u64 {
    let x = bitcast<u32>(f);
    let sign = u64(x >> 31u) << 63u;
    let e = (x >> 23u) & 0xffu;
    let m = x & 0x7fffffu;
    if (e == 255u) {
        return sign | 0x7ff0000000000000lu | (u64(m) << 29u);
    }
    if (e == 0u) {
        if (m == 0u) {
            return sign;
        }
        let shift = countLeadingZeros(m) - 8u;
        let frac = (m << shift) & 0x7fffffu;
        return sign | (u64(897u - shift) << 52u) | (u64(frac) << 29u);
    }
    return sign | (u64(e + 896u) << 52u) | (u64(m) << 29u);
}
";

const TO_F32: &str = "fn f64bits_to_f32(x: u64) -> f32 {
    let sign = u32(x >> 63u) << 31u;
    let e = u32(x >> 52u) & 0x7ffu;
    let m = x & 0xffffffffffffflu;
    if (e == 0x7ffu) {
        if (m == 0lu) {
            return bitcast<f32>(sign | 0x7f800000u);
        }
        return bitcast<f32>(sign | 0x7fc00000u | u32(m >> 29u));
    }
    if (e > 1150u) {
        return bitcast<f32>(sign | 0x7f800000u);
    }
    var r = 0lu;
    var rest = 0lu;
    var shift = 29u;
    if (e >= 897u) {
        r = (u64(e - 896u) << 23u) | (m >> 29u);
        rest = m & 0x1ffffffflu;
    } else {
        if (e == 0u || 926u - e > 54u) {
            return bitcast<f32>(sign);
        }
        shift = 926u - e;
        let full = m | 0x10000000000000lu;
        r = full >> shift;
        rest = full & ((1lu << shift) - 1lu);
    }
    let half = 1lu << (shift - 1u);
    if (rest > half || (rest == half && (r & 1lu) == 1lu)) {
        r = r + 1lu;
    }
    return bitcast<f32>(sign | min(u32(r), 0x7f800000u));
}
";

/// A finite nonzero magnitude as a 53-bit significand (leading bit at 52, subnormals
/// normalised) and its biased exponent.
const UNPACK: &str = "struct F64Parts {
    significand: u64,
    exponent: i32,
}

fn f64bits_unpack(magnitude: u64) -> F64Parts {
    var m = magnitude & 0xffffffffffffflu;
    var e = i32(magnitude >> 52u);
    if (e != 0) {
        return F64Parts(m | 0x10000000000000lu, e);
    }
    e = 1;
    while ((m & 0x10000000000000lu) == 0lu) {
        m = m << 1u;
        e = e - 1;
    }
    return F64Parts(m, e);
}
";

const DIV: &str = "fn f64bits_div(a: u64, b: u64) -> u64 {
    let sign = (a ^ b) & 0x8000000000000000lu;
    let inf = 0x7ff0000000000000lu;
    let aa = a & 0x7ffffffffffffffflu;
    let ab = b & 0x7ffffffffffffffflu;
    if (aa > inf) {
        return a | 0x8000000000000lu;
    }
    if (ab > inf) {
        return b | 0x8000000000000lu;
    }
    if ((aa == inf && ab == inf) || (aa == 0lu && ab == 0lu)) {
        return 0x7ff8000000000000lu;
    }
    if (aa == inf || ab == 0lu) {
        return sign | inf;
    }
    if (ab == inf || aa == 0lu) {
        return sign;
    }
    let pa = f64bits_unpack(aa);
    let pb = f64bits_unpack(ab);
    var ma = pa.significand;
    let mb = pb.significand;
    var e = pa.exponent - pb.exponent + 1023;
    if (ma < mb) {
        ma = ma << 1u;
        e = e - 1;
    }
    // 54 quotient bits: the 53 of the result and one guard bit; the remainder is the sticky.
    var q = 0lu;
    var rem = ma;
    for (var i = 0u; i < 54u; i = i + 1u) {
        q = q << 1u;
        if (rem >= mb) {
            rem = rem - mb;
            q = q | 1lu;
        }
        rem = rem << 1u;
    }
    let sticky = rem != 0lu;
    if (e >= 1) {
        var r = q >> 1u;
        if ((q & 1lu) == 1lu && (sticky || (r & 1lu) == 1lu)) {
            r = r + 1lu;
        }
        if (r == 0x20000000000000lu) {
            r = r >> 1u;
            e = e + 1;
        }
        if (e >= 0x7ff) {
            return sign | inf;
        }
        return sign | (u64(u32(e)) << 52u) | (r & 0xffffffffffffflu);
    }
    let shift = u32(2 - e);
    if (shift > 55u) {
        return sign;
    }
    var r = q >> shift;
    let rest = q & ((1lu << shift) - 1lu);
    let half = 1lu << (shift - 1u);
    if (rest > half || (rest == half && (sticky || (r & 1lu) == 1lu))) {
        r = r + 1lu;
    }
    return sign | r;
}
";
