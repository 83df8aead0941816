    auto comb = [&](float x0, float x1) -> float {
        return (x0 + x1);
    };
    auto red = [&](u32 j, u32 sb) -> u32 {
        u32 e = 0u;
        if (p.w[3u] == 1u) {
            e = j * p.w[sb + 1u];
        } else {
            const u32 nk = p.w[2u];
            u32 q = j;
            for (u32 d = p.w[3u]; d > 0u; d -= 1u) {
                const u32 size = p.w[5u + nk + d];
                e += (q % size) * p.w[sb + d];
                q = q / size;
            }
        }
        return e;
    };
fn main {
    const u32 n_out = p.w[0u];
    const u32 n_red = p.w[1u];
    const u32 nk = p.w[2u];
    const u32 nr = p.w[3u];
    const u32 chunk = p.w[4u];
    const u32 n_chunks = p.w[5u];
    const u32 io = 6u + nk + nr;
    u32 next = io + 1u + nk + nr;
    const u32 oo = next;
    const u32 eo = oo + 1u * (2u + nk);
    for (u32 w = group * 64u + t; w < n_out * n_chunks; w += groups * 64u) {
        const u32 o = w / n_chunks;
        const u32 c = w % n_chunks;
        const u32 lo = c * chunk;
        const u32 hi = min(n_red, lo + chunk);
        u32 r = o;
        u32 ein = 0u;
        u32 ex = 0u;
        u32 epo = 0u;
        u32 eel = 0u;
        u32 eo0 = 0u;
        for (u32 d = nk; d > 0u; d -= 1u) {
            const u32 size = p.w[5u + d];
            const u32 cd = r % size;
            r = r / size;
            ein += cd * p.w[io + d];
            eel += cd * p.w[eo + d];
            eo0 += cd * p.w[oo + 0u * (2u + nk) + d];
        }
        float acc0 = __uint_as_float(0x0u);
        bool ok0 = true;
        const u32 ib0 = p.w[io] + ein * 4u;
        const u32 rs0 = p.w[io + nk + 1u] * 4u;
        if (nr == 1u) {
            for (u32 j = lo; j < hi; j += 1u) {
                const float x0 = ld0(ib0 + j * rs0);
                const float v = x0;
                acc0 = comb(acc0, v);
            }
        } else {
            for (u32 j = lo; j < hi; j += 1u) {
                const float x0 = ld0(ib0 + red(j, io + nk) * 4u);
                const float v = x0;
                acc0 = comb(acc0, v);
            }
        }
        const float x1 = acc0 / ((float)(n_red));
        float acc1 = __uint_as_float(0x0u);
        bool ok1 = true;
        const u32 ib1 = p.w[io] + ein * 4u;
        const u32 rs1 = p.w[io + nk + 1u] * 4u;
        if (nr == 1u) {
            for (u32 j = lo; j < hi; j += 1u) {
                const float x0 = ld0(ib1 + j * rs1);
                const float v = ((x0 - x1) * (x0 - x1));
                acc1 = comb(acc1, v);
            }
        } else {
            for (u32 j = lo; j < hi; j += 1u) {
                const float x0 = ld0(ib1 + red(j, io + nk) * 4u);
                const float v = ((x0 - x1) * (x0 - x1));
                acc1 = comb(acc1, v);
            }
        }
        const float rv = acc1;
        const float rs = x1;
        float rr = rv;
        {
            const float x0 = rv;
            const float x1 = rs;
            rr = sqrtf(x0);
        }
        {
            const float x1 = rr;
            const float x2 = rs;
            const u32 eb = p.w[eo] + eel * 4u;
            u32 istep = 0u;
            u32 ostep = 0u;
            if (nr == 1u) {
                istep = p.w[io + nk + 1u] * 4u;
                ostep = p.w[eo + nk + 1u] * 4u;
            }
            const u32 ib = p.w[io] + ein * 4u;
            for (u32 j = lo; j < hi; j += 1u) {
                u32 at = ib + j * istep;
                u32 to = eb + j * ostep;
                if (nr != 1u) {
                    at = ib + red(j, io + nk) * 4u;
                    to = eb + red(j, eo + nk) * 4u;
                }
                const float x0 = ld0(at);
                st2(to, ((x0 - x2) / x1));
            }
        }
        {
            const float x0 = acc1;
            st1(p.w[oo + 0u * (2u + nk)] + (eo0 + c * p.w[oo + 0u * (2u + nk) + 1u + nk]) * 4u, x0);
        }
    }
}
