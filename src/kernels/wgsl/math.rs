//! WGSL helper functions for math that WGSL lacks: erf and friends for f32, every
//! transcendental function for f64 (Vulkan's extended instructions stop at 32 bits), and
//! integer powers. Templates use `$T` for the float type and `$exp`/`$log` for its primitives.

use std::collections::BTreeSet;

/// The helpers one kernel needs, by name, and whether the device computes in f64 (then
/// float32 helpers that need more precision than f32 offers use f64 internally).
#[derive(Default)]
pub struct Helpers {
    needed: BTreeSet<String>,
    pub f64: bool,
}

impl Helpers {
    pub fn new(f64: bool) -> Self {
        Helpers {
            needed: BTreeSet::new(),
            f64,
        }
    }

    /// Marks `name` (and what it calls) as needed and returns it.
    pub fn need(&mut self, name: &str) -> String {
        if self.needed.insert(name.to_string()) {
            for dep in deps(name) {
                self.need(dep);
            }
        }
        name.to_string()
    }

    /// The WGSL source of every needed helper.
    pub fn source(&self) -> String {
        self.needed.iter().map(|name| source(name)).collect()
    }
}

fn deps(name: &str) -> &'static [&'static str] {
    match name {
        "sin_f64" | "cos_f64" | "tan_f64" => &["sincos_f64"],
        "sincos_f64" => &["round_f64"],
        "atan2_f64" => &["atan_f64"],
        "asin_f64" | "acos_f64" => &["atan2_f64"],
        "asin_f32" | "acos_f32" => &["atan2_f32"],
        "expm1_f64" | "pow_f64" => &["exp_f64", "log_f64"],
        "log1p_f64" => &["log_f64"],
        "acosh_f64" => &["log_f64", "log1p_f64"],
        "sinh_f64" | "tanh_f64" => &["exp_f64", "expm1_f64"],
        "cosh_f64" => &["exp_f64"],
        "asinh_f64" | "atanh_f64" => &["log1p_f64", "log_f64"],
        "erf_f64" | "erfc_f64" => &["exp_f64", "erf_parts_f64"],
        "erfinv_f64" => &["erf_f64", "exp_f64", "log_f64", "erfinv_guess_f64"],
        "expm1_f32" | "tanh_f32" | "erfc_pos_f32" => &["exp_f32"],
        "log1p_f32" | "pow_f32" | "exp_f32" => &[],
        "log_f32" | "log2_f32" => &["log1p_f32"],
        "f64bits_div" => &["f64bits_unpack"],
        "erf_f32" => &["erfc_pos_f32"],
        "erfc_f32" => &["erfc_pos_f32", "erf_f32"],
        "erfinv_f32" => &["erf_f32", "erfinv_guess_f32"],
        "rem_f32" | "floordiv_f32" => &["fmod_f32"],
        "rem_f64" | "floordiv_f64" => &["fmod_f64"],
        _ => &[],
    }
}

fn float_template(template: &str, ty: &str) -> String {
    let (exp, log, inf) = if ty == "f64" {
        ("exp_f64", "log_f64", "bitcast<f64>(0x7ff0000000000000lu)")
    } else {
        ("exp", "log", "bitcast<f32>(0x7f800000u)")
    };
    let (bits, sign, atan) = if ty == "f64" {
        ("u64", "63u", "atan_f64")
    } else {
        ("u32", "31u", "atan")
    };
    let (exp_mask, nan) = if ty == "f64" {
        ("0x7ff0000000000000lu", "bitcast<f64>(0x7ff8000000000000lu)")
    } else {
        ("0x7f800000u", "bitcast<f32>(0x7fc00000u)")
    };
    template
        .replace("$EXPMASK", exp_mask)
        .replace("$NAN", nan)
        .replace("$BITS", bits)
        .replace("$SIGN", sign)
        .replace("$atan", atan)
        .replace("$INF", inf)
        .replace("$exp", exp)
        .replace("$log", log)
        .replace("$T", ty)
}

