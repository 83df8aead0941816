fn main {
    const u32 n = p.w[0u];
    const u32 nd = p.w[1u];
    const u32 inner = p.w[1u + nd];
    const u32 o0 = p.w[2u + nd + 0u * (1u + nd)];
    u32 rs0 = 0u;
    const u32 o1 = p.w[2u + nd + 1u * (1u + nd)];
    u32 rs1 = 0u;
    const u32 o2 = p.w[2u + nd + 2u * (1u + nd)];
    u32 rs2 = 0u;
    if (nd == 2u) {
        rs0 = p.w[2u + nd + 0u * (1u + nd) + 1u];
        rs1 = p.w[2u + nd + 1u * (1u + nd) + 1u];
        rs2 = p.w[2u + nd + 2u * (1u + nd) + 1u];
    }
    for (u32 q = group * 64u + t; q < (n + 15u) / 16u; q += groups * 64u) {
        const u32 base = q * 16u;
        const u32 end = min(base + 16u, n);
        u32 row = 0u;
        u32 col = base;
        if (nd == 2u) {
            row = base / inner;
            col = base - row * inner;
        }
        if (base + 16u <= n && col + 16u <= (nd == 2u ? inner : n)) {
            const auto w0_0 = *(const uint4*)(b0 + (o0 + (row * rs0 + col + 0u) * 1u));
            const auto w1_0 = *(const uint4*)(b1 + (o1 + (row * rs1 + col + 0u) * 2u));
            uint4 w2_0;
            {
                const u32 first = base;
                const auto loaded0 = ((const uchar4*)&w0_0)[0];
                const auto loaded1 = ((const ushort4*)&w1_0)[0];
                float r0_0 = __uint_as_float(0x0u);
                float r0_1 = __uint_as_float(0x0u);
                float r0_2 = __uint_as_float(0x0u);
                float r0_3 = __uint_as_float(0x0u);
                {
                    const u32 i = first + 0u;
                    const u32 x0 = (u32)(loaded0.x);
                    const float x1 = mojo_h2f(loaded1.x);
                    r0_0 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                }
                {
                    const u32 i = first + 1u;
                    const u32 x0 = (u32)(loaded0.y);
                    const float x1 = mojo_h2f(loaded1.y);
                    r0_1 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                }
                {
                    const u32 i = first + 2u;
                    const u32 x0 = (u32)(loaded0.z);
                    const float x1 = mojo_h2f(loaded1.z);
                    r0_2 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                }
                {
                    const u32 i = first + 3u;
                    const u32 x0 = (u32)(loaded0.w);
                    const float x1 = mojo_h2f(loaded1.w);
                    r0_3 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                }
                ((ushort4*)&w2_0)[0] = make_ushort4((unsigned short)mojo_f2h(r0_0), (unsigned short)mojo_f2h(r0_1), (unsigned short)mojo_f2h(r0_2), (unsigned short)mojo_f2h(r0_3));
            }
            {
                const u32 first = base + 4u;
                const auto loaded0 = ((const uchar4*)&w0_0)[1];
                const auto loaded1 = ((const ushort4*)&w1_0)[1];
                float r0_0 = __uint_as_float(0x0u);
                float r0_1 = __uint_as_float(0x0u);
                float r0_2 = __uint_as_float(0x0u);
                float r0_3 = __uint_as_float(0x0u);
                {
                    const u32 i = first + 0u;
                    const u32 x0 = (u32)(loaded0.x);
                    const float x1 = mojo_h2f(loaded1.x);
                    r0_0 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                }
                {
                    const u32 i = first + 1u;
                    const u32 x0 = (u32)(loaded0.y);
                    const float x1 = mojo_h2f(loaded1.y);
                    r0_1 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                }
                {
                    const u32 i = first + 2u;
                    const u32 x0 = (u32)(loaded0.z);
                    const float x1 = mojo_h2f(loaded1.z);
                    r0_2 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                }
                {
                    const u32 i = first + 3u;
                    const u32 x0 = (u32)(loaded0.w);
                    const float x1 = mojo_h2f(loaded1.w);
                    r0_3 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                }
                ((ushort4*)&w2_0)[1] = make_ushort4((unsigned short)mojo_f2h(r0_0), (unsigned short)mojo_f2h(r0_1), (unsigned short)mojo_f2h(r0_2), (unsigned short)mojo_f2h(r0_3));
            }
            *(uint4*)(b2 + (o2 + (row * rs2 + col + 0u) * 2u)) = w2_0;
            const auto w1_1 = *(const uint4*)(b1 + (o1 + (row * rs1 + col + 8u) * 2u));
            uint4 w2_1;
            {
                const u32 first = base + 8u;
                const auto loaded0 = ((const uchar4*)&w0_0)[2];
                const auto loaded1 = ((const ushort4*)&w1_1)[0];
                float r0_0 = __uint_as_float(0x0u);
                float r0_1 = __uint_as_float(0x0u);
                float r0_2 = __uint_as_float(0x0u);
                float r0_3 = __uint_as_float(0x0u);
                {
                    const u32 i = first + 0u;
                    const u32 x0 = (u32)(loaded0.x);
                    const float x1 = mojo_h2f(loaded1.x);
                    r0_0 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                }
                {
                    const u32 i = first + 1u;
                    const u32 x0 = (u32)(loaded0.y);
                    const float x1 = mojo_h2f(loaded1.y);
                    r0_1 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                }
                {
                    const u32 i = first + 2u;
                    const u32 x0 = (u32)(loaded0.z);
                    const float x1 = mojo_h2f(loaded1.z);
                    r0_2 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                }
                {
                    const u32 i = first + 3u;
                    const u32 x0 = (u32)(loaded0.w);
                    const float x1 = mojo_h2f(loaded1.w);
                    r0_3 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                }
                ((ushort4*)&w2_1)[0] = make_ushort4((unsigned short)mojo_f2h(r0_0), (unsigned short)mojo_f2h(r0_1), (unsigned short)mojo_f2h(r0_2), (unsigned short)mojo_f2h(r0_3));
            }
            {
                const u32 first = base + 12u;
                const auto loaded0 = ((const uchar4*)&w0_0)[3];
                const auto loaded1 = ((const ushort4*)&w1_1)[1];
                float r0_0 = __uint_as_float(0x0u);
                float r0_1 = __uint_as_float(0x0u);
                float r0_2 = __uint_as_float(0x0u);
                float r0_3 = __uint_as_float(0x0u);
                {
                    const u32 i = first + 0u;
                    const u32 x0 = (u32)(loaded0.x);
                    const float x1 = mojo_h2f(loaded1.x);
                    r0_0 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                }
                {
                    const u32 i = first + 1u;
                    const u32 x0 = (u32)(loaded0.y);
                    const float x1 = mojo_h2f(loaded1.y);
                    r0_1 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                }
                {
                    const u32 i = first + 2u;
                    const u32 x0 = (u32)(loaded0.z);
                    const float x1 = mojo_h2f(loaded1.z);
                    r0_2 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                }
                {
                    const u32 i = first + 3u;
                    const u32 x0 = (u32)(loaded0.w);
                    const float x1 = mojo_h2f(loaded1.w);
                    r0_3 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                }
                ((ushort4*)&w2_1)[1] = make_ushort4((unsigned short)mojo_f2h(r0_0), (unsigned short)mojo_f2h(r0_1), (unsigned short)mojo_f2h(r0_2), (unsigned short)mojo_f2h(r0_3));
            }
            *(uint4*)(b2 + (o2 + (row * rs2 + col + 8u) * 2u)) = w2_1;
        } else {
            for (u32 four = base; four + 4u <= end; four += 4u) {
                u32 row = 0u;
                u32 col = four;
                if (nd == 2u) {
                    row = four / inner;
                    col = four - row * inner;
                }
                {
                    const u32 first = four;
                    const auto loaded0 = *(const uchar4*)(b0 + (o0 + (row * rs0 + col) * 1u));
                    const auto loaded1 = *(const ushort4*)(b1 + (o1 + (row * rs1 + col) * 2u));
                    float r0_0 = __uint_as_float(0x0u);
                    float r0_1 = __uint_as_float(0x0u);
                    float r0_2 = __uint_as_float(0x0u);
                    float r0_3 = __uint_as_float(0x0u);
                    {
                        const u32 i = first + 0u;
                        const u32 x0 = (u32)(loaded0.x);
                        const float x1 = mojo_h2f(loaded1.x);
                        r0_0 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                    }
                    {
                        const u32 i = first + 1u;
                        const u32 x0 = (u32)(loaded0.y);
                        const float x1 = mojo_h2f(loaded1.y);
                        r0_1 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                    }
                    {
                        const u32 i = first + 2u;
                        const u32 x0 = (u32)(loaded0.z);
                        const float x1 = mojo_h2f(loaded1.z);
                        r0_2 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                    }
                    {
                        const u32 i = first + 3u;
                        const u32 x0 = (u32)(loaded0.w);
                        const float x1 = mojo_h2f(loaded1.w);
                        r0_3 = (mojo_h2f(mojo_f2h(((float)(x0)))) + x1);
                    }
                    *(ushort4*)(b2 + (o2 + (row * rs2 + col) * 2u)) = make_ushort4((unsigned short)mojo_f2h(r0_0), (unsigned short)mojo_f2h(r0_1), (unsigned short)mojo_f2h(r0_2), (unsigned short)mojo_f2h(r0_3));
                }
            }
            for (u32 i = end & ~3u; i < end; i += 1u) {
                const u32 x0 = ld0(o0 + (row * rs0 + i) * 1u);
                const float x1 = ld1(o1 + (row * rs1 + i) * 2u);
                st2(o2 + (row * rs2 + i) * 2u, (mojo_h2f(mojo_f2h(((float)(x0)))) + x1));
            }
        }
    }
}
