    __shared__ float sh_a[64];
    __shared__ bool sh_ok[64];
    __shared__ i64 sh_i[64];
    auto comb = [&](float x0, float x1) -> float {
        return (isnan(x0) ? x0 : isnan(x1) ? x1 : fmaxf(x0, x1));
    };
    auto better = [&](float x0, i64 i, float x1, i64 j) -> bool {
        return ((x1 > x0) | (isnan(x1) & (!isnan(x0)))) || (((x1 == x0) | (isnan(x1) & isnan(x0))) && j < i);
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
    const u32 xo = next;
    next += 1u + nk + nr;
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
            ex += cd * p.w[xo + d];
            eo0 += cd * p.w[oo + 0u * (2u + nk) + d];
        }
        {
            float acc = __uint_as_float(0x0u);
            bool ok = false;
            i64 idx = ((i64)0ll);
            const u32 ib0 = p.w[io] + ein * 4u;
            const u32 rs0 = p.w[io + nk + 1u] * 4u;
            if (nr == 1u) {
                for (u32 j = lo + t; j < hi; j += 64u) {
                    const float x0 = ld0(ib0 + j * rs0);
                    const float v = x0;
                    const i64 k = ld1(p.w[xo] + (ex + red(j, xo + nk)) * 8u);
                    if (!ok || better(acc, idx, v, k)) {
                        acc = v;
                        idx = k;
                        ok = true;
                    }
                }
            } else {
                for (u32 j = lo + t; j < hi; j += 64u) {
                    const float x0 = ld0(ib0 + red(j, io + nk) * 4u);
                    const float v = x0;
                    const i64 k = ld1(p.w[xo] + (ex + red(j, xo + nk)) * 8u);
                    if (!ok || better(acc, idx, v, k)) {
                        acc = v;
                        idx = k;
                        ok = true;
                    }
                }
            }
            sh_a[t] = acc;
            sh_ok[t] = ok;
            sh_i[t] = idx;
        }
        __syncthreads();
        for (u32 s = 32u; s > 0u; s >>= 1u) {
            if (t < s) {
                const u32 u = t + s;
                if (sh_ok[u] && (!sh_ok[t] || better(sh_a[t], sh_i[t], sh_a[u], sh_i[u]))) {
                    sh_a[t] = sh_a[u];
                    sh_i[t] = sh_i[u];
                    sh_ok[t] = true;
                }
            }
            __syncthreads();
        }
        const i64 x1 = sh_i[0];
        if (t == 0u) {
            const float x0 = sh_a[0];
            st2(p.w[oo + 0u * (2u + nk)] + (eo0 + c * p.w[oo + 0u * (2u + nk) + 1u + nk]) * 8u, x1);
        }
        __syncthreads();
    }
}
