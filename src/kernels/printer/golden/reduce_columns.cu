fn main {
    const u32 n_out = p.w[0u];
    const u32 n_red = p.w[1u];
    const u32 chunk = p.w[4u];
    const u32 n_chunks = p.w[5u];
    const float s0 = __uint_as_float(p.w[14u + 0u]);
    const u32 quads = n_out / 4u;
    for (u32 w = group * 64u + t; w < quads * n_chunks; w += groups * 64u) {
        const u32 o = (w % quads) * 4u;
        const u32 c = w / quads;
        const u32 lo = c * chunk;
        const u32 hi = min(n_red, lo + chunk);
        const u32 ib = p.w[8u] + o * 4u;
        const u32 rs = p.w[10u] * 4u;
        float a0_0 = __uint_as_float(0x0u);
        float a0_1 = __uint_as_float(0x0u);
        float a0_2 = __uint_as_float(0x0u);
        float a0_3 = __uint_as_float(0x0u);
        float a0_4 = __uint_as_float(0x0u);
        float a0_5 = __uint_as_float(0x0u);
        float a0_6 = __uint_as_float(0x0u);
        float a0_7 = __uint_as_float(0x0u);
        float a1_0 = __uint_as_float(0x0u);
        float a1_1 = __uint_as_float(0x0u);
        float a1_2 = __uint_as_float(0x0u);
        float a1_3 = __uint_as_float(0x0u);
        float a1_4 = __uint_as_float(0x0u);
        float a1_5 = __uint_as_float(0x0u);
        float a1_6 = __uint_as_float(0x0u);
        float a1_7 = __uint_as_float(0x0u);
        float a2_0 = __uint_as_float(0x0u);
        float a2_1 = __uint_as_float(0x0u);
        float a2_2 = __uint_as_float(0x0u);
        float a2_3 = __uint_as_float(0x0u);
        float a2_4 = __uint_as_float(0x0u);
        float a2_5 = __uint_as_float(0x0u);
        float a2_6 = __uint_as_float(0x0u);
        float a2_7 = __uint_as_float(0x0u);
        float a3_0 = __uint_as_float(0x0u);
        float a3_1 = __uint_as_float(0x0u);
        float a3_2 = __uint_as_float(0x0u);
        float a3_3 = __uint_as_float(0x0u);
        float a3_4 = __uint_as_float(0x0u);
        float a3_5 = __uint_as_float(0x0u);
        float a3_6 = __uint_as_float(0x0u);
        float a3_7 = __uint_as_float(0x0u);
        for (u32 j = lo; j < hi; j += 8u) {
            if (j + 0u < hi) {
                const auto v4 = *(const float4*)(b0 + (ib + (j + 0u) * rs));
                {
                    const float x0 = v4.x;
                    a0_0 = a0_0 + (x0 * s0);
                }
                {
                    const float x0 = v4.y;
                    a1_0 = a1_0 + (x0 * s0);
                }
                {
                    const float x0 = v4.z;
                    a2_0 = a2_0 + (x0 * s0);
                }
                {
                    const float x0 = v4.w;
                    a3_0 = a3_0 + (x0 * s0);
                }
            }
            if (j + 1u < hi) {
                const auto v4 = *(const float4*)(b0 + (ib + (j + 1u) * rs));
                {
                    const float x0 = v4.x;
                    a0_1 = a0_1 + (x0 * s0);
                }
                {
                    const float x0 = v4.y;
                    a1_1 = a1_1 + (x0 * s0);
                }
                {
                    const float x0 = v4.z;
                    a2_1 = a2_1 + (x0 * s0);
                }
                {
                    const float x0 = v4.w;
                    a3_1 = a3_1 + (x0 * s0);
                }
            }
            if (j + 2u < hi) {
                const auto v4 = *(const float4*)(b0 + (ib + (j + 2u) * rs));
                {
                    const float x0 = v4.x;
                    a0_2 = a0_2 + (x0 * s0);
                }
                {
                    const float x0 = v4.y;
                    a1_2 = a1_2 + (x0 * s0);
                }
                {
                    const float x0 = v4.z;
                    a2_2 = a2_2 + (x0 * s0);
                }
                {
                    const float x0 = v4.w;
                    a3_2 = a3_2 + (x0 * s0);
                }
            }
            if (j + 3u < hi) {
                const auto v4 = *(const float4*)(b0 + (ib + (j + 3u) * rs));
                {
                    const float x0 = v4.x;
                    a0_3 = a0_3 + (x0 * s0);
                }
                {
                    const float x0 = v4.y;
                    a1_3 = a1_3 + (x0 * s0);
                }
                {
                    const float x0 = v4.z;
                    a2_3 = a2_3 + (x0 * s0);
                }
                {
                    const float x0 = v4.w;
                    a3_3 = a3_3 + (x0 * s0);
                }
            }
            if (j + 4u < hi) {
                const auto v4 = *(const float4*)(b0 + (ib + (j + 4u) * rs));
                {
                    const float x0 = v4.x;
                    a0_4 = a0_4 + (x0 * s0);
                }
                {
                    const float x0 = v4.y;
                    a1_4 = a1_4 + (x0 * s0);
                }
                {
                    const float x0 = v4.z;
                    a2_4 = a2_4 + (x0 * s0);
                }
                {
                    const float x0 = v4.w;
                    a3_4 = a3_4 + (x0 * s0);
                }
            }
            if (j + 5u < hi) {
                const auto v4 = *(const float4*)(b0 + (ib + (j + 5u) * rs));
                {
                    const float x0 = v4.x;
                    a0_5 = a0_5 + (x0 * s0);
                }
                {
                    const float x0 = v4.y;
                    a1_5 = a1_5 + (x0 * s0);
                }
                {
                    const float x0 = v4.z;
                    a2_5 = a2_5 + (x0 * s0);
                }
                {
                    const float x0 = v4.w;
                    a3_5 = a3_5 + (x0 * s0);
                }
            }
            if (j + 6u < hi) {
                const auto v4 = *(const float4*)(b0 + (ib + (j + 6u) * rs));
                {
                    const float x0 = v4.x;
                    a0_6 = a0_6 + (x0 * s0);
                }
                {
                    const float x0 = v4.y;
                    a1_6 = a1_6 + (x0 * s0);
                }
                {
                    const float x0 = v4.z;
                    a2_6 = a2_6 + (x0 * s0);
                }
                {
                    const float x0 = v4.w;
                    a3_6 = a3_6 + (x0 * s0);
                }
            }
            if (j + 7u < hi) {
                const auto v4 = *(const float4*)(b0 + (ib + (j + 7u) * rs));
                {
                    const float x0 = v4.x;
                    a0_7 = a0_7 + (x0 * s0);
                }
                {
                    const float x0 = v4.y;
                    a1_7 = a1_7 + (x0 * s0);
                }
                {
                    const float x0 = v4.z;
                    a2_7 = a2_7 + (x0 * s0);
                }
                {
                    const float x0 = v4.w;
                    a3_7 = a3_7 + (x0 * s0);
                }
            }
        }
        {
            const float x0 = __uint_as_float(0x0u) + (((a0_0 + a0_1) + (a0_2 + a0_3)) + ((a0_4 + a0_5) + (a0_6 + a0_7)));
            st1(p.w[11u] + ((o + 0u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
        }
        {
            const float x0 = __uint_as_float(0x0u) + (((a1_0 + a1_1) + (a1_2 + a1_3)) + ((a1_4 + a1_5) + (a1_6 + a1_7)));
            st1(p.w[11u] + ((o + 1u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
        }
        {
            const float x0 = __uint_as_float(0x0u) + (((a2_0 + a2_1) + (a2_2 + a2_3)) + ((a2_4 + a2_5) + (a2_6 + a2_7)));
            st1(p.w[11u] + ((o + 2u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
        }
        {
            const float x0 = __uint_as_float(0x0u) + (((a3_0 + a3_1) + (a3_2 + a3_3)) + ((a3_4 + a3_5) + (a3_6 + a3_7)));
            st1(p.w[11u] + ((o + 3u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
        }
    }
}
