fn main {
    const u32 n = p.w[0u];
    const u32 threads = p.w[1u];
    const u32 nd = p.w[6u];
    const float s0 = __uint_as_float(p.w[7u + nd + 1u * (1u + nd) + 0u]);
    u32 inner = 1u;
    u32 middle = 1u;
    u32 sp0 = 0u;
    u32 sa0 = 0u;
    u32 sb0 = 0u;
    const u32 o0 = p.w[7u + nd + 0u * (1u + nd)];
    if (nd == 1u) {
        sb0 = p.w[7u + nd + 0u * 2u + 1u];
    } else if (nd == 2u) {
        inner = p.w[6u + 2u];
        sp0 = p.w[7u + nd + 0u * 3u + 1u];
        sb0 = p.w[7u + nd + 0u * 3u + 2u];
    } else if (nd == 3u) {
        middle = p.w[6u + 2u];
        inner = p.w[6u + 3u];
        sp0 = p.w[7u + nd + 0u * 4u + 1u];
        sa0 = p.w[7u + nd + 0u * 4u + 2u];
        sb0 = p.w[7u + nd + 0u * 4u + 3u];
    }
    u32 i_col = 0u;
    u32 i_mid = 0u;
    u32 i_top = 0u;
    u32 i_step_col = 0u;
    u32 i_step_mid = 0u;
    u32 i_step_top = 0u;
    bool i_walked = false;
    for (u32 i = group * 64u + t; i < n; i += groups * 64u) {
        u32 e0 = 0u;
        if (nd == 1u) {
            e0 = i * sb0;
        } else if (nd <= 3u) {
            if (i_walked) {
                i_col = i_col + i_step_col;
                const u32 i_carry = u32(i_col >= inner);
                i_col = i_col - i_carry * inner;
                i_mid = i_mid + i_step_mid + i_carry;
                const u32 i_carry_mid = u32(i_mid >= middle);
                i_mid = i_mid - i_carry_mid * middle;
                i_top = i_top + i_step_top + i_carry_mid;
            } else {
                i_col = i % inner;
                i_mid = (i / inner) % middle;
                i_top = (i / inner) / middle;
                i_step_col = (groups * 64u) % inner;
                i_step_mid = ((groups * 64u) / inner) % middle;
                i_step_top = ((groups * 64u) / inner) / middle;
                i_walked = true;
            }
            e0 = i_top * sp0 + i_mid * sa0 + i_col * sb0;
        } else {
            u32 r = i;
            for (u32 d = nd; d > 0u; d -= 1u) {
                const u32 c = r % p.w[6u + d];
                r = r / p.w[6u + d];
                e0 += c * p.w[7u + nd + 0u * (1u + nd) + d];
            }
        }
        const u32 a0 = o0 + e0 * 4u;
        const u32 sub = i % threads;
        const u32 q = i / threads;
        const u32 kb = q / 4u;
        const u32 c = q % 4u;
        u32 x[4];
        {
            const u32 lo = p.w[4u] + kb;
            u32 c0 = lo;
            u32 c1 = p.w[5u] + (lo < kb ? 1u : 0u);
            u32 c2 = sub;
            u32 c3 = 0u;
            u32 k0 = p.w[2u];
            u32 k1 = p.w[3u];
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
        const float u = f32(x[c]) * 2.3283064e-10f + 1.1641532e-10f;
        const float x0 = u;
        const float x1 = __logf(u);
        st0(a0, ((__uint_as_float(0xbf800000u) / s0) * ((x0 >= __uint_as_float(0x3f7fffffu)) ? __uint_as_float(0xb3800000u) : x1)));
    }
}
