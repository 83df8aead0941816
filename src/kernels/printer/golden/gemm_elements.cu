    auto put = [&](u32 b, u32 row, u32 col, double acc) -> void {
        if (row < p.w[0u] && col < p.w[1u]) {
            double v = __longlong_as_double((i64)(((u64)p.w[18u + 1u] << 32) | p.w[18u])) * acc;
            st2(p.w[14u] + (b * p.w[15u] + row * p.w[16u] + col * p.w[17u]) * 8u, v);
        }
    };
fn main {
    const u32* dims = p.w;
    const u32 m = dims[0];
    const u32 n = dims[1];
    for (u32 i = group * 64u + t; i < dims[3] * m * n; i += groups * 64u) {
        const u32 col = i % n;
        const u32 row = (i / n) % m;
        const u32 b = i / n / m;
        const u32 k_begin = 0u;
        const u32 k_end = dims[2];
        double c = __longlong_as_double((i64)0x0ull);
        for (u32 kk = k_begin; kk < k_end; kk += 1u) {
            const double av = ld0(p.w[6u] + (b * p.w[7u] + (row) * p.w[8u] + (kk) * p.w[9u]) * 8u);
            c = c + av * ld1(p.w[10u] + (b * p.w[11u] + (kk) * p.w[12u] + (col) * p.w[13u]) * 8u);
        }
        put(b, row, col, c);
    }
}
