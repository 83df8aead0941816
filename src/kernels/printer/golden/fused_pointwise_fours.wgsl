fn main {
    let xn: u32 = p[launch.words + 0u];
    let rn: u32 = p[launch.words + 1u];
    let o0: u32 = p[launch.words + 2u];
    let n0: u32 = p[launch.words + 6u];
    let o1: u32 = p[launch.words + 3u];
    let n1: u32 = p[launch.words + 7u];
    let o2: u32 = p[launch.words + 4u];
    let n2: u32 = p[launch.words + 8u];
    let o3: u32 = p[launch.words + 5u];
    let n3: u32 = p[launch.words + 9u];
    let x2: i32 = i32(xn);
    let x3: i32 = i32(rn);
    for (var q = group * 64u + t; q < (xn + 3u) / 4u; q += groups * 64u) {
        let base: u32 = q * 4u;
        if (base + 4u <= xn && base + 4u <= n0 && base + 4u <= n2) {
            let v6 = bitcast<vec4<f32>>(b0[(o0 + (base) * 4u) >> 4u]);
            var r5_0: f32 = bitcast<f32>(0x0u);
            var r5_1: f32 = bitcast<f32>(0x0u);
            var r5_2: f32 = bitcast<f32>(0x0u);
            var r5_3: f32 = bitcast<f32>(0x0u);
            {
                let x0: i32 = i32(base + 0u);
                let x4: i32 = x0;
                let x5: i32 = select(x0 % bitcast<i32>(0x400u), x0 % bitcast<i32>(0x400u) + bitcast<i32>(0x400u), !(x0 % bitcast<i32>(0x400u) == bitcast<i32>(0x0u)) && ((x0 % bitcast<i32>(0x400u) < bitcast<i32>(0x0u)) != (bitcast<i32>(0x400u) < bitcast<i32>(0x0u))));
                let x6: f32 = v6[0];
                let x7: f32 = ld1(o1 + (min(u32(x5), n1 - 1u)) * 4u);
                let x8: f32 = (x6 + x7);
                r5_0 = bf16_to_f32(f32_to_bf16(x8));
                {
                    let e: u32 = u32(x4);
                    if (e < n3) {
                        st3(o3 + (e) * 8u, F64(x8));
                    }
                }
            }
            {
                let x0: i32 = i32(base + 1u);
                let x4: i32 = x0;
                let x5: i32 = select(x0 % bitcast<i32>(0x400u), x0 % bitcast<i32>(0x400u) + bitcast<i32>(0x400u), !(x0 % bitcast<i32>(0x400u) == bitcast<i32>(0x0u)) && ((x0 % bitcast<i32>(0x400u) < bitcast<i32>(0x0u)) != (bitcast<i32>(0x400u) < bitcast<i32>(0x0u))));
                let x6: f32 = v6[1];
                let x7: f32 = ld1(o1 + (min(u32(x5), n1 - 1u)) * 4u);
                let x8: f32 = (x6 + x7);
                r5_1 = bf16_to_f32(f32_to_bf16(x8));
                {
                    let e: u32 = u32(x4);
                    if (e < n3) {
                        st3(o3 + (e) * 8u, F64(x8));
                    }
                }
            }
            {
                let x0: i32 = i32(base + 2u);
                let x4: i32 = x0;
                let x5: i32 = select(x0 % bitcast<i32>(0x400u), x0 % bitcast<i32>(0x400u) + bitcast<i32>(0x400u), !(x0 % bitcast<i32>(0x400u) == bitcast<i32>(0x0u)) && ((x0 % bitcast<i32>(0x400u) < bitcast<i32>(0x0u)) != (bitcast<i32>(0x400u) < bitcast<i32>(0x0u))));
                let x6: f32 = v6[2];
                let x7: f32 = ld1(o1 + (min(u32(x5), n1 - 1u)) * 4u);
                let x8: f32 = (x6 + x7);
                r5_2 = bf16_to_f32(f32_to_bf16(x8));
                {
                    let e: u32 = u32(x4);
                    if (e < n3) {
                        st3(o3 + (e) * 8u, F64(x8));
                    }
                }
            }
            {
                let x0: i32 = i32(base + 3u);
                let x4: i32 = x0;
                let x5: i32 = select(x0 % bitcast<i32>(0x400u), x0 % bitcast<i32>(0x400u) + bitcast<i32>(0x400u), !(x0 % bitcast<i32>(0x400u) == bitcast<i32>(0x0u)) && ((x0 % bitcast<i32>(0x400u) < bitcast<i32>(0x0u)) != (bitcast<i32>(0x400u) < bitcast<i32>(0x0u))));
                let x6: f32 = v6[3];
                let x7: f32 = ld1(o1 + (min(u32(x5), n1 - 1u)) * 4u);
                let x8: f32 = (x6 + x7);
                r5_3 = bf16_to_f32(f32_to_bf16(x8));
                {
                    let e: u32 = u32(x4);
                    if (e < n3) {
                        st3(o3 + (e) * 8u, F64(x8));
                    }
                }
            }
            wwp2((o2 + (base) * 2u) >> 2u, vec2<u32>((f32_to_bf16(r5_0) << 0u) | (f32_to_bf16(r5_1) << 16u), (f32_to_bf16(r5_2) << 0u) | (f32_to_bf16(r5_3) << 16u)));
        } else {
            for (var xg = base; xg < min(base + 4u, xn); xg += 1u) {
                let x0: i32 = i32(xg);
                let x4: i32 = x0;
                let x5: i32 = select(x0 % bitcast<i32>(0x400u), x0 % bitcast<i32>(0x400u) + bitcast<i32>(0x400u), !(x0 % bitcast<i32>(0x400u) == bitcast<i32>(0x0u)) && ((x0 % bitcast<i32>(0x400u) < bitcast<i32>(0x0u)) != (bitcast<i32>(0x400u) < bitcast<i32>(0x0u))));
                let x6: f32 = ld0(o0 + (min(u32(x4), n0 - 1u)) * 4u);
                let x7: f32 = ld1(o1 + (min(u32(x5), n1 - 1u)) * 4u);
                let x8: f32 = (x6 + x7);
                {
                    let e: u32 = u32(x4);
                    if (e < n2) {
                        st2(o2 + (e) * 2u, bf16_to_f32(f32_to_bf16(x8)));
                    }
                }
                {
                    let e: u32 = u32(x4);
                    if (e < n3) {
                        st3(o3 + (e) * 8u, F64(x8));
                    }
                }
            }
        }
    }
}
