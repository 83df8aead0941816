fn key(x: f32, hi: bool) -> u32 {
    let b: u32 = bitcast<u32>(x);
    var k: u32 = select(b | 0x80000000u, ~b, (b & 0x80000000u) != 0u);
    if ((b & 0x7fffffffu) == 0u) {
        k = 0x80000000u;
    }
    if ((b & 0x7fffffffu) > 0x7f800000u) {
        k = 0xffffffffu;
    }
    return ~k;
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
    let state: u32 = p[launch.words + 9u];
    for (var i = group * 64u + t; i < n; i += groups * 64u) {
        let line: u32 = i / tiles;
        let part: u32 = i % tiles;
        let start: u32 = part * tile;
        let end: u32 = min(start + tile, len);
        let base: u32 = line * len;
        let cb: u32 = line * digits * tiles + part;
        let chosen: u32 = u32(ld1(state + line * 8u));
        for (var d = 0u; d < digits; d += 1u) {
            st2(counts + (cb + d * tiles) * 4u, i32(0));
        }
        var q: u32 = start;
        while (q < end) {
            let x: f32 = ld0(keys + (base + q) * 2u);
            {
                let kk: u32 = key(x, hi) & mask;
                let g: u32 = (kk >> sh) & (digits - 1u);
                let counted: bool = (kk & above) == (chosen & above);
                if (counted) {
                    let at: u32 = counts + (cb + g * tiles) * 4u;
                    st2(at, ld2(at) + 1);
                }
            }
            q += 1u;
        }
    }
}
