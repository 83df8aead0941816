var<workgroup> dims_shared: array<u32, 6>;
fn put(b: u32, row: u32, col: u32, acc: F64) {
    if (row < p[launch.words + 0u] && col < p[launch.words + 1u]) {
        var v: F64 = bitcast<F64>((u64(p[launch.words + 18u + 1u]) << 32u) | u64(p[launch.words + 18u])) * acc;
        st2(p[launch.words + 14u] + (b * p[launch.words + 15u] + row * p[launch.words + 16u] + col * p[launch.words + 17u]) * 8u, v);
    }
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
        let k_begin: u32 = 0u;
        let k_end: u32 = dims[2];
        var c: F64 = bitcast<F64>(0x0lu);
        for (var kk = k_begin; kk < k_end; kk += 1u) {
            let av: F64 = ld0(p[launch.words + 6u] + (b * p[launch.words + 7u] + (row) * p[launch.words + 8u] + (kk) * p[launch.words + 9u]) * 8u);
            c = c + av * ld1(p[launch.words + 10u] + (b * p[launch.words + 11u] + (kk) * p[launch.words + 12u] + (col) * p[launch.words + 13u]) * 8u);
        }
        put(b, row, col, c);
    }
}
