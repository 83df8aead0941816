fn main {
    let n: u32 = p[launch.words + 0u];
    let bound: i64 = i64(p[launch.words + 1u]);
    let keys: u32 = p[launch.words + 2u];
    let starts: u32 = p[launch.words + 3u];
    for (var i = group * 64u + t; i < n; i += groups * 64u) {
        let key: i64 = ld0(keys + i * 8u);
        var first: bool = i == 0u;
        if (!first) {
            first = ld0(keys + (i - 1u) * 8u) != key;
        }
        if (first && key >= 0li && key < bound) {
            st1(starts + u32(key) * 4u, i32(i));
        }
    }
}