fn source(name: &str) -> String {
    if name.starts_with("f64bits_") {
        return super::emulated_f64::helper(name).to_string();
    }
    let (base, ty) = name.rsplit_once('_').unwrap_or((name, ""));
    match base {
        // f32's `log` is only absolutely accurate near 1 on some drivers (lavapipe: 19% off
        // for log1p(1e-7) through it), so float32 uses series near 0 instead.
        "expm1" if ty == "f32" => EXPM1_F32.into(),
        "log1p" if ty == "f32" => LOG1P_F32.into(),
        "log" | "log2" if ty == "f32" => LOG_F32
            .replace("$log", base)
            .replace("$scale", if base == "log2" { " * 1.44269504f" } else { "" }),
        "expm1" => float_template(EXPM1, ty),
        "log1p" => float_template(LOG1P, ty),
        "pow" => float_template(POW, ty),
        "atan2" | "asin" | "acos" => float_template(ATAN2, ty)
            .split("\n\n")
            .find(|f| f.starts_with(&format!("fn {name}(")))
            .map(|f| format!("{f}\n"))
            .expect("atan2 template has the function"),
        "fmod" => float_template(FMOD, ty),
        "rem" => float_template(REM, ty),
        "floordiv" => float_template(FLOORDIV, ty),
        "erfinv_guess" => float_template(ERFINV_GUESS, ty),
        "erfinv" => {
            float_template(ERFINV, ty).replace("$steps", if ty == "f64" { "2" } else { "1" })
        }
        "ipow" => IPOW
            .replace("$T", ty)
            .replace("$neg", if ty == "u32" { "0u" } else { "-1" }),
        _ => F64_AND_F32
            .split("\n\n")
            .find(|f| f.starts_with(&format!("fn {name}(")))
            .map(|f| {
                let series = |acc, x, terms: &dyn Fn(u32) -> f64, highest| {
                    horner(acc, x, (0..=highest).rev().map(terms))
                };
                let sin = series(
                    "s",
                    "r2",
                    &|k| alternate(k) * reciprocal_factorial(2 * k + 1),
                    11,
                );
                let cos = series(
                    "c",
                    "r2",
                    &|k| alternate(k) * reciprocal_factorial(2 * k),
                    11,
                );
                format!("{f}\n")
                    .replace("$exp_taylor", &series("p", "r", &reciprocal_factorial, 14))
                    .replace("$sincos_taylor", &format!("{sin}\n{cos}"))
                    .replace(
                        "$log_series",
                        &series("p", "s2", &|k| 1.0 / f64::from(2 * k + 1), 12),
                    )
                    .replace(
                        "$atan_series",
                        &series("p", "a2", &|k| alternate(k) / f64::from(2 * k + 1), 22),
                    )
                    // Below 2.5 the terms fall under 1e-35 of the sum by the 60th.
                    .replace(
                        "$erf_series",
                        &series(
                            "p",
                            "a2",
                            &|k| (1..=k).map(|j| 2.0 / f64::from(2 * j + 1)).product(),
                            59,
                        ),
                    )
            })
            .unwrap_or_else(|| panic!("no WGSL helper {name}")),
    }
}

