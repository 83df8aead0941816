    __shared__ float sq[2048];
    __shared__ float sg[2048];
    auto kept = [&](u32 r, u32 j) -> float {
        u32 x[4];
        {
            const u32 lo = p.w[53u] + j / 4u;
            u32 c0 = lo;
            u32 c1 = p.w[54u] + (lo < j / 4u ? 1u : 0u);
            u32 c2 = r;
            u32 c3 = 0u;
            u32 k0 = p.w[51u];
            u32 k1 = p.w[52u];
            for (u32 round = 0u; round < 10u; round += 1u) {
                const u32 hi0 = __umulhi(0xD2511F53u, c0);
                const u32 lo0 = 0xD2511F53u * c0;
                const u32 hi1 = __umulhi(0xCD9E8D57u, c2);
                const u32 lo1 = 0xCD9E8D57u * c2;
                c0 = hi1 ^ c1 ^ k0;
                c1 = lo1;
                c2 = hi0 ^ c3 ^ k1;
                c3 = lo0;
                k0 += 0x9E3779B9u;
                k1 += 0xBB67AE85u;
            }
            x[0] = c0;
            x[1] = c1;
            x[2] = c2;
            x[3] = c3;
        }
        const float u = f32(x[j % 4u]) * 2.3283064e-10f + 1.1641532e-10f;
        return (u < __uint_as_float(p.w[55u]) ? __uint_as_float(p.w[56u]) : __uint_as_float(0x0u));
    };
