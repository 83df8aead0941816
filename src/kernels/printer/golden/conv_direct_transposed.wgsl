var<workgroup> dims_shared: array<u32, 6>;
fn put(b: u32, row: u32, col: u32, acc: f32) {
    if (row < p[launch.words + 0u] && col < p[launch.words + 1u]) {
        let grp: u32 = b / p[launch.words + 6u];
        var v: f32 = acc;
        st2(p[launch.words + 14u] + ((b % p[launch.words + 6u]) * p[launch.words + 20u] + grp * p[launch.words + 15u] + (row) * p[launch.words + 16u] + ((col) / p[launch.words + 17u]) * p[launch.words + 18u] + ((col) % p[launch.words + 17u]) * p[launch.words + 19u]) * 2u, bf16_to_f32(f32_to_bf16(v)));
    }
}
fn main {
    if (t == 0u) { for (var k = 0u; k < 6u; k += 1u) { dims_shared[k] = p[launch.words + k]; } }
    let dims = workgroupUniformLoad(&dims_shared);
    let splits: u32 = p[launch.words + 6u];
    let chunk: u32 = p[launch.words + 7u];
    let a_at: u32 = p[launch.words + 8u];
    let a_group: u32 = p[launch.words + 9u];
    let a_row: u32 = p[launch.words + 10u];
    let a_split: u32 = p[launch.words + 11u];
    let a_hi: u32 = p[launch.words + 12u];
    let a_lo: u32 = p[launch.words + 13u];
    let x_at: u32 = p[launch.words + 21u];
    let x_group: u32 = p[launch.words + 22u];
    let x_batch: u32 = p[launch.words + 23u];
    let x_channel: u32 = p[launch.words + 24u];
    let taps: u32 = p[launch.words + 46u];
    let positions: u32 = p[launch.words + 47u];
    let xs0: u32 = p[launch.words + 25u];
    let np0: u32 = p[launch.words + 28u];
    let nq0: u32 = p[launch.words + 31u];
    let nz0: u32 = p[launch.words + 34u];
    let stride0: u32 = p[launch.words + 37u];
    let pad0: u32 = p[launch.words + 40u];
    let dil0: u32 = p[launch.words + 43u];
    let xs1: u32 = p[launch.words + 26u];
    let np1: u32 = p[launch.words + 29u];
    let nq1: u32 = p[launch.words + 32u];
    let nz1: u32 = p[launch.words + 35u];
    let stride1: u32 = p[launch.words + 38u];
    let pad1: u32 = p[launch.words + 41u];
    let dil1: u32 = p[launch.words + 44u];
    let xs2: u32 = p[launch.words + 27u];
    let np2: u32 = p[launch.words + 30u];
    let nq2: u32 = p[launch.words + 33u];
    let nz2: u32 = p[launch.words + 36u];
    let stride2: u32 = p[launch.words + 39u];
    let pad2: u32 = p[launch.words + 42u];
    let dil2: u32 = p[launch.words + 45u];
    let m: u32 = dims[0];
    let n: u32 = dims[1];
    let runs: u32 = (n + 7u) / 8u;
    for (var i = group * 64u + t; i < dims[3] * m * runs; i += groups * 64u) {
        let col: u32 = (i % runs) * 8u;
        let row: u32 = (i / runs) % m;
        let b: u32 = i / runs / m;
        let grp: u32 = b / splits;
        let k_begin: u32 = (b % splits) * chunk;
        let k_end: u32 = min(dims[2], k_begin + chunk);
        var a_q: u32 = k_begin / a_split;
        var a_r: u32 = k_begin % a_split;
        let a_base: u32 = grp * a_group + row * a_row;
        var ch: u32 = k_begin / taps;
        var ch_rest: u32 = k_begin % taps;
        var o2: u32 = ch_rest % nz2;
        ch_rest = ch_rest / nz2;
        var o1: u32 = ch_rest % nz1;
        ch_rest = ch_rest / nz1;
        var o0: u32 = ch_rest % nz0;
        ch_rest = ch_rest / nz0;
        var bn_0: u32 = col / positions;
        var bn_0_rest: u32 = col % positions;
        var p2_0: u32 = bn_0_rest % np2;
        bn_0_rest = bn_0_rest / np2;
        var p1_0: u32 = bn_0_rest % np1;
        bn_0_rest = bn_0_rest / np1;
        var p0_0: u32 = bn_0_rest % np0;
        bn_0_rest = bn_0_rest / np0;
        var p2_1: u32 = p2_0;
        var p1_1: u32 = p1_0;
        var p0_1: u32 = p0_0;
        var bn_1: u32 = bn_0;
        p2_1 += 1u;
        {
            let up: u32 = u32(p2_1 == np2);
            p2_1 -= up * np2;
            p1_1 += up;
        }
        {
            let up: u32 = u32(p1_1 == np1);
            p1_1 -= up * np1;
            p0_1 += up;
        }
        {
            let up: u32 = u32(p0_1 == np0);
            p0_1 -= up * np0;
            bn_1 += up;
        }
        var p2_2: u32 = p2_1;
        var p1_2: u32 = p1_1;
        var p0_2: u32 = p0_1;
        var bn_2: u32 = bn_1;
        p2_2 += 1u;
        {
            let up: u32 = u32(p2_2 == np2);
            p2_2 -= up * np2;
            p1_2 += up;
        }
        {
            let up: u32 = u32(p1_2 == np1);
            p1_2 -= up * np1;
            p0_2 += up;
        }
        {
            let up: u32 = u32(p0_2 == np0);
            p0_2 -= up * np0;
            bn_2 += up;
        }
        var p2_3: u32 = p2_2;
        var p1_3: u32 = p1_2;
        var p0_3: u32 = p0_2;
        var bn_3: u32 = bn_2;
        p2_3 += 1u;
        {
            let up: u32 = u32(p2_3 == np2);
            p2_3 -= up * np2;
            p1_3 += up;
        }
        {
            let up: u32 = u32(p1_3 == np1);
            p1_3 -= up * np1;
            p0_3 += up;
        }
        {
            let up: u32 = u32(p0_3 == np0);
            p0_3 -= up * np0;
            bn_3 += up;
        }
        var p2_4: u32 = p2_3;
        var p1_4: u32 = p1_3;
        var p0_4: u32 = p0_3;
        var bn_4: u32 = bn_3;
        p2_4 += 1u;
        {
            let up: u32 = u32(p2_4 == np2);
            p2_4 -= up * np2;
            p1_4 += up;
        }
        {
            let up: u32 = u32(p1_4 == np1);
            p1_4 -= up * np1;
            p0_4 += up;
        }
        {
            let up: u32 = u32(p0_4 == np0);
            p0_4 -= up * np0;
            bn_4 += up;
        }
        var p2_5: u32 = p2_4;
        var p1_5: u32 = p1_4;
        var p0_5: u32 = p0_4;
        var bn_5: u32 = bn_4;
        p2_5 += 1u;
        {
            let up: u32 = u32(p2_5 == np2);
            p2_5 -= up * np2;
            p1_5 += up;
        }
        {
            let up: u32 = u32(p1_5 == np1);
            p1_5 -= up * np1;
            p0_5 += up;
        }
        {
            let up: u32 = u32(p0_5 == np0);
            p0_5 -= up * np0;
            bn_5 += up;
        }
        var p2_6: u32 = p2_5;
        var p1_6: u32 = p1_5;
        var p0_6: u32 = p0_5;
        var bn_6: u32 = bn_5;
        p2_6 += 1u;
        {
            let up: u32 = u32(p2_6 == np2);
            p2_6 -= up * np2;
            p1_6 += up;
        }
        {
            let up: u32 = u32(p1_6 == np1);
            p1_6 -= up * np1;
            p0_6 += up;
        }
        {
            let up: u32 = u32(p0_6 == np0);
            p0_6 -= up * np0;
            bn_6 += up;
        }
        var p2_7: u32 = p2_6;
        var p1_7: u32 = p1_6;
        var p0_7: u32 = p0_6;
        var bn_7: u32 = bn_6;
        p2_7 += 1u;
        {
            let up: u32 = u32(p2_7 == np2);
            p2_7 -= up * np2;
            p1_7 += up;
        }
        {
            let up: u32 = u32(p1_7 == np1);
            p1_7 -= up * np1;
            p0_7 += up;
        }
        {
            let up: u32 = u32(p0_7 == np0);
            p0_7 -= up * np0;
            bn_7 += up;
        }
        var c0: f32 = bitcast<f32>(0x0u);
        var c1: f32 = bitcast<f32>(0x0u);
        var c2: f32 = bitcast<f32>(0x0u);
        var c3: f32 = bitcast<f32>(0x0u);
        var c4: f32 = bitcast<f32>(0x0u);
        var c5: f32 = bitcast<f32>(0x0u);
        var c6: f32 = bitcast<f32>(0x0u);
        var c7: f32 = bitcast<f32>(0x0u);
        for (var kk = k_begin; kk < k_end; kk += 1u) {
            let av: f32 = ld0(a_at + (a_base + a_q * a_hi + a_r * a_lo) * 2u);
            {
                var inside: bool = col + 0u < n;
                var e: u32 = grp * x_group + bn_0 * x_batch + ch * x_channel;
                let u0: u32 = p0_0 + pad0;
                let v0: u32 = o0 * dil0;
                var r0: u32 = u0 - v0;
                inside = inside && u0 >= v0;
                inside = inside && r0 % stride0 == 0u;
                r0 = r0 / stride0;
                inside = inside && r0 < nq0;
                e += r0 * xs0;
                let u1: u32 = p1_0 + pad1;
                let v1: u32 = o1 * dil1;
                var r1: u32 = u1 - v1;
                inside = inside && u1 >= v1;
                inside = inside && r1 % stride1 == 0u;
                r1 = r1 / stride1;
                inside = inside && r1 < nq1;
                e += r1 * xs1;
                let u2: u32 = p2_0 + pad2;
                let v2: u32 = o2 * dil2;
                var r2: u32 = u2 - v2;
                inside = inside && u2 >= v2;
                inside = inside && r2 % stride2 == 0u;
                r2 = r2 / stride2;
                inside = inside && r2 < nq2;
                e += r2 * xs2;
                var x: f32 = bitcast<f32>(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 2u);
                }
                c0 = c0 + av * x;
            }
            {
                var inside: bool = col + 1u < n;
                var e: u32 = grp * x_group + bn_1 * x_batch + ch * x_channel;
                let u0: u32 = p0_1 + pad0;
                let v0: u32 = o0 * dil0;
                var r0: u32 = u0 - v0;
                inside = inside && u0 >= v0;
                inside = inside && r0 % stride0 == 0u;
                r0 = r0 / stride0;
                inside = inside && r0 < nq0;
                e += r0 * xs0;
                let u1: u32 = p1_1 + pad1;
                let v1: u32 = o1 * dil1;
                var r1: u32 = u1 - v1;
                inside = inside && u1 >= v1;
                inside = inside && r1 % stride1 == 0u;
                r1 = r1 / stride1;
                inside = inside && r1 < nq1;
                e += r1 * xs1;
                let u2: u32 = p2_1 + pad2;
                let v2: u32 = o2 * dil2;
                var r2: u32 = u2 - v2;
                inside = inside && u2 >= v2;
                inside = inside && r2 % stride2 == 0u;
                r2 = r2 / stride2;
                inside = inside && r2 < nq2;
                e += r2 * xs2;
                var x: f32 = bitcast<f32>(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 2u);
                }
                c1 = c1 + av * x;
            }
            {
                var inside: bool = col + 2u < n;
                var e: u32 = grp * x_group + bn_2 * x_batch + ch * x_channel;
                let u0: u32 = p0_2 + pad0;
                let v0: u32 = o0 * dil0;
                var r0: u32 = u0 - v0;
                inside = inside && u0 >= v0;
                inside = inside && r0 % stride0 == 0u;
                r0 = r0 / stride0;
                inside = inside && r0 < nq0;
                e += r0 * xs0;
                let u1: u32 = p1_2 + pad1;
                let v1: u32 = o1 * dil1;
                var r1: u32 = u1 - v1;
                inside = inside && u1 >= v1;
                inside = inside && r1 % stride1 == 0u;
                r1 = r1 / stride1;
                inside = inside && r1 < nq1;
                e += r1 * xs1;
                let u2: u32 = p2_2 + pad2;
                let v2: u32 = o2 * dil2;
                var r2: u32 = u2 - v2;
                inside = inside && u2 >= v2;
                inside = inside && r2 % stride2 == 0u;
                r2 = r2 / stride2;
                inside = inside && r2 < nq2;
                e += r2 * xs2;
                var x: f32 = bitcast<f32>(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 2u);
                }
                c2 = c2 + av * x;
            }
            {
                var inside: bool = col + 3u < n;
                var e: u32 = grp * x_group + bn_3 * x_batch + ch * x_channel;
                let u0: u32 = p0_3 + pad0;
                let v0: u32 = o0 * dil0;
                var r0: u32 = u0 - v0;
                inside = inside && u0 >= v0;
                inside = inside && r0 % stride0 == 0u;
                r0 = r0 / stride0;
                inside = inside && r0 < nq0;
                e += r0 * xs0;
                let u1: u32 = p1_3 + pad1;
                let v1: u32 = o1 * dil1;
                var r1: u32 = u1 - v1;
                inside = inside && u1 >= v1;
                inside = inside && r1 % stride1 == 0u;
                r1 = r1 / stride1;
                inside = inside && r1 < nq1;
                e += r1 * xs1;
                let u2: u32 = p2_3 + pad2;
                let v2: u32 = o2 * dil2;
                var r2: u32 = u2 - v2;
                inside = inside && u2 >= v2;
                inside = inside && r2 % stride2 == 0u;
                r2 = r2 / stride2;
                inside = inside && r2 < nq2;
                e += r2 * xs2;
                var x: f32 = bitcast<f32>(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 2u);
                }
                c3 = c3 + av * x;
            }
            {
                var inside: bool = col + 4u < n;
                var e: u32 = grp * x_group + bn_4 * x_batch + ch * x_channel;
                let u0: u32 = p0_4 + pad0;
                let v0: u32 = o0 * dil0;
                var r0: u32 = u0 - v0;
                inside = inside && u0 >= v0;
                inside = inside && r0 % stride0 == 0u;
                r0 = r0 / stride0;
                inside = inside && r0 < nq0;
                e += r0 * xs0;
                let u1: u32 = p1_4 + pad1;
                let v1: u32 = o1 * dil1;
                var r1: u32 = u1 - v1;
                inside = inside && u1 >= v1;
                inside = inside && r1 % stride1 == 0u;
                r1 = r1 / stride1;
                inside = inside && r1 < nq1;
                e += r1 * xs1;
                let u2: u32 = p2_4 + pad2;
                let v2: u32 = o2 * dil2;
                var r2: u32 = u2 - v2;
                inside = inside && u2 >= v2;
                inside = inside && r2 % stride2 == 0u;
                r2 = r2 / stride2;
                inside = inside && r2 < nq2;
                e += r2 * xs2;
                var x: f32 = bitcast<f32>(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 2u);
                }
                c4 = c4 + av * x;
            }
            {
                var inside: bool = col + 5u < n;
                var e: u32 = grp * x_group + bn_5 * x_batch + ch * x_channel;
                let u0: u32 = p0_5 + pad0;
                let v0: u32 = o0 * dil0;
                var r0: u32 = u0 - v0;
                inside = inside && u0 >= v0;
                inside = inside && r0 % stride0 == 0u;
                r0 = r0 / stride0;
                inside = inside && r0 < nq0;
                e += r0 * xs0;
                let u1: u32 = p1_5 + pad1;
                let v1: u32 = o1 * dil1;
                var r1: u32 = u1 - v1;
                inside = inside && u1 >= v1;
                inside = inside && r1 % stride1 == 0u;
                r1 = r1 / stride1;
                inside = inside && r1 < nq1;
                e += r1 * xs1;
                let u2: u32 = p2_5 + pad2;
                let v2: u32 = o2 * dil2;
                var r2: u32 = u2 - v2;
                inside = inside && u2 >= v2;
                inside = inside && r2 % stride2 == 0u;
                r2 = r2 / stride2;
                inside = inside && r2 < nq2;
                e += r2 * xs2;
                var x: f32 = bitcast<f32>(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 2u);
                }
                c5 = c5 + av * x;
            }
            {
                var inside: bool = col + 6u < n;
                var e: u32 = grp * x_group + bn_6 * x_batch + ch * x_channel;
                let u0: u32 = p0_6 + pad0;
                let v0: u32 = o0 * dil0;
                var r0: u32 = u0 - v0;
                inside = inside && u0 >= v0;
                inside = inside && r0 % stride0 == 0u;
                r0 = r0 / stride0;
                inside = inside && r0 < nq0;
                e += r0 * xs0;
                let u1: u32 = p1_6 + pad1;
                let v1: u32 = o1 * dil1;
                var r1: u32 = u1 - v1;
                inside = inside && u1 >= v1;
                inside = inside && r1 % stride1 == 0u;
                r1 = r1 / stride1;
                inside = inside && r1 < nq1;
                e += r1 * xs1;
                let u2: u32 = p2_6 + pad2;
                let v2: u32 = o2 * dil2;
                var r2: u32 = u2 - v2;
                inside = inside && u2 >= v2;
                inside = inside && r2 % stride2 == 0u;
                r2 = r2 / stride2;
                inside = inside && r2 < nq2;
                e += r2 * xs2;
                var x: f32 = bitcast<f32>(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 2u);
                }
                c6 = c6 + av * x;
            }
            {
                var inside: bool = col + 7u < n;
                var e: u32 = grp * x_group + bn_7 * x_batch + ch * x_channel;
                let u0: u32 = p0_7 + pad0;
                let v0: u32 = o0 * dil0;
                var r0: u32 = u0 - v0;
                inside = inside && u0 >= v0;
                inside = inside && r0 % stride0 == 0u;
                r0 = r0 / stride0;
                inside = inside && r0 < nq0;
                e += r0 * xs0;
                let u1: u32 = p1_7 + pad1;
                let v1: u32 = o1 * dil1;
                var r1: u32 = u1 - v1;
                inside = inside && u1 >= v1;
                inside = inside && r1 % stride1 == 0u;
                r1 = r1 / stride1;
                inside = inside && r1 < nq1;
                e += r1 * xs1;
                let u2: u32 = p2_7 + pad2;
                let v2: u32 = o2 * dil2;
                var r2: u32 = u2 - v2;
                inside = inside && u2 >= v2;
                inside = inside && r2 % stride2 == 0u;
                r2 = r2 / stride2;
                inside = inside && r2 < nq2;
                e += r2 * xs2;
                var x: f32 = bitcast<f32>(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 2u);
                }
                c7 = c7 + av * x;
            }
            a_r += 1u;
            {
                let up: u32 = u32(a_r == a_split);
                a_r -= up * a_split;
                a_q += up;
            }
            o2 += 1u;
            {
                let up: u32 = u32(o2 == nz2);
                o2 -= up * nz2;
                o1 += up;
            }
            {
                let up: u32 = u32(o1 == nz1);
                o1 -= up * nz1;
                o0 += up;
            }
            {
                let up: u32 = u32(o0 == nz0);
                o0 -= up * nz0;
                ch += up;
            }
        }
        put(b, row, col + 0u, c0);
        put(b, row, col + 1u, c1);
        put(b, row, col + 2u, c2);
        put(b, row, col + 3u, c3);
        put(b, row, col + 4u, c4);
        put(b, row, col + 5u, c5);
        put(b, row, col + 6u, c6);
        put(b, row, col + 7u, c7);
    }
}
