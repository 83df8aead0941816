fn main {
    const u32 n = p.w[0u];
    const i64 bound = i64(p.w[1u]);
    const u32 keys = p.w[2u];
    const u32 starts = p.w[3u];
    const u32 i_count = n;
    const u32 i_each = i_count / groups;
    const u32 i_extra = i_count % groups;
    const u32 i_end = group * i_each + min(group, i_extra) + i_each + (group < i_extra ? 1u : 0u);
    for (u32 i = group * i_each + min(group, i_extra) + t; i < i_end; i += 64u) {
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