fn main {
    const u32* dims = p.w;
    for (u32 g = group; g < dims[13]; g += groups) {
        const u32 c = dims[10];
        const u32 tile = g % dims[12];
        const u32 bh = g / dims[12];
        const u32 b = bh / dims[2];
        const u32 h = bh % dims[2];
        const u32 hk = h;
        const u32 row = tile * 64u + t;
        const bool valid = row < dims[4];
        const bool resume = valid && c > 0u;
        float kv[256];
        for (u32 d = 0u; d < dims[7]; d += 1u) {
            kv[d] = __uint_as_float(0x0u);
            if (valid && d < dims[5]) {
                kv[d] = ld1(p.w[20u] + ((b) * p.w[21u] + (hk) * p.w[22u] + (row) * p.w[23u] + (d) * p.w[24u]) * 4u);
            }
        }
        float vv[256];
        for (u32 d = 0u; d < dims[7]; d += 1u) {
            vv[d] = __uint_as_float(0x0u);
            if (valid && d < dims[6]) {
                vv[d] = ld2(p.w[25u] + ((b) * p.w[26u] + (hk) * p.w[27u] + (row) * p.w[28u] + (d) * p.w[29u]) * 4u);
            }
        }
        float dk[256];
        for (u32 d = 0u; d < dims[7]; d += 1u) {
            dk[d] = __uint_as_float(0x0u);
        }
        float dv[256];
        for (u32 d = 0u; d < dims[7]; d += 1u) {
            dv[d] = __uint_as_float(0x0u);
        }
        const u32 rk = bh * dims[4] + row;
        if (resume) {
            for (u32 d = 0u; d < dims[5]; d += 1u) {
                dk[d] = ld6(p.w[49u] + (rk * dims[5] + d) * 4u);
            }
        }
        if (resume) {
            for (u32 d = 0u; d < dims[6]; d += 1u) {
                dv[d] = ld7(p.w[50u] + (rk * dims[6] + d) * 4u);
            }
        }
        const u32 rep = dims[1] / dims[2];
        const u32 per_head = (dims[3] + dims[8] - 1u) / dims[8];
        const u32 n_lo = c * dims[9];
        const u32 n_hi = min(rep * per_head, n_lo + dims[9]);
        for (u32 n = n_lo; n < n_hi; n += 1u) {
            const u32 hq = hk * rep + n / per_head;
            const u32 i0 = (n % per_head) * dims[8];
            if (dims[11] == 0u || i0 + dims[8] > tile * 64u) {
                for (u32 e = t; e < dims[8] * dims[7]; e += 64u) {
                    const u32 sr = i0 + e / dims[7];
                    const u32 sd = e % dims[7];
                    {
                        float x = __uint_as_float(0x0u);
                        if (sr < dims[3] && sd < dims[5]) {
                            x = ld0(p.w[15u] + ((b) * p.w[16u] + (hq) * p.w[17u] + (sr) * p.w[18u] + (sd) * p.w[19u]) * 4u);
                        }
                        sq[e] = x;
                    }
                    {
                        float x = __uint_as_float(0x0u);
                        if (sr < dims[3] && sd < dims[6]) {
                            x = ld3(p.w[35u] + ((b) * p.w[36u] + (hq) * p.w[37u] + (sr) * p.w[38u] + (sd) * p.w[39u]) * 4u);
                        }
                        sg[e] = x;
                    }
                }
                __syncthreads();
                for (u32 ii = 0u; ii < dims[8]; ii += 1u) {
                    const u32 qi = i0 + ii;
                    if (valid && qi < dims[3] && (dims[11] == 0u || row <= qi)) {
                        const u32 r = (b * dims[1] + hq) * dims[3] + qi;
                        float qk = __uint_as_float(0x0u);
                        for (u32 d = 0u; d < dims[7]; d += 8u) {
                            qk = qk + sq[ii * dims[7] + d + 0u] * kv[0u + d + 0u];
                            qk = qk + sq[ii * dims[7] + d + 1u] * kv[0u + d + 1u];
                            qk = qk + sq[ii * dims[7] + d + 2u] * kv[0u + d + 2u];
                            qk = qk + sq[ii * dims[7] + d + 3u] * kv[0u + d + 3u];
                            qk = qk + sq[ii * dims[7] + d + 4u] * kv[0u + d + 4u];
                            qk = qk + sq[ii * dims[7] + d + 5u] * kv[0u + d + 5u];
                            qk = qk + sq[ii * dims[7] + d + 6u] * kv[0u + d + 6u];
                            qk = qk + sq[ii * dims[7] + d + 7u] * kv[0u + d + 7u];
                        }
                        const float pj = exp(qk * __uint_as_float(p.w[14u]) - ld4(p.w[46u] + (r) * 4u));
                        const float zj = kept(r, row);
                        for (u32 d = 0u; d < dims[7]; d += 8u) {
                            dv[0u + d + 0u] = dv[0u + d + 0u] + pj * zj * sg[ii * dims[7] + d + 0u];
                            dv[0u + d + 1u] = dv[0u + d + 1u] + pj * zj * sg[ii * dims[7] + d + 1u];
                            dv[0u + d + 2u] = dv[0u + d + 2u] + pj * zj * sg[ii * dims[7] + d + 2u];
                            dv[0u + d + 3u] = dv[0u + d + 3u] + pj * zj * sg[ii * dims[7] + d + 3u];
                            dv[0u + d + 4u] = dv[0u + d + 4u] + pj * zj * sg[ii * dims[7] + d + 4u];
                            dv[0u + d + 5u] = dv[0u + d + 5u] + pj * zj * sg[ii * dims[7] + d + 5u];
                            dv[0u + d + 6u] = dv[0u + d + 6u] + pj * zj * sg[ii * dims[7] + d + 6u];
                            dv[0u + d + 7u] = dv[0u + d + 7u] + pj * zj * sg[ii * dims[7] + d + 7u];
                        }
                        float dp = __uint_as_float(0x0u);
                        for (u32 d = 0u; d < dims[7]; d += 8u) {
                            dp = dp + sg[ii * dims[7] + d + 0u] * vv[0u + d + 0u];
                            dp = dp + sg[ii * dims[7] + d + 1u] * vv[0u + d + 1u];
                            dp = dp + sg[ii * dims[7] + d + 2u] * vv[0u + d + 2u];
                            dp = dp + sg[ii * dims[7] + d + 3u] * vv[0u + d + 3u];
                            dp = dp + sg[ii * dims[7] + d + 4u] * vv[0u + d + 4u];
                            dp = dp + sg[ii * dims[7] + d + 5u] * vv[0u + d + 5u];
                            dp = dp + sg[ii * dims[7] + d + 6u] * vv[0u + d + 6u];
                            dp = dp + sg[ii * dims[7] + d + 7u] * vv[0u + d + 7u];
                        }
                        const float ds = pj * (dp * zj - ld5(p.w[47u] + (r) * 4u));
                        for (u32 d = 0u; d < dims[7]; d += 8u) {
                            dk[0u + d + 0u] = dk[0u + d + 0u] + ds * sq[ii * dims[7] + d + 0u];
                            dk[0u + d + 1u] = dk[0u + d + 1u] + ds * sq[ii * dims[7] + d + 1u];
                            dk[0u + d + 2u] = dk[0u + d + 2u] + ds * sq[ii * dims[7] + d + 2u];
                            dk[0u + d + 3u] = dk[0u + d + 3u] + ds * sq[ii * dims[7] + d + 3u];
                            dk[0u + d + 4u] = dk[0u + d + 4u] + ds * sq[ii * dims[7] + d + 4u];
                            dk[0u + d + 5u] = dk[0u + d + 5u] + ds * sq[ii * dims[7] + d + 5u];
                            dk[0u + d + 6u] = dk[0u + d + 6u] + ds * sq[ii * dims[7] + d + 6u];
                            dk[0u + d + 7u] = dk[0u + d + 7u] + ds * sq[ii * dims[7] + d + 7u];
                        }
                    }
                }
                __syncthreads();
            }
        }
        if (valid) {
            for (u32 d = 0u; d < dims[5]; d += 1u) {
                st6(p.w[49u] + (rk * dims[5] + d) * 4u, dk[d]);
            }
            for (u32 d = 0u; d < dims[6]; d += 1u) {
                st7(p.w[50u] + (rk * dims[6] + d) * 4u, dv[d]);
            }
        }
    }
}
