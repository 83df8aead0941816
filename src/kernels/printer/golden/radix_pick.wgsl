fn main {
    let n: u32 = p[launch.words + 0u];
    let shift: u32 = p[launch.words + 1u];
    let sums: u32 = p[launch.words + 2u];
    let state: u32 = p[launch.words + 3u];
    let i_count: u32 = n;
    let i_each: u32 = i_count / groups;
    let i_extra: u32 = i_count % groups;
    let i_end: u32 = group * i_each + min(group, i_extra) + i_each + select(0u, 1u, group < i_extra);
    for (var i = group * i_each + min(group, i_extra) + t; i < i_end; i += 64u) {
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
