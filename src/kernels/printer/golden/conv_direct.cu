    auto put = [&](u32 b, u32 row, u32 col, float acc) -> void {
        if (row < p.w[0u] && col < p.w[1u]) {
            const u32 grp = b / p.w[6u];
            float v = acc;
            st2(p.w[14u] + ((b % p.w[6u]) * p.w[20u] + grp * p.w[15u] + (row) * p.w[16u] + ((col) / p.w[17u]) * p.w[18u] + ((col) % p.w[17u]) * p.w[19u]) * 4u, v);
        }
    };
fn main {
    const u32* dims = p.w;
    const u32 splits = p.w[6u];
    const u32 chunk = p.w[7u];
    const u32 a_at = p.w[8u];
    const u32 a_group = p.w[9u];
    const u32 a_row = p.w[10u];
    const u32 a_split = p.w[11u];
    const u32 a_hi = p.w[12u];
    const u32 a_lo = p.w[13u];
    const u32 x_at = p.w[21u];
    const u32 x_group = p.w[22u];
    const u32 x_batch = p.w[23u];
    const u32 x_channel = p.w[24u];
    const u32 taps = p.w[46u];
    const u32 positions = p.w[47u];
    const u32 xs0 = p.w[25u];
    const u32 np0 = p.w[28u];
    const u32 nq0 = p.w[31u];
    const u32 nz0 = p.w[34u];
    const u32 stride0 = p.w[37u];
    const u32 pad0 = p.w[40u];
    const u32 dil0 = p.w[43u];
    const u32 xs1 = p.w[26u];
    const u32 np1 = p.w[29u];
    const u32 nq1 = p.w[32u];
    const u32 nz1 = p.w[35u];
    const u32 stride1 = p.w[38u];
    const u32 pad1 = p.w[41u];
    const u32 dil1 = p.w[44u];
    const u32 xs2 = p.w[27u];
    const u32 np2 = p.w[30u];
    const u32 nq2 = p.w[33u];
    const u32 nz2 = p.w[36u];
    const u32 stride2 = p.w[39u];
    const u32 pad2 = p.w[42u];
    const u32 dil2 = p.w[45u];
    const u32 m = dims[0];
    const u32 n = dims[1];
    const u32 runs = (n + 3u) / 4u;
    for (u32 i = group * 64u + t; i < dims[3] * m * runs; i += groups * 64u) {
        const u32 col = (i % runs) * 4u;
        const u32 row = (i / runs) % m;
        const u32 b = i / runs / m;
        const u32 grp = b / splits;
        const u32 k_begin = (b % splits) * chunk;
        const u32 k_end = min(dims[2], k_begin + chunk);
        u32 a_q = k_begin / a_split;
        u32 a_r = k_begin % a_split;
        const u32 a_base = grp * a_group + row * a_row;
        u32 bn = k_begin / positions;
        u32 bn_rest = k_begin % positions;
        u32 p2 = bn_rest % np2;
        bn_rest = bn_rest / np2;
        u32 p1 = bn_rest % np1;
        bn_rest = bn_rest / np1;
        u32 p0 = bn_rest % np0;
        bn_rest = bn_rest / np0;
        u32 ch_0 = col / taps;
        u32 ch_0_rest = col % taps;
        u32 o2_0 = ch_0_rest % nz2;
        ch_0_rest = ch_0_rest / nz2;
        u32 o1_0 = ch_0_rest % nz1;
        ch_0_rest = ch_0_rest / nz1;
        u32 o0_0 = ch_0_rest % nz0;
        ch_0_rest = ch_0_rest / nz0;
        u32 o2_1 = o2_0;
        u32 o1_1 = o1_0;
        u32 o0_1 = o0_0;
        u32 ch_1 = ch_0;
        o2_1 += 1u;
        {
            const u32 up = u32(o2_1 == nz2);
            o2_1 -= up * nz2;
            o1_1 += up;
        }
        {
            const u32 up = u32(o1_1 == nz1);
            o1_1 -= up * nz1;
            o0_1 += up;
        }
        {
            const u32 up = u32(o0_1 == nz0);
            o0_1 -= up * nz0;
            ch_1 += up;
        }
        u32 o2_2 = o2_1;
        u32 o1_2 = o1_1;
        u32 o0_2 = o0_1;
        u32 ch_2 = ch_1;
        o2_2 += 1u;
        {
            const u32 up = u32(o2_2 == nz2);
            o2_2 -= up * nz2;
            o1_2 += up;
        }
        {
            const u32 up = u32(o1_2 == nz1);
            o1_2 -= up * nz1;
            o0_2 += up;
        }
        {
            const u32 up = u32(o0_2 == nz0);
            o0_2 -= up * nz0;
            ch_2 += up;
        }
        u32 o2_3 = o2_2;
        u32 o1_3 = o1_2;
        u32 o0_3 = o0_2;
        u32 ch_3 = ch_2;
        o2_3 += 1u;
        {
            const u32 up = u32(o2_3 == nz2);
            o2_3 -= up * nz2;
            o1_3 += up;
        }
        {
            const u32 up = u32(o1_3 == nz1);
            o1_3 -= up * nz1;
            o0_3 += up;
        }
        {
            const u32 up = u32(o0_3 == nz0);
            o0_3 -= up * nz0;
            ch_3 += up;
        }
        float c0 = __uint_as_float(0x0u);
        float c1 = __uint_as_float(0x0u);
        float c2 = __uint_as_float(0x0u);
        float c3 = __uint_as_float(0x0u);
        for (u32 kk = k_begin; kk < k_end; kk += 1u) {
            const float av = ld0(a_at + (a_base + a_q * a_hi + a_r * a_lo) * 4u);
            {
                bool inside = col + 0u < n;
                u32 e = grp * x_group + bn * x_batch + ch_0 * x_channel;
                const u32 u0 = p0 * stride0 + o0_0 * dil0;
                inside = inside && u0 >= pad0 && u0 - pad0 < nq0;
                e += (u0 - pad0) * xs0;
                const u32 u1 = p1 * stride1 + o1_0 * dil1;
                inside = inside && u1 >= pad1 && u1 - pad1 < nq1;
                e += (u1 - pad1) * xs1;
                const u32 u2 = p2 * stride2 + o2_0 * dil2;
                inside = inside && u2 >= pad2 && u2 - pad2 < nq2;
                e += (u2 - pad2) * xs2;
                float x = __uint_as_float(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 4u);
                }
                c0 = c0 + av * x;
            }
            {
                bool inside = col + 1u < n;
                u32 e = grp * x_group + bn * x_batch + ch_1 * x_channel;
                const u32 u0 = p0 * stride0 + o0_1 * dil0;
                inside = inside && u0 >= pad0 && u0 - pad0 < nq0;
                e += (u0 - pad0) * xs0;
                const u32 u1 = p1 * stride1 + o1_1 * dil1;
                inside = inside && u1 >= pad1 && u1 - pad1 < nq1;
                e += (u1 - pad1) * xs1;
                const u32 u2 = p2 * stride2 + o2_1 * dil2;
                inside = inside && u2 >= pad2 && u2 - pad2 < nq2;
                e += (u2 - pad2) * xs2;
                float x = __uint_as_float(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 4u);
                }
                c1 = c1 + av * x;
            }
            {
                bool inside = col + 2u < n;
                u32 e = grp * x_group + bn * x_batch + ch_2 * x_channel;
                const u32 u0 = p0 * stride0 + o0_2 * dil0;
                inside = inside && u0 >= pad0 && u0 - pad0 < nq0;
                e += (u0 - pad0) * xs0;
                const u32 u1 = p1 * stride1 + o1_2 * dil1;
                inside = inside && u1 >= pad1 && u1 - pad1 < nq1;
                e += (u1 - pad1) * xs1;
                const u32 u2 = p2 * stride2 + o2_2 * dil2;
                inside = inside && u2 >= pad2 && u2 - pad2 < nq2;
                e += (u2 - pad2) * xs2;
                float x = __uint_as_float(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 4u);
                }
                c2 = c2 + av * x;
            }
            {
                bool inside = col + 3u < n;
                u32 e = grp * x_group + bn * x_batch + ch_3 * x_channel;
                const u32 u0 = p0 * stride0 + o0_3 * dil0;
                inside = inside && u0 >= pad0 && u0 - pad0 < nq0;
                e += (u0 - pad0) * xs0;
                const u32 u1 = p1 * stride1 + o1_3 * dil1;
                inside = inside && u1 >= pad1 && u1 - pad1 < nq1;
                e += (u1 - pad1) * xs1;
                const u32 u2 = p2 * stride2 + o2_3 * dil2;
                inside = inside && u2 >= pad2 && u2 - pad2 < nq2;
                e += (u2 - pad2) * xs2;
                float x = __uint_as_float(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 4u);
                }
                c3 = c3 + av * x;
            }
            a_r += 1u;
            {
                const u32 up = u32(a_r == a_split);
                a_r -= up * a_split;
                a_q += up;
            }
            p2 += 1u;
            {
                const u32 up = u32(p2 == np2);
                p2 -= up * np2;
                p1 += up;
            }
            {
                const u32 up = u32(p1 == np1);
                p1 -= up * np1;
                p0 += up;
            }
            {
                const u32 up = u32(p0 == np0);
                p0 -= up * np0;
                bn += up;
            }
        }
        put(b, row, col + 0u, c0);
        put(b, row, col + 1u, c1);
        put(b, row, col + 2u, c2);
        put(b, row, col + 3u, c3);
    }
}
