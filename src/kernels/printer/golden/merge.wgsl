fn before(x0: f32, x1: f32) -> bool {
    return ((x0 < x1) | ((!((bitcast<u32>(x0) & 0x7fffffffu) > 0x7f800000u)) & ((bitcast<u32>(x1) & 0x7fffffffu) > 0x7f800000u)));
}
fn main {
    let n: u32 = p[launch.words + 0u];
    let len: u32 = p[launch.words + 1u];
    let w: u32 = p[launch.words + 2u];
    let keys: u32 = p[launch.words + 3u];
    for (var i = group * 64u + t; i < n; i += groups * 64u) {
        let j: u32 = i % len;
        let base: u32 = i - j;
        let start: u32 = j - j % (2u * w);
        let mid: u32 = min(start + w, len);
        let end: u32 = min(mid + w, len);
        let x: f32 = ld0(keys + i * 4u);
        var dest: u32 = 0u;
        if (j < mid) {
            var lo: u32 = mid;
            var hi: u32 = end;
            while (lo < hi) {
                let m: u32 = (lo + hi) / 2u;
                if (before(ld0(keys + (base + m) * 4u), x)) {
                    lo = m + 1u;
                } else {
                    hi = m;
                }
            }
            dest = j + (lo - mid);
        } else {
            var lo: u32 = start;
            var hi: u32 = mid;
            while (lo < hi) {
                let m: u32 = (lo + hi) / 2u;
                if (before(x, ld0(keys + (base + m) * 4u))) {
                    hi = m;
                } else {
                    lo = m + 1u;
                }
            }
            dest = j - mid + lo;
        }
        st2(p[launch.words + 5u] + (base + dest) * 4u, x);
        st3(p[launch.words + 6u] + (base + dest) * 8u, ld1(p[launch.words + 4u] + i * 8u));
    }
}
