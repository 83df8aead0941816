var<workgroup> dims_shared: array<u32, 6>;
fn put(b: u32, row: u32, col: u32, acc: f32) {
    if (row < p[0u] && col < p[1u]) {
        let grp: u32 = b / p[6u];
        var v: f32 = acc;
        st2(p[14u] + ((b % p[6u]) * p[20u] + grp * p[15u] + (row) * p[16u] + ((col) / p[17u]) * p[18u] + ((col) % p[17u]) * p[19u]) * 4u, v);
    }
}
fn source(tap: u32, pos: u32, grp: u32) -> u32 {
    let ch: u32 = tap / p[46u];
    var z: u32 = tap % p[46u];
    let bn: u32 = pos / p[47u];
    var s: u32 = pos % p[47u];
    var e: u32 = grp * p[22u] + bn * p[23u] + ch * p[24u];
    let o2: u32 = z % p[36u];
    z = z / p[36u];
    let p2: u32 = s % p[30u];
    s = s / p[30u];
    let u2: u32 = p2 * p[39u] + o2 * p[45u];
    if (u2 < p[42u] || u2 - p[42u] >= p[33u]) {
        return 0xffffffffu;
    }
    e += (u2 - p[42u]) * p[27u];
    let o1: u32 = z % p[35u];
    z = z / p[35u];
    let p1: u32 = s % p[29u];
    s = s / p[29u];
    let u1: u32 = p1 * p[38u] + o1 * p[44u];
    if (u1 < p[41u] || u1 - p[41u] >= p[32u]) {
        return 0xffffffffu;
    }
    e += (u1 - p[41u]) * p[26u];
    let o0: u32 = z % p[34u];
    z = z / p[34u];
    let p0: u32 = s % p[28u];
    s = s / p[28u];
    let u0: u32 = p0 * p[37u] + o0 * p[43u];
    if (u0 < p[40u] || u0 - p[40u] >= p[31u]) {
        return 0xffffffffu;
    }
    e += (u0 - p[40u]) * p[25u];
    return e;
}
fn main {
    if (t == 0u) { for (var k = 0u; k < 6u; k += 1u) { dims_shared[k] = p[k]; } }
    let dims = workgroupUniformLoad(&dims_shared);
    let m: u32 = dims[0];
    let n: u32 = dims[1];
    for (var i = group * 64u + t; i < dims[3] * m * n; i += groups * 64u) {
        let col: u32 = i % n;
        let row: u32 = (i / n) % m;
        let b: u32 = i / n / m;
        let grp: u32 = b / p[6u];
        let k_begin: u32 = (b % p[6u]) * p[7u];
        let k_end: u32 = min(dims[2], k_begin + p[7u]);
        var c: f32 = bitcast<f32>(0x0u);
        for (var kk = k_begin; kk < k_end; kk += 1u) {
            let av: f32 = ld0(p[8u] + (grp * p[9u] + (row) * p[10u] + ((kk) / p[11u]) * p[12u] + ((kk) % p[11u]) * p[13u]) * 4u);
            let e_src: u32 = source(col, kk, grp);
            var x_src: f32 = bitcast<f32>(0x0u);
            if (e_src != 0xffffffffu) {
                x_src = ld1(p[21u] + e_src * 4u);
            }
            c = c + av * x_src;
        }
        put(b, row, col, c);
    }
}
