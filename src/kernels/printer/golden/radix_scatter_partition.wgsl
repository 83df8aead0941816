fn key(x: i32, hi: bool) -> u32 {
    let k: u32 = u32(x) + 2147483648u;
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
    let fresh: u32 = p[launch.words + 7u];
    let keys: u32 = p[launch.words + 8u];
    let indices: u32 = p[launch.words + 9u];
    let counts: u32 = p[launch.words + 10u];
    let scanned: u32 = p[launch.words + 11u];
    let out_keys: u32 = p[launch.words + 12u];
    let out_indices: u32 = p[launch.words + 13u];
    let state: u32 = p[launch.words + 14u];
    for (var i = group * 64u + t; i < n; i += groups * 64u) {
        let line: u32 = i / tiles;
        let part: u32 = i % tiles;
        let start: u32 = part * tile;
        let end: u32 = min(start + tile, len);
        let base: u32 = line * len;
        let cb: u32 = line * digits * tiles + part;
        let chosen: u32 = u32(ld3(state + line * 8u));
        for (var d = 0u; d < digits; d += 1u) {
            let at: u32 = (cb + d * tiles) * 4u;
            st4(scanned + at, ld4(scanned + at) - ld2(counts + at));
        }
        var q: u32 = start;
        if ((((keys) + (base + start) * 4u) & 15u) == 0u && true) {
            while (q + 4u <= end) {
                let four0 = bitcast<vec4<i32>>(b0[(keys + (base + q + 0u) * 4u) >> 4u]);
                if (fresh != 0u) {
                    {
                        let kk: u32 = key(four0[0], hi) & mask;
                        let g: u32 = select(select(2u, 1u, kk == chosen), 0u, kk < chosen);
                        let counted: bool = true;
                        let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                        let place: i32 = ld4(cursor);
                        let dest: u32 = base + u32(place);
                        st4(cursor, place + 1);
                        if (g < 2u) {
                            st5(out_keys + dest * 4u, four0[0]);
                            st6(out_indices + dest * 8u, i64(q + 0u));
                        }
                    }
                    {
                        let kk: u32 = key(four0[1], hi) & mask;
                        let g: u32 = select(select(2u, 1u, kk == chosen), 0u, kk < chosen);
                        let counted: bool = true;
                        let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                        let place: i32 = ld4(cursor);
                        let dest: u32 = base + u32(place);
                        st4(cursor, place + 1);
                        if (g < 2u) {
                            st5(out_keys + dest * 4u, four0[1]);
                            st6(out_indices + dest * 8u, i64(q + 1u));
                        }
                    }
                    {
                        let kk: u32 = key(four0[2], hi) & mask;
                        let g: u32 = select(select(2u, 1u, kk == chosen), 0u, kk < chosen);
                        let counted: bool = true;
                        let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                        let place: i32 = ld4(cursor);
                        let dest: u32 = base + u32(place);
                        st4(cursor, place + 1);
                        if (g < 2u) {
                            st5(out_keys + dest * 4u, four0[2]);
                            st6(out_indices + dest * 8u, i64(q + 2u));
                        }
                    }
                    {
                        let kk: u32 = key(four0[3], hi) & mask;
                        let g: u32 = select(select(2u, 1u, kk == chosen), 0u, kk < chosen);
                        let counted: bool = true;
                        let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                        let place: i32 = ld4(cursor);
                        let dest: u32 = base + u32(place);
                        st4(cursor, place + 1);
                        if (g < 2u) {
                            st5(out_keys + dest * 4u, four0[3]);
                            st6(out_indices + dest * 8u, i64(q + 3u));
                        }
                    }
                } else {
                    {
                        let kk: u32 = key(four0[0], hi) & mask;
                        let g: u32 = select(select(2u, 1u, kk == chosen), 0u, kk < chosen);
                        let counted: bool = true;
                        let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                        let place: i32 = ld4(cursor);
                        let dest: u32 = base + u32(place);
                        st4(cursor, place + 1);
                        if (g < 2u) {
                            st5(out_keys + dest * 4u, four0[0]);
                            st6(out_indices + dest * 8u, ld1(indices + (base + q + 0u) * 8u));
                        }
                    }
                    {
                        let kk: u32 = key(four0[1], hi) & mask;
                        let g: u32 = select(select(2u, 1u, kk == chosen), 0u, kk < chosen);
                        let counted: bool = true;
                        let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                        let place: i32 = ld4(cursor);
                        let dest: u32 = base + u32(place);
                        st4(cursor, place + 1);
                        if (g < 2u) {
                            st5(out_keys + dest * 4u, four0[1]);
                            st6(out_indices + dest * 8u, ld1(indices + (base + q + 1u) * 8u));
                        }
                    }
                    {
                        let kk: u32 = key(four0[2], hi) & mask;
                        let g: u32 = select(select(2u, 1u, kk == chosen), 0u, kk < chosen);
                        let counted: bool = true;
                        let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                        let place: i32 = ld4(cursor);
                        let dest: u32 = base + u32(place);
                        st4(cursor, place + 1);
                        if (g < 2u) {
                            st5(out_keys + dest * 4u, four0[2]);
                            st6(out_indices + dest * 8u, ld1(indices + (base + q + 2u) * 8u));
                        }
                    }
                    {
                        let kk: u32 = key(four0[3], hi) & mask;
                        let g: u32 = select(select(2u, 1u, kk == chosen), 0u, kk < chosen);
                        let counted: bool = true;
                        let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                        let place: i32 = ld4(cursor);
                        let dest: u32 = base + u32(place);
                        st4(cursor, place + 1);
                        if (g < 2u) {
                            st5(out_keys + dest * 4u, four0[3]);
                            st6(out_indices + dest * 8u, ld1(indices + (base + q + 3u) * 8u));
                        }
                    }
                }
                q += 4u;
            }
        }
        while (q < end) {
            let x: i32 = ld0(keys + (base + q) * 4u);
            var index: i64 = i64(q);
            if (fresh == 0u) {
                index = ld1(indices + (base + q) * 8u);
            }
            {
                let kk: u32 = key(x, hi) & mask;
                let g: u32 = select(select(2u, 1u, kk == chosen), 0u, kk < chosen);
                let counted: bool = true;
                let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                let place: i32 = ld4(cursor);
                let dest: u32 = base + u32(place);
                st4(cursor, place + 1);
                if (g < 2u) {
                    st5(out_keys + dest * 4u, x);
                    st6(out_indices + dest * 8u, index);
                }
            }
            q += 1u;
        }
    }
}
