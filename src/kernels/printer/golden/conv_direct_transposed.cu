    auto put = [&](u32 b, u32 row, u32 col, float acc) -> void {
        if (row < p.w[0u] && col < p.w[1u]) {
            const u32 grp = b / p.w[6u];
            float v = acc;
            st2(p.w[14u] + ((b % p.w[6u]) * p.w[20u] + grp * p.w[15u] + (row) * p.w[16u] + ((col) / p.w[17u]) * p.w[18u] + ((col) % p.w[17u]) * p.w[19u]) * 2u, mojo_b2f(mojo_f2b(v)));
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
    const u32 runs = (n + 7u) / 8u;
    for (u32 i = group * 64u + t; i < dims[3] * m * runs; i += groups * 64u) {
        const u32 col = (i % runs) * 8u;
        const u32 row = (i / runs) % m;
        const u32 b = i / runs / m;
        const u32 grp = b / splits;
        const u32 k_begin = (b % splits) * chunk;
        const u32 k_end = min(dims[2], k_begin + chunk);
        u32 a_q = k_begin / a_split;
        u32 a_r = k_begin % a_split;
        const u32 a_base = grp * a_group + row * a_row;
        u32 ch = k_begin / taps;
        u32 ch_rest = k_begin % taps;
        u32 o2 = ch_rest % nz2;
        ch_rest = ch_rest / nz2;
        u32 o1 = ch_rest % nz1;
        ch_rest = ch_rest / nz1;
        u32 o0 = ch_rest % nz0;
        ch_rest = ch_rest / nz0;
        u32 bn_0 = col / positions;
        u32 bn_0_rest = col % positions;
        u32 p2_0 = bn_0_rest % np2;
        bn_0_rest = bn_0_rest / np2;
        u32 p1_0 = bn_0_rest % np1;
        bn_0_rest = bn_0_rest / np1;
        u32 p0_0 = bn_0_rest % np0;
        bn_0_rest = bn_0_rest / np0;
        u32 p2_1 = p2_0;
        u32 p1_1 = p1_0;
        u32 p0_1 = p0_0;
        u32 bn_1 = bn_0;
        p2_1 += 1u;
        {
            const u32 up = u32(p2_1 == np2);
            p2_1 -= up * np2;
            p1_1 += up;
        }
        {
            const u32 up = u32(p1_1 == np1);
            p1_1 -= up * np1;
            p0_1 += up;
        }
        {
            const u32 up = u32(p0_1 == np0);
            p0_1 -= up * np0;
            bn_1 += up;
        }
        u32 p2_2 = p2_1;
        u32 p1_2 = p1_1;
        u32 p0_2 = p0_1;
        u32 bn_2 = bn_1;
        p2_2 += 1u;
        {
            const u32 up = u32(p2_2 == np2);
            p2_2 -= up * np2;
            p1_2 += up;
        }
        {
            const u32 up = u32(p1_2 == np1);
            p1_2 -= up * np1;
            p0_2 += up;
        }
        {
            const u32 up = u32(p0_2 == np0);
            p0_2 -= up * np0;
            bn_2 += up;
        }
        u32 p2_3 = p2_2;
        u32 p1_3 = p1_2;
        u32 p0_3 = p0_2;
        u32 bn_3 = bn_2;
        p2_3 += 1u;
        {
            const u32 up = u32(p2_3 == np2);
            p2_3 -= up * np2;
            p1_3 += up;
        }
        {
            const u32 up = u32(p1_3 == np1);
            p1_3 -= up * np1;
            p0_3 += up;
        }
        {
            const u32 up = u32(p0_3 == np0);
            p0_3 -= up * np0;
            bn_3 += up;
        }
        u32 p2_4 = p2_3;
        u32 p1_4 = p1_3;
        u32 p0_4 = p0_3;
        u32 bn_4 = bn_3;
        p2_4 += 1u;
        {
            const u32 up = u32(p2_4 == np2);
            p2_4 -= up * np2;
            p1_4 += up;
        }
        {
            const u32 up = u32(p1_4 == np1);
            p1_4 -= up * np1;
            p0_4 += up;
        }
        {
            const u32 up = u32(p0_4 == np0);
            p0_4 -= up * np0;
            bn_4 += up;
        }
        u32 p2_5 = p2_4;
        u32 p1_5 = p1_4;
        u32 p0_5 = p0_4;
        u32 bn_5 = bn_4;
        p2_5 += 1u;
        {
            const u32 up = u32(p2_5 == np2);
            p2_5 -= up * np2;
            p1_5 += up;
        }
        {
            const u32 up = u32(p1_5 == np1);
            p1_5 -= up * np1;
            p0_5 += up;
        }
        {
            const u32 up = u32(p0_5 == np0);
            p0_5 -= up * np0;
            bn_5 += up;
        }
        u32 p2_6 = p2_5;
        u32 p1_6 = p1_5;
        u32 p0_6 = p0_5;
        u32 bn_6 = bn_5;
        p2_6 += 1u;
        {
            const u32 up = u32(p2_6 == np2);
            p2_6 -= up * np2;
            p1_6 += up;
        }
        {
            const u32 up = u32(p1_6 == np1);
            p1_6 -= up * np1;
            p0_6 += up;
        }
        {
            const u32 up = u32(p0_6 == np0);
            p0_6 -= up * np0;
            bn_6 += up;
        }
        u32 p2_7 = p2_6;
        u32 p1_7 = p1_6;
        u32 p0_7 = p0_6;
        u32 bn_7 = bn_6;
        p2_7 += 1u;
        {
            const u32 up = u32(p2_7 == np2);
            p2_7 -= up * np2;
            p1_7 += up;
        }
        {
            const u32 up = u32(p1_7 == np1);
            p1_7 -= up * np1;
            p0_7 += up;
        }
        {
            const u32 up = u32(p0_7 == np0);
            p0_7 -= up * np0;
            bn_7 += up;
        }
        float c0 = __uint_as_float(0x0u);
        float c1 = __uint_as_float(0x0u);
        float c2 = __uint_as_float(0x0u);
        float c3 = __uint_as_float(0x0u);
        float c4 = __uint_as_float(0x0u);
        float c5 = __uint_as_float(0x0u);
        float c6 = __uint_as_float(0x0u);
        float c7 = __uint_as_float(0x0u);
        for (u32 kk = k_begin; kk < k_end; kk += 1u) {
            const float av = ld0(a_at + (a_base + a_q * a_hi + a_r * a_lo) * 2u);
            {
                bool inside = col + 0u < n;
                u32 e = grp * x_group + bn_0 * x_batch + ch * x_channel;
                const u32 u0 = p0_0 + pad0;
                const u32 v0 = o0 * dil0;
                u32 r0 = u0 - v0;
                inside = inside && u0 >= v0;
                inside = inside && r0 % stride0 == 0u;
                r0 = r0 / stride0;
                inside = inside && r0 < nq0;
                e += r0 * xs0;
                const u32 u1 = p1_0 + pad1;
                const u32 v1 = o1 * dil1;
                u32 r1 = u1 - v1;
                inside = inside && u1 >= v1;
                inside = inside && r1 % stride1 == 0u;
                r1 = r1 / stride1;
                inside = inside && r1 < nq1;
                e += r1 * xs1;
                const u32 u2 = p2_0 + pad2;
                const u32 v2 = o2 * dil2;
                u32 r2 = u2 - v2;
                inside = inside && u2 >= v2;
                inside = inside && r2 % stride2 == 0u;
                r2 = r2 / stride2;
                inside = inside && r2 < nq2;
                e += r2 * xs2;
                float x = __uint_as_float(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 2u);
                }
                c0 = c0 + av * x;
            }
            {
                bool inside = col + 1u < n;
                u32 e = grp * x_group + bn_1 * x_batch + ch * x_channel;
                const u32 u0 = p0_1 + pad0;
                const u32 v0 = o0 * dil0;
                u32 r0 = u0 - v0;
                inside = inside && u0 >= v0;
                inside = inside && r0 % stride0 == 0u;
                r0 = r0 / stride0;
                inside = inside && r0 < nq0;
                e += r0 * xs0;
                const u32 u1 = p1_1 + pad1;
                const u32 v1 = o1 * dil1;
                u32 r1 = u1 - v1;
                inside = inside && u1 >= v1;
                inside = inside && r1 % stride1 == 0u;
                r1 = r1 / stride1;
                inside = inside && r1 < nq1;
                e += r1 * xs1;
                const u32 u2 = p2_1 + pad2;
                const u32 v2 = o2 * dil2;
                u32 r2 = u2 - v2;
                inside = inside && u2 >= v2;
                inside = inside && r2 % stride2 == 0u;
                r2 = r2 / stride2;
                inside = inside && r2 < nq2;
                e += r2 * xs2;
                float x = __uint_as_float(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 2u);
                }
                c1 = c1 + av * x;
            }
            {
                bool inside = col + 2u < n;
                u32 e = grp * x_group + bn_2 * x_batch + ch * x_channel;
                const u32 u0 = p0_2 + pad0;
                const u32 v0 = o0 * dil0;
                u32 r0 = u0 - v0;
                inside = inside && u0 >= v0;
                inside = inside && r0 % stride0 == 0u;
                r0 = r0 / stride0;
                inside = inside && r0 < nq0;
                e += r0 * xs0;
                const u32 u1 = p1_2 + pad1;
                const u32 v1 = o1 * dil1;
                u32 r1 = u1 - v1;
                inside = inside && u1 >= v1;
                inside = inside && r1 % stride1 == 0u;
                r1 = r1 / stride1;
                inside = inside && r1 < nq1;
                e += r1 * xs1;
                const u32 u2 = p2_2 + pad2;
                const u32 v2 = o2 * dil2;
                u32 r2 = u2 - v2;
                inside = inside && u2 >= v2;
                inside = inside && r2 % stride2 == 0u;
                r2 = r2 / stride2;
                inside = inside && r2 < nq2;
                e += r2 * xs2;
                float x = __uint_as_float(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 2u);
                }
                c2 = c2 + av * x;
            }
            {
                bool inside = col + 3u < n;
                u32 e = grp * x_group + bn_3 * x_batch + ch * x_channel;
                const u32 u0 = p0_3 + pad0;
                const u32 v0 = o0 * dil0;
                u32 r0 = u0 - v0;
                inside = inside && u0 >= v0;
                inside = inside && r0 % stride0 == 0u;
                r0 = r0 / stride0;
                inside = inside && r0 < nq0;
                e += r0 * xs0;
                const u32 u1 = p1_3 + pad1;
                const u32 v1 = o1 * dil1;
                u32 r1 = u1 - v1;
                inside = inside && u1 >= v1;
                inside = inside && r1 % stride1 == 0u;
                r1 = r1 / stride1;
                inside = inside && r1 < nq1;
                e += r1 * xs1;
                const u32 u2 = p2_3 + pad2;
                const u32 v2 = o2 * dil2;
                u32 r2 = u2 - v2;
                inside = inside && u2 >= v2;
                inside = inside && r2 % stride2 == 0u;
                r2 = r2 / stride2;
                inside = inside && r2 < nq2;
                e += r2 * xs2;
                float x = __uint_as_float(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 2u);
                }
                c3 = c3 + av * x;
            }
            {
                bool inside = col + 4u < n;
                u32 e = grp * x_group + bn_4 * x_batch + ch * x_channel;
                const u32 u0 = p0_4 + pad0;
                const u32 v0 = o0 * dil0;
                u32 r0 = u0 - v0;
                inside = inside && u0 >= v0;
                inside = inside && r0 % stride0 == 0u;
                r0 = r0 / stride0;
                inside = inside && r0 < nq0;
                e += r0 * xs0;
                const u32 u1 = p1_4 + pad1;
                const u32 v1 = o1 * dil1;
                u32 r1 = u1 - v1;
                inside = inside && u1 >= v1;
                inside = inside && r1 % stride1 == 0u;
                r1 = r1 / stride1;
                inside = inside && r1 < nq1;
                e += r1 * xs1;
                const u32 u2 = p2_4 + pad2;
                const u32 v2 = o2 * dil2;
                u32 r2 = u2 - v2;
                inside = inside && u2 >= v2;
                inside = inside && r2 % stride2 == 0u;
                r2 = r2 / stride2;
                inside = inside && r2 < nq2;
                e += r2 * xs2;
                float x = __uint_as_float(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 2u);
                }
                c4 = c4 + av * x;
            }
            {
                bool inside = col + 5u < n;
                u32 e = grp * x_group + bn_5 * x_batch + ch * x_channel;
                const u32 u0 = p0_5 + pad0;
                const u32 v0 = o0 * dil0;
                u32 r0 = u0 - v0;
                inside = inside && u0 >= v0;
                inside = inside && r0 % stride0 == 0u;
                r0 = r0 / stride0;
                inside = inside && r0 < nq0;
                e += r0 * xs0;
                const u32 u1 = p1_5 + pad1;
                const u32 v1 = o1 * dil1;
                u32 r1 = u1 - v1;
                inside = inside && u1 >= v1;
                inside = inside && r1 % stride1 == 0u;
                r1 = r1 / stride1;
                inside = inside && r1 < nq1;
                e += r1 * xs1;
                const u32 u2 = p2_5 + pad2;
                const u32 v2 = o2 * dil2;
                u32 r2 = u2 - v2;
                inside = inside && u2 >= v2;
                inside = inside && r2 % stride2 == 0u;
                r2 = r2 / stride2;
                inside = inside && r2 < nq2;
                e += r2 * xs2;
                float x = __uint_as_float(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 2u);
                }
                c5 = c5 + av * x;
            }
            {
                bool inside = col + 6u < n;
                u32 e = grp * x_group + bn_6 * x_batch + ch * x_channel;
                const u32 u0 = p0_6 + pad0;
                const u32 v0 = o0 * dil0;
                u32 r0 = u0 - v0;
                inside = inside && u0 >= v0;
                inside = inside && r0 % stride0 == 0u;
                r0 = r0 / stride0;
                inside = inside && r0 < nq0;
                e += r0 * xs0;
                const u32 u1 = p1_6 + pad1;
                const u32 v1 = o1 * dil1;
                u32 r1 = u1 - v1;
                inside = inside && u1 >= v1;
                inside = inside && r1 % stride1 == 0u;
                r1 = r1 / stride1;
                inside = inside && r1 < nq1;
                e += r1 * xs1;
                const u32 u2 = p2_6 + pad2;
                const u32 v2 = o2 * dil2;
                u32 r2 = u2 - v2;
                inside = inside && u2 >= v2;
                inside = inside && r2 % stride2 == 0u;
                r2 = r2 / stride2;
                inside = inside && r2 < nq2;
                e += r2 * xs2;
                float x = __uint_as_float(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 2u);
                }
                c6 = c6 + av * x;
            }
            {
                bool inside = col + 7u < n;
                u32 e = grp * x_group + bn_7 * x_batch + ch * x_channel;
                const u32 u0 = p0_7 + pad0;
                const u32 v0 = o0 * dil0;
                u32 r0 = u0 - v0;
                inside = inside && u0 >= v0;
                inside = inside && r0 % stride0 == 0u;
                r0 = r0 / stride0;
                inside = inside && r0 < nq0;
                e += r0 * xs0;
                const u32 u1 = p1_7 + pad1;
                const u32 v1 = o1 * dil1;
                u32 r1 = u1 - v1;
                inside = inside && u1 >= v1;
                inside = inside && r1 % stride1 == 0u;
                r1 = r1 / stride1;
                inside = inside && r1 < nq1;
                e += r1 * xs1;
                const u32 u2 = p2_7 + pad2;
                const u32 v2 = o2 * dil2;
                u32 r2 = u2 - v2;
                inside = inside && u2 >= v2;
                inside = inside && r2 % stride2 == 0u;
                r2 = r2 / stride2;
                inside = inside && r2 < nq2;
                e += r2 * xs2;
                float x = __uint_as_float(0x0u);
                if (inside) {
                    x = ld1(x_at + e * 2u);
                }
                c7 = c7 + av * x;
            }
            a_r += 1u;
            {
                const u32 up = u32(a_r == a_split);
                a_r -= up * a_split;
                a_q += up;
            }
            o2 += 1u;
            {
                const u32 up = u32(o2 == nz2);
                o2 -= up * nz2;
                o1 += up;
            }
            {
                const u32 up = u32(o1 == nz1);
                o1 -= up * nz1;
                o0 += up;
            }
            {
                const u32 up = u32(o0 == nz0);
                o0 -= up * nz0;
                ch += up;
            }
        }
        put(b, row, col + 0u, c0);
        put(b, row, col + 1u, c1);
        put(b, row, col + 2u, c2);
        put(b, row, col + 3u, c3);
        put(b, row, col + 4u, c4);
        put(b, row, col + 5u, c5);
        put(b, row, col + 6u, c6);
        put(b, row, col + 7u, c7);
    }
}
