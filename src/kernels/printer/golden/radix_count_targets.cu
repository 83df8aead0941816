    auto key = [&](i64 x, bool hi) -> u32 {
        const u32 k = (hi ? u32(x >> 32u) ^ 0x80000000u : u32(x));
        return k;
    };
fn main {
    const u32 n = p.w[0u];
    const u32 len = p.w[1u];
    const u32 tile = p.w[2u];
    const u32 tiles = p.w[3u];
    const u32 shift = p.w[4u];
    const bool hi = shift >= 32u;
    const u32 sh = shift & 31u;
    const u32 mask = p.w[5u];
    const u32 digit_bits = p.w[6u];
    const u32 digits = 1u << digit_bits;
    const u32 above = (0xffffffffu << sh) << digit_bits;
    const u32 keys = p.w[7u];
    const u32 counts = p.w[8u];
    const u32 bound = p.w[10u];
    const u32 fw = 9u;
    for (u32 i = group * 64u + t; i < n; i += groups * 64u) {
        const u32 line = i / tiles;
        const u32 part = i % tiles;
        const u32 start = part * tile;
        const u32 end = min(start + tile, len);
        const u32 base = line * len;
        const u32 cb = line * digits * tiles + part;
        for (u32 d = 0u; d < digits; d += 1u) {
            st1(counts + (cb + d * tiles) * 4u, int(0));
        }
        u32 q = start;
        if ((((keys) + (base + start) * 8u) & 15u) == 0u) {
            while (q + 4u <= end) {
                const auto four0 = *(const int4*)(b0 + (keys + (base + q + 0u) * 8u));
                const auto four1 = *(const int4*)(b0 + (keys + (base + q + 2u) * 8u));
                {
                    const u32 lo = u32(four0.x);
                    const u32 hi = u32(four0.y);
                    const bool inside = (hi == 0u && lo < bound) || (hi == 0xffffffffu && bound != 0u && lo >= 0u - bound);
                    const u32 w = (hi == 0u ? lo : lo + bound);
                    const u32 g = (inside ? w : digits - 1u);
                    const bool counted = true;
                    if (!inside) {
                        if (ld2(p.w[fw]) == ((int)0x0u)) {
                            st2(p.w[fw], (int)p.w[fw + 2u]);
                        }
                    }
                    if (counted) {
                        const u32 at = counts + (cb + g * tiles) * 4u;
                        st1(at, ld1(at) + 1);
                    }
                }
                {
                    const u32 lo = u32(four0.z);
                    const u32 hi = u32(four0.w);
                    const bool inside = (hi == 0u && lo < bound) || (hi == 0xffffffffu && bound != 0u && lo >= 0u - bound);
                    const u32 w = (hi == 0u ? lo : lo + bound);
                    const u32 g = (inside ? w : digits - 1u);
                    const bool counted = true;
                    if (!inside) {
                        if (ld2(p.w[fw]) == ((int)0x0u)) {
                            st2(p.w[fw], (int)p.w[fw + 2u]);
                        }
                    }
                    if (counted) {
                        const u32 at = counts + (cb + g * tiles) * 4u;
                        st1(at, ld1(at) + 1);
                    }
                }
                {
                    const u32 lo = u32(four1.x);
                    const u32 hi = u32(four1.y);
                    const bool inside = (hi == 0u && lo < bound) || (hi == 0xffffffffu && bound != 0u && lo >= 0u - bound);
                    const u32 w = (hi == 0u ? lo : lo + bound);
                    const u32 g = (inside ? w : digits - 1u);
                    const bool counted = true;
                    if (!inside) {
                        if (ld2(p.w[fw]) == ((int)0x0u)) {
                            st2(p.w[fw], (int)p.w[fw + 2u]);
                        }
                    }
                    if (counted) {
                        const u32 at = counts + (cb + g * tiles) * 4u;
                        st1(at, ld1(at) + 1);
                    }
                }
                {
                    const u32 lo = u32(four1.z);
                    const u32 hi = u32(four1.w);
                    const bool inside = (hi == 0u && lo < bound) || (hi == 0xffffffffu && bound != 0u && lo >= 0u - bound);
                    const u32 w = (hi == 0u ? lo : lo + bound);
                    const u32 g = (inside ? w : digits - 1u);
                    const bool counted = true;
                    if (!inside) {
                        if (ld2(p.w[fw]) == ((int)0x0u)) {
                            st2(p.w[fw], (int)p.w[fw + 2u]);
                        }
                    }
                    if (counted) {
                        const u32 at = counts + (cb + g * tiles) * 4u;
                        st1(at, ld1(at) + 1);
                    }
                }
                q += 4u;
            }
        }
        while (q < end) {
            const i64 x = ld0(keys + (base + q) * 8u);
            {
                const u32 lo = u32(x);
                const u32 hi = u32(x >> 32u);
                const bool inside = (hi == 0u && lo < bound) || (hi == 0xffffffffu && bound != 0u && lo >= 0u - bound);
                const u32 w = (hi == 0u ? lo : lo + bound);
                const u32 g = (inside ? w : digits - 1u);
                const bool counted = true;
                if (!inside) {
                    if (ld2(p.w[fw]) == ((int)0x0u)) {
                        st2(p.w[fw], (int)p.w[fw + 2u]);
                    }
                }
                if (counted) {
                    const u32 at = counts + (cb + g * tiles) * 4u;
                    st1(at, ld1(at) + 1);
                }
            }
            q += 1u;
        }
    }
}
