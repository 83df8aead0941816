fn main {
    let n_out: u32 = p[launch.words + 0u];
    let n_red: u32 = p[launch.words + 1u];
    let chunk: u32 = p[launch.words + 4u];
    let n_chunks: u32 = p[launch.words + 5u];
    let s0: f32 = bitcast<f32>(p[launch.words + 14u + 0u]);
    let spans: u32 = (n_out + 31u) / 32u;
    for (var w = group * 64u + t; w < spans * n_chunks; w += groups * 64u) {
        let o: u32 = (w % spans) * 32u;
        let c: u32 = w / spans;
        let lo: u32 = c * chunk;
        let hi: u32 = min(n_red, lo + chunk);
        let ib: u32 = p[launch.words + 8u] + o * 4u;
        let rs: u32 = p[launch.words + 10u] * 4u;
        let fours: u32 = min(8u, (n_out - o) / 4u);
        var a0_0: f32 = bitcast<f32>(0x0u);
        var a0_1: f32 = bitcast<f32>(0x0u);
        var a0_2: f32 = bitcast<f32>(0x0u);
        var a0_3: f32 = bitcast<f32>(0x0u);
        var a1_0: f32 = bitcast<f32>(0x0u);
        var a1_1: f32 = bitcast<f32>(0x0u);
        var a1_2: f32 = bitcast<f32>(0x0u);
        var a1_3: f32 = bitcast<f32>(0x0u);
        var a2_0: f32 = bitcast<f32>(0x0u);
        var a2_1: f32 = bitcast<f32>(0x0u);
        var a2_2: f32 = bitcast<f32>(0x0u);
        var a2_3: f32 = bitcast<f32>(0x0u);
        var a3_0: f32 = bitcast<f32>(0x0u);
        var a3_1: f32 = bitcast<f32>(0x0u);
        var a3_2: f32 = bitcast<f32>(0x0u);
        var a3_3: f32 = bitcast<f32>(0x0u);
        var a4_0: f32 = bitcast<f32>(0x0u);
        var a4_1: f32 = bitcast<f32>(0x0u);
        var a4_2: f32 = bitcast<f32>(0x0u);
        var a4_3: f32 = bitcast<f32>(0x0u);
        var a5_0: f32 = bitcast<f32>(0x0u);
        var a5_1: f32 = bitcast<f32>(0x0u);
        var a5_2: f32 = bitcast<f32>(0x0u);
        var a5_3: f32 = bitcast<f32>(0x0u);
        var a6_0: f32 = bitcast<f32>(0x0u);
        var a6_1: f32 = bitcast<f32>(0x0u);
        var a6_2: f32 = bitcast<f32>(0x0u);
        var a6_3: f32 = bitcast<f32>(0x0u);
        var a7_0: f32 = bitcast<f32>(0x0u);
        var a7_1: f32 = bitcast<f32>(0x0u);
        var a7_2: f32 = bitcast<f32>(0x0u);
        var a7_3: f32 = bitcast<f32>(0x0u);
        for (var j = lo; j < hi; j += 1u) {
            let v4_0 = bitcast<vec4<f32>>(b0[(ib + j * rs + 16u * min(0u, fours - 1u)) >> 4u]);
            {
                let x0: f32 = v4_0[0];
                a0_0 = a0_0 + (x0 * s0);
            }
            {
                let x0: f32 = v4_0[1];
                a0_1 = a0_1 + (x0 * s0);
            }
            {
                let x0: f32 = v4_0[2];
                a0_2 = a0_2 + (x0 * s0);
            }
            {
                let x0: f32 = v4_0[3];
                a0_3 = a0_3 + (x0 * s0);
            }
            let v4_1 = bitcast<vec4<f32>>(b0[(ib + j * rs + 16u * min(1u, fours - 1u)) >> 4u]);
            {
                let x0: f32 = v4_1[0];
                a1_0 = a1_0 + (x0 * s0);
            }
            {
                let x0: f32 = v4_1[1];
                a1_1 = a1_1 + (x0 * s0);
            }
            {
                let x0: f32 = v4_1[2];
                a1_2 = a1_2 + (x0 * s0);
            }
            {
                let x0: f32 = v4_1[3];
                a1_3 = a1_3 + (x0 * s0);
            }
            let v4_2 = bitcast<vec4<f32>>(b0[(ib + j * rs + 16u * min(2u, fours - 1u)) >> 4u]);
            {
                let x0: f32 = v4_2[0];
                a2_0 = a2_0 + (x0 * s0);
            }
            {
                let x0: f32 = v4_2[1];
                a2_1 = a2_1 + (x0 * s0);
            }
            {
                let x0: f32 = v4_2[2];
                a2_2 = a2_2 + (x0 * s0);
            }
            {
                let x0: f32 = v4_2[3];
                a2_3 = a2_3 + (x0 * s0);
            }
            let v4_3 = bitcast<vec4<f32>>(b0[(ib + j * rs + 16u * min(3u, fours - 1u)) >> 4u]);
            {
                let x0: f32 = v4_3[0];
                a3_0 = a3_0 + (x0 * s0);
            }
            {
                let x0: f32 = v4_3[1];
                a3_1 = a3_1 + (x0 * s0);
            }
            {
                let x0: f32 = v4_3[2];
                a3_2 = a3_2 + (x0 * s0);
            }
            {
                let x0: f32 = v4_3[3];
                a3_3 = a3_3 + (x0 * s0);
            }
            let v4_4 = bitcast<vec4<f32>>(b0[(ib + j * rs + 16u * min(4u, fours - 1u)) >> 4u]);
            {
                let x0: f32 = v4_4[0];
                a4_0 = a4_0 + (x0 * s0);
            }
            {
                let x0: f32 = v4_4[1];
                a4_1 = a4_1 + (x0 * s0);
            }
            {
                let x0: f32 = v4_4[2];
                a4_2 = a4_2 + (x0 * s0);
            }
            {
                let x0: f32 = v4_4[3];
                a4_3 = a4_3 + (x0 * s0);
            }
            let v4_5 = bitcast<vec4<f32>>(b0[(ib + j * rs + 16u * min(5u, fours - 1u)) >> 4u]);
            {
                let x0: f32 = v4_5[0];
                a5_0 = a5_0 + (x0 * s0);
            }
            {
                let x0: f32 = v4_5[1];
                a5_1 = a5_1 + (x0 * s0);
            }
            {
                let x0: f32 = v4_5[2];
                a5_2 = a5_2 + (x0 * s0);
            }
            {
                let x0: f32 = v4_5[3];
                a5_3 = a5_3 + (x0 * s0);
            }
            let v4_6 = bitcast<vec4<f32>>(b0[(ib + j * rs + 16u * min(6u, fours - 1u)) >> 4u]);
            {
                let x0: f32 = v4_6[0];
                a6_0 = a6_0 + (x0 * s0);
            }
            {
                let x0: f32 = v4_6[1];
                a6_1 = a6_1 + (x0 * s0);
            }
            {
                let x0: f32 = v4_6[2];
                a6_2 = a6_2 + (x0 * s0);
            }
            {
                let x0: f32 = v4_6[3];
                a6_3 = a6_3 + (x0 * s0);
            }
            let v4_7 = bitcast<vec4<f32>>(b0[(ib + j * rs + 16u * min(7u, fours - 1u)) >> 4u]);
            {
                let x0: f32 = v4_7[0];
                a7_0 = a7_0 + (x0 * s0);
            }
            {
                let x0: f32 = v4_7[1];
                a7_1 = a7_1 + (x0 * s0);
            }
            {
                let x0: f32 = v4_7[2];
                a7_2 = a7_2 + (x0 * s0);
            }
            {
                let x0: f32 = v4_7[3];
                a7_3 = a7_3 + (x0 * s0);
            }
        }
        if (0u < fours) {
            {
                let x0: f32 = bitcast<f32>(0x0u) + a0_0;
                st1(p[launch.words + 11u] + ((o + 0u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a0_1;
                st1(p[launch.words + 11u] + ((o + 1u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a0_2;
                st1(p[launch.words + 11u] + ((o + 2u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a0_3;
                st1(p[launch.words + 11u] + ((o + 3u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
        }
        if (1u < fours) {
            {
                let x0: f32 = bitcast<f32>(0x0u) + a1_0;
                st1(p[launch.words + 11u] + ((o + 4u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a1_1;
                st1(p[launch.words + 11u] + ((o + 5u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a1_2;
                st1(p[launch.words + 11u] + ((o + 6u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a1_3;
                st1(p[launch.words + 11u] + ((o + 7u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
        }
        if (2u < fours) {
            {
                let x0: f32 = bitcast<f32>(0x0u) + a2_0;
                st1(p[launch.words + 11u] + ((o + 8u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a2_1;
                st1(p[launch.words + 11u] + ((o + 9u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a2_2;
                st1(p[launch.words + 11u] + ((o + 10u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a2_3;
                st1(p[launch.words + 11u] + ((o + 11u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
        }
        if (3u < fours) {
            {
                let x0: f32 = bitcast<f32>(0x0u) + a3_0;
                st1(p[launch.words + 11u] + ((o + 12u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a3_1;
                st1(p[launch.words + 11u] + ((o + 13u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a3_2;
                st1(p[launch.words + 11u] + ((o + 14u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a3_3;
                st1(p[launch.words + 11u] + ((o + 15u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
        }
        if (4u < fours) {
            {
                let x0: f32 = bitcast<f32>(0x0u) + a4_0;
                st1(p[launch.words + 11u] + ((o + 16u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a4_1;
                st1(p[launch.words + 11u] + ((o + 17u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a4_2;
                st1(p[launch.words + 11u] + ((o + 18u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a4_3;
                st1(p[launch.words + 11u] + ((o + 19u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
        }
        if (5u < fours) {
            {
                let x0: f32 = bitcast<f32>(0x0u) + a5_0;
                st1(p[launch.words + 11u] + ((o + 20u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a5_1;
                st1(p[launch.words + 11u] + ((o + 21u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a5_2;
                st1(p[launch.words + 11u] + ((o + 22u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a5_3;
                st1(p[launch.words + 11u] + ((o + 23u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
        }
        if (6u < fours) {
            {
                let x0: f32 = bitcast<f32>(0x0u) + a6_0;
                st1(p[launch.words + 11u] + ((o + 24u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a6_1;
                st1(p[launch.words + 11u] + ((o + 25u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a6_2;
                st1(p[launch.words + 11u] + ((o + 26u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a6_3;
                st1(p[launch.words + 11u] + ((o + 27u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
        }
        if (7u < fours) {
            {
                let x0: f32 = bitcast<f32>(0x0u) + a7_0;
                st1(p[launch.words + 11u] + ((o + 28u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a7_1;
                st1(p[launch.words + 11u] + ((o + 29u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a7_2;
                st1(p[launch.words + 11u] + ((o + 30u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
            {
                let x0: f32 = bitcast<f32>(0x0u) + a7_3;
                st1(p[launch.words + 11u] + ((o + 31u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
            }
        }
    }
}
