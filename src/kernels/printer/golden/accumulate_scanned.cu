fn main {
    const u32 n = p.w[0u];
    const u32 nd = p.w[1u];
    const u32 ns = p.w[2u];
    const u32 so = 3u + 2u * nd + ns;
    const u32 vo = so + 1u + nd;
    const u32 ko = p.w[vo + 1u + nd + ns];
    const u32 po = p.w[vo + 2u + nd + ns];
    const u32 sto = p.w[vo + 3u + nd + ns];
    const u32 oo = vo + 4u + nd + ns;
    const u32 ks = oo + nd;
    const u32 ce = ks + nd + 1u;
    const u32 n_sorted = p.w[ce];
    const u32 free = p.w[ce + 1u];
    const bool by_keys = p.w[ce + 2u] != 0u;
    const u32 run_lo = p.w[ce + 3u];
    const u32 run_hi = p.w[ce + 4u];
    const bool first = p.w[ce + 5u] != 0u;
    const bool last = p.w[ce + 6u] != 0u;
    const u32 vb = p.w[vo];
    u32 vstep = 0u;
    if (ns == 1u) {
        vstep = p.w[vo + nd + 1u];
    }
    const u32 vinner = p.w[vo + nd];
    for (u32 w = group * 64u + t; w < n; w += groups * 64u) {
        const u32 u = w / free;
        u32 j = u;
        u32 key = u;
        bool ok = true;
        u32 run_end = n_sorted;
        j = 0u;
        if (ok) {
            u32 r = (w % free) * 4u;
            bool inside = true;
            u32 flat = 0u;
            u32 scale = 1u;
            u32 es = 0u;
            u32 ev = 0u;
            u32 eo = 0u;
            for (u32 d = nd; d > 0u; d -= 1u) {
                const u32 size = p.w[2u + d];
                const u32 kd = p.w[ks + d];
                u32 cd = (key / max(kd, 1u)) % size;
                if (kd == 0u) {
                    cd = r % size;
                    r = r / size;
                }
                if (cd >= p.w[2u + nd + d]) {
                    inside = false;
                }
                es += cd * p.w[so + d];
                ev += cd * p.w[vo + d];
                eo += cd * p.w[oo + d];
                flat += cd * scale;
                scale *= size;
            }
            if (inside) {
                float acc0 = ld0(p.w[so] + (es) * 4u);
                float acc1 = ld0(p.w[so] + (es + 1u * p.w[so + nd]) * 4u);
                float acc2 = ld0(p.w[so] + (es + 2u * p.w[so + nd]) * 4u);
                float acc3 = ld0(p.w[so] + (es + 3u * p.w[so + nd]) * 4u);
                const u32 prev = 0u;
                bool has = true || prev > 0u;
                u32 count = prev + 1u;
                const i64 wanted = ((i64)(key));
                u32 at = j + min(run_lo, run_end - j);
                const u32 end = j + min(run_hi, run_end - j);
                while (at < end) {
                    if (((i64)(ld2(ko + (at) * 4u))) != wanted) {
                        at += 1u;
                        continue;
                    }
                    u32 rv = at;
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
                    {
                        const float x1 = ld1(vb + (lv) * 4u);
                        if (has) {
                            const float x0 = acc0;
                            acc0 = (x0 + x1);
                        } else {
                            acc0 = x1;
                        }
                    }
                    {
                        const float x1 = ld1(vb + (lv + 1u * vinner) * 4u);
                        if (has) {
                            const float x0 = acc1;
                            acc1 = (x0 + x1);
                        } else {
                            acc1 = x1;
                        }
                    }
                    {
                        const float x1 = ld1(vb + (lv + 2u * vinner) * 4u);
                        if (has) {
                            const float x0 = acc2;
                            acc2 = (x0 + x1);
                        } else {
                            acc2 = x1;
                        }
                    }
                    {
                        const float x1 = ld1(vb + (lv + 3u * vinner) * 4u);
                        if (has) {
                            const float x0 = acc3;
                            acc3 = (x0 + x1);
                        } else {
                            acc3 = x1;
                        }
                    }
                    has = true;
                    count += 1u;
                    at += 1u;
                }
                if (has && last) {
                    const float x0 = acc0;
                    const float x1 = ((float)(count));
                    st5(p.w[oo] + (eo) * 4u, x0);
                } else {
                    st5(p.w[oo] + (eo) * 4u, acc0);
                }
                if (has && last) {
                    const float x0 = acc1;
                    const float x1 = ((float)(count));
                    st5(p.w[oo] + (eo + 1u * p.w[oo + nd]) * 4u, x0);
                } else {
                    st5(p.w[oo] + (eo + 1u * p.w[oo + nd]) * 4u, acc1);
                }
                if (has && last) {
                    const float x0 = acc2;
                    const float x1 = ((float)(count));
                    st5(p.w[oo] + (eo + 2u * p.w[oo + nd]) * 4u, x0);
                } else {
                    st5(p.w[oo] + (eo + 2u * p.w[oo + nd]) * 4u, acc2);
                }
                if (has && last) {
                    const float x0 = acc3;
                    const float x1 = ((float)(count));
                    st5(p.w[oo] + (eo + 3u * p.w[oo + nd]) * 4u, x0);
                } else {
                    st5(p.w[oo] + (eo + 3u * p.w[oo + nd]) * 4u, acc3);
                }
            }
        }
    }
}
