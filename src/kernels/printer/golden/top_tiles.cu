    auto key = [&](float x, bool hi) -> u32 {
        const u32 b = __float_as_uint(x);
        u32 k = ((b & 0x80000000u) != 0u ? ~b : b | 0x80000000u);
        if ((b & 0x7fffffffu) == 0u) {
            k = 0x80000000u;
        }
        if ((b & 0x7fffffffu) > 0x7f800000u) {
            k = 0xffffffffu;
        }
        return ~k;
    };
    auto worse = [&](u32 ak, u32 ai, u32 bk, u32 bi) -> bool {
        return ak > bk || (ak == bk && ai > bi);
    };
fn main {
    const u32 n = p.w[0u];
    const u32 len = p.w[1u];
    const u32 step = p.w[2u];
    const u32 tiles = p.w[3u];
    const u32 k = p.w[4u];
    const bool fresh = p.w[5u] != 0u;
    const bool last = p.w[6u] != 0u;
    const u32 input_len = p.w[7u];
    const u32 input = p.w[8u];
    const u32 keys = p.w[9u];
    const u32 indices = p.w[10u];
    const u32 kept_keys = p.w[11u];
    const u32 kept_indices = p.w[12u];
    const u32 values = p.w[13u];
    const u32 top = p.w[14u];
    const bool bounded = p.w[15u] != 0u;
    for (u32 i = group * 64u + t; i < n; i += groups * 64u) {
        const u32 line = i / tiles;
        u32 bound = 0xffffffffu;
        if (fresh && bounded) {
            bound = u32(ld1(keys + (line * k + k - 1u) * 4u));
        }
        const u32 kept = i * k;
        u32 filled = 0u;
        u32 root_key = 0u;
        u32 root_index = 0u;
        for (u32 q = i % tiles; q < len; q += step) {
            u32 kk = 0u;
            u32 ki = q;
            if (fresh) {
                kk = key(ld0(input + (line * input_len + q) * 4u), false);
                if (kk > bound) {
                    continue;
                }
            } else {
                kk = u32(ld1(keys + (line * len + q) * 4u));
                ki = u32(ld2(indices + (line * len + q) * 4u));
            }
            if (filled < k) {
                u32 j = filled;
                filled += 1u;
                while (j > 0u) {
                    const u32 up = (j - 1u) / 2u;
                    const u32 uk = u32(ld3(kept_keys + (kept + up) * 4u));
                    const u32 ui = u32(ld4(kept_indices + (kept + up) * 4u));
                    if (!worse(kk, ki, uk, ui)) {
                        break;
                    }
                    st3(kept_keys + (kept + j) * 4u, int(uk));
                    st4(kept_indices + (kept + j) * 4u, int(ui));
                    j = up;
                }
                st3(kept_keys + (kept + j) * 4u, int(kk));
                st4(kept_indices + (kept + j) * 4u, int(ki));
                root_key = u32(ld3(kept_keys + (kept + 0u) * 4u));
                root_index = u32(ld4(kept_indices + (kept + 0u) * 4u));
            } else if (worse(root_key, root_index, kk, ki)) {
                u32 j = 0u;
                while (true) {
                    u32 c = 2u * j + 1u;
                    if (c >= k) {
                        break;
                    }
                    if (c + 1u < k && worse(u32(ld3(kept_keys + (kept + c + 1u) * 4u)), u32(ld4(kept_indices + (kept + c + 1u) * 4u)), u32(ld3(kept_keys + (kept + c) * 4u)), u32(ld4(kept_indices + (kept + c) * 4u)))) {
                        c += 1u;
                    }
                    const u32 ck = u32(ld3(kept_keys + (kept + c) * 4u));
                    const u32 ci = u32(ld4(kept_indices + (kept + c) * 4u));
                    if (!worse(ck, ci, kk, ki)) {
                        break;
                    }
                    st3(kept_keys + (kept + j) * 4u, int(ck));
                    st4(kept_indices + (kept + j) * 4u, int(ci));
                    j = c;
                }
                st3(kept_keys + (kept + j) * 4u, int(kk));
                st4(kept_indices + (kept + j) * 4u, int(ki));
                root_key = u32(ld3(kept_keys + (kept + 0u) * 4u));
                root_index = u32(ld4(kept_indices + (kept + 0u) * 4u));
            }
        }
        u32 m = filled;
        while (m > 1u) {
            m -= 1u;
            const u32 rk = u32(ld3(kept_keys + (kept + 0u) * 4u));
            const u32 ri = u32(ld4(kept_indices + (kept + 0u) * 4u));
            const u32 kk = u32(ld3(kept_keys + (kept + m) * 4u));
            const u32 ki = u32(ld4(kept_indices + (kept + m) * 4u));
            st3(kept_keys + (kept + m) * 4u, int(rk));
            st4(kept_indices + (kept + m) * 4u, int(ri));
            u32 j = 0u;
            while (true) {
                u32 c = 2u * j + 1u;
                if (c >= m) {
                    break;
                }
                if (c + 1u < m && worse(u32(ld3(kept_keys + (kept + c + 1u) * 4u)), u32(ld4(kept_indices + (kept + c + 1u) * 4u)), u32(ld3(kept_keys + (kept + c) * 4u)), u32(ld4(kept_indices + (kept + c) * 4u)))) {
                    c += 1u;
                }
                const u32 ck = u32(ld3(kept_keys + (kept + c) * 4u));
                const u32 ci = u32(ld4(kept_indices + (kept + c) * 4u));
                if (!worse(ck, ci, kk, ki)) {
                    break;
                }
                st3(kept_keys + (kept + j) * 4u, int(ck));
                st4(kept_indices + (kept + j) * 4u, int(ci));
                j = c;
            }
            st3(kept_keys + (kept + j) * 4u, int(kk));
            st4(kept_indices + (kept + j) * 4u, int(ki));
        }
        for (u32 j = filled; j < k; j += 1u) {
            st3(kept_keys + (kept + j) * 4u, int(0xffffffffu));
            st4(kept_indices + (kept + j) * 4u, int(0xffffffffu));
        }
        if (last) {
            for (u32 j = 0u; j < k; j += 1u) {
                const u32 at = u32(ld4(kept_indices + (kept + j) * 4u));
                st5(values + (kept + j) * 4u, ld0(input + (line * input_len + at) * 4u));
                st6(top + (kept + j) * 8u, i64(at));
            }
        }
    }
}
