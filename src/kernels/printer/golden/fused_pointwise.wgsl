fn main {
    let xn: u32 = p[launch.words + 0u];
    let rn: u32 = p[launch.words + 1u];
    let o0: u32 = p[launch.words + 2u];
    let n0: u32 = p[launch.words + 4u];
    let o1: u32 = p[launch.words + 3u];
    let n1: u32 = p[launch.words + 5u];
    let s0: i32 = bitcast<i32>(p[launch.words + 6u + 0u]);
    let s1: f32 = bitcast<f32>(p[launch.words + 6u + 1u]);
    let x2: i32 = i32(xn);
    let x3: i32 = i32(rn);
    for (var xg = group * 64u + t; xg < xn; xg += groups * 64u) {
        let x0: i32 = i32(xg);
        let x4: i32 = select(x0 % s0, x0 % s0 + s0, !(x0 % s0 == bitcast<i32>(0x0u)) && ((x0 % s0 < bitcast<i32>(0x0u)) != (s0 < bitcast<i32>(0x0u))));
        let x5: bool = (i64(x4) >= i64(bitcast<i32>(0x2u)));
        var x6: f32 = bitcast<f32>(0x0u);
        if (x5) {
            let x7: f32 = ld0(o0 + (min(u32((x0 + bitcast<i32>(0xfffffffeu))), n0 - 1u)) * 4u);
            x6 = (s1 * exp_f32(x7));
        }
        {
            let e: u32 = u32(x0);
            if (e < n1) {
                st1(o1 + (e) * 4u, x6);
            }
        }
    }
}
