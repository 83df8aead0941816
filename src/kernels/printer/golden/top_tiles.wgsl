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
fn worse(ak: u32, ai: u32, bk: u32, bi: u32) -> bool {
    return ak > bk || (ak == bk && ai > bi);
}
fn main {
    let n: u32 = p[launch.words + 0u];
    let len: u32 = p[launch.words + 1u];
    let step: u32 = p[launch.words + 2u];
    let tiles: u32 = p[launch.words + 3u];
    let k: u32 = p[launch.words + 4u];
    let fresh: bool = p[launch.words + 5u] != 0u;
    let last: bool = p[launch.words + 6u] != 0u;
    let input_len: u32 = p[launch.words + 7u];
    let input: u32 = p[launch.words + 8u];
    let keys: u32 = p[launch.words + 9u];
    let indices: u32 = p[launch.words + 10u];
    let kept_keys: u32 = p[launch.words + 11u];
    let kept_indices: u32 = p[launch.words + 12u];
    let values: u32 = p[launch.words + 13u];
    let top: u32 = p[launch.words + 14u];
    let bounded: bool = p[launch.words + 15u] != 0u;
    for (var i = group * 64u + t; i < n; i += groups * 64u) {
        let line: u32 = i / tiles;
        var bound: u32 = 0xffffffffu;
        if (fresh && bounded) {
            bound = u32(ld1(keys + (line * k + k - 1u) * 4u));
        }
        let kept: u32 = i * k;
        var filled: u32 = 0u;
        var root_key: u32 = 0u;
        var root_index: u32 = 0u;
        for (var q = i % tiles; q < len; q += step) {
            var kk: u32 = 0u;
            var ki: u32 = q;
            if (fresh) {
                kk = key(ld0(input + (line * input_len + q) * 4u), false);
                if (kk > bound) {
                    continue;
                }
            } else {
                kk = u32(ld1(keys + (line * len + q) * 4u));
                ki = u32(ld2(indices + (line * len + q) * 4u));
            }
            if (filled < k) {
                var j: u32 = filled;
                filled += 1u;
                while (j > 0u) {
                    let up: u32 = (j - 1u) / 2u;
                    let uk: u32 = u32(ld3(kept_keys + (kept + up) * 4u));
                    let ui: u32 = u32(ld4(kept_indices + (kept + up) * 4u));
                    if (!worse(kk, ki, uk, ui)) {
                        break;
                    }
                    st3(kept_keys + (kept + j) * 4u, i32(uk));
                    st4(kept_indices + (kept + j) * 4u, i32(ui));
                    j = up;
                }
                st3(kept_keys + (kept + j) * 4u, i32(kk));
                st4(kept_indices + (kept + j) * 4u, i32(ki));
                root_key = u32(ld3(kept_keys + (kept + 0u) * 4u));
                root_index = u32(ld4(kept_indices + (kept + 0u) * 4u));
            } else if (worse(root_key, root_index, kk, ki)) {
                var j: u32 = 0u;
                while (true) {
                    var c: u32 = 2u * j + 1u;
                    if (c >= k) {
                        break;
                    }
                    if (c + 1u < k && worse(u32(ld3(kept_keys + (kept + c + 1u) * 4u)), u32(ld4(kept_indices + (kept + c + 1u) * 4u)), u32(ld3(kept_keys + (kept + c) * 4u)), u32(ld4(kept_indices + (kept + c) * 4u)))) {
                        c += 1u;
                    }
                    let ck: u32 = u32(ld3(kept_keys + (kept + c) * 4u));
                    let ci: u32 = u32(ld4(kept_indices + (kept + c) * 4u));
                    if (!worse(ck, ci, kk, ki)) {
                        break;
                    }
                    st3(kept_keys + (kept + j) * 4u, i32(ck));
                    st4(kept_indices + (kept + j) * 4u, i32(ci));
                    j = c;
                }
                st3(kept_keys + (kept + j) * 4u, i32(kk));
                st4(kept_indices + (kept + j) * 4u, i32(ki));
                root_key = u32(ld3(kept_keys + (kept + 0u) * 4u));
                root_index = u32(ld4(kept_indices + (kept + 0u) * 4u));
            }
        }
        var m: u32 = filled;
        while (m > 1u) {
            m -= 1u;
            let rk: u32 = u32(ld3(kept_keys + (kept + 0u) * 4u));
            let ri: u32 = u32(ld4(kept_indices + (kept + 0u) * 4u));
            let kk: u32 = u32(ld3(kept_keys + (kept + m) * 4u));
            let ki: u32 = u32(ld4(kept_indices + (kept + m) * 4u));
            st3(kept_keys + (kept + m) * 4u, i32(rk));
            st4(kept_indices + (kept + m) * 4u, i32(ri));
            var j: u32 = 0u;
            while (true) {
                var c: u32 = 2u * j + 1u;
                if (c >= m) {
                    break;
                }
                if (c + 1u < m && worse(u32(ld3(kept_keys + (kept + c + 1u) * 4u)), u32(ld4(kept_indices + (kept + c + 1u) * 4u)), u32(ld3(kept_keys + (kept + c) * 4u)), u32(ld4(kept_indices + (kept + c) * 4u)))) {
                    c += 1u;
                }
                let ck: u32 = u32(ld3(kept_keys + (kept + c) * 4u));
                let ci: u32 = u32(ld4(kept_indices + (kept + c) * 4u));
                if (!worse(ck, ci, kk, ki)) {
                    break;
                }
                st3(kept_keys + (kept + j) * 4u, i32(ck));
                st4(kept_indices + (kept + j) * 4u, i32(ci));
                j = c;
            }
            st3(kept_keys + (kept + j) * 4u, i32(kk));
            st4(kept_indices + (kept + j) * 4u, i32(ki));
        }
        for (var j = filled; j < k; j += 1u) {
            st3(kept_keys + (kept + j) * 4u, i32(0xffffffffu));
            st4(kept_indices + (kept + j) * 4u, i32(0xffffffffu));
        }
        if (last) {
            for (var j = 0u; j < k; j += 1u) {
                let at: u32 = u32(ld4(kept_indices + (kept + j) * 4u));
                st5(values + (kept + j) * 4u, ld0(input + (line * input_len + at) * 4u));
                st6(top + (kept + j) * 8u, i64(at));
            }
        }
    }
}
