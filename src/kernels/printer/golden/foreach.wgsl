fn main {
    {
        let start: u32 = 0u;
        let count: u32 = p[launch.words + 1u] - start;
        let s0: f32 = bitcast<f32>(p[launch.words + 9u + 0u]);
        let o0: u32 = p[launch.words + 3u];
        let o2: u32 = p[launch.words + 5u];
        let o4: u32 = p[launch.words + 7u];
        let x1: f32 = ld2(o2);
        let aligned: bool = (o0 & 15u) == 0u && (o4 & 15u) == 0u;
        for (var q = group * 64u + t; q < (count + 3u) / 4u; q += groups * 64u) {
            let base: u32 = q * 4u;
            if (aligned && base + 4u <= count) {
                let loaded0 = bitcast<vec4<f32>>(b0[(o0 + base * 4u) >> 4u]);
                var r0_0: f32 = bitcast<f32>(0x0u);
                var r0_1: f32 = bitcast<f32>(0x0u);
                var r0_2: f32 = bitcast<f32>(0x0u);
                var r0_3: f32 = bitcast<f32>(0x0u);
                {
                    let x0: f32 = loaded0[0];
                    r0_0 = (x0 * x1);
                }
                {
                    let x0: f32 = loaded0[1];
                    r0_1 = (x0 * x1);
                }
                {
                    let x0: f32 = loaded0[2];
                    r0_2 = (x0 * x1);
                }
                {
                    let x0: f32 = loaded0[3];
                    r0_3 = (x0 * x1);
                }
                b4[(o4 + base * 4u) >> 4u] = bitcast<vec4<u32>>(vec4<f32>(r0_0, r0_1, r0_2, r0_3));
            } else {
                for (var jj = base; jj < min(base + 4u, count); jj += 1u) {
                    let x0: f32 = ld0(o0 + jj * 4u);
                    st4(o4 + jj * 4u, (x0 * x1));
                }
            }
        }
    }
    {
        let start: u32 = p[launch.words + 1u];
        let count: u32 = p[launch.words + 2u] - start;
        let s0: f32 = bitcast<f32>(p[launch.words + 10u + 0u]);
        let o1: u32 = p[launch.words + 4u];
        let o3: u32 = p[launch.words + 6u];
        let o5: u32 = p[launch.words + 8u];
        let x1: f32 = ld3(o3);
        let aligned: bool = (o1 & 15u) == 0u && (o5 & 15u) == 0u;
        for (var q = group * 64u + t; q < (count + 3u) / 4u; q += groups * 64u) {
            let base: u32 = q * 4u;
            if (aligned && base + 4u <= count) {
                let loaded0 = bitcast<vec4<f32>>(b1[(o1 + base * 4u) >> 4u]);
                var r0_0: f32 = bitcast<f32>(0x0u);
                var r0_1: f32 = bitcast<f32>(0x0u);
                var r0_2: f32 = bitcast<f32>(0x0u);
                var r0_3: f32 = bitcast<f32>(0x0u);
                {
                    let x0: f32 = loaded0[0];
                    r0_0 = (x0 * x1);
                }
                {
                    let x0: f32 = loaded0[1];
                    r0_1 = (x0 * x1);
                }
                {
                    let x0: f32 = loaded0[2];
                    r0_2 = (x0 * x1);
                }
                {
                    let x0: f32 = loaded0[3];
                    r0_3 = (x0 * x1);
                }
                b5[(o5 + base * 4u) >> 4u] = bitcast<vec4<u32>>(vec4<f32>(r0_0, r0_1, r0_2, r0_3));
            } else {
                for (var jj = base; jj < min(base + 4u, count); jj += 1u) {
                    let x0: f32 = ld1(o1 + jj * 4u);
                    st5(o5 + jj * 4u, (x0 * x1));
                }
            }
        }
    }
}
