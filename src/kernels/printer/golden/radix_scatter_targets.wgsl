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
    let bound: u32 = p[launch.words + 14u];
    for (var i = group * 64u + t; i < n; i += groups * 64u) {
        let line: u32 = i / tiles;
        let part: u32 = i % tiles;
        let start: u32 = part * tile;
        let end: u32 = min(start + tile, len);
        let base: u32 = line * len;
        let cb: u32 = line * digits * tiles + part;
        for (var d = 0u; d < digits; d += 1u) {
            let at: u32 = (cb + d * tiles) * 4u;
            st3(scanned + at, ld3(scanned + at) - ld2(counts + at));
        }
        var q: u32 = start;
        if ((((keys) + (base + start) * 4u) & 15u) == 0u && (fresh != 0u || (((indices) + (base + start) * 4u) & 15u) == 0u)) {
            while (q + 4u <= end) {
                let four0 = bitcast<vec4<i32>>(b0[(keys + (base + q + 0u) * 4u) >> 4u]);
                if (fresh != 0u) {
                    {
                        let lo: u32 = u32(four0[0]);
                        let hi: u32 = u32(four0[0] >> 31u);
                        let inside: bool = (hi == 0u && lo < bound) || false;
                        let w: u32 = select(lo + bound, lo, hi == 0u);
                        let g: u32 = select(digits - 1u, w, inside);
                        let counted: bool = true;
                        let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                        let place: i32 = ld3(cursor);
                        let dest: u32 = base + u32(place);
                        st3(cursor, place + 1);
                        st5(out_indices + dest * 4u, f32(q + 0u));
                    }
                    {
                        let lo: u32 = u32(four0[1]);
                        let hi: u32 = u32(four0[1] >> 31u);
                        let inside: bool = (hi == 0u && lo < bound) || false;
                        let w: u32 = select(lo + bound, lo, hi == 0u);
                        let g: u32 = select(digits - 1u, w, inside);
                        let counted: bool = true;
                        let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                        let place: i32 = ld3(cursor);
                        let dest: u32 = base + u32(place);
                        st3(cursor, place + 1);
                        st5(out_indices + dest * 4u, f32(q + 1u));
                    }
                    {
                        let lo: u32 = u32(four0[2]);
                        let hi: u32 = u32(four0[2] >> 31u);
                        let inside: bool = (hi == 0u && lo < bound) || false;
                        let w: u32 = select(lo + bound, lo, hi == 0u);
                        let g: u32 = select(digits - 1u, w, inside);
                        let counted: bool = true;
                        let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                        let place: i32 = ld3(cursor);
                        let dest: u32 = base + u32(place);
                        st3(cursor, place + 1);
                        st5(out_indices + dest * 4u, f32(q + 2u));
                    }
                    {
                        let lo: u32 = u32(four0[3]);
                        let hi: u32 = u32(four0[3] >> 31u);
                        let inside: bool = (hi == 0u && lo < bound) || false;
                        let w: u32 = select(lo + bound, lo, hi == 0u);
                        let g: u32 = select(digits - 1u, w, inside);
                        let counted: bool = true;
                        let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                        let place: i32 = ld3(cursor);
                        let dest: u32 = base + u32(place);
                        st3(cursor, place + 1);
                        st5(out_indices + dest * 4u, f32(q + 3u));
                    }
                } else {
                    let four_indices = bitcast<vec4<f32>>(b1[(indices + (base + q) * 4u) >> 4u]);
                    {
                        let lo: u32 = u32(four0[0]);
                        let hi: u32 = u32(four0[0] >> 31u);
                        let inside: bool = (hi == 0u && lo < bound) || false;
                        let w: u32 = select(lo + bound, lo, hi == 0u);
                        let g: u32 = select(digits - 1u, w, inside);
                        let counted: bool = true;
                        let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                        let place: i32 = ld3(cursor);
                        let dest: u32 = base + u32(place);
                        st3(cursor, place + 1);
                        st5(out_indices + dest * 4u, four_indices[0]);
                    }
                    {
                        let lo: u32 = u32(four0[1]);
                        let hi: u32 = u32(four0[1] >> 31u);
                        let inside: bool = (hi == 0u && lo < bound) || false;
                        let w: u32 = select(lo + bound, lo, hi == 0u);
                        let g: u32 = select(digits - 1u, w, inside);
                        let counted: bool = true;
                        let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                        let place: i32 = ld3(cursor);
                        let dest: u32 = base + u32(place);
                        st3(cursor, place + 1);
                        st5(out_indices + dest * 4u, four_indices[1]);
                    }
                    {
                        let lo: u32 = u32(four0[2]);
                        let hi: u32 = u32(four0[2] >> 31u);
                        let inside: bool = (hi == 0u && lo < bound) || false;
                        let w: u32 = select(lo + bound, lo, hi == 0u);
                        let g: u32 = select(digits - 1u, w, inside);
                        let counted: bool = true;
                        let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                        let place: i32 = ld3(cursor);
                        let dest: u32 = base + u32(place);
                        st3(cursor, place + 1);
                        st5(out_indices + dest * 4u, four_indices[2]);
                    }
                    {
                        let lo: u32 = u32(four0[3]);
                        let hi: u32 = u32(four0[3] >> 31u);
                        let inside: bool = (hi == 0u && lo < bound) || false;
                        let w: u32 = select(lo + bound, lo, hi == 0u);
                        let g: u32 = select(digits - 1u, w, inside);
                        let counted: bool = true;
                        let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                        let place: i32 = ld3(cursor);
                        let dest: u32 = base + u32(place);
                        st3(cursor, place + 1);
                        st5(out_indices + dest * 4u, four_indices[3]);
                    }
                }
                q += 4u;
            }
        }
        while (q < end) {
            let x: i32 = ld0(keys + (base + q) * 4u);
            var index: f32 = f32(q);
            if (fresh == 0u) {
                index = ld1(indices + (base + q) * 4u);
            }
            {
                let lo: u32 = u32(x);
                let hi: u32 = u32(x >> 31u);
                let inside: bool = (hi == 0u && lo < bound) || false;
                let w: u32 = select(lo + bound, lo, hi == 0u);
                let g: u32 = select(digits - 1u, w, inside);
                let counted: bool = true;
                let cursor: u32 = scanned + (cb + g * tiles) * 4u;
                let place: i32 = ld3(cursor);
                let dest: u32 = base + u32(place);
                st3(cursor, place + 1);
                st5(out_indices + dest * 4u, index);
            }
            q += 1u;
        }
    }
}
