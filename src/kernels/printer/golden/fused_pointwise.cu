fn main {
    const u32 xn = p.w[0u];
    const u32 rn = p.w[1u];
    const u32 o0 = p.w[2u];
    const u32 n0 = p.w[4u];
    const u32 o1 = p.w[3u];
    const u32 n1 = p.w[5u];
    const int s0 = (int)p.w[6u + 0u];
    const float s1 = __uint_as_float(p.w[6u + 1u]);
    const int x2 = int(xn);
    const int x3 = int(rn);
    for (u32 xg = group * 64u + t; xg < xn; xg += groups * 64u) {
        const int x0 = int(xg);
        const int x4 = ((x0 % s0 != ((int)0x0u) && ((x0 % s0 < ((int)0x0u)) != (s0 < ((int)0x0u)))) ? x0 % s0 + s0 : x0 % s0);
        const bool x5 = (((i64)(x4)) >= ((i64)0x2ull));
        float x6 = __uint_as_float(0x0u);
        if (x5) {
            const float x7 = ld0(o0 + (min(u32((x0 + ((int)0xfffffffeu))), n0 - 1u)) * 4u);
            x6 = (s1 * expf(x7));
        }
        {
            const u32 e = u32(x0);
            if (e < n1) {
                st1(o1 + (e) * 4u, x6);
            }
        }
    }
}
