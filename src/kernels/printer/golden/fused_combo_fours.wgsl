fn main {
    let xn: u32 = p[launch.words + 0u];
    let rn: u32 = p[launch.words + 1u];
    let o0: u32 = p[launch.words + 2u];
    let n0: u32 = p[launch.words + 5u];
    let o1: u32 = p[launch.words + 3u];
    let n1: u32 = p[launch.words + 6u];
    let o2: u32 = p[launch.words + 4u];
    let n2: u32 = p[launch.words + 7u];
    let s0: i32 = bitcast<i32>(p[launch.words + 8u + 0u]);
    let x2: i32 = i32(xn);
    let x3: i32 = i32(rn);
    {
        let x5: i32 = bitcast<i32>(0x3u);
        for (var q = group * 64u + t; q < (u32(max(x5, 0)) + 3u) / 4u; q += groups * 64u) {
            let base: u32 = q * 4u;
            if (base + 4u <= u32(max(x5, 0)) && base + 4u <= n0 && base + 4u <= n1) {
                let v6 = bitcast<vec4<f32>>(b0[(o0 + (base) * 4u) >> 4u]);
                var r1_0: f32 = bitcast<f32>(0x0u);
                var r1_1: f32 = bitcast<f32>(0x0u);
                var r1_2: f32 = bitcast<f32>(0x0u);
                var r1_3: f32 = bitcast<f32>(0x0u);
                {
                    let x4: i32 = i32(base + 0u);
                    let x6: f32 = v6[0];
                    r1_0 = exp_f32(x6);
                }
                {
                    let x4: i32 = i32(base + 1u);
                    let x6: f32 = v6[1];
                    r1_1 = exp_f32(x6);
                }
                {
                    let x4: i32 = i32(base + 2u);
                    let x6: f32 = v6[2];
                    r1_2 = exp_f32(x6);
                }
                {
                    let x4: i32 = i32(base + 3u);
                    let x6: f32 = v6[3];
                    r1_3 = exp_f32(x6);
                }
                b1[(o1 + (base) * 4u) >> 4u] = bitcast<vec4<u32>>(vec4<f32>(r1_0, r1_1, r1_2, r1_3));
            } else {
                for (var xg = base; xg < min(base + 4u, u32(max(x5, 0))); xg += 1u) {
                    let x4: i32 = i32(xg);
                    let x6: f32 = ld0(o0 + (min(u32(x4), n0 - 1u)) * 4u);
                    {
                        let e: u32 = u32(x4);
                        if (e < n1) {
                            st1(o1 + (e) * 4u, exp_f32(x6));
                        }
                    }
                }
            }
        }
    }
    {
        let x8: i32 = s0;
        let x9: i32 = s0;
        for (var q = group * 64u + t; q < (u32(max(x8, 0)) + 3u) / 4u; q += groups * 64u) {
            let base: u32 = q * 4u;
            if (base + 4u <= u32(max(x8, 0)) && base + 4u <= n2) {
                var r3_0: f32 = bitcast<f32>(0x0u);
                var r3_1: f32 = bitcast<f32>(0x0u);
                var r3_2: f32 = bitcast<f32>(0x0u);
                var r3_3: f32 = bitcast<f32>(0x0u);
                {
                    let x7: i32 = i32(base + 0u);
                    let x10: i32 = select(x7 % x9, x7 % x9 + x9, !(x7 % x9 == bitcast<i32>(0x0u)) && ((x7 % x9 < bitcast<i32>(0x0u)) != (x9 < bitcast<i32>(0x0u))));
                    let x11: f32 = ld2(o2 + (min(u32(x10), n2 - 1u)) * 4u);
                    r3_0 = (x11 * x11);
                }
                {
                    let x7: i32 = i32(base + 1u);
                    let x10: i32 = select(x7 % x9, x7 % x9 + x9, !(x7 % x9 == bitcast<i32>(0x0u)) && ((x7 % x9 < bitcast<i32>(0x0u)) != (x9 < bitcast<i32>(0x0u))));
                    let x11: f32 = ld2(o2 + (min(u32(x10), n2 - 1u)) * 4u);
                    r3_1 = (x11 * x11);
                }
                {
                    let x7: i32 = i32(base + 2u);
                    let x10: i32 = select(x7 % x9, x7 % x9 + x9, !(x7 % x9 == bitcast<i32>(0x0u)) && ((x7 % x9 < bitcast<i32>(0x0u)) != (x9 < bitcast<i32>(0x0u))));
                    let x11: f32 = ld2(o2 + (min(u32(x10), n2 - 1u)) * 4u);
                    r3_2 = (x11 * x11);
                }
                {
                    let x7: i32 = i32(base + 3u);
                    let x10: i32 = select(x7 % x9, x7 % x9 + x9, !(x7 % x9 == bitcast<i32>(0x0u)) && ((x7 % x9 < bitcast<i32>(0x0u)) != (x9 < bitcast<i32>(0x0u))));
                    let x11: f32 = ld2(o2 + (min(u32(x10), n2 - 1u)) * 4u);
                    r3_3 = (x11 * x11);
                }
                b2[(o2 + (base) * 4u) >> 4u] = bitcast<vec4<u32>>(vec4<f32>(r3_0, r3_1, r3_2, r3_3));
            } else {
                for (var xg = base; xg < min(base + 4u, u32(max(x8, 0))); xg += 1u) {
                    let x7: i32 = i32(xg);
                    let x10: i32 = select(x7 % x9, x7 % x9 + x9, !(x7 % x9 == bitcast<i32>(0x0u)) && ((x7 % x9 < bitcast<i32>(0x0u)) != (x9 < bitcast<i32>(0x0u))));
                    let x11: f32 = ld2(o2 + (min(u32(x10), n2 - 1u)) * 4u);
                    {
                        let e: u32 = u32(x7);
                        if (e < n2) {
                            st2(o2 + (e) * 4u, (x11 * x11));
                        }
                    }
                }
            }
        }
    }
}
