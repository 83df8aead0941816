    __shared__ float sh0_0[64];
    __shared__ float sh0_1[64];
    __shared__ float sh0_2[64];
    __shared__ float sh1_0[64];
    __shared__ i64 sh1_1[64];
    auto better1 = [&](float x0, i64 i, float x1, i64 j) -> bool {
        return ((x1 > x0) | (isnan(x1) & (!isnan(x0)))) || (((x1 == x0) | (isnan(x1) & isnan(x0))) && j < i);
    };
fn main {
    const u32* wv = p.w;
    const u32 xn = wv[0];
    const u32 rn = wv[1];
    const u32 o0 = p.w[2u];
    const u32 n0 = p.w[5u];
    const u32 o1 = p.w[3u];
    const u32 n1 = p.w[6u];
    const u32 o2 = p.w[4u];
    const u32 n2 = p.w[7u];
    const int x2 = int(xn);
    const int x3 = int(rn);
    for (u32 xg = group; xg < xn; xg += groups) {
        const int x0 = int(xg);
        const int x4 = x0;
        float x7 = __uint_as_float(0x0u);
        float x8 = __uint_as_float(0x0u);
        float x9 = __uint_as_float(0x0u);
        float a1 = __uint_as_float(0x0u);
        bool ok1 = false;
        i64 x10 = ((i64)0ll);
        for (u32 r = t; r < rn; r += 64u) {
            const int x1 = int(r);
            const int x5 = x1;
            const float x6 = ld0(o0 + (min(u32((x5 + (x4 * x3))), n0 - 1u)) * 2u);
            const float x11 = x6;
            x9 = (x9 + __uint_as_float(0x3f800000u));
            const float x12 = (x11 - x7);
            x7 = (x7 + (x12 / x9));
            x8 = (x8 + (x12 * (x11 - x7)));
            const float x27 = x6;
            if (!ok1 || better1(a1, x10, x27, ((i64)(x1)))) {
                a1 = x27;
                x10 = ((i64)(x1));
                ok1 = true;
            }
        }
        sh0_0[t] = x7;
        sh0_1[t] = x8;
        sh0_2[t] = x9;
        __syncthreads();
        for (u32 s = 32u; s > 0u; s = s >> 1u) {
            if (t < s) {
                float x17 = sh0_0[t];
                float x18 = sh0_1[t];
                float x19 = sh0_2[t];
                {
                    const float x11 = sh0_0[t + s];
                    const float x12 = sh0_1[t + s];
                    const float x13 = sh0_2[t + s];
                    const float x14 = (x19 + x13);
                    const float x15 = (x11 - x17);
                    const float x16 = ((x14 == __uint_as_float(0x0u)) ? __uint_as_float(0x0u) : (x13 / x14));
                    x18 = ((x18 + x12) + (((x15 * x15) * x19) * x16));
                    x17 = (x17 + (x15 * x16));
                    x19 = x14;
                }
                sh0_0[t] = x17;
                sh0_1[t] = x18;
                sh0_2[t] = x19;
            }
            __syncthreads();
        }
        x7 = sh0_0[0];
        x8 = sh0_1[0];
        x9 = sh0_2[0];
        __syncthreads();
        sh1_0[t] = a1;
        sh1_1[t] = (ok1 ? x10 : ((i64)9223372036854775807ll));
        __syncthreads();
        for (u32 s = 32u; s > 0u; s = s >> 1u) {
            if (t < s) {
                if (better1(sh1_0[t], sh1_1[t], sh1_0[t + s], sh1_1[t + s])) {
                    sh1_0[t] = sh1_0[t + s];
                    sh1_1[t] = sh1_1[t + s];
                }
            }
            __syncthreads();
        }
        x10 = sh1_1[0];
        __syncthreads();
        {
            const u32 e = u32(x4);
            if (t == 0u && e < n1) {
                st1(o1 + (e) * 4u, (x8 / x9));
            }
        }
        {
            const u32 e = u32(x4);
            if (t == 0u && e < n2) {
                st2(o2 + (e) * 8u, x10);
            }
        }
    }
}
