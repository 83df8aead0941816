fn main {
    let n: u32 = p[launch.words + 0u];
    let nd: u32 = p[launch.words + 1u];
    let fw: u32 = 2u + nd + 3u * (1u + nd);
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
        let a0: u32 = o0 + e0 * 2u;
        let a1: u32 = o1 + e1 * 8u;
        let a2: u32 = o2 + e2 * 2u;
        var jump: u32 = 0u;
        var ok: bool = true;
        {
            let v: i64 = i64(ld1(a1));
            let bound: i64 = i64(p[launch.words + fw + 1u]);
            let w: i64 = v;
            if (w < 0li || w >= bound) {
                ok = false;
            } else {
                jump += u32(w) * p[launch.words + fw + 2u];
            }
        }
        if (!ok) {
            if (ld3(p[launch.words + fw]) == bitcast<i32>(0x0u)) {
                st3(p[launch.words + fw], bitcast<i32>(p[launch.words + fw + 3u]));
            }
            continue;
        }
        wwp2((a2 + jump * 2u) >> 2u, rwp0((a0) >> 2u));
        wwp2((a2 + jump * 2u + 8u) >> 2u, rwp0((a0 + 8u) >> 2u));
    }
}
