fn main {
    const u32 n = p.w[0u];
    const u32 nd = p.w[1u];
    const u32 fw = 2u + nd + 3u * (1u + nd);
    u32 inner = 1u;
    u32 middle = 1u;
    u32 sp0 = 0u;
    u32 sa0 = 0u;
    u32 sb0 = 0u;
    const u32 o0 = p.w[2u + nd + 0u * (1u + nd)];
    u32 sp1 = 0u;
    u32 sa1 = 0u;
    u32 sb1 = 0u;
    const u32 o1 = p.w[2u + nd + 1u * (1u + nd)];
    u32 sp2 = 0u;
    u32 sa2 = 0u;
    u32 sb2 = 0u;
    const u32 o2 = p.w[2u + nd + 2u * (1u + nd)];
    if (nd == 1u) {
        sb0 = p.w[2u + nd + 0u * 2u + 1u];
        sb1 = p.w[2u + nd + 1u * 2u + 1u];
        sb2 = p.w[2u + nd + 2u * 2u + 1u];
    } else if (nd == 2u) {
        inner = p.w[1u + 2u];
        sp0 = p.w[2u + nd + 0u * 3u + 1u];
        sb0 = p.w[2u + nd + 0u * 3u + 2u];
        sp1 = p.w[2u + nd + 1u * 3u + 1u];
        sb1 = p.w[2u + nd + 1u * 3u + 2u];
        sp2 = p.w[2u + nd + 2u * 3u + 1u];
        sb2 = p.w[2u + nd + 2u * 3u + 2u];
    } else if (nd == 3u) {
        middle = p.w[1u + 2u];
        inner = p.w[1u + 3u];
        sp0 = p.w[2u + nd + 0u * 4u + 1u];
        sa0 = p.w[2u + nd + 0u * 4u + 2u];
        sb0 = p.w[2u + nd + 0u * 4u + 3u];
        sp1 = p.w[2u + nd + 1u * 4u + 1u];
        sa1 = p.w[2u + nd + 1u * 4u + 2u];
        sb1 = p.w[2u + nd + 1u * 4u + 3u];
        sp2 = p.w[2u + nd + 2u * 4u + 1u];
        sa2 = p.w[2u + nd + 2u * 4u + 2u];
        sb2 = p.w[2u + nd + 2u * 4u + 3u];
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
        u32 e1 = 0u;
        u32 e2 = 0u;
        if (nd == 1u) {
            e0 = i * sb0;
            e1 = i * sb1;
            e2 = i * sb2;
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
            e1 = i_top * sp1 + i_mid * sa1 + i_col * sb1;
            e2 = i_top * sp2 + i_mid * sa2 + i_col * sb2;
        } else {
            u32 r = i;
            for (u32 d = nd; d > 0u; d -= 1u) {
                const u32 c = r % p.w[1u + d];
                r = r / p.w[1u + d];
                e0 += c * p.w[2u + nd + 0u * (1u + nd) + d];
                e1 += c * p.w[2u + nd + 1u * (1u + nd) + d];
                e2 += c * p.w[2u + nd + 2u * (1u + nd) + d];
            }
        }
        const u32 a0 = o0 + e0 * 2u;
        const u32 a1 = o1 + e1 * 8u;
        const u32 a2 = o2 + e2 * 2u;
        u32 jump = 0u;
        bool ok = true;
        {
            const i64 v = i64(ld1(a1));
            const i64 bound = i64(p.w[fw + 1u]);
            const i64 w = v;
            if (w < ((i64)0ll) || w >= bound) {
                ok = false;
            } else {
                jump += u32(w) * p.w[fw + 2u];
            }
        }
        if (!ok) {
            if (ld3(p.w[fw]) == ((int)0x0u)) {
                st3(p.w[fw], (int)p.w[fw + 3u]);
            }
            continue;
        }
        *(short4*)(b2 + (a2 + jump * 2u)) = *(const short4*)(b0 + (a0));
        *(short4*)(b2 + (a2 + jump * 2u + 8u)) = *(const short4*)(b0 + (a0 + 8u));
    }
}
