fn main {
    let xn: u32 = p[launch.words + 0u];
    let rn: u32 = p[launch.words + 1u];
    let o0: u32 = p[launch.words + 2u];
    let n0: u32 = p[launch.words + 4u];
    let o1: u32 = p[launch.words + 3u];
    let n1: u32 = p[launch.words + 5u];
    let s0: f32 = bitcast<f32>(p[launch.words + 6u + 0u]);
    let x2: i32 = i32(xn);
    let x3: i32 = i32(rn);
    let x4: f32 = f32(pow_f64(f64(bitcast<f32>(0x3f666666u)), f64(s0)));
    let x5: f32 = (bitcast<f32>(0x3f800000u) - x4);
    for (var xg = group * 64u + t; xg < xn; xg += groups * 64u) {
        let x0: i32 = i32(xg);
        let x6: f32 = ld0(o0 + (min(u32(x0), n0 - 1u)) * 4u);
        {
            let e: u32 = u32(x0);
            if (e < n1) {
                st1(o1 + (e) * 4u, (x6 / x5));
            }
        }
    }
}
