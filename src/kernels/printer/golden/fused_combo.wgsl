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
        for (var xg = group * 64u + t; xg < u32(max(x5, 0)); xg += groups * 64u) {
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
    {
        let x8: i32 = s0;
        let x9: i32 = s0;
        for (var xg = group * 64u + t; xg < u32(max(x8, 0)); xg += groups * 64u) {
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
