fn main {
    const u32 xn = p.w[0u];
    const u32 rn = p.w[1u];
    const u32 o0 = p.w[2u];
    const u32 n0 = p.w[4u];
    const u32 o1 = p.w[3u];
    const u32 n1 = p.w[5u];
    const float s0 = __uint_as_float(p.w[6u + 0u]);
    const int x2 = int(xn);
    const int x3 = int(rn);
    const float x4 = powf(__uint_as_float(0x3f666666u), s0);
    const float x5 = (__uint_as_float(0x3f800000u) - x4);
    for (u32 xg = group * 64u + t; xg < xn; xg += groups * 64u) {
        const int x0 = int(xg);
        const float x6 = ld0(o0 + (min(u32(x0), n0 - 1u)) * 4u);
        {
            const u32 e = u32(x0);
            if (e < n1) {
                st1(o1 + (e) * 4u, (x6 / x5));
            }
        }
    }
}