/// Horner's steps `acc = c + x * acc` (`acc` starting at zero) over `coefficients`, the
/// highest degree's first. Series' coefficients are written out rather than divided at run
/// time: a division per term costs lavapipe more than the rest of the function (float64
/// `exp` of 1M elements 10.0 -> 5.6 ms, `sin` 12.8 -> 7.2 ms).
fn horner(acc: &str, x: &str, coefficients: impl Iterator<Item = f64>) -> String {
    coefficients
        .map(|c| format!("    {acc} = f64({c:e}) + {x} * {acc};"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `1 / n!`.
fn reciprocal_factorial(n: u32) -> f64 {
    1.0 / (1..=n).map(f64::from).product::<f64>()
}

/// `(-1)^k`.
fn alternate(k: u32) -> f64 {
    if k % 2 == 1 {
        -1.0
    } else {
        1.0
    }
}

const EXPM1: &str = "fn expm1_$T(x: $T) -> $T {
    let u = $exp(x);
    if (u == $T(1.0)) { return x; }
    let um1 = u - $T(1.0);
    if (um1 == $T(-1.0)) { return $T(-1.0); }
    if (u > $T(1.0) && ((bitcast<$BITS>(u) & $EXPMASK) == $EXPMASK)) { return u; }
    return um1 * x / $log(u);
}
";

/// Taylor series to x^9 below 0.5 in magnitude (truncation under 1e-9 relative).
const EXPM1_F32: &str = "fn expm1_f32(x: f32) -> f32 {
    if (x == 0.0f || abs(x) >= 0.5f) {
        return select(exp_f32(x) - 1.0f, x, x == 0.0f);
    }
    var t = 2.7557319e-6f;
    t = 2.4801587e-5f + x * t;
    t = 1.9841270e-4f + x * t;
    t = 1.3888889e-3f + x * t;
    t = 8.3333333e-3f + x * t;
    t = 4.1666667e-2f + x * t;
    t = 1.6666667e-1f + x * t;
    t = 0.5f + x * t;
    return x + x * x * t;
}
";

/// 2 atanh(x / (2 + x)) as a series to s^15 below 0.5 in magnitude.
const LOG1P_F32: &str = "fn log1p_f32(x: f32) -> f32 {
    if (!(abs(x) < 0.5f)) {
        return log(1.0f + x);
    }
    let s = x / (2.0f + x);
    let s2 = s * s;
    var t = 1.0f / 15.0f;
    t = 1.0f / 13.0f + s2 * t;
    t = 1.0f / 11.0f + s2 * t;
    t = 1.0f / 9.0f + s2 * t;
    t = 1.0f / 7.0f + s2 * t;
    t = 1.0f / 5.0f + s2 * t;
    t = 1.0f / 3.0f + s2 * t;
    return 2.0f * s + 2.0f * s * s2 * t;
}
";

/// The natural or base-2 logarithm, near 1 through log1p (`x - 1` is exact there).
const LOG_F32: &str = "fn $log_f32(x: f32) -> f32 {
    if (abs(x - 1.0f) < 0.5f) {
        return log1p_f32(x - 1.0f)$scale;
    }
    return $log(x);
}
";

/// Below 0.25 in magnitude the series of `2 atanh(x / (2 + x))` (truncation under 1e-21);
/// `log(u) * x / (u - 1)` would not do, as shader compilers fold `(1 + x) - 1` to `x`.
const LOG1P: &str = "fn log1p_$T(x: $T) -> $T {
    if (abs(x) < $T(0.25)) {
        let s = x / ($T(2.0) + x);
        let s2 = s * s;
        var t = $T(0.0);
        for (var i = 27; i >= 3; i -= 2) { t = $T(1.0) / $T(i) + s2 * t; }
        return $T(2.0) * s + $T(2.0) * s * s2 * t;
    }
    return $log($T(1.0) + x);
}
";

const POW: &str = "fn pow_$T(a: $T, b: $T) -> $T {
    if (b == $T(0.0) || a == $T(1.0)) { return $T(1.0); }
    if (!(a == a) || !(b == b)) { return a + b; }
    let ab = abs(a);
    let b_inf = ((bitcast<$BITS>(b) & $EXPMASK) == $EXPMASK);
    let integral = !b_inf && floor(b) == b;
    let a_inf = ((bitcast<$BITS>(a) & $EXPMASK) == $EXPMASK);
    if (a < $T(0.0) && !integral && !b_inf && !a_inf) { return $NAN; }
    var m: $T;
    if (ab == $T(0.0)) {
        m = select($T(1.0) / ab, $T(0.0), b > $T(0.0));
    } else if (((bitcast<$BITS>(ab) & $EXPMASK) == $EXPMASK)) {
        m = select($T(0.0), ab, b > $T(0.0));
    } else if (b_inf) {
        if (ab == $T(1.0)) { return $T(1.0); }
        m = select($T(0.0), abs(b), (ab > $T(1.0)) == (b > $T(0.0)));
    } else {
        m = $exp(b * $log(ab));
    }
    let odd = integral && abs(b) < $T(9007199254740992.0) && floor(b * $T(0.5)) != b * $T(0.5);
    let negative = odd && (a < $T(0.0) || (a == $T(0.0) && $T(1.0) / a < $T(0.0)));
    return select(m, -m, negative);
}
";

