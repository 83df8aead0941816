fn main {
    let n: u32 = p[0u];
    let nd: u32 = p[1u];
    let ns: u32 = p[2u];
    let so: u32 = 3u + 2u * nd + ns;
    let vo: u32 = so + 1u + nd;
    let ko: u32 = p[vo + 1u + nd + ns];
    let po: u32 = p[vo + 2u + nd + ns];
    let oo: u32 = vo + 3u + nd + ns;
    let ks: u32 = oo + nd;
    let ce: u32 = ks + nd + 1u;
    let n_sorted: u32 = p[ce];
    let run_lo: u32 = p[ce + 1u];
    let run_hi: u32 = p[ce + 2u];
    let first: bool = p[ce + 3u] != 0u;
    let last: bool = p[ce + 4u] != 0u;
    let vb: u32 = p[vo];
    var vstep: u32 = 0u;
    if (ns == 1u) {
        vstep = p[vo + nd + 1u];
    }
    for (var i = group * 64u + t; i < n; i += groups * 64u) {
        var r: u32 = i;
        var inside: bool = true;
        var es: u32 = 0u;
        var ev: u32 = 0u;
        var eo: u32 = 0u;
        var key: u32 = 0u;
        for (var d = nd; d > 0u; d -= 1u) {
            let size: u32 = p[2u + d];
            let cd: u32 = r % size;
            r = r / size;
            if (cd >= p[2u + nd + d]) {
                inside = false;
            }
            es += cd * p[so + d];
            ev += cd * p[vo + d];
            eo += cd * p[oo + d];
            key += cd * p[ks + d];
        }
        let own: f32 = select(ld4(p[oo] + eo * 4u), ld0(p[so] + es * 4u), first);
        let prev: u32 = select(u32(ld5(p[ce + 5u] + i * 4u)), 0u, first);
        var acc: f32 = own;
        var has: bool = true || prev > 0u;
        var count: u32 = prev + 1u;
        if (inside) {
            let wanted: i64 = i64(key);
            var lo: u32 = 0u;
            var hi: u32 = n_sorted;
            while (lo < hi) {
                let m: u32 = (lo + hi) / 2u;
                if (ld2(ko + m * 8u) < wanted) {
                    lo = m + 1u;
                } else {
                    hi = m;
                }
            }
            var at: u32 = lo + min(run_lo, n_sorted - lo);
            let end: u32 = lo + min(run_hi, n_sorted - lo);
            while (at < end) {
                if (ld2(ko + at * 8u) != wanted) {
                    break;
                }
                var rv: u32 = u32(ld3(po + at * 8u));
                var lv: u32 = ev;
                if (ns == 1u) {
                    lv += rv * vstep;
                } else {
                    for (var q = ns; q > 0u; q -= 1u) {
                        let size: u32 = p[2u + 2u * nd + q];
                        lv += (rv % size) * p[vo + nd + q];
                        rv = rv / size;
                    }
                }
                let x1: f32 = ld1(vb + lv * 4u);
                if (has) {
                    let x0: f32 = acc;
                    acc = (x0 + x1);
                } else {
                    acc = x1;
                    has = true;
                }
                count += 1u;
                at += 1u;
            }
        }
        if (has && last) {
            let x0: f32 = acc;
            let x1: f32 = f32(count);
            st4(p[oo] + eo * 4u, x0);
        } else {
            st4(p[oo] + eo * 4u, acc);
        }
        if (!last) {
            st5(p[ce + 5u] + i * 4u, bitcast<i32>(count - 1u));
        }
    }
}
