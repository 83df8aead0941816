    auto comb = [&](float x0, float x1) -> float {
        return (x0 + x1);
    };
    auto comb_max = [&](float x0, float x1) -> float {
        return (isnan(x0) ? x0 : isnan(x1) ? x1 : fmaxf(x0, x1));
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
    const u32 eo = oo + 0u * (2u + nk);
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
        for (u32 d = nk; d > 0u; d -= 1u) {
            const u32 size = p.w[5u + d];
            const u32 cd = r % size;
            r = r / size;
            ein += cd * p.w[io + d];
            eel += cd * p.w[eo + d];
        }
        const u32 stash_base = p.w[eo] + eel * 4u;
        const u32 stash_step = p.w[eo + nk + 1u] * 4u;
        float acc0 = __uint_as_float(0x0u);
        bool ok0 = false;
        const u32 ib0 = p.w[io] + ein * 4u;
        const u32 rs0 = p.w[io + nk + 1u] * 4u;
        if (nr == 1u) {
            if (rs0 == 4u && ((ib0 + lo * 4u) & 15u) == 0u) {
                const u32 whole = lo + (hi - lo) / 32u * 32u;
                for (u32 j = lo; j < whole; j += 32u) {
                    const auto v4_0 = *(const float4*)(b0 + (ib0 + (j + 0u) * 4u));
                    const auto v4_1 = *(const float4*)(b0 + (ib0 + (j + 4u) * 4u));
                    const auto v4_2 = *(const float4*)(b0 + (ib0 + (j + 8u) * 4u));
                    const auto v4_3 = *(const float4*)(b0 + (ib0 + (j + 12u) * 4u));
                    const auto v4_4 = *(const float4*)(b0 + (ib0 + (j + 16u) * 4u));
                    const auto v4_5 = *(const float4*)(b0 + (ib0 + (j + 20u) * 4u));
                    const auto v4_6 = *(const float4*)(b0 + (ib0 + (j + 24u) * 4u));
                    const auto v4_7 = *(const float4*)(b0 + (ib0 + (j + 28u) * 4u));
                    {
                        const float x0 = v4_0.x;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_0.y;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_0.z;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_0.w;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_1.x;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_1.y;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_1.z;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_1.w;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_2.x;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_2.y;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_2.z;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_2.w;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_3.x;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_3.y;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_3.z;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_3.w;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_4.x;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_4.y;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_4.z;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_4.w;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_5.x;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_5.y;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_5.z;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_5.w;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_6.x;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_6.y;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_6.z;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_6.w;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_7.x;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_7.y;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_7.z;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        const float x0 = v4_7.w;
                        const float v = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                }
                for (u32 j = whole; j < hi; j += 1u) {
                    const float x0 = ld0(ib0 + j * 4u);
                    const float v = x0;
                    if (ok0) {
                        acc0 = comb_max(acc0, v);
                    } else {
                        acc0 = v;
                        ok0 = true;
                    }
                }
            } else {
                for (u32 j = lo; j < hi; j += 1u) {
                    const float x0 = ld0(ib0 + j * rs0);
                    const float v = x0;
                    if (ok0) {
                        acc0 = comb_max(acc0, v);
                    } else {
                        acc0 = v;
                        ok0 = true;
                    }
                }
            }
        } else {
            for (u32 j = lo; j < hi; j += 1u) {
                const float x0 = ld0(ib0 + red(j, io + nk) * 4u);
                const float v = x0;
                if (ok0) {
                    acc0 = comb_max(acc0, v);
                } else {
                    acc0 = v;
                    ok0 = true;
                }
            }
        }
        const float x2 = acc0;
        const float x1 = (isfinite(x2) ? x2 : __uint_as_float(0x0u));
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
            if (rs1 == 4u && ((ib1 + lo * 4u) & 15u) == 0u) {
                const u32 whole = lo + (hi - lo) / 16u * 16u;
                for (u32 j = lo; j < whole; j += 16u) {
                    const auto v4_0 = *(const float4*)(b0 + (ib1 + (j + 0u) * 4u));
                    const auto v4_1 = *(const float4*)(b0 + (ib1 + (j + 4u) * 4u));
                    const auto v4_2 = *(const float4*)(b0 + (ib1 + (j + 8u) * 4u));
                    const auto v4_3 = *(const float4*)(b0 + (ib1 + (j + 12u) * 4u));
                    float s_0 = __uint_as_float(0x0u);
                    {
                        const float x0 = v4_0.x;
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 0u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 0u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_0 = v;
                    }
                    float s_1 = __uint_as_float(0x0u);
                    {
                        const float x0 = v4_0.y;
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 1u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 1u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_1 = v;
                    }
                    float s_2 = __uint_as_float(0x0u);
                    {
                        const float x0 = v4_0.z;
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 2u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 2u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_2 = v;
                    }
                    float s_3 = __uint_as_float(0x0u);
                    {
                        const float x0 = v4_0.w;
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 3u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 3u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_3 = v;
                    }
                    float s_4 = __uint_as_float(0x0u);
                    {
                        const float x0 = v4_1.x;
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 4u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 4u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_4 = v;
                    }
                    float s_5 = __uint_as_float(0x0u);
                    {
                        const float x0 = v4_1.y;
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 5u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 5u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_5 = v;
                    }
                    float s_6 = __uint_as_float(0x0u);
                    {
                        const float x0 = v4_1.z;
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 6u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 6u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_6 = v;
                    }
                    float s_7 = __uint_as_float(0x0u);
                    {
                        const float x0 = v4_1.w;
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 7u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 7u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_7 = v;
                    }
                    float s_8 = __uint_as_float(0x0u);
                    {
                        const float x0 = v4_2.x;
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 8u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 8u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_8 = v;
                    }
                    float s_9 = __uint_as_float(0x0u);
                    {
                        const float x0 = v4_2.y;
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 9u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 9u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_9 = v;
                    }
                    float s_10 = __uint_as_float(0x0u);
                    {
                        const float x0 = v4_2.z;
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 10u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 10u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_10 = v;
                    }
                    float s_11 = __uint_as_float(0x0u);
                    {
                        const float x0 = v4_2.w;
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 11u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 11u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_11 = v;
                    }
                    float s_12 = __uint_as_float(0x0u);
                    {
                        const float x0 = v4_3.x;
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 12u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 12u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_12 = v;
                    }
                    float s_13 = __uint_as_float(0x0u);
                    {
                        const float x0 = v4_3.y;
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 13u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 13u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_13 = v;
                    }
                    float s_14 = __uint_as_float(0x0u);
                    {
                        const float x0 = v4_3.z;
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 14u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 14u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_14 = v;
                    }
                    float s_15 = __uint_as_float(0x0u);
                    {
                        const float x0 = v4_3.w;
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 15u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 15u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_15 = v;
                    }
                    acc1 = comb(acc1, ((((s_0 + s_1) + (s_2 + s_3)) + ((s_4 + s_5) + (s_6 + s_7))) + (((s_8 + s_9) + (s_10 + s_11)) + ((s_12 + s_13) + (s_14 + s_15)))));
                }
                for (u32 j = whole; j < hi; j += 1u) {
                    const float x0 = ld0(ib1 + j * 4u);
                    const float v = expf((x0 - x1));
                    u32 sat = stash_base + (j) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j, eo + nk) * 4u;
                    }
                    st1(sat, v);
                    acc1 = comb(acc1, v);
                }
            } else {
                for (u32 j = lo; j < hi; j += 8u) {
                    if (j + 0u < hi) {
                        const float x0 = ld0(ib1 + (j + 0u) * rs1);
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 0u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 0u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        acc1_0 = comb(acc1_0, v);
                    }
                    if (j + 1u < hi) {
                        const float x0 = ld0(ib1 + (j + 1u) * rs1);
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 1u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 1u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        acc1_1 = comb(acc1_1, v);
                    }
                    if (j + 2u < hi) {
                        const float x0 = ld0(ib1 + (j + 2u) * rs1);
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 2u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 2u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        acc1_2 = comb(acc1_2, v);
                    }
                    if (j + 3u < hi) {
                        const float x0 = ld0(ib1 + (j + 3u) * rs1);
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 3u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 3u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        acc1_3 = comb(acc1_3, v);
                    }
                    if (j + 4u < hi) {
                        const float x0 = ld0(ib1 + (j + 4u) * rs1);
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 4u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 4u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        acc1_4 = comb(acc1_4, v);
                    }
                    if (j + 5u < hi) {
                        const float x0 = ld0(ib1 + (j + 5u) * rs1);
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 5u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 5u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        acc1_5 = comb(acc1_5, v);
                    }
                    if (j + 6u < hi) {
                        const float x0 = ld0(ib1 + (j + 6u) * rs1);
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 6u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 6u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        acc1_6 = comb(acc1_6, v);
                    }
                    if (j + 7u < hi) {
                        const float x0 = ld0(ib1 + (j + 7u) * rs1);
                        const float v = expf((x0 - x1));
                        u32 sat = stash_base + (j + 7u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 7u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        acc1_7 = comb(acc1_7, v);
                    }
                }
            }
        } else {
            for (u32 j = lo; j < hi; j += 8u) {
                if (j + 0u < hi) {
                    const float x0 = ld0(ib1 + red(j + 0u, io + nk) * 4u);
                    const float v = expf((x0 - x1));
                    u32 sat = stash_base + (j + 0u) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j + 0u, eo + nk) * 4u;
                    }
                    st1(sat, v);
                    acc1_0 = comb(acc1_0, v);
                }
                if (j + 1u < hi) {
                    const float x0 = ld0(ib1 + red(j + 1u, io + nk) * 4u);
                    const float v = expf((x0 - x1));
                    u32 sat = stash_base + (j + 1u) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j + 1u, eo + nk) * 4u;
                    }
                    st1(sat, v);
                    acc1_1 = comb(acc1_1, v);
                }
                if (j + 2u < hi) {
                    const float x0 = ld0(ib1 + red(j + 2u, io + nk) * 4u);
                    const float v = expf((x0 - x1));
                    u32 sat = stash_base + (j + 2u) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j + 2u, eo + nk) * 4u;
                    }
                    st1(sat, v);
                    acc1_2 = comb(acc1_2, v);
                }
                if (j + 3u < hi) {
                    const float x0 = ld0(ib1 + red(j + 3u, io + nk) * 4u);
                    const float v = expf((x0 - x1));
                    u32 sat = stash_base + (j + 3u) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j + 3u, eo + nk) * 4u;
                    }
                    st1(sat, v);
                    acc1_3 = comb(acc1_3, v);
                }
                if (j + 4u < hi) {
                    const float x0 = ld0(ib1 + red(j + 4u, io + nk) * 4u);
                    const float v = expf((x0 - x1));
                    u32 sat = stash_base + (j + 4u) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j + 4u, eo + nk) * 4u;
                    }
                    st1(sat, v);
                    acc1_4 = comb(acc1_4, v);
                }
                if (j + 5u < hi) {
                    const float x0 = ld0(ib1 + red(j + 5u, io + nk) * 4u);
                    const float v = expf((x0 - x1));
                    u32 sat = stash_base + (j + 5u) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j + 5u, eo + nk) * 4u;
                    }
                    st1(sat, v);
                    acc1_5 = comb(acc1_5, v);
                }
                if (j + 6u < hi) {
                    const float x0 = ld0(ib1 + red(j + 6u, io + nk) * 4u);
                    const float v = expf((x0 - x1));
                    u32 sat = stash_base + (j + 6u) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j + 6u, eo + nk) * 4u;
                    }
                    st1(sat, v);
                    acc1_6 = comb(acc1_6, v);
                }
                if (j + 7u < hi) {
                    const float x0 = ld0(ib1 + red(j + 7u, io + nk) * 4u);
                    const float v = expf((x0 - x1));
                    u32 sat = stash_base + (j + 7u) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j + 7u, eo + nk) * 4u;
                    }
                    st1(sat, v);
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
            rr = logf(x0);
        }
        {
            const float x1 = rr;
            const float x2 = rs;
            const float x3 = rv;
            const u32 eb = p.w[eo] + eel * 4u;
            u32 istep = 0u;
            u32 ostep = 0u;
            if (nr == 1u) {
                istep = p.w[io + nk + 1u] * 4u;
                ostep = p.w[eo + nk + 1u] * 4u;
            }
            const u32 ib = p.w[io] + ein * 4u;
            if (istep == 4u && ostep == 4u && (ib & 15u) == 0u && (eb & 15u) == 0u) {
                for (u32 j = lo; j < hi; j += 4u) {
                    if (j + 4u <= hi) {
                        const auto v4 = *(const float4*)(b1 + (eb + j * 4u));
                        float r0 = __uint_as_float(0x0u);
                        float r1 = __uint_as_float(0x0u);
                        float r2 = __uint_as_float(0x0u);
                        float r3 = __uint_as_float(0x0u);
                        {
                            const float x0 = v4.x;
                            r0 = (x0 / x3);
                        }
                        {
                            const float x0 = v4.y;
                            r1 = (x0 / x3);
                        }
                        {
                            const float x0 = v4.z;
                            r2 = (x0 / x3);
                        }
                        {
                            const float x0 = v4.w;
                            r3 = (x0 / x3);
                        }
                        *(float4*)(b1 + (eb + j * 4u)) = make_float4(r0, r1, r2, r3);
                    } else {
                        for (u32 jj = j; jj < hi; jj += 1u) {
                            const float x0 = ld1(eb + jj * 4u);
                            st1(eb + jj * 4u, (x0 / x3));
                        }
                    }
                }
            } else {
                for (u32 j = lo; j < hi; j += 1u) {
                    u32 at = ib + j * istep;
                    u32 to = eb + j * ostep;
                    if (nr != 1u) {
                        at = ib + red(j, io + nk) * 4u;
                        to = eb + red(j, eo + nk) * 4u;
                    }
                    const float x0 = ld1(to);
                    st1(to, (x0 / x3));
                }
            }
        }
        {
            const float x0 = acc1;
        }
    }
}