/// Exact fmod by binary long division: every subtraction is exact (Sterbenz), so the
/// remainder matches C's fmod even when `a / b` overflows.
const FMOD: &str = "fn fmod_$T(a: $T, b: $T) -> $T {
    let m = abs(b);
    var r = abs(a);
    if (!(r < $INF) || !(m == m) || m == $T(0.0)) { return $NAN; }
    if (r < m) { return a; }
    var d = m;
    while (d <= r * $T(0.5)) { d = d * $T(2.0); }
    while (d >= m) {
        if (r >= d) { r = r - d; }
        d = d * $T(0.5);
    }
    return select(r, -r, a < $T(0.0) || (a == $T(0.0) && $T(1.0) / a < $T(0.0)));
}
";

const REM: &str = "fn rem_$T(a: $T, b: $T) -> $T {
    let m = fmod_$T(a, b);
    if (!(m == $T(0.0)) && ((b < $T(0.0)) != (m < $T(0.0)))) { return m + b; }
    return m;
}
";

const FLOORDIV: &str = "fn floordiv_$T(a: $T, b: $T) -> $T {
    if (b == $T(0.0)) { return a / b; }
    let m = fmod_$T(a, b);
    var d = (a - m) / b;
    if (!(m == $T(0.0)) && ((b < $T(0.0)) != (m < $T(0.0)))) { d = d - $T(1.0); }
    if (d == $T(0.0)) { return select($T(0.0), -$T(0.0), a / b < $T(0.0)); }
    var f = floor(d);
    if (d - f > $T(0.5)) { f = f + $T(1.0); }
    return f;
}
";

const ATAN2: &str = "fn atan2_$T(y: $T, x: $T) -> $T {
    let pi = $T(3.141592653589793);
    if (!(x == x) || !(y == y)) { return x + y; }
    let x_negative = (bitcast<$BITS>(x) >> $SIGN) != $BITS(0);
    let y_negative = (bitcast<$BITS>(y) >> $SIGN) != $BITS(0);
    let signed_pi = select(pi, -pi, y_negative);
    if (y == $T(0.0)) { return select(y, signed_pi, x_negative); }
    let x_inf = ((bitcast<$BITS>(x) & $EXPMASK) == $EXPMASK);
    let y_inf = ((bitcast<$BITS>(y) & $EXPMASK) == $EXPMASK);
    if (x_inf && y_inf) { return select(signed_pi * $T(0.25), signed_pi * $T(0.75), x_negative); }
    if (x == $T(0.0)) { return signed_pi * $T(0.5); }
    let t = $atan(y / x);
    if (x_negative) { return t + signed_pi; }
    return t;
}

fn asin_$T(x: $T) -> $T {
    if (x == $T(0.0)) { return x; }
    return atan2_$T(x, sqrt(($T(1.0) - x) * ($T(1.0) + x)));
}

fn acos_$T(x: $T) -> $T {
    return atan2_$T(sqrt(($T(1.0) - x) * ($T(1.0) + x)), x);
}
";

const ERFINV_GUESS: &str = "fn erfinv_guess_$T(x: $T) -> $T {
    var w = -$log(($T(1.0) - x) * ($T(1.0) + x));
    var p: $T;
    if (w < $T(5.0)) {
        w = w - $T(2.5);
        p = $T(2.81022636e-08);
        p = $T(3.43273939e-07) + p * w;
        p = $T(-3.5233877e-06) + p * w;
        p = $T(-4.39150654e-06) + p * w;
        p = $T(0.00021858087) + p * w;
        p = $T(-0.00125372503) + p * w;
        p = $T(-0.00417768164) + p * w;
        p = $T(0.246640727) + p * w;
        p = $T(1.50140941) + p * w;
    } else {
        w = sqrt(w) - $T(3.0);
        p = $T(-0.000200214257);
        p = $T(0.000100950558) + p * w;
        p = $T(0.00134934322) + p * w;
        p = $T(-0.00367342844) + p * w;
        p = $T(0.00573950773) + p * w;
        p = $T(-0.0076224613) + p * w;
        p = $T(0.00943887047) + p * w;
        p = $T(1.00167406) + p * w;
        p = $T(2.83297682) + p * w;
    }
    return p * x;
}
";

