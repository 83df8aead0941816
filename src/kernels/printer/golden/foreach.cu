fn main {
    const u32 n = p.w[0u];
    for (u32 i = group * 64u + t; i < n; i += groups * 64u) {
        if (i < p.w[1u]) {
            const u32 j = i - 0u;
            const float s0 = __uint_as_float(p.w[9u + 0u]);
            const float x0 = ld0(p.w[3u] + j * 4u);
            const float x1 = ld2(p.w[5u]);
            st4(p.w[7u] + j * 4u, (x0 * x1));
        } else if (i < p.w[2u]) {
            const u32 j = i - p.w[1u];
            const float s0 = __uint_as_float(p.w[10u + 0u]);
            const float x0 = ld1(p.w[4u] + j * 4u);
            const float x1 = ld3(p.w[6u]);
            st5(p.w[8u] + j * 4u, (x0 * x1));
        }
    }
}
