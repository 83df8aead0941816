fn main {
    let n: u32 = p[launch.words + 0u];
    let shift: u32 = p[launch.words + 1u];
    let sums: u32 = p[launch.words + 2u];
    let state: u32 = p[launch.words + 3u];
    for (var i = group * 64u + t; i < n; i += groups * 64u) {
        let rank: u32 = u32(ld1(state + i * 8u + 4u));
        var before: u32 = 0u;
        var chosen: u32 = 255u;
        for (var d = 0u; d < 256u; d += 1u) {
            let c: u32 = u32(ld0(sums + (i * 256u + d) * 4u));
            if (before + c >= rank) {
                chosen = d;
                break;
            }
            before += c;
        }
        st1(state + i * 8u, i32(u32(ld1(state + i * 8u)) | (chosen << shift)));
        st1(state + i * 8u + 4u, i32(rank - before));
    }
}
