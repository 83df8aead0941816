fn main {
    const u32 n = p.w[0u];
    const u32 nd = p.w[1u];
    const u32 ns = p.w[2u];
    const u32 so = 3u + 2u * nd + ns;
    const u32 vo = so + 1u + nd;
    const u32 ko = p.w[vo + 1u + nd + ns];
    const u32 po = p.w[vo + 2u + nd + ns];
    const u32 oo = vo + 3u + nd + ns;
    const u32 ks = oo + nd;
    const u32 ce = ks + nd + 1u;
    const u32 n_sorted = p.w[ce];
    const u32 run_lo = p.w[ce + 1u];
    const u32 run_hi = p.w[ce + 2u];
    const bool first = p.w[ce + 3u] != 0u;
    const bool last = p.w[ce + 4u] != 0u;
    const u32 vb = p.w[vo];
    u32 vstep = 0u;
    if (ns == 1u) {
        vstep = p.w[vo + nd + 1u];
    }
    for (u32 i = group * 64u + t; i < n; i += groups * 64u) {
        u32 r = i;
        bool inside = true;
        u32 es = 0u;
        u32 ev = 0u;
        u32 eo = 0u;
        u32 key = 0u;
        for (u32 d = nd; d > 0u; d -= 1u) {
            const u32 size = p.w[2u + d];
            const u32 cd = r % size;
            r = r / size;
            if (cd >= p.w[2u + nd + d]) {
                inside = false;
            }
            es += cd * p.w[so + d];
            ev += cd * p.w[vo + d];
            eo += cd * p.w[oo + d];
            key += cd * p.w[ks + d];
        }
        const float own = (first ? ld0(p.w[so] + es * 4u) : ld4(p.w[oo] + eo * 4u));
        const u32 prev = (first ? 0u : u32(ld5(p.w[ce + 5u] + i * 4u)));
        float acc = own;
        bool has = true || prev > 0u;
        u32 count = prev + 1u;
        if (inside) {
            const i64 wanted = i64(key);
            u32 lo = 0u;
            u32 hi = n_sorted;
            while (lo < hi) {
                const u32 m = (lo + hi) / 2u;
                if (ld2(ko + m * 8u) < wanted) {
                    lo = m + 1u;
                } else {
                    hi = m;
                }
            }
            u32 at = lo + min(run_lo, n_sorted - lo);
            const u32 end = lo + min(run_hi, n_sorted - lo);
            while (at < end) {
                if (ld2(ko + at * 8u) != wanted) {
                    break;
                }
                u32 rv = u32(ld3(po + at * 8u));
                u32 lv = ev;
                if (ns == 1u) {
                    lv += rv * vstep;
                } else {
                    for (u32 q = ns; q > 0u; q -= 1u) {
                        const u32 size = p.w[2u + 2u * nd + q];
                        lv += (rv % size) * p.w[vo + nd + q];
                        rv = rv / size;
                    }
                }
                const float x1 = ld1(vb + lv * 4u);
                if (has) {
                    const float x0 = acc;
                    acc = (x0 + x1);
                } else {
                    acc = x1;
                    has = true;
                }
                count += 1u;
                at += 1u;
            }
        }
        if (has && last) {
            const float x0 = acc;
            const float x1 = ((float)(count));
            st4(p.w[oo] + eo * 4u, x0);
        } else {
            st4(p.w[oo] + eo * 4u, acc);
        }
        if (!last) {
            st5(p.w[ce + 5u] + i * 4u, ((int)(count - 1u)));
        }
    }
}
