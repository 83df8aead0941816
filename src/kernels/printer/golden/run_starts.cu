fn main {
    const u32 n = p.w[0u];
    const i64 bound = i64(p.w[1u]);
    const u32 keys = p.w[2u];
    const u32 starts = p.w[3u];
    for (u32 i = group * 64u + t; i < n; i += groups * 64u) {
        const i64 key = ld0(keys + i * 8u);
        bool first = i == 0u;
        if (!first) {
            first = ld0(keys + (i - 1u) * 8u) != key;
        }
        if (first && key >= ((i64)0ll) && key < bound) {
            st1(starts + u32(key) * 4u, int(i));
        }
    }
}
