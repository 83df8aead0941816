var<workgroup> sq: array<f32, 2048>;
var<workgroup> sg: array<f32, 2048>;
var<workgroup> dims_shared: array<u32, 14>;
fn kept(r: u32, j: u32) -> f32 {
    var x: array<u32, 4>;
    {
        let lo: u32 = p[launch.words + 53u] + j / 4u;
        var c0: u32 = lo;
        var c1: u32 = p[launch.words + 54u] + select(0u, 1u, lo < j / 4u);
        var c2: u32 = r;
        var c3: u32 = 0u;
        var k0: u32 = p[launch.words + 51u];
        var k1: u32 = p[launch.words + 52u];
        for (var round = 0u; round < 10u; round += 1u) {
            let hi0: u32 = mulhi(0xD2511F53u, c0);
            let lo0: u32 = 0xD2511F53u * c0;
            let hi1: u32 = mulhi(0xCD9E8D57u, c2);
            let lo1: u32 = 0xCD9E8D57u * c2;
            c0 = hi1 ^ c1 ^ k0;
            c1 = lo1;
            c2 = hi0 ^ c3 ^ k1;
            c3 = lo0;
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        x[0] = c0;
        x[1] = c1;
        x[2] = c2;
        x[3] = c3;
    }
    let u: f32 = f32(x[j % 4u]) * 2.3283064e-10f + 1.1641532e-10f;
    return select(bitcast<f32>(0x0u), bitcast<f32>(p[launch.words + 56u]), u < bitcast<f32>(p[launch.words + 55u]));
}
fn main {
    if (t == 0u) { for (var k = 0u; k < 14u; k += 1u) { dims_shared[k] = p[launch.words + k]; } }
    let dims = workgroupUniformLoad(&dims_shared);
    for (var g = group; g < dims[13]; g += groups) {
        let c: u32 = dims[10];
        let tile: u32 = g % dims[12];
        let bh: u32 = g / dims[12];
        let b: u32 = bh / dims[2];
        let h: u32 = bh % dims[2];
        let hk: u32 = h;
        let row: u32 = tile * 64u + t;
        let valid: bool = row < dims[4];
        let resume: bool = valid && c > 0u;
        var kv: array<f32, 256>;
        for (var d = 0u; d < dims[7]; d += 1u) {
            kv[d] = bitcast<f32>(0x0u);
            if (valid && d < dims[5]) {
                kv[d] = ld1(p[launch.words + 20u] + ((b) * p[launch.words + 21u] + (hk) * p[launch.words + 22u] + (row) * p[launch.words + 23u] + (d) * p[launch.words + 24u]) * 4u);
            }
        }
        var vv: array<f32, 256>;
        for (var d = 0u; d < dims[7]; d += 1u) {
            vv[d] = bitcast<f32>(0x0u);
            if (valid && d < dims[6]) {
                vv[d] = ld2(p[launch.words + 25u] + ((b) * p[launch.words + 26u] + (hk) * p[launch.words + 27u] + (row) * p[launch.words + 28u] + (d) * p[launch.words + 29u]) * 4u);
            }
        }
        var dk: array<f32, 256>;
        for (var d = 0u; d < dims[7]; d += 1u) {
            dk[d] = bitcast<f32>(0x0u);
        }
        var dv: array<f32, 256>;
        for (var d = 0u; d < dims[7]; d += 1u) {
            dv[d] = bitcast<f32>(0x0u);
        }
        let rk: u32 = bh * dims[4] + row;
        if (resume) {
            for (var d = 0u; d < dims[5]; d += 1u) {
                dk[d] = ld6(p[launch.words + 49u] + (rk * dims[5] + d) * 4u);
            }
        }
        if (resume) {
            for (var d = 0u; d < dims[6]; d += 1u) {
                dv[d] = ld7(p[launch.words + 50u] + (rk * dims[6] + d) * 4u);
            }
        }
        let rep: u32 = dims[1] / dims[2];
        let per_head: u32 = (dims[3] + dims[8] - 1u) / dims[8];
        let n_lo: u32 = c * dims[9];
        let n_hi: u32 = min(rep * per_head, n_lo + dims[9]);
        for (var n = n_lo; n < n_hi; n += 1u) {
            let hq: u32 = hk * rep + n / per_head;
            let i0: u32 = (n % per_head) * dims[8];
            if (dims[11] == 0u || i0 + dims[8] > tile * 64u) {
                for (var e = t; e < dims[8] * dims[7]; e += 64u) {
                    let sr: u32 = i0 + e / dims[7];
                    let sd: u32 = e % dims[7];
                    {
                        var x: f32 = bitcast<f32>(0x0u);
                        if (sr < dims[3] && sd < dims[5]) {
                            x = ld0(p[launch.words + 15u] + ((b) * p[launch.words + 16u] + (hq) * p[launch.words + 17u] + (sr) * p[launch.words + 18u] + (sd) * p[launch.words + 19u]) * 4u);
                        }
                        sq[e] = x;
                    }
                    {
                        var x: f32 = bitcast<f32>(0x0u);
                        if (sr < dims[3] && sd < dims[6]) {
                            x = ld3(p[launch.words + 35u] + ((b) * p[launch.words + 36u] + (hq) * p[launch.words + 37u] + (sr) * p[launch.words + 38u] + (sd) * p[launch.words + 39u]) * 4u);
                        }
                        sg[e] = x;
                    }
                }
                workgroupBarrier();
                for (var ii = 0u; ii < dims[8]; ii += 1u) {
                    let qi: u32 = i0 + ii;
                    if (valid && qi < dims[3] && (dims[11] == 0u || row <= qi)) {
                        let r: u32 = (b * dims[1] + hq) * dims[3] + qi;
                        var qk: f32 = bitcast<f32>(0x0u);
                        for (var d = 0u; d < dims[7]; d += 8u) {
                            qk = qk + sq[ii * dims[7] + d + 0u] * kv[0u + d + 0u];
                            qk = qk + sq[ii * dims[7] + d + 1u] * kv[0u + d + 1u];
                            qk = qk + sq[ii * dims[7] + d + 2u] * kv[0u + d + 2u];
                            qk = qk + sq[ii * dims[7] + d + 3u] * kv[0u + d + 3u];
                            qk = qk + sq[ii * dims[7] + d + 4u] * kv[0u + d + 4u];
                            qk = qk + sq[ii * dims[7] + d + 5u] * kv[0u + d + 5u];
                            qk = qk + sq[ii * dims[7] + d + 6u] * kv[0u + d + 6u];
                            qk = qk + sq[ii * dims[7] + d + 7u] * kv[0u + d + 7u];
                        }
                        let pj: f32 = exp(qk * bitcast<f32>(p[launch.words + 14u]) - ld4(p[launch.words + 46u] + (r) * 4u));
                        let zj: f32 = kept(r, row);
                        for (var d = 0u; d < dims[7]; d += 8u) {
                            dv[0u + d + 0u] = dv[0u + d + 0u] + pj * zj * sg[ii * dims[7] + d + 0u];
                            dv[0u + d + 1u] = dv[0u + d + 1u] + pj * zj * sg[ii * dims[7] + d + 1u];
                            dv[0u + d + 2u] = dv[0u + d + 2u] + pj * zj * sg[ii * dims[7] + d + 2u];
                            dv[0u + d + 3u] = dv[0u + d + 3u] + pj * zj * sg[ii * dims[7] + d + 3u];
                            dv[0u + d + 4u] = dv[0u + d + 4u] + pj * zj * sg[ii * dims[7] + d + 4u];
                            dv[0u + d + 5u] = dv[0u + d + 5u] + pj * zj * sg[ii * dims[7] + d + 5u];
                            dv[0u + d + 6u] = dv[0u + d + 6u] + pj * zj * sg[ii * dims[7] + d + 6u];
                            dv[0u + d + 7u] = dv[0u + d + 7u] + pj * zj * sg[ii * dims[7] + d + 7u];
                        }
                        var dp: f32 = bitcast<f32>(0x0u);
                        for (var d = 0u; d < dims[7]; d += 8u) {
                            dp = dp + sg[ii * dims[7] + d + 0u] * vv[0u + d + 0u];
                            dp = dp + sg[ii * dims[7] + d + 1u] * vv[0u + d + 1u];
                            dp = dp + sg[ii * dims[7] + d + 2u] * vv[0u + d + 2u];
                            dp = dp + sg[ii * dims[7] + d + 3u] * vv[0u + d + 3u];
                            dp = dp + sg[ii * dims[7] + d + 4u] * vv[0u + d + 4u];
                            dp = dp + sg[ii * dims[7] + d + 5u] * vv[0u + d + 5u];
                            dp = dp + sg[ii * dims[7] + d + 6u] * vv[0u + d + 6u];
                            dp = dp + sg[ii * dims[7] + d + 7u] * vv[0u + d + 7u];
                        }
                        let ds: f32 = pj * (dp * zj - ld5(p[launch.words + 47u] + (r) * 4u));
                        for (var d = 0u; d < dims[7]; d += 8u) {
                            dk[0u + d + 0u] = dk[0u + d + 0u] + ds * sq[ii * dims[7] + d + 0u];
                            dk[0u + d + 1u] = dk[0u + d + 1u] + ds * sq[ii * dims[7] + d + 1u];
                            dk[0u + d + 2u] = dk[0u + d + 2u] + ds * sq[ii * dims[7] + d + 2u];
                            dk[0u + d + 3u] = dk[0u + d + 3u] + ds * sq[ii * dims[7] + d + 3u];
                            dk[0u + d + 4u] = dk[0u + d + 4u] + ds * sq[ii * dims[7] + d + 4u];
                            dk[0u + d + 5u] = dk[0u + d + 5u] + ds * sq[ii * dims[7] + d + 5u];
                            dk[0u + d + 6u] = dk[0u + d + 6u] + ds * sq[ii * dims[7] + d + 6u];
                            dk[0u + d + 7u] = dk[0u + d + 7u] + ds * sq[ii * dims[7] + d + 7u];
                        }
                    }
                }
                workgroupBarrier();
            }
        }
        if (valid) {
            for (var d = 0u; d < dims[5]; d += 1u) {
                st6(p[launch.words + 49u] + (rk * dims[5] + d) * 4u, dk[d]);
            }
            for (var d = 0u; d < dims[6]; d += 1u) {
                st7(p[launch.words + 50u] + (rk * dims[6] + d) * 4u, dv[d]);
            }
        }
    }
}
