fn main {
    let n: u32 = p[launch.words + 0u];
    let len: u32 = p[launch.words + 1u];
    let nk: u32 = p[launch.words + 2u];
    let io: u32 = 3u + nk;
    let vo: u32 = io + 2u + nk;
    let xo: u32 = vo + 2u + nk;
    for (var i = group * 64u + t; i < n; i += groups * 64u) {
        let j: u32 = i % len;
        var r: u32 = i / len;
        var ein: u32 = 0u;
        var ev: u32 = 0u;
        var ex: u32 = 0u;
        for (var d = nk; d > 0u; d -= 1u) {
            let c: u32 = r % p[launch.words + 2u + d];
            r = r / p[launch.words + 2u + d];
            ein += c * p[launch.words + io + d];
            ev += c * p[launch.words + vo + d];
            ex += c * p[launch.words + xo + d];
        }
        let ib: u32 = p[launch.words + io] + ein * 4u;
        let istep: u32 = p[launch.words + io + 1u + nk] * 4u;
        let x1: f32 = ld0(ib + j * istep);
        var rank: u32 = 0u;
        for (var q = 0u; q < len; q += 1u) {
            let x0: f32 = ld0(ib + q * istep);
            if ((((x0 < x1) | ((!((bitcast<u32>(x0) & 0x7fffffffu) > 0x7f800000u)) & ((bitcast<u32>(x1) & 0x7fffffffu) > 0x7f800000u)))) || (q < j && (((x0 == x1) | (((bitcast<u32>(x0) & 0x7fffffffu) > 0x7f800000u) & ((bitcast<u32>(x1) & 0x7fffffffu) > 0x7f800000u)))))) {
                rank += 1u;
            }
        }
        st1(p[launch.words + vo] + (ev + rank * p[launch.words + vo + 1u + nk]) * 4u, x1);
        st2(p[launch.words + xo] + (ex + rank * p[launch.words + xo + 1u + nk]) * 8u, i64(j));
    }
}
