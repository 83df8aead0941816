var<workgroup> sh0_0: array<f32, 64>;
var<workgroup> sh0_1: array<f32, 64>;
var<workgroup> sh0_2: array<f32, 64>;
var<workgroup> sh1_0: array<f32, 64>;
var<workgroup> sh1_1: array<i64, 64>;
var<workgroup> wv_shared: array<u32, 2>;
fn better1(x0: f32, i: i64, x1: f32, j: i64) -> bool {
    return ((x1 > x0) | (((bitcast<u32>(x1) & 0x7fffffffu) > 0x7f800000u) & (!((bitcast<u32>(x0) & 0x7fffffffu) > 0x7f800000u)))) || (((x1 == x0) | (((bitcast<u32>(x1) & 0x7fffffffu) > 0x7f800000u) & ((bitcast<u32>(x0) & 0x7fffffffu) > 0x7f800000u))) && j < i);
}
fn main {
    if (t == 0u) { for (var k = 0u; k < 2u; k += 1u) { wv_shared[k] = p[launch.words + k]; } }
    let wv = workgroupUniformLoad(&wv_shared);
    let xn: u32 = wv[0];
    let rn: u32 = wv[1];
    let o0: u32 = p[launch.words + 2u];
    let n0: u32 = p[launch.words + 5u];
    let o1: u32 = p[launch.words + 3u];
    let n1: u32 = p[launch.words + 6u];
    let o2: u32 = p[launch.words + 4u];
    let n2: u32 = p[launch.words + 7u];
    let x2: i32 = i32(xn);
    let x3: i32 = i32(rn);
    for (var xg = group; xg < xn; xg += groups) {
        let x0: i32 = i32(xg);
        let x4: i32 = x0;
        var x7: f32 = bitcast<f32>(0x0u);
        var x8: f32 = bitcast<f32>(0x0u);
        var x9: f32 = bitcast<f32>(0x0u);
        var a1: f32 = bitcast<f32>(0x0u);
        var ok1: bool = false;
        var x10: i64 = 0li;
        for (var r = t; r < rn; r += 64u) {
            let x1: i32 = i32(r);
            let x5: i32 = x1;
            let x6: f32 = ld0(o0 + (min(u32((x5 + (x4 * x3))), n0 - 1u)) * 2u);
            let x11: f32 = x6;
            x9 = (x9 + bitcast<f32>(0x3f800000u));
            let x12: f32 = (x11 - x7);
            x7 = (x7 + (x12 / x9));
            x8 = (x8 + (x12 * (x11 - x7)));
            let x27: f32 = x6;
            if (!ok1 || better1(a1, x10, x27, i64(x1))) {
                a1 = x27;
                x10 = i64(x1);
                ok1 = true;
            }
        }
        sh0_0[t] = x7;
        sh0_1[t] = x8;
        sh0_2[t] = x9;
        workgroupBarrier();
        for (var s = 32u; s > 0u; s = s >> 1u) {
            if (t < s) {
                var x17: f32 = sh0_0[t];
                var x18: f32 = sh0_1[t];
                var x19: f32 = sh0_2[t];
                {
                    let x11: f32 = sh0_0[t + s];
                    let x12: f32 = sh0_1[t + s];
                    let x13: f32 = sh0_2[t + s];
                    let x14: f32 = (x19 + x13);
                    let x15: f32 = (x11 - x17);
                    let x16: f32 = select((x13 / x14), bitcast<f32>(0x0u), (x14 == bitcast<f32>(0x0u)));
                    x18 = ((x18 + x12) + (((x15 * x15) * x19) * x16));
                    x17 = (x17 + (x15 * x16));
                    x19 = x14;
                }
                sh0_0[t] = x17;
                sh0_1[t] = x18;
                sh0_2[t] = x19;
            }
            workgroupBarrier();
        }
        x7 = sh0_0[0];
        x8 = sh0_1[0];
        x9 = sh0_2[0];
        workgroupBarrier();
        sh1_0[t] = a1;
        sh1_1[t] = select(9223372036854775807li, x10, ok1);
        workgroupBarrier();
        for (var s = 32u; s > 0u; s = s >> 1u) {
            if (t < s) {
                if (better1(sh1_0[t], sh1_1[t], sh1_0[t + s], sh1_1[t + s])) {
                    sh1_0[t] = sh1_0[t + s];
                    sh1_1[t] = sh1_1[t + s];
                }
            }
            workgroupBarrier();
        }
        x10 = sh1_1[0];
        workgroupBarrier();
        {
            let e: u32 = u32(x4);
            if (t == 0u && e < n1) {
                st1(o1 + (e) * 4u, (x8 / x9));
            }
        }
        {
            let e: u32 = u32(x4);
            if (t == 0u && e < n2) {
                st2(o2 + (e) * 8u, x10);
            }
        }
    }
}
