fn main {
    let xn: u32 = p[launch.words + 0u];
    let rn: u32 = p[launch.words + 1u];
    let o0: u32 = p[launch.words + 2u];
    let n0: u32 = p[launch.words + 7u];
    let o1: u32 = p[launch.words + 3u];
    let n1: u32 = p[launch.words + 8u];
    let o2: u32 = p[launch.words + 4u];
    let n2: u32 = p[launch.words + 9u];
    let o3: u32 = p[launch.words + 5u];
    let n3: u32 = p[launch.words + 10u];
    let o4: u32 = p[launch.words + 6u];
    let n4: u32 = p[launch.words + 11u];
    let x2: i32 = i32(xn);
    let x3: i32 = i32(rn);
    for (var xg = group * 64u + t; xg < xn; xg += groups * 64u) {
        let x0: i32 = i32(xg);
        let x4: i32 = x0;
        var x10: f32 = bitcast<f32>(0x0u);
        let x7: f32 = ld1(o1 + (min(u32(x4), n1 - 1u)) * 4u);
        let w0_1: i32 = (x4 * x3);
        let w0_3: i32 = bitcast<i32>(0x0u);
        let w0_6: i32 = (x4 * x3);
        let fours0: bool = w0_1 >= 0 && ((o0 + u32(w0_1) * 4u) & 15u) == 0u && u32(w0_1) + rn <= n0 && w0_3 >= 0 && ((o2 + u32(w0_3) * 4u) & 15u) == 0u && u32(w0_3) + rn <= n2 && w0_6 >= 0 && ((o3 + u32(w0_6) * 4u) & 15u) == 0u && u32(w0_6) + rn <= n3;
        if (fours0) {
            for (var r = 0u; r + 4u <= rn; r += 4u) {
                let v6 = bitcast<vec4<f32>>(b0[(o0 + (u32(w0_1) + r) * 4u) >> 4u]);
                let v8 = bitcast<vec4<f32>>(b2[(o2 + (u32(w0_3) + r) * 4u) >> 4u]);
                var r6_0: f32 = bitcast<f32>(0x0u);
                var r6_1: f32 = bitcast<f32>(0x0u);
                var r6_2: f32 = bitcast<f32>(0x0u);
                var r6_3: f32 = bitcast<f32>(0x0u);
                {
                    let x1: i32 = i32(r + 0u);
                    let x5: i32 = x1;
                    let x6: f32 = v6[0];
                    let x8: f32 = v8[0];
                    let x9: f32 = (x6 - x7);
                    x10 = (x10 + (x9 * x8));
                    r6_0 = x9;
                }
                {
                    let x1: i32 = i32(r + 1u);
                    let x5: i32 = x1;
                    let x6: f32 = v6[1];
                    let x8: f32 = v8[1];
                    let x9: f32 = (x6 - x7);
                    x10 = (x10 + (x9 * x8));
                    r6_1 = x9;
                }
                {
                    let x1: i32 = i32(r + 2u);
                    let x5: i32 = x1;
                    let x6: f32 = v6[2];
                    let x8: f32 = v8[2];
                    let x9: f32 = (x6 - x7);
                    x10 = (x10 + (x9 * x8));
                    r6_2 = x9;
                }
                {
                    let x1: i32 = i32(r + 3u);
                    let x5: i32 = x1;
                    let x6: f32 = v6[3];
                    let x8: f32 = v8[3];
                    let x9: f32 = (x6 - x7);
                    x10 = (x10 + (x9 * x8));
                    r6_3 = x9;
                }
                b3[(o3 + (u32(w0_6) + r) * 4u) >> 4u] = bitcast<vec4<u32>>(vec4<f32>(r6_0, r6_1, r6_2, r6_3));
            }
        }
        for (var r = select(0u, rn & ~3u, fours0); r < rn; r += 1u) {
            let x1: i32 = i32(r);
            let x5: i32 = x1;
            let x6: f32 = ld0(o0 + (min(u32((x5 + (x4 * x3))), n0 - 1u)) * 4u);
            let x8: f32 = ld2(o2 + (min(u32(x5), n2 - 1u)) * 4u);
            let x9: f32 = (x6 - x7);
            x10 = (x10 + (x9 * x8));
            {
                let e: u32 = u32((x5 + (x4 * x3)));
                if (e < n3) {
                    st3(o3 + (e) * 4u, x9);
                }
            }
        }
        {
            let e: u32 = u32(x4);
            if (e < n4) {
                st4(o4 + (e) * 4u, x10);
            }
        }
    }
}
