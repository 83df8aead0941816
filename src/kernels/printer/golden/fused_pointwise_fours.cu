fn main {
    const u32 xn = p.w[0u];
    const u32 rn = p.w[1u];
    const u32 o0 = p.w[2u];
    const u32 n0 = p.w[6u];
    const u32 o1 = p.w[3u];
    const u32 n1 = p.w[7u];
    const u32 o2 = p.w[4u];
    const u32 n2 = p.w[8u];
    const u32 o3 = p.w[5u];
    const u32 n3 = p.w[9u];
    const int x2 = int(xn);
    const int x3 = int(rn);
    for (u32 q = group * 64u + t; q < (xn + 3u) / 4u; q += groups * 64u) {
        const u32 base = q * 4u;
        if (base + 4u <= xn && base + 4u <= n0 && base + 4u <= n2) {
            const auto v6 = *(const float4*)(b0 + (o0 + (base) * 4u));
            float r5_0 = __uint_as_float(0x0u);
            float r5_1 = __uint_as_float(0x0u);
            float r5_2 = __uint_as_float(0x0u);
            float r5_3 = __uint_as_float(0x0u);
            {
                const int x0 = int(base + 0u);
                const int x4 = x0;
                const int x5 = ((x0 % ((int)0x400u) != ((int)0x0u) && ((x0 % ((int)0x400u) < ((int)0x0u)) != (((int)0x400u) < ((int)0x0u)))) ? x0 % ((int)0x400u) + ((int)0x400u) : x0 % ((int)0x400u));
                const float x6 = v6.x;
                const float x7 = ld1(o1 + (min(u32(x5), n1 - 1u)) * 4u);
                const float x8 = (x6 + x7);
                r5_0 = mojo_b2f(mojo_f2b(x8));
                {
                    const u32 e = u32(x4);
                    if (e < n3) {
                        st3(o3 + (e) * 8u, ((double)(x8)));
                    }
                }
            }
            {
                const int x0 = int(base + 1u);
                const int x4 = x0;
                const int x5 = ((x0 % ((int)0x400u) != ((int)0x0u) && ((x0 % ((int)0x400u) < ((int)0x0u)) != (((int)0x400u) < ((int)0x0u)))) ? x0 % ((int)0x400u) + ((int)0x400u) : x0 % ((int)0x400u));
                const float x6 = v6.y;
                const float x7 = ld1(o1 + (min(u32(x5), n1 - 1u)) * 4u);
                const float x8 = (x6 + x7);
                r5_1 = mojo_b2f(mojo_f2b(x8));
                {
                    const u32 e = u32(x4);
                    if (e < n3) {
                        st3(o3 + (e) * 8u, ((double)(x8)));
                    }
                }
            }
            {
                const int x0 = int(base + 2u);
                const int x4 = x0;
                const int x5 = ((x0 % ((int)0x400u) != ((int)0x0u) && ((x0 % ((int)0x400u) < ((int)0x0u)) != (((int)0x400u) < ((int)0x0u)))) ? x0 % ((int)0x400u) + ((int)0x400u) : x0 % ((int)0x400u));
                const float x6 = v6.z;
                const float x7 = ld1(o1 + (min(u32(x5), n1 - 1u)) * 4u);
                const float x8 = (x6 + x7);
                r5_2 = mojo_b2f(mojo_f2b(x8));
                {
                    const u32 e = u32(x4);
                    if (e < n3) {
                        st3(o3 + (e) * 8u, ((double)(x8)));
                    }
                }
            }
            {
                const int x0 = int(base + 3u);
                const int x4 = x0;
                const int x5 = ((x0 % ((int)0x400u) != ((int)0x0u) && ((x0 % ((int)0x400u) < ((int)0x0u)) != (((int)0x400u) < ((int)0x0u)))) ? x0 % ((int)0x400u) + ((int)0x400u) : x0 % ((int)0x400u));
                const float x6 = v6.w;
                const float x7 = ld1(o1 + (min(u32(x5), n1 - 1u)) * 4u);
                const float x8 = (x6 + x7);
                r5_3 = mojo_b2f(mojo_f2b(x8));
                {
                    const u32 e = u32(x4);
                    if (e < n3) {
                        st3(o3 + (e) * 8u, ((double)(x8)));
                    }
                }
            }
            *(ushort4*)(b2 + (o2 + (base) * 2u)) = make_ushort4((unsigned short)mojo_f2b(r5_0), (unsigned short)mojo_f2b(r5_1), (unsigned short)mojo_f2b(r5_2), (unsigned short)mojo_f2b(r5_3));
        } else {
            for (u32 xg = base; xg < min(base + 4u, xn); xg += 1u) {
                const int x0 = int(xg);
                const int x4 = x0;
                const int x5 = ((x0 % ((int)0x400u) != ((int)0x0u) && ((x0 % ((int)0x400u) < ((int)0x0u)) != (((int)0x400u) < ((int)0x0u)))) ? x0 % ((int)0x400u) + ((int)0x400u) : x0 % ((int)0x400u));
                const float x6 = ld0(o0 + (min(u32(x4), n0 - 1u)) * 4u);
                const float x7 = ld1(o1 + (min(u32(x5), n1 - 1u)) * 4u);
                const float x8 = (x6 + x7);
                {
                    const u32 e = u32(x4);
                    if (e < n2) {
                        st2(o2 + (e) * 2u, mojo_b2f(mojo_f2b(x8)));
                    }
                }
                {
                    const u32 e = u32(x4);
                    if (e < n3) {
                        st3(o3 + (e) * 8u, ((double)(x8)));
                    }
                }
            }
        }
    }
}
