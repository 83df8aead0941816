    auto before = [&](float x0, float x1) -> bool {
        return ((x0 < x1) | ((!isnan(x0)) & isnan(x1)));
    };
fn main {
    const u32 n = p.w[0u];
    const u32 len = p.w[1u];
    const u32 w = p.w[2u];
    const u32 keys = p.w[3u];
    for (u32 i = group * 64u + t; i < n; i += groups * 64u) {
        const u32 j = i % len;
        const u32 base = i - j;
        const u32 start = j - j % (2u * w);
        const u32 mid = min(start + w, len);
        const u32 end = min(mid + w, len);
        const float x = ld0(keys + i * 4u);
        u32 dest = 0u;
        if (j < mid) {
            u32 lo = mid;
            u32 hi = end;
            while (lo < hi) {
                const u32 m = (lo + hi) / 2u;
                if (before(ld0(keys + (base + m) * 4u), x)) {
                    lo = m + 1u;
                } else {
                    hi = m;
                }
            }
            dest = j + (lo - mid);
        } else {
            u32 lo = start;
            u32 hi = mid;
            while (lo < hi) {
                const u32 m = (lo + hi) / 2u;
                if (before(x, ld0(keys + (base + m) * 4u))) {
                    hi = m;
                } else {
                    lo = m + 1u;
                }
            }
            dest = j - mid + lo;
        }
        st2(p.w[5u] + (base + dest) * 4u, x);
        st3(p.w[6u] + (base + dest) * 8u, ld1(p.w[4u] + i * 8u));
    }
}
