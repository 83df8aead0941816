fn main {
    let n_out: u32 = p[launch.words + 0u];
    let n_red: u32 = p[launch.words + 1u];
    let chunk: u32 = p[launch.words + 4u];
    let n_chunks: u32 = p[launch.words + 5u];
    let s0: f32 = bitcast<f32>(p[launch.words + 14u + 0u]);
    let quads: u32 = n_out / 4u;
    for (var w = group * 64u + t; w < quads * n_chunks; w += groups * 64u) {
        let o: u32 = (w % quads) * 4u;
        let c: u32 = w / quads;
        let lo: u32 = c * chunk;
        let hi: u32 = min(n_red, lo + chunk);
        let ib: u32 = p[launch.words + 8u] + o * 4u;
        let rs: u32 = p[launch.words + 10u] * 4u;
        var a0_0: f32 = bitcast<f32>(0x0u);
        var a0_1: f32 = bitcast<f32>(0x0u);
        var a0_2: f32 = bitcast<f32>(0x0u);
        var a0_3: f32 = bitcast<f32>(0x0u);
        var a0_4: f32 = bitcast<f32>(0x0u);
        var a0_5: f32 = bitcast<f32>(0x0u);
        var a0_6: f32 = bitcast<f32>(0x0u);
        var a0_7: f32 = bitcast<f32>(0x0u);
        var a1_0: f32 = bitcast<f32>(0x0u);
        var a1_1: f32 = bitcast<f32>(0x0u);
        var a1_2: f32 = bitcast<f32>(0x0u);
        var a1_3: f32 = bitcast<f32>(0x0u);
        var a1_4: f32 = bitcast<f32>(0x0u);
        var a1_5: f32 = bitcast<f32>(0x0u);
        var a1_6: f32 = bitcast<f32>(0x0u);
        var a1_7: f32 = bitcast<f32>(0x0u);
        var a2_0: f32 = bitcast<f32>(0x0u);
        var a2_1: f32 = bitcast<f32>(0x0u);
        var a2_2: f32 = bitcast<f32>(0x0u);
        var a2_3: f32 = bitcast<f32>(0x0u);
        var a2_4: f32 = bitcast<f32>(0x0u);
        var a2_5: f32 = bitcast<f32>(0x0u);
        var a2_6: f32 = bitcast<f32>(0x0u);
        var a2_7: f32 = bitcast<f32>(0x0u);
        var a3_0: f32 = bitcast<f32>(0x0u);
        var a3_1: f32 = bitcast<f32>(0x0u);
        var a3_2: f32 = bitcast<f32>(0x0u);
        var a3_3: f32 = bitcast<f32>(0x0u);
        var a3_4: f32 = bitcast<f32>(0x0u);
        var a3_5: f32 = bitcast<f32>(0x0u);
        var a3_6: f32 = bitcast<f32>(0x0u);
        var a3_7: f32 = bitcast<f32>(0x0u);
        for (var j = lo; j < hi; j += 8u) {
            if (j + 0u < hi) {
                let v4 = bitcast<vec4<f32>>(b0[(ib + (j + 0u) * rs) >> 4u]);
                {
                    let x0: f32 = v4[0];
                    a0_0 = a0_0 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[1];
                    a1_0 = a1_0 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[2];
                    a2_0 = a2_0 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[3];
                    a3_0 = a3_0 + (x0 * s0);
                }
            }
            if (j + 1u < hi) {
                let v4 = bitcast<vec4<f32>>(b0[(ib + (j + 1u) * rs) >> 4u]);
                {
                    let x0: f32 = v4[0];
                    a0_1 = a0_1 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[1];
                    a1_1 = a1_1 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[2];
                    a2_1 = a2_1 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[3];
                    a3_1 = a3_1 + (x0 * s0);
                }
            }
            if (j + 2u < hi) {
                let v4 = bitcast<vec4<f32>>(b0[(ib + (j + 2u) * rs) >> 4u]);
                {
                    let x0: f32 = v4[0];
                    a0_2 = a0_2 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[1];
                    a1_2 = a1_2 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[2];
                    a2_2 = a2_2 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[3];
                    a3_2 = a3_2 + (x0 * s0);
                }
            }
            if (j + 3u < hi) {
                let v4 = bitcast<vec4<f32>>(b0[(ib + (j + 3u) * rs) >> 4u]);
                {
                    let x0: f32 = v4[0];
                    a0_3 = a0_3 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[1];
                    a1_3 = a1_3 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[2];
                    a2_3 = a2_3 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[3];
                    a3_3 = a3_3 + (x0 * s0);
                }
            }
            if (j + 4u < hi) {
                let v4 = bitcast<vec4<f32>>(b0[(ib + (j + 4u) * rs) >> 4u]);
                {
                    let x0: f32 = v4[0];
                    a0_4 = a0_4 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[1];
                    a1_4 = a1_4 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[2];
                    a2_4 = a2_4 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[3];
                    a3_4 = a3_4 + (x0 * s0);
                }
            }
            if (j + 5u < hi) {
                let v4 = bitcast<vec4<f32>>(b0[(ib + (j + 5u) * rs) >> 4u]);
                {
                    let x0: f32 = v4[0];
                    a0_5 = a0_5 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[1];
                    a1_5 = a1_5 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[2];
                    a2_5 = a2_5 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[3];
                    a3_5 = a3_5 + (x0 * s0);
                }
            }
            if (j + 6u < hi) {
                let v4 = bitcast<vec4<f32>>(b0[(ib + (j + 6u) * rs) >> 4u]);
                {
                    let x0: f32 = v4[0];
                    a0_6 = a0_6 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[1];
                    a1_6 = a1_6 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[2];
                    a2_6 = a2_6 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[3];
                    a3_6 = a3_6 + (x0 * s0);
                }
            }
            if (j + 7u < hi) {
                let v4 = bitcast<vec4<f32>>(b0[(ib + (j + 7u) * rs) >> 4u]);
                {
                    let x0: f32 = v4[0];
                    a0_7 = a0_7 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[1];
                    a1_7 = a1_7 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[2];
                    a2_7 = a2_7 + (x0 * s0);
                }
                {
                    let x0: f32 = v4[3];
                    a3_7 = a3_7 + (x0 * s0);
                }
            }
        }
        {
            let x0: f32 = bitcast<f32>(0x0u) + (((a0_0 + a0_1) + (a0_2 + a0_3)) + ((a0_4 + a0_5) + (a0_6 + a0_7)));
            st1(p[launch.words + 11u] + ((o + 0u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
        }
        {
            let x0: f32 = bitcast<f32>(0x0u) + (((a1_0 + a1_1) + (a1_2 + a1_3)) + ((a1_4 + a1_5) + (a1_6 + a1_7)));
            st1(p[launch.words + 11u] + ((o + 1u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
        }
        {
            let x0: f32 = bitcast<f32>(0x0u) + (((a2_0 + a2_1) + (a2_2 + a2_3)) + ((a2_4 + a2_5) + (a2_6 + a2_7)));
            st1(p[launch.words + 11u] + ((o + 2u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
        }
        {
            let x0: f32 = bitcast<f32>(0x0u) + (((a3_0 + a3_1) + (a3_2 + a3_3)) + ((a3_4 + a3_5) + (a3_6 + a3_7)));
            st1(p[launch.words + 11u] + ((o + 3u) * p[launch.words + 12u] + c * p[launch.words + 13u]) * 4u, x0);
        }
    }
}
