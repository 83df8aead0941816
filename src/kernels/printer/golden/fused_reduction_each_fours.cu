fn main {
    const u32 xn = p.w[0u];
    const u32 rn = p.w[1u];
    const u32 o0 = p.w[2u];
    const u32 n0 = p.w[7u];
    const u32 o1 = p.w[3u];
    const u32 n1 = p.w[8u];
    const u32 o2 = p.w[4u];
    const u32 n2 = p.w[9u];
    const u32 o3 = p.w[5u];
    const u32 n3 = p.w[10u];
    const u32 o4 = p.w[6u];
    const u32 n4 = p.w[11u];
    const int x2 = int(xn);
    const int x3 = int(rn);
    for (u32 xg = group * 64u + t; xg < xn; xg += groups * 64u) {
        const int x0 = int(xg);
        const int x4 = x0;
        float x10 = __uint_as_float(0x0u);
        const float x7 = ld1(o1 + (min(u32(x4), n1 - 1u)) * 4u);
        const int w0_1 = (x4 * x3);
        const int w0_3 = ((int)0x0u);
        const int w0_6 = (x4 * x3);
        const bool fours0 = w0_1 >= 0 && ((o0 + u32(w0_1) * 4u) & 15u) == 0u && u32(w0_1) + rn <= n0 && w0_3 >= 0 && ((o2 + u32(w0_3) * 4u) & 15u) == 0u && u32(w0_3) + rn <= n2 && w0_6 >= 0 && ((o3 + u32(w0_6) * 4u) & 15u) == 0u && u32(w0_6) + rn <= n3;
        if (fours0) {
            for (u32 r = 0u; r + 4u <= rn; r += 4u) {
                const auto v6 = *(const float4*)(b0 + (o0 + (u32(w0_1) + r) * 4u));
                const auto v8 = *(const float4*)(b2 + (o2 + (u32(w0_3) + r) * 4u));
                float r6_0 = __uint_as_float(0x0u);
                float r6_1 = __uint_as_float(0x0u);
                float r6_2 = __uint_as_float(0x0u);
                float r6_3 = __uint_as_float(0x0u);
                {
                    const int x1 = int(r + 0u);
                    const int x5 = x1;
                    const float x6 = v6.x;
                    const float x8 = v8.x;
                    const float x9 = (x6 - x7);
                    x10 = (x10 + (x9 * x8));
                    r6_0 = x9;
                }
                {
                    const int x1 = int(r + 1u);
                    const int x5 = x1;
                    const float x6 = v6.y;
                    const float x8 = v8.y;
                    const float x9 = (x6 - x7);
                    x10 = (x10 + (x9 * x8));
                    r6_1 = x9;
                }
                {
                    const int x1 = int(r + 2u);
                    const int x5 = x1;
                    const float x6 = v6.z;
                    const float x8 = v8.z;
                    const float x9 = (x6 - x7);
                    x10 = (x10 + (x9 * x8));
                    r6_2 = x9;
                }
                {
                    const int x1 = int(r + 3u);
                    const int x5 = x1;
                    const float x6 = v6.w;
                    const float x8 = v8.w;
                    const float x9 = (x6 - x7);
                    x10 = (x10 + (x9 * x8));
                    r6_3 = x9;
                }
                *(float4*)(b3 + (o3 + (u32(w0_6) + r) * 4u)) = make_float4(r6_0, r6_1, r6_2, r6_3);
            }
        }
        for (u32 r = (fours0 ? rn & ~3u : 0u); r < rn; r += 1u) {
            const int x1 = int(r);
            const int x5 = x1;
            const float x6 = ld0(o0 + (min(u32((x5 + (x4 * x3))), n0 - 1u)) * 4u);
            const float x8 = ld2(o2 + (min(u32(x5), n2 - 1u)) * 4u);
            const float x9 = (x6 - x7);
            x10 = (x10 + (x9 * x8));
            {
                const u32 e = u32((x5 + (x4 * x3)));
                if (e < n3) {
                    st3(o3 + (e) * 4u, x9);
                }
            }
        }
        {
            const u32 e = u32(x4);
            if (e < n4) {
                st4(o4 + (e) * 4u, x10);
            }
        }
    }
}