const ERFINV: &str = "fn erfinv_$T(x: $T) -> $T {
    let a = abs(x);
    if (!(a <= $T(1.0))) { return $NAN; }
    if (a == $T(1.0)) { return x * $INF; }
    var y = erfinv_guess_$T(x);
    for (var i = 0; i < $steps; i += 1) {
        y = y - (erf_$T(y) - x) / ($T(1.1283791670955126) * $exp(-y * y));
    }
    return y;
}
";

const IPOW: &str = "fn ipow_$T(a: $T, b: $T) -> $T {
    if (b < $T(0)) {
        if (a == $T(1)) { return $T(1); }
        if (a == $T($neg)) { return select($T(1), a, (b & $T(1)) != $T(0)); }
        return $T(0);
    }
    var r = $T(1);
    var base = a;
    var e = b;
    while (e > $T(0)) {
        if ((e & $T(1)) != $T(0)) { r = r * base; }
        base = base * base;
        e = e >> 1u;
    }
    return r;
}
";

/// Fixed helpers, separated by blank lines; each starts with its `fn` line. `exp_f32` reduces
/// its argument by multiples of ln 2 (split in two parts) first: drivers compute `exp` as
/// `exp2(x * log2(e))`, whose rounded product costs up to |x| ulp (lavapipe: 3e-6 at x = 50).
/// The nearest integer `k` to `x log2(e)` is read from the bits of `x log2(e) + 1.5 * 2^23`
/// and the result scaled back by two exact multiplications by powers of two built from their
/// bits: lavapipe converts floats to integers (`i32(k)`) and scales (`ldexp`) slowly. The
/// reduced argument (|r| <= ln(2)/2) goes through a Taylor polynomial to r^7 (truncation
/// under 0.1 ulp) rather than the driver's `exp`, which is 3.4 ulps off and slower: within
/// 1.2 ulps of float64 everywhere, 4M exps 7.5 -> 5.7 ms on lavapipe. Clamping to
/// [-104, 89] makes the scaling overflow to inf and underflow to zero where `exp` does.
/// `erf_wide_f32` and `tanh_wide_f32`, for devices with f64, are `x P(x^2) / Q(x^2)` with
/// degree-6 polynomials fitted to the function's relative error (1.8e-9 and 1.4e-8) on
/// |x| <= 3.92 and 9.1, past which float32 rounds it to +-1, evaluated in f64: within 0.53
/// and 0.73 ulps, branch-free, and cheaper on lavapipe than the float32 helpers' two paths
/// (4M erfs 9.0 -> 6.0 ms, tanhs 7.7 -> 6.1 ms; those stay for devices without f64).
const F64_AND_F32: &str = "fn exp_f32(x: f32) -> f32 {
    let c = clamp(x, -104.0f, 89.0f);
    let ki = bitcast<i32>(c * 1.44269504f + 12582912.0f) - 0x4b400000;
    let k = f32(ki);
    let r = (c - k * 0.693145752f) - k * 1.42860677e-6f;
    let half = ki >> 1u;
    let lo = bitcast<f32>(u32(half + 127) << 23u);
    let hi = bitcast<f32>(u32(ki - half + 127) << 23u);
    var p = 1.98412698e-4f;
    p = 1.38888889e-3f + r * p;
    p = 8.33333333e-3f + r * p;
    p = 4.16666667e-2f + r * p;
    p = 1.66666667e-1f + r * p;
    p = 0.5f + r * p;
    p = 1.0f + r * p;
    p = 1.0f + r * p;
    return select(p * lo * hi, x, !(x == x));
}

