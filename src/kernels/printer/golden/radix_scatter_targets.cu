    auto key = [&](int x, bool hi) -> u32 {
        const u32 k = u32(x) + 2147483648u;
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
    const u32 fresh = p.w[7u];
    const u32 keys = p.w[8u];
    const u32 indices = p.w[9u];
    const u32 counts = p.w[10u];
    const u32 scanned = p.w[11u];
    const u32 out_keys = p.w[12u];
    const u32 out_indices = p.w[13u];
    const u32 bound = p.w[14u];
    for (u32 i = group * 64u + t; i < n; i += groups * 64u) {
        const u32 line = i / tiles;
        const u32 part = i % tiles;
        const u32 start = part * tile;
        const u32 end = min(start + tile, len);
        const u32 base = line * len;
        const u32 cb = line * digits * tiles + part;
        for (u32 d = 0u; d < digits; d += 1u) {
            const u32 at = (cb + d * tiles) * 4u;
            st3(scanned + at, ld3(scanned + at) - ld2(counts + at));
        }
        u32 q = start;
        if ((((keys) + (base + start) * 4u) & 15u) == 0u && (fresh != 0u || (((indices) + (base + start) * 4u) & 15u) == 0u)) {
            while (q + 4u <= end) {
                const auto four0 = *(const int4*)(b0 + (keys + (base + q + 0u) * 4u));
                if (fresh != 0u) {
                    {
                        const u32 lo = u32(four0.x);
                        const u32 hi = u32(four0.x >> 31u);
                        const bool inside = (hi == 0u && lo < bound) || false;
                        const u32 w = (hi == 0u ? lo : lo + bound);
                        const u32 g = (inside ? w : digits - 1u);
                        const bool counted = true;
                        const u32 cursor = scanned + (cb + g * tiles) * 4u;
                        const int place = ld3(cursor);
                        const u32 dest = base + u32(place);
                        st3(cursor, place + 1);
                        st5(out_indices + dest * 4u, float(q + 0u));
                    }
                    {
                        const u32 lo = u32(four0.y);
                        const u32 hi = u32(four0.y >> 31u);
                        const bool inside = (hi == 0u && lo < bound) || false;
                        const u32 w = (hi == 0u ? lo : lo + bound);
                        const u32 g = (inside ? w : digits - 1u);
                        const bool counted = true;
                        const u32 cursor = scanned + (cb + g * tiles) * 4u;
                        const int place = ld3(cursor);
                        const u32 dest = base + u32(place);
                        st3(cursor, place + 1);
                        st5(out_indices + dest * 4u, float(q + 1u));
                    }
                    {
                        const u32 lo = u32(four0.z);
                        const u32 hi = u32(four0.z >> 31u);
                        const bool inside = (hi == 0u && lo < bound) || false;
                        const u32 w = (hi == 0u ? lo : lo + bound);
                        const u32 g = (inside ? w : digits - 1u);
                        const bool counted = true;
                        const u32 cursor = scanned + (cb + g * tiles) * 4u;
                        const int place = ld3(cursor);
                        const u32 dest = base + u32(place);
                        st3(cursor, place + 1);
                        st5(out_indices + dest * 4u, float(q + 2u));
                    }
                    {
                        const u32 lo = u32(four0.w);
                        const u32 hi = u32(four0.w >> 31u);
                        const bool inside = (hi == 0u && lo < bound) || false;
                        const u32 w = (hi == 0u ? lo : lo + bound);
                        const u32 g = (inside ? w : digits - 1u);
                        const bool counted = true;
                        const u32 cursor = scanned + (cb + g * tiles) * 4u;
                        const int place = ld3(cursor);
                        const u32 dest = base + u32(place);
                        st3(cursor, place + 1);
                        st5(out_indices + dest * 4u, float(q + 3u));
                    }
                } else {
                    const auto four_indices = *(const float4*)(b1 + (indices + (base + q) * 4u));
                    {
                        const u32 lo = u32(four0.x);
                        const u32 hi = u32(four0.x >> 31u);
                        const bool inside = (hi == 0u && lo < bound) || false;
                        const u32 w = (hi == 0u ? lo : lo + bound);
                        const u32 g = (inside ? w : digits - 1u);
                        const bool counted = true;
                        const u32 cursor = scanned + (cb + g * tiles) * 4u;
                        const int place = ld3(cursor);
                        const u32 dest = base + u32(place);
                        st3(cursor, place + 1);
                        st5(out_indices + dest * 4u, four_indices.x);
                    }
                    {
                        const u32 lo = u32(four0.y);
                        const u32 hi = u32(four0.y >> 31u);
                        const bool inside = (hi == 0u && lo < bound) || false;
                        const u32 w = (hi == 0u ? lo : lo + bound);
                        const u32 g = (inside ? w : digits - 1u);
                        const bool counted = true;
                        const u32 cursor = scanned + (cb + g * tiles) * 4u;
                        const int place = ld3(cursor);
                        const u32 dest = base + u32(place);
                        st3(cursor, place + 1);
                        st5(out_indices + dest * 4u, four_indices.y);
                    }
                    {
                        const u32 lo = u32(four0.z);
                        const u32 hi = u32(four0.z >> 31u);
                        const bool inside = (hi == 0u && lo < bound) || false;
                        const u32 w = (hi == 0u ? lo : lo + bound);
                        const u32 g = (inside ? w : digits - 1u);
                        const bool counted = true;
                        const u32 cursor = scanned + (cb + g * tiles) * 4u;
                        const int place = ld3(cursor);
                        const u32 dest = base + u32(place);
                        st3(cursor, place + 1);
                        st5(out_indices + dest * 4u, four_indices.z);
                    }
                    {
                        const u32 lo = u32(four0.w);
                        const u32 hi = u32(four0.w >> 31u);
                        const bool inside = (hi == 0u && lo < bound) || false;
                        const u32 w = (hi == 0u ? lo : lo + bound);
                        const u32 g = (inside ? w : digits - 1u);
                        const bool counted = true;
                        const u32 cursor = scanned + (cb + g * tiles) * 4u;
                        const int place = ld3(cursor);
                        const u32 dest = base + u32(place);
                        st3(cursor, place + 1);
                        st5(out_indices + dest * 4u, four_indices.w);
                    }
                }
                q += 4u;
            }
        }
        while (q < end) {
            const int x = ld0(keys + (base + q) * 4u);
            float index = float(q);
            if (fresh == 0u) {
                index = ld1(indices + (base + q) * 4u);
            }
            {
                const u32 lo = u32(x);
                const u32 hi = u32(x >> 31u);
                const bool inside = (hi == 0u && lo < bound) || false;
                const u32 w = (hi == 0u ? lo : lo + bound);
                const u32 g = (inside ? w : digits - 1u);
                const bool counted = true;
                const u32 cursor = scanned + (cb + g * tiles) * 4u;
                const int place = ld3(cursor);
                const u32 dest = base + u32(place);
                st3(cursor, place + 1);
                st5(out_indices + dest * 4u, index);
            }
            q += 1u;
        }
    }
}
