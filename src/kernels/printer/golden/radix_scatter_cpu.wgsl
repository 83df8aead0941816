var<workgroup> cursors: array<u32, 8192>;
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
        for (var d = 0u; d < digits; d += 1u) {
            let at: u32 = (cb + d * tiles) * 4u;
            cursors[d * 8u + t] = u32(ld3(scanned + at) - ld2(counts + at));
        }
        var q: u32 = start;
        if ((((keys) + (base + start) * 4u) & 15u) == 0u && (fresh != 0u || (((indices) + (base + start) * 4u) & 15u) == 0u)) {
            while (q + 4u <= end) {
                let four0 = bitcast<vec4<i32>>(rd40((keys + (base + q + 0u) * 4u) >> 4u));
                if (fresh != 0u) {
                    {
                        let kk: u32 = key(four0[0], hi) & mask;
                        let g: u32 = (kk >> sh) & (digits - 1u);
                        let counted: bool = true;
                        let cursor: u32 = g * 8u + t;
                        let place: u32 = cursors[cursor];
                        let dest: u32 = base + place;
                        cursors[cursor] = place + 1u;
                        st4(out_keys + dest * 4u, four0[0]);
                        st5(out_indices + dest * 4u, i32(q + 0u));
                    }
                    {
                        let kk: u32 = key(four0[1], hi) & mask;
                        let g: u32 = (kk >> sh) & (digits - 1u);
                        let counted: bool = true;
                        let cursor: u32 = g * 8u + t;
                        let place: u32 = cursors[cursor];
                        let dest: u32 = base + place;
                        cursors[cursor] = place + 1u;
                        st4(out_keys + dest * 4u, four0[1]);
                        st5(out_indices + dest * 4u, i32(q + 1u));
                    }
                    {
                        let kk: u32 = key(four0[2], hi) & mask;
                        let g: u32 = (kk >> sh) & (digits - 1u);
                        let counted: bool = true;
                        let cursor: u32 = g * 8u + t;
                        let place: u32 = cursors[cursor];
                        let dest: u32 = base + place;
                        cursors[cursor] = place + 1u;
                        st4(out_keys + dest * 4u, four0[2]);
                        st5(out_indices + dest * 4u, i32(q + 2u));
                    }
                    {
                        let kk: u32 = key(four0[3], hi) & mask;
                        let g: u32 = (kk >> sh) & (digits - 1u);
                        let counted: bool = true;
                        let cursor: u32 = g * 8u + t;
                        let place: u32 = cursors[cursor];
                        let dest: u32 = base + place;
                        cursors[cursor] = place + 1u;
                        st4(out_keys + dest * 4u, four0[3]);
                        st5(out_indices + dest * 4u, i32(q + 3u));
                    }
                } else {
                    let four_indices = bitcast<vec4<i32>>(rd41((indices + (base + q) * 4u) >> 4u));
                    {
                        let kk: u32 = key(four0[0], hi) & mask;
                        let g: u32 = (kk >> sh) & (digits - 1u);
                        let counted: bool = true;
                        let cursor: u32 = g * 8u + t;
                        let place: u32 = cursors[cursor];
                        let dest: u32 = base + place;
                        cursors[cursor] = place + 1u;
                        st4(out_keys + dest * 4u, four0[0]);
                        st5(out_indices + dest * 4u, four_indices[0]);
                    }
                    {
                        let kk: u32 = key(four0[1], hi) & mask;
                        let g: u32 = (kk >> sh) & (digits - 1u);
                        let counted: bool = true;
                        let cursor: u32 = g * 8u + t;
                        let place: u32 = cursors[cursor];
                        let dest: u32 = base + place;
                        cursors[cursor] = place + 1u;
                        st4(out_keys + dest * 4u, four0[1]);
                        st5(out_indices + dest * 4u, four_indices[1]);
                    }
                    {
                        let kk: u32 = key(four0[2], hi) & mask;
                        let g: u32 = (kk >> sh) & (digits - 1u);
                        let counted: bool = true;
                        let cursor: u32 = g * 8u + t;
                        let place: u32 = cursors[cursor];
                        let dest: u32 = base + place;
                        cursors[cursor] = place + 1u;
                        st4(out_keys + dest * 4u, four0[2]);
                        st5(out_indices + dest * 4u, four_indices[2]);
                    }
                    {
                        let kk: u32 = key(four0[3], hi) & mask;
                        let g: u32 = (kk >> sh) & (digits - 1u);
                        let counted: bool = true;
                        let cursor: u32 = g * 8u + t;
                        let place: u32 = cursors[cursor];
                        let dest: u32 = base + place;
                        cursors[cursor] = place + 1u;
                        st4(out_keys + dest * 4u, four0[3]);
                        st5(out_indices + dest * 4u, four_indices[3]);
                    }
                }
                q += 4u;
            }
        }
        while (q < end) {
            let x: i32 = ld0(keys + (base + q) * 4u);
            var index: i32 = i32(q);
            if (fresh == 0u) {
                index = ld1(indices + (base + q) * 4u);
            }
            {
                let kk: u32 = key(x, hi) & mask;
                let g: u32 = (kk >> sh) & (digits - 1u);
                let counted: bool = true;
                let cursor: u32 = g * 8u + t;
                let place: u32 = cursors[cursor];
                let dest: u32 = base + place;
                cursors[cursor] = place + 1u;
                st4(out_keys + dest * 4u, x);
                st5(out_indices + dest * 4u, index);
            }
            q += 1u;
        }
    }
}
