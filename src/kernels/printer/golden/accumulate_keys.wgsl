fn main {
    let n: u32 = p[launch.words + 0u];
    let nd: u32 = p[launch.words + 1u];
    let fw: u32 = 2u + nd + 3u * (1u + nd);
    let bound0: i64 = i64(p[launch.words + fw + 1u]);
    let step0: i32 = i32(p[launch.words + fw + 2u]);
    let index_at: u32 = p[launch.words + 2u + nd + 0u * (1u + nd) + 0u];
    let keys_at: u32 = p[launch.words + 2u + nd + 1u * (1u + nd) + 0u];
    let key_step: u32 = p[launch.words + 2u + nd + 2u * (1u + nd) + 1u];
    let bound_u: u32 = u32(bound0);
    if (nd == 1u && p[launch.words + 2u + nd + 0u * (1u + nd) + 1u] == 1u && p[launch.words + 2u + nd + 1u * (1u + nd) + 1u] == 1u && (index_at & 15u) == 0u && (keys_at & 15u) == 0u) {
        for (var q = group * 64u + t; q < (n + 3u) / 4u; q += groups * 64u) {
            let first: u32 = q * 4u;
            var key0: i32 = 0;
            var key1: i32 = 0;
            var key2: i32 = 0;
            var key3: i32 = 0;
            if (first + 4u <= n) {
                let words0 = bitcast<vec4<i32>>(b0[(index_at + (first + 0u) * 8u) >> 4u]);
                let words1 = bitcast<vec4<i32>>(b0[(index_at + (first + 2u) * 8u) >> 4u]);
                {
                    let lo: u32 = u32(words0[0]);
                    let hi: u32 = u32(words0[1]);
                    let inside: bool = (hi == 0u && lo < bound_u) || (hi == 0xffffffffu && bound_u != 0u && lo >= 0u - bound_u);
                    let w: u32 = select(lo + bound_u, lo, hi == 0u);
                    if (inside) {
                        key0 = i32(w) * step0 + i32((first + 0u) * key_step);
                    } else {
                        if (ld2(p[launch.words + fw]) == bitcast<i32>(0x0u)) {
                            st2(p[launch.words + fw], bitcast<i32>(p[launch.words + fw + 3u]));
                        }
                        key0 = 2147483647;
                    }
                }
                {
                    let lo: u32 = u32(words0[2]);
                    let hi: u32 = u32(words0[3]);
                    let inside: bool = (hi == 0u && lo < bound_u) || (hi == 0xffffffffu && bound_u != 0u && lo >= 0u - bound_u);
                    let w: u32 = select(lo + bound_u, lo, hi == 0u);
                    if (inside) {
                        key1 = i32(w) * step0 + i32((first + 1u) * key_step);
                    } else {
                        if (ld2(p[launch.words + fw]) == bitcast<i32>(0x0u)) {
                            st2(p[launch.words + fw], bitcast<i32>(p[launch.words + fw + 3u]));
                        }
                        key1 = 2147483647;
                    }
                }
                {
                    let lo: u32 = u32(words1[0]);
                    let hi: u32 = u32(words1[1]);
                    let inside: bool = (hi == 0u && lo < bound_u) || (hi == 0xffffffffu && bound_u != 0u && lo >= 0u - bound_u);
                    let w: u32 = select(lo + bound_u, lo, hi == 0u);
                    if (inside) {
                        key2 = i32(w) * step0 + i32((first + 2u) * key_step);
                    } else {
                        if (ld2(p[launch.words + fw]) == bitcast<i32>(0x0u)) {
                            st2(p[launch.words + fw], bitcast<i32>(p[launch.words + fw + 3u]));
                        }
                        key2 = 2147483647;
                    }
                }
                {
                    let lo: u32 = u32(words1[2]);
                    let hi: u32 = u32(words1[3]);
                    let inside: bool = (hi == 0u && lo < bound_u) || (hi == 0xffffffffu && bound_u != 0u && lo >= 0u - bound_u);
                    let w: u32 = select(lo + bound_u, lo, hi == 0u);
                    if (inside) {
                        key3 = i32(w) * step0 + i32((first + 3u) * key_step);
                    } else {
                        if (ld2(p[launch.words + fw]) == bitcast<i32>(0x0u)) {
                            st2(p[launch.words + fw], bitcast<i32>(p[launch.words + fw + 3u]));
                        }
                        key3 = 2147483647;
                    }
                }
                b1[(keys_at + first * 4u) >> 4u] = bitcast<vec4<u32>>(vec4<i32>(key0, key1, key2, key3));
            } else {
                for (var e = first; e < n; e += 1u) {
                    let v: i64 = i64(ld0(index_at + e * 8u));
                    let bound: i64 = bound0;
                    let w: i64 = select(v, v + bound, v < 0li);
                    var key: i32 = 2147483647;
                    if (w < 0li || w >= bound) {
                        if (ld2(p[launch.words + fw]) == bitcast<i32>(0x0u)) {
                            st2(p[launch.words + fw], bitcast<i32>(p[launch.words + fw + 3u]));
                        }
                    } else {
                        key = i32(w) * step0 + i32(e * key_step);
                    }
                    st1(keys_at + e * 4u, key);
                }
            }
        }
    } else {
        var inner: u32 = 1u;
        var middle: u32 = 1u;
        var sp0: u32 = 0u;
        var sa0: u32 = 0u;
        var sb0: u32 = 0u;
        let o0: u32 = p[launch.words + 2u + nd + 0u * (1u + nd)];
        var sp1: u32 = 0u;
        var sa1: u32 = 0u;
        var sb1: u32 = 0u;
        let o1: u32 = p[launch.words + 2u + nd + 1u * (1u + nd)];
        var sp2: u32 = 0u;
        var sa2: u32 = 0u;
        var sb2: u32 = 0u;
        let o2: u32 = p[launch.words + 2u + nd + 2u * (1u + nd)];
        if (nd == 1u) {
            sb0 = p[launch.words + 2u + nd + 0u * 2u + 1u];
            sb1 = p[launch.words + 2u + nd + 1u * 2u + 1u];
            sb2 = p[launch.words + 2u + nd + 2u * 2u + 1u];
        } else if (nd == 2u) {
            inner = p[launch.words + 1u + 2u];
            sp0 = p[launch.words + 2u + nd + 0u * 3u + 1u];
            sb0 = p[launch.words + 2u + nd + 0u * 3u + 2u];
            sp1 = p[launch.words + 2u + nd + 1u * 3u + 1u];
            sb1 = p[launch.words + 2u + nd + 1u * 3u + 2u];
            sp2 = p[launch.words + 2u + nd + 2u * 3u + 1u];
            sb2 = p[launch.words + 2u + nd + 2u * 3u + 2u];
        } else if (nd == 3u) {
            middle = p[launch.words + 1u + 2u];
            inner = p[launch.words + 1u + 3u];
            sp0 = p[launch.words + 2u + nd + 0u * 4u + 1u];
            sa0 = p[launch.words + 2u + nd + 0u * 4u + 2u];
            sb0 = p[launch.words + 2u + nd + 0u * 4u + 3u];
            sp1 = p[launch.words + 2u + nd + 1u * 4u + 1u];
            sa1 = p[launch.words + 2u + nd + 1u * 4u + 2u];
            sb1 = p[launch.words + 2u + nd + 1u * 4u + 3u];
            sp2 = p[launch.words + 2u + nd + 2u * 4u + 1u];
            sa2 = p[launch.words + 2u + nd + 2u * 4u + 2u];
            sb2 = p[launch.words + 2u + nd + 2u * 4u + 3u];
        }
        var i_col: u32 = 0u;
        var i_mid: u32 = 0u;
        var i_top: u32 = 0u;
        var i_step_col: u32 = 0u;
        var i_step_mid: u32 = 0u;
        var i_step_top: u32 = 0u;
        var i_walked: bool = false;
        for (var i = group * 64u + t; i < n; i += groups * 64u) {
            var e0: u32 = 0u;
            var e1: u32 = 0u;
            var e2: u32 = 0u;
            if (nd == 1u) {
                e0 = i * sb0;
                e1 = i * sb1;
                e2 = i * sb2;
            } else if (nd <= 3u) {
                if (i_walked) {
                    i_col = i_col + i_step_col;
                    let i_carry: u32 = u32(i_col >= inner);
                    i_col = i_col - i_carry * inner;
                    i_mid = i_mid + i_step_mid + i_carry;
                    let i_carry_mid: u32 = u32(i_mid >= middle);
                    i_mid = i_mid - i_carry_mid * middle;
                    i_top = i_top + i_step_top + i_carry_mid;
                } else {
                    i_col = i % inner;
                    i_mid = (i / inner) % middle;
                    i_top = (i / inner) / middle;
                    i_step_col = (groups * 64u) % inner;
                    i_step_mid = ((groups * 64u) / inner) % middle;
                    i_step_top = ((groups * 64u) / inner) / middle;
                    i_walked = true;
                }
                e0 = i_top * sp0 + i_mid * sa0 + i_col * sb0;
                e1 = i_top * sp1 + i_mid * sa1 + i_col * sb1;
                e2 = i_top * sp2 + i_mid * sa2 + i_col * sb2;
            } else {
                var r: u32 = i;
                for (var d = nd; d > 0u; d -= 1u) {
                    let c: u32 = r % p[launch.words + 1u + d];
                    r = r / p[launch.words + 1u + d];
                    e0 += c * p[launch.words + 2u + nd + 0u * (1u + nd) + d];
                    e1 += c * p[launch.words + 2u + nd + 1u * (1u + nd) + d];
                    e2 += c * p[launch.words + 2u + nd + 2u * (1u + nd) + d];
                }
            }
            let a0: u32 = o0 + e0 * 8u;
            let a1: u32 = o1 + e1 * 4u;
            let a2: u32 = o2 + e2 * 1u;
            var key: i32 = i32(e2);
            var ok: bool = true;
            {
                let v: i64 = i64(ld0(a0));
                let bound: i64 = bound0;
                let w: i64 = select(v, v + bound, v < 0li);
                if (w < 0li || w >= bound) {
                    if (ld2(p[launch.words + fw]) == bitcast<i32>(0x0u)) {
                        st2(p[launch.words + fw], bitcast<i32>(p[launch.words + fw + 3u]));
                    }
                    ok = false;
                } else {
                    key += i32(w) * step0;
                }
            }
            st1(a1, select(2147483647, key, ok));
        }
    }
}
