var<workgroup> dims_shared: array<u32, 6>;
fn main {
    if (t == 0u) { for (var k = 0u; k < 6u; k += 1u) { dims_shared[k] = p[launch.words + k]; } }
    let dims = workgroupUniformLoad(&dims_shared);
    let m: u32 = dims[0];
    let n: u32 = dims[1];
    let tiles: u32 = dims[4] * dims[5];
    for (var g = group; g < dims[3] * tiles; g += groups) {
        let b: u32 = g / tiles;
        let row0: u32 = ((g % tiles) / dims[5]) * 32u;
        let col0: u32 = ((g % tiles) % dims[5]) * 32u;
        let k_begin: u32 = 0u;
        let k_end: u32 = dims[2];
        let o_b: u32 = p[launch.words + 14u] + b * p[launch.words + 15u] * 2u;
        let o_sm: u32 = p[launch.words + 16u] * 2u;
        let o_sn: u32 = p[launch.words + 17u] * 2u;
        let alpha: f32 = bitcast<f32>(p[launch.words + 18u]);
        let j0: u32 = col0 + t * 4u;
        let a_step: u32 = p[launch.words + 9u] * 2u;
        let b_step: u32 = p[launch.words + 12u] * 2u;
        let ra0: u32 = p[launch.words + 6u] + (b * p[launch.words + 7u] + min(row0 + 0u + t, m - 1u) * p[launch.words + 8u]) * 2u;
        let ra1: u32 = p[launch.words + 6u] + (b * p[launch.words + 7u] + min(row0 + 8u + t, m - 1u) * p[launch.words + 8u]) * 2u;
        let ra2: u32 = p[launch.words + 6u] + (b * p[launch.words + 7u] + min(row0 + 16u + t, m - 1u) * p[launch.words + 8u]) * 2u;
        let ra3: u32 = p[launch.words + 6u] + (b * p[launch.words + 7u] + min(row0 + 24u + t, m - 1u) * p[launch.words + 8u]) * 2u;
        let cb0: u32 = p[launch.words + 10u] + (b * p[launch.words + 11u] + min(j0 + 0u, n - 1u) * p[launch.words + 13u]) * 2u;
        let cb1: u32 = p[launch.words + 10u] + (b * p[launch.words + 11u] + min(j0 + 1u, n - 1u) * p[launch.words + 13u]) * 2u;
        let cb2: u32 = p[launch.words + 10u] + (b * p[launch.words + 11u] + min(j0 + 2u, n - 1u) * p[launch.words + 13u]) * 2u;
        let cb3: u32 = p[launch.words + 10u] + (b * p[launch.words + 11u] + min(j0 + 3u, n - 1u) * p[launch.words + 13u]) * 2u;
        var c0_0: f32 = bitcast<f32>(0x0u);
        var c0_1: f32 = bitcast<f32>(0x0u);
        var c0_2: f32 = bitcast<f32>(0x0u);
        var c0_3: f32 = bitcast<f32>(0x0u);
        var c1_0: f32 = bitcast<f32>(0x0u);
        var c1_1: f32 = bitcast<f32>(0x0u);
        var c1_2: f32 = bitcast<f32>(0x0u);
        var c1_3: f32 = bitcast<f32>(0x0u);
        var c2_0: f32 = bitcast<f32>(0x0u);
        var c2_1: f32 = bitcast<f32>(0x0u);
        var c2_2: f32 = bitcast<f32>(0x0u);
        var c2_3: f32 = bitcast<f32>(0x0u);
        var c3_0: f32 = bitcast<f32>(0x0u);
        var c3_1: f32 = bitcast<f32>(0x0u);
        var c3_2: f32 = bitcast<f32>(0x0u);
        var c3_3: f32 = bitcast<f32>(0x0u);
        var c4_0: f32 = bitcast<f32>(0x0u);
        var c4_1: f32 = bitcast<f32>(0x0u);
        var c4_2: f32 = bitcast<f32>(0x0u);
        var c4_3: f32 = bitcast<f32>(0x0u);
        var c5_0: f32 = bitcast<f32>(0x0u);
        var c5_1: f32 = bitcast<f32>(0x0u);
        var c5_2: f32 = bitcast<f32>(0x0u);
        var c5_3: f32 = bitcast<f32>(0x0u);
        var c6_0: f32 = bitcast<f32>(0x0u);
        var c6_1: f32 = bitcast<f32>(0x0u);
        var c6_2: f32 = bitcast<f32>(0x0u);
        var c6_3: f32 = bitcast<f32>(0x0u);
        var c7_0: f32 = bitcast<f32>(0x0u);
        var c7_1: f32 = bitcast<f32>(0x0u);
        var c7_2: f32 = bitcast<f32>(0x0u);
        var c7_3: f32 = bitcast<f32>(0x0u);
        var c8_0: f32 = bitcast<f32>(0x0u);
        var c8_1: f32 = bitcast<f32>(0x0u);
        var c8_2: f32 = bitcast<f32>(0x0u);
        var c8_3: f32 = bitcast<f32>(0x0u);
        var c9_0: f32 = bitcast<f32>(0x0u);
        var c9_1: f32 = bitcast<f32>(0x0u);
        var c9_2: f32 = bitcast<f32>(0x0u);
        var c9_3: f32 = bitcast<f32>(0x0u);
        var c10_0: f32 = bitcast<f32>(0x0u);
        var c10_1: f32 = bitcast<f32>(0x0u);
        var c10_2: f32 = bitcast<f32>(0x0u);
        var c10_3: f32 = bitcast<f32>(0x0u);
        var c11_0: f32 = bitcast<f32>(0x0u);
        var c11_1: f32 = bitcast<f32>(0x0u);
        var c11_2: f32 = bitcast<f32>(0x0u);
        var c11_3: f32 = bitcast<f32>(0x0u);
        var c12_0: f32 = bitcast<f32>(0x0u);
        var c12_1: f32 = bitcast<f32>(0x0u);
        var c12_2: f32 = bitcast<f32>(0x0u);
        var c12_3: f32 = bitcast<f32>(0x0u);
        var c13_0: f32 = bitcast<f32>(0x0u);
        var c13_1: f32 = bitcast<f32>(0x0u);
        var c13_2: f32 = bitcast<f32>(0x0u);
        var c13_3: f32 = bitcast<f32>(0x0u);
        var c14_0: f32 = bitcast<f32>(0x0u);
        var c14_1: f32 = bitcast<f32>(0x0u);
        var c14_2: f32 = bitcast<f32>(0x0u);
        var c14_3: f32 = bitcast<f32>(0x0u);
        var c15_0: f32 = bitcast<f32>(0x0u);
        var c15_1: f32 = bitcast<f32>(0x0u);
        var c15_2: f32 = bitcast<f32>(0x0u);
        var c15_3: f32 = bitcast<f32>(0x0u);
        var c16_0: f32 = bitcast<f32>(0x0u);
        var c16_1: f32 = bitcast<f32>(0x0u);
        var c16_2: f32 = bitcast<f32>(0x0u);
        var c16_3: f32 = bitcast<f32>(0x0u);
        var c17_0: f32 = bitcast<f32>(0x0u);
        var c17_1: f32 = bitcast<f32>(0x0u);
        var c17_2: f32 = bitcast<f32>(0x0u);
        var c17_3: f32 = bitcast<f32>(0x0u);
        var c18_0: f32 = bitcast<f32>(0x0u);
        var c18_1: f32 = bitcast<f32>(0x0u);
        var c18_2: f32 = bitcast<f32>(0x0u);
        var c18_3: f32 = bitcast<f32>(0x0u);
        var c19_0: f32 = bitcast<f32>(0x0u);
        var c19_1: f32 = bitcast<f32>(0x0u);
        var c19_2: f32 = bitcast<f32>(0x0u);
        var c19_3: f32 = bitcast<f32>(0x0u);
        var c20_0: f32 = bitcast<f32>(0x0u);
        var c20_1: f32 = bitcast<f32>(0x0u);
        var c20_2: f32 = bitcast<f32>(0x0u);
        var c20_3: f32 = bitcast<f32>(0x0u);
        var c21_0: f32 = bitcast<f32>(0x0u);
        var c21_1: f32 = bitcast<f32>(0x0u);
        var c21_2: f32 = bitcast<f32>(0x0u);
        var c21_3: f32 = bitcast<f32>(0x0u);
        var c22_0: f32 = bitcast<f32>(0x0u);
        var c22_1: f32 = bitcast<f32>(0x0u);
        var c22_2: f32 = bitcast<f32>(0x0u);
        var c22_3: f32 = bitcast<f32>(0x0u);
        var c23_0: f32 = bitcast<f32>(0x0u);
        var c23_1: f32 = bitcast<f32>(0x0u);
        var c23_2: f32 = bitcast<f32>(0x0u);
        var c23_3: f32 = bitcast<f32>(0x0u);
        var c24_0: f32 = bitcast<f32>(0x0u);
        var c24_1: f32 = bitcast<f32>(0x0u);
        var c24_2: f32 = bitcast<f32>(0x0u);
        var c24_3: f32 = bitcast<f32>(0x0u);
        var c25_0: f32 = bitcast<f32>(0x0u);
        var c25_1: f32 = bitcast<f32>(0x0u);
        var c25_2: f32 = bitcast<f32>(0x0u);
        var c25_3: f32 = bitcast<f32>(0x0u);
        var c26_0: f32 = bitcast<f32>(0x0u);
        var c26_1: f32 = bitcast<f32>(0x0u);
        var c26_2: f32 = bitcast<f32>(0x0u);
        var c26_3: f32 = bitcast<f32>(0x0u);
        var c27_0: f32 = bitcast<f32>(0x0u);
        var c27_1: f32 = bitcast<f32>(0x0u);
        var c27_2: f32 = bitcast<f32>(0x0u);
        var c27_3: f32 = bitcast<f32>(0x0u);
        var c28_0: f32 = bitcast<f32>(0x0u);
        var c28_1: f32 = bitcast<f32>(0x0u);
        var c28_2: f32 = bitcast<f32>(0x0u);
        var c28_3: f32 = bitcast<f32>(0x0u);
        var c29_0: f32 = bitcast<f32>(0x0u);
        var c29_1: f32 = bitcast<f32>(0x0u);
        var c29_2: f32 = bitcast<f32>(0x0u);
        var c29_3: f32 = bitcast<f32>(0x0u);
        var c30_0: f32 = bitcast<f32>(0x0u);
        var c30_1: f32 = bitcast<f32>(0x0u);
        var c30_2: f32 = bitcast<f32>(0x0u);
        var c30_3: f32 = bitcast<f32>(0x0u);
        var c31_0: f32 = bitcast<f32>(0x0u);
        var c31_1: f32 = bitcast<f32>(0x0u);
        var c31_2: f32 = bitcast<f32>(0x0u);
        var c31_3: f32 = bitcast<f32>(0x0u);
        let k_fours: u32 = k_begin + ((k_end - k_begin) & ~3u);
        for (var kk = k_begin; kk < k_fours; kk += 4u) {
            let va0_0: f32 = ld0(ra0 + (kk + 0u) * a_step);
            let va0_1: f32 = ld0(ra0 + (kk + 1u) * a_step);
            let va0_2: f32 = ld0(ra0 + (kk + 2u) * a_step);
            let va0_3: f32 = ld0(ra0 + (kk + 3u) * a_step);
            let va1_0: f32 = ld0(ra1 + (kk + 0u) * a_step);
            let va1_1: f32 = ld0(ra1 + (kk + 1u) * a_step);
            let va1_2: f32 = ld0(ra1 + (kk + 2u) * a_step);
            let va1_3: f32 = ld0(ra1 + (kk + 3u) * a_step);
            let va2_0: f32 = ld0(ra2 + (kk + 0u) * a_step);
            let va2_1: f32 = ld0(ra2 + (kk + 1u) * a_step);
            let va2_2: f32 = ld0(ra2 + (kk + 2u) * a_step);
            let va2_3: f32 = ld0(ra2 + (kk + 3u) * a_step);
            let va3_0: f32 = ld0(ra3 + (kk + 0u) * a_step);
            let va3_1: f32 = ld0(ra3 + (kk + 1u) * a_step);
            let va3_2: f32 = ld0(ra3 + (kk + 2u) * a_step);
            let va3_3: f32 = ld0(ra3 + (kk + 3u) * a_step);
            let b0_0: f32 = ld1(cb0 + (kk + 0u) * b_step);
            let b0_1: f32 = ld1(cb1 + (kk + 0u) * b_step);
            let b0_2: f32 = ld1(cb2 + (kk + 0u) * b_step);
            let b0_3: f32 = ld1(cb3 + (kk + 0u) * b_step);
            let b1_0: f32 = ld1(cb0 + (kk + 1u) * b_step);
            let b1_1: f32 = ld1(cb1 + (kk + 1u) * b_step);
            let b1_2: f32 = ld1(cb2 + (kk + 1u) * b_step);
            let b1_3: f32 = ld1(cb3 + (kk + 1u) * b_step);
            let b2_0: f32 = ld1(cb0 + (kk + 2u) * b_step);
            let b2_1: f32 = ld1(cb1 + (kk + 2u) * b_step);
            let b2_2: f32 = ld1(cb2 + (kk + 2u) * b_step);
            let b2_3: f32 = ld1(cb3 + (kk + 2u) * b_step);
            let b3_0: f32 = ld1(cb0 + (kk + 3u) * b_step);
            let b3_1: f32 = ld1(cb1 + (kk + 3u) * b_step);
            let b3_2: f32 = ld1(cb2 + (kk + 3u) * b_step);
            let b3_3: f32 = ld1(cb3 + (kk + 3u) * b_step);
            let a0_0: f32 = subgroupBroadcast(va0_0, 0u);
            let a0_1: f32 = subgroupBroadcast(va0_1, 0u);
            let a0_2: f32 = subgroupBroadcast(va0_2, 0u);
            let a0_3: f32 = subgroupBroadcast(va0_3, 0u);
            c0_0 = c0_0 + (a0_0 * b0_0 + a0_1 * b1_0 + a0_2 * b2_0 + a0_3 * b3_0);
            c0_1 = c0_1 + (a0_0 * b0_1 + a0_1 * b1_1 + a0_2 * b2_1 + a0_3 * b3_1);
            c0_2 = c0_2 + (a0_0 * b0_2 + a0_1 * b1_2 + a0_2 * b2_2 + a0_3 * b3_2);
            c0_3 = c0_3 + (a0_0 * b0_3 + a0_1 * b1_3 + a0_2 * b2_3 + a0_3 * b3_3);
            let a1_0: f32 = subgroupBroadcast(va0_0, 1u);
            let a1_1: f32 = subgroupBroadcast(va0_1, 1u);
            let a1_2: f32 = subgroupBroadcast(va0_2, 1u);
            let a1_3: f32 = subgroupBroadcast(va0_3, 1u);
            c1_0 = c1_0 + (a1_0 * b0_0 + a1_1 * b1_0 + a1_2 * b2_0 + a1_3 * b3_0);
            c1_1 = c1_1 + (a1_0 * b0_1 + a1_1 * b1_1 + a1_2 * b2_1 + a1_3 * b3_1);
            c1_2 = c1_2 + (a1_0 * b0_2 + a1_1 * b1_2 + a1_2 * b2_2 + a1_3 * b3_2);
            c1_3 = c1_3 + (a1_0 * b0_3 + a1_1 * b1_3 + a1_2 * b2_3 + a1_3 * b3_3);
            let a2_0: f32 = subgroupBroadcast(va0_0, 2u);
            let a2_1: f32 = subgroupBroadcast(va0_1, 2u);
            let a2_2: f32 = subgroupBroadcast(va0_2, 2u);
            let a2_3: f32 = subgroupBroadcast(va0_3, 2u);
            c2_0 = c2_0 + (a2_0 * b0_0 + a2_1 * b1_0 + a2_2 * b2_0 + a2_3 * b3_0);
            c2_1 = c2_1 + (a2_0 * b0_1 + a2_1 * b1_1 + a2_2 * b2_1 + a2_3 * b3_1);
            c2_2 = c2_2 + (a2_0 * b0_2 + a2_1 * b1_2 + a2_2 * b2_2 + a2_3 * b3_2);
            c2_3 = c2_3 + (a2_0 * b0_3 + a2_1 * b1_3 + a2_2 * b2_3 + a2_3 * b3_3);
            let a3_0: f32 = subgroupBroadcast(va0_0, 3u);
            let a3_1: f32 = subgroupBroadcast(va0_1, 3u);
            let a3_2: f32 = subgroupBroadcast(va0_2, 3u);
            let a3_3: f32 = subgroupBroadcast(va0_3, 3u);
            c3_0 = c3_0 + (a3_0 * b0_0 + a3_1 * b1_0 + a3_2 * b2_0 + a3_3 * b3_0);
            c3_1 = c3_1 + (a3_0 * b0_1 + a3_1 * b1_1 + a3_2 * b2_1 + a3_3 * b3_1);
            c3_2 = c3_2 + (a3_0 * b0_2 + a3_1 * b1_2 + a3_2 * b2_2 + a3_3 * b3_2);
            c3_3 = c3_3 + (a3_0 * b0_3 + a3_1 * b1_3 + a3_2 * b2_3 + a3_3 * b3_3);
            let a4_0: f32 = subgroupBroadcast(va0_0, 4u);
            let a4_1: f32 = subgroupBroadcast(va0_1, 4u);
            let a4_2: f32 = subgroupBroadcast(va0_2, 4u);
            let a4_3: f32 = subgroupBroadcast(va0_3, 4u);
            c4_0 = c4_0 + (a4_0 * b0_0 + a4_1 * b1_0 + a4_2 * b2_0 + a4_3 * b3_0);
            c4_1 = c4_1 + (a4_0 * b0_1 + a4_1 * b1_1 + a4_2 * b2_1 + a4_3 * b3_1);
            c4_2 = c4_2 + (a4_0 * b0_2 + a4_1 * b1_2 + a4_2 * b2_2 + a4_3 * b3_2);
            c4_3 = c4_3 + (a4_0 * b0_3 + a4_1 * b1_3 + a4_2 * b2_3 + a4_3 * b3_3);
            let a5_0: f32 = subgroupBroadcast(va0_0, 5u);
            let a5_1: f32 = subgroupBroadcast(va0_1, 5u);
            let a5_2: f32 = subgroupBroadcast(va0_2, 5u);
            let a5_3: f32 = subgroupBroadcast(va0_3, 5u);
            c5_0 = c5_0 + (a5_0 * b0_0 + a5_1 * b1_0 + a5_2 * b2_0 + a5_3 * b3_0);
            c5_1 = c5_1 + (a5_0 * b0_1 + a5_1 * b1_1 + a5_2 * b2_1 + a5_3 * b3_1);
            c5_2 = c5_2 + (a5_0 * b0_2 + a5_1 * b1_2 + a5_2 * b2_2 + a5_3 * b3_2);
            c5_3 = c5_3 + (a5_0 * b0_3 + a5_1 * b1_3 + a5_2 * b2_3 + a5_3 * b3_3);
            let a6_0: f32 = subgroupBroadcast(va0_0, 6u);
            let a6_1: f32 = subgroupBroadcast(va0_1, 6u);
            let a6_2: f32 = subgroupBroadcast(va0_2, 6u);
            let a6_3: f32 = subgroupBroadcast(va0_3, 6u);
            c6_0 = c6_0 + (a6_0 * b0_0 + a6_1 * b1_0 + a6_2 * b2_0 + a6_3 * b3_0);
            c6_1 = c6_1 + (a6_0 * b0_1 + a6_1 * b1_1 + a6_2 * b2_1 + a6_3 * b3_1);
            c6_2 = c6_2 + (a6_0 * b0_2 + a6_1 * b1_2 + a6_2 * b2_2 + a6_3 * b3_2);
            c6_3 = c6_3 + (a6_0 * b0_3 + a6_1 * b1_3 + a6_2 * b2_3 + a6_3 * b3_3);
            let a7_0: f32 = subgroupBroadcast(va0_0, 7u);
            let a7_1: f32 = subgroupBroadcast(va0_1, 7u);
            let a7_2: f32 = subgroupBroadcast(va0_2, 7u);
            let a7_3: f32 = subgroupBroadcast(va0_3, 7u);
            c7_0 = c7_0 + (a7_0 * b0_0 + a7_1 * b1_0 + a7_2 * b2_0 + a7_3 * b3_0);
            c7_1 = c7_1 + (a7_0 * b0_1 + a7_1 * b1_1 + a7_2 * b2_1 + a7_3 * b3_1);
            c7_2 = c7_2 + (a7_0 * b0_2 + a7_1 * b1_2 + a7_2 * b2_2 + a7_3 * b3_2);
            c7_3 = c7_3 + (a7_0 * b0_3 + a7_1 * b1_3 + a7_2 * b2_3 + a7_3 * b3_3);
            let a8_0: f32 = subgroupBroadcast(va1_0, 0u);
            let a8_1: f32 = subgroupBroadcast(va1_1, 0u);
            let a8_2: f32 = subgroupBroadcast(va1_2, 0u);
            let a8_3: f32 = subgroupBroadcast(va1_3, 0u);
            c8_0 = c8_0 + (a8_0 * b0_0 + a8_1 * b1_0 + a8_2 * b2_0 + a8_3 * b3_0);
            c8_1 = c8_1 + (a8_0 * b0_1 + a8_1 * b1_1 + a8_2 * b2_1 + a8_3 * b3_1);
            c8_2 = c8_2 + (a8_0 * b0_2 + a8_1 * b1_2 + a8_2 * b2_2 + a8_3 * b3_2);
            c8_3 = c8_3 + (a8_0 * b0_3 + a8_1 * b1_3 + a8_2 * b2_3 + a8_3 * b3_3);
            let a9_0: f32 = subgroupBroadcast(va1_0, 1u);
            let a9_1: f32 = subgroupBroadcast(va1_1, 1u);
            let a9_2: f32 = subgroupBroadcast(va1_2, 1u);
            let a9_3: f32 = subgroupBroadcast(va1_3, 1u);
            c9_0 = c9_0 + (a9_0 * b0_0 + a9_1 * b1_0 + a9_2 * b2_0 + a9_3 * b3_0);
            c9_1 = c9_1 + (a9_0 * b0_1 + a9_1 * b1_1 + a9_2 * b2_1 + a9_3 * b3_1);
            c9_2 = c9_2 + (a9_0 * b0_2 + a9_1 * b1_2 + a9_2 * b2_2 + a9_3 * b3_2);
            c9_3 = c9_3 + (a9_0 * b0_3 + a9_1 * b1_3 + a9_2 * b2_3 + a9_3 * b3_3);
            let a10_0: f32 = subgroupBroadcast(va1_0, 2u);
            let a10_1: f32 = subgroupBroadcast(va1_1, 2u);
            let a10_2: f32 = subgroupBroadcast(va1_2, 2u);
            let a10_3: f32 = subgroupBroadcast(va1_3, 2u);
            c10_0 = c10_0 + (a10_0 * b0_0 + a10_1 * b1_0 + a10_2 * b2_0 + a10_3 * b3_0);
            c10_1 = c10_1 + (a10_0 * b0_1 + a10_1 * b1_1 + a10_2 * b2_1 + a10_3 * b3_1);
            c10_2 = c10_2 + (a10_0 * b0_2 + a10_1 * b1_2 + a10_2 * b2_2 + a10_3 * b3_2);
            c10_3 = c10_3 + (a10_0 * b0_3 + a10_1 * b1_3 + a10_2 * b2_3 + a10_3 * b3_3);
            let a11_0: f32 = subgroupBroadcast(va1_0, 3u);
            let a11_1: f32 = subgroupBroadcast(va1_1, 3u);
            let a11_2: f32 = subgroupBroadcast(va1_2, 3u);
            let a11_3: f32 = subgroupBroadcast(va1_3, 3u);
            c11_0 = c11_0 + (a11_0 * b0_0 + a11_1 * b1_0 + a11_2 * b2_0 + a11_3 * b3_0);
            c11_1 = c11_1 + (a11_0 * b0_1 + a11_1 * b1_1 + a11_2 * b2_1 + a11_3 * b3_1);
            c11_2 = c11_2 + (a11_0 * b0_2 + a11_1 * b1_2 + a11_2 * b2_2 + a11_3 * b3_2);
            c11_3 = c11_3 + (a11_0 * b0_3 + a11_1 * b1_3 + a11_2 * b2_3 + a11_3 * b3_3);
            let a12_0: f32 = subgroupBroadcast(va1_0, 4u);
            let a12_1: f32 = subgroupBroadcast(va1_1, 4u);
            let a12_2: f32 = subgroupBroadcast(va1_2, 4u);
            let a12_3: f32 = subgroupBroadcast(va1_3, 4u);
            c12_0 = c12_0 + (a12_0 * b0_0 + a12_1 * b1_0 + a12_2 * b2_0 + a12_3 * b3_0);
            c12_1 = c12_1 + (a12_0 * b0_1 + a12_1 * b1_1 + a12_2 * b2_1 + a12_3 * b3_1);
            c12_2 = c12_2 + (a12_0 * b0_2 + a12_1 * b1_2 + a12_2 * b2_2 + a12_3 * b3_2);
            c12_3 = c12_3 + (a12_0 * b0_3 + a12_1 * b1_3 + a12_2 * b2_3 + a12_3 * b3_3);
            let a13_0: f32 = subgroupBroadcast(va1_0, 5u);
            let a13_1: f32 = subgroupBroadcast(va1_1, 5u);
            let a13_2: f32 = subgroupBroadcast(va1_2, 5u);
            let a13_3: f32 = subgroupBroadcast(va1_3, 5u);
            c13_0 = c13_0 + (a13_0 * b0_0 + a13_1 * b1_0 + a13_2 * b2_0 + a13_3 * b3_0);
            c13_1 = c13_1 + (a13_0 * b0_1 + a13_1 * b1_1 + a13_2 * b2_1 + a13_3 * b3_1);
            c13_2 = c13_2 + (a13_0 * b0_2 + a13_1 * b1_2 + a13_2 * b2_2 + a13_3 * b3_2);
            c13_3 = c13_3 + (a13_0 * b0_3 + a13_1 * b1_3 + a13_2 * b2_3 + a13_3 * b3_3);
            let a14_0: f32 = subgroupBroadcast(va1_0, 6u);
            let a14_1: f32 = subgroupBroadcast(va1_1, 6u);
            let a14_2: f32 = subgroupBroadcast(va1_2, 6u);
            let a14_3: f32 = subgroupBroadcast(va1_3, 6u);
            c14_0 = c14_0 + (a14_0 * b0_0 + a14_1 * b1_0 + a14_2 * b2_0 + a14_3 * b3_0);
            c14_1 = c14_1 + (a14_0 * b0_1 + a14_1 * b1_1 + a14_2 * b2_1 + a14_3 * b3_1);
            c14_2 = c14_2 + (a14_0 * b0_2 + a14_1 * b1_2 + a14_2 * b2_2 + a14_3 * b3_2);
            c14_3 = c14_3 + (a14_0 * b0_3 + a14_1 * b1_3 + a14_2 * b2_3 + a14_3 * b3_3);
            let a15_0: f32 = subgroupBroadcast(va1_0, 7u);
            let a15_1: f32 = subgroupBroadcast(va1_1, 7u);
            let a15_2: f32 = subgroupBroadcast(va1_2, 7u);
            let a15_3: f32 = subgroupBroadcast(va1_3, 7u);
            c15_0 = c15_0 + (a15_0 * b0_0 + a15_1 * b1_0 + a15_2 * b2_0 + a15_3 * b3_0);
            c15_1 = c15_1 + (a15_0 * b0_1 + a15_1 * b1_1 + a15_2 * b2_1 + a15_3 * b3_1);
            c15_2 = c15_2 + (a15_0 * b0_2 + a15_1 * b1_2 + a15_2 * b2_2 + a15_3 * b3_2);
            c15_3 = c15_3 + (a15_0 * b0_3 + a15_1 * b1_3 + a15_2 * b2_3 + a15_3 * b3_3);
            let a16_0: f32 = subgroupBroadcast(va2_0, 0u);
            let a16_1: f32 = subgroupBroadcast(va2_1, 0u);
            let a16_2: f32 = subgroupBroadcast(va2_2, 0u);
            let a16_3: f32 = subgroupBroadcast(va2_3, 0u);
            c16_0 = c16_0 + (a16_0 * b0_0 + a16_1 * b1_0 + a16_2 * b2_0 + a16_3 * b3_0);
            c16_1 = c16_1 + (a16_0 * b0_1 + a16_1 * b1_1 + a16_2 * b2_1 + a16_3 * b3_1);
            c16_2 = c16_2 + (a16_0 * b0_2 + a16_1 * b1_2 + a16_2 * b2_2 + a16_3 * b3_2);
            c16_3 = c16_3 + (a16_0 * b0_3 + a16_1 * b1_3 + a16_2 * b2_3 + a16_3 * b3_3);
            let a17_0: f32 = subgroupBroadcast(va2_0, 1u);
            let a17_1: f32 = subgroupBroadcast(va2_1, 1u);
            let a17_2: f32 = subgroupBroadcast(va2_2, 1u);
            let a17_3: f32 = subgroupBroadcast(va2_3, 1u);
            c17_0 = c17_0 + (a17_0 * b0_0 + a17_1 * b1_0 + a17_2 * b2_0 + a17_3 * b3_0);
            c17_1 = c17_1 + (a17_0 * b0_1 + a17_1 * b1_1 + a17_2 * b2_1 + a17_3 * b3_1);
            c17_2 = c17_2 + (a17_0 * b0_2 + a17_1 * b1_2 + a17_2 * b2_2 + a17_3 * b3_2);
            c17_3 = c17_3 + (a17_0 * b0_3 + a17_1 * b1_3 + a17_2 * b2_3 + a17_3 * b3_3);
            let a18_0: f32 = subgroupBroadcast(va2_0, 2u);
            let a18_1: f32 = subgroupBroadcast(va2_1, 2u);
            let a18_2: f32 = subgroupBroadcast(va2_2, 2u);
            let a18_3: f32 = subgroupBroadcast(va2_3, 2u);
            c18_0 = c18_0 + (a18_0 * b0_0 + a18_1 * b1_0 + a18_2 * b2_0 + a18_3 * b3_0);
            c18_1 = c18_1 + (a18_0 * b0_1 + a18_1 * b1_1 + a18_2 * b2_1 + a18_3 * b3_1);
            c18_2 = c18_2 + (a18_0 * b0_2 + a18_1 * b1_2 + a18_2 * b2_2 + a18_3 * b3_2);
            c18_3 = c18_3 + (a18_0 * b0_3 + a18_1 * b1_3 + a18_2 * b2_3 + a18_3 * b3_3);
            let a19_0: f32 = subgroupBroadcast(va2_0, 3u);
            let a19_1: f32 = subgroupBroadcast(va2_1, 3u);
            let a19_2: f32 = subgroupBroadcast(va2_2, 3u);
            let a19_3: f32 = subgroupBroadcast(va2_3, 3u);
            c19_0 = c19_0 + (a19_0 * b0_0 + a19_1 * b1_0 + a19_2 * b2_0 + a19_3 * b3_0);
            c19_1 = c19_1 + (a19_0 * b0_1 + a19_1 * b1_1 + a19_2 * b2_1 + a19_3 * b3_1);
            c19_2 = c19_2 + (a19_0 * b0_2 + a19_1 * b1_2 + a19_2 * b2_2 + a19_3 * b3_2);
            c19_3 = c19_3 + (a19_0 * b0_3 + a19_1 * b1_3 + a19_2 * b2_3 + a19_3 * b3_3);
            let a20_0: f32 = subgroupBroadcast(va2_0, 4u);
            let a20_1: f32 = subgroupBroadcast(va2_1, 4u);
            let a20_2: f32 = subgroupBroadcast(va2_2, 4u);
            let a20_3: f32 = subgroupBroadcast(va2_3, 4u);
            c20_0 = c20_0 + (a20_0 * b0_0 + a20_1 * b1_0 + a20_2 * b2_0 + a20_3 * b3_0);
            c20_1 = c20_1 + (a20_0 * b0_1 + a20_1 * b1_1 + a20_2 * b2_1 + a20_3 * b3_1);
            c20_2 = c20_2 + (a20_0 * b0_2 + a20_1 * b1_2 + a20_2 * b2_2 + a20_3 * b3_2);
            c20_3 = c20_3 + (a20_0 * b0_3 + a20_1 * b1_3 + a20_2 * b2_3 + a20_3 * b3_3);
            let a21_0: f32 = subgroupBroadcast(va2_0, 5u);
            let a21_1: f32 = subgroupBroadcast(va2_1, 5u);
            let a21_2: f32 = subgroupBroadcast(va2_2, 5u);
            let a21_3: f32 = subgroupBroadcast(va2_3, 5u);
            c21_0 = c21_0 + (a21_0 * b0_0 + a21_1 * b1_0 + a21_2 * b2_0 + a21_3 * b3_0);
            c21_1 = c21_1 + (a21_0 * b0_1 + a21_1 * b1_1 + a21_2 * b2_1 + a21_3 * b3_1);
            c21_2 = c21_2 + (a21_0 * b0_2 + a21_1 * b1_2 + a21_2 * b2_2 + a21_3 * b3_2);
            c21_3 = c21_3 + (a21_0 * b0_3 + a21_1 * b1_3 + a21_2 * b2_3 + a21_3 * b3_3);
            let a22_0: f32 = subgroupBroadcast(va2_0, 6u);
            let a22_1: f32 = subgroupBroadcast(va2_1, 6u);
            let a22_2: f32 = subgroupBroadcast(va2_2, 6u);
            let a22_3: f32 = subgroupBroadcast(va2_3, 6u);
            c22_0 = c22_0 + (a22_0 * b0_0 + a22_1 * b1_0 + a22_2 * b2_0 + a22_3 * b3_0);
            c22_1 = c22_1 + (a22_0 * b0_1 + a22_1 * b1_1 + a22_2 * b2_1 + a22_3 * b3_1);
            c22_2 = c22_2 + (a22_0 * b0_2 + a22_1 * b1_2 + a22_2 * b2_2 + a22_3 * b3_2);
            c22_3 = c22_3 + (a22_0 * b0_3 + a22_1 * b1_3 + a22_2 * b2_3 + a22_3 * b3_3);
            let a23_0: f32 = subgroupBroadcast(va2_0, 7u);
            let a23_1: f32 = subgroupBroadcast(va2_1, 7u);
            let a23_2: f32 = subgroupBroadcast(va2_2, 7u);
            let a23_3: f32 = subgroupBroadcast(va2_3, 7u);
            c23_0 = c23_0 + (a23_0 * b0_0 + a23_1 * b1_0 + a23_2 * b2_0 + a23_3 * b3_0);
            c23_1 = c23_1 + (a23_0 * b0_1 + a23_1 * b1_1 + a23_2 * b2_1 + a23_3 * b3_1);
            c23_2 = c23_2 + (a23_0 * b0_2 + a23_1 * b1_2 + a23_2 * b2_2 + a23_3 * b3_2);
            c23_3 = c23_3 + (a23_0 * b0_3 + a23_1 * b1_3 + a23_2 * b2_3 + a23_3 * b3_3);
            let a24_0: f32 = subgroupBroadcast(va3_0, 0u);
            let a24_1: f32 = subgroupBroadcast(va3_1, 0u);
            let a24_2: f32 = subgroupBroadcast(va3_2, 0u);
            let a24_3: f32 = subgroupBroadcast(va3_3, 0u);
            c24_0 = c24_0 + (a24_0 * b0_0 + a24_1 * b1_0 + a24_2 * b2_0 + a24_3 * b3_0);
            c24_1 = c24_1 + (a24_0 * b0_1 + a24_1 * b1_1 + a24_2 * b2_1 + a24_3 * b3_1);
            c24_2 = c24_2 + (a24_0 * b0_2 + a24_1 * b1_2 + a24_2 * b2_2 + a24_3 * b3_2);
            c24_3 = c24_3 + (a24_0 * b0_3 + a24_1 * b1_3 + a24_2 * b2_3 + a24_3 * b3_3);
            let a25_0: f32 = subgroupBroadcast(va3_0, 1u);
            let a25_1: f32 = subgroupBroadcast(va3_1, 1u);
            let a25_2: f32 = subgroupBroadcast(va3_2, 1u);
            let a25_3: f32 = subgroupBroadcast(va3_3, 1u);
            c25_0 = c25_0 + (a25_0 * b0_0 + a25_1 * b1_0 + a25_2 * b2_0 + a25_3 * b3_0);
            c25_1 = c25_1 + (a25_0 * b0_1 + a25_1 * b1_1 + a25_2 * b2_1 + a25_3 * b3_1);
            c25_2 = c25_2 + (a25_0 * b0_2 + a25_1 * b1_2 + a25_2 * b2_2 + a25_3 * b3_2);
            c25_3 = c25_3 + (a25_0 * b0_3 + a25_1 * b1_3 + a25_2 * b2_3 + a25_3 * b3_3);
            let a26_0: f32 = subgroupBroadcast(va3_0, 2u);
            let a26_1: f32 = subgroupBroadcast(va3_1, 2u);
            let a26_2: f32 = subgroupBroadcast(va3_2, 2u);
            let a26_3: f32 = subgroupBroadcast(va3_3, 2u);
            c26_0 = c26_0 + (a26_0 * b0_0 + a26_1 * b1_0 + a26_2 * b2_0 + a26_3 * b3_0);
            c26_1 = c26_1 + (a26_0 * b0_1 + a26_1 * b1_1 + a26_2 * b2_1 + a26_3 * b3_1);
            c26_2 = c26_2 + (a26_0 * b0_2 + a26_1 * b1_2 + a26_2 * b2_2 + a26_3 * b3_2);
            c26_3 = c26_3 + (a26_0 * b0_3 + a26_1 * b1_3 + a26_2 * b2_3 + a26_3 * b3_3);
            let a27_0: f32 = subgroupBroadcast(va3_0, 3u);
            let a27_1: f32 = subgroupBroadcast(va3_1, 3u);
            let a27_2: f32 = subgroupBroadcast(va3_2, 3u);
            let a27_3: f32 = subgroupBroadcast(va3_3, 3u);
            c27_0 = c27_0 + (a27_0 * b0_0 + a27_1 * b1_0 + a27_2 * b2_0 + a27_3 * b3_0);
            c27_1 = c27_1 + (a27_0 * b0_1 + a27_1 * b1_1 + a27_2 * b2_1 + a27_3 * b3_1);
            c27_2 = c27_2 + (a27_0 * b0_2 + a27_1 * b1_2 + a27_2 * b2_2 + a27_3 * b3_2);
            c27_3 = c27_3 + (a27_0 * b0_3 + a27_1 * b1_3 + a27_2 * b2_3 + a27_3 * b3_3);
            let a28_0: f32 = subgroupBroadcast(va3_0, 4u);
            let a28_1: f32 = subgroupBroadcast(va3_1, 4u);
            let a28_2: f32 = subgroupBroadcast(va3_2, 4u);
            let a28_3: f32 = subgroupBroadcast(va3_3, 4u);
            c28_0 = c28_0 + (a28_0 * b0_0 + a28_1 * b1_0 + a28_2 * b2_0 + a28_3 * b3_0);
            c28_1 = c28_1 + (a28_0 * b0_1 + a28_1 * b1_1 + a28_2 * b2_1 + a28_3 * b3_1);
            c28_2 = c28_2 + (a28_0 * b0_2 + a28_1 * b1_2 + a28_2 * b2_2 + a28_3 * b3_2);
            c28_3 = c28_3 + (a28_0 * b0_3 + a28_1 * b1_3 + a28_2 * b2_3 + a28_3 * b3_3);
            let a29_0: f32 = subgroupBroadcast(va3_0, 5u);
            let a29_1: f32 = subgroupBroadcast(va3_1, 5u);
            let a29_2: f32 = subgroupBroadcast(va3_2, 5u);
            let a29_3: f32 = subgroupBroadcast(va3_3, 5u);
            c29_0 = c29_0 + (a29_0 * b0_0 + a29_1 * b1_0 + a29_2 * b2_0 + a29_3 * b3_0);
            c29_1 = c29_1 + (a29_0 * b0_1 + a29_1 * b1_1 + a29_2 * b2_1 + a29_3 * b3_1);
            c29_2 = c29_2 + (a29_0 * b0_2 + a29_1 * b1_2 + a29_2 * b2_2 + a29_3 * b3_2);
            c29_3 = c29_3 + (a29_0 * b0_3 + a29_1 * b1_3 + a29_2 * b2_3 + a29_3 * b3_3);
            let a30_0: f32 = subgroupBroadcast(va3_0, 6u);
            let a30_1: f32 = subgroupBroadcast(va3_1, 6u);
            let a30_2: f32 = subgroupBroadcast(va3_2, 6u);
            let a30_3: f32 = subgroupBroadcast(va3_3, 6u);
            c30_0 = c30_0 + (a30_0 * b0_0 + a30_1 * b1_0 + a30_2 * b2_0 + a30_3 * b3_0);
            c30_1 = c30_1 + (a30_0 * b0_1 + a30_1 * b1_1 + a30_2 * b2_1 + a30_3 * b3_1);
            c30_2 = c30_2 + (a30_0 * b0_2 + a30_1 * b1_2 + a30_2 * b2_2 + a30_3 * b3_2);
            c30_3 = c30_3 + (a30_0 * b0_3 + a30_1 * b1_3 + a30_2 * b2_3 + a30_3 * b3_3);
            let a31_0: f32 = subgroupBroadcast(va3_0, 7u);
            let a31_1: f32 = subgroupBroadcast(va3_1, 7u);
            let a31_2: f32 = subgroupBroadcast(va3_2, 7u);
            let a31_3: f32 = subgroupBroadcast(va3_3, 7u);
            c31_0 = c31_0 + (a31_0 * b0_0 + a31_1 * b1_0 + a31_2 * b2_0 + a31_3 * b3_0);
            c31_1 = c31_1 + (a31_0 * b0_1 + a31_1 * b1_1 + a31_2 * b2_1 + a31_3 * b3_1);
            c31_2 = c31_2 + (a31_0 * b0_2 + a31_1 * b1_2 + a31_2 * b2_2 + a31_3 * b3_2);
            c31_3 = c31_3 + (a31_0 * b0_3 + a31_1 * b1_3 + a31_2 * b2_3 + a31_3 * b3_3);
        }
        for (var kk = k_fours; kk < k_end; kk += 1u) {
            let va0_0: f32 = ld0(ra0 + (kk + 0u) * a_step);
            let va1_0: f32 = ld0(ra1 + (kk + 0u) * a_step);
            let va2_0: f32 = ld0(ra2 + (kk + 0u) * a_step);
            let va3_0: f32 = ld0(ra3 + (kk + 0u) * a_step);
            let b0_0: f32 = ld1(cb0 + (kk + 0u) * b_step);
            let b0_1: f32 = ld1(cb1 + (kk + 0u) * b_step);
            let b0_2: f32 = ld1(cb2 + (kk + 0u) * b_step);
            let b0_3: f32 = ld1(cb3 + (kk + 0u) * b_step);
            let a0_0: f32 = subgroupBroadcast(va0_0, 0u);
            c0_0 = c0_0 + (a0_0 * b0_0);
            c0_1 = c0_1 + (a0_0 * b0_1);
            c0_2 = c0_2 + (a0_0 * b0_2);
            c0_3 = c0_3 + (a0_0 * b0_3);
            let a1_0: f32 = subgroupBroadcast(va0_0, 1u);
            c1_0 = c1_0 + (a1_0 * b0_0);
            c1_1 = c1_1 + (a1_0 * b0_1);
            c1_2 = c1_2 + (a1_0 * b0_2);
            c1_3 = c1_3 + (a1_0 * b0_3);
            let a2_0: f32 = subgroupBroadcast(va0_0, 2u);
            c2_0 = c2_0 + (a2_0 * b0_0);
            c2_1 = c2_1 + (a2_0 * b0_1);
            c2_2 = c2_2 + (a2_0 * b0_2);
            c2_3 = c2_3 + (a2_0 * b0_3);
            let a3_0: f32 = subgroupBroadcast(va0_0, 3u);
            c3_0 = c3_0 + (a3_0 * b0_0);
            c3_1 = c3_1 + (a3_0 * b0_1);
            c3_2 = c3_2 + (a3_0 * b0_2);
            c3_3 = c3_3 + (a3_0 * b0_3);
            let a4_0: f32 = subgroupBroadcast(va0_0, 4u);
            c4_0 = c4_0 + (a4_0 * b0_0);
            c4_1 = c4_1 + (a4_0 * b0_1);
            c4_2 = c4_2 + (a4_0 * b0_2);
            c4_3 = c4_3 + (a4_0 * b0_3);
            let a5_0: f32 = subgroupBroadcast(va0_0, 5u);
            c5_0 = c5_0 + (a5_0 * b0_0);
            c5_1 = c5_1 + (a5_0 * b0_1);
            c5_2 = c5_2 + (a5_0 * b0_2);
            c5_3 = c5_3 + (a5_0 * b0_3);
            let a6_0: f32 = subgroupBroadcast(va0_0, 6u);
            c6_0 = c6_0 + (a6_0 * b0_0);
            c6_1 = c6_1 + (a6_0 * b0_1);
            c6_2 = c6_2 + (a6_0 * b0_2);
            c6_3 = c6_3 + (a6_0 * b0_3);
            let a7_0: f32 = subgroupBroadcast(va0_0, 7u);
            c7_0 = c7_0 + (a7_0 * b0_0);
            c7_1 = c7_1 + (a7_0 * b0_1);
            c7_2 = c7_2 + (a7_0 * b0_2);
            c7_3 = c7_3 + (a7_0 * b0_3);
            let a8_0: f32 = subgroupBroadcast(va1_0, 0u);
            c8_0 = c8_0 + (a8_0 * b0_0);
            c8_1 = c8_1 + (a8_0 * b0_1);
            c8_2 = c8_2 + (a8_0 * b0_2);
            c8_3 = c8_3 + (a8_0 * b0_3);
            let a9_0: f32 = subgroupBroadcast(va1_0, 1u);
            c9_0 = c9_0 + (a9_0 * b0_0);
            c9_1 = c9_1 + (a9_0 * b0_1);
            c9_2 = c9_2 + (a9_0 * b0_2);
            c9_3 = c9_3 + (a9_0 * b0_3);
            let a10_0: f32 = subgroupBroadcast(va1_0, 2u);
            c10_0 = c10_0 + (a10_0 * b0_0);
            c10_1 = c10_1 + (a10_0 * b0_1);
            c10_2 = c10_2 + (a10_0 * b0_2);
            c10_3 = c10_3 + (a10_0 * b0_3);
            let a11_0: f32 = subgroupBroadcast(va1_0, 3u);
            c11_0 = c11_0 + (a11_0 * b0_0);
            c11_1 = c11_1 + (a11_0 * b0_1);
            c11_2 = c11_2 + (a11_0 * b0_2);
            c11_3 = c11_3 + (a11_0 * b0_3);
            let a12_0: f32 = subgroupBroadcast(va1_0, 4u);
            c12_0 = c12_0 + (a12_0 * b0_0);
            c12_1 = c12_1 + (a12_0 * b0_1);
            c12_2 = c12_2 + (a12_0 * b0_2);
            c12_3 = c12_3 + (a12_0 * b0_3);
            let a13_0: f32 = subgroupBroadcast(va1_0, 5u);
            c13_0 = c13_0 + (a13_0 * b0_0);
            c13_1 = c13_1 + (a13_0 * b0_1);
            c13_2 = c13_2 + (a13_0 * b0_2);
            c13_3 = c13_3 + (a13_0 * b0_3);
            let a14_0: f32 = subgroupBroadcast(va1_0, 6u);
            c14_0 = c14_0 + (a14_0 * b0_0);
            c14_1 = c14_1 + (a14_0 * b0_1);
            c14_2 = c14_2 + (a14_0 * b0_2);
            c14_3 = c14_3 + (a14_0 * b0_3);
            let a15_0: f32 = subgroupBroadcast(va1_0, 7u);
            c15_0 = c15_0 + (a15_0 * b0_0);
            c15_1 = c15_1 + (a15_0 * b0_1);
            c15_2 = c15_2 + (a15_0 * b0_2);
            c15_3 = c15_3 + (a15_0 * b0_3);
            let a16_0: f32 = subgroupBroadcast(va2_0, 0u);
            c16_0 = c16_0 + (a16_0 * b0_0);
            c16_1 = c16_1 + (a16_0 * b0_1);
            c16_2 = c16_2 + (a16_0 * b0_2);
            c16_3 = c16_3 + (a16_0 * b0_3);
            let a17_0: f32 = subgroupBroadcast(va2_0, 1u);
            c17_0 = c17_0 + (a17_0 * b0_0);
            c17_1 = c17_1 + (a17_0 * b0_1);
            c17_2 = c17_2 + (a17_0 * b0_2);
            c17_3 = c17_3 + (a17_0 * b0_3);
            let a18_0: f32 = subgroupBroadcast(va2_0, 2u);
            c18_0 = c18_0 + (a18_0 * b0_0);
            c18_1 = c18_1 + (a18_0 * b0_1);
            c18_2 = c18_2 + (a18_0 * b0_2);
            c18_3 = c18_3 + (a18_0 * b0_3);
            let a19_0: f32 = subgroupBroadcast(va2_0, 3u);
            c19_0 = c19_0 + (a19_0 * b0_0);
            c19_1 = c19_1 + (a19_0 * b0_1);
            c19_2 = c19_2 + (a19_0 * b0_2);
            c19_3 = c19_3 + (a19_0 * b0_3);
            let a20_0: f32 = subgroupBroadcast(va2_0, 4u);
            c20_0 = c20_0 + (a20_0 * b0_0);
            c20_1 = c20_1 + (a20_0 * b0_1);
            c20_2 = c20_2 + (a20_0 * b0_2);
            c20_3 = c20_3 + (a20_0 * b0_3);
            let a21_0: f32 = subgroupBroadcast(va2_0, 5u);
            c21_0 = c21_0 + (a21_0 * b0_0);
            c21_1 = c21_1 + (a21_0 * b0_1);
            c21_2 = c21_2 + (a21_0 * b0_2);
            c21_3 = c21_3 + (a21_0 * b0_3);
            let a22_0: f32 = subgroupBroadcast(va2_0, 6u);
            c22_0 = c22_0 + (a22_0 * b0_0);
            c22_1 = c22_1 + (a22_0 * b0_1);
            c22_2 = c22_2 + (a22_0 * b0_2);
            c22_3 = c22_3 + (a22_0 * b0_3);
            let a23_0: f32 = subgroupBroadcast(va2_0, 7u);
            c23_0 = c23_0 + (a23_0 * b0_0);
            c23_1 = c23_1 + (a23_0 * b0_1);
            c23_2 = c23_2 + (a23_0 * b0_2);
            c23_3 = c23_3 + (a23_0 * b0_3);
            let a24_0: f32 = subgroupBroadcast(va3_0, 0u);
            c24_0 = c24_0 + (a24_0 * b0_0);
            c24_1 = c24_1 + (a24_0 * b0_1);
            c24_2 = c24_2 + (a24_0 * b0_2);
            c24_3 = c24_3 + (a24_0 * b0_3);
            let a25_0: f32 = subgroupBroadcast(va3_0, 1u);
            c25_0 = c25_0 + (a25_0 * b0_0);
            c25_1 = c25_1 + (a25_0 * b0_1);
            c25_2 = c25_2 + (a25_0 * b0_2);
            c25_3 = c25_3 + (a25_0 * b0_3);
            let a26_0: f32 = subgroupBroadcast(va3_0, 2u);
            c26_0 = c26_0 + (a26_0 * b0_0);
            c26_1 = c26_1 + (a26_0 * b0_1);
            c26_2 = c26_2 + (a26_0 * b0_2);
            c26_3 = c26_3 + (a26_0 * b0_3);
            let a27_0: f32 = subgroupBroadcast(va3_0, 3u);
            c27_0 = c27_0 + (a27_0 * b0_0);
            c27_1 = c27_1 + (a27_0 * b0_1);
            c27_2 = c27_2 + (a27_0 * b0_2);
            c27_3 = c27_3 + (a27_0 * b0_3);
            let a28_0: f32 = subgroupBroadcast(va3_0, 4u);
            c28_0 = c28_0 + (a28_0 * b0_0);
            c28_1 = c28_1 + (a28_0 * b0_1);
            c28_2 = c28_2 + (a28_0 * b0_2);
            c28_3 = c28_3 + (a28_0 * b0_3);
            let a29_0: f32 = subgroupBroadcast(va3_0, 5u);
            c29_0 = c29_0 + (a29_0 * b0_0);
            c29_1 = c29_1 + (a29_0 * b0_1);
            c29_2 = c29_2 + (a29_0 * b0_2);
            c29_3 = c29_3 + (a29_0 * b0_3);
            let a30_0: f32 = subgroupBroadcast(va3_0, 6u);
            c30_0 = c30_0 + (a30_0 * b0_0);
            c30_1 = c30_1 + (a30_0 * b0_1);
            c30_2 = c30_2 + (a30_0 * b0_2);
            c30_3 = c30_3 + (a30_0 * b0_3);
            let a31_0: f32 = subgroupBroadcast(va3_0, 7u);
            c31_0 = c31_0 + (a31_0 * b0_0);
            c31_1 = c31_1 + (a31_0 * b0_1);
            c31_2 = c31_2 + (a31_0 * b0_2);
            c31_3 = c31_3 + (a31_0 * b0_3);
        }
        let out_row0: u32 = row0 + 0u;
        if (out_row0 < m && j0 + 0u < n) {
            var v: f32 = alpha * c0_0;
            st2(o_b + out_row0 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row0 < m && j0 + 1u < n) {
            var v: f32 = alpha * c0_1;
            st2(o_b + out_row0 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row0 < m && j0 + 2u < n) {
            var v: f32 = alpha * c0_2;
            st2(o_b + out_row0 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row0 < m && j0 + 3u < n) {
            var v: f32 = alpha * c0_3;
            st2(o_b + out_row0 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row1: u32 = row0 + 1u;
        if (out_row1 < m && j0 + 0u < n) {
            var v: f32 = alpha * c1_0;
            st2(o_b + out_row1 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row1 < m && j0 + 1u < n) {
            var v: f32 = alpha * c1_1;
            st2(o_b + out_row1 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row1 < m && j0 + 2u < n) {
            var v: f32 = alpha * c1_2;
            st2(o_b + out_row1 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row1 < m && j0 + 3u < n) {
            var v: f32 = alpha * c1_3;
            st2(o_b + out_row1 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row2: u32 = row0 + 2u;
        if (out_row2 < m && j0 + 0u < n) {
            var v: f32 = alpha * c2_0;
            st2(o_b + out_row2 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row2 < m && j0 + 1u < n) {
            var v: f32 = alpha * c2_1;
            st2(o_b + out_row2 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row2 < m && j0 + 2u < n) {
            var v: f32 = alpha * c2_2;
            st2(o_b + out_row2 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row2 < m && j0 + 3u < n) {
            var v: f32 = alpha * c2_3;
            st2(o_b + out_row2 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row3: u32 = row0 + 3u;
        if (out_row3 < m && j0 + 0u < n) {
            var v: f32 = alpha * c3_0;
            st2(o_b + out_row3 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row3 < m && j0 + 1u < n) {
            var v: f32 = alpha * c3_1;
            st2(o_b + out_row3 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row3 < m && j0 + 2u < n) {
            var v: f32 = alpha * c3_2;
            st2(o_b + out_row3 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row3 < m && j0 + 3u < n) {
            var v: f32 = alpha * c3_3;
            st2(o_b + out_row3 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row4: u32 = row0 + 4u;
        if (out_row4 < m && j0 + 0u < n) {
            var v: f32 = alpha * c4_0;
            st2(o_b + out_row4 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row4 < m && j0 + 1u < n) {
            var v: f32 = alpha * c4_1;
            st2(o_b + out_row4 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row4 < m && j0 + 2u < n) {
            var v: f32 = alpha * c4_2;
            st2(o_b + out_row4 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row4 < m && j0 + 3u < n) {
            var v: f32 = alpha * c4_3;
            st2(o_b + out_row4 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row5: u32 = row0 + 5u;
        if (out_row5 < m && j0 + 0u < n) {
            var v: f32 = alpha * c5_0;
            st2(o_b + out_row5 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row5 < m && j0 + 1u < n) {
            var v: f32 = alpha * c5_1;
            st2(o_b + out_row5 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row5 < m && j0 + 2u < n) {
            var v: f32 = alpha * c5_2;
            st2(o_b + out_row5 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row5 < m && j0 + 3u < n) {
            var v: f32 = alpha * c5_3;
            st2(o_b + out_row5 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row6: u32 = row0 + 6u;
        if (out_row6 < m && j0 + 0u < n) {
            var v: f32 = alpha * c6_0;
            st2(o_b + out_row6 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row6 < m && j0 + 1u < n) {
            var v: f32 = alpha * c6_1;
            st2(o_b + out_row6 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row6 < m && j0 + 2u < n) {
            var v: f32 = alpha * c6_2;
            st2(o_b + out_row6 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row6 < m && j0 + 3u < n) {
            var v: f32 = alpha * c6_3;
            st2(o_b + out_row6 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row7: u32 = row0 + 7u;
        if (out_row7 < m && j0 + 0u < n) {
            var v: f32 = alpha * c7_0;
            st2(o_b + out_row7 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row7 < m && j0 + 1u < n) {
            var v: f32 = alpha * c7_1;
            st2(o_b + out_row7 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row7 < m && j0 + 2u < n) {
            var v: f32 = alpha * c7_2;
            st2(o_b + out_row7 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row7 < m && j0 + 3u < n) {
            var v: f32 = alpha * c7_3;
            st2(o_b + out_row7 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row8: u32 = row0 + 8u;
        if (out_row8 < m && j0 + 0u < n) {
            var v: f32 = alpha * c8_0;
            st2(o_b + out_row8 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row8 < m && j0 + 1u < n) {
            var v: f32 = alpha * c8_1;
            st2(o_b + out_row8 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row8 < m && j0 + 2u < n) {
            var v: f32 = alpha * c8_2;
            st2(o_b + out_row8 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row8 < m && j0 + 3u < n) {
            var v: f32 = alpha * c8_3;
            st2(o_b + out_row8 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row9: u32 = row0 + 9u;
        if (out_row9 < m && j0 + 0u < n) {
            var v: f32 = alpha * c9_0;
            st2(o_b + out_row9 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row9 < m && j0 + 1u < n) {
            var v: f32 = alpha * c9_1;
            st2(o_b + out_row9 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row9 < m && j0 + 2u < n) {
            var v: f32 = alpha * c9_2;
            st2(o_b + out_row9 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row9 < m && j0 + 3u < n) {
            var v: f32 = alpha * c9_3;
            st2(o_b + out_row9 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row10: u32 = row0 + 10u;
        if (out_row10 < m && j0 + 0u < n) {
            var v: f32 = alpha * c10_0;
            st2(o_b + out_row10 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row10 < m && j0 + 1u < n) {
            var v: f32 = alpha * c10_1;
            st2(o_b + out_row10 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row10 < m && j0 + 2u < n) {
            var v: f32 = alpha * c10_2;
            st2(o_b + out_row10 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row10 < m && j0 + 3u < n) {
            var v: f32 = alpha * c10_3;
            st2(o_b + out_row10 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row11: u32 = row0 + 11u;
        if (out_row11 < m && j0 + 0u < n) {
            var v: f32 = alpha * c11_0;
            st2(o_b + out_row11 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row11 < m && j0 + 1u < n) {
            var v: f32 = alpha * c11_1;
            st2(o_b + out_row11 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row11 < m && j0 + 2u < n) {
            var v: f32 = alpha * c11_2;
            st2(o_b + out_row11 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row11 < m && j0 + 3u < n) {
            var v: f32 = alpha * c11_3;
            st2(o_b + out_row11 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row12: u32 = row0 + 12u;
        if (out_row12 < m && j0 + 0u < n) {
            var v: f32 = alpha * c12_0;
            st2(o_b + out_row12 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row12 < m && j0 + 1u < n) {
            var v: f32 = alpha * c12_1;
            st2(o_b + out_row12 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row12 < m && j0 + 2u < n) {
            var v: f32 = alpha * c12_2;
            st2(o_b + out_row12 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row12 < m && j0 + 3u < n) {
            var v: f32 = alpha * c12_3;
            st2(o_b + out_row12 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row13: u32 = row0 + 13u;
        if (out_row13 < m && j0 + 0u < n) {
            var v: f32 = alpha * c13_0;
            st2(o_b + out_row13 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row13 < m && j0 + 1u < n) {
            var v: f32 = alpha * c13_1;
            st2(o_b + out_row13 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row13 < m && j0 + 2u < n) {
            var v: f32 = alpha * c13_2;
            st2(o_b + out_row13 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row13 < m && j0 + 3u < n) {
            var v: f32 = alpha * c13_3;
            st2(o_b + out_row13 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row14: u32 = row0 + 14u;
        if (out_row14 < m && j0 + 0u < n) {
            var v: f32 = alpha * c14_0;
            st2(o_b + out_row14 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row14 < m && j0 + 1u < n) {
            var v: f32 = alpha * c14_1;
            st2(o_b + out_row14 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row14 < m && j0 + 2u < n) {
            var v: f32 = alpha * c14_2;
            st2(o_b + out_row14 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row14 < m && j0 + 3u < n) {
            var v: f32 = alpha * c14_3;
            st2(o_b + out_row14 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row15: u32 = row0 + 15u;
        if (out_row15 < m && j0 + 0u < n) {
            var v: f32 = alpha * c15_0;
            st2(o_b + out_row15 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row15 < m && j0 + 1u < n) {
            var v: f32 = alpha * c15_1;
            st2(o_b + out_row15 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row15 < m && j0 + 2u < n) {
            var v: f32 = alpha * c15_2;
            st2(o_b + out_row15 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row15 < m && j0 + 3u < n) {
            var v: f32 = alpha * c15_3;
            st2(o_b + out_row15 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row16: u32 = row0 + 16u;
        if (out_row16 < m && j0 + 0u < n) {
            var v: f32 = alpha * c16_0;
            st2(o_b + out_row16 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row16 < m && j0 + 1u < n) {
            var v: f32 = alpha * c16_1;
            st2(o_b + out_row16 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row16 < m && j0 + 2u < n) {
            var v: f32 = alpha * c16_2;
            st2(o_b + out_row16 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row16 < m && j0 + 3u < n) {
            var v: f32 = alpha * c16_3;
            st2(o_b + out_row16 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row17: u32 = row0 + 17u;
        if (out_row17 < m && j0 + 0u < n) {
            var v: f32 = alpha * c17_0;
            st2(o_b + out_row17 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row17 < m && j0 + 1u < n) {
            var v: f32 = alpha * c17_1;
            st2(o_b + out_row17 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row17 < m && j0 + 2u < n) {
            var v: f32 = alpha * c17_2;
            st2(o_b + out_row17 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row17 < m && j0 + 3u < n) {
            var v: f32 = alpha * c17_3;
            st2(o_b + out_row17 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row18: u32 = row0 + 18u;
        if (out_row18 < m && j0 + 0u < n) {
            var v: f32 = alpha * c18_0;
            st2(o_b + out_row18 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row18 < m && j0 + 1u < n) {
            var v: f32 = alpha * c18_1;
            st2(o_b + out_row18 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row18 < m && j0 + 2u < n) {
            var v: f32 = alpha * c18_2;
            st2(o_b + out_row18 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row18 < m && j0 + 3u < n) {
            var v: f32 = alpha * c18_3;
            st2(o_b + out_row18 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row19: u32 = row0 + 19u;
        if (out_row19 < m && j0 + 0u < n) {
            var v: f32 = alpha * c19_0;
            st2(o_b + out_row19 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row19 < m && j0 + 1u < n) {
            var v: f32 = alpha * c19_1;
            st2(o_b + out_row19 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row19 < m && j0 + 2u < n) {
            var v: f32 = alpha * c19_2;
            st2(o_b + out_row19 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row19 < m && j0 + 3u < n) {
            var v: f32 = alpha * c19_3;
            st2(o_b + out_row19 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row20: u32 = row0 + 20u;
        if (out_row20 < m && j0 + 0u < n) {
            var v: f32 = alpha * c20_0;
            st2(o_b + out_row20 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row20 < m && j0 + 1u < n) {
            var v: f32 = alpha * c20_1;
            st2(o_b + out_row20 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row20 < m && j0 + 2u < n) {
            var v: f32 = alpha * c20_2;
            st2(o_b + out_row20 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row20 < m && j0 + 3u < n) {
            var v: f32 = alpha * c20_3;
            st2(o_b + out_row20 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row21: u32 = row0 + 21u;
        if (out_row21 < m && j0 + 0u < n) {
            var v: f32 = alpha * c21_0;
            st2(o_b + out_row21 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row21 < m && j0 + 1u < n) {
            var v: f32 = alpha * c21_1;
            st2(o_b + out_row21 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row21 < m && j0 + 2u < n) {
            var v: f32 = alpha * c21_2;
            st2(o_b + out_row21 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row21 < m && j0 + 3u < n) {
            var v: f32 = alpha * c21_3;
            st2(o_b + out_row21 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row22: u32 = row0 + 22u;
        if (out_row22 < m && j0 + 0u < n) {
            var v: f32 = alpha * c22_0;
            st2(o_b + out_row22 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row22 < m && j0 + 1u < n) {
            var v: f32 = alpha * c22_1;
            st2(o_b + out_row22 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row22 < m && j0 + 2u < n) {
            var v: f32 = alpha * c22_2;
            st2(o_b + out_row22 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row22 < m && j0 + 3u < n) {
            var v: f32 = alpha * c22_3;
            st2(o_b + out_row22 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row23: u32 = row0 + 23u;
        if (out_row23 < m && j0 + 0u < n) {
            var v: f32 = alpha * c23_0;
            st2(o_b + out_row23 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row23 < m && j0 + 1u < n) {
            var v: f32 = alpha * c23_1;
            st2(o_b + out_row23 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row23 < m && j0 + 2u < n) {
            var v: f32 = alpha * c23_2;
            st2(o_b + out_row23 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row23 < m && j0 + 3u < n) {
            var v: f32 = alpha * c23_3;
            st2(o_b + out_row23 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row24: u32 = row0 + 24u;
        if (out_row24 < m && j0 + 0u < n) {
            var v: f32 = alpha * c24_0;
            st2(o_b + out_row24 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row24 < m && j0 + 1u < n) {
            var v: f32 = alpha * c24_1;
            st2(o_b + out_row24 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row24 < m && j0 + 2u < n) {
            var v: f32 = alpha * c24_2;
            st2(o_b + out_row24 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row24 < m && j0 + 3u < n) {
            var v: f32 = alpha * c24_3;
            st2(o_b + out_row24 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row25: u32 = row0 + 25u;
        if (out_row25 < m && j0 + 0u < n) {
            var v: f32 = alpha * c25_0;
            st2(o_b + out_row25 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row25 < m && j0 + 1u < n) {
            var v: f32 = alpha * c25_1;
            st2(o_b + out_row25 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row25 < m && j0 + 2u < n) {
            var v: f32 = alpha * c25_2;
            st2(o_b + out_row25 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row25 < m && j0 + 3u < n) {
            var v: f32 = alpha * c25_3;
            st2(o_b + out_row25 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row26: u32 = row0 + 26u;
        if (out_row26 < m && j0 + 0u < n) {
            var v: f32 = alpha * c26_0;
            st2(o_b + out_row26 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row26 < m && j0 + 1u < n) {
            var v: f32 = alpha * c26_1;
            st2(o_b + out_row26 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row26 < m && j0 + 2u < n) {
            var v: f32 = alpha * c26_2;
            st2(o_b + out_row26 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row26 < m && j0 + 3u < n) {
            var v: f32 = alpha * c26_3;
            st2(o_b + out_row26 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row27: u32 = row0 + 27u;
        if (out_row27 < m && j0 + 0u < n) {
            var v: f32 = alpha * c27_0;
            st2(o_b + out_row27 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row27 < m && j0 + 1u < n) {
            var v: f32 = alpha * c27_1;
            st2(o_b + out_row27 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row27 < m && j0 + 2u < n) {
            var v: f32 = alpha * c27_2;
            st2(o_b + out_row27 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row27 < m && j0 + 3u < n) {
            var v: f32 = alpha * c27_3;
            st2(o_b + out_row27 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row28: u32 = row0 + 28u;
        if (out_row28 < m && j0 + 0u < n) {
            var v: f32 = alpha * c28_0;
            st2(o_b + out_row28 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row28 < m && j0 + 1u < n) {
            var v: f32 = alpha * c28_1;
            st2(o_b + out_row28 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row28 < m && j0 + 2u < n) {
            var v: f32 = alpha * c28_2;
            st2(o_b + out_row28 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row28 < m && j0 + 3u < n) {
            var v: f32 = alpha * c28_3;
            st2(o_b + out_row28 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row29: u32 = row0 + 29u;
        if (out_row29 < m && j0 + 0u < n) {
            var v: f32 = alpha * c29_0;
            st2(o_b + out_row29 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row29 < m && j0 + 1u < n) {
            var v: f32 = alpha * c29_1;
            st2(o_b + out_row29 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row29 < m && j0 + 2u < n) {
            var v: f32 = alpha * c29_2;
            st2(o_b + out_row29 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row29 < m && j0 + 3u < n) {
            var v: f32 = alpha * c29_3;
            st2(o_b + out_row29 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row30: u32 = row0 + 30u;
        if (out_row30 < m && j0 + 0u < n) {
            var v: f32 = alpha * c30_0;
            st2(o_b + out_row30 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row30 < m && j0 + 1u < n) {
            var v: f32 = alpha * c30_1;
            st2(o_b + out_row30 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row30 < m && j0 + 2u < n) {
            var v: f32 = alpha * c30_2;
            st2(o_b + out_row30 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row30 < m && j0 + 3u < n) {
            var v: f32 = alpha * c30_3;
            st2(o_b + out_row30 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        let out_row31: u32 = row0 + 31u;
        if (out_row31 < m && j0 + 0u < n) {
            var v: f32 = alpha * c31_0;
            st2(o_b + out_row31 * o_sm + (j0 + 0u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row31 < m && j0 + 1u < n) {
            var v: f32 = alpha * c31_1;
            st2(o_b + out_row31 * o_sm + (j0 + 1u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row31 < m && j0 + 2u < n) {
            var v: f32 = alpha * c31_2;
            st2(o_b + out_row31 * o_sm + (j0 + 2u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
        if (out_row31 < m && j0 + 3u < n) {
            var v: f32 = alpha * c31_3;
            st2(o_b + out_row31 * o_sm + (j0 + 3u) * o_sn, f16_to_f32(f32_to_f16(v)));
        }
    }
}
