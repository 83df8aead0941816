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
        for (u32 q = group * 64u + t; q < (u32(max(x5, 0)) + 3u) / 4u; q += groups * 64u) {
            const u32 base = q * 4u;
            if (base + 4u <= u32(max(x5, 0)) && base + 4u <= n0 && base + 4u <= n1) {
                const auto v6 = *(const float4*)(b0 + (o0 + (base) * 4u));
                float r1_0 = __uint_as_float(0x0u);
                float r1_1 = __uint_as_float(0x0u);
                float r1_2 = __uint_as_float(0x0u);
                float r1_3 = __uint_as_float(0x0u);
                {
                    const int x4 = int(base + 0u);
                    const float x6 = v6.x;
                    r1_0 = expf(x6);
                }
                {
                    const int x4 = int(base + 1u);
                    const float x6 = v6.y;
                    r1_1 = expf(x6);
                }
                {
                    const int x4 = int(base + 2u);
                    const float x6 = v6.z;
                    r1_2 = expf(x6);
                }
                {
                    const int x4 = int(base + 3u);
                    const float x6 = v6.w;
                    r1_3 = expf(x6);
                }
                *(float4*)(b1 + (o1 + (base) * 4u)) = make_float4(r1_0, r1_1, r1_2, r1_3);
            } else {
                for (u32 xg = base; xg < min(base + 4u, u32(max(x5, 0))); xg += 1u) {
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
        }
    }
    {
        const int x8 = s0;
        const int x9 = s0;
        for (u32 q = group * 64u + t; q < (u32(max(x8, 0)) + 3u) / 4u; q += groups * 64u) {
            const u32 base = q * 4u;
            if (base + 4u <= u32(max(x8, 0)) && base + 4u <= n2) {
                float r3_0 = __uint_as_float(0x0u);
                float r3_1 = __uint_as_float(0x0u);
                float r3_2 = __uint_as_float(0x0u);
                float r3_3 = __uint_as_float(0x0u);
                {
                    const int x7 = int(base + 0u);
                    const int x10 = ((x7 % x9 != ((int)0x0u) && ((x7 % x9 < ((int)0x0u)) != (x9 < ((int)0x0u)))) ? x7 % x9 + x9 : x7 % x9);
                    const float x11 = ld2(o2 + (min(u32(x10), n2 - 1u)) * 4u);
                    r3_0 = (x11 * x11);
                }
                {
                    const int x7 = int(base + 1u);
                    const int x10 = ((x7 % x9 != ((int)0x0u) && ((x7 % x9 < ((int)0x0u)) != (x9 < ((int)0x0u)))) ? x7 % x9 + x9 : x7 % x9);
                    const float x11 = ld2(o2 + (min(u32(x10), n2 - 1u)) * 4u);
                    r3_1 = (x11 * x11);
                }
                {
                    const int x7 = int(base + 2u);
                    const int x10 = ((x7 % x9 != ((int)0x0u) && ((x7 % x9 < ((int)0x0u)) != (x9 < ((int)0x0u)))) ? x7 % x9 + x9 : x7 % x9);
                    const float x11 = ld2(o2 + (min(u32(x10), n2 - 1u)) * 4u);
                    r3_2 = (x11 * x11);
                }
                {
                    const int x7 = int(base + 3u);
                    const int x10 = ((x7 % x9 != ((int)0x0u) && ((x7 % x9 < ((int)0x0u)) != (x9 < ((int)0x0u)))) ? x7 % x9 + x9 : x7 % x9);
                    const float x11 = ld2(o2 + (min(u32(x10), n2 - 1u)) * 4u);
                    r3_3 = (x11 * x11);
                }
                *(float4*)(b2 + (o2 + (base) * 4u)) = make_float4(r3_0, r3_1, r3_2, r3_3);
            } else {
                for (u32 xg = base; xg < min(base + 4u, u32(max(x8, 0))); xg += 1u) {
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
    }
}
