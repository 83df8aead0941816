fn main {
    const u32 n = p.w[0u];
    const u32 shift = p.w[1u];
    const u32 sums = p.w[2u];
    const u32 state = p.w[3u];
    for (u32 i = group * 64u + t; i < n; i += groups * 64u) {
        const u32 rank = u32(ld1(state + i * 8u + 4u));
        u32 before = 0u;
        u32 chosen = 255u;
        for (u32 d = 0u; d < 256u; d += 1u) {
            const u32 c = u32(ld0(sums + (i * 256u + d) * 4u));
            if (before + c >= rank) {
                chosen = d;
                break;
            }
            before += c;
        }
        st1(state + i * 8u, int(u32(ld1(state + i * 8u)) | (chosen << shift)));
        st1(state + i * 8u + 4u, int(rank - before));
    }
}
