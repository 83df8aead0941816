fn main {
    let xn: u32 = p[launch.words + 0u];
    let rn: u32 = p[launch.words + 1u];
    let o0: u32 = p[launch.words + 2u];
    let n0: u32 = p[launch.words + 5u];
    let o1: u32 = p[launch.words + 3u];
    let n1: u32 = p[launch.words + 6u];
    let o2: u32 = p[launch.words + 4u];
    let n2: u32 = p[launch.words + 7u];
    let x2: i32 = i32(xn);
    let x3: i32 = i32(rn);
    {
        let x5: i32 = bitcast<i32>(0x3u);
        let x6: i32 = bitcast<i32>(0x5u);
        for (var xg = group * 64u + t; xg < u32(max(x5, 0)); xg += groups * 64u) {
            let x4: i32 = i32(xg);
            var x8: f32 = bitcast<f32>(0x0u);
            for (var r = 0u; r < u32(max(x6, 0)); r += 1u) {
                let x1: i32 = i32(r);
                let x7: f32 = ld0(o0 + (min(u32((x1 + (x4 * x6))), n0 - 1u)) * 4u);
                x8 = (x8 + x7);
            }
            {
                let e: u32 = u32(x4);
                if (e < n1) {
                    st1(o1 + (e) * 4u, x8);
                }
            }
        }
    }
    {
        let x10: i32 = bitcast<i32>(0xfu);
        let x11: i32 = bitcast<i32>(0x1u);
        for (var xg = group * 64u + t; xg < u32(max(x10, 0)); xg += groups * 64u) {
            let x9: i32 = i32(xg);
            let x12: f32 = ld0(o0 + (min(u32(x9), n0 - 1u)) * 4u);
            {
                let e: u32 = u32(x9);
                if (e < n2) {
                    st2(o2 + (e) * 4u, exp_f32(x12));
                }
            }
        }
    }
}
