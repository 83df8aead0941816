fn main {
    let n: u32 = p[launch.words + 0u];
    let nd: u32 = p[launch.words + 1u];
    let s0: f32 = bitcast<f32>(p[launch.words + 2u + nd + 3u * (1u + nd) + 0u]);
    var inner: u32 = 1u;
    var sa0: u32 = 0u;
    var sb0: u32 = 0u;
    let o0: u32 = p[launch.words + 2u + nd + 0u * (1u + nd)];
    var sa1: u32 = 0u;
    var sb1: u32 = 0u;
    let o1: u32 = p[launch.words + 2u + nd + 1u * (1u + nd)];
    var sa2: u32 = 0u;
    var sb2: u32 = 0u;
    let o2: u32 = p[launch.words + 2u + nd + 2u * (1u + nd)];
    if (nd == 1u) {
        sb0 = p[launch.words + 2u + nd + 0u * 2u + 1u];
        sb1 = p[launch.words + 2u + nd + 1u * 2u + 1u];
        sb2 = p[launch.words + 2u + nd + 2u * 2u + 1u];
    } else if (nd == 2u) {
        inner = p[launch.words + 1u + 2u];
        sa0 = p[launch.words + 2u + nd + 0u * 3u + 1u];
        sb0 = p[launch.words + 2u + nd + 0u * 3u + 2u];
        sa1 = p[launch.words + 2u + nd + 1u * 3u + 1u];
        sb1 = p[launch.words + 2u + nd + 1u * 3u + 2u];
        sa2 = p[launch.words + 2u + nd + 2u * 3u + 1u];
        sb2 = p[launch.words + 2u + nd + 2u * 3u + 2u];
    }
    let i_per: u32 = n / (groups * 64u) + u32(n % (groups * 64u) != 0u);
    let i_at: u32 = group * 64u + t;
    let i_blocked: bool = nd == 1u;
    let i_base: u32 = select(i_at, (i_at / 8u * i_per) * 8u + i_at % 8u, i_blocked);
    let i_stride: u32 = select((groups * 64u), 8u, i_blocked);
    let i_steps: u32 = select(0u, i_per, !i_blocked || i_at / 8u <= (n - 1u) / max(i_per * 8u, 1u));
    for (var i_step = 0u; i_step < i_steps; i_step += 1u) {
        let i: u32 = i_base + i_step * i_stride;
        if (i >= n) {
            break;
        }
        var e0: u32 = 0u;
        var e1: u32 = 0u;
        var e2: u32 = 0u;
        if (nd == 1u) {
            e0 = i * sb0;
            e1 = i * sb1;
            e2 = i * sb2;
        } else if (nd == 2u) {
            let row: u32 = i / inner;
            let col: u32 = i % inner;
            e0 = row * sa0 + col * sb0;
            e1 = row * sa1 + col * sb1;
            e2 = row * sa2 + col * sb2;
        } else {
            var r: u32 = i;
            for (var d = nd; d > 0u; d -= 1u) {
                let c: u32 = r % p[launch.words + 1u + d];
                r = r / p[launch.words + 1u + d];
                e0 += c * p[launch.words + 2u + nd + 0u * (1u + nd) + d];
                e1 += c * p[launch.words + 2u + nd + 1u * (1u + nd) + d];
                e2 += c * p[launch.words + 2u + nd + 2u * (1u + nd) + d];
            }
        }
        let a0: u32 = o0 + e0 * 4u;
        let a1: u32 = o1 + e1 * 4u;
        let a2: u32 = o2 + e2 * 4u;
        let x0: f32 = ld0(a0);
        let x1: f32 = ld1(a1);
        st2(a2, (x0 + (x1 * s0)));
    }
}
