fn f32_to_float8_e5m2(f: f32) -> u32 {
    let x: u32 = bitcast<u32>(f);
    let a: u32 = x & 0x7fffffffu;
    let sign: u32 = (x >> 24u) & 0x80u;
    if (a > 0x7f800000u) {
        return sign | 0x7fu;
    }
    var r: u32 = 0u;
    if (a >= 0x38800000u) {
        r = ((a + 0xfffffu + ((a >> 21u) & 1u)) >> 21u) - 0x1c0u;
    } else if (a >= 0x37000000u) {
        let m: u32 = (a & 0x7fffffu) | 0x800000u;
        let s: u32 = 134u - (a >> 23u);
        let q: u32 = m >> s;
        let rest: u32 = m & ((1u << s) - 1u);
        let half: u32 = 1u << (s - 1u);
        r = q + select(0u, 1u, rest > half || (rest == half && (q & 1u) == 1u));
    }
    return sign | min(r, 0x7cu);
}
fn float8_e5m2_to_f32(b: u32) -> f32 {
    let sign: u32 = (b & 0x80u) << 24u;
    let mag: u32 = b & 0x7fu;
    if (mag >= 0x7cu) {
        return select(bitcast<f32>((sign | 0x7fc00000u)), bitcast<f32>((sign | 0x7f800000u)), mag == 0x7cu);
    }
    if (mag < 4u) {
        return bitcast<f32>((sign | bitcast<u32>((f32(mag) * bitcast<f32>(0x37800000u)))));
    }
    return bitcast<f32>((sign | ((mag + 0x1c0u) << 21u)));
}
fn f32_to_float8_e4m3fn(f: f32) -> u32 {
    let x: u32 = bitcast<u32>(f);
    let a: u32 = x & 0x7fffffffu;
    let sign: u32 = (x >> 24u) & 0x80u;
    if (a > 0x7f800000u) {
        return sign | 0x7fu;
    }
    var r: u32 = 0u;
    if (a >= 0x3c800000u) {
        r = ((a + 0x7ffffu + ((a >> 20u) & 1u)) >> 20u) - 0x3c0u;
    } else if (a >= 0x3a800000u) {
        let m: u32 = (a & 0x7fffffu) | 0x800000u;
        let s: u32 = 141u - (a >> 23u);
        let q: u32 = m >> s;
        let rest: u32 = m & ((1u << s) - 1u);
        let half: u32 = 1u << (s - 1u);
        r = q + select(0u, 1u, rest > half || (rest == half && (q & 1u) == 1u));
    }
    return sign | min(r, 0x7fu);
}
fn float8_e4m3fn_to_f32(b: u32) -> f32 {
    let sign: u32 = (b & 0x80u) << 24u;
    let mag: u32 = b & 0x7fu;
    if (mag == 0x7fu) {
        return bitcast<f32>((sign | 0x7fc00000u));
    }
    if (mag < 8u) {
        return bitcast<f32>((sign | bitcast<u32>((f32(mag) * bitcast<f32>(0x3b000000u)))));
    }
    return bitcast<f32>((sign | ((mag + 0x3c0u) << 20u)));
}
fn f32_to_float8_e4m3fnuz(f: f32) -> u32 {
    let x: u32 = bitcast<u32>(f);
    let a: u32 = x & 0x7fffffffu;
    let sign: u32 = (x >> 24u) & 0x80u;
    if (a > 0x7f800000u) {
        return 0x80u;
    }
    var r: u32 = 0u;
    if (a >= 0x3c000000u) {
        r = ((a + 0x7ffffu + ((a >> 20u) & 1u)) >> 20u) - 0x3b8u;
    } else if (a >= 0x3a000000u) {
        let m: u32 = (a & 0x7fffffu) | 0x800000u;
        let s: u32 = 140u - (a >> 23u);
        let q: u32 = m >> s;
        let rest: u32 = m & ((1u << s) - 1u);
        let half: u32 = 1u << (s - 1u);
        r = q + select(0u, 1u, rest > half || (rest == half && (q & 1u) == 1u));
    }
    return select(select(sign | r, 0u, r == 0u), 0x80u, r > 0x7fu);
}
fn float8_e4m3fnuz_to_f32(b: u32) -> f32 {
    let sign: u32 = (b & 0x80u) << 24u;
    let mag: u32 = b & 0x7fu;
    if (b == 0x80u) {
        return bitcast<f32>(0x7fc00000u);
    }
    if (mag < 8u) {
        return bitcast<f32>((sign | bitcast<u32>((f32(mag) * bitcast<f32>(0x3a800000u)))));
    }
    return bitcast<f32>((sign | ((mag + 0x3b8u) << 20u)));
}
fn f32_to_float8_e8m0fnu(f: f32) -> u32 {
    let x: u32 = bitcast<u32>(f);
    let e: u32 = (x >> 23u) & 0xffu;
    if (e == 0xffu) {
        return 0xffu;
    }
    return e + select(0u, 1u, ((x >> 22u) & 1u) == 1u && (((x >> 21u) & 1u) == 1u || (x & 0x1fffffu) != 0u || e > 0u));
}
fn float8_e8m0fnu_to_f32(b: u32) -> f32 {
    if (b == 0u) {
        return bitcast<f32>(0x400000u);
    }
    if (b == 0xffu) {
        return bitcast<f32>(0x7fc00000u);
    }
    return bitcast<f32>(b << 23u);
}