fn exp_f64(x: f64) -> f64 {
    if (!(x == x)) { return x; }
    if (x > f64(709.782712893384)) { return bitcast<f64>(0x7ff0000000000000lu); }
    if (x < f64(-745.2)) { return f64(0.0); }
    let k = round(x * f64(1.4426950408889634));
    let r = (x - k * f64(0.6931471803691238)) - k * f64(1.9082149292705877e-10);
    var p = f64(0.0);
$exp_taylor
    let ki = i32(k);
    let k1 = ki / 2;
    let k2 = ki - k1;
    return p * bitcast<f64>(u64(k1 + 1023) << 52u) * bitcast<f64>(u64(k2 + 1023) << 52u);
}

fn log_f64(x: f64) -> f64 {
    if (!(x == x)) { return x; }
    if (x < f64(0.0)) { return bitcast<f64>(0x7ff8000000000000lu); }
    if (x == f64(0.0)) { return bitcast<f64>(0xfff0000000000000lu); }
    if ((bitcast<u64>(x) & 0x7ff0000000000000lu) == 0x7ff0000000000000lu) { return x; }
    var m = x;
    var e = 0;
    if (x < f64(2.2250738585072014e-308)) { m = x * f64(18014398509481984.0); e = -54; }
    let bits = bitcast<u64>(m);
    e = e + i32((bits >> 52u) & 0x7fflu) - 1023;
    m = bitcast<f64>((bits & 0x000ffffffffffffflu) | 0x3ff0000000000000lu);
    if (m > f64(1.4142135623730951)) { m = m * f64(0.5); e = e + 1; }
    let s = (m - f64(1.0)) / (m + f64(1.0));
    let s2 = s * s;
    var p = f64(0.0);
$log_series
    return f64(e) * f64(0.6931471805599453) + f64(2.0) * s * p;
}

fn round_f64(x: f64) -> f64 {
    // Half to even through floor: lavapipe's f64 round is off past 2^24 on AVX2 hosts.
    let f = floor(x);
    let d = x - f;
    let odd = f - f64(2.0) * floor(f * f64(0.5));
    var r = f;
    if (d > f64(0.5) || (d == f64(0.5) && odd == f64(1.0))) { r = f + f64(1.0); }
    let signed_zero = bitcast<f64>(bitcast<u64>(x) & 0x8000000000000000lu);
    return select(r, signed_zero, r == f64(0.0));
}

fn sincos_f64(x: f64) -> vec2<f64> {
    if ((bitcast<u64>(x) & 0x7ff0000000000000lu) == 0x7ff0000000000000lu) {
        let nan = bitcast<f64>(0x7ff8000000000000lu);
        return vec2<f64>(nan, nan);
    }
    // x - k pi/2 with pi/2 in pieces of 26 bits and k split at 2^27, so that every product
    // but the last is exact and each difference cancels exactly: accurate for |x| < 2^56.
    let k = round_f64(x * f64(0.6366197723675814));
    let kh = round_f64(k * f64(7.450580596923828e-9)) * f64(134217728.0);
    let kl = k - kh;
    var r = (x - kh * f64(1.5707963109016418)) - kl * f64(1.5707963109016418);
    r = (r - kh * f64(1.5893254712295857e-8)) - kl * f64(1.5893254712295857e-8);
    r = (r - kh * f64(6.123233932053594e-17)) - kl * f64(6.123233932053594e-17);
    r = r - k * f64(6.36831716351095e-25);
    let r2 = r * r;
    var s = f64(0.0);
    var c = f64(0.0);
$sincos_taylor
    s = s * r;
    let q = i32(k - f64(4.0) * floor(k * f64(0.25)));
    if (q == 0) { return vec2<f64>(s, c); }
    if (q == 1) { return vec2<f64>(c, -s); }
    if (q == 2) { return vec2<f64>(-s, -c); }
    return vec2<f64>(-c, s);
}

fn sin_f64(x: f64) -> f64 {
    if (x == f64(0.0)) { return x; }
    return sincos_f64(x).x;
}

fn cos_f64(x: f64) -> f64 {
    return sincos_f64(x).y;
}

fn tan_f64(x: f64) -> f64 {
    if (x == f64(0.0)) { return x; }
    let sc = sincos_f64(x);
    return sc.x / sc.y;
}

