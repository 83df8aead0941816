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
        const u32 o = w % n_out;
        const u32 c = w / n_out;
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
        float acc0_0 = __uint_as_float(0x0u);
        float acc0_1 = __uint_as_float(0x0u);
        float acc0_2 = __uint_as_float(0x0u);
        float acc0_3 = __uint_as_float(0x0u);
        float acc0_4 = __uint_as_float(0x0u);
        float acc0_5 = __uint_as_float(0x0u);
        float acc0_6 = __uint_as_float(0x0u);
        float acc0_7 = __uint_as_float(0x0u);
        if (nr == 1u) {
            for (u32 j = lo; j < hi; j += 8u) {
                if (j + 0u < hi) {
                    const float x0 = ld0(ib0 + (j + 0u) * rs0);
                    const float v = x0;
                    acc0_0 = comb(acc0_0, v);
                }
                if (j + 1u < hi) {
                    const float x0 = ld0(ib0 + (j + 1u) * rs0);
                    const float v = x0;
                    acc0_1 = comb(acc0_1, v);
                }
                if (j + 2u < hi) {
                    const float x0 = ld0(ib0 + (j + 2u) * rs0);
                    const float v = x0;
                    acc0_2 = comb(acc0_2, v);
                }
                if (j + 3u < hi) {
                    const float x0 = ld0(ib0 + (j + 3u) * rs0);
                    const float v = x0;
                    acc0_3 = comb(acc0_3, v);
                }
                if (j + 4u < hi) {
                    const float x0 = ld0(ib0 + (j + 4u) * rs0);
                    const float v = x0;
                    acc0_4 = comb(acc0_4, v);
                }
                if (j + 5u < hi) {
                    const float x0 = ld0(ib0 + (j + 5u) * rs0);
                    const float v = x0;
                    acc0_5 = comb(acc0_5, v);
                }
                if (j + 6u < hi) {
                    const float x0 = ld0(ib0 + (j + 6u) * rs0);
                    const float v = x0;
                    acc0_6 = comb(acc0_6, v);
                }
                if (j + 7u < hi) {
                    const float x0 = ld0(ib0 + (j + 7u) * rs0);
                    const float v = x0;
                    acc0_7 = comb(acc0_7, v);
                }
            }
        } else {
            for (u32 j = lo; j < hi; j += 8u) {
                if (j + 0u < hi) {
                    const float x0 = ld0(ib0 + red(j + 0u, io + nk) * 4u);
                    const float v = x0;
                    acc0_0 = comb(acc0_0, v);
                }
                if (j + 1u < hi) {
                    const float x0 = ld0(ib0 + red(j + 1u, io + nk) * 4u);
                    const float v = x0;
                    acc0_1 = comb(acc0_1, v);
                }
                if (j + 2u < hi) {
                    const float x0 = ld0(ib0 + red(j + 2u, io + nk) * 4u);
                    const float v = x0;
                    acc0_2 = comb(acc0_2, v);
                }
                if (j + 3u < hi) {
                    const float x0 = ld0(ib0 + red(j + 3u, io + nk) * 4u);
                    const float v = x0;
                    acc0_3 = comb(acc0_3, v);
                }
                if (j + 4u < hi) {
                    const float x0 = ld0(ib0 + red(j + 4u, io + nk) * 4u);
                    const float v = x0;
                    acc0_4 = comb(acc0_4, v);
                }
                if (j + 5u < hi) {
                    const float x0 = ld0(ib0 + red(j + 5u, io + nk) * 4u);
                    const float v = x0;
                    acc0_5 = comb(acc0_5, v);
                }
                if (j + 6u < hi) {
                    const float x0 = ld0(ib0 + red(j + 6u, io + nk) * 4u);
                    const float v = x0;
                    acc0_6 = comb(acc0_6, v);
                }
                if (j + 7u < hi) {
                    const float x0 = ld0(ib0 + red(j + 7u, io + nk) * 4u);
                    const float v = x0;
                    acc0_7 = comb(acc0_7, v);
                }
            }
        }
        acc0 = comb(acc0, (((acc0_0 + acc0_1) + (acc0_2 + acc0_3)) + ((acc0_4 + acc0_5) + (acc0_6 + acc0_7))));
        const float x1 = acc0 / ((float)(n_red));
        float acc1 = __uint_as_float(0x0u);
        bool ok1 = true;
        const u32 ib1 = p.w[io] + ein * 4u;
        const u32 rs1 = p.w[io + nk + 1u] * 4u;
        float acc1_0 = __uint_as_float(0x0u);
        float acc1_1 = __uint_as_float(0x0u);
        float acc1_2 = __uint_as_float(0x0u);
        float acc1_3 = __uint_as_float(0x0u);
        float acc1_4 = __uint_as_float(0x0u);
        float acc1_5 = __uint_as_float(0x0u);
        float acc1_6 = __uint_as_float(0x0u);
        float acc1_7 = __uint_as_float(0x0u);
        if (nr == 1u) {
            for (u32 j = lo; j < hi; j += 8u) {
                if (j + 0u < hi) {
                    const float x0 = ld0(ib1 + (j + 0u) * rs1);
                    const float v = ((x0 - x1) * (x0 - x1));
                    acc1_0 = comb(acc1_0, v);
                }
                if (j + 1u < hi) {
                    const float x0 = ld0(ib1 + (j + 1u) * rs1);
                    const float v = ((x0 - x1) * (x0 - x1));
                    acc1_1 = comb(acc1_1, v);
                }
                if (j + 2u < hi) {
                    const float x0 = ld0(ib1 + (j + 2u) * rs1);
                    const float v = ((x0 - x1) * (x0 - x1));
                    acc1_2 = comb(acc1_2, v);
                }
                if (j + 3u < hi) {
                    const float x0 = ld0(ib1 + (j + 3u) * rs1);
                    const float v = ((x0 - x1) * (x0 - x1));
                    acc1_3 = comb(acc1_3, v);
                }
                if (j + 4u < hi) {
                    const float x0 = ld0(ib1 + (j + 4u) * rs1);
                    const float v = ((x0 - x1) * (x0 - x1));
                    acc1_4 = comb(acc1_4, v);
                }
                if (j + 5u < hi) {
                    const float x0 = ld0(ib1 + (j + 5u) * rs1);
                    const float v = ((x0 - x1) * (x0 - x1));
                    acc1_5 = comb(acc1_5, v);
                }
                if (j + 6u < hi) {
                    const float x0 = ld0(ib1 + (j + 6u) * rs1);
                    const float v = ((x0 - x1) * (x0 - x1));
                    acc1_6 = comb(acc1_6, v);
                }
                if (j + 7u < hi) {
                    const float x0 = ld0(ib1 + (j + 7u) * rs1);
                    const float v = ((x0 - x1) * (x0 - x1));
                    acc1_7 = comb(acc1_7, v);
                }
            }
        } else {
            for (u32 j = lo; j < hi; j += 8u) {
                if (j + 0u < hi) {
                    const float x0 = ld0(ib1 + red(j + 0u, io + nk) * 4u);
                    const float v = ((x0 - x1) * (x0 - x1));
                    acc1_0 = comb(acc1_0, v);
                }
                if (j + 1u < hi) {
                    const float x0 = ld0(ib1 + red(j + 1u, io + nk) * 4u);
                    const float v = ((x0 - x1) * (x0 - x1));
                    acc1_1 = comb(acc1_1, v);
                }
                if (j + 2u < hi) {
                    const float x0 = ld0(ib1 + red(j + 2u, io + nk) * 4u);
                    const float v = ((x0 - x1) * (x0 - x1));
                    acc1_2 = comb(acc1_2, v);
                }
                if (j + 3u < hi) {
                    const float x0 = ld0(ib1 + red(j + 3u, io + nk) * 4u);
                    const float v = ((x0 - x1) * (x0 - x1));
                    acc1_3 = comb(acc1_3, v);
                }
                if (j + 4u < hi) {
                    const float x0 = ld0(ib1 + red(j + 4u, io + nk) * 4u);
                    const float v = ((x0 - x1) * (x0 - x1));
                    acc1_4 = comb(acc1_4, v);
                }
                if (j + 5u < hi) {
                    const float x0 = ld0(ib1 + red(j + 5u, io + nk) * 4u);
                    const float v = ((x0 - x1) * (x0 - x1));
                    acc1_5 = comb(acc1_5, v);
                }
                if (j + 6u < hi) {
                    const float x0 = ld0(ib1 + red(j + 6u, io + nk) * 4u);
                    const float v = ((x0 - x1) * (x0 - x1));
                    acc1_6 = comb(acc1_6, v);
                }
                if (j + 7u < hi) {
                    const float x0 = ld0(ib1 + red(j + 7u, io + nk) * 4u);
                    const float v = ((x0 - x1) * (x0 - x1));
                    acc1_7 = comb(acc1_7, v);
                }
            }
        }
        acc1 = comb(acc1, (((acc1_0 + acc1_1) + (acc1_2 + acc1_3)) + ((acc1_4 + acc1_5) + (acc1_6 + acc1_7))));
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
