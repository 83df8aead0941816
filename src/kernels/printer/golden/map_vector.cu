fn main {
    const u32 n = p.w[0u];
    const u32 nd = p.w[1u];
    const u32 inner = p.w[1u + nd];
    const u32 o0 = p.w[2u + nd + 0u * (1u + nd)];
    u32 rs0 = 0u;
    const u32 o1 = p.w[2u + nd + 1u * (1u + nd)];
    u32 rs1 = 0u;
    if (nd == 2u) {
        rs0 = p.w[2u + nd + 0u * (1u + nd) + 1u];
        rs1 = p.w[2u + nd + 1u * (1u + nd) + 1u];
    }
    for (u32 q = group * 64u + t; q < (n + 3u) / 4u; q += groups * 64u) {
        const u32 base = q * 4u;
        const u32 end = min(base + 4u, n);
        u32 row = 0u;
        u32 col = base;
        if (nd == 2u) {
            row = base / inner;
            col = base - row * inner;
        }
        if (base + 4u <= n && col + 4u <= (nd == 2u ? inner : n)) {
            {
                const u32 first = base;
                const auto loaded0 = *(const float4*)(b0 + (o0 + (row * rs0 + col) * 4u));
                float r0_0 = __uint_as_float(0x0u);
                float r0_1 = __uint_as_float(0x0u);
                float r0_2 = __uint_as_float(0x0u);
                float r0_3 = __uint_as_float(0x0u);
                {
                    const u32 i = first + 0u;
                    const float x0 = loaded0.x;
                    r0_0 = expf(x0);
                }
                {
                    const u32 i = first + 1u;
                    const float x0 = loaded0.y;
                    r0_1 = expf(x0);
                }
                {
                    const u32 i = first + 2u;
                    const float x0 = loaded0.z;
                    r0_2 = expf(x0);
                }
                {
                    const u32 i = first + 3u;
                    const float x0 = loaded0.w;
                    r0_3 = expf(x0);
                }
                *(float4*)(b1 + (o1 + (row * rs1 + col) * 4u)) = make_float4(r0_0, r0_1, r0_2, r0_3);
            }
        } else {
            for (u32 i = end & ~3u; i < end; i += 1u) {
                const float x0 = ld0(o0 + (row * rs0 + i) * 4u);
                st1(o1 + (row * rs1 + i) * 4u, expf(x0));
            }
        }
    }
}