fn atan_f64(x: f64) -> f64 {
    if (!(x == x) || x == f64(0.0)) { return x; }
    var a = abs(x);
    var inverted = false;
    if (a > f64(1.0)) { a = f64(1.0) / a; inverted = true; }
    var offset = f64(0.0);
    if (a > f64(0.41421356237309503)) {
        offset = f64(0.7853981633974483);
        a = (a - f64(1.0)) / (a + f64(1.0));
    }
    let a2 = a * a;
    var p = f64(0.0);
$atan_series
    var r = offset + a * p;
    if (inverted) { r = f64(1.5707963267948966) - r; }
    return select(r, -r, x < f64(0.0));
}

fn sinh_f64(x: f64) -> f64 {
    let a = abs(x);
    var r: f64;
    if (a < f64(1.0)) {
        let e = expm1_f64(a);
        r = (e + e / (e + f64(1.0))) * f64(0.5);
    } else {
        let e = exp_f64(a * f64(0.5));
        r = (f64(0.5) * e) * e - f64(0.5) / (e * e);
    }
    return select(r, -r, x < f64(0.0));
}

fn cosh_f64(x: f64) -> f64 {
    let e = exp_f64(abs(x) * f64(0.5));
    return (f64(0.5) * e) * e + f64(0.5) / (e * e);
}

fn tanh_f64(x: f64) -> f64 {
    if (!(x == x) || x == f64(0.0)) { return x; }
    let a = abs(x);
    var r = f64(1.0);
    if (a < f64(22.0)) {
        let e = expm1_f64(f64(2.0) * a);
        r = e / (e + f64(2.0));
    }
    return select(r, -r, x < f64(0.0));
}

fn asinh_f64(x: f64) -> f64 {
    if (!(x == x) || x == f64(0.0)) { return x; }
    let a = abs(x);
    var r: f64;
    if (a > f64(1e8)) {
        r = log_f64(a) + f64(0.6931471805599453);
    } else {
        r = log1p_f64(a + a * a / (f64(1.0) + sqrt(f64(1.0) + a * a)));
    }
    return select(r, -r, x < f64(0.0));
}

fn acosh_f64(x: f64) -> f64 {
    if (!(x >= f64(1.0))) { return bitcast<f64>(0x7ff8000000000000lu); }
    if (x > f64(1e8)) { return log_f64(x) + f64(0.6931471805599453); }
    let t = x - f64(1.0);
    return log1p_f64(t + sqrt(f64(2.0) * t + t * t));
}

fn atanh_f64(x: f64) -> f64 {
    if (x == f64(0.0)) { return x; }
    let a = abs(x);
    let r = f64(0.5) * log1p_f64(f64(2.0) * a / (f64(1.0) - a));
    return select(r, -r, x < f64(0.0));
}

fn erf_parts_f64(a: f64) -> vec2<f64> {
    if (a < f64(2.5)) {
        // erf(a) = 2/sqrt(pi) exp(-a^2) sum_n (2 a^2)^n a / (3 5 ... (2n + 1)).
        let a2 = a * a;
        var p = f64(0.0);
$erf_series
        let e = f64(1.1283791670955126) * exp_f64(-a2) * a * p;
        return vec2<f64>(e, f64(1.0) - e);
    }
    var f = a;
    for (var k = 80; k >= 1; k -= 1) { f = a + (f64(k) * f64(0.5)) / f; }
    let c = exp_f64(-a * a) / (f64(1.7724538509055159) * f);
    return vec2<f64>(f64(1.0) - c, c);
}

fn erf_f64(x: f64) -> f64 {
    if (!(x == x) || x == f64(0.0)) { return x; }
    let r = erf_parts_f64(min(abs(x), f64(30.0))).x;
    return select(r, -r, x < f64(0.0));
}

fn erfc_f64(x: f64) -> f64 {
    if (!(x == x)) { return x; }
    let p = erf_parts_f64(min(abs(x), f64(30.0)));
    return select(p.y, f64(1.0) + p.x, x < f64(0.0));
}

