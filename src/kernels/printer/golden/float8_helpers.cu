    auto f32_to_float8_e5m2 = [&](float f) -> u32 {
        const u32 x = __float_as_uint(f);
        const u32 a = x & 0x7fffffffu;
        const u32 sign = (x >> 24u) & 0x80u;
        if (a > 0x7f800000u) {
            return sign | 0x7fu;
        }
        u32 r = 0u;
        if (a >= 0x38800000u) {
            r = ((a + 0xfffffu + ((a >> 21u) & 1u)) >> 21u) - 0x1c0u;
        } else if (a >= 0x37000000u) {
            const u32 m = (a & 0x7fffffu) | 0x800000u;
            const u32 s = 134u - (a >> 23u);
            const u32 q = m >> s;
            const u32 rest = m & ((1u << s) - 1u);
            const u32 half = 1u << (s - 1u);
            r = q + (rest > half || (rest == half && (q & 1u) == 1u) ? 1u : 0u);
        }
        return sign | min(r, 0x7cu);
    };
    auto float8_e5m2_to_f32 = [&](u32 b) -> float {
        const u32 sign = (b & 0x80u) << 24u;
        const u32 mag = b & 0x7fu;
        if (mag >= 0x7cu) {
            return (mag == 0x7cu ? __uint_as_float((sign | 0x7f800000u)) : __uint_as_float((sign | 0x7fc00000u)));
        }
        if (mag < 4u) {
            return __uint_as_float((sign | __float_as_uint((f32(mag) * __uint_as_float(0x37800000u)))));
        }
        return __uint_as_float((sign | ((mag + 0x1c0u) << 21u)));
    };
    auto f32_to_float8_e4m3fn = [&](float f) -> u32 {
        const u32 x = __float_as_uint(f);
        const u32 a = x & 0x7fffffffu;
        const u32 sign = (x >> 24u) & 0x80u;
        if (a > 0x7f800000u) {
            return sign | 0x7fu;
        }
        u32 r = 0u;
        if (a >= 0x3c800000u) {
            r = ((a + 0x7ffffu + ((a >> 20u) & 1u)) >> 20u) - 0x3c0u;
        } else if (a >= 0x3a800000u) {
            const u32 m = (a & 0x7fffffu) | 0x800000u;
            const u32 s = 141u - (a >> 23u);
            const u32 q = m >> s;
            const u32 rest = m & ((1u << s) - 1u);
            const u32 half = 1u << (s - 1u);
            r = q + (rest > half || (rest == half && (q & 1u) == 1u) ? 1u : 0u);
        }
        return sign | min(r, 0x7fu);
    };
    auto float8_e4m3fn_to_f32 = [&](u32 b) -> float {
        const u32 sign = (b & 0x80u) << 24u;
        const u32 mag = b & 0x7fu;
        if (mag == 0x7fu) {
            return __uint_as_float((sign | 0x7fc00000u));
        }
        if (mag < 8u) {
            return __uint_as_float((sign | __float_as_uint((f32(mag) * __uint_as_float(0x3b000000u)))));
        }
        return __uint_as_float((sign | ((mag + 0x3c0u) << 20u)));
    };
    auto f32_to_float8_e4m3fnuz = [&](float f) -> u32 {
        const u32 x = __float_as_uint(f);
        const u32 a = x & 0x7fffffffu;
        const u32 sign = (x >> 24u) & 0x80u;
        if (a > 0x7f800000u) {
            return 0x80u;
        }
        u32 r = 0u;
        if (a >= 0x3c000000u) {
            r = ((a + 0x7ffffu + ((a >> 20u) & 1u)) >> 20u) - 0x3b8u;
        } else if (a >= 0x3a000000u) {
            const u32 m = (a & 0x7fffffu) | 0x800000u;
            const u32 s = 140u - (a >> 23u);
            const u32 q = m >> s;
            const u32 rest = m & ((1u << s) - 1u);
            const u32 half = 1u << (s - 1u);
            r = q + (rest > half || (rest == half && (q & 1u) == 1u) ? 1u : 0u);
        }
        return (r > 0x7fu ? 0x80u : (r == 0u ? 0u : sign | r));
    };
    auto float8_e4m3fnuz_to_f32 = [&](u32 b) -> float {
        const u32 sign = (b & 0x80u) << 24u;
        const u32 mag = b & 0x7fu;
        if (b == 0x80u) {
            return __uint_as_float(0x7fc00000u);
        }
        if (mag < 8u) {
            return __uint_as_float((sign | __float_as_uint((f32(mag) * __uint_as_float(0x3a800000u)))));
        }
        return __uint_as_float((sign | ((mag + 0x3b8u) << 20u)));
    };
    auto f32_to_float8_e8m0fnu = [&](float f) -> u32 {
        const u32 x = __float_as_uint(f);
        const u32 e = (x >> 23u) & 0xffu;
        if (e == 0xffu) {
            return 0xffu;
        }
        return e + (((x >> 22u) & 1u) == 1u && (((x >> 21u) & 1u) == 1u || (x & 0x1fffffu) != 0u || e > 0u) ? 1u : 0u);
    };
    auto float8_e8m0fnu_to_f32 = [&](u32 b) -> float {
        if (b == 0u) {
            return __uint_as_float(0x400000u);
        }
        if (b == 0xffu) {
            return __uint_as_float(0x7fc00000u);
        }
        return __uint_as_float(b << 23u);
    };
