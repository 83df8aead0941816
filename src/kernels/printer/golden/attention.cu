    __shared__ float sk[2048];
    __shared__ float sv[2048];
fn main {
    const u32* dims = p.w;
    for (u32 g = group; g < dims[13]; g += groups) {
        const u32 c = dims[10];
        const u32 tile = g % dims[12];
        const u32 bh = g / dims[12];
        const u32 b = bh / dims[1];
        const u32 h = bh % dims[1];
        const u32 hk = h / (dims[1] / dims[2]);
        const u32 row = tile * 64u + t;
        const bool valid = row < dims[3];
        const bool resume = valid && c > 0u;
        float qv[256];
        for (u32 d = 0u; d < dims[7]; d += 1u) {
            qv[d] = __uint_as_float(0x0u);
            if (valid && d < dims[5]) {
                qv[d] = ld0(p.w[15u] + ((b) * p.w[16u] + (h) * p.w[17u] + (row) * p.w[18u] + (d) * p.w[19u]) * 2u);
            }
        }
        float ov[256];
        for (u32 d = 0u; d < dims[7]; d += 1u) {
            ov[d] = __uint_as_float(0x0u);
        }
        float s[64];
        float m = __uint_as_float(0xff800000u);
        float l = __uint_as_float(0x0u);
        const u32 r = bh * dims[3] + row;
        const u32 base = r * (dims[7] + 2u);
        if (resume) {
            for (u32 d = 0u; d < dims[7]; d += 1u) {
                ov[d] = ld4(p.w[45u] + (base + d) * 4u);
            }
        }
        if (resume) {
            m = ld4(p.w[45u] + (base + dims[7]) * 4u);
            l = ld4(p.w[45u] + (base + dims[7] + 1u) * 4u);
        }
        const u32 lo = c * dims[9] * dims[8];
        u32 hi = min(dims[4], lo + dims[9] * dims[8]);
        if (dims[11] != 0u) {
            hi = min(hi, tile * 64u + 64u);
        }
        for (u32 kb = lo; kb < hi; kb += dims[8]) {
            for (u32 e = t; e < dims[8] * dims[7]; e += 64u) {
                const u32 sr = kb + e / dims[7];
                const u32 sd = e % dims[7];
                {
                    float x = __uint_as_float(0x0u);
                    if (sr < hi && sd < dims[5]) {
                        x = ld1(p.w[20u] + ((b) * p.w[21u] + (hk) * p.w[22u] + (sr) * p.w[23u] + (sd) * p.w[24u]) * 2u);
                    }
                    sk[e] = x;
                }
                {
                    float x = __uint_as_float(0x0u);
                    if (sr < hi && sd < dims[6]) {
                        x = ld2(p.w[25u] + ((b) * p.w[26u] + (hk) * p.w[27u] + (sr) * p.w[28u] + (sd) * p.w[29u]) * 2u);
                    }
                    sv[e] = x;
                }
            }
            __syncthreads();
            float bm = __uint_as_float(0xff800000u);
            for (u32 j = 0u; j < dims[8]; j += 1u) {
                float qk = __uint_as_float(0x0u);
                for (u32 d = 0u; d < dims[7]; d += 8u) {
                    qk = qk + qv[0u + d + 0u] * sk[j * dims[7] + d + 0u];
                    qk = qk + qv[0u + d + 1u] * sk[j * dims[7] + d + 1u];
                    qk = qk + qv[0u + d + 2u] * sk[j * dims[7] + d + 2u];
                    qk = qk + qv[0u + d + 3u] * sk[j * dims[7] + d + 3u];
                    qk = qk + qv[0u + d + 4u] * sk[j * dims[7] + d + 4u];
                    qk = qk + qv[0u + d + 5u] * sk[j * dims[7] + d + 5u];
                    qk = qk + qv[0u + d + 6u] * sk[j * dims[7] + d + 6u];
                    qk = qk + qv[0u + d + 7u] * sk[j * dims[7] + d + 7u];
                }
                s[j] = (valid && kb + j < hi && (dims[11] == 0u || kb + j <= row) ? qk * __uint_as_float(p.w[14u]) + ld3(p.w[30u] + ((b) * p.w[31u] + (h) * p.w[32u] + (row) * p.w[33u] + (kb + j) * p.w[34u]) * 2u) : __uint_as_float(0xff800000u));
                bm = max(bm, s[j]);
            }
            const float mn = max(m, bm);
            if (mn != __uint_as_float(0xff800000u)) {
                const float corr = exp(m - mn);
                l = l * corr;
                for (u32 d = 0u; d < dims[7]; d += 1u) {
                    ov[d] = ov[d] * corr;
                }
                for (u32 j = 0u; j < dims[8]; j += 1u) {
                    const float pj = exp(s[j] - mn);
                    l = l + pj;
                    const float wj = pj;
                    for (u32 d = 0u; d < dims[7]; d += 8u) {
                        ov[0u + d + 0u] = ov[0u + d + 0u] + wj * sv[j * dims[7] + d + 0u];
                        ov[0u + d + 1u] = ov[0u + d + 1u] + wj * sv[j * dims[7] + d + 1u];
                        ov[0u + d + 2u] = ov[0u + d + 2u] + wj * sv[j * dims[7] + d + 2u];
                        ov[0u + d + 3u] = ov[0u + d + 3u] + wj * sv[j * dims[7] + d + 3u];
                        ov[0u + d + 4u] = ov[0u + d + 4u] + wj * sv[j * dims[7] + d + 4u];
                        ov[0u + d + 5u] = ov[0u + d + 5u] + wj * sv[j * dims[7] + d + 5u];
                        ov[0u + d + 6u] = ov[0u + d + 6u] + wj * sv[j * dims[7] + d + 6u];
                        ov[0u + d + 7u] = ov[0u + d + 7u] + wj * sv[j * dims[7] + d + 7u];
                    }
                }
                m = mn;
            }
            __syncthreads();
        }
        if (valid) {
            for (u32 d = 0u; d < dims[7]; d += 1u) {
                st4(p.w[45u] + (base + d) * 4u, ov[d]);
            }
            st4(p.w[45u] + (base + dims[7]) * 4u, m);
            st4(p.w[45u] + (base + dims[7] + 1u) * 4u, l);
        }
    }
}
