var<workgroup> dims_shared: array<u32, 6>;
fn put(b: u32, row: u32, col: u32, acc: f32) {
    if (row < p[launch.words + 0u] && col < p[launch.words + 1u]) {
        let grp: u32 = b / p[launch.words + 6u];
        var v: f32 = acc;
        st2(p[launch.words + 14u] + ((b % p[launch.words + 6u]) * p[launch.words + 20u] + grp * p[launch.words + 15u] + (row) * p[launch.words + 16u] + ((col) / p[launch.words + 17u]) * p[launch.words + 18u] + ((col) % p[launch.words + 17u]) * p[launch.words + 19u]) * 4u, v);
    }
}
fn source(tap: u32, pos: u32, grp: u32) -> u32 {
    let ch: u32 = tap / p[launch.words + 46u];
    var z: u32 = tap % p[launch.words + 46u];
    let bn: u32 = pos / p[launch.words + 47u];
    var s: u32 = pos % p[launch.words + 47u];
    var e: u32 = grp * p[launch.words + 22u] + bn * p[launch.words + 23u] + ch * p[launch.words + 24u];
    let o2: u32 = z % p[launch.words + 36u];
    z = z / p[launch.words + 36u];
    let p2: u32 = s % p[launch.words + 30u];
    s = s / p[launch.words + 30u];
    let u2: u32 = p2 * p[launch.words + 39u] + o2 * p[launch.words + 45u];
    if (u2 < p[launch.words + 42u] || u2 - p[launch.words + 42u] >= p[launch.words + 33u]) {
        return 0xffffffffu;
    }
    e += (u2 - p[launch.words + 42u]) * p[launch.words + 27u];
    let o1: u32 = z % p[launch.words + 35u];
    z = z / p[launch.words + 35u];
    let p1: u32 = s % p[launch.words + 29u];
    s = s / p[launch.words + 29u];
    let u1: u32 = p1 * p[launch.words + 38u] + o1 * p[launch.words + 44u];
    if (u1 < p[launch.words + 41u] || u1 - p[launch.words + 41u] >= p[launch.words + 32u]) {
        return 0xffffffffu;
    }
    e += (u1 - p[launch.words + 41u]) * p[launch.words + 26u];
    let o0: u32 = z % p[launch.words + 34u];
    z = z / p[launch.words + 34u];
    let p0: u32 = s % p[launch.words + 28u];
    s = s / p[launch.words + 28u];
    let u0: u32 = p0 * p[launch.words + 37u] + o0 * p[launch.words + 43u];
    if (u0 < p[launch.words + 40u] || u0 - p[launch.words + 40u] >= p[launch.words + 31u]) {
        return 0xffffffffu;
    }
    e += (u0 - p[launch.words + 40u]) * p[launch.words + 25u];
    return e;
}
fn main {
    if (t == 0u) { for (var k = 0u; k < 6u; k += 1u) { dims_shared[k] = p[launch.words + k]; } }
    let dims = workgroupUniformLoad(&dims_shared);
    let m: u32 = dims[0];
    let n: u32 = dims[1];
    for (var i = group * 64u + t; i < dims[3] * m * n; i += groups * 64u) {
        let col: u32 = i % n;
        let row: u32 = (i / n) % m;
        let b: u32 = i / n / m;
        let grp: u32 = b / p[launch.words + 6u];
        let k_begin: u32 = (b % p[launch.words + 6u]) * p[launch.words + 7u];
        let k_end: u32 = min(dims[2], k_begin + p[launch.words + 7u]);
        var c: f32 = bitcast<f32>(0x0u);
        for (var kk = k_begin; kk < k_end; kk += 1u) {
            let av: f32 = ld0(p[launch.words + 8u] + (grp * p[launch.words + 9u] + (row) * p[launch.words + 10u] + ((kk) / p[launch.words + 11u]) * p[launch.words + 12u] + ((kk) % p[launch.words + 11u]) * p[launch.words + 13u]) * 4u);
            let e_src: u32 = source(col, kk, grp);
            var x_src: f32 = bitcast<f32>(0x0u);
            if (e_src != 0xffffffffu) {
                x_src = ld1(p[launch.words + 21u] + e_src * 4u);
            }
            c = c + av * x_src;
        }
        put(b, row, col, c);
    }
}
