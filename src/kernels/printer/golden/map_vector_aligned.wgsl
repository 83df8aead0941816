fn main {
    let n: u32 = p[launch.words + 0u];
    let nd: u32 = p[launch.words + 1u];
    let inner: u32 = p[launch.words + 1u + nd];
    let o0: u32 = p[launch.words + 2u + nd + 0u * (1u + nd)];
    var rs0: u32 = 0u;
    let o1: u32 = p[launch.words + 2u + nd + 1u * (1u + nd)];
    var rs1: u32 = 0u;
    let o2: u32 = p[launch.words + 2u + nd + 2u * (1u + nd)];
    var rs2: u32 = 0u;
    if (nd == 2u) {
        rs0 = p[launch.words + 2u + nd + 0u * (1u + nd) + 1u];
        rs1 = p[launch.words + 2u + nd + 1u * (1u + nd) + 1u];
        rs2 = p[launch.words + 2u + nd + 2u * (1u + nd) + 1u];
    }
    for (var q = group * 64u + t; q < (n + 15u) / 16u; q += groups * 64u) {
        let base: u32 = q * 16u;
        let end: u32 = min(base + 16u, n);
        var row: u32 = 0u;
        var col: u32 = base;
        if (nd == 2u) {
            row = base / inner;
            col = base - row * inner;
        }
        if (base + 16u <= n && col + 16u <= select(n, inner, nd == 2u)) {
            let w0_0 = b0[(o0 + (row * rs0 + col + 0u) * 1u) >> 4u];
            let w1_0 = b1[(o1 + (row * rs1 + col + 0u) * 2u) >> 4u];
            var w2_0: vec4<u32>;
            {
                let first: u32 = base;
                let loaded0 = w0_0[0];
                let loaded1 = vec2<u32>(w1_0[0], w1_0[1]);
                var r0_0: f32 = bitcast<f32>(0x0u);
                var r0_1: f32 = bitcast<f32>(0x0u);
                var r0_2: f32 = bitcast<f32>(0x0u);
                var r0_3: f32 = bitcast<f32>(0x0u);
                {
                    let i: u32 = first + 0u;
                    let x0: u32 = ((loaded0 >> 0u) & 0xffu);
                    let x1: f32 = f16_to_f32(((loaded1[0] >> 0u) & 0xffffu));
                    r0_0 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                }
                {
                    let i: u32 = first + 1u;
                    let x0: u32 = ((loaded0 >> 8u) & 0xffu);
                    let x1: f32 = f16_to_f32(((loaded1[0] >> 16u) & 0xffffu));
                    r0_1 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                }
                {
                    let i: u32 = first + 2u;
                    let x0: u32 = ((loaded0 >> 16u) & 0xffu);
                    let x1: f32 = f16_to_f32(((loaded1[1] >> 0u) & 0xffffu));
                    r0_2 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                }
                {
                    let i: u32 = first + 3u;
                    let x0: u32 = ((loaded0 >> 24u) & 0xffu);
                    let x1: f32 = f16_to_f32(((loaded1[1] >> 16u) & 0xffffu));
                    r0_3 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                }
                w2_0[0] = (f32_to_f16(r0_0) << 0u) | (f32_to_f16(r0_1) << 16u); w2_0[1] = (f32_to_f16(r0_2) << 0u) | (f32_to_f16(r0_3) << 16u);
            }
            {
                let first: u32 = base + 4u;
                let loaded0 = w0_0[1];
                let loaded1 = vec2<u32>(w1_0[2], w1_0[3]);
                var r0_0: f32 = bitcast<f32>(0x0u);
                var r0_1: f32 = bitcast<f32>(0x0u);
                var r0_2: f32 = bitcast<f32>(0x0u);
                var r0_3: f32 = bitcast<f32>(0x0u);
                {
                    let i: u32 = first + 0u;
                    let x0: u32 = ((loaded0 >> 0u) & 0xffu);
                    let x1: f32 = f16_to_f32(((loaded1[0] >> 0u) & 0xffffu));
                    r0_0 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                }
                {
                    let i: u32 = first + 1u;
                    let x0: u32 = ((loaded0 >> 8u) & 0xffu);
                    let x1: f32 = f16_to_f32(((loaded1[0] >> 16u) & 0xffffu));
                    r0_1 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                }
                {
                    let i: u32 = first + 2u;
                    let x0: u32 = ((loaded0 >> 16u) & 0xffu);
                    let x1: f32 = f16_to_f32(((loaded1[1] >> 0u) & 0xffffu));
                    r0_2 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                }
                {
                    let i: u32 = first + 3u;
                    let x0: u32 = ((loaded0 >> 24u) & 0xffu);
                    let x1: f32 = f16_to_f32(((loaded1[1] >> 16u) & 0xffffu));
                    r0_3 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                }
                w2_0[2] = (f32_to_f16(r0_0) << 0u) | (f32_to_f16(r0_1) << 16u); w2_0[3] = (f32_to_f16(r0_2) << 0u) | (f32_to_f16(r0_3) << 16u);
            }
            b2[(o2 + (row * rs2 + col + 0u) * 2u) >> 4u] = w2_0;
            let w1_1 = b1[(o1 + (row * rs1 + col + 8u) * 2u) >> 4u];
            var w2_1: vec4<u32>;
            {
                let first: u32 = base + 8u;
                let loaded0 = w0_0[2];
                let loaded1 = vec2<u32>(w1_1[0], w1_1[1]);
                var r0_0: f32 = bitcast<f32>(0x0u);
                var r0_1: f32 = bitcast<f32>(0x0u);
                var r0_2: f32 = bitcast<f32>(0x0u);
                var r0_3: f32 = bitcast<f32>(0x0u);
                {
                    let i: u32 = first + 0u;
                    let x0: u32 = ((loaded0 >> 0u) & 0xffu);
                    let x1: f32 = f16_to_f32(((loaded1[0] >> 0u) & 0xffffu));
                    r0_0 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                }
                {
                    let i: u32 = first + 1u;
                    let x0: u32 = ((loaded0 >> 8u) & 0xffu);
                    let x1: f32 = f16_to_f32(((loaded1[0] >> 16u) & 0xffffu));
                    r0_1 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                }
                {
                    let i: u32 = first + 2u;
                    let x0: u32 = ((loaded0 >> 16u) & 0xffu);
                    let x1: f32 = f16_to_f32(((loaded1[1] >> 0u) & 0xffffu));
                    r0_2 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                }
                {
                    let i: u32 = first + 3u;
                    let x0: u32 = ((loaded0 >> 24u) & 0xffu);
                    let x1: f32 = f16_to_f32(((loaded1[1] >> 16u) & 0xffffu));
                    r0_3 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                }
                w2_1[0] = (f32_to_f16(r0_0) << 0u) | (f32_to_f16(r0_1) << 16u); w2_1[1] = (f32_to_f16(r0_2) << 0u) | (f32_to_f16(r0_3) << 16u);
            }
            {
                let first: u32 = base + 12u;
                let loaded0 = w0_0[3];
                let loaded1 = vec2<u32>(w1_1[2], w1_1[3]);
                var r0_0: f32 = bitcast<f32>(0x0u);
                var r0_1: f32 = bitcast<f32>(0x0u);
                var r0_2: f32 = bitcast<f32>(0x0u);
                var r0_3: f32 = bitcast<f32>(0x0u);
                {
                    let i: u32 = first + 0u;
                    let x0: u32 = ((loaded0 >> 0u) & 0xffu);
                    let x1: f32 = f16_to_f32(((loaded1[0] >> 0u) & 0xffffu));
                    r0_0 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                }
                {
                    let i: u32 = first + 1u;
                    let x0: u32 = ((loaded0 >> 8u) & 0xffu);
                    let x1: f32 = f16_to_f32(((loaded1[0] >> 16u) & 0xffffu));
                    r0_1 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                }
                {
                    let i: u32 = first + 2u;
                    let x0: u32 = ((loaded0 >> 16u) & 0xffu);
                    let x1: f32 = f16_to_f32(((loaded1[1] >> 0u) & 0xffffu));
                    r0_2 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                }
                {
                    let i: u32 = first + 3u;
                    let x0: u32 = ((loaded0 >> 24u) & 0xffu);
                    let x1: f32 = f16_to_f32(((loaded1[1] >> 16u) & 0xffffu));
                    r0_3 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                }
                w2_1[2] = (f32_to_f16(r0_0) << 0u) | (f32_to_f16(r0_1) << 16u); w2_1[3] = (f32_to_f16(r0_2) << 0u) | (f32_to_f16(r0_3) << 16u);
            }
            b2[(o2 + (row * rs2 + col + 8u) * 2u) >> 4u] = w2_1;
        } else {
            for (var four = base; four + 4u <= end; four += 4u) {
                var row: u32 = 0u;
                var col: u32 = four;
                if (nd == 2u) {
                    row = four / inner;
                    col = four - row * inner;
                }
                {
                    let first: u32 = four;
                    let loaded0 = rw0((o0 + (row * rs0 + col) * 1u) >> 2u);
                    let loaded1 = rwp1((o1 + (row * rs1 + col) * 2u) >> 2u);
                    var r0_0: f32 = bitcast<f32>(0x0u);
                    var r0_1: f32 = bitcast<f32>(0x0u);
                    var r0_2: f32 = bitcast<f32>(0x0u);
                    var r0_3: f32 = bitcast<f32>(0x0u);
                    {
                        let i: u32 = first + 0u;
                        let x0: u32 = ((loaded0 >> 0u) & 0xffu);
                        let x1: f32 = f16_to_f32(((loaded1[0] >> 0u) & 0xffffu));
                        r0_0 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                    }
                    {
                        let i: u32 = first + 1u;
                        let x0: u32 = ((loaded0 >> 8u) & 0xffu);
                        let x1: f32 = f16_to_f32(((loaded1[0] >> 16u) & 0xffffu));
                        r0_1 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                    }
                    {
                        let i: u32 = first + 2u;
                        let x0: u32 = ((loaded0 >> 16u) & 0xffu);
                        let x1: f32 = f16_to_f32(((loaded1[1] >> 0u) & 0xffffu));
                        r0_2 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                    }
                    {
                        let i: u32 = first + 3u;
                        let x0: u32 = ((loaded0 >> 24u) & 0xffu);
                        let x1: f32 = f16_to_f32(((loaded1[1] >> 16u) & 0xffffu));
                        r0_3 = (f16_to_f32(f32_to_f16(f32(x0))) + x1);
                    }
                    wwp2((o2 + (row * rs2 + col) * 2u) >> 2u, vec2<u32>((f32_to_f16(r0_0) << 0u) | (f32_to_f16(r0_1) << 16u), (f32_to_f16(r0_2) << 0u) | (f32_to_f16(r0_3) << 16u)));
                }
            }
            for (var i = end & ~3u; i < end; i += 1u) {
                let x0: u32 = ld0(o0 + (row * rs0 + i) * 1u);
                let x1: f32 = ld1(o1 + (row * rs1 + i) * 2u);
                st2(o2 + (row * rs2 + i) * 2u, (f16_to_f32(f32_to_f16(f32(x0))) + x1));
            }
        }
    }
}
