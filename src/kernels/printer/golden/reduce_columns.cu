fn main {
    const u32 n_out = p.w[0u];
    const u32 n_red = p.w[1u];
    const u32 chunk = p.w[4u];
    const u32 n_chunks = p.w[5u];
    const float s0 = __uint_as_float(p.w[14u + 0u]);
    const u32 spans = (n_out + 31u) / 32u;
    for (u32 w = group * 64u + t; w < spans * n_chunks; w += groups * 64u) {
        const u32 o = (w % spans) * 32u;
        const u32 c = w / spans;
        const u32 lo = c * chunk;
        const u32 hi = min(n_red, lo + chunk);
        const u32 ib = p.w[8u] + o * 4u;
        const u32 rs = p.w[10u] * 4u;
        const u32 fours = min(8u, (n_out - o) / 4u);
        float a0_0 = __uint_as_float(0x0u);
        float a0_1 = __uint_as_float(0x0u);
        float a0_2 = __uint_as_float(0x0u);
        float a0_3 = __uint_as_float(0x0u);
        float a1_0 = __uint_as_float(0x0u);
        float a1_1 = __uint_as_float(0x0u);
        float a1_2 = __uint_as_float(0x0u);
        float a1_3 = __uint_as_float(0x0u);
        float a2_0 = __uint_as_float(0x0u);
        float a2_1 = __uint_as_float(0x0u);
        float a2_2 = __uint_as_float(0x0u);
        float a2_3 = __uint_as_float(0x0u);
        float a3_0 = __uint_as_float(0x0u);
        float a3_1 = __uint_as_float(0x0u);
        float a3_2 = __uint_as_float(0x0u);
        float a3_3 = __uint_as_float(0x0u);
        float a4_0 = __uint_as_float(0x0u);
        float a4_1 = __uint_as_float(0x0u);
        float a4_2 = __uint_as_float(0x0u);
        float a4_3 = __uint_as_float(0x0u);
        float a5_0 = __uint_as_float(0x0u);
        float a5_1 = __uint_as_float(0x0u);
        float a5_2 = __uint_as_float(0x0u);
        float a5_3 = __uint_as_float(0x0u);
        float a6_0 = __uint_as_float(0x0u);
        float a6_1 = __uint_as_float(0x0u);
        float a6_2 = __uint_as_float(0x0u);
        float a6_3 = __uint_as_float(0x0u);
        float a7_0 = __uint_as_float(0x0u);
        float a7_1 = __uint_as_float(0x0u);
        float a7_2 = __uint_as_float(0x0u);
        float a7_3 = __uint_as_float(0x0u);
        for (u32 j = lo; j < hi; j += 1u) {
            const auto v4_0 = *(const float4*)(b0 + (ib + j * rs + 16u * min(0u, fours - 1u)));
            {
                const float x0 = v4_0.x;
                a0_0 = a0_0 + (x0 * s0);
            }
            {
                const float x0 = v4_0.y;
                a0_1 = a0_1 + (x0 * s0);
            }
            {
                const float x0 = v4_0.z;
                a0_2 = a0_2 + (x0 * s0);
            }
            {
                const float x0 = v4_0.w;
                a0_3 = a0_3 + (x0 * s0);
            }
            const auto v4_1 = *(const float4*)(b0 + (ib + j * rs + 16u * min(1u, fours - 1u)));
            {
                const float x0 = v4_1.x;
                a1_0 = a1_0 + (x0 * s0);
            }
            {
                const float x0 = v4_1.y;
                a1_1 = a1_1 + (x0 * s0);
            }
            {
                const float x0 = v4_1.z;
                a1_2 = a1_2 + (x0 * s0);
            }
            {
                const float x0 = v4_1.w;
                a1_3 = a1_3 + (x0 * s0);
            }
            const auto v4_2 = *(const float4*)(b0 + (ib + j * rs + 16u * min(2u, fours - 1u)));
            {
                const float x0 = v4_2.x;
                a2_0 = a2_0 + (x0 * s0);
            }
            {
                const float x0 = v4_2.y;
                a2_1 = a2_1 + (x0 * s0);
            }
            {
                const float x0 = v4_2.z;
                a2_2 = a2_2 + (x0 * s0);
            }
            {
                const float x0 = v4_2.w;
                a2_3 = a2_3 + (x0 * s0);
            }
            const auto v4_3 = *(const float4*)(b0 + (ib + j * rs + 16u * min(3u, fours - 1u)));
            {
                const float x0 = v4_3.x;
                a3_0 = a3_0 + (x0 * s0);
            }
            {
                const float x0 = v4_3.y;
                a3_1 = a3_1 + (x0 * s0);
            }
            {
                const float x0 = v4_3.z;
                a3_2 = a3_2 + (x0 * s0);
            }
            {
                const float x0 = v4_3.w;
                a3_3 = a3_3 + (x0 * s0);
            }
            const auto v4_4 = *(const float4*)(b0 + (ib + j * rs + 16u * min(4u, fours - 1u)));
            {
                const float x0 = v4_4.x;
                a4_0 = a4_0 + (x0 * s0);
            }
            {
                const float x0 = v4_4.y;
                a4_1 = a4_1 + (x0 * s0);
            }
            {
                const float x0 = v4_4.z;
                a4_2 = a4_2 + (x0 * s0);
            }
            {
                const float x0 = v4_4.w;
                a4_3 = a4_3 + (x0 * s0);
            }
            const auto v4_5 = *(const float4*)(b0 + (ib + j * rs + 16u * min(5u, fours - 1u)));
            {
                const float x0 = v4_5.x;
                a5_0 = a5_0 + (x0 * s0);
            }
            {
                const float x0 = v4_5.y;
                a5_1 = a5_1 + (x0 * s0);
            }
            {
                const float x0 = v4_5.z;
                a5_2 = a5_2 + (x0 * s0);
            }
            {
                const float x0 = v4_5.w;
                a5_3 = a5_3 + (x0 * s0);
            }
            const auto v4_6 = *(const float4*)(b0 + (ib + j * rs + 16u * min(6u, fours - 1u)));
            {
                const float x0 = v4_6.x;
                a6_0 = a6_0 + (x0 * s0);
            }
            {
                const float x0 = v4_6.y;
                a6_1 = a6_1 + (x0 * s0);
            }
            {
                const float x0 = v4_6.z;
                a6_2 = a6_2 + (x0 * s0);
            }
            {
                const float x0 = v4_6.w;
                a6_3 = a6_3 + (x0 * s0);
            }
            const auto v4_7 = *(const float4*)(b0 + (ib + j * rs + 16u * min(7u, fours - 1u)));
            {
                const float x0 = v4_7.x;
                a7_0 = a7_0 + (x0 * s0);
            }
            {
                const float x0 = v4_7.y;
                a7_1 = a7_1 + (x0 * s0);
            }
            {
                const float x0 = v4_7.z;
                a7_2 = a7_2 + (x0 * s0);
            }
            {
                const float x0 = v4_7.w;
                a7_3 = a7_3 + (x0 * s0);
            }
        }
        if (0u < fours) {
            {
                const float x0 = __uint_as_float(0x0u) + a0_0;
                st1(p.w[11u] + ((o + 0u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a0_1;
                st1(p.w[11u] + ((o + 1u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a0_2;
                st1(p.w[11u] + ((o + 2u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a0_3;
                st1(p.w[11u] + ((o + 3u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
        }
        if (1u < fours) {
            {
                const float x0 = __uint_as_float(0x0u) + a1_0;
                st1(p.w[11u] + ((o + 4u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a1_1;
                st1(p.w[11u] + ((o + 5u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a1_2;
                st1(p.w[11u] + ((o + 6u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a1_3;
                st1(p.w[11u] + ((o + 7u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
        }
        if (2u < fours) {
            {
                const float x0 = __uint_as_float(0x0u) + a2_0;
                st1(p.w[11u] + ((o + 8u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a2_1;
                st1(p.w[11u] + ((o + 9u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a2_2;
                st1(p.w[11u] + ((o + 10u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a2_3;
                st1(p.w[11u] + ((o + 11u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
        }
        if (3u < fours) {
            {
                const float x0 = __uint_as_float(0x0u) + a3_0;
                st1(p.w[11u] + ((o + 12u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a3_1;
                st1(p.w[11u] + ((o + 13u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a3_2;
                st1(p.w[11u] + ((o + 14u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a3_3;
                st1(p.w[11u] + ((o + 15u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
        }
        if (4u < fours) {
            {
                const float x0 = __uint_as_float(0x0u) + a4_0;
                st1(p.w[11u] + ((o + 16u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a4_1;
                st1(p.w[11u] + ((o + 17u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a4_2;
                st1(p.w[11u] + ((o + 18u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a4_3;
                st1(p.w[11u] + ((o + 19u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
        }
        if (5u < fours) {
            {
                const float x0 = __uint_as_float(0x0u) + a5_0;
                st1(p.w[11u] + ((o + 20u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a5_1;
                st1(p.w[11u] + ((o + 21u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a5_2;
                st1(p.w[11u] + ((o + 22u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a5_3;
                st1(p.w[11u] + ((o + 23u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
        }
        if (6u < fours) {
            {
                const float x0 = __uint_as_float(0x0u) + a6_0;
                st1(p.w[11u] + ((o + 24u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a6_1;
                st1(p.w[11u] + ((o + 25u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a6_2;
                st1(p.w[11u] + ((o + 26u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a6_3;
                st1(p.w[11u] + ((o + 27u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
        }
        if (7u < fours) {
            {
                const float x0 = __uint_as_float(0x0u) + a7_0;
                st1(p.w[11u] + ((o + 28u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a7_1;
                st1(p.w[11u] + ((o + 29u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a7_2;
                st1(p.w[11u] + ((o + 30u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
            {
                const float x0 = __uint_as_float(0x0u) + a7_3;
                st1(p.w[11u] + ((o + 31u) * p.w[12u] + c * p.w[13u]) * 4u, x0);
            }
        }
    }
}
