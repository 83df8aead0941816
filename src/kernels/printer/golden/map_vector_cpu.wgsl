fn main {
    let n: u32 = p[launch.words + 0u];
    let nd: u32 = p[launch.words + 1u];
    let inner: u32 = p[launch.words + 1u + nd];
    let o0: u32 = p[launch.words + 2u + nd + 0u * (1u + nd)];
    var rs0: u32 = 0u;
    let o1: u32 = p[launch.words + 2u + nd + 1u * (1u + nd)];
    var rs1: u32 = 0u;
    if (nd == 2u) {
        rs0 = p[launch.words + 2u + nd + 0u * (1u + nd) + 1u];
        rs1 = p[launch.words + 2u + nd + 1u * (1u + nd) + 1u];
    }
    let q_per: u32 = (n + 3u) / 4u / (groups * 64u) + u32((n + 3u) / 4u % (groups * 64u) != 0u);
    let q_at: u32 = group * 64u + t;
    let q_blocked: bool = true;
    let q_base: u32 = select(q_at, (q_at / 8u * q_per) * 8u + q_at % 8u, q_blocked);
    let q_stride: u32 = select((groups * 64u), 8u, q_blocked);
    let q_steps: u32 = select(0u, q_per, !q_blocked || q_at / 8u <= ((n + 3u) / 4u - 1u) / max(q_per * 8u, 1u));
    for (var q_step = 0u; q_step < q_steps; q_step += 1u) {
        let q: u32 = q_base + q_step * q_stride;
        if (q >= (n + 3u) / 4u) {
            break;
        }
        let base: u32 = q * 4u;
        let end: u32 = min(base + 4u, n);
        var row: u32 = 0u;
        var col: u32 = base;
        if (nd == 2u) {
            row = base / inner;
            col = base - row * inner;
        }
        if (base + 4u <= n && col + 4u <= select(n, inner, nd == 2u)) {
            {
                let first: u32 = base;
                let loaded0 = bitcast<vec4<f32>>(rd40((o0 + (row * rs0 + col) * 4u) >> 4u));
                var r0_0: f32 = bitcast<f32>(0x0u);
                var r0_1: f32 = bitcast<f32>(0x0u);
                var r0_2: f32 = bitcast<f32>(0x0u);
                var r0_3: f32 = bitcast<f32>(0x0u);
                {
                    let i: u32 = first + 0u;
                    let x0: f32 = loaded0[0];
                    r0_0 = exp_f32(x0);
                }
                {
                    let i: u32 = first + 1u;
                    let x0: f32 = loaded0[1];
                    r0_1 = exp_f32(x0);
                }
                {
                    let i: u32 = first + 2u;
                    let x0: f32 = loaded0[2];
                    r0_2 = exp_f32(x0);
                }
                {
                    let i: u32 = first + 3u;
                    let x0: f32 = loaded0[3];
                    r0_3 = exp_f32(x0);
                }
                b1[(o1 + (row * rs1 + col) * 4u) >> 4u] = bitcast<vec4<u32>>(vec4<f32>(r0_0, r0_1, r0_2, r0_3));
            }
        } else {
            for (var i = end & ~3u; i < end; i += 1u) {
                let x0: f32 = ld0(o0 + (row * rs0 + i) * 4u);
                st1(o1 + (row * rs1 + i) * 4u, exp_f32(x0));
            }
        }
    }
}
