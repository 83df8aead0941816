fn main {
    const u32 n = p.w[0u];
    const u32 len = p.w[1u];
    const u32 nk = p.w[2u];
    const u32 chunk = p.w[3u];
    const u32 n_chunks = p.w[4u];
    const u32 io = 5u + nk;
    const u32 oo = io + 2u + nk;
    for (u32 i = group * 64u + t; i < n * n_chunks; i += groups * 64u) {
        const u32 c = i % n_chunks;
        u32 r = i / n_chunks;
        u32 ein = 0u;
        u32 eout = 0u;
        for (u32 d = nk; d > 0u; d -= 1u) {
            const u32 size = p.w[4u + d];
            const u32 cd = r % size;
            r = r / size;
            ein += cd * p.w[io + d];
            eout += cd * p.w[oo + d];
        }
        float x0 = __uint_as_float(0x0u);
        if (c > 0u) {
            x0 = ld1(p.w[oo + 2u + nk] + (i - 1u) * 4u);
        }
        const u32 ib = p.w[io] + ein * 4u;
        const u32 istep = p.w[io + 1u + nk] * 4u;
        const u32 ob = p.w[oo] + eout * 4u;
        const u32 ostep = p.w[oo + 1u + nk] * 4u;
        const u32 hi = min(len, c * chunk + chunk);
        u32 j = c * chunk;
        if (istep == 4u && ostep == 4u && ((ib + j * 4u) & 15u) == 0u && ((ob + j * 4u) & 15u) == 0u) {
            while (j + 4u <= hi) {
                const auto v = *(const float4*)(b0 + (ib + j * 4u));
                float r0 = __uint_as_float(0x0u);
                float r1 = __uint_as_float(0x0u);
                float r2 = __uint_as_float(0x0u);
                float r3 = __uint_as_float(0x0u);
                {
                    const float x1 = v.x;
                    x0 = (x0 + x1);
                    r0 = x0;
                }
                {
                    const float x1 = v.y;
                    x0 = (x0 + x1);
                    r1 = x0;
                }
                {
                    const float x1 = v.z;
                    x0 = (x0 + x1);
                    r2 = x0;
                }
                {
                    const float x1 = v.w;
                    x0 = (x0 + x1);
                    r3 = x0;
                }
                *(float4*)(b2 + (ob + j * 4u)) = make_float4(r0, r1, r2, r3);
                j += 4u;
            }
        }
        while (j < hi) {
            const float x1 = ld0(ib + j * istep);
            x0 = (x0 + x1);
            st2(ob + j * ostep, x0);
            j += 1u;
        }
    }
}
