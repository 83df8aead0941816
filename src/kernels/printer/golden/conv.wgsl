var<workgroup> sa: array<f32, 1024>;
var<workgroup> sb: array<f32, 1024>;
var<workgroup> dims_shared: array<u32, 6>;
fn put(b: u32, row: u32, col: u32, acc: f32) {
    if (row < p[launch.words + 0u] && col < p[launch.words + 1u]) {
        let grp: u32 = b / p[launch.words + 6u];
        var v: f32 = acc;
        if (b % p[launch.words + 6u] == 0u) {
            v = v + ld2(p[launch.words + 48u] + (grp * p[launch.words + 0u] + row) * p[launch.words + 49u] * 2u);
        }
        st3(p[launch.words + 14u] + ((b % p[launch.words + 6u]) * p[launch.words + 20u] + grp * p[launch.words + 15u] + (row) * p[launch.words + 16u] + ((col) / p[launch.words + 17u]) * p[launch.words + 18u] + ((col) % p[launch.words + 17u]) * p[launch.words + 19u]) * 2u, f16_to_f32(f32_to_f16(v)));
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
    let u2: u32 = p2 + p[launch.words + 42u];
    let v2: u32 = o2 * p[launch.words + 45u];
    if (u2 < v2 || (u2 - v2) % p[launch.words + 39u] != 0u || (u2 - v2) / p[launch.words + 39u] >= p[launch.words + 33u]) {
        return 0xffffffffu;
    }
    e += ((u2 - v2) / p[launch.words + 39u]) * p[launch.words + 27u];
    let o1: u32 = z % p[launch.words + 35u];
    z = z / p[launch.words + 35u];
    let p1: u32 = s % p[launch.words + 29u];
    s = s / p[launch.words + 29u];
    let u1: u32 = p1 + p[launch.words + 41u];
    let v1: u32 = o1 * p[launch.words + 44u];
    if (u1 < v1 || (u1 - v1) % p[launch.words + 38u] != 0u || (u1 - v1) / p[launch.words + 38u] >= p[launch.words + 32u]) {
        return 0xffffffffu;
    }
    e += ((u1 - v1) / p[launch.words + 38u]) * p[launch.words + 26u];
    let o0: u32 = z % p[launch.words + 34u];
    z = z / p[launch.words + 34u];
    let p0: u32 = s % p[launch.words + 28u];
    s = s / p[launch.words + 28u];
    let u0: u32 = p0 + p[launch.words + 40u];
    let v0: u32 = o0 * p[launch.words + 43u];
    if (u0 < v0 || (u0 - v0) % p[launch.words + 37u] != 0u || (u0 - v0) / p[launch.words + 37u] >= p[launch.words + 31u]) {
        return 0xffffffffu;
    }
    e += ((u0 - v0) / p[launch.words + 37u]) * p[launch.words + 25u];
    return e;
}
fn main {
    if (t == 0u) { for (var k = 0u; k < 6u; k += 1u) { dims_shared[k] = p[launch.words + k]; } }
    let dims = workgroupUniformLoad(&dims_shared);
    let m: u32 = dims[0];
    let n: u32 = dims[1];
    let tiles: u32 = dims[4] * dims[5];
    for (var g = group; g < dims[3] * tiles; g += groups) {
        let b: u32 = g / tiles;
        let row0: u32 = ((g % tiles) / dims[5]) * 64u;
        let col0: u32 = ((g % tiles) % dims[5]) * 64u;
        let grp: u32 = b / p[launch.words + 6u];
        let k_begin: u32 = (b % p[launch.words + 6u]) * p[launch.words + 7u];
        let k_end: u32 = min(dims[2], k_begin + p[launch.words + 7u]);
        let ty: u32 = t / 8u;
        let tx: u32 = t % 8u;
        var c0_0: f32 = bitcast<f32>(0x0u);
        var c0_1: f32 = bitcast<f32>(0x0u);
        var c0_2: f32 = bitcast<f32>(0x0u);
        var c0_3: f32 = bitcast<f32>(0x0u);
        var c0_4: f32 = bitcast<f32>(0x0u);
        var c0_5: f32 = bitcast<f32>(0x0u);
        var c0_6: f32 = bitcast<f32>(0x0u);
        var c0_7: f32 = bitcast<f32>(0x0u);
        var c1_0: f32 = bitcast<f32>(0x0u);
        var c1_1: f32 = bitcast<f32>(0x0u);
        var c1_2: f32 = bitcast<f32>(0x0u);
        var c1_3: f32 = bitcast<f32>(0x0u);
        var c1_4: f32 = bitcast<f32>(0x0u);
        var c1_5: f32 = bitcast<f32>(0x0u);
        var c1_6: f32 = bitcast<f32>(0x0u);
        var c1_7: f32 = bitcast<f32>(0x0u);
        var c2_0: f32 = bitcast<f32>(0x0u);
        var c2_1: f32 = bitcast<f32>(0x0u);
        var c2_2: f32 = bitcast<f32>(0x0u);
        var c2_3: f32 = bitcast<f32>(0x0u);
        var c2_4: f32 = bitcast<f32>(0x0u);
        var c2_5: f32 = bitcast<f32>(0x0u);
        var c2_6: f32 = bitcast<f32>(0x0u);
        var c2_7: f32 = bitcast<f32>(0x0u);
        var c3_0: f32 = bitcast<f32>(0x0u);
        var c3_1: f32 = bitcast<f32>(0x0u);
        var c3_2: f32 = bitcast<f32>(0x0u);
        var c3_3: f32 = bitcast<f32>(0x0u);
        var c3_4: f32 = bitcast<f32>(0x0u);
        var c3_5: f32 = bitcast<f32>(0x0u);
        var c3_6: f32 = bitcast<f32>(0x0u);
        var c3_7: f32 = bitcast<f32>(0x0u);
        var c4_0: f32 = bitcast<f32>(0x0u);
        var c4_1: f32 = bitcast<f32>(0x0u);
        var c4_2: f32 = bitcast<f32>(0x0u);
        var c4_3: f32 = bitcast<f32>(0x0u);
        var c4_4: f32 = bitcast<f32>(0x0u);
        var c4_5: f32 = bitcast<f32>(0x0u);
        var c4_6: f32 = bitcast<f32>(0x0u);
        var c4_7: f32 = bitcast<f32>(0x0u);
        var c5_0: f32 = bitcast<f32>(0x0u);
        var c5_1: f32 = bitcast<f32>(0x0u);
        var c5_2: f32 = bitcast<f32>(0x0u);
        var c5_3: f32 = bitcast<f32>(0x0u);
        var c5_4: f32 = bitcast<f32>(0x0u);
        var c5_5: f32 = bitcast<f32>(0x0u);
        var c5_6: f32 = bitcast<f32>(0x0u);
        var c5_7: f32 = bitcast<f32>(0x0u);
        var c6_0: f32 = bitcast<f32>(0x0u);
        var c6_1: f32 = bitcast<f32>(0x0u);
        var c6_2: f32 = bitcast<f32>(0x0u);
        var c6_3: f32 = bitcast<f32>(0x0u);
        var c6_4: f32 = bitcast<f32>(0x0u);
        var c6_5: f32 = bitcast<f32>(0x0u);
        var c6_6: f32 = bitcast<f32>(0x0u);
        var c6_7: f32 = bitcast<f32>(0x0u);
        var c7_0: f32 = bitcast<f32>(0x0u);
        var c7_1: f32 = bitcast<f32>(0x0u);
        var c7_2: f32 = bitcast<f32>(0x0u);
        var c7_3: f32 = bitcast<f32>(0x0u);
        var c7_4: f32 = bitcast<f32>(0x0u);
        var c7_5: f32 = bitcast<f32>(0x0u);
        var c7_6: f32 = bitcast<f32>(0x0u);
        var c7_7: f32 = bitcast<f32>(0x0u);
        for (var k0 = k_begin; k0 < k_end; k0 += 16u) {
            for (var e = t; e < 1024u; e += 64u) {
                let r: u32 = e / 16u;
                let kk: u32 = e % 16u;
                var v: f32 = bitcast<f32>(0x0u);
                if (row0 + r < m && k0 + kk < k_end) {
                    v = ld0(p[launch.words + 8u] + (grp * p[launch.words + 9u] + (row0 + r) * p[launch.words + 10u] + ((k0 + kk) / p[launch.words + 11u]) * p[launch.words + 12u] + ((k0 + kk) % p[launch.words + 11u]) * p[launch.words + 13u]) * 2u);
                }
                sa[kk * 64u + r] = v;
                let kb: u32 = e / 64u;
                let c: u32 = e % 64u;
                var w: f32 = bitcast<f32>(0x0u);
                if (k0 + kb < k_end && col0 + c < n) {
                    let e_src: u32 = source(k0 + kb, col0 + c, grp);
                    var x_src: f32 = bitcast<f32>(0x0u);
                    if (e_src != 0xffffffffu) {
                        x_src = ld1(p[launch.words + 21u] + e_src * 2u);
                    }
                    w = x_src;
                }
                sb[kb * 64u + c] = w;
            }
            workgroupBarrier();
            for (var kk = 0u; kk < 16u; kk += 1u) {
                let a0: f32 = sa[kk * 64u + ty + 0u];
                let a1: f32 = sa[kk * 64u + ty + 8u];
                let a2: f32 = sa[kk * 64u + ty + 16u];
                let a3: f32 = sa[kk * 64u + ty + 24u];
                let a4: f32 = sa[kk * 64u + ty + 32u];
                let a5: f32 = sa[kk * 64u + ty + 40u];
                let a6: f32 = sa[kk * 64u + ty + 48u];
                let a7: f32 = sa[kk * 64u + ty + 56u];
                let b0: f32 = sb[kk * 64u + tx + 0u];
                let b1: f32 = sb[kk * 64u + tx + 8u];
                let b2: f32 = sb[kk * 64u + tx + 16u];
                let b3: f32 = sb[kk * 64u + tx + 24u];
                let b4: f32 = sb[kk * 64u + tx + 32u];
                let b5: f32 = sb[kk * 64u + tx + 40u];
                let b6: f32 = sb[kk * 64u + tx + 48u];
                let b7: f32 = sb[kk * 64u + tx + 56u];
                c0_0 = c0_0 + a0 * b0;
                c0_1 = c0_1 + a0 * b1;
                c0_2 = c0_2 + a0 * b2;
                c0_3 = c0_3 + a0 * b3;
                c0_4 = c0_4 + a0 * b4;
                c0_5 = c0_5 + a0 * b5;
                c0_6 = c0_6 + a0 * b6;
                c0_7 = c0_7 + a0 * b7;
                c1_0 = c1_0 + a1 * b0;
                c1_1 = c1_1 + a1 * b1;
                c1_2 = c1_2 + a1 * b2;
                c1_3 = c1_3 + a1 * b3;
                c1_4 = c1_4 + a1 * b4;
                c1_5 = c1_5 + a1 * b5;
                c1_6 = c1_6 + a1 * b6;
                c1_7 = c1_7 + a1 * b7;
                c2_0 = c2_0 + a2 * b0;
                c2_1 = c2_1 + a2 * b1;
                c2_2 = c2_2 + a2 * b2;
                c2_3 = c2_3 + a2 * b3;
                c2_4 = c2_4 + a2 * b4;
                c2_5 = c2_5 + a2 * b5;
                c2_6 = c2_6 + a2 * b6;
                c2_7 = c2_7 + a2 * b7;
                c3_0 = c3_0 + a3 * b0;
                c3_1 = c3_1 + a3 * b1;
                c3_2 = c3_2 + a3 * b2;
                c3_3 = c3_3 + a3 * b3;
                c3_4 = c3_4 + a3 * b4;
                c3_5 = c3_5 + a3 * b5;
                c3_6 = c3_6 + a3 * b6;
                c3_7 = c3_7 + a3 * b7;
                c4_0 = c4_0 + a4 * b0;
                c4_1 = c4_1 + a4 * b1;
                c4_2 = c4_2 + a4 * b2;
                c4_3 = c4_3 + a4 * b3;
                c4_4 = c4_4 + a4 * b4;
                c4_5 = c4_5 + a4 * b5;
                c4_6 = c4_6 + a4 * b6;
                c4_7 = c4_7 + a4 * b7;
                c5_0 = c5_0 + a5 * b0;
                c5_1 = c5_1 + a5 * b1;
                c5_2 = c5_2 + a5 * b2;
                c5_3 = c5_3 + a5 * b3;
                c5_4 = c5_4 + a5 * b4;
                c5_5 = c5_5 + a5 * b5;
                c5_6 = c5_6 + a5 * b6;
                c5_7 = c5_7 + a5 * b7;
                c6_0 = c6_0 + a6 * b0;
                c6_1 = c6_1 + a6 * b1;
                c6_2 = c6_2 + a6 * b2;
                c6_3 = c6_3 + a6 * b3;
                c6_4 = c6_4 + a6 * b4;
                c6_5 = c6_5 + a6 * b5;
                c6_6 = c6_6 + a6 * b6;
                c6_7 = c6_7 + a6 * b7;
                c7_0 = c7_0 + a7 * b0;
                c7_1 = c7_1 + a7 * b1;
                c7_2 = c7_2 + a7 * b2;
                c7_3 = c7_3 + a7 * b3;
                c7_4 = c7_4 + a7 * b4;
                c7_5 = c7_5 + a7 * b5;
                c7_6 = c7_6 + a7 * b6;
                c7_7 = c7_7 + a7 * b7;
            }
            workgroupBarrier();
        }
        put(b, row0 + ty + 0u, col0 + tx + 0u, c0_0);
        put(b, row0 + ty + 0u, col0 + tx + 8u, c0_1);
        put(b, row0 + ty + 0u, col0 + tx + 16u, c0_2);
        put(b, row0 + ty + 0u, col0 + tx + 24u, c0_3);
        put(b, row0 + ty + 0u, col0 + tx + 32u, c0_4);
        put(b, row0 + ty + 0u, col0 + tx + 40u, c0_5);
        put(b, row0 + ty + 0u, col0 + tx + 48u, c0_6);
        put(b, row0 + ty + 0u, col0 + tx + 56u, c0_7);
        put(b, row0 + ty + 8u, col0 + tx + 0u, c1_0);
        put(b, row0 + ty + 8u, col0 + tx + 8u, c1_1);
        put(b, row0 + ty + 8u, col0 + tx + 16u, c1_2);
        put(b, row0 + ty + 8u, col0 + tx + 24u, c1_3);
        put(b, row0 + ty + 8u, col0 + tx + 32u, c1_4);
        put(b, row0 + ty + 8u, col0 + tx + 40u, c1_5);
        put(b, row0 + ty + 8u, col0 + tx + 48u, c1_6);
        put(b, row0 + ty + 8u, col0 + tx + 56u, c1_7);
        put(b, row0 + ty + 16u, col0 + tx + 0u, c2_0);
        put(b, row0 + ty + 16u, col0 + tx + 8u, c2_1);
        put(b, row0 + ty + 16u, col0 + tx + 16u, c2_2);
        put(b, row0 + ty + 16u, col0 + tx + 24u, c2_3);
        put(b, row0 + ty + 16u, col0 + tx + 32u, c2_4);
        put(b, row0 + ty + 16u, col0 + tx + 40u, c2_5);
        put(b, row0 + ty + 16u, col0 + tx + 48u, c2_6);
        put(b, row0 + ty + 16u, col0 + tx + 56u, c2_7);
        put(b, row0 + ty + 24u, col0 + tx + 0u, c3_0);
        put(b, row0 + ty + 24u, col0 + tx + 8u, c3_1);
        put(b, row0 + ty + 24u, col0 + tx + 16u, c3_2);
        put(b, row0 + ty + 24u, col0 + tx + 24u, c3_3);
        put(b, row0 + ty + 24u, col0 + tx + 32u, c3_4);
        put(b, row0 + ty + 24u, col0 + tx + 40u, c3_5);
        put(b, row0 + ty + 24u, col0 + tx + 48u, c3_6);
        put(b, row0 + ty + 24u, col0 + tx + 56u, c3_7);
        put(b, row0 + ty + 32u, col0 + tx + 0u, c4_0);
        put(b, row0 + ty + 32u, col0 + tx + 8u, c4_1);
        put(b, row0 + ty + 32u, col0 + tx + 16u, c4_2);
        put(b, row0 + ty + 32u, col0 + tx + 24u, c4_3);
        put(b, row0 + ty + 32u, col0 + tx + 32u, c4_4);
        put(b, row0 + ty + 32u, col0 + tx + 40u, c4_5);
        put(b, row0 + ty + 32u, col0 + tx + 48u, c4_6);
        put(b, row0 + ty + 32u, col0 + tx + 56u, c4_7);
        put(b, row0 + ty + 40u, col0 + tx + 0u, c5_0);
        put(b, row0 + ty + 40u, col0 + tx + 8u, c5_1);
        put(b, row0 + ty + 40u, col0 + tx + 16u, c5_2);
        put(b, row0 + ty + 40u, col0 + tx + 24u, c5_3);
        put(b, row0 + ty + 40u, col0 + tx + 32u, c5_4);
        put(b, row0 + ty + 40u, col0 + tx + 40u, c5_5);
        put(b, row0 + ty + 40u, col0 + tx + 48u, c5_6);
        put(b, row0 + ty + 40u, col0 + tx + 56u, c5_7);
        put(b, row0 + ty + 48u, col0 + tx + 0u, c6_0);
        put(b, row0 + ty + 48u, col0 + tx + 8u, c6_1);
        put(b, row0 + ty + 48u, col0 + tx + 16u, c6_2);
        put(b, row0 + ty + 48u, col0 + tx + 24u, c6_3);
        put(b, row0 + ty + 48u, col0 + tx + 32u, c6_4);
        put(b, row0 + ty + 48u, col0 + tx + 40u, c6_5);
        put(b, row0 + ty + 48u, col0 + tx + 48u, c6_6);
        put(b, row0 + ty + 48u, col0 + tx + 56u, c6_7);
        put(b, row0 + ty + 56u, col0 + tx + 0u, c7_0);
        put(b, row0 + ty + 56u, col0 + tx + 8u, c7_1);
        put(b, row0 + ty + 56u, col0 + tx + 16u, c7_2);
        put(b, row0 + ty + 56u, col0 + tx + 24u, c7_3);
        put(b, row0 + ty + 56u, col0 + tx + 32u, c7_4);
        put(b, row0 + ty + 56u, col0 + tx + 40u, c7_5);
        put(b, row0 + ty + 56u, col0 + tx + 48u, c7_6);
        put(b, row0 + ty + 56u, col0 + tx + 56u, c7_7);
    }
}
