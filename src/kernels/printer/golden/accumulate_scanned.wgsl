fn main {
    let n: u32 = p[launch.words + 0u];
    let nd: u32 = p[launch.words + 1u];
    let ns: u32 = p[launch.words + 2u];
    let so: u32 = 3u + 2u * nd + ns;
    let vo: u32 = so + 1u + nd;
    let ko: u32 = p[launch.words + vo + 1u + nd + ns];
    let po: u32 = p[launch.words + vo + 2u + nd + ns];
    let sto: u32 = p[launch.words + vo + 3u + nd + ns];
    let oo: u32 = vo + 4u + nd + ns;
    let ks: u32 = oo + nd;
    let ce: u32 = ks + nd + 1u;
    let n_sorted: u32 = p[launch.words + ce];
    let free: u32 = p[launch.words + ce + 1u];
    let by_keys: bool = p[launch.words + ce + 2u] != 0u;
    let run_lo: u32 = p[launch.words + ce + 3u];
    let run_hi: u32 = p[launch.words + ce + 4u];
    let first: bool = p[launch.words + ce + 5u] != 0u;
    let last: bool = p[launch.words + ce + 6u] != 0u;
    let vb: u32 = p[launch.words + vo];
    var vstep: u32 = 0u;
    if (ns == 1u) {
        vstep = p[launch.words + vo + nd + 1u];
    }
    let vinner: u32 = p[launch.words + vo + nd];
    for (var w = group * 64u + t; w < n; w += groups * 64u) {
        let u: u32 = w / free;
        var j: u32 = u;
        var key: u32 = u;
        var ok: bool = true;
        var run_end: u32 = n_sorted;
        j = 0u;
        if (ok) {
            var r: u32 = (w % free) * 4u;
            var inside: bool = true;
            var flat: u32 = 0u;
            var scale: u32 = 1u;
            var es: u32 = 0u;
            var ev: u32 = 0u;
            var eo: u32 = 0u;
            for (var d = nd; d > 0u; d -= 1u) {
                let size: u32 = p[launch.words + 2u + d];
                let kd: u32 = p[launch.words + ks + d];
                var cd: u32 = (key / max(kd, 1u)) % size;
                if (kd == 0u) {
                    cd = r % size;
                    r = r / size;
                }
                if (cd >= p[launch.words + 2u + nd + d]) {
                    inside = false;
                }
                es += cd * p[launch.words + so + d];
                ev += cd * p[launch.words + vo + d];
                eo += cd * p[launch.words + oo + d];
                flat += cd * scale;
                scale *= size;
            }
            if (inside) {
                var acc0: f32 = ld0(p[launch.words + so] + (es) * 4u);
                var acc1: f32 = ld0(p[launch.words + so] + (es + 1u * p[launch.words + so + nd]) * 4u);
                var acc2: f32 = ld0(p[launch.words + so] + (es + 2u * p[launch.words + so + nd]) * 4u);
                var acc3: f32 = ld0(p[launch.words + so] + (es + 3u * p[launch.words + so + nd]) * 4u);
                let prev: u32 = 0u;
                var has: bool = true || prev > 0u;
                var count: u32 = prev + 1u;
                let wanted: i64 = bitcast<i64>(u64(key));
                var at: u32 = j + min(run_lo, run_end - j);
                let end: u32 = j + min(run_hi, run_end - j);
                while (at < end) {
                    if (i64(ld2(ko + (at) * 4u)) != wanted) {
                        at += 1u;
                        continue;
                    }
                    var rv: u32 = at;
                    var lv: u32 = ev;
                    if (ns == 1u) {
                        lv += rv * vstep;
                    } else {
                        for (var q = ns; q > 0u; q -= 1u) {
                            let size: u32 = p[launch.words + 2u + 2u * nd + q];
                            lv += (rv % size) * p[launch.words + vo + nd + q];
                            rv = rv / size;
                        }
                    }
                    {
                        let x1: f32 = ld1(vb + (lv) * 4u);
                        if (has) {
                            let x0: f32 = acc0;
                            acc0 = (x0 + x1);
                        } else {
                            acc0 = x1;
                        }
                    }
                    {
                        let x1: f32 = ld1(vb + (lv + 1u * vinner) * 4u);
                        if (has) {
                            let x0: f32 = acc1;
                            acc1 = (x0 + x1);
                        } else {
                            acc1 = x1;
                        }
                    }
                    {
                        let x1: f32 = ld1(vb + (lv + 2u * vinner) * 4u);
                        if (has) {
                            let x0: f32 = acc2;
                            acc2 = (x0 + x1);
                        } else {
                            acc2 = x1;
                        }
                    }
                    {
                        let x1: f32 = ld1(vb + (lv + 3u * vinner) * 4u);
                        if (has) {
                            let x0: f32 = acc3;
                            acc3 = (x0 + x1);
                        } else {
                            acc3 = x1;
                        }
                    }
                    has = true;
                    count += 1u;
                    at += 1u;
                }
                if (has && last) {
                    let x0: f32 = acc0;
                    let x1: f32 = f32(count);
                    st5(p[launch.words + oo] + (eo) * 4u, x0);
                } else {
                    st5(p[launch.words + oo] + (eo) * 4u, acc0);
                }
                if (has && last) {
                    let x0: f32 = acc1;
                    let x1: f32 = f32(count);
                    st5(p[launch.words + oo] + (eo + 1u * p[launch.words + oo + nd]) * 4u, x0);
                } else {
                    st5(p[launch.words + oo] + (eo + 1u * p[launch.words + oo + nd]) * 4u, acc1);
                }
                if (has && last) {
                    let x0: f32 = acc2;
                    let x1: f32 = f32(count);
                    st5(p[launch.words + oo] + (eo + 2u * p[launch.words + oo + nd]) * 4u, x0);
                } else {
                    st5(p[launch.words + oo] + (eo + 2u * p[launch.words + oo + nd]) * 4u, acc2);
                }
                if (has && last) {
                    let x0: f32 = acc3;
                    let x1: f32 = f32(count);
                    st5(p[launch.words + oo] + (eo + 3u * p[launch.words + oo + nd]) * 4u, x0);
                } else {
                    st5(p[launch.words + oo] + (eo + 3u * p[launch.words + oo + nd]) * 4u, acc3);
                }
            }
        }
    }
}
