fn main {
    const u32* dims = p.w;
    const u32 m = dims[0];
    const u32 n = dims[1];
    const u32 tiles = dims[4] * dims[5];
    for (u32 g = group; g < dims[3] * tiles; g += groups) {
        const u32 b = g / tiles;
        const u32 row0 = ((g % tiles) / dims[5]) * 32u;
        const u32 col0 = ((g % tiles) % dims[5]) * 32u;
        const u32 k_begin = 0u;
        const u32 k_end = dims[2];
        const u32 o_b = p.w[18u] + b * p.w[19u] * 4u;
        const u32 o_sm = p.w[20u] * 4u;
        const u32 o_sn = p.w[21u] * 4u;
        const float alpha = __uint_as_float(p.w[22u]);
        const u32 c_b = p.w[14u] + b * p.w[15u] * 4u;
        const u32 c_sm = p.w[16u] * 4u;
        const u32 c_sn = p.w[17u] * 4u;
        const float beta = __uint_as_float(p.w[23u]);
        const u32 j0 = col0 + t * 4u;
        const u32 ra0 = p.w[6u] + (b * p.w[7u] + min(row0 + 4u * (t / 4u + 0u), (m - 1u) & ~3u) * p.w[8u]) * 4u + (t % 4u) * p.w[9u] * 4u;
        const u32 ra1 = p.w[6u] + (b * p.w[7u] + min(row0 + 4u * (t / 4u + 2u), (m - 1u) & ~3u) * p.w[8u]) * 4u + (t % 4u) * p.w[9u] * 4u;
        const u32 ra2 = p.w[6u] + (b * p.w[7u] + min(row0 + 4u * (t / 4u + 4u), (m - 1u) & ~3u) * p.w[8u]) * 4u + (t % 4u) * p.w[9u] * 4u;
        const u32 ra3 = p.w[6u] + (b * p.w[7u] + min(row0 + 4u * (t / 4u + 6u), (m - 1u) & ~3u) * p.w[8u]) * 4u + (t % 4u) * p.w[9u] * 4u;
        const u32 cb0 = p.w[10u] + (b * p.w[11u] + min(j0 + 0u, n - 1u) * p.w[13u]) * 4u;
        const u32 cb1 = p.w[10u] + (b * p.w[11u] + min(j0 + 1u, n - 1u) * p.w[13u]) * 4u;
        const u32 cb2 = p.w[10u] + (b * p.w[11u] + min(j0 + 2u, n - 1u) * p.w[13u]) * 4u;
        const u32 cb3 = p.w[10u] + (b * p.w[11u] + min(j0 + 3u, n - 1u) * p.w[13u]) * 4u;
        float c0_0 = __uint_as_float(0x0u);
        float c0_1 = __uint_as_float(0x0u);
        float c0_2 = __uint_as_float(0x0u);
        float c0_3 = __uint_as_float(0x0u);
        float c1_0 = __uint_as_float(0x0u);
        float c1_1 = __uint_as_float(0x0u);
        float c1_2 = __uint_as_float(0x0u);
        float c1_3 = __uint_as_float(0x0u);
        float c2_0 = __uint_as_float(0x0u);
        float c2_1 = __uint_as_float(0x0u);
        float c2_2 = __uint_as_float(0x0u);
        float c2_3 = __uint_as_float(0x0u);
        float c3_0 = __uint_as_float(0x0u);
        float c3_1 = __uint_as_float(0x0u);
        float c3_2 = __uint_as_float(0x0u);
        float c3_3 = __uint_as_float(0x0u);
        float c4_0 = __uint_as_float(0x0u);
        float c4_1 = __uint_as_float(0x0u);
        float c4_2 = __uint_as_float(0x0u);
        float c4_3 = __uint_as_float(0x0u);
        float c5_0 = __uint_as_float(0x0u);
        float c5_1 = __uint_as_float(0x0u);
        float c5_2 = __uint_as_float(0x0u);
        float c5_3 = __uint_as_float(0x0u);
        float c6_0 = __uint_as_float(0x0u);
        float c6_1 = __uint_as_float(0x0u);
        float c6_2 = __uint_as_float(0x0u);
        float c6_3 = __uint_as_float(0x0u);
        float c7_0 = __uint_as_float(0x0u);
        float c7_1 = __uint_as_float(0x0u);
        float c7_2 = __uint_as_float(0x0u);
        float c7_3 = __uint_as_float(0x0u);
        float c8_0 = __uint_as_float(0x0u);
        float c8_1 = __uint_as_float(0x0u);
        float c8_2 = __uint_as_float(0x0u);
        float c8_3 = __uint_as_float(0x0u);
        float c9_0 = __uint_as_float(0x0u);
        float c9_1 = __uint_as_float(0x0u);
        float c9_2 = __uint_as_float(0x0u);
        float c9_3 = __uint_as_float(0x0u);
        float c10_0 = __uint_as_float(0x0u);
        float c10_1 = __uint_as_float(0x0u);
        float c10_2 = __uint_as_float(0x0u);
        float c10_3 = __uint_as_float(0x0u);
        float c11_0 = __uint_as_float(0x0u);
        float c11_1 = __uint_as_float(0x0u);
        float c11_2 = __uint_as_float(0x0u);
        float c11_3 = __uint_as_float(0x0u);
        float c12_0 = __uint_as_float(0x0u);
        float c12_1 = __uint_as_float(0x0u);
        float c12_2 = __uint_as_float(0x0u);
        float c12_3 = __uint_as_float(0x0u);
        float c13_0 = __uint_as_float(0x0u);
        float c13_1 = __uint_as_float(0x0u);
        float c13_2 = __uint_as_float(0x0u);
        float c13_3 = __uint_as_float(0x0u);
        float c14_0 = __uint_as_float(0x0u);
        float c14_1 = __uint_as_float(0x0u);
        float c14_2 = __uint_as_float(0x0u);
        float c14_3 = __uint_as_float(0x0u);
        float c15_0 = __uint_as_float(0x0u);
        float c15_1 = __uint_as_float(0x0u);
        float c15_2 = __uint_as_float(0x0u);
        float c15_3 = __uint_as_float(0x0u);
        float c16_0 = __uint_as_float(0x0u);
        float c16_1 = __uint_as_float(0x0u);
        float c16_2 = __uint_as_float(0x0u);
        float c16_3 = __uint_as_float(0x0u);
        float c17_0 = __uint_as_float(0x0u);
        float c17_1 = __uint_as_float(0x0u);
        float c17_2 = __uint_as_float(0x0u);
        float c17_3 = __uint_as_float(0x0u);
        float c18_0 = __uint_as_float(0x0u);
        float c18_1 = __uint_as_float(0x0u);
        float c18_2 = __uint_as_float(0x0u);
        float c18_3 = __uint_as_float(0x0u);
        float c19_0 = __uint_as_float(0x0u);
        float c19_1 = __uint_as_float(0x0u);
        float c19_2 = __uint_as_float(0x0u);
        float c19_3 = __uint_as_float(0x0u);
        float c20_0 = __uint_as_float(0x0u);
        float c20_1 = __uint_as_float(0x0u);
        float c20_2 = __uint_as_float(0x0u);
        float c20_3 = __uint_as_float(0x0u);
        float c21_0 = __uint_as_float(0x0u);
        float c21_1 = __uint_as_float(0x0u);
        float c21_2 = __uint_as_float(0x0u);
        float c21_3 = __uint_as_float(0x0u);
        float c22_0 = __uint_as_float(0x0u);
        float c22_1 = __uint_as_float(0x0u);
        float c22_2 = __uint_as_float(0x0u);
        float c22_3 = __uint_as_float(0x0u);
        float c23_0 = __uint_as_float(0x0u);
        float c23_1 = __uint_as_float(0x0u);
        float c23_2 = __uint_as_float(0x0u);
        float c23_3 = __uint_as_float(0x0u);
        float c24_0 = __uint_as_float(0x0u);
        float c24_1 = __uint_as_float(0x0u);
        float c24_2 = __uint_as_float(0x0u);
        float c24_3 = __uint_as_float(0x0u);
        float c25_0 = __uint_as_float(0x0u);
        float c25_1 = __uint_as_float(0x0u);
        float c25_2 = __uint_as_float(0x0u);
        float c25_3 = __uint_as_float(0x0u);
        float c26_0 = __uint_as_float(0x0u);
        float c26_1 = __uint_as_float(0x0u);
        float c26_2 = __uint_as_float(0x0u);
        float c26_3 = __uint_as_float(0x0u);
        float c27_0 = __uint_as_float(0x0u);
        float c27_1 = __uint_as_float(0x0u);
        float c27_2 = __uint_as_float(0x0u);
        float c27_3 = __uint_as_float(0x0u);
        float c28_0 = __uint_as_float(0x0u);
        float c28_1 = __uint_as_float(0x0u);
        float c28_2 = __uint_as_float(0x0u);
        float c28_3 = __uint_as_float(0x0u);
        float c29_0 = __uint_as_float(0x0u);
        float c29_1 = __uint_as_float(0x0u);
        float c29_2 = __uint_as_float(0x0u);
        float c29_3 = __uint_as_float(0x0u);
        float c30_0 = __uint_as_float(0x0u);
        float c30_1 = __uint_as_float(0x0u);
        float c30_2 = __uint_as_float(0x0u);
        float c30_3 = __uint_as_float(0x0u);
        float c31_0 = __uint_as_float(0x0u);
        float c31_1 = __uint_as_float(0x0u);
        float c31_2 = __uint_as_float(0x0u);
        float c31_3 = __uint_as_float(0x0u);
        const u32 k_fours = k_begin + ((k_end - k_begin) & ~3u);
        for (u32 kk = k_begin; kk < k_fours; kk += 4u) {
            const auto va0 = *(const float4*)(b0 + (ra0 + kk * p.w[9u] * 4u));
            const auto va1 = *(const float4*)(b0 + (ra1 + kk * p.w[9u] * 4u));
            const auto va2 = *(const float4*)(b0 + (ra2 + kk * p.w[9u] * 4u));
            const auto va3 = *(const float4*)(b0 + (ra3 + kk * p.w[9u] * 4u));
            const auto vb0 = *(const float4*)(b1 + (cb0 + kk * 4u));
            const float b0_0 = vb0.x;
            const float b1_0 = vb0.y;
            const float b2_0 = vb0.z;
            const float b3_0 = vb0.w;
            const auto vb1 = *(const float4*)(b1 + (cb1 + kk * 4u));
            const float b0_1 = vb1.x;
            const float b1_1 = vb1.y;
            const float b2_1 = vb1.z;
            const float b3_1 = vb1.w;
            const auto vb2 = *(const float4*)(b1 + (cb2 + kk * 4u));
            const float b0_2 = vb2.x;
            const float b1_2 = vb2.y;
            const float b2_2 = vb2.z;
            const float b3_2 = vb2.w;
            const auto vb3 = *(const float4*)(b1 + (cb3 + kk * 4u));
            const float b0_3 = vb3.x;
            const float b1_3 = vb3.y;
            const float b2_3 = vb3.z;
            const float b3_3 = vb3.w;
            const float a0_0 = __shfl_sync(0xffffffffu, va0.x, 0u);
            const float a0_1 = __shfl_sync(0xffffffffu, va0.x, 1u);
            const float a0_2 = __shfl_sync(0xffffffffu, va0.x, 2u);
            const float a0_3 = __shfl_sync(0xffffffffu, va0.x, 3u);
            c0_0 = c0_0 + (a0_0 * b0_0 + a0_1 * b1_0 + a0_2 * b2_0 + a0_3 * b3_0);
            c0_1 = c0_1 + (a0_0 * b0_1 + a0_1 * b1_1 + a0_2 * b2_1 + a0_3 * b3_1);
            c0_2 = c0_2 + (a0_0 * b0_2 + a0_1 * b1_2 + a0_2 * b2_2 + a0_3 * b3_2);
            c0_3 = c0_3 + (a0_0 * b0_3 + a0_1 * b1_3 + a0_2 * b2_3 + a0_3 * b3_3);
            const float a1_0 = __shfl_sync(0xffffffffu, va0.y, 0u);
            const float a1_1 = __shfl_sync(0xffffffffu, va0.y, 1u);
            const float a1_2 = __shfl_sync(0xffffffffu, va0.y, 2u);
            const float a1_3 = __shfl_sync(0xffffffffu, va0.y, 3u);
            c1_0 = c1_0 + (a1_0 * b0_0 + a1_1 * b1_0 + a1_2 * b2_0 + a1_3 * b3_0);
            c1_1 = c1_1 + (a1_0 * b0_1 + a1_1 * b1_1 + a1_2 * b2_1 + a1_3 * b3_1);
            c1_2 = c1_2 + (a1_0 * b0_2 + a1_1 * b1_2 + a1_2 * b2_2 + a1_3 * b3_2);
            c1_3 = c1_3 + (a1_0 * b0_3 + a1_1 * b1_3 + a1_2 * b2_3 + a1_3 * b3_3);
            const float a2_0 = __shfl_sync(0xffffffffu, va0.z, 0u);
            const float a2_1 = __shfl_sync(0xffffffffu, va0.z, 1u);
            const float a2_2 = __shfl_sync(0xffffffffu, va0.z, 2u);
            const float a2_3 = __shfl_sync(0xffffffffu, va0.z, 3u);
            c2_0 = c2_0 + (a2_0 * b0_0 + a2_1 * b1_0 + a2_2 * b2_0 + a2_3 * b3_0);
            c2_1 = c2_1 + (a2_0 * b0_1 + a2_1 * b1_1 + a2_2 * b2_1 + a2_3 * b3_1);
            c2_2 = c2_2 + (a2_0 * b0_2 + a2_1 * b1_2 + a2_2 * b2_2 + a2_3 * b3_2);
            c2_3 = c2_3 + (a2_0 * b0_3 + a2_1 * b1_3 + a2_2 * b2_3 + a2_3 * b3_3);
            const float a3_0 = __shfl_sync(0xffffffffu, va0.w, 0u);
            const float a3_1 = __shfl_sync(0xffffffffu, va0.w, 1u);
            const float a3_2 = __shfl_sync(0xffffffffu, va0.w, 2u);
            const float a3_3 = __shfl_sync(0xffffffffu, va0.w, 3u);
            c3_0 = c3_0 + (a3_0 * b0_0 + a3_1 * b1_0 + a3_2 * b2_0 + a3_3 * b3_0);
            c3_1 = c3_1 + (a3_0 * b0_1 + a3_1 * b1_1 + a3_2 * b2_1 + a3_3 * b3_1);
            c3_2 = c3_2 + (a3_0 * b0_2 + a3_1 * b1_2 + a3_2 * b2_2 + a3_3 * b3_2);
            c3_3 = c3_3 + (a3_0 * b0_3 + a3_1 * b1_3 + a3_2 * b2_3 + a3_3 * b3_3);
            const float a4_0 = __shfl_sync(0xffffffffu, va0.x, 4u);
            const float a4_1 = __shfl_sync(0xffffffffu, va0.x, 5u);
            const float a4_2 = __shfl_sync(0xffffffffu, va0.x, 6u);
            const float a4_3 = __shfl_sync(0xffffffffu, va0.x, 7u);
            c4_0 = c4_0 + (a4_0 * b0_0 + a4_1 * b1_0 + a4_2 * b2_0 + a4_3 * b3_0);
            c4_1 = c4_1 + (a4_0 * b0_1 + a4_1 * b1_1 + a4_2 * b2_1 + a4_3 * b3_1);
            c4_2 = c4_2 + (a4_0 * b0_2 + a4_1 * b1_2 + a4_2 * b2_2 + a4_3 * b3_2);
            c4_3 = c4_3 + (a4_0 * b0_3 + a4_1 * b1_3 + a4_2 * b2_3 + a4_3 * b3_3);
            const float a5_0 = __shfl_sync(0xffffffffu, va0.y, 4u);
            const float a5_1 = __shfl_sync(0xffffffffu, va0.y, 5u);
            const float a5_2 = __shfl_sync(0xffffffffu, va0.y, 6u);
            const float a5_3 = __shfl_sync(0xffffffffu, va0.y, 7u);
            c5_0 = c5_0 + (a5_0 * b0_0 + a5_1 * b1_0 + a5_2 * b2_0 + a5_3 * b3_0);
            c5_1 = c5_1 + (a5_0 * b0_1 + a5_1 * b1_1 + a5_2 * b2_1 + a5_3 * b3_1);
            c5_2 = c5_2 + (a5_0 * b0_2 + a5_1 * b1_2 + a5_2 * b2_2 + a5_3 * b3_2);
            c5_3 = c5_3 + (a5_0 * b0_3 + a5_1 * b1_3 + a5_2 * b2_3 + a5_3 * b3_3);
            const float a6_0 = __shfl_sync(0xffffffffu, va0.z, 4u);
            const float a6_1 = __shfl_sync(0xffffffffu, va0.z, 5u);
            const float a6_2 = __shfl_sync(0xffffffffu, va0.z, 6u);
            const float a6_3 = __shfl_sync(0xffffffffu, va0.z, 7u);
            c6_0 = c6_0 + (a6_0 * b0_0 + a6_1 * b1_0 + a6_2 * b2_0 + a6_3 * b3_0);
            c6_1 = c6_1 + (a6_0 * b0_1 + a6_1 * b1_1 + a6_2 * b2_1 + a6_3 * b3_1);
            c6_2 = c6_2 + (a6_0 * b0_2 + a6_1 * b1_2 + a6_2 * b2_2 + a6_3 * b3_2);
            c6_3 = c6_3 + (a6_0 * b0_3 + a6_1 * b1_3 + a6_2 * b2_3 + a6_3 * b3_3);
            const float a7_0 = __shfl_sync(0xffffffffu, va0.w, 4u);
            const float a7_1 = __shfl_sync(0xffffffffu, va0.w, 5u);
            const float a7_2 = __shfl_sync(0xffffffffu, va0.w, 6u);
            const float a7_3 = __shfl_sync(0xffffffffu, va0.w, 7u);
            c7_0 = c7_0 + (a7_0 * b0_0 + a7_1 * b1_0 + a7_2 * b2_0 + a7_3 * b3_0);
            c7_1 = c7_1 + (a7_0 * b0_1 + a7_1 * b1_1 + a7_2 * b2_1 + a7_3 * b3_1);
            c7_2 = c7_2 + (a7_0 * b0_2 + a7_1 * b1_2 + a7_2 * b2_2 + a7_3 * b3_2);
            c7_3 = c7_3 + (a7_0 * b0_3 + a7_1 * b1_3 + a7_2 * b2_3 + a7_3 * b3_3);
            const float a8_0 = __shfl_sync(0xffffffffu, va1.x, 0u);
            const float a8_1 = __shfl_sync(0xffffffffu, va1.x, 1u);
            const float a8_2 = __shfl_sync(0xffffffffu, va1.x, 2u);
            const float a8_3 = __shfl_sync(0xffffffffu, va1.x, 3u);
            c8_0 = c8_0 + (a8_0 * b0_0 + a8_1 * b1_0 + a8_2 * b2_0 + a8_3 * b3_0);
            c8_1 = c8_1 + (a8_0 * b0_1 + a8_1 * b1_1 + a8_2 * b2_1 + a8_3 * b3_1);
            c8_2 = c8_2 + (a8_0 * b0_2 + a8_1 * b1_2 + a8_2 * b2_2 + a8_3 * b3_2);
            c8_3 = c8_3 + (a8_0 * b0_3 + a8_1 * b1_3 + a8_2 * b2_3 + a8_3 * b3_3);
            const float a9_0 = __shfl_sync(0xffffffffu, va1.y, 0u);
            const float a9_1 = __shfl_sync(0xffffffffu, va1.y, 1u);
            const float a9_2 = __shfl_sync(0xffffffffu, va1.y, 2u);
            const float a9_3 = __shfl_sync(0xffffffffu, va1.y, 3u);
            c9_0 = c9_0 + (a9_0 * b0_0 + a9_1 * b1_0 + a9_2 * b2_0 + a9_3 * b3_0);
            c9_1 = c9_1 + (a9_0 * b0_1 + a9_1 * b1_1 + a9_2 * b2_1 + a9_3 * b3_1);
            c9_2 = c9_2 + (a9_0 * b0_2 + a9_1 * b1_2 + a9_2 * b2_2 + a9_3 * b3_2);
            c9_3 = c9_3 + (a9_0 * b0_3 + a9_1 * b1_3 + a9_2 * b2_3 + a9_3 * b3_3);
            const float a10_0 = __shfl_sync(0xffffffffu, va1.z, 0u);
            const float a10_1 = __shfl_sync(0xffffffffu, va1.z, 1u);
            const float a10_2 = __shfl_sync(0xffffffffu, va1.z, 2u);
            const float a10_3 = __shfl_sync(0xffffffffu, va1.z, 3u);
            c10_0 = c10_0 + (a10_0 * b0_0 + a10_1 * b1_0 + a10_2 * b2_0 + a10_3 * b3_0);
            c10_1 = c10_1 + (a10_0 * b0_1 + a10_1 * b1_1 + a10_2 * b2_1 + a10_3 * b3_1);
            c10_2 = c10_2 + (a10_0 * b0_2 + a10_1 * b1_2 + a10_2 * b2_2 + a10_3 * b3_2);
            c10_3 = c10_3 + (a10_0 * b0_3 + a10_1 * b1_3 + a10_2 * b2_3 + a10_3 * b3_3);
            const float a11_0 = __shfl_sync(0xffffffffu, va1.w, 0u);
            const float a11_1 = __shfl_sync(0xffffffffu, va1.w, 1u);
            const float a11_2 = __shfl_sync(0xffffffffu, va1.w, 2u);
            const float a11_3 = __shfl_sync(0xffffffffu, va1.w, 3u);
            c11_0 = c11_0 + (a11_0 * b0_0 + a11_1 * b1_0 + a11_2 * b2_0 + a11_3 * b3_0);
            c11_1 = c11_1 + (a11_0 * b0_1 + a11_1 * b1_1 + a11_2 * b2_1 + a11_3 * b3_1);
            c11_2 = c11_2 + (a11_0 * b0_2 + a11_1 * b1_2 + a11_2 * b2_2 + a11_3 * b3_2);
            c11_3 = c11_3 + (a11_0 * b0_3 + a11_1 * b1_3 + a11_2 * b2_3 + a11_3 * b3_3);
            const float a12_0 = __shfl_sync(0xffffffffu, va1.x, 4u);
            const float a12_1 = __shfl_sync(0xffffffffu, va1.x, 5u);
            const float a12_2 = __shfl_sync(0xffffffffu, va1.x, 6u);
            const float a12_3 = __shfl_sync(0xffffffffu, va1.x, 7u);
            c12_0 = c12_0 + (a12_0 * b0_0 + a12_1 * b1_0 + a12_2 * b2_0 + a12_3 * b3_0);
            c12_1 = c12_1 + (a12_0 * b0_1 + a12_1 * b1_1 + a12_2 * b2_1 + a12_3 * b3_1);
            c12_2 = c12_2 + (a12_0 * b0_2 + a12_1 * b1_2 + a12_2 * b2_2 + a12_3 * b3_2);
            c12_3 = c12_3 + (a12_0 * b0_3 + a12_1 * b1_3 + a12_2 * b2_3 + a12_3 * b3_3);
            const float a13_0 = __shfl_sync(0xffffffffu, va1.y, 4u);
            const float a13_1 = __shfl_sync(0xffffffffu, va1.y, 5u);
            const float a13_2 = __shfl_sync(0xffffffffu, va1.y, 6u);
            const float a13_3 = __shfl_sync(0xffffffffu, va1.y, 7u);
            c13_0 = c13_0 + (a13_0 * b0_0 + a13_1 * b1_0 + a13_2 * b2_0 + a13_3 * b3_0);
            c13_1 = c13_1 + (a13_0 * b0_1 + a13_1 * b1_1 + a13_2 * b2_1 + a13_3 * b3_1);
            c13_2 = c13_2 + (a13_0 * b0_2 + a13_1 * b1_2 + a13_2 * b2_2 + a13_3 * b3_2);
            c13_3 = c13_3 + (a13_0 * b0_3 + a13_1 * b1_3 + a13_2 * b2_3 + a13_3 * b3_3);
            const float a14_0 = __shfl_sync(0xffffffffu, va1.z, 4u);
            const float a14_1 = __shfl_sync(0xffffffffu, va1.z, 5u);
            const float a14_2 = __shfl_sync(0xffffffffu, va1.z, 6u);
            const float a14_3 = __shfl_sync(0xffffffffu, va1.z, 7u);
            c14_0 = c14_0 + (a14_0 * b0_0 + a14_1 * b1_0 + a14_2 * b2_0 + a14_3 * b3_0);
            c14_1 = c14_1 + (a14_0 * b0_1 + a14_1 * b1_1 + a14_2 * b2_1 + a14_3 * b3_1);
            c14_2 = c14_2 + (a14_0 * b0_2 + a14_1 * b1_2 + a14_2 * b2_2 + a14_3 * b3_2);
            c14_3 = c14_3 + (a14_0 * b0_3 + a14_1 * b1_3 + a14_2 * b2_3 + a14_3 * b3_3);
            const float a15_0 = __shfl_sync(0xffffffffu, va1.w, 4u);
            const float a15_1 = __shfl_sync(0xffffffffu, va1.w, 5u);
            const float a15_2 = __shfl_sync(0xffffffffu, va1.w, 6u);
            const float a15_3 = __shfl_sync(0xffffffffu, va1.w, 7u);
            c15_0 = c15_0 + (a15_0 * b0_0 + a15_1 * b1_0 + a15_2 * b2_0 + a15_3 * b3_0);
            c15_1 = c15_1 + (a15_0 * b0_1 + a15_1 * b1_1 + a15_2 * b2_1 + a15_3 * b3_1);
            c15_2 = c15_2 + (a15_0 * b0_2 + a15_1 * b1_2 + a15_2 * b2_2 + a15_3 * b3_2);
            c15_3 = c15_3 + (a15_0 * b0_3 + a15_1 * b1_3 + a15_2 * b2_3 + a15_3 * b3_3);
            const float a16_0 = __shfl_sync(0xffffffffu, va2.x, 0u);
            const float a16_1 = __shfl_sync(0xffffffffu, va2.x, 1u);
            const float a16_2 = __shfl_sync(0xffffffffu, va2.x, 2u);
            const float a16_3 = __shfl_sync(0xffffffffu, va2.x, 3u);
            c16_0 = c16_0 + (a16_0 * b0_0 + a16_1 * b1_0 + a16_2 * b2_0 + a16_3 * b3_0);
            c16_1 = c16_1 + (a16_0 * b0_1 + a16_1 * b1_1 + a16_2 * b2_1 + a16_3 * b3_1);
            c16_2 = c16_2 + (a16_0 * b0_2 + a16_1 * b1_2 + a16_2 * b2_2 + a16_3 * b3_2);
            c16_3 = c16_3 + (a16_0 * b0_3 + a16_1 * b1_3 + a16_2 * b2_3 + a16_3 * b3_3);
            const float a17_0 = __shfl_sync(0xffffffffu, va2.y, 0u);
            const float a17_1 = __shfl_sync(0xffffffffu, va2.y, 1u);
            const float a17_2 = __shfl_sync(0xffffffffu, va2.y, 2u);
            const float a17_3 = __shfl_sync(0xffffffffu, va2.y, 3u);
            c17_0 = c17_0 + (a17_0 * b0_0 + a17_1 * b1_0 + a17_2 * b2_0 + a17_3 * b3_0);
            c17_1 = c17_1 + (a17_0 * b0_1 + a17_1 * b1_1 + a17_2 * b2_1 + a17_3 * b3_1);
            c17_2 = c17_2 + (a17_0 * b0_2 + a17_1 * b1_2 + a17_2 * b2_2 + a17_3 * b3_2);
            c17_3 = c17_3 + (a17_0 * b0_3 + a17_1 * b1_3 + a17_2 * b2_3 + a17_3 * b3_3);
            const float a18_0 = __shfl_sync(0xffffffffu, va2.z, 0u);
            const float a18_1 = __shfl_sync(0xffffffffu, va2.z, 1u);
            const float a18_2 = __shfl_sync(0xffffffffu, va2.z, 2u);
            const float a18_3 = __shfl_sync(0xffffffffu, va2.z, 3u);
            c18_0 = c18_0 + (a18_0 * b0_0 + a18_1 * b1_0 + a18_2 * b2_0 + a18_3 * b3_0);
            c18_1 = c18_1 + (a18_0 * b0_1 + a18_1 * b1_1 + a18_2 * b2_1 + a18_3 * b3_1);
            c18_2 = c18_2 + (a18_0 * b0_2 + a18_1 * b1_2 + a18_2 * b2_2 + a18_3 * b3_2);
            c18_3 = c18_3 + (a18_0 * b0_3 + a18_1 * b1_3 + a18_2 * b2_3 + a18_3 * b3_3);
            const float a19_0 = __shfl_sync(0xffffffffu, va2.w, 0u);
            const float a19_1 = __shfl_sync(0xffffffffu, va2.w, 1u);
            const float a19_2 = __shfl_sync(0xffffffffu, va2.w, 2u);
            const float a19_3 = __shfl_sync(0xffffffffu, va2.w, 3u);
            c19_0 = c19_0 + (a19_0 * b0_0 + a19_1 * b1_0 + a19_2 * b2_0 + a19_3 * b3_0);
            c19_1 = c19_1 + (a19_0 * b0_1 + a19_1 * b1_1 + a19_2 * b2_1 + a19_3 * b3_1);
            c19_2 = c19_2 + (a19_0 * b0_2 + a19_1 * b1_2 + a19_2 * b2_2 + a19_3 * b3_2);
            c19_3 = c19_3 + (a19_0 * b0_3 + a19_1 * b1_3 + a19_2 * b2_3 + a19_3 * b3_3);
            const float a20_0 = __shfl_sync(0xffffffffu, va2.x, 4u);
            const float a20_1 = __shfl_sync(0xffffffffu, va2.x, 5u);
            const float a20_2 = __shfl_sync(0xffffffffu, va2.x, 6u);
            const float a20_3 = __shfl_sync(0xffffffffu, va2.x, 7u);
            c20_0 = c20_0 + (a20_0 * b0_0 + a20_1 * b1_0 + a20_2 * b2_0 + a20_3 * b3_0);
            c20_1 = c20_1 + (a20_0 * b0_1 + a20_1 * b1_1 + a20_2 * b2_1 + a20_3 * b3_1);
            c20_2 = c20_2 + (a20_0 * b0_2 + a20_1 * b1_2 + a20_2 * b2_2 + a20_3 * b3_2);
            c20_3 = c20_3 + (a20_0 * b0_3 + a20_1 * b1_3 + a20_2 * b2_3 + a20_3 * b3_3);
            const float a21_0 = __shfl_sync(0xffffffffu, va2.y, 4u);
            const float a21_1 = __shfl_sync(0xffffffffu, va2.y, 5u);
            const float a21_2 = __shfl_sync(0xffffffffu, va2.y, 6u);
            const float a21_3 = __shfl_sync(0xffffffffu, va2.y, 7u);
            c21_0 = c21_0 + (a21_0 * b0_0 + a21_1 * b1_0 + a21_2 * b2_0 + a21_3 * b3_0);
            c21_1 = c21_1 + (a21_0 * b0_1 + a21_1 * b1_1 + a21_2 * b2_1 + a21_3 * b3_1);
            c21_2 = c21_2 + (a21_0 * b0_2 + a21_1 * b1_2 + a21_2 * b2_2 + a21_3 * b3_2);
            c21_3 = c21_3 + (a21_0 * b0_3 + a21_1 * b1_3 + a21_2 * b2_3 + a21_3 * b3_3);
            const float a22_0 = __shfl_sync(0xffffffffu, va2.z, 4u);
            const float a22_1 = __shfl_sync(0xffffffffu, va2.z, 5u);
            const float a22_2 = __shfl_sync(0xffffffffu, va2.z, 6u);
            const float a22_3 = __shfl_sync(0xffffffffu, va2.z, 7u);
            c22_0 = c22_0 + (a22_0 * b0_0 + a22_1 * b1_0 + a22_2 * b2_0 + a22_3 * b3_0);
            c22_1 = c22_1 + (a22_0 * b0_1 + a22_1 * b1_1 + a22_2 * b2_1 + a22_3 * b3_1);
            c22_2 = c22_2 + (a22_0 * b0_2 + a22_1 * b1_2 + a22_2 * b2_2 + a22_3 * b3_2);
            c22_3 = c22_3 + (a22_0 * b0_3 + a22_1 * b1_3 + a22_2 * b2_3 + a22_3 * b3_3);
            const float a23_0 = __shfl_sync(0xffffffffu, va2.w, 4u);
            const float a23_1 = __shfl_sync(0xffffffffu, va2.w, 5u);
            const float a23_2 = __shfl_sync(0xffffffffu, va2.w, 6u);
            const float a23_3 = __shfl_sync(0xffffffffu, va2.w, 7u);
            c23_0 = c23_0 + (a23_0 * b0_0 + a23_1 * b1_0 + a23_2 * b2_0 + a23_3 * b3_0);
            c23_1 = c23_1 + (a23_0 * b0_1 + a23_1 * b1_1 + a23_2 * b2_1 + a23_3 * b3_1);
            c23_2 = c23_2 + (a23_0 * b0_2 + a23_1 * b1_2 + a23_2 * b2_2 + a23_3 * b3_2);
            c23_3 = c23_3 + (a23_0 * b0_3 + a23_1 * b1_3 + a23_2 * b2_3 + a23_3 * b3_3);
            const float a24_0 = __shfl_sync(0xffffffffu, va3.x, 0u);
            const float a24_1 = __shfl_sync(0xffffffffu, va3.x, 1u);
            const float a24_2 = __shfl_sync(0xffffffffu, va3.x, 2u);
            const float a24_3 = __shfl_sync(0xffffffffu, va3.x, 3u);
            c24_0 = c24_0 + (a24_0 * b0_0 + a24_1 * b1_0 + a24_2 * b2_0 + a24_3 * b3_0);
            c24_1 = c24_1 + (a24_0 * b0_1 + a24_1 * b1_1 + a24_2 * b2_1 + a24_3 * b3_1);
            c24_2 = c24_2 + (a24_0 * b0_2 + a24_1 * b1_2 + a24_2 * b2_2 + a24_3 * b3_2);
            c24_3 = c24_3 + (a24_0 * b0_3 + a24_1 * b1_3 + a24_2 * b2_3 + a24_3 * b3_3);
            const float a25_0 = __shfl_sync(0xffffffffu, va3.y, 0u);
            const float a25_1 = __shfl_sync(0xffffffffu, va3.y, 1u);
            const float a25_2 = __shfl_sync(0xffffffffu, va3.y, 2u);
            const float a25_3 = __shfl_sync(0xffffffffu, va3.y, 3u);
            c25_0 = c25_0 + (a25_0 * b0_0 + a25_1 * b1_0 + a25_2 * b2_0 + a25_3 * b3_0);
            c25_1 = c25_1 + (a25_0 * b0_1 + a25_1 * b1_1 + a25_2 * b2_1 + a25_3 * b3_1);
            c25_2 = c25_2 + (a25_0 * b0_2 + a25_1 * b1_2 + a25_2 * b2_2 + a25_3 * b3_2);
            c25_3 = c25_3 + (a25_0 * b0_3 + a25_1 * b1_3 + a25_2 * b2_3 + a25_3 * b3_3);
            const float a26_0 = __shfl_sync(0xffffffffu, va3.z, 0u);
            const float a26_1 = __shfl_sync(0xffffffffu, va3.z, 1u);
            const float a26_2 = __shfl_sync(0xffffffffu, va3.z, 2u);
            const float a26_3 = __shfl_sync(0xffffffffu, va3.z, 3u);
            c26_0 = c26_0 + (a26_0 * b0_0 + a26_1 * b1_0 + a26_2 * b2_0 + a26_3 * b3_0);
            c26_1 = c26_1 + (a26_0 * b0_1 + a26_1 * b1_1 + a26_2 * b2_1 + a26_3 * b3_1);
            c26_2 = c26_2 + (a26_0 * b0_2 + a26_1 * b1_2 + a26_2 * b2_2 + a26_3 * b3_2);
            c26_3 = c26_3 + (a26_0 * b0_3 + a26_1 * b1_3 + a26_2 * b2_3 + a26_3 * b3_3);
            const float a27_0 = __shfl_sync(0xffffffffu, va3.w, 0u);
            const float a27_1 = __shfl_sync(0xffffffffu, va3.w, 1u);
            const float a27_2 = __shfl_sync(0xffffffffu, va3.w, 2u);
            const float a27_3 = __shfl_sync(0xffffffffu, va3.w, 3u);
            c27_0 = c27_0 + (a27_0 * b0_0 + a27_1 * b1_0 + a27_2 * b2_0 + a27_3 * b3_0);
            c27_1 = c27_1 + (a27_0 * b0_1 + a27_1 * b1_1 + a27_2 * b2_1 + a27_3 * b3_1);
            c27_2 = c27_2 + (a27_0 * b0_2 + a27_1 * b1_2 + a27_2 * b2_2 + a27_3 * b3_2);
            c27_3 = c27_3 + (a27_0 * b0_3 + a27_1 * b1_3 + a27_2 * b2_3 + a27_3 * b3_3);
            const float a28_0 = __shfl_sync(0xffffffffu, va3.x, 4u);
            const float a28_1 = __shfl_sync(0xffffffffu, va3.x, 5u);
            const float a28_2 = __shfl_sync(0xffffffffu, va3.x, 6u);
            const float a28_3 = __shfl_sync(0xffffffffu, va3.x, 7u);
            c28_0 = c28_0 + (a28_0 * b0_0 + a28_1 * b1_0 + a28_2 * b2_0 + a28_3 * b3_0);
            c28_1 = c28_1 + (a28_0 * b0_1 + a28_1 * b1_1 + a28_2 * b2_1 + a28_3 * b3_1);
            c28_2 = c28_2 + (a28_0 * b0_2 + a28_1 * b1_2 + a28_2 * b2_2 + a28_3 * b3_2);
            c28_3 = c28_3 + (a28_0 * b0_3 + a28_1 * b1_3 + a28_2 * b2_3 + a28_3 * b3_3);
            const float a29_0 = __shfl_sync(0xffffffffu, va3.y, 4u);
            const float a29_1 = __shfl_sync(0xffffffffu, va3.y, 5u);
            const float a29_2 = __shfl_sync(0xffffffffu, va3.y, 6u);
            const float a29_3 = __shfl_sync(0xffffffffu, va3.y, 7u);
            c29_0 = c29_0 + (a29_0 * b0_0 + a29_1 * b1_0 + a29_2 * b2_0 + a29_3 * b3_0);
            c29_1 = c29_1 + (a29_0 * b0_1 + a29_1 * b1_1 + a29_2 * b2_1 + a29_3 * b3_1);
            c29_2 = c29_2 + (a29_0 * b0_2 + a29_1 * b1_2 + a29_2 * b2_2 + a29_3 * b3_2);
            c29_3 = c29_3 + (a29_0 * b0_3 + a29_1 * b1_3 + a29_2 * b2_3 + a29_3 * b3_3);
            const float a30_0 = __shfl_sync(0xffffffffu, va3.z, 4u);
            const float a30_1 = __shfl_sync(0xffffffffu, va3.z, 5u);
            const float a30_2 = __shfl_sync(0xffffffffu, va3.z, 6u);
            const float a30_3 = __shfl_sync(0xffffffffu, va3.z, 7u);
            c30_0 = c30_0 + (a30_0 * b0_0 + a30_1 * b1_0 + a30_2 * b2_0 + a30_3 * b3_0);
            c30_1 = c30_1 + (a30_0 * b0_1 + a30_1 * b1_1 + a30_2 * b2_1 + a30_3 * b3_1);
            c30_2 = c30_2 + (a30_0 * b0_2 + a30_1 * b1_2 + a30_2 * b2_2 + a30_3 * b3_2);
            c30_3 = c30_3 + (a30_0 * b0_3 + a30_1 * b1_3 + a30_2 * b2_3 + a30_3 * b3_3);
            const float a31_0 = __shfl_sync(0xffffffffu, va3.w, 4u);
            const float a31_1 = __shfl_sync(0xffffffffu, va3.w, 5u);
            const float a31_2 = __shfl_sync(0xffffffffu, va3.w, 6u);
            const float a31_3 = __shfl_sync(0xffffffffu, va3.w, 7u);
            c31_0 = c31_0 + (a31_0 * b0_0 + a31_1 * b1_0 + a31_2 * b2_0 + a31_3 * b3_0);
            c31_1 = c31_1 + (a31_0 * b0_1 + a31_1 * b1_1 + a31_2 * b2_1 + a31_3 * b3_1);
            c31_2 = c31_2 + (a31_0 * b0_2 + a31_1 * b1_2 + a31_2 * b2_2 + a31_3 * b3_2);
            c31_3 = c31_3 + (a31_0 * b0_3 + a31_1 * b1_3 + a31_2 * b2_3 + a31_3 * b3_3);
        }
        const u32 out_row0 = row0 + 0u;
        if (out_row0 < m && j0 + 0u < n) {
            float v = alpha * c0_0;
            v = v + beta * ld2(c_b + out_row0 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row0 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row0 < m && j0 + 1u < n) {
            float v = alpha * c0_1;
            v = v + beta * ld2(c_b + out_row0 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row0 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row0 < m && j0 + 2u < n) {
            float v = alpha * c0_2;
            v = v + beta * ld2(c_b + out_row0 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row0 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row0 < m && j0 + 3u < n) {
            float v = alpha * c0_3;
            v = v + beta * ld2(c_b + out_row0 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row0 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row1 = row0 + 1u;
        if (out_row1 < m && j0 + 0u < n) {
            float v = alpha * c1_0;
            v = v + beta * ld2(c_b + out_row1 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row1 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row1 < m && j0 + 1u < n) {
            float v = alpha * c1_1;
            v = v + beta * ld2(c_b + out_row1 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row1 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row1 < m && j0 + 2u < n) {
            float v = alpha * c1_2;
            v = v + beta * ld2(c_b + out_row1 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row1 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row1 < m && j0 + 3u < n) {
            float v = alpha * c1_3;
            v = v + beta * ld2(c_b + out_row1 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row1 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row2 = row0 + 2u;
        if (out_row2 < m && j0 + 0u < n) {
            float v = alpha * c2_0;
            v = v + beta * ld2(c_b + out_row2 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row2 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row2 < m && j0 + 1u < n) {
            float v = alpha * c2_1;
            v = v + beta * ld2(c_b + out_row2 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row2 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row2 < m && j0 + 2u < n) {
            float v = alpha * c2_2;
            v = v + beta * ld2(c_b + out_row2 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row2 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row2 < m && j0 + 3u < n) {
            float v = alpha * c2_3;
            v = v + beta * ld2(c_b + out_row2 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row2 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row3 = row0 + 3u;
        if (out_row3 < m && j0 + 0u < n) {
            float v = alpha * c3_0;
            v = v + beta * ld2(c_b + out_row3 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row3 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row3 < m && j0 + 1u < n) {
            float v = alpha * c3_1;
            v = v + beta * ld2(c_b + out_row3 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row3 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row3 < m && j0 + 2u < n) {
            float v = alpha * c3_2;
            v = v + beta * ld2(c_b + out_row3 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row3 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row3 < m && j0 + 3u < n) {
            float v = alpha * c3_3;
            v = v + beta * ld2(c_b + out_row3 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row3 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row4 = row0 + 4u;
        if (out_row4 < m && j0 + 0u < n) {
            float v = alpha * c4_0;
            v = v + beta * ld2(c_b + out_row4 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row4 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row4 < m && j0 + 1u < n) {
            float v = alpha * c4_1;
            v = v + beta * ld2(c_b + out_row4 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row4 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row4 < m && j0 + 2u < n) {
            float v = alpha * c4_2;
            v = v + beta * ld2(c_b + out_row4 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row4 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row4 < m && j0 + 3u < n) {
            float v = alpha * c4_3;
            v = v + beta * ld2(c_b + out_row4 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row4 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row5 = row0 + 5u;
        if (out_row5 < m && j0 + 0u < n) {
            float v = alpha * c5_0;
            v = v + beta * ld2(c_b + out_row5 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row5 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row5 < m && j0 + 1u < n) {
            float v = alpha * c5_1;
            v = v + beta * ld2(c_b + out_row5 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row5 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row5 < m && j0 + 2u < n) {
            float v = alpha * c5_2;
            v = v + beta * ld2(c_b + out_row5 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row5 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row5 < m && j0 + 3u < n) {
            float v = alpha * c5_3;
            v = v + beta * ld2(c_b + out_row5 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row5 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row6 = row0 + 6u;
        if (out_row6 < m && j0 + 0u < n) {
            float v = alpha * c6_0;
            v = v + beta * ld2(c_b + out_row6 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row6 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row6 < m && j0 + 1u < n) {
            float v = alpha * c6_1;
            v = v + beta * ld2(c_b + out_row6 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row6 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row6 < m && j0 + 2u < n) {
            float v = alpha * c6_2;
            v = v + beta * ld2(c_b + out_row6 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row6 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row6 < m && j0 + 3u < n) {
            float v = alpha * c6_3;
            v = v + beta * ld2(c_b + out_row6 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row6 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row7 = row0 + 7u;
        if (out_row7 < m && j0 + 0u < n) {
            float v = alpha * c7_0;
            v = v + beta * ld2(c_b + out_row7 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row7 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row7 < m && j0 + 1u < n) {
            float v = alpha * c7_1;
            v = v + beta * ld2(c_b + out_row7 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row7 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row7 < m && j0 + 2u < n) {
            float v = alpha * c7_2;
            v = v + beta * ld2(c_b + out_row7 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row7 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row7 < m && j0 + 3u < n) {
            float v = alpha * c7_3;
            v = v + beta * ld2(c_b + out_row7 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row7 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row8 = row0 + 8u;
        if (out_row8 < m && j0 + 0u < n) {
            float v = alpha * c8_0;
            v = v + beta * ld2(c_b + out_row8 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row8 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row8 < m && j0 + 1u < n) {
            float v = alpha * c8_1;
            v = v + beta * ld2(c_b + out_row8 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row8 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row8 < m && j0 + 2u < n) {
            float v = alpha * c8_2;
            v = v + beta * ld2(c_b + out_row8 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row8 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row8 < m && j0 + 3u < n) {
            float v = alpha * c8_3;
            v = v + beta * ld2(c_b + out_row8 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row8 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row9 = row0 + 9u;
        if (out_row9 < m && j0 + 0u < n) {
            float v = alpha * c9_0;
            v = v + beta * ld2(c_b + out_row9 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row9 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row9 < m && j0 + 1u < n) {
            float v = alpha * c9_1;
            v = v + beta * ld2(c_b + out_row9 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row9 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row9 < m && j0 + 2u < n) {
            float v = alpha * c9_2;
            v = v + beta * ld2(c_b + out_row9 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row9 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row9 < m && j0 + 3u < n) {
            float v = alpha * c9_3;
            v = v + beta * ld2(c_b + out_row9 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row9 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row10 = row0 + 10u;
        if (out_row10 < m && j0 + 0u < n) {
            float v = alpha * c10_0;
            v = v + beta * ld2(c_b + out_row10 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row10 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row10 < m && j0 + 1u < n) {
            float v = alpha * c10_1;
            v = v + beta * ld2(c_b + out_row10 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row10 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row10 < m && j0 + 2u < n) {
            float v = alpha * c10_2;
            v = v + beta * ld2(c_b + out_row10 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row10 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row10 < m && j0 + 3u < n) {
            float v = alpha * c10_3;
            v = v + beta * ld2(c_b + out_row10 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row10 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row11 = row0 + 11u;
        if (out_row11 < m && j0 + 0u < n) {
            float v = alpha * c11_0;
            v = v + beta * ld2(c_b + out_row11 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row11 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row11 < m && j0 + 1u < n) {
            float v = alpha * c11_1;
            v = v + beta * ld2(c_b + out_row11 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row11 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row11 < m && j0 + 2u < n) {
            float v = alpha * c11_2;
            v = v + beta * ld2(c_b + out_row11 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row11 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row11 < m && j0 + 3u < n) {
            float v = alpha * c11_3;
            v = v + beta * ld2(c_b + out_row11 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row11 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row12 = row0 + 12u;
        if (out_row12 < m && j0 + 0u < n) {
            float v = alpha * c12_0;
            v = v + beta * ld2(c_b + out_row12 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row12 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row12 < m && j0 + 1u < n) {
            float v = alpha * c12_1;
            v = v + beta * ld2(c_b + out_row12 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row12 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row12 < m && j0 + 2u < n) {
            float v = alpha * c12_2;
            v = v + beta * ld2(c_b + out_row12 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row12 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row12 < m && j0 + 3u < n) {
            float v = alpha * c12_3;
            v = v + beta * ld2(c_b + out_row12 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row12 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row13 = row0 + 13u;
        if (out_row13 < m && j0 + 0u < n) {
            float v = alpha * c13_0;
            v = v + beta * ld2(c_b + out_row13 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row13 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row13 < m && j0 + 1u < n) {
            float v = alpha * c13_1;
            v = v + beta * ld2(c_b + out_row13 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row13 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row13 < m && j0 + 2u < n) {
            float v = alpha * c13_2;
            v = v + beta * ld2(c_b + out_row13 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row13 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row13 < m && j0 + 3u < n) {
            float v = alpha * c13_3;
            v = v + beta * ld2(c_b + out_row13 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row13 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row14 = row0 + 14u;
        if (out_row14 < m && j0 + 0u < n) {
            float v = alpha * c14_0;
            v = v + beta * ld2(c_b + out_row14 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row14 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row14 < m && j0 + 1u < n) {
            float v = alpha * c14_1;
            v = v + beta * ld2(c_b + out_row14 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row14 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row14 < m && j0 + 2u < n) {
            float v = alpha * c14_2;
            v = v + beta * ld2(c_b + out_row14 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row14 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row14 < m && j0 + 3u < n) {
            float v = alpha * c14_3;
            v = v + beta * ld2(c_b + out_row14 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row14 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row15 = row0 + 15u;
        if (out_row15 < m && j0 + 0u < n) {
            float v = alpha * c15_0;
            v = v + beta * ld2(c_b + out_row15 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row15 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row15 < m && j0 + 1u < n) {
            float v = alpha * c15_1;
            v = v + beta * ld2(c_b + out_row15 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row15 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row15 < m && j0 + 2u < n) {
            float v = alpha * c15_2;
            v = v + beta * ld2(c_b + out_row15 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row15 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row15 < m && j0 + 3u < n) {
            float v = alpha * c15_3;
            v = v + beta * ld2(c_b + out_row15 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row15 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row16 = row0 + 16u;
        if (out_row16 < m && j0 + 0u < n) {
            float v = alpha * c16_0;
            v = v + beta * ld2(c_b + out_row16 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row16 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row16 < m && j0 + 1u < n) {
            float v = alpha * c16_1;
            v = v + beta * ld2(c_b + out_row16 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row16 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row16 < m && j0 + 2u < n) {
            float v = alpha * c16_2;
            v = v + beta * ld2(c_b + out_row16 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row16 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row16 < m && j0 + 3u < n) {
            float v = alpha * c16_3;
            v = v + beta * ld2(c_b + out_row16 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row16 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row17 = row0 + 17u;
        if (out_row17 < m && j0 + 0u < n) {
            float v = alpha * c17_0;
            v = v + beta * ld2(c_b + out_row17 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row17 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row17 < m && j0 + 1u < n) {
            float v = alpha * c17_1;
            v = v + beta * ld2(c_b + out_row17 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row17 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row17 < m && j0 + 2u < n) {
            float v = alpha * c17_2;
            v = v + beta * ld2(c_b + out_row17 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row17 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row17 < m && j0 + 3u < n) {
            float v = alpha * c17_3;
            v = v + beta * ld2(c_b + out_row17 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row17 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row18 = row0 + 18u;
        if (out_row18 < m && j0 + 0u < n) {
            float v = alpha * c18_0;
            v = v + beta * ld2(c_b + out_row18 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row18 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row18 < m && j0 + 1u < n) {
            float v = alpha * c18_1;
            v = v + beta * ld2(c_b + out_row18 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row18 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row18 < m && j0 + 2u < n) {
            float v = alpha * c18_2;
            v = v + beta * ld2(c_b + out_row18 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row18 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row18 < m && j0 + 3u < n) {
            float v = alpha * c18_3;
            v = v + beta * ld2(c_b + out_row18 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row18 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row19 = row0 + 19u;
        if (out_row19 < m && j0 + 0u < n) {
            float v = alpha * c19_0;
            v = v + beta * ld2(c_b + out_row19 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row19 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row19 < m && j0 + 1u < n) {
            float v = alpha * c19_1;
            v = v + beta * ld2(c_b + out_row19 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row19 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row19 < m && j0 + 2u < n) {
            float v = alpha * c19_2;
            v = v + beta * ld2(c_b + out_row19 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row19 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row19 < m && j0 + 3u < n) {
            float v = alpha * c19_3;
            v = v + beta * ld2(c_b + out_row19 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row19 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row20 = row0 + 20u;
        if (out_row20 < m && j0 + 0u < n) {
            float v = alpha * c20_0;
            v = v + beta * ld2(c_b + out_row20 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row20 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row20 < m && j0 + 1u < n) {
            float v = alpha * c20_1;
            v = v + beta * ld2(c_b + out_row20 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row20 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row20 < m && j0 + 2u < n) {
            float v = alpha * c20_2;
            v = v + beta * ld2(c_b + out_row20 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row20 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row20 < m && j0 + 3u < n) {
            float v = alpha * c20_3;
            v = v + beta * ld2(c_b + out_row20 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row20 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row21 = row0 + 21u;
        if (out_row21 < m && j0 + 0u < n) {
            float v = alpha * c21_0;
            v = v + beta * ld2(c_b + out_row21 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row21 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row21 < m && j0 + 1u < n) {
            float v = alpha * c21_1;
            v = v + beta * ld2(c_b + out_row21 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row21 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row21 < m && j0 + 2u < n) {
            float v = alpha * c21_2;
            v = v + beta * ld2(c_b + out_row21 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row21 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row21 < m && j0 + 3u < n) {
            float v = alpha * c21_3;
            v = v + beta * ld2(c_b + out_row21 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row21 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row22 = row0 + 22u;
        if (out_row22 < m && j0 + 0u < n) {
            float v = alpha * c22_0;
            v = v + beta * ld2(c_b + out_row22 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row22 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row22 < m && j0 + 1u < n) {
            float v = alpha * c22_1;
            v = v + beta * ld2(c_b + out_row22 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row22 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row22 < m && j0 + 2u < n) {
            float v = alpha * c22_2;
            v = v + beta * ld2(c_b + out_row22 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row22 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row22 < m && j0 + 3u < n) {
            float v = alpha * c22_3;
            v = v + beta * ld2(c_b + out_row22 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row22 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row23 = row0 + 23u;
        if (out_row23 < m && j0 + 0u < n) {
            float v = alpha * c23_0;
            v = v + beta * ld2(c_b + out_row23 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row23 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row23 < m && j0 + 1u < n) {
            float v = alpha * c23_1;
            v = v + beta * ld2(c_b + out_row23 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row23 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row23 < m && j0 + 2u < n) {
            float v = alpha * c23_2;
            v = v + beta * ld2(c_b + out_row23 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row23 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row23 < m && j0 + 3u < n) {
            float v = alpha * c23_3;
            v = v + beta * ld2(c_b + out_row23 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row23 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row24 = row0 + 24u;
        if (out_row24 < m && j0 + 0u < n) {
            float v = alpha * c24_0;
            v = v + beta * ld2(c_b + out_row24 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row24 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row24 < m && j0 + 1u < n) {
            float v = alpha * c24_1;
            v = v + beta * ld2(c_b + out_row24 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row24 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row24 < m && j0 + 2u < n) {
            float v = alpha * c24_2;
            v = v + beta * ld2(c_b + out_row24 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row24 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row24 < m && j0 + 3u < n) {
            float v = alpha * c24_3;
            v = v + beta * ld2(c_b + out_row24 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row24 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row25 = row0 + 25u;
        if (out_row25 < m && j0 + 0u < n) {
            float v = alpha * c25_0;
            v = v + beta * ld2(c_b + out_row25 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row25 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row25 < m && j0 + 1u < n) {
            float v = alpha * c25_1;
            v = v + beta * ld2(c_b + out_row25 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row25 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row25 < m && j0 + 2u < n) {
            float v = alpha * c25_2;
            v = v + beta * ld2(c_b + out_row25 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row25 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row25 < m && j0 + 3u < n) {
            float v = alpha * c25_3;
            v = v + beta * ld2(c_b + out_row25 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row25 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row26 = row0 + 26u;
        if (out_row26 < m && j0 + 0u < n) {
            float v = alpha * c26_0;
            v = v + beta * ld2(c_b + out_row26 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row26 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row26 < m && j0 + 1u < n) {
            float v = alpha * c26_1;
            v = v + beta * ld2(c_b + out_row26 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row26 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row26 < m && j0 + 2u < n) {
            float v = alpha * c26_2;
            v = v + beta * ld2(c_b + out_row26 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row26 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row26 < m && j0 + 3u < n) {
            float v = alpha * c26_3;
            v = v + beta * ld2(c_b + out_row26 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row26 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row27 = row0 + 27u;
        if (out_row27 < m && j0 + 0u < n) {
            float v = alpha * c27_0;
            v = v + beta * ld2(c_b + out_row27 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row27 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row27 < m && j0 + 1u < n) {
            float v = alpha * c27_1;
            v = v + beta * ld2(c_b + out_row27 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row27 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row27 < m && j0 + 2u < n) {
            float v = alpha * c27_2;
            v = v + beta * ld2(c_b + out_row27 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row27 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row27 < m && j0 + 3u < n) {
            float v = alpha * c27_3;
            v = v + beta * ld2(c_b + out_row27 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row27 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row28 = row0 + 28u;
        if (out_row28 < m && j0 + 0u < n) {
            float v = alpha * c28_0;
            v = v + beta * ld2(c_b + out_row28 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row28 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row28 < m && j0 + 1u < n) {
            float v = alpha * c28_1;
            v = v + beta * ld2(c_b + out_row28 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row28 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row28 < m && j0 + 2u < n) {
            float v = alpha * c28_2;
            v = v + beta * ld2(c_b + out_row28 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row28 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row28 < m && j0 + 3u < n) {
            float v = alpha * c28_3;
            v = v + beta * ld2(c_b + out_row28 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row28 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row29 = row0 + 29u;
        if (out_row29 < m && j0 + 0u < n) {
            float v = alpha * c29_0;
            v = v + beta * ld2(c_b + out_row29 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row29 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row29 < m && j0 + 1u < n) {
            float v = alpha * c29_1;
            v = v + beta * ld2(c_b + out_row29 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row29 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row29 < m && j0 + 2u < n) {
            float v = alpha * c29_2;
            v = v + beta * ld2(c_b + out_row29 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row29 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row29 < m && j0 + 3u < n) {
            float v = alpha * c29_3;
            v = v + beta * ld2(c_b + out_row29 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row29 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row30 = row0 + 30u;
        if (out_row30 < m && j0 + 0u < n) {
            float v = alpha * c30_0;
            v = v + beta * ld2(c_b + out_row30 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row30 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row30 < m && j0 + 1u < n) {
            float v = alpha * c30_1;
            v = v + beta * ld2(c_b + out_row30 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row30 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row30 < m && j0 + 2u < n) {
            float v = alpha * c30_2;
            v = v + beta * ld2(c_b + out_row30 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row30 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row30 < m && j0 + 3u < n) {
            float v = alpha * c30_3;
            v = v + beta * ld2(c_b + out_row30 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row30 * o_sm + (j0 + 3u) * o_sn, v);
        }
        const u32 out_row31 = row0 + 31u;
        if (out_row31 < m && j0 + 0u < n) {
            float v = alpha * c31_0;
            v = v + beta * ld2(c_b + out_row31 * c_sm + (j0 + 0u) * c_sn);
            st3(o_b + out_row31 * o_sm + (j0 + 0u) * o_sn, v);
        }
        if (out_row31 < m && j0 + 1u < n) {
            float v = alpha * c31_1;
            v = v + beta * ld2(c_b + out_row31 * c_sm + (j0 + 1u) * c_sn);
            st3(o_b + out_row31 * o_sm + (j0 + 1u) * o_sn, v);
        }
        if (out_row31 < m && j0 + 2u < n) {
            float v = alpha * c31_2;
            v = v + beta * ld2(c_b + out_row31 * c_sm + (j0 + 2u) * c_sn);
            st3(o_b + out_row31 * o_sm + (j0 + 2u) * o_sn, v);
        }
        if (out_row31 < m && j0 + 3u < n) {
            float v = alpha * c31_3;
            v = v + beta * ld2(c_b + out_row31 * c_sm + (j0 + 3u) * c_sn);
            st3(o_b + out_row31 * o_sm + (j0 + 3u) * o_sn, v);
        }
    }
}
