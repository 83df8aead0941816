fn main {
    let n: u32 = p[0u];
    let nd: u32 = p[1u];
    let nl: u32 = p[2u];
    let so: u32 = 3u + 2u * nd + nl;
    let vo: u32 = so + 1u + nd;
    let blk: u32 = 1u + nd + nl;
    let oo: u32 = vo + blk * 2u;
    let fo: u32 = oo + 1u + nd;
    let ce: u32 = fo + 1u + 2u;
    let loop_lo: u32 = p[ce];
    let loop_hi: u32 = p[ce + 1u];
    let first: bool = p[ce + 2u] != 0u;
    let last: bool = p[ce + 3u] != 0u;
    for (var i = group * 64u + t; i < n; i += groups * 64u) {
        var r: u32 = i;
        var c: array<u32, 16>;
        var inside: bool = true;
        var es: u32 = 0u;
        var ev: u32 = 0u;
        var eo: u32 = 0u;
        var ej0: u32 = 0u;
        for (var d = nd; d > 0u; d -= 1u) {
            let size: u32 = p[2u + d];
            let cd: u32 = r % size;
            r = r / size;
            c[d - 1u] = cd;
            if (cd >= p[2u + nd + nl + d]) {
                inside = false;
            }
            es += cd * p[so + d];
            ev += cd * p[vo + d];
            eo += cd * p[oo + d];
            ej0 += cd * p[vo + blk * 1u + d];
        }
        let own: f32 = select(ld3(p[oo] + eo * 4u), ld0(p[so] + es * 4u), first);
        let prev: u32 = select(u32(ld5(p[ce + 4u] + i * 4u)), 0u, first);
        var acc: f32 = own;
        var has: bool = true || prev > 0u;
        var count: u32 = prev + 1u;
        if (inside) {
            for (var l = loop_lo; l < loop_hi; l += 1u) {
                var rl: u32 = l;
                var lv: u32 = ev;
                var lj0: u32 = ej0;
                for (var q = nl; q > 0u; q -= 1u) {
                    let size: u32 = p[2u + nd + q];
                    let cq: u32 = rl % size;
                    rl = rl / size;
                    lv += cq * p[vo + nd + q];
                    lj0 += cq * p[vo + blk * 1u + nd + q];
                }
                var hit: bool = true;
                {
                    let v: i64 = i64(ld2(p[vo + blk * 1u] + lj0 * 8u));
                    let bound: i64 = i64(p[fo + 2u]);
                    let w: i64 = select(v, v + bound, v < 0li);
                    if (w < 0li || w >= bound) {
                        st4(p[fo], bitcast<i32>(0x1u));
                        hit = false;
                    } else if (u32(w) != c[p[fo + 1u]]) {
                        hit = false;
                    }
                }
                if (hit) {
                    let x1: f32 = ld1(p[vo] + lv * 4u);
                    if (has) {
                        let x0: f32 = acc;
                        acc = (x0 + x1);
                    } else {
                        acc = x1;
                        has = true;
                    }
                    count += 1u;
                }
            }
        }
        if (has && last) {
            let x0: f32 = acc;
            let x1: f32 = f32(count);
            st3(p[oo] + eo * 4u, x0);
        } else {
            st3(p[oo] + eo * 4u, acc);
        }
        if (!last) {
            st5(p[ce + 4u] + i * 4u, bitcast<i32>(count - 1u));
        }
    }
}
