fn main {
    let n: u32 = p[launch.words + 0u];
    let bound: u32 = p[launch.words + 1u];
    let keys: u32 = p[launch.words + 2u];
    let starts: u32 = p[launch.words + 3u];
    if (p[launch.words + 4u] != 0u) {
        for (var k = group * 64u + t; k < bound; k += groups * 64u) {
            let key: i64 = i64(k);
            var lo: u32 = 0u;
            var hi: u32 = n;
            while (lo < hi) {
                let mid: u32 = lo + (hi - lo) / 2u;
                if (i64(ld0(keys + mid * 4u)) < key) {
                    lo = mid + 1u;
                } else {
                    hi = mid;
                }
            }
            var start: u32 = n;
            if (lo < n) {
                if (i64(ld0(keys + lo * 4u)) == key) {
                    start = lo;
                }
            }
            st1(starts + k * 4u, i32(start));
        }
    } else {
        let bound64: i64 = i64(bound);
        for (var i = group * 64u + t; i < n; i += groups * 64u) {
            let key: i64 = i64(ld0(keys + i * 4u));
            var first: bool = i == 0u;
            if (!first) {
                first = i64(ld0(keys + (i - 1u) * 4u)) != key;
            }
            if (first && key >= 0li && key < bound64) {
                st1(starts + u32(key) * 4u, i32(i));
            }
        }
    }
}
