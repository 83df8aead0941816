fn main {
    const u32 n = p.w[0u];
    const u32 bound = p.w[1u];
    const u32 keys = p.w[2u];
    const u32 starts = p.w[3u];
    if (p.w[4u] != 0u) {
        for (u32 k = group * 64u + t; k < bound; k += groups * 64u) {
            const i64 key = i64(k);
            u32 lo = 0u;
            u32 hi = n;
            while (lo < hi) {
                const u32 mid = lo + (hi - lo) / 2u;
                if (((i64)(ld0(keys + mid * 4u))) < key) {
                    lo = mid + 1u;
                } else {
                    hi = mid;
                }
            }
            u32 start = n;
            if (lo < n) {
                if (((i64)(ld0(keys + lo * 4u))) == key) {
                    start = lo;
                }
            }
            st1(starts + k * 4u, int(start));
        }
    } else {
        const i64 bound64 = i64(bound);
        for (u32 i = group * 64u + t; i < n; i += groups * 64u) {
            const i64 key = ((i64)(ld0(keys + i * 4u)));
            bool first = i == 0u;
            if (!first) {
                first = ((i64)(ld0(keys + (i - 1u) * 4u))) != key;
            }
            if (first && key >= ((i64)0ll) && key < bound64) {
                st1(starts + u32(key) * 4u, int(i));
            }
        }
    }
}
