fn better1(x0: f32, i: i64, x1: f32, j: i64) -> bool {
    return ((x1 > x0) | (((bitcast<u32>(x1) & 0x7fffffffu) > 0x7f800000u) & (!((bitcast<u32>(x0) & 0x7fffffffu) > 0x7f800000u)))) || (((x1 == x0) | (((bitcast<u32>(x1) & 0x7fffffffu) > 0x7f800000u) & ((bitcast<u32>(x0) & 0x7fffffffu) > 0x7f800000u))) && j < i);
}
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
    for (var xg = group * 64u + t; xg < xn; xg += groups * 64u) {
        let x0: i32 = i32(xg);
        let x4: i32 = x0;
        var x7: f32 = bitcast<f32>(0x0u);
        var a1: f32 = bitcast<f32>(0x0u);
        var ok1: bool = false;
        var x8: i64 = 0li;
        for (var r = 0u; r < rn; r += 1u) {
            let x1: i32 = i32(r);
            let x5: i32 = x1;
            let x6: f32 = ld0(o0 + (min(u32((x5 + (x4 * x3))), n0 - 1u)) * 4u);
            x7 = (x7 + x6);
            let x25: f32 = x6;
            if (!ok1 || better1(a1, x8, x25, i64(x1))) {
                a1 = x25;
                x8 = i64(x1);
                ok1 = true;
            }
        }
        {
            let e: u32 = u32(x4);
            if (e < n1) {
                st1(o1 + (e) * 4u, x7);
            }
        }
        {
            let e: u32 = u32(x4);
            if (e < n2) {
                st2(o2 + (e) * 8u, x8);
            }
        }
    }
}
