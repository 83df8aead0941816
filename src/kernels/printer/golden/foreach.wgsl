fn main {
    let n: u32 = p[launch.words + 0u];
    for (var i = group * 64u + t; i < n; i += groups * 64u) {
        if (i < p[launch.words + 1u]) {
            let j: u32 = i - 0u;
            let s0: f32 = bitcast<f32>(p[launch.words + 9u + 0u]);
            let x0: f32 = ld0(p[launch.words + 3u] + j * 4u);
            let x1: f32 = ld2(p[launch.words + 5u]);
            st4(p[launch.words + 7u] + j * 4u, (x0 * x1));
        } else if (i < p[launch.words + 2u]) {
            let j: u32 = i - p[launch.words + 1u];
            let s0: f32 = bitcast<f32>(p[launch.words + 10u + 0u]);
            let x0: f32 = ld1(p[launch.words + 4u] + j * 4u);
            let x1: f32 = ld3(p[launch.words + 6u]);
            st5(p[launch.words + 8u] + j * 4u, (x0 * x1));
        }
    }
}
