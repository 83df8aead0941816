fn main {
    let n: u32 = p[launch.words + 0u];
    let nd: u32 = p[launch.words + 1u];
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
    var sa3: u32 = 0u;
    var sb3: u32 = 0u;
    let o3: u32 = p[launch.words + 2u + nd + 3u * (1u + nd)];
    if (nd == 1u) {
        sb0 = p[launch.words + 2u + nd + 0u * 2u + 1u];
        sb1 = p[launch.words + 2u + nd + 1u * 2u + 1u];
        sb2 = p[launch.words + 2u + nd + 2u * 2u + 1u];
        sb3 = p[launch.words + 2u + nd + 3u * 2u + 1u];
    } else if (nd == 2u) {
        inner = p[launch.words + 1u + 2u];
        sa0 = p[launch.words + 2u + nd + 0u * 3u + 1u];
        sb0 = p[launch.words + 2u + nd + 0u * 3u + 2u];
        sa1 = p[launch.words + 2u + nd + 1u * 3u + 1u];
        sb1 = p[launch.words + 2u + nd + 1u * 3u + 2u];
        sa2 = p[launch.words + 2u + nd + 2u * 3u + 1u];
        sb2 = p[launch.words + 2u + nd + 2u * 3u + 2u];
        sa3 = p[launch.words + 2u + nd + 3u * 3u + 1u];
        sb3 = p[launch.words + 2u + nd + 3u * 3u + 2u];
    }
    for (var i = group * 64u + t; i < n; i += groups * 64u) {
        var e0: u32 = 0u;
        var e1: u32 = 0u;
        var e2: u32 = 0u;
        var e3: u32 = 0u;
        if (nd == 1u) {
            e0 = i * sb0;
            e1 = i * sb1;
            e2 = i * sb2;
            e3 = i * sb3;
        } else if (nd == 2u) {
            let row: u32 = i / inner;
            let col: u32 = i % inner;
            e0 = row * sa0 + col * sb0;
            e1 = row * sa1 + col * sb1;
            e2 = row * sa2 + col * sb2;
            e3 = row * sa3 + col * sb3;
        } else {
            var r: u32 = i;
            for (var d = nd; d > 0u; d -= 1u) {
                let c: u32 = r % p[launch.words + 1u + d];
                r = r / p[launch.words + 1u + d];
                e0 += c * p[launch.words + 2u + nd + 0u * (1u + nd) + d];
                e1 += c * p[launch.words + 2u + nd + 1u * (1u + nd) + d];
                e2 += c * p[launch.words + 2u + nd + 2u * (1u + nd) + d];
                e3 += c * p[launch.words + 2u + nd + 3u * (1u + nd) + d];
            }
        }
        let a0: u32 = o0 + e0 * 4u;
        let a1: u32 = o1 + e1 * 4u;
        let a2: u32 = o2 + e2 * 4u;
        let a3: u32 = o3 + e3 * 4u;
        let x0: f32 = ld0(a0);
        let x1: f32 = ld1(a1);
        let v0: bool = ((bitcast<u32>(x1) & 0x7fffffffu) == 0x7f800000u);
        let v1: bool = (x0 >= bitcast<f32>(0x0u));
        let v2: f32 = abs(x0);
        let v3: f32 = abs(x1);
        let v4: f32 = select(select(max(v2, v3), v3, !(v3 == v3)), v2, !(v2 == v2));
        let v5: f32 = select((select(select(min(v2, v3), v3, !(v3 == v3)), v2, !(v2 == v2)) / v4), bitcast<f32>(0x0u), (v4 == bitcast<f32>(0x0u)));
        let v6: f32 = select((v4 * sqrt((bitcast<f32>(0x3f800000u) + (v5 * v5)))), bitcast<f32>(0x7f800000u), (((bitcast<u32>(v2) & 0x7fffffffu) == 0x7f800000u) | ((bitcast<u32>(v3) & 0x7fffffffu) == 0x7f800000u)));
        let v7: f32 = sqrt((select((v6 - x0), (v6 + x0), v1) * bitcast<f32>(0x3f000000u)));
        let v8: bool = (v7 == bitcast<f32>(0x0u));
        let v9: f32 = (bitcast<f32>(0x40000000u) * v7);
        st2(a2, select(select(select((v3 / v9), v7, v1), bitcast<f32>(0x0u), v8), bitcast<f32>(0x7f800000u), v0));
        st3(a3, select(select(select(bitcast<f32>((bitcast<u32>(v7) & 0x7fffffffu) | (bitcast<u32>(x1) & 0x80000000u)), (x1 / v9), v1), x1, v8), x1, v0));
    }
}
