fn main {
    let n: u32 = p[0u];
    for (var i = group * 64u + t; i < n; i += groups * 64u) {
        if (i < p[1u]) {
            let j: u32 = i - 0u;
            let s0: f32 = bitcast<f32>(p[9u + 0u]);
            let x0: f32 = ld0(p[3u] + j * 4u);
            let x1: f32 = ld2(p[5u]);
            st4(p[7u] + j * 4u, (x0 * x1));
        } else if (i < p[2u]) {
            let j: u32 = i - p[1u];
            let s0: f32 = bitcast<f32>(p[10u + 0u]);
            let x0: f32 = ld1(p[4u] + j * 4u);
            let x1: f32 = ld3(p[6u]);
            st5(p[8u] + j * 4u, (x0 * x1));
        }
    }
}
