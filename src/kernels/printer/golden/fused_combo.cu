fn main {
    const u32 xn = p.w[0u];
    const u32 rn = p.w[1u];
    const u32 o0 = p.w[2u];
    const u32 n0 = p.w[5u];
    const u32 o1 = p.w[3u];
    const u32 n1 = p.w[6u];
    const u32 o2 = p.w[4u];
    const u32 n2 = p.w[7u];
    const int s0 = (int)p.w[8u + 0u];
    const int x2 = int(xn);
    const int x3 = int(rn);
    {
        const int x5 = ((int)0x3u);
        for (u32 xg = group * 64u + t; xg < u32(max(x5, 0)); xg += groups * 64u) {
            const int x4 = int(xg);
            const float x6 = ld0(o0 + (min(u32(x4), n0 - 1u)) * 4u);
            {
                const u32 e = u32(x4);
                if (e < n1) {
                    st1(o1 + (e) * 4u, expf(x6));
                }
            }
        }
    }
    {
        const int x8 = s0;
        const int x9 = s0;
        for (u32 xg = group * 64u + t; xg < u32(max(x8, 0)); xg += groups * 64u) {
            const int x7 = int(xg);
            const int x10 = ((x7 % x9 != ((int)0x0u) && ((x7 % x9 < ((int)0x0u)) != (x9 < ((int)0x0u)))) ? x7 % x9 + x9 : x7 % x9);
            const float x11 = ld2(o2 + (min(u32(x10), n2 - 1u)) * 4u);
            {
                const u32 e = u32(x7);
                if (e < n2) {
                    st2(o2 + (e) * 4u, (x11 * x11));
                }
            }
        }
    }
}
