    __shared__ float sh_a[64];
    __shared__ bool sh_ok[64];
    __shared__ i64 sh_i[64];
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
    const u32* wv = p.w;
    const u32 n_out = wv[0];
    const u32 n_red = wv[1];
    const u32 nk = wv[2];
    const u32 nr = wv[3];
    const u32 chunk = wv[4];
    const u32 n_chunks = wv[5];
    const u32 io = 6u + nk + nr;
    u32 next = io + 1u + nk + nr;
    const u32 oo = next;
    const u32 eo = oo + 1u * (2u + nk);
    for (u32 w = group; w < n_out * n_chunks; w += groups) {
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
            eo0 += cd * p.w[oo + 0u * (2u + nk) + d];
        }
        {
            float acc = __uint_as_float(0x0u);
            bool ok = true;
            const u32 ib0 = p.w[io] + ein * 4u;
            const u32 rs0 = p.w[io + nk + 1u] * 4u;
            if (nr == 1u) {
                if (rs0 == 4u && ((ib0 + lo * 4u) & 15u) == 0u) {
                    for (u32 j = lo + 4u * t; j < hi; j += 256u) {
                        if (j + 4u <= hi) {
                            const auto v4 = *(const float4*)(b0 + (ib0 + j * 4u));
                            {
                                const float x0 = v4.x;
                                const float v = x0;
                                acc = comb(acc, v);
                            }
                            {
                                const float x0 = v4.y;
                                const float v = x0;
                                acc = comb(acc, v);
                            }
                            {
                                const float x0 = v4.z;
                                const float v = x0;
                                acc = comb(acc, v);
                            }
                            {
                                const float x0 = v4.w;
                                const float v = x0;
                                acc = comb(acc, v);
                            }
                        } else {
                            for (u32 jj = j; jj < hi; jj += 1u) {
                                const float x0 = ld0(ib0 + jj * 4u);
                                const float v = x0;
                                acc = comb(acc, v);
                            }
                        }
                    }
                } else {
                    for (u32 j = lo + t; j < hi; j += 64u) {
                        const float x0 = ld0(ib0 + j * rs0);
                        const float v = x0;
                        acc = comb(acc, v);
                    }
                }
            } else {
                for (u32 j = lo + t; j < hi; j += 64u) {
                    const float x0 = ld0(ib0 + red(j, io + nk) * 4u);
                    const float v = x0;
                    acc = comb(acc, v);
                }
            }
            sh_a[t] = acc;
            sh_ok[t] = ok;
        }
        __syncthreads();
        for (u32 s = 32u; s > 0u; s >>= 1u) {
            if (t < s) {
                const u32 u = t + s;
                sh_a[t] = comb(sh_a[t], sh_a[u]);
            }
            __syncthreads();
        }
        if (t == 0u) {
            const float x0 = sh_a[0];
            st1(p.w[oo + 0u * (2u + nk)] + (eo0 + c * p.w[oo + 0u * (2u + nk) + 1u + nk]) * 4u, x0);
        }
        __syncthreads();
    }
}
