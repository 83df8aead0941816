var<workgroup> hist: array<u32, 4096>;
fn key(x: i64, hi: bool) -> u32 {
    let k: u32 = select(u32(x), u32(x >> 32u) ^ 0x80000000u, hi);
    return k;
}
fn main {
    let n: u32 = p[launch.words + 0u];
    let len: u32 = p[launch.words + 1u];
    let tile: u32 = p[launch.words + 2u];
    let tiles: u32 = p[launch.words + 3u];
    let shift: u32 = p[launch.words + 4u];
    let hi: bool = shift >= 32u;
    let sh: u32 = shift & 31u;
    let mask: u32 = p[launch.words + 5u];
    let digit_bits: u32 = p[launch.words + 6u];
    let digits: u32 = 1u << digit_bits;
    let above: u32 = (0xffffffffu << sh) << digit_bits;
    let keys: u32 = p[launch.words + 7u];
    let counts: u32 = p[launch.words + 8u];
    let bound: u32 = p[launch.words + 10u];
    let fw: u32 = 9u;
    let i_per: u32 = n / (groups * 8u) + u32(n % (groups * 8u) != 0u);
    let i_at: u32 = group * 8u + t;
    let i_blocked: bool = true;
    let i_base: u32 = select(i_at, (i_at / 8u * i_per) * 8u + i_at % 8u, i_blocked);
    let i_stride: u32 = select((groups * 8u), 8u, i_blocked);
    let i_steps: u32 = select(0u, i_per, !i_blocked || i_at / 8u <= (n - 1u) / max(i_per * 8u, 1u));
    for (var i_step = 0u; i_step < i_steps; i_step += 1u) {
        let i: u32 = i_base + i_step * i_stride;
        if (i >= n) {
            break;
        }
        let line: u32 = i / tiles;
        let part: u32 = i % tiles;
        let start: u32 = part * tile;
        let end: u32 = min(start + tile, len);
        let base: u32 = line * len;
        let cb: u32 = line * digits * tiles + part;
        for (var d = 0u; d < (digits + 1u) / 2u; d += 1u) {
            hist[d * 8u + t] = 0u;
        }
        var q: u32 = start;
        if ((((keys) + (base + start) * 8u) & 15u) == 0u) {
            while (q + 4u <= end) {
                let four0 = bitcast<vec4<i32>>(rd40((keys + (base + q + 0u) * 8u) >> 4u));
                let four1 = bitcast<vec4<i32>>(rd40((keys + (base + q + 2u) * 8u) >> 4u));
                {
                    let lo: u32 = u32(four0[0]);
                    let hi: u32 = u32(four0[1]);
                    let inside: bool = (hi == 0u && lo < bound) || (hi == 0xffffffffu && bound != 0u && lo >= 0u - bound);
                    let w: u32 = select(lo + bound, lo, hi == 0u);
                    let g: u32 = select(digits - 1u, w, inside);
                    let counted: bool = true;
                    if (!inside) {
                        if (ld2(p[launch.words + fw]) == bitcast<i32>(0x0u)) {
                            st2(p[launch.words + fw], bitcast<i32>(p[launch.words + fw + 2u]));
                        }
                    }
                    if (counted) {
                        let w: u32 = (g >> 1u) * 8u + t;
                        hist[w] = hist[w] + (1u << ((g & 1u) * 16u));
                    }
                }
                {
                    let lo: u32 = u32(four0[2]);
                    let hi: u32 = u32(four0[3]);
                    let inside: bool = (hi == 0u && lo < bound) || (hi == 0xffffffffu && bound != 0u && lo >= 0u - bound);
                    let w: u32 = select(lo + bound, lo, hi == 0u);
                    let g: u32 = select(digits - 1u, w, inside);
                    let counted: bool = true;
                    if (!inside) {
                        if (ld2(p[launch.words + fw]) == bitcast<i32>(0x0u)) {
                            st2(p[launch.words + fw], bitcast<i32>(p[launch.words + fw + 2u]));
                        }
                    }
                    if (counted) {
                        let w: u32 = (g >> 1u) * 8u + t;
                        hist[w] = hist[w] + (1u << ((g & 1u) * 16u));
                    }
                }
                {
                    let lo: u32 = u32(four1[0]);
                    let hi: u32 = u32(four1[1]);
                    let inside: bool = (hi == 0u && lo < bound) || (hi == 0xffffffffu && bound != 0u && lo >= 0u - bound);
                    let w: u32 = select(lo + bound, lo, hi == 0u);
                    let g: u32 = select(digits - 1u, w, inside);
                    let counted: bool = true;
                    if (!inside) {
                        if (ld2(p[launch.words + fw]) == bitcast<i32>(0x0u)) {
                            st2(p[launch.words + fw], bitcast<i32>(p[launch.words + fw + 2u]));
                        }
                    }
                    if (counted) {
                        let w: u32 = (g >> 1u) * 8u + t;
                        hist[w] = hist[w] + (1u << ((g & 1u) * 16u));
                    }
                }
                {
                    let lo: u32 = u32(four1[2]);
                    let hi: u32 = u32(four1[3]);
                    let inside: bool = (hi == 0u && lo < bound) || (hi == 0xffffffffu && bound != 0u && lo >= 0u - bound);
                    let w: u32 = select(lo + bound, lo, hi == 0u);
                    let g: u32 = select(digits - 1u, w, inside);
                    let counted: bool = true;
                    if (!inside) {
                        if (ld2(p[launch.words + fw]) == bitcast<i32>(0x0u)) {
                            st2(p[launch.words + fw], bitcast<i32>(p[launch.words + fw + 2u]));
                        }
                    }
                    if (counted) {
                        let w: u32 = (g >> 1u) * 8u + t;
                        hist[w] = hist[w] + (1u << ((g & 1u) * 16u));
                    }
                }
                q += 4u;
            }
        }
        while (q < end) {
            let x: i64 = ld0(keys + (base + q) * 8u);
            {
                let lo: u32 = u32(x);
                let hi: u32 = u32(x >> 32u);
                let inside: bool = (hi == 0u && lo < bound) || (hi == 0xffffffffu && bound != 0u && lo >= 0u - bound);
                let w: u32 = select(lo + bound, lo, hi == 0u);
                let g: u32 = select(digits - 1u, w, inside);
                let counted: bool = true;
                if (!inside) {
                    if (ld2(p[launch.words + fw]) == bitcast<i32>(0x0u)) {
                        st2(p[launch.words + fw], bitcast<i32>(p[launch.words + fw + 2u]));
                    }
                }
                if (counted) {
                    let w: u32 = (g >> 1u) * 8u + t;
                    hist[w] = hist[w] + (1u << ((g & 1u) * 16u));
                }
            }
            q += 1u;
        }
        for (var d = 0u; d < digits; d += 1u) {
            st1(counts + (cb + d * tiles) * 4u, i32((hist[(d >> 1u) * 8u + t] >> ((d & 1u) * 16u)) & 0xffffu));
        }
    }
}
