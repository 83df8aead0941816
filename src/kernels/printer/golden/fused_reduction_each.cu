    auto better1 = [&](float x0, i64 i, float x1, i64 j) -> bool {
        return ((x1 > x0) | (isnan(x1) & (!isnan(x0)))) || (((x1 == x0) | (isnan(x1) & isnan(x0))) && j < i);
    };
fn main {
    const u32 xn = p.w[0u];
    const u32 rn = p.w[1u];
    const u32 o0 = p.w[2u];
    const u32 n0 = p.w[5u];
    const u32 o1 = p.w[3u];
    const u32 n1 = p.w[6u];
    const u32 o2 = p.w[4u];
    const u32 n2 = p.w[7u];
    const int x2 = int(xn);
    const int x3 = int(rn);
    for (u32 xg = group * 64u + t; xg < xn; xg += groups * 64u) {
        const int x0 = int(xg);
        const int x4 = x0;
        float x7 = __uint_as_float(0x0u);
        float a1 = __uint_as_float(0x0u);
        bool ok1 = false;
        i64 x8 = ((i64)0ll);
        for (u32 r = 0u; r < rn; r += 1u) {
            const int x1 = int(r);
            const int x5 = x1;
            const float x6 = ld0(o0 + (min(u32((x5 + (x4 * x3))), n0 - 1u)) * 4u);
            x7 = (x7 + x6);
            const float x25 = x6;
            if (!ok1 || better1(a1, x8, x25, ((i64)(x1)))) {
                a1 = x25;
                x8 = ((i64)(x1));
                ok1 = true;
            }
        }
        {
            const u32 e = u32(x4);
            if (e < n1) {
                st1(o1 + (e) * 4u, x7);
            }
        }
        {
            const u32 e = u32(x4);
            if (e < n2) {
                st2(o2 + (e) * 8u, x8);
            }
        }
    }
}
