fn main {
    const u32* dims = p.w;
    const u32 m = dims[0];
    const u32 n = dims[1];
    const u32 tiles = dims[4] * dims[5];
    for (u32 g = group; g < dims[3] * tiles; g += groups) {
        const u32 b = g / tiles;
        const u32 row0 = ((g % tiles) / dims[5]) * 64u;
        const u32 col0 = ((g % tiles) % dims[5]) * 64u;
        const u32 k_begin = 0u;
        const u32 k_end = dims[2];
        const u32 o_b = p.w[14u] + b * p.w[15u] * 4u;
        const u32 o_sm = p.w[16u] * 4u;
        const u32 o_sn = p.w[17u] * 4u;
        const float alpha = __uint_as_float(p.w[18u]);
        for (u32 s = t; s < 64u; s += 64u) {
            const u32 i0 = row0 + (s / 8u) * 8u;
            const u32 j0 = col0 + (s % 8u) * 8u;
            if (i0 < m && j0 < n) {
                const u32 ra0 = p.w[6u] + (b * p.w[7u] + min(i0 + 0u, m - 1u) * p.w[8u]) * 4u;
                const u32 ra1 = p.w[6u] + (b * p.w[7u] + min(i0 + 1u, m - 1u) * p.w[8u]) * 4u;
                const u32 ra2 = p.w[6u] + (b * p.w[7u] + min(i0 + 2u, m - 1u) * p.w[8u]) * 4u;
                const u32 ra3 = p.w[6u] + (b * p.w[7u] + min(i0 + 3u, m - 1u) * p.w[8u]) * 4u;
                const u32 ra4 = p.w[6u] + (b * p.w[7u] + min(i0 + 4u, m - 1u) * p.w[8u]) * 4u;
                const u32 ra5 = p.w[6u] + (b * p.w[7u] + min(i0 + 5u, m - 1u) * p.w[8u]) * 4u;
                const u32 ra6 = p.w[6u] + (b * p.w[7u] + min(i0 + 6u, m - 1u) * p.w[8u]) * 4u;
                const u32 ra7 = p.w[6u] + (b * p.w[7u] + min(i0 + 7u, m - 1u) * p.w[8u]) * 4u;
                const u32 cb0 = p.w[10u] + (b * p.w[11u] + min(j0 + 0u, (n - 1u) & ~3u) * p.w[13u]) * 4u;
                const u32 cb4 = p.w[10u] + (b * p.w[11u] + min(j0 + 4u, (n - 1u) & ~3u) * p.w[13u]) * 4u;
                float c0_0 = __uint_as_float(0x0u);
                float c0_1 = __uint_as_float(0x0u);
                float c0_2 = __uint_as_float(0x0u);
                float c0_3 = __uint_as_float(0x0u);
                float c0_4 = __uint_as_float(0x0u);
                float c0_5 = __uint_as_float(0x0u);
                float c0_6 = __uint_as_float(0x0u);
                float c0_7 = __uint_as_float(0x0u);
                float c1_0 = __uint_as_float(0x0u);
                float c1_1 = __uint_as_float(0x0u);
                float c1_2 = __uint_as_float(0x0u);
                float c1_3 = __uint_as_float(0x0u);
                float c1_4 = __uint_as_float(0x0u);
                float c1_5 = __uint_as_float(0x0u);
                float c1_6 = __uint_as_float(0x0u);
                float c1_7 = __uint_as_float(0x0u);
                float c2_0 = __uint_as_float(0x0u);
                float c2_1 = __uint_as_float(0x0u);
                float c2_2 = __uint_as_float(0x0u);
                float c2_3 = __uint_as_float(0x0u);
                float c2_4 = __uint_as_float(0x0u);
                float c2_5 = __uint_as_float(0x0u);
                float c2_6 = __uint_as_float(0x0u);
                float c2_7 = __uint_as_float(0x0u);
                float c3_0 = __uint_as_float(0x0u);
                float c3_1 = __uint_as_float(0x0u);
                float c3_2 = __uint_as_float(0x0u);
                float c3_3 = __uint_as_float(0x0u);
                float c3_4 = __uint_as_float(0x0u);
                float c3_5 = __uint_as_float(0x0u);
                float c3_6 = __uint_as_float(0x0u);
                float c3_7 = __uint_as_float(0x0u);
                float c4_0 = __uint_as_float(0x0u);
                float c4_1 = __uint_as_float(0x0u);
                float c4_2 = __uint_as_float(0x0u);
                float c4_3 = __uint_as_float(0x0u);
                float c4_4 = __uint_as_float(0x0u);
                float c4_5 = __uint_as_float(0x0u);
                float c4_6 = __uint_as_float(0x0u);
                float c4_7 = __uint_as_float(0x0u);
                float c5_0 = __uint_as_float(0x0u);
                float c5_1 = __uint_as_float(0x0u);
                float c5_2 = __uint_as_float(0x0u);
                float c5_3 = __uint_as_float(0x0u);
                float c5_4 = __uint_as_float(0x0u);
                float c5_5 = __uint_as_float(0x0u);
                float c5_6 = __uint_as_float(0x0u);
                float c5_7 = __uint_as_float(0x0u);
                float c6_0 = __uint_as_float(0x0u);
                float c6_1 = __uint_as_float(0x0u);
                float c6_2 = __uint_as_float(0x0u);
                float c6_3 = __uint_as_float(0x0u);
                float c6_4 = __uint_as_float(0x0u);
                float c6_5 = __uint_as_float(0x0u);
                float c6_6 = __uint_as_float(0x0u);
                float c6_7 = __uint_as_float(0x0u);
                float c7_0 = __uint_as_float(0x0u);
                float c7_1 = __uint_as_float(0x0u);
                float c7_2 = __uint_as_float(0x0u);
                float c7_3 = __uint_as_float(0x0u);
                float c7_4 = __uint_as_float(0x0u);
                float c7_5 = __uint_as_float(0x0u);
                float c7_6 = __uint_as_float(0x0u);
                float c7_7 = __uint_as_float(0x0u);
                for (u32 kk = k_begin; kk < k_end; kk += 4u) {
                    const auto va0 = *(const float4*)(b0 + (ra0 + kk * 4u));
                    const float a0_0 = va0.x;
                    const float a0_1 = va0.y;
                    const float a0_2 = va0.z;
                    const float a0_3 = va0.w;
                    const auto va1 = *(const float4*)(b0 + (ra1 + kk * 4u));
                    const float a1_0 = va1.x;
                    const float a1_1 = va1.y;
                    const float a1_2 = va1.z;
                    const float a1_3 = va1.w;
                    const auto va2 = *(const float4*)(b0 + (ra2 + kk * 4u));
                    const float a2_0 = va2.x;
                    const float a2_1 = va2.y;
                    const float a2_2 = va2.z;
                    const float a2_3 = va2.w;
                    const auto va3 = *(const float4*)(b0 + (ra3 + kk * 4u));
                    const float a3_0 = va3.x;
                    const float a3_1 = va3.y;
                    const float a3_2 = va3.z;
                    const float a3_3 = va3.w;
                    const auto va4 = *(const float4*)(b0 + (ra4 + kk * 4u));
                    const float a4_0 = va4.x;
                    const float a4_1 = va4.y;
                    const float a4_2 = va4.z;
                    const float a4_3 = va4.w;
                    const auto va5 = *(const float4*)(b0 + (ra5 + kk * 4u));
                    const float a5_0 = va5.x;
                    const float a5_1 = va5.y;
                    const float a5_2 = va5.z;
                    const float a5_3 = va5.w;
                    const auto va6 = *(const float4*)(b0 + (ra6 + kk * 4u));
                    const float a6_0 = va6.x;
                    const float a6_1 = va6.y;
                    const float a6_2 = va6.z;
                    const float a6_3 = va6.w;
                    const auto va7 = *(const float4*)(b0 + (ra7 + kk * 4u));
                    const float a7_0 = va7.x;
                    const float a7_1 = va7.y;
                    const float a7_2 = va7.z;
                    const float a7_3 = va7.w;
                    const auto vb0_0 = *(const float4*)(b1 + (cb0 + (kk + 0u) * p.w[12u] * 4u));
                    const float b0_0 = vb0_0.x;
                    const float b0_1 = vb0_0.y;
                    const float b0_2 = vb0_0.z;
                    const float b0_3 = vb0_0.w;
                    const auto vb0_1 = *(const float4*)(b1 + (cb0 + (kk + 1u) * p.w[12u] * 4u));
                    const float b1_0 = vb0_1.x;
                    const float b1_1 = vb0_1.y;
                    const float b1_2 = vb0_1.z;
                    const float b1_3 = vb0_1.w;
                    const auto vb0_2 = *(const float4*)(b1 + (cb0 + (kk + 2u) * p.w[12u] * 4u));
                    const float b2_0 = vb0_2.x;
                    const float b2_1 = vb0_2.y;
                    const float b2_2 = vb0_2.z;
                    const float b2_3 = vb0_2.w;
                    const auto vb0_3 = *(const float4*)(b1 + (cb0 + (kk + 3u) * p.w[12u] * 4u));
                    const float b3_0 = vb0_3.x;
                    const float b3_1 = vb0_3.y;
                    const float b3_2 = vb0_3.z;
                    const float b3_3 = vb0_3.w;
                    const auto vb4_0 = *(const float4*)(b1 + (cb4 + (kk + 0u) * p.w[12u] * 4u));
                    const float b0_4 = vb4_0.x;
                    const float b0_5 = vb4_0.y;
                    const float b0_6 = vb4_0.z;
                    const float b0_7 = vb4_0.w;
                    const auto vb4_1 = *(const float4*)(b1 + (cb4 + (kk + 1u) * p.w[12u] * 4u));
                    const float b1_4 = vb4_1.x;
                    const float b1_5 = vb4_1.y;
                    const float b1_6 = vb4_1.z;
                    const float b1_7 = vb4_1.w;
                    const auto vb4_2 = *(const float4*)(b1 + (cb4 + (kk + 2u) * p.w[12u] * 4u));
                    const float b2_4 = vb4_2.x;
                    const float b2_5 = vb4_2.y;
                    const float b2_6 = vb4_2.z;
                    const float b2_7 = vb4_2.w;
                    const auto vb4_3 = *(const float4*)(b1 + (cb4 + (kk + 3u) * p.w[12u] * 4u));
                    const float b3_4 = vb4_3.x;
                    const float b3_5 = vb4_3.y;
                    const float b3_6 = vb4_3.z;
                    const float b3_7 = vb4_3.w;
                    c0_0 = c0_0 + a0_0 * b0_0;
                    c0_1 = c0_1 + a0_0 * b0_1;
                    c0_2 = c0_2 + a0_0 * b0_2;
                    c0_3 = c0_3 + a0_0 * b0_3;
                    c0_4 = c0_4 + a0_0 * b0_4;
                    c0_5 = c0_5 + a0_0 * b0_5;
                    c0_6 = c0_6 + a0_0 * b0_6;
                    c0_7 = c0_7 + a0_0 * b0_7;
                    c1_0 = c1_0 + a1_0 * b0_0;
                    c1_1 = c1_1 + a1_0 * b0_1;
                    c1_2 = c1_2 + a1_0 * b0_2;
                    c1_3 = c1_3 + a1_0 * b0_3;
                    c1_4 = c1_4 + a1_0 * b0_4;
                    c1_5 = c1_5 + a1_0 * b0_5;
                    c1_6 = c1_6 + a1_0 * b0_6;
                    c1_7 = c1_7 + a1_0 * b0_7;
                    c2_0 = c2_0 + a2_0 * b0_0;
                    c2_1 = c2_1 + a2_0 * b0_1;
                    c2_2 = c2_2 + a2_0 * b0_2;
                    c2_3 = c2_3 + a2_0 * b0_3;
                    c2_4 = c2_4 + a2_0 * b0_4;
                    c2_5 = c2_5 + a2_0 * b0_5;
                    c2_6 = c2_6 + a2_0 * b0_6;
                    c2_7 = c2_7 + a2_0 * b0_7;
                    c3_0 = c3_0 + a3_0 * b0_0;
                    c3_1 = c3_1 + a3_0 * b0_1;
                    c3_2 = c3_2 + a3_0 * b0_2;
                    c3_3 = c3_3 + a3_0 * b0_3;
                    c3_4 = c3_4 + a3_0 * b0_4;
                    c3_5 = c3_5 + a3_0 * b0_5;
                    c3_6 = c3_6 + a3_0 * b0_6;
                    c3_7 = c3_7 + a3_0 * b0_7;
                    c4_0 = c4_0 + a4_0 * b0_0;
                    c4_1 = c4_1 + a4_0 * b0_1;
                    c4_2 = c4_2 + a4_0 * b0_2;
                    c4_3 = c4_3 + a4_0 * b0_3;
                    c4_4 = c4_4 + a4_0 * b0_4;
                    c4_5 = c4_5 + a4_0 * b0_5;
                    c4_6 = c4_6 + a4_0 * b0_6;
                    c4_7 = c4_7 + a4_0 * b0_7;
                    c5_0 = c5_0 + a5_0 * b0_0;
                    c5_1 = c5_1 + a5_0 * b0_1;
                    c5_2 = c5_2 + a5_0 * b0_2;
                    c5_3 = c5_3 + a5_0 * b0_3;
                    c5_4 = c5_4 + a5_0 * b0_4;
                    c5_5 = c5_5 + a5_0 * b0_5;
                    c5_6 = c5_6 + a5_0 * b0_6;
                    c5_7 = c5_7 + a5_0 * b0_7;
                    c6_0 = c6_0 + a6_0 * b0_0;
                    c6_1 = c6_1 + a6_0 * b0_1;
                    c6_2 = c6_2 + a6_0 * b0_2;
                    c6_3 = c6_3 + a6_0 * b0_3;
                    c6_4 = c6_4 + a6_0 * b0_4;
                    c6_5 = c6_5 + a6_0 * b0_5;
                    c6_6 = c6_6 + a6_0 * b0_6;
                    c6_7 = c6_7 + a6_0 * b0_7;
                    c7_0 = c7_0 + a7_0 * b0_0;
                    c7_1 = c7_1 + a7_0 * b0_1;
                    c7_2 = c7_2 + a7_0 * b0_2;
                    c7_3 = c7_3 + a7_0 * b0_3;
                    c7_4 = c7_4 + a7_0 * b0_4;
                    c7_5 = c7_5 + a7_0 * b0_5;
                    c7_6 = c7_6 + a7_0 * b0_6;
                    c7_7 = c7_7 + a7_0 * b0_7;
                    c0_0 = c0_0 + a0_1 * b1_0;
                    c0_1 = c0_1 + a0_1 * b1_1;
                    c0_2 = c0_2 + a0_1 * b1_2;
                    c0_3 = c0_3 + a0_1 * b1_3;
                    c0_4 = c0_4 + a0_1 * b1_4;
                    c0_5 = c0_5 + a0_1 * b1_5;
                    c0_6 = c0_6 + a0_1 * b1_6;
                    c0_7 = c0_7 + a0_1 * b1_7;
                    c1_0 = c1_0 + a1_1 * b1_0;
                    c1_1 = c1_1 + a1_1 * b1_1;
                    c1_2 = c1_2 + a1_1 * b1_2;
                    c1_3 = c1_3 + a1_1 * b1_3;
                    c1_4 = c1_4 + a1_1 * b1_4;
                    c1_5 = c1_5 + a1_1 * b1_5;
                    c1_6 = c1_6 + a1_1 * b1_6;
                    c1_7 = c1_7 + a1_1 * b1_7;
                    c2_0 = c2_0 + a2_1 * b1_0;
                    c2_1 = c2_1 + a2_1 * b1_1;
                    c2_2 = c2_2 + a2_1 * b1_2;
                    c2_3 = c2_3 + a2_1 * b1_3;
                    c2_4 = c2_4 + a2_1 * b1_4;
                    c2_5 = c2_5 + a2_1 * b1_5;
                    c2_6 = c2_6 + a2_1 * b1_6;
                    c2_7 = c2_7 + a2_1 * b1_7;
                    c3_0 = c3_0 + a3_1 * b1_0;
                    c3_1 = c3_1 + a3_1 * b1_1;
                    c3_2 = c3_2 + a3_1 * b1_2;
                    c3_3 = c3_3 + a3_1 * b1_3;
                    c3_4 = c3_4 + a3_1 * b1_4;
                    c3_5 = c3_5 + a3_1 * b1_5;
                    c3_6 = c3_6 + a3_1 * b1_6;
                    c3_7 = c3_7 + a3_1 * b1_7;
                    c4_0 = c4_0 + a4_1 * b1_0;
                    c4_1 = c4_1 + a4_1 * b1_1;
                    c4_2 = c4_2 + a4_1 * b1_2;
                    c4_3 = c4_3 + a4_1 * b1_3;
                    c4_4 = c4_4 + a4_1 * b1_4;
                    c4_5 = c4_5 + a4_1 * b1_5;
                    c4_6 = c4_6 + a4_1 * b1_6;
                    c4_7 = c4_7 + a4_1 * b1_7;
                    c5_0 = c5_0 + a5_1 * b1_0;
                    c5_1 = c5_1 + a5_1 * b1_1;
                    c5_2 = c5_2 + a5_1 * b1_2;
                    c5_3 = c5_3 + a5_1 * b1_3;
                    c5_4 = c5_4 + a5_1 * b1_4;
                    c5_5 = c5_5 + a5_1 * b1_5;
                    c5_6 = c5_6 + a5_1 * b1_6;
                    c5_7 = c5_7 + a5_1 * b1_7;
                    c6_0 = c6_0 + a6_1 * b1_0;
                    c6_1 = c6_1 + a6_1 * b1_1;
                    c6_2 = c6_2 + a6_1 * b1_2;
                    c6_3 = c6_3 + a6_1 * b1_3;
                    c6_4 = c6_4 + a6_1 * b1_4;
                    c6_5 = c6_5 + a6_1 * b1_5;
                    c6_6 = c6_6 + a6_1 * b1_6;
                    c6_7 = c6_7 + a6_1 * b1_7;
                    c7_0 = c7_0 + a7_1 * b1_0;
                    c7_1 = c7_1 + a7_1 * b1_1;
                    c7_2 = c7_2 + a7_1 * b1_2;
                    c7_3 = c7_3 + a7_1 * b1_3;
                    c7_4 = c7_4 + a7_1 * b1_4;
                    c7_5 = c7_5 + a7_1 * b1_5;
                    c7_6 = c7_6 + a7_1 * b1_6;
                    c7_7 = c7_7 + a7_1 * b1_7;
                    c0_0 = c0_0 + a0_2 * b2_0;
                    c0_1 = c0_1 + a0_2 * b2_1;
                    c0_2 = c0_2 + a0_2 * b2_2;
                    c0_3 = c0_3 + a0_2 * b2_3;
                    c0_4 = c0_4 + a0_2 * b2_4;
                    c0_5 = c0_5 + a0_2 * b2_5;
                    c0_6 = c0_6 + a0_2 * b2_6;
                    c0_7 = c0_7 + a0_2 * b2_7;
                    c1_0 = c1_0 + a1_2 * b2_0;
                    c1_1 = c1_1 + a1_2 * b2_1;
                    c1_2 = c1_2 + a1_2 * b2_2;
                    c1_3 = c1_3 + a1_2 * b2_3;
                    c1_4 = c1_4 + a1_2 * b2_4;
                    c1_5 = c1_5 + a1_2 * b2_5;
                    c1_6 = c1_6 + a1_2 * b2_6;
                    c1_7 = c1_7 + a1_2 * b2_7;
                    c2_0 = c2_0 + a2_2 * b2_0;
                    c2_1 = c2_1 + a2_2 * b2_1;
                    c2_2 = c2_2 + a2_2 * b2_2;
                    c2_3 = c2_3 + a2_2 * b2_3;
                    c2_4 = c2_4 + a2_2 * b2_4;
                    c2_5 = c2_5 + a2_2 * b2_5;
                    c2_6 = c2_6 + a2_2 * b2_6;
                    c2_7 = c2_7 + a2_2 * b2_7;
                    c3_0 = c3_0 + a3_2 * b2_0;
                    c3_1 = c3_1 + a3_2 * b2_1;
                    c3_2 = c3_2 + a3_2 * b2_2;
                    c3_3 = c3_3 + a3_2 * b2_3;
                    c3_4 = c3_4 + a3_2 * b2_4;
                    c3_5 = c3_5 + a3_2 * b2_5;
                    c3_6 = c3_6 + a3_2 * b2_6;
                    c3_7 = c3_7 + a3_2 * b2_7;
                    c4_0 = c4_0 + a4_2 * b2_0;
                    c4_1 = c4_1 + a4_2 * b2_1;
                    c4_2 = c4_2 + a4_2 * b2_2;
                    c4_3 = c4_3 + a4_2 * b2_3;
                    c4_4 = c4_4 + a4_2 * b2_4;
                    c4_5 = c4_5 + a4_2 * b2_5;
                    c4_6 = c4_6 + a4_2 * b2_6;
                    c4_7 = c4_7 + a4_2 * b2_7;
                    c5_0 = c5_0 + a5_2 * b2_0;
                    c5_1 = c5_1 + a5_2 * b2_1;
                    c5_2 = c5_2 + a5_2 * b2_2;
                    c5_3 = c5_3 + a5_2 * b2_3;
                    c5_4 = c5_4 + a5_2 * b2_4;
                    c5_5 = c5_5 + a5_2 * b2_5;
                    c5_6 = c5_6 + a5_2 * b2_6;
                    c5_7 = c5_7 + a5_2 * b2_7;
                    c6_0 = c6_0 + a6_2 * b2_0;
                    c6_1 = c6_1 + a6_2 * b2_1;
                    c6_2 = c6_2 + a6_2 * b2_2;
                    c6_3 = c6_3 + a6_2 * b2_3;
                    c6_4 = c6_4 + a6_2 * b2_4;
                    c6_5 = c6_5 + a6_2 * b2_5;
                    c6_6 = c6_6 + a6_2 * b2_6;
                    c6_7 = c6_7 + a6_2 * b2_7;
                    c7_0 = c7_0 + a7_2 * b2_0;
                    c7_1 = c7_1 + a7_2 * b2_1;
                    c7_2 = c7_2 + a7_2 * b2_2;
                    c7_3 = c7_3 + a7_2 * b2_3;
                    c7_4 = c7_4 + a7_2 * b2_4;
                    c7_5 = c7_5 + a7_2 * b2_5;
                    c7_6 = c7_6 + a7_2 * b2_6;
                    c7_7 = c7_7 + a7_2 * b2_7;
                    c0_0 = c0_0 + a0_3 * b3_0;
                    c0_1 = c0_1 + a0_3 * b3_1;
                    c0_2 = c0_2 + a0_3 * b3_2;
                    c0_3 = c0_3 + a0_3 * b3_3;
                    c0_4 = c0_4 + a0_3 * b3_4;
                    c0_5 = c0_5 + a0_3 * b3_5;
                    c0_6 = c0_6 + a0_3 * b3_6;
                    c0_7 = c0_7 + a0_3 * b3_7;
                    c1_0 = c1_0 + a1_3 * b3_0;
                    c1_1 = c1_1 + a1_3 * b3_1;
                    c1_2 = c1_2 + a1_3 * b3_2;
                    c1_3 = c1_3 + a1_3 * b3_3;
                    c1_4 = c1_4 + a1_3 * b3_4;
                    c1_5 = c1_5 + a1_3 * b3_5;
                    c1_6 = c1_6 + a1_3 * b3_6;
                    c1_7 = c1_7 + a1_3 * b3_7;
                    c2_0 = c2_0 + a2_3 * b3_0;
                    c2_1 = c2_1 + a2_3 * b3_1;
                    c2_2 = c2_2 + a2_3 * b3_2;
                    c2_3 = c2_3 + a2_3 * b3_3;
                    c2_4 = c2_4 + a2_3 * b3_4;
                    c2_5 = c2_5 + a2_3 * b3_5;
                    c2_6 = c2_6 + a2_3 * b3_6;
                    c2_7 = c2_7 + a2_3 * b3_7;
                    c3_0 = c3_0 + a3_3 * b3_0;
                    c3_1 = c3_1 + a3_3 * b3_1;
                    c3_2 = c3_2 + a3_3 * b3_2;
                    c3_3 = c3_3 + a3_3 * b3_3;
                    c3_4 = c3_4 + a3_3 * b3_4;
                    c3_5 = c3_5 + a3_3 * b3_5;
                    c3_6 = c3_6 + a3_3 * b3_6;
                    c3_7 = c3_7 + a3_3 * b3_7;
                    c4_0 = c4_0 + a4_3 * b3_0;
                    c4_1 = c4_1 + a4_3 * b3_1;
                    c4_2 = c4_2 + a4_3 * b3_2;
                    c4_3 = c4_3 + a4_3 * b3_3;
                    c4_4 = c4_4 + a4_3 * b3_4;
                    c4_5 = c4_5 + a4_3 * b3_5;
                    c4_6 = c4_6 + a4_3 * b3_6;
                    c4_7 = c4_7 + a4_3 * b3_7;
                    c5_0 = c5_0 + a5_3 * b3_0;
                    c5_1 = c5_1 + a5_3 * b3_1;
                    c5_2 = c5_2 + a5_3 * b3_2;
                    c5_3 = c5_3 + a5_3 * b3_3;
                    c5_4 = c5_4 + a5_3 * b3_4;
                    c5_5 = c5_5 + a5_3 * b3_5;
                    c5_6 = c5_6 + a5_3 * b3_6;
                    c5_7 = c5_7 + a5_3 * b3_7;
                    c6_0 = c6_0 + a6_3 * b3_0;
                    c6_1 = c6_1 + a6_3 * b3_1;
                    c6_2 = c6_2 + a6_3 * b3_2;
                    c6_3 = c6_3 + a6_3 * b3_3;
                    c6_4 = c6_4 + a6_3 * b3_4;
                    c6_5 = c6_5 + a6_3 * b3_5;
                    c6_6 = c6_6 + a6_3 * b3_6;
                    c6_7 = c6_7 + a6_3 * b3_7;
                    c7_0 = c7_0 + a7_3 * b3_0;
                    c7_1 = c7_1 + a7_3 * b3_1;
                    c7_2 = c7_2 + a7_3 * b3_2;
                    c7_3 = c7_3 + a7_3 * b3_3;
                    c7_4 = c7_4 + a7_3 * b3_4;
                    c7_5 = c7_5 + a7_3 * b3_5;
                    c7_6 = c7_6 + a7_3 * b3_6;
                    c7_7 = c7_7 + a7_3 * b3_7;
                }
                const u32 out_row0 = i0 + 0u;
                if (out_row0 < m && j0 + 0u < n) {
                    float v = alpha * c0_0;
                    st2(o_b + out_row0 * o_sm + (j0 + 0u) * o_sn, v);
                }
                if (out_row0 < m && j0 + 1u < n) {
                    float v = alpha * c0_1;
                    st2(o_b + out_row0 * o_sm + (j0 + 1u) * o_sn, v);
                }
                if (out_row0 < m && j0 + 2u < n) {
                    float v = alpha * c0_2;
                    st2(o_b + out_row0 * o_sm + (j0 + 2u) * o_sn, v);
                }
                if (out_row0 < m && j0 + 3u < n) {
                    float v = alpha * c0_3;
                    st2(o_b + out_row0 * o_sm + (j0 + 3u) * o_sn, v);
                }
                if (out_row0 < m && j0 + 4u < n) {
                    float v = alpha * c0_4;
                    st2(o_b + out_row0 * o_sm + (j0 + 4u) * o_sn, v);
                }
                if (out_row0 < m && j0 + 5u < n) {
                    float v = alpha * c0_5;
                    st2(o_b + out_row0 * o_sm + (j0 + 5u) * o_sn, v);
                }
                if (out_row0 < m && j0 + 6u < n) {
                    float v = alpha * c0_6;
                    st2(o_b + out_row0 * o_sm + (j0 + 6u) * o_sn, v);
                }
                if (out_row0 < m && j0 + 7u < n) {
                    float v = alpha * c0_7;
                    st2(o_b + out_row0 * o_sm + (j0 + 7u) * o_sn, v);
                }
                const u32 out_row1 = i0 + 1u;
                if (out_row1 < m && j0 + 0u < n) {
                    float v = alpha * c1_0;
                    st2(o_b + out_row1 * o_sm + (j0 + 0u) * o_sn, v);
                }
                if (out_row1 < m && j0 + 1u < n) {
                    float v = alpha * c1_1;
                    st2(o_b + out_row1 * o_sm + (j0 + 1u) * o_sn, v);
                }
                if (out_row1 < m && j0 + 2u < n) {
                    float v = alpha * c1_2;
                    st2(o_b + out_row1 * o_sm + (j0 + 2u) * o_sn, v);
                }
                if (out_row1 < m && j0 + 3u < n) {
                    float v = alpha * c1_3;
                    st2(o_b + out_row1 * o_sm + (j0 + 3u) * o_sn, v);
                }
                if (out_row1 < m && j0 + 4u < n) {
                    float v = alpha * c1_4;
                    st2(o_b + out_row1 * o_sm + (j0 + 4u) * o_sn, v);
                }
                if (out_row1 < m && j0 + 5u < n) {
                    float v = alpha * c1_5;
                    st2(o_b + out_row1 * o_sm + (j0 + 5u) * o_sn, v);
                }
                if (out_row1 < m && j0 + 6u < n) {
                    float v = alpha * c1_6;
                    st2(o_b + out_row1 * o_sm + (j0 + 6u) * o_sn, v);
                }
                if (out_row1 < m && j0 + 7u < n) {
                    float v = alpha * c1_7;
                    st2(o_b + out_row1 * o_sm + (j0 + 7u) * o_sn, v);
                }
                const u32 out_row2 = i0 + 2u;
                if (out_row2 < m && j0 + 0u < n) {
                    float v = alpha * c2_0;
                    st2(o_b + out_row2 * o_sm + (j0 + 0u) * o_sn, v);
                }
                if (out_row2 < m && j0 + 1u < n) {
                    float v = alpha * c2_1;
                    st2(o_b + out_row2 * o_sm + (j0 + 1u) * o_sn, v);
                }
                if (out_row2 < m && j0 + 2u < n) {
                    float v = alpha * c2_2;
                    st2(o_b + out_row2 * o_sm + (j0 + 2u) * o_sn, v);
                }
                if (out_row2 < m && j0 + 3u < n) {
                    float v = alpha * c2_3;
                    st2(o_b + out_row2 * o_sm + (j0 + 3u) * o_sn, v);
                }
                if (out_row2 < m && j0 + 4u < n) {
                    float v = alpha * c2_4;
                    st2(o_b + out_row2 * o_sm + (j0 + 4u) * o_sn, v);
                }
                if (out_row2 < m && j0 + 5u < n) {
                    float v = alpha * c2_5;
                    st2(o_b + out_row2 * o_sm + (j0 + 5u) * o_sn, v);
                }
                if (out_row2 < m && j0 + 6u < n) {
                    float v = alpha * c2_6;
                    st2(o_b + out_row2 * o_sm + (j0 + 6u) * o_sn, v);
                }
                if (out_row2 < m && j0 + 7u < n) {
                    float v = alpha * c2_7;
                    st2(o_b + out_row2 * o_sm + (j0 + 7u) * o_sn, v);
                }
                const u32 out_row3 = i0 + 3u;
                if (out_row3 < m && j0 + 0u < n) {
                    float v = alpha * c3_0;
                    st2(o_b + out_row3 * o_sm + (j0 + 0u) * o_sn, v);
                }
                if (out_row3 < m && j0 + 1u < n) {
                    float v = alpha * c3_1;
                    st2(o_b + out_row3 * o_sm + (j0 + 1u) * o_sn, v);
                }
                if (out_row3 < m && j0 + 2u < n) {
                    float v = alpha * c3_2;
                    st2(o_b + out_row3 * o_sm + (j0 + 2u) * o_sn, v);
                }
                if (out_row3 < m && j0 + 3u < n) {
                    float v = alpha * c3_3;
                    st2(o_b + out_row3 * o_sm + (j0 + 3u) * o_sn, v);
                }
                if (out_row3 < m && j0 + 4u < n) {
                    float v = alpha * c3_4;
                    st2(o_b + out_row3 * o_sm + (j0 + 4u) * o_sn, v);
                }
                if (out_row3 < m && j0 + 5u < n) {
                    float v = alpha * c3_5;
                    st2(o_b + out_row3 * o_sm + (j0 + 5u) * o_sn, v);
                }
                if (out_row3 < m && j0 + 6u < n) {
                    float v = alpha * c3_6;
                    st2(o_b + out_row3 * o_sm + (j0 + 6u) * o_sn, v);
                }
                if (out_row3 < m && j0 + 7u < n) {
                    float v = alpha * c3_7;
                    st2(o_b + out_row3 * o_sm + (j0 + 7u) * o_sn, v);
                }
                const u32 out_row4 = i0 + 4u;
                if (out_row4 < m && j0 + 0u < n) {
                    float v = alpha * c4_0;
                    st2(o_b + out_row4 * o_sm + (j0 + 0u) * o_sn, v);
                }
                if (out_row4 < m && j0 + 1u < n) {
                    float v = alpha * c4_1;
                    st2(o_b + out_row4 * o_sm + (j0 + 1u) * o_sn, v);
                }
                if (out_row4 < m && j0 + 2u < n) {
                    float v = alpha * c4_2;
                    st2(o_b + out_row4 * o_sm + (j0 + 2u) * o_sn, v);
                }
                if (out_row4 < m && j0 + 3u < n) {
                    float v = alpha * c4_3;
                    st2(o_b + out_row4 * o_sm + (j0 + 3u) * o_sn, v);
                }
                if (out_row4 < m && j0 + 4u < n) {
                    float v = alpha * c4_4;
                    st2(o_b + out_row4 * o_sm + (j0 + 4u) * o_sn, v);
                }
                if (out_row4 < m && j0 + 5u < n) {
                    float v = alpha * c4_5;
                    st2(o_b + out_row4 * o_sm + (j0 + 5u) * o_sn, v);
                }
                if (out_row4 < m && j0 + 6u < n) {
                    float v = alpha * c4_6;
                    st2(o_b + out_row4 * o_sm + (j0 + 6u) * o_sn, v);
                }
                if (out_row4 < m && j0 + 7u < n) {
                    float v = alpha * c4_7;
                    st2(o_b + out_row4 * o_sm + (j0 + 7u) * o_sn, v);
                }
                const u32 out_row5 = i0 + 5u;
                if (out_row5 < m && j0 + 0u < n) {
                    float v = alpha * c5_0;
                    st2(o_b + out_row5 * o_sm + (j0 + 0u) * o_sn, v);
                }
                if (out_row5 < m && j0 + 1u < n) {
                    float v = alpha * c5_1;
                    st2(o_b + out_row5 * o_sm + (j0 + 1u) * o_sn, v);
                }
                if (out_row5 < m && j0 + 2u < n) {
                    float v = alpha * c5_2;
                    st2(o_b + out_row5 * o_sm + (j0 + 2u) * o_sn, v);
                }
                if (out_row5 < m && j0 + 3u < n) {
                    float v = alpha * c5_3;
                    st2(o_b + out_row5 * o_sm + (j0 + 3u) * o_sn, v);
                }
                if (out_row5 < m && j0 + 4u < n) {
                    float v = alpha * c5_4;
                    st2(o_b + out_row5 * o_sm + (j0 + 4u) * o_sn, v);
                }
                if (out_row5 < m && j0 + 5u < n) {
                    float v = alpha * c5_5;
                    st2(o_b + out_row5 * o_sm + (j0 + 5u) * o_sn, v);
                }
                if (out_row5 < m && j0 + 6u < n) {
                    float v = alpha * c5_6;
                    st2(o_b + out_row5 * o_sm + (j0 + 6u) * o_sn, v);
                }
                if (out_row5 < m && j0 + 7u < n) {
                    float v = alpha * c5_7;
                    st2(o_b + out_row5 * o_sm + (j0 + 7u) * o_sn, v);
                }
                const u32 out_row6 = i0 + 6u;
                if (out_row6 < m && j0 + 0u < n) {
                    float v = alpha * c6_0;
                    st2(o_b + out_row6 * o_sm + (j0 + 0u) * o_sn, v);
                }
                if (out_row6 < m && j0 + 1u < n) {
                    float v = alpha * c6_1;
                    st2(o_b + out_row6 * o_sm + (j0 + 1u) * o_sn, v);
                }
                if (out_row6 < m && j0 + 2u < n) {
                    float v = alpha * c6_2;
                    st2(o_b + out_row6 * o_sm + (j0 + 2u) * o_sn, v);
                }
                if (out_row6 < m && j0 + 3u < n) {
                    float v = alpha * c6_3;
                    st2(o_b + out_row6 * o_sm + (j0 + 3u) * o_sn, v);
                }
                if (out_row6 < m && j0 + 4u < n) {
                    float v = alpha * c6_4;
                    st2(o_b + out_row6 * o_sm + (j0 + 4u) * o_sn, v);
                }
                if (out_row6 < m && j0 + 5u < n) {
                    float v = alpha * c6_5;
                    st2(o_b + out_row6 * o_sm + (j0 + 5u) * o_sn, v);
                }
                if (out_row6 < m && j0 + 6u < n) {
                    float v = alpha * c6_6;
                    st2(o_b + out_row6 * o_sm + (j0 + 6u) * o_sn, v);
                }
                if (out_row6 < m && j0 + 7u < n) {
                    float v = alpha * c6_7;
                    st2(o_b + out_row6 * o_sm + (j0 + 7u) * o_sn, v);
                }
                const u32 out_row7 = i0 + 7u;
                if (out_row7 < m && j0 + 0u < n) {
                    float v = alpha * c7_0;
                    st2(o_b + out_row7 * o_sm + (j0 + 0u) * o_sn, v);
                }
                if (out_row7 < m && j0 + 1u < n) {
                    float v = alpha * c7_1;
                    st2(o_b + out_row7 * o_sm + (j0 + 1u) * o_sn, v);
                }
                if (out_row7 < m && j0 + 2u < n) {
                    float v = alpha * c7_2;
                    st2(o_b + out_row7 * o_sm + (j0 + 2u) * o_sn, v);
                }
                if (out_row7 < m && j0 + 3u < n) {
                    float v = alpha * c7_3;
                    st2(o_b + out_row7 * o_sm + (j0 + 3u) * o_sn, v);
                }
                if (out_row7 < m && j0 + 4u < n) {
                    float v = alpha * c7_4;
                    st2(o_b + out_row7 * o_sm + (j0 + 4u) * o_sn, v);
                }
                if (out_row7 < m && j0 + 5u < n) {
                    float v = alpha * c7_5;
                    st2(o_b + out_row7 * o_sm + (j0 + 5u) * o_sn, v);
                }
                if (out_row7 < m && j0 + 6u < n) {
                    float v = alpha * c7_6;
                    st2(o_b + out_row7 * o_sm + (j0 + 6u) * o_sn, v);
                }
                if (out_row7 < m && j0 + 7u < n) {
                    float v = alpha * c7_7;
                    st2(o_b + out_row7 * o_sm + (j0 + 7u) * o_sn, v);
                }
            }
        }
    }
}
