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
    for (var i = group * 64u + t; i < dims[3] * m * n; i += groups * 64u) {
        let col: u32 = i % n;
        let row: u32 = (i / n) % m;
        let b: u32 = i / n / m;
        let grp: u32 = b / splits;
        let k_begin: u32 = (b % splits) * chunk;
        let k_end: u32 = min(dims[2], k_begin + chunk);
        var a_q: u32 = k_begin / a_split;
        var a_r: u32 = k_begin % a_split;
        let a_base: u32 = grp * a_group + row * a_row;
        var ch: u32 = col / taps;
        var ch_rest: u32 = col % taps;
        var o2: u32 = ch_rest % nz2;
        ch_rest = ch_rest / nz2;
        var o1: u32 = ch_rest % nz1;
        ch_rest = ch_rest / nz1;
        var o0: u32 = ch_rest % nz0;
        ch_rest = ch_rest / nz0;
        var bn: u32 = k_begin / positions;
        var bn_rest: u32 = k_begin % positions;
        var p2: u32 = bn_rest % np2;
        bn_rest = bn_rest / np2;
        var p1: u32 = bn_rest % np1;
        bn_rest = bn_rest / np1;
        var p0: u32 = bn_rest % np0;
        bn_rest = bn_rest / np0;
        var c: f32 = bitcast<f32>(0x0u);
        for (var kk = k_begin; kk < k_end; kk += 1u) {
            let av: f32 = ld0(a_at + (a_base + a_q * a_hi + a_r * a_lo) * 4u);
            var inside: bool = true;
            var e: u32 = grp * x_group + bn * x_batch + ch * x_channel;
            let u0: u32 = p0 * stride0 + o0 * dil0;
            inside = inside && u0 >= pad0 && u0 - pad0 < nq0;
            e += (u0 - pad0) * xs0;
            let u1: u32 = p1 * stride1 + o1 * dil1;
            inside = inside && u1 >= pad1 && u1 - pad1 < nq1;
            e += (u1 - pad1) * xs1;
            let u2: u32 = p2 * stride2 + o2 * dil2;
            inside = inside && u2 >= pad2 && u2 - pad2 < nq2;
            e += (u2 - pad2) * xs2;
            var x: f32 = bitcast<f32>(0x0u);
            if (inside) {
                x = ld1(x_at + e * 4u);
            }
            c = c + av * x;
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
        put(b, row, col, c);
    }
}