fn erfc_pos_f32(a: f32) -> f32 {
    // Past 10.06 erfc rounds to 0 in float32 (10.5: no inf - inf below).
    let z = min(a, 10.5f);
    let t = 1.0f / (1.0f + 0.5f * z);
    // -z^2 as -s^2 (s: z's leading 12 bits, squared exactly) plus (s - z)(s + z), each in
    // its own exp: -z^2 rounded to float32 cost 145 ulps near z = 8.
    let s = bitcast<f32>(bitcast<u32>(z) & 0xfffff000u);
    let p = (s - z) * (s + z) - 1.26551223f + t * (1.00002368f + t * (0.37409196f + t * (0.09678418f +
        t * (-0.18628806f + t * (0.27886807f + t * (-1.13520398f + t * (1.48851587f +
        t * (-0.82215223f + t * 0.17087277f))))))));
    return t * exp_f32(p) * exp_f32(-s * s);
}

fn erf_f32(x: f32) -> f32 {
    if (!(x == x)) { return x; }
    let a = abs(x);
    if (a < 0.5f) {
        let x2 = x * x;
        return x * 1.1283791670955126f * (1.0f + x2 * (-0.3333333333f + x2 * (0.1f +
            x2 * (-0.0238095238f + x2 * (0.0046296296f - x2 * 0.0007575758f)))));
    }
    let r = 1.0f - erfc_pos_f32(a);
    return select(r, -r, x < 0.0f);
}

fn erf_wide_f32(x: f32) -> f32 {
    let a = f64(clamp(x, -3.92f, 3.92f));
    let s = a * a;
    var p = f64(-1.2798273305585728e-08);
    p = f64(4.608942369887413e-06) + s * p;
    p = f64(0.00037674795751670755) + s * p;
    p = f64(0.0038385837804036805) + s * p;
    p = f64(0.05424371155849485) + s * p;
    p = f64(0.18513512728727444) + s * p;
    p = f64(1.128379169140226) + s * p;
    var q = f64(6.239641710324253e-05);
    q = f64(0.0013015022710367351) + s * q;
    q = f64(0.015429930931213783) + s * q;
    q = f64(0.11387347186640039) + s * q;
    q = f64(0.4974051408351288) + s * q;
    q = f64(1.0) + s * q;
    return select(f32(a * p / q), x, !(x == x));
}

fn tanh_wide_f32(x: f32) -> f32 {
    let a = f64(clamp(x, -9.1f, 9.1f));
    let s = a * a;
    var p = f64(8.343643021684272e-10);
    p = f64(1.3286722155255085e-06) + s * p;
    p = f64(0.000225179332559521) + s * p;
    p = f64(0.00794606252695205) + s * p;
    p = f64(0.03142509219759437) + s * p;
    p = f64(-0.1588742976224424) + s * p;
    p = f64(0.9999999861326039) + s * p;
    var q = f64(4.9490688453289215e-08);
    q = f64(2.1292834223063996e-05) + s * q;
    q = f64(0.0016277628190442734) + s * q;
    q = f64(0.02406774529822926) + s * q;
    q = f64(-0.043754855661371536) + s * q;
    q = f64(0.17445885022387358) + s * q;
    q = f64(1.0) + s * q;
    return select(f32(a * p / q), x, !(x == x));
}

fn tanh_f32(x: f32) -> f32 {
    let a = abs(x);
    if (a < 0.55f) {
        let s = x * x;
        var p = -6.282473914e-3f;
        p = 2.107775956e-2f + s * p;
        p = -5.385385826e-2f + s * p;
        p = 1.333260238e-1f + s * p;
        p = -3.333331943e-1f + s * p;
        return select(x + (x * s) * p, x, s == 0.0f);
    }
    let r = 1.0f - 2.0f / (exp_f32(2.0f * min(a, 9.5f)) + 1.0f);
    return select(select(r, -r, x < 0.0f), x, !(x == x));
}

fn erfc_f32(x: f32) -> f32 {
    if (!(x == x)) { return x; }
    if (abs(x) < 0.5f) { return 1.0f - erf_f32(x); }
    let c = erfc_pos_f32(abs(x));
    return select(c, 2.0f - c, x < 0.0f);
}";
