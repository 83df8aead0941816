fn main {
    const u32 xn = p.w[0u];
    const u32 rn = p.w[1u];
    const u32 o0 = p.w[2u];
    const u32 n0 = p.w[5u];
    const u32 o1 = p.w[3u];
    const u32 n1 = p.w[6u];
    const u32 o2 = p.w[4u];
    const u32 n2 = p.w[7u];
    const int x2 = int(xn);
    const int x3 = int(rn);
    {
        const int x5 = ((int)0x3u);
        const int x6 = ((int)0x5u);
        for (u32 xg = group * 64u + t; xg < u32(max(x5, 0)); xg += groups * 64u) {
            const int x4 = int(xg);
            float x8 = __uint_as_float(0x0u);
            for (u32 r = 0u; r < u32(max(x6, 0)); r += 1u) {
                const int x1 = int(r);
                const float x7 = ld0(o0 + (min(u32((x1 + (x4 * x6))), n0 - 1u)) * 4u);
                x8 = (x8 + x7);
            }
            {
                const u32 e = u32(x4);
                if (e < n1) {
                    st1(o1 + (e) * 4u, x8);
                }
            }
        }
    }
    {
        const int x10 = ((int)0xfu);
        const int x11 = ((int)0x1u);
        for (u32 xg = group * 64u + t; xg < u32(max(x10, 0)); xg += groups * 64u) {
            const int x9 = int(xg);
            const float x12 = ld0(o0 + (min(u32(x9), n0 - 1u)) * 4u);
            {
                const u32 e = u32(x9);
                if (e < n2) {
                    st2(o2 + (e) * 4u, expf(x12));
                }
            }
        }
    }
}
