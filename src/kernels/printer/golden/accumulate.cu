fn main {
    const u32 n = p.w[0u];
    const u32 nd = p.w[1u];
    const u32 nl = p.w[2u];
    const u32 so = 3u + 2u * nd + nl;
    const u32 vo = so + 1u + nd;
    const u32 blk = 1u + nd + nl;
    const u32 oo = vo + blk * 2u;
    const u32 fo = oo + 1u + nd;
    const u32 ce = fo + 1u + 2u;
    const u32 loop_lo = p.w[ce];
    const u32 loop_hi = p.w[ce + 1u];
    const bool first = p.w[ce + 2u] != 0u;
    const bool last = p.w[ce + 3u] != 0u;
    for (u32 i = group * 64u + t; i < n; i += groups * 64u) {
        u32 r = i;
        u32 c[16];
        bool inside = true;
        u32 es = 0u;
        u32 ev = 0u;
        u32 eo = 0u;
        u32 ej0 = 0u;
        for (u32 d = nd; d > 0u; d -= 1u) {
            const u32 size = p.w[2u + d];
            const u32 cd = r % size;
            r = r / size;
            c[d - 1u] = cd;
            if (cd >= p.w[2u + nd + nl + d]) {
                inside = false;
            }
            es += cd * p.w[so + d];
            ev += cd * p.w[vo + d];
            eo += cd * p.w[oo + d];
            ej0 += cd * p.w[vo + blk * 1u + d];
        }
        const float own = (first ? ld0(p.w[so] + es * 4u) : ld3(p.w[oo] + eo * 4u));
        const u32 prev = (first ? 0u : u32(ld5(p.w[ce + 4u] + i * 4u)));
        float acc = own;
        bool has = true || prev > 0u;
        u32 count = prev + 1u;
        if (inside) {
            for (u32 l = loop_lo; l < loop_hi; l += 1u) {
                u32 rl = l;
                u32 lv = ev;
                u32 lj0 = ej0;
                for (u32 q = nl; q > 0u; q -= 1u) {
                    const u32 size = p.w[2u + nd + q];
                    const u32 cq = rl % size;
                    rl = rl / size;
                    lv += cq * p.w[vo + nd + q];
                    lj0 += cq * p.w[vo + blk * 1u + nd + q];
                }
                bool hit = true;
                {
                    const i64 v = i64(ld2(p.w[vo + blk * 1u] + lj0 * 8u));
                    const i64 bound = i64(p.w[fo + 2u]);
                    const i64 w = (v < ((i64)0ll) ? v + bound : v);
                    if (w < ((i64)0ll) || w >= bound) {
                        st4(p.w[fo], ((int)0x1u));
                        hit = false;
                    } else if (u32(w) != c[p.w[fo + 1u]]) {
                        hit = false;
                    }
                }
                if (hit) {
                    const float x1 = ld1(p.w[vo] + lv * 4u);
                    if (has) {
                        const float x0 = acc;
                        acc = (x0 + x1);
                    } else {
                        acc = x1;
                        has = true;
                    }
                    count += 1u;
                }
            }
        }
        if (has && last) {
            const float x0 = acc;
            const float x1 = ((float)(count));
            st3(p.w[oo] + eo * 4u, x0);
        } else {
            st3(p.w[oo] + eo * 4u, acc);
        }
        if (!last) {
            st5(p.w[ce + 4u] + i * 4u, ((int)(count - 1u)));
        }
    }
}
