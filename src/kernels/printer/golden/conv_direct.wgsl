var<workgroup> dims_shared: array<u32, 6>;
fn put(b: u32, row: u32, col: u32, acc: f32) {
    if (row < p[launch.words + 0u] && col < p[launch.words + 1u]) {
        let grp: u32 = b / p[launch.words + 6u];
        var v: f32 = acc;
        st2(p[launch.words + 14u] + ((b % p[launch.words + 6u]) * p[launch.words + 20u] + grp * p[launch.words + 15u] + (row) * p[launch.words + 16u] + ((col) / p[launch.words + 17u]) * p[launch.words + 18u] + ((col) % p[launch.words + 17u]) * p[launch.words + 19u]) * 4u, v);
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
    let runs: u32 = (n + 3u) / 4u;
    for (var i = group * 64u + t; i < dims[3] * m * runs; i += groups * 64u) {
        let col: u32 = (i % runs) * 4u;
        let row: u32 = (i / runs) % m;
        let b: u32 = i / runs / m;
        let grp: u32 = b / splits;
        let k_begin: u32 = (b % splits) * chunk;
        let k_end: u32 = min(dims[2], k_begin + chunk);
        var a_q: u32 = k_begin / a_split;
        var a_r: u32 = k_begin % a_split;
        let a_base: u32 = grp * a_group + row * a_row;
        var bn: u32 = k_begin / positions;
        var bn_rest: u32 = k_begin % positions;
        var p2: u32 = bn_rest % np2;
        bn_rest = bn_rest / np2;
        var p1: u32 = bn_rest % np1;
        bn_rest = bn_rest / np1;
        var p0: u32 = bn_rest % np0;
        bn_rest = bn_rest / np0;
        var ch_0: u32 = col / taps;
        var ch_0_rest: u32 = col % taps;
        var o2_0: u32 = ch_0_rest % nz2;
        ch_0_rest = ch_0_rest / nz2;
        var o1_0: u32 = ch_0_rest % nz1;
        ch_0_rest = ch_0_rest / nz1;
        var o0_0: u32 = ch_0_rest % nz0;
        ch_0_rest = ch_0_rest / nz0;
        var o2_1: u32 = o2_0;
        var o1_1: u32 = o1_0;
        var o0_1: u32 = o0_0;
        var ch_1: u32 = ch_0;
        o2_1 += 1u;
        {
            let up: u32 = u32(o2_1 == nz2);
            o2_1 -= up * nz2;
            o1_1 += up;
        }
        {
            let up: u32 = u32(o1_1 == nz1);
            o1_1 -= up * nz1;
            o0_1 += up;
        }
        {
            let up: u32 = u32(o0_1 == nz0);
            o0_1 -= up * nz0;
            ch_1 += up;
        }
        var o2_2: u32 = o2_1;
        var o1_2: u32 = o1_1;
        var o0_2: u32 = o0_1;
        var ch_2: u32 = ch_1;
        o2_2 += 1u;
        {
            let up: u32 = u32(o2_2 == nz2);
            o2_2 -= up * nz2;
            o1_2 += up;
        }
        {
            let up: u32 = u32(o1_2 == nz1);
            o1_2 -= up * nz1;
            o0_2 += up;
        }
        {
            let up: u32 = u32(o0_2 == nz0);
            o0_2 -= up * nz0;
            ch_2 += up;
        }
        var o2_3: u32 = o2_2;
        var o1_3: u32 = o1_2;
        var o0_3: u32 = o0_2;
        var ch_3: u32 = ch_2;
        o2_3 += 1u;
        {
            let up: u32 = u32(o2_3 == nz2);
            o2_3 -= up * nz2;
            o1_3 += up;
        }
        {
            let up: u32 = u32(o1_3 == nz1);
            o1_3 -= up * nz1;
            o0_3 += up;
        }
        {
            let up: u32 = u32(o0_3 == nz0);
            o0_3 -= up * nz0;
            ch_3 += up;
        }
        var c0: f32 = bitcast<f32>(0x0u);
        var c1: f32 = bitcast<f32>(0x0u);
        var c2: f32 = bitcast<f32>(0x0u);
        var c3: f32 = bitcast<f32>(0x0u);
        for (var kk = k_begin; kk < k_end; kk += 1u) {
            let av: f32 = ld0(a_at + (a_base + a_q * a_hi + a_r * a_lo) * 4u);
            {
                var inside: bool = col + 0u < n;
                var e: u32 = grp * x_group + bn * x_batch + ch_0 * x_channel;
                let u0: u32 = p0 * stride0 + o0_0 * dil0;
                inside = inside && u0 >= pad0 && u0 - pad0 < nq0;
                e += (u0 - pad0) * xs0;
                let u1: u32 = p1 * stride1 + o1_0 * dil1;
                inside = inside && u1 >= pad1 && u1 - pad1 < nq1;
                e += (u1 - pad1) * xs1;
                let u2: u32 = p2 * stride2 + o2_0 * dil2;
                inside = inside && u2 >= pad2 && u2 - pad2 < nq2;
                e += (u2 - pad2) * xs2;
                var x: f32 = bitcast<f32>(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 4u);
                }
                c0 = c0 + av * x;
            }
            {
                var inside: bool = col + 1u < n;
                var e: u32 = grp * x_group + bn * x_batch + ch_1 * x_channel;
                let u0: u32 = p0 * stride0 + o0_1 * dil0;
                inside = inside && u0 >= pad0 && u0 - pad0 < nq0;
                e += (u0 - pad0) * xs0;
                let u1: u32 = p1 * stride1 + o1_1 * dil1;
                inside = inside && u1 >= pad1 && u1 - pad1 < nq1;
                e += (u1 - pad1) * xs1;
                let u2: u32 = p2 * stride2 + o2_1 * dil2;
                inside = inside && u2 >= pad2 && u2 - pad2 < nq2;
                e += (u2 - pad2) * xs2;
                var x: f32 = bitcast<f32>(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 4u);
                }
                c1 = c1 + av * x;
            }
            {
                var inside: bool = col + 2u < n;
                var e: u32 = grp * x_group + bn * x_batch + ch_2 * x_channel;
                let u0: u32 = p0 * stride0 + o0_2 * dil0;
                inside = inside && u0 >= pad0 && u0 - pad0 < nq0;
                e += (u0 - pad0) * xs0;
                let u1: u32 = p1 * stride1 + o1_2 * dil1;
                inside = inside && u1 >= pad1 && u1 - pad1 < nq1;
                e += (u1 - pad1) * xs1;
                let u2: u32 = p2 * stride2 + o2_2 * dil2;
                inside = inside && u2 >= pad2 && u2 - pad2 < nq2;
                e += (u2 - pad2) * xs2;
                var x: f32 = bitcast<f32>(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 4u);
                }
                c2 = c2 + av * x;
            }
            {
                var inside: bool = col + 3u < n;
                var e: u32 = grp * x_group + bn * x_batch + ch_3 * x_channel;
                let u0: u32 = p0 * stride0 + o0_3 * dil0;
                inside = inside && u0 >= pad0 && u0 - pad0 < nq0;
                e += (u0 - pad0) * xs0;
                let u1: u32 = p1 * stride1 + o1_3 * dil1;
                inside = inside && u1 >= pad1 && u1 - pad1 < nq1;
                e += (u1 - pad1) * xs1;
                let u2: u32 = p2 * stride2 + o2_3 * dil2;
                inside = inside && u2 >= pad2 && u2 - pad2 < nq2;
                e += (u2 - pad2) * xs2;
                var x: f32 = bitcast<f32>(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 4u);
                }
                c3 = c3 + av * x;
            }
            a_r += 1u;
            {
                let up: u32 = u32(a_r == a_split);
                a_r -= up * a_split;
                a_q += up;
            }
            p2 += 1u;
            {
                let up: u32 = u32(p2 == np2);
                p2 -= up * np2;
                p1 += up;
            }
            {
                let up: u32 = u32(p1 == np1);
                p1 -= up * np1;
                p0 += up;
            }
            {
                let up: u32 = u32(p0 == np0);
                p0 -= up * np0;
                bn += up;
            }
        }
        put(b, row, col + 0u, c0);
        put(b, row, col + 1u, c1);
        put(b, row, col + 2u, c2);
        put(b, row, col + 3u, c3);
    }
}
