var<workgroup> dims_shared: array<u32, 6>;
fn put(b: u32, row: u32, col: u32, acc: F64) {
    if (row < p[0u] && col < p[1u]) {
        var v: F64 = bitcast<F64>((u64(p[18u + 1u]) << 32u) | u64(p[18u])) * acc;
        st2(p[14u] + (b * p[15u] + row * p[16u] + col * p[17u]) * 8u, v);
    }
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
        let k_begin: u32 = 0u;
        let k_end: u32 = dims[2];
        var c: F64 = bitcast<F64>(0x0lu);
        for (var kk = k_begin; kk < k_end; kk += 1u) {
            let av: F64 = ld0(p[6u] + (b * p[7u] + (row) * p[8u] + (kk) * p[9u]) * 8u);
            c = c + av * ld1(p[10u] + (b * p[11u] + (kk) * p[12u] + (col) * p[13u]) * 8u);
        }
        put(b, row, col, c);
    }
}
