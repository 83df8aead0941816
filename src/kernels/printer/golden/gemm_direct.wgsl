var<workgroup> dims_shared: array<u32, 6>;
fn main {
    if (t == 0u) { for (var k = 0u; k < 6u; k += 1u) { dims_shared[k] = p[launch.words + k]; } }
    let dims = workgroupUniformLoad(&dims_shared);
    let m: u32 = dims[0];
    let n: u32 = dims[1];
    let tiles: u32 = dims[4] * dims[5];
    for (var g = group; g < dims[3] * tiles; g += groups) {
        let b: u32 = g / tiles;
        let row0: u32 = ((g % tiles) / dims[5]) * 64u;
        let col0: u32 = ((g % tiles) % dims[5]) * 64u;
        let k_begin: u32 = 0u;
        let k_end: u32 = dims[2];
        let o_b: u32 = p[launch.words + 14u] + b * p[launch.words + 15u] * 4u;
        let o_sm: u32 = p[launch.words + 16u] * 4u;
        let o_sn: u32 = p[launch.words + 17u] * 4u;
        let alpha: f32 = bitcast<f32>(p[launch.words + 18u]);
        for (var s = t; s < 64u; s += 64u) {
            let i0: u32 = row0 + (s / 8u) * 8u;
            let j0: u32 = col0 + (s % 8u) * 8u;
            if (i0 < m && j0 < n) {
                let ra0: u32 = p[launch.words + 6u] + (b * p[launch.words + 7u] + min(i0 + 0u, m - 1u) * p[launch.words + 8u]) * 4u;
                let ra1: u32 = p[launch.words + 6u] + (b * p[launch.words + 7u] + min(i0 + 1u, m - 1u) * p[launch.words + 8u]) * 4u;
                let ra2: u32 = p[launch.words + 6u] + (b * p[launch.words + 7u] + min(i0 + 2u, m - 1u) * p[launch.words + 8u]) * 4u;
                let ra3: u32 = p[launch.words + 6u] + (b * p[launch.words + 7u] + min(i0 + 3u, m - 1u) * p[launch.words + 8u]) * 4u;
                let ra4: u32 = p[launch.words + 6u] + (b * p[launch.words + 7u] + min(i0 + 4u, m - 1u) * p[launch.words + 8u]) * 4u;
                let ra5: u32 = p[launch.words + 6u] + (b * p[launch.words + 7u] + min(i0 + 5u, m - 1u) * p[launch.words + 8u]) * 4u;
                let ra6: u32 = p[launch.words + 6u] + (b * p[launch.words + 7u] + min(i0 + 6u, m - 1u) * p[launch.words + 8u]) * 4u;
                let ra7: u32 = p[launch.words + 6u] + (b * p[launch.words + 7u] + min(i0 + 7u, m - 1u) * p[launch.words + 8u]) * 4u;
                let cb0: u32 = p[launch.words + 10u] + (b * p[launch.words + 11u] + min(j0 + 0u, (n - 1u) & ~3u) * p[launch.words + 13u]) * 4u;
                let cb4: u32 = p[launch.words + 10u] + (b * p[launch.words + 11u] + min(j0 + 4u, (n - 1u) & ~3u) * p[launch.words + 13u]) * 4u;
                var c0_0: f32 = bitcast<f32>(0x0u);
                var c0_1: f32 = bitcast<f32>(0x0u);
                var c0_2: f32 = bitcast<f32>(0x0u);
                var c0_3: f32 = bitcast<f32>(0x0u);
                var c0_4: f32 = bitcast<f32>(0x0u);
                var c0_5: f32 = bitcast<f32>(0x0u);
                var c0_6: f32 = bitcast<f32>(0x0u);
                var c0_7: f32 = bitcast<f32>(0x0u);
                var c1_0: f32 = bitcast<f32>(0x0u);
                var c1_1: f32 = bitcast<f32>(0x0u);
                var c1_2: f32 = bitcast<f32>(0x0u);
                var c1_3: f32 = bitcast<f32>(0x0u);
                var c1_4: f32 = bitcast<f32>(0x0u);
                var c1_5: f32 = bitcast<f32>(0x0u);
                var c1_6: f32 = bitcast<f32>(0x0u);
                var c1_7: f32 = bitcast<f32>(0x0u);
                var c2_0: f32 = bitcast<f32>(0x0u);
                var c2_1: f32 = bitcast<f32>(0x0u);
                var c2_2: f32 = bitcast<f32>(0x0u);
                var c2_3: f32 = bitcast<f32>(0x0u);
                var c2_4: f32 = bitcast<f32>(0x0u);
                var c2_5: f32 = bitcast<f32>(0x0u);
                var c2_6: f32 = bitcast<f32>(0x0u);
                var c2_7: f32 = bitcast<f32>(0x0u);
                var c3_0: f32 = bitcast<f32>(0x0u);
                var c3_1: f32 = bitcast<f32>(0x0u);
                var c3_2: f32 = bitcast<f32>(0x0u);
                var c3_3: f32 = bitcast<f32>(0x0u);
                var c3_4: f32 = bitcast<f32>(0x0u);
                var c3_5: f32 = bitcast<f32>(0x0u);
                var c3_6: f32 = bitcast<f32>(0x0u);
                var c3_7: f32 = bitcast<f32>(0x0u);
                var c4_0: f32 = bitcast<f32>(0x0u);
                var c4_1: f32 = bitcast<f32>(0x0u);
                var c4_2: f32 = bitcast<f32>(0x0u);
                var c4_3: f32 = bitcast<f32>(0x0u);
                var c4_4: f32 = bitcast<f32>(0x0u);
                var c4_5: f32 = bitcast<f32>(0x0u);
                var c4_6: f32 = bitcast<f32>(0x0u);
                var c4_7: f32 = bitcast<f32>(0x0u);
                var c5_0: f32 = bitcast<f32>(0x0u);
                var c5_1: f32 = bitcast<f32>(0x0u);
                var c5_2: f32 = bitcast<f32>(0x0u);
                var c5_3: f32 = bitcast<f32>(0x0u);
                var c5_4: f32 = bitcast<f32>(0x0u);
                var c5_5: f32 = bitcast<f32>(0x0u);
                var c5_6: f32 = bitcast<f32>(0x0u);
                var c5_7: f32 = bitcast<f32>(0x0u);
                var c6_0: f32 = bitcast<f32>(0x0u);
                var c6_1: f32 = bitcast<f32>(0x0u);
                var c6_2: f32 = bitcast<f32>(0x0u);
                var c6_3: f32 = bitcast<f32>(0x0u);
                var c6_4: f32 = bitcast<f32>(0x0u);
                var c6_5: f32 = bitcast<f32>(0x0u);
                var c6_6: f32 = bitcast<f32>(0x0u);
                var c6_7: f32 = bitcast<f32>(0x0u);
                var c7_0: f32 = bitcast<f32>(0x0u);
                var c7_1: f32 = bitcast<f32>(0x0u);
                var c7_2: f32 = bitcast<f32>(0x0u);
                var c7_3: f32 = bitcast<f32>(0x0u);
                var c7_4: f32 = bitcast<f32>(0x0u);
                var c7_5: f32 = bitcast<f32>(0x0u);
                var c7_6: f32 = bitcast<f32>(0x0u);
                var c7_7: f32 = bitcast<f32>(0x0u);
                for (var kk = k_begin; kk < k_end; kk += 4u) {
                    let va0 = bitcast<vec4<f32>>(b0[(ra0 + kk * 4u) >> 4u]);
                    let a0_0: f32 = va0[0];
                    let a0_1: f32 = va0[1];
                    let a0_2: f32 = va0[2];
                    let a0_3: f32 = va0[3];
                    let va1 = bitcast<vec4<f32>>(b0[(ra1 + kk * 4u) >> 4u]);
                    let a1_0: f32 = va1[0];
                    let a1_1: f32 = va1[1];
                    let a1_2: f32 = va1[2];
                    let a1_3: f32 = va1[3];
                    let va2 = bitcast<vec4<f32>>(b0[(ra2 + kk * 4u) >> 4u]);
                    let a2_0: f32 = va2[0];
                    let a2_1: f32 = va2[1];
                    let a2_2: f32 = va2[2];
                    let a2_3: f32 = va2[3];
                    let va3 = bitcast<vec4<f32>>(b0[(ra3 + kk * 4u) >> 4u]);
                    let a3_0: f32 = va3[0];
                    let a3_1: f32 = va3[1];
                    let a3_2: f32 = va3[2];
                    let a3_3: f32 = va3[3];
                    let va4 = bitcast<vec4<f32>>(b0[(ra4 + kk * 4u) >> 4u]);
                    let a4_0: f32 = va4[0];
                    let a4_1: f32 = va4[1];
                    let a4_2: f32 = va4[2];
                    let a4_3: f32 = va4[3];
                    let va5 = bitcast<vec4<f32>>(b0[(ra5 + kk * 4u) >> 4u]);
                    let a5_0: f32 = va5[0];
                    let a5_1: f32 = va5[1];
                    let a5_2: f32 = va5[2];
                    let a5_3: f32 = va5[3];
                    let va6 = bitcast<vec4<f32>>(b0[(ra6 + kk * 4u) >> 4u]);
                    let a6_0: f32 = va6[0];
                    let a6_1: f32 = va6[1];
                    let a6_2: f32 = va6[2];
                    let a6_3: f32 = va6[3];
                    let va7 = bitcast<vec4<f32>>(b0[(ra7 + kk * 4u) >> 4u]);
                    let a7_0: f32 = va7[0];
                    let a7_1: f32 = va7[1];
                    let a7_2: f32 = va7[2];
                    let a7_3: f32 = va7[3];
                    let vb0_0 = bitcast<vec4<f32>>(b1[(cb0 + (kk + 0u) * p[launch.words + 12u] * 4u) >> 4u]);
                    let b0_0: f32 = vb0_0[0];
                    let b0_1: f32 = vb0_0[1];
                    let b0_2: f32 = vb0_0[2];
                    let b0_3: f32 = vb0_0[3];
                    let vb0_1 = bitcast<vec4<f32>>(b1[(cb0 + (kk + 1u) * p[launch.words + 12u] * 4u) >> 4u]);
                    let b1_0: f32 = vb0_1[0];
                    let b1_1: f32 = vb0_1[1];
                    let b1_2: f32 = vb0_1[2];
                    let b1_3: f32 = vb0_1[3];
                    let vb0_2 = bitcast<vec4<f32>>(b1[(cb0 + (kk + 2u) * p[launch.words + 12u] * 4u) >> 4u]);
                    let b2_0: f32 = vb0_2[0];
                    let b2_1: f32 = vb0_2[1];
                    let b2_2: f32 = vb0_2[2];
                    let b2_3: f32 = vb0_2[3];
                    let vb0_3 = bitcast<vec4<f32>>(b1[(cb0 + (kk + 3u) * p[launch.words + 12u] * 4u) >> 4u]);
                    let b3_0: f32 = vb0_3[0];
                    let b3_1: f32 = vb0_3[1];
                    let b3_2: f32 = vb0_3[2];
                    let b3_3: f32 = vb0_3[3];
                    let vb4_0 = bitcast<vec4<f32>>(b1[(cb4 + (kk + 0u) * p[launch.words + 12u] * 4u) >> 4u]);
                    let b0_4: f32 = vb4_0[0];
                    let b0_5: f32 = vb4_0[1];
                    let b0_6: f32 = vb4_0[2];
                    let b0_7: f32 = vb4_0[3];
                    let vb4_1 = bitcast<vec4<f32>>(b1[(cb4 + (kk + 1u) * p[launch.words + 12u] * 4u) >> 4u]);
                    let b1_4: f32 = vb4_1[0];
                    let b1_5: f32 = vb4_1[1];
                    let b1_6: f32 = vb4_1[2];
                    let b1_7: f32 = vb4_1[3];
                    let vb4_2 = bitcast<vec4<f32>>(b1[(cb4 + (kk + 2u) * p[launch.words + 12u] * 4u) >> 4u]);
                    let b2_4: f32 = vb4_2[0];
                    let b2_5: f32 = vb4_2[1];
                    let b2_6: f32 = vb4_2[2];
                    let b2_7: f32 = vb4_2[3];
                    let vb4_3 = bitcast<vec4<f32>>(b1[(cb4 + (kk + 3u) * p[launch.words + 12u] * 4u) >> 4u]);
                    let b3_4: f32 = vb4_3[0];
                    let b3_5: f32 = vb4_3[1];
                    let b3_6: f32 = vb4_3[2];
                    let b3_7: f32 = vb4_3[3];
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
                let out_row0: u32 = i0 + 0u;
                if (out_row0 < m && j0 + 0u < n) {
                    var v: f32 = alpha * c0_0;
                    st2(o_b + out_row0 * o_sm + (j0 + 0u) * o_sn, v);
                }
                if (out_row0 < m && j0 + 1u < n) {
                    var v: f32 = alpha * c0_1;
                    st2(o_b + out_row0 * o_sm + (j0 + 1u) * o_sn, v);
                }
                if (out_row0 < m && j0 + 2u < n) {
                    var v: f32 = alpha * c0_2;
                    st2(o_b + out_row0 * o_sm + (j0 + 2u) * o_sn, v);
                }
                if (out_row0 < m && j0 + 3u < n) {
                    var v: f32 = alpha * c0_3;
                    st2(o_b + out_row0 * o_sm + (j0 + 3u) * o_sn, v);
                }
                if (out_row0 < m && j0 + 4u < n) {
                    var v: f32 = alpha * c0_4;
                    st2(o_b + out_row0 * o_sm + (j0 + 4u) * o_sn, v);
                }
                if (out_row0 < m && j0 + 5u < n) {
                    var v: f32 = alpha * c0_5;
                    st2(o_b + out_row0 * o_sm + (j0 + 5u) * o_sn, v);
                }
                if (out_row0 < m && j0 + 6u < n) {
                    var v: f32 = alpha * c0_6;
                    st2(o_b + out_row0 * o_sm + (j0 + 6u) * o_sn, v);
                }
                if (out_row0 < m && j0 + 7u < n) {
                    var v: f32 = alpha * c0_7;
                    st2(o_b + out_row0 * o_sm + (j0 + 7u) * o_sn, v);
                }
                let out_row1: u32 = i0 + 1u;
                if (out_row1 < m && j0 + 0u < n) {
                    var v: f32 = alpha * c1_0;
                    st2(o_b + out_row1 * o_sm + (j0 + 0u) * o_sn, v);
                }
                if (out_row1 < m && j0 + 1u < n) {
                    var v: f32 = alpha * c1_1;
                    st2(o_b + out_row1 * o_sm + (j0 + 1u) * o_sn, v);
                }
                if (out_row1 < m && j0 + 2u < n) {
                    var v: f32 = alpha * c1_2;
                    st2(o_b + out_row1 * o_sm + (j0 + 2u) * o_sn, v);
                }
                if (out_row1 < m && j0 + 3u < n) {
                    var v: f32 = alpha * c1_3;
                    st2(o_b + out_row1 * o_sm + (j0 + 3u) * o_sn, v);
                }
                if (out_row1 < m && j0 + 4u < n) {
                    var v: f32 = alpha * c1_4;
                    st2(o_b + out_row1 * o_sm + (j0 + 4u) * o_sn, v);
                }
                if (out_row1 < m && j0 + 5u < n) {
                    var v: f32 = alpha * c1_5;
                    st2(o_b + out_row1 * o_sm + (j0 + 5u) * o_sn, v);
                }
                if (out_row1 < m && j0 + 6u < n) {
                    var v: f32 = alpha * c1_6;
                    st2(o_b + out_row1 * o_sm + (j0 + 6u) * o_sn, v);
                }
                if (out_row1 < m && j0 + 7u < n) {
                    var v: f32 = alpha * c1_7;
                    st2(o_b + out_row1 * o_sm + (j0 + 7u) * o_sn, v);
                }
                let out_row2: u32 = i0 + 2u;
                if (out_row2 < m && j0 + 0u < n) {
                    var v: f32 = alpha * c2_0;
                    st2(o_b + out_row2 * o_sm + (j0 + 0u) * o_sn, v);
                }
                if (out_row2 < m && j0 + 1u < n) {
                    var v: f32 = alpha * c2_1;
                    st2(o_b + out_row2 * o_sm + (j0 + 1u) * o_sn, v);
                }
                if (out_row2 < m && j0 + 2u < n) {
                    var v: f32 = alpha * c2_2;
                    st2(o_b + out_row2 * o_sm + (j0 + 2u) * o_sn, v);
                }
                if (out_row2 < m && j0 + 3u < n) {
                    var v: f32 = alpha * c2_3;
                    st2(o_b + out_row2 * o_sm + (j0 + 3u) * o_sn, v);
                }
                if (out_row2 < m && j0 + 4u < n) {
                    var v: f32 = alpha * c2_4;
                    st2(o_b + out_row2 * o_sm + (j0 + 4u) * o_sn, v);
                }
                if (out_row2 < m && j0 + 5u < n) {
                    var v: f32 = alpha * c2_5;
                    st2(o_b + out_row2 * o_sm + (j0 + 5u) * o_sn, v);
                }
                if (out_row2 < m && j0 + 6u < n) {
                    var v: f32 = alpha * c2_6;
                    st2(o_b + out_row2 * o_sm + (j0 + 6u) * o_sn, v);
                }
                if (out_row2 < m && j0 + 7u < n) {
                    var v: f32 = alpha * c2_7;
                    st2(o_b + out_row2 * o_sm + (j0 + 7u) * o_sn, v);
                }
                let out_row3: u32 = i0 + 3u;
                if (out_row3 < m && j0 + 0u < n) {
                    var v: f32 = alpha * c3_0;
                    st2(o_b + out_row3 * o_sm + (j0 + 0u) * o_sn, v);
                }
                if (out_row3 < m && j0 + 1u < n) {
                    var v: f32 = alpha * c3_1;
                    st2(o_b + out_row3 * o_sm + (j0 + 1u) * o_sn, v);
                }
                if (out_row3 < m && j0 + 2u < n) {
                    var v: f32 = alpha * c3_2;
                    st2(o_b + out_row3 * o_sm + (j0 + 2u) * o_sn, v);
                }
                if (out_row3 < m && j0 + 3u < n) {
                    var v: f32 = alpha * c3_3;
                    st2(o_b + out_row3 * o_sm + (j0 + 3u) * o_sn, v);
                }
                if (out_row3 < m && j0 + 4u < n) {
                    var v: f32 = alpha * c3_4;
                    st2(o_b + out_row3 * o_sm + (j0 + 4u) * o_sn, v);
                }
                if (out_row3 < m && j0 + 5u < n) {
                    var v: f32 = alpha * c3_5;
                    st2(o_b + out_row3 * o_sm + (j0 + 5u) * o_sn, v);
                }
                if (out_row3 < m && j0 + 6u < n) {
                    var v: f32 = alpha * c3_6;
                    st2(o_b + out_row3 * o_sm + (j0 + 6u) * o_sn, v);
                }
                if (out_row3 < m && j0 + 7u < n) {
                    var v: f32 = alpha * c3_7;
                    st2(o_b + out_row3 * o_sm + (j0 + 7u) * o_sn, v);
                }
                let out_row4: u32 = i0 + 4u;
                if (out_row4 < m && j0 + 0u < n) {
                    var v: f32 = alpha * c4_0;
                    st2(o_b + out_row4 * o_sm + (j0 + 0u) * o_sn, v);
                }
                if (out_row4 < m && j0 + 1u < n) {
                    var v: f32 = alpha * c4_1;
                    st2(o_b + out_row4 * o_sm + (j0 + 1u) * o_sn, v);
                }
                if (out_row4 < m && j0 + 2u < n) {
                    var v: f32 = alpha * c4_2;
                    st2(o_b + out_row4 * o_sm + (j0 + 2u) * o_sn, v);
                }
                if (out_row4 < m && j0 + 3u < n) {
                    var v: f32 = alpha * c4_3;
                    st2(o_b + out_row4 * o_sm + (j0 + 3u) * o_sn, v);
                }
                if (out_row4 < m && j0 + 4u < n) {
                    var v: f32 = alpha * c4_4;
                    st2(o_b + out_row4 * o_sm + (j0 + 4u) * o_sn, v);
                }
                if (out_row4 < m && j0 + 5u < n) {
                    var v: f32 = alpha * c4_5;
                    st2(o_b + out_row4 * o_sm + (j0 + 5u) * o_sn, v);
                }
                if (out_row4 < m && j0 + 6u < n) {
                    var v: f32 = alpha * c4_6;
                    st2(o_b + out_row4 * o_sm + (j0 + 6u) * o_sn, v);
                }
                if (out_row4 < m && j0 + 7u < n) {
                    var v: f32 = alpha * c4_7;
                    st2(o_b + out_row4 * o_sm + (j0 + 7u) * o_sn, v);
                }
                let out_row5: u32 = i0 + 5u;
                if (out_row5 < m && j0 + 0u < n) {
                    var v: f32 = alpha * c5_0;
                    st2(o_b + out_row5 * o_sm + (j0 + 0u) * o_sn, v);
                }
                if (out_row5 < m && j0 + 1u < n) {
                    var v: f32 = alpha * c5_1;
                    st2(o_b + out_row5 * o_sm + (j0 + 1u) * o_sn, v);
                }
                if (out_row5 < m && j0 + 2u < n) {
                    var v: f32 = alpha * c5_2;
                    st2(o_b + out_row5 * o_sm + (j0 + 2u) * o_sn, v);
                }
                if (out_row5 < m && j0 + 3u < n) {
                    var v: f32 = alpha * c5_3;
                    st2(o_b + out_row5 * o_sm + (j0 + 3u) * o_sn, v);
                }
                if (out_row5 < m && j0 + 4u < n) {
                    var v: f32 = alpha * c5_4;
                    st2(o_b + out_row5 * o_sm + (j0 + 4u) * o_sn, v);
                }
                if (out_row5 < m && j0 + 5u < n) {
                    var v: f32 = alpha * c5_5;
                    st2(o_b + out_row5 * o_sm + (j0 + 5u) * o_sn, v);
                }
                if (out_row5 < m && j0 + 6u < n) {
                    var v: f32 = alpha * c5_6;
                    st2(o_b + out_row5 * o_sm + (j0 + 6u) * o_sn, v);
                }
                if (out_row5 < m && j0 + 7u < n) {
                    var v: f32 = alpha * c5_7;
                    st2(o_b + out_row5 * o_sm + (j0 + 7u) * o_sn, v);
                }
                let out_row6: u32 = i0 + 6u;
                if (out_row6 < m && j0 + 0u < n) {
                    var v: f32 = alpha * c6_0;
                    st2(o_b + out_row6 * o_sm + (j0 + 0u) * o_sn, v);
                }
                if (out_row6 < m && j0 + 1u < n) {
                    var v: f32 = alpha * c6_1;
                    st2(o_b + out_row6 * o_sm + (j0 + 1u) * o_sn, v);
                }
                if (out_row6 < m && j0 + 2u < n) {
                    var v: f32 = alpha * c6_2;
                    st2(o_b + out_row6 * o_sm + (j0 + 2u) * o_sn, v);
                }
                if (out_row6 < m && j0 + 3u < n) {
                    var v: f32 = alpha * c6_3;
                    st2(o_b + out_row6 * o_sm + (j0 + 3u) * o_sn, v);
                }
                if (out_row6 < m && j0 + 4u < n) {
                    var v: f32 = alpha * c6_4;
                    st2(o_b + out_row6 * o_sm + (j0 + 4u) * o_sn, v);
                }
                if (out_row6 < m && j0 + 5u < n) {
                    var v: f32 = alpha * c6_5;
                    st2(o_b + out_row6 * o_sm + (j0 + 5u) * o_sn, v);
                }
                if (out_row6 < m && j0 + 6u < n) {
                    var v: f32 = alpha * c6_6;
                    st2(o_b + out_row6 * o_sm + (j0 + 6u) * o_sn, v);
                }
                if (out_row6 < m && j0 + 7u < n) {
                    var v: f32 = alpha * c6_7;
                    st2(o_b + out_row6 * o_sm + (j0 + 7u) * o_sn, v);
                }
                let out_row7: u32 = i0 + 7u;
                if (out_row7 < m && j0 + 0u < n) {
                    var v: f32 = alpha * c7_0;
                    st2(o_b + out_row7 * o_sm + (j0 + 0u) * o_sn, v);
                }
                if (out_row7 < m && j0 + 1u < n) {
                    var v: f32 = alpha * c7_1;
                    st2(o_b + out_row7 * o_sm + (j0 + 1u) * o_sn, v);
                }
                if (out_row7 < m && j0 + 2u < n) {
                    var v: f32 = alpha * c7_2;
                    st2(o_b + out_row7 * o_sm + (j0 + 2u) * o_sn, v);
                }
                if (out_row7 < m && j0 + 3u < n) {
                    var v: f32 = alpha * c7_3;
                    st2(o_b + out_row7 * o_sm + (j0 + 3u) * o_sn, v);
                }
                if (out_row7 < m && j0 + 4u < n) {
                    var v: f32 = alpha * c7_4;
                    st2(o_b + out_row7 * o_sm + (j0 + 4u) * o_sn, v);
                }
                if (out_row7 < m && j0 + 5u < n) {
                    var v: f32 = alpha * c7_5;
                    st2(o_b + out_row7 * o_sm + (j0 + 5u) * o_sn, v);
                }
                if (out_row7 < m && j0 + 6u < n) {
                    var v: f32 = alpha * c7_6;
                    st2(o_b + out_row7 * o_sm + (j0 + 6u) * o_sn, v);
                }
                if (out_row7 < m && j0 + 7u < n) {
                    var v: f32 = alpha * c7_7;
                    st2(o_b + out_row7 * o_sm + (j0 + 7u) * o_sn, v);
                }
            }
        }
    }
}
