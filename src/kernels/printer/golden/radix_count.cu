    auto key = [&](float x, bool hi) -> u32 {
        const u32 b = __float_as_uint(x);
        u32 k = ((b & 0x80000000u) != 0u ? ~b : b | 0x80000000u);
        if ((b & 0x7fffffffu) == 0u) {
            k = 0x80000000u;
        }
        if ((b & 0x7fffffffu) > 0x7f800000u) {
            k = 0xffffffffu;
        }
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
        if ((((keys) + (base + start) * 4u) & 15u) == 0u) {
            while (q + 4u <= end) {
                const auto four0 = *(const float4*)(b0 + (keys + (base + q + 0u) * 4u));
                {
                    const u32 kk = key(four0.x, hi) & mask;
                    const u32 g = (kk >> sh) & (digits - 1u);
                    const bool counted = true;
                    if (counted) {
                        const u32 at = counts + (cb + g * tiles) * 4u;
                        st1(at, ld1(at) + 1);
                    }
                }
                {
                    const u32 kk = key(four0.y, hi) & mask;
                    const u32 g = (kk >> sh) & (digits - 1u);
                    const bool counted = true;
                    if (counted) {
                        const u32 at = counts + (cb + g * tiles) * 4u;
                        st1(at, ld1(at) + 1);
                    }
                }
                {
                    const u32 kk = key(four0.z, hi) & mask;
                    const u32 g = (kk >> sh) & (digits - 1u);
                    const bool counted = true;
                    if (counted) {
                        const u32 at = counts + (cb + g * tiles) * 4u;
                        st1(at, ld1(at) + 1);
                    }
                }
                {
                    const u32 kk = key(four0.w, hi) & mask;
                    const u32 g = (kk >> sh) & (digits - 1u);
                    const bool counted = true;
                    if (counted) {
                        const u32 at = counts + (cb + g * tiles) * 4u;
                        st1(at, ld1(at) + 1);
                    }
                }
                q += 4u;
            }
        }
        while (q < end) {
            const float x = ld0(keys + (base + q) * 4u);
            {
                const u32 kk = key(x, hi) & mask;
                const u32 g = (kk >> sh) & (digits - 1u);
                const bool counted = true;
                if (counted) {
                    const u32 at = counts + (cb + g * tiles) * 4u;
                    st1(at, ld1(at) + 1);
                }
            }
            q += 1u;
        }
    }
}
