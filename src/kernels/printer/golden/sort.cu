fn main {
    const u32 n = p.w[0u];
    const u32 len = p.w[1u];
    const u32 nk = p.w[2u];
    const u32 io = 3u + nk;
    const u32 vo = io + 2u + nk;
    const u32 xo = vo + 2u + nk;
    for (u32 i = group * 64u + t; i < n; i += groups * 64u) {
        const u32 j = i % len;
        u32 r = i / len;
        u32 ein = 0u;
        u32 ev = 0u;
        u32 ex = 0u;
        for (u32 d = nk; d > 0u; d -= 1u) {
            const u32 c = r % p.w[2u + d];
            r = r / p.w[2u + d];
            ein += c * p.w[io + d];
            ev += c * p.w[vo + d];
            ex += c * p.w[xo + d];
        }
        const u32 ib = p.w[io] + ein * 4u;
        const u32 istep = p.w[io + 1u + nk] * 4u;
        const float x1 = ld0(ib + j * istep);
        u32 rank = 0u;
        for (u32 q = 0u; q < len; q += 1u) {
            const float x0 = ld0(ib + q * istep);
            if ((((x0 < x1) | ((!isnan(x0)) & isnan(x1)))) || (q < j && (((x0 == x1) | (isnan(x0) & isnan(x1)))))) {
                rank += 1u;
            }
        }
        st1(p.w[vo] + (ev + rank * p.w[vo + 1u + nk]) * 4u, x1);
        st2(p.w[xo] + (ex + rank * p.w[xo + 1u + nk]) * 8u, i64(j));
    }
}
