fn main {
    {
        const u32 start = 0u;
        const u32 count = p.w[1u] - start;
        const float s0 = __uint_as_float(p.w[9u + 0u]);
        const u32 o0 = p.w[3u];
        const u32 o2 = p.w[5u];
        const u32 o4 = p.w[7u];
        const float x1 = ld2(o2);
        const bool aligned = (o0 & 15u) == 0u && (o4 & 15u) == 0u;
        for (u32 q = group * 64u + t; q < (count + 3u) / 4u; q += groups * 64u) {
            const u32 base = q * 4u;
            if (aligned && base + 4u <= count) {
                const auto loaded0 = *(const float4*)(b0 + (o0 + base * 4u));
                float r0_0 = __uint_as_float(0x0u);
                float r0_1 = __uint_as_float(0x0u);
                float r0_2 = __uint_as_float(0x0u);
                float r0_3 = __uint_as_float(0x0u);
                {
                    const float x0 = loaded0.x;
                    r0_0 = (x0 * x1);
                }
                {
                    const float x0 = loaded0.y;
                    r0_1 = (x0 * x1);
                }
                {
                    const float x0 = loaded0.z;
                    r0_2 = (x0 * x1);
                }
                {
                    const float x0 = loaded0.w;
                    r0_3 = (x0 * x1);
                }
                *(float4*)(b4 + (o4 + base * 4u)) = make_float4(r0_0, r0_1, r0_2, r0_3);
            } else {
                for (u32 jj = base; jj < min(base + 4u, count); jj += 1u) {
                    const float x0 = ld0(o0 + jj * 4u);
                    st4(o4 + jj * 4u, (x0 * x1));
                }
            }
        }
    }
    {
        const u32 start = p.w[1u];
        const u32 count = p.w[2u] - start;
        const float s0 = __uint_as_float(p.w[10u + 0u]);
        const u32 o1 = p.w[4u];
        const u32 o3 = p.w[6u];
        const u32 o5 = p.w[8u];
        const float x1 = ld3(o3);
        const bool aligned = (o1 & 15u) == 0u && (o5 & 15u) == 0u;
        for (u32 q = group * 64u + t; q < (count + 3u) / 4u; q += groups * 64u) {
            const u32 base = q * 4u;
            if (aligned && base + 4u <= count) {
                const auto loaded0 = *(const float4*)(b1 + (o1 + base * 4u));
                float r0_0 = __uint_as_float(0x0u);
                float r0_1 = __uint_as_float(0x0u);
                float r0_2 = __uint_as_float(0x0u);
                float r0_3 = __uint_as_float(0x0u);
                {
                    const float x0 = loaded0.x;
                    r0_0 = (x0 * x1);
                }
                {
                    const float x0 = loaded0.y;
                    r0_1 = (x0 * x1);
                }
                {
                    const float x0 = loaded0.z;
                    r0_2 = (x0 * x1);
                }
                {
                    const float x0 = loaded0.w;
                    r0_3 = (x0 * x1);
                }
                *(float4*)(b5 + (o5 + base * 4u)) = make_float4(r0_0, r0_1, r0_2, r0_3);
            } else {
                for (u32 jj = base; jj < min(base + 4u, count); jj += 1u) {
                    const float x0 = ld1(o1 + jj * 4u);
                    st5(o5 + jj * 4u, (x0 * x1));
                }
            }
        }
    }
}
