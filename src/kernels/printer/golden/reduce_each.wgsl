fn comb(x0: f32, x1: f32) -> f32 {
    return (x0 + x1);
}
fn red(j: u32, sb: u32) -> u32 {
    var e: u32 = 0u;
    if (p[launch.words + 3u] == 1u) {
        e = j * p[launch.words + sb + 1u];
    } else {
        let nk: u32 = p[launch.words + 2u];
        var q: u32 = j;
        for (var d = p[launch.words + 3u]; d > 0u; d -= 1u) {
            let size: u32 = p[launch.words + 5u + nk + d];
            e += (q % size) * p[launch.words + sb + d];
            q = q / size;
        }
    }
    return e;
}
fn main {
    let n_out: u32 = p[launch.words + 0u];
    let n_red: u32 = p[launch.words + 1u];
    let nk: u32 = p[launch.words + 2u];
    let nr: u32 = p[launch.words + 3u];
    let chunk: u32 = p[launch.words + 4u];
    let n_chunks: u32 = p[launch.words + 5u];
    let io: u32 = 6u + nk + nr;
    var next: u32 = io + 1u + nk + nr;
    let oo: u32 = next;
    let eo: u32 = oo + 1u * (2u + nk);
    for (var w = group * 64u + t; w < n_out * n_chunks; w += groups * 64u) {
        let o: u32 = w % n_out;
        let c: u32 = w / n_out;
        let lo: u32 = c * chunk;
        let hi: u32 = min(n_red, lo + chunk);
        var r: u32 = o;
        var ein: u32 = 0u;
        var ex: u32 = 0u;
        var epo: u32 = 0u;
        var eel: u32 = 0u;
        var eo0: u32 = 0u;
        for (var d = nk; d > 0u; d -= 1u) {
            let size: u32 = p[launch.words + 5u + d];
            let cd: u32 = r % size;
            r = r / size;
            ein += cd * p[launch.words + io + d];
            eel += cd * p[launch.words + eo + d];
            eo0 += cd * p[launch.words + oo + 0u * (2u + nk) + d];
        }
        var acc0: f32 = bitcast<f32>(0x0u);
        var ok0: bool = true;
        let ib0: u32 = p[launch.words + io] + ein * 4u;
        let rs0: u32 = p[launch.words + io + nk + 1u] * 4u;
        var acc0_0: f32 = bitcast<f32>(0x0u);
        var acc0_1: f32 = bitcast<f32>(0x0u);
        var acc0_2: f32 = bitcast<f32>(0x0u);
        var acc0_3: f32 = bitcast<f32>(0x0u);
        var acc0_4: f32 = bitcast<f32>(0x0u);
        var acc0_5: f32 = bitcast<f32>(0x0u);
        var acc0_6: f32 = bitcast<f32>(0x0u);
        var acc0_7: f32 = bitcast<f32>(0x0u);
        if (nr == 1u) {
            for (var j = lo; j < hi; j += 8u) {
                if (j + 0u < hi) {
                    let x0: f32 = ld0(ib0 + (j + 0u) * rs0);
                    let v: f32 = x0;
                    acc0_0 = comb(acc0_0, v);
                }
                if (j + 1u < hi) {
                    let x0: f32 = ld0(ib0 + (j + 1u) * rs0);
                    let v: f32 = x0;
                    acc0_1 = comb(acc0_1, v);
                }
                if (j + 2u < hi) {
                    let x0: f32 = ld0(ib0 + (j + 2u) * rs0);
                    let v: f32 = x0;
                    acc0_2 = comb(acc0_2, v);
                }
                if (j + 3u < hi) {
                    let x0: f32 = ld0(ib0 + (j + 3u) * rs0);
                    let v: f32 = x0;
                    acc0_3 = comb(acc0_3, v);
                }
                if (j + 4u < hi) {
                    let x0: f32 = ld0(ib0 + (j + 4u) * rs0);
                    let v: f32 = x0;
                    acc0_4 = comb(acc0_4, v);
                }
                if (j + 5u < hi) {
                    let x0: f32 = ld0(ib0 + (j + 5u) * rs0);
                    let v: f32 = x0;
                    acc0_5 = comb(acc0_5, v);
                }
                if (j + 6u < hi) {
                    let x0: f32 = ld0(ib0 + (j + 6u) * rs0);
                    let v: f32 = x0;
                    acc0_6 = comb(acc0_6, v);
                }
                if (j + 7u < hi) {
                    let x0: f32 = ld0(ib0 + (j + 7u) * rs0);
                    let v: f32 = x0;
                    acc0_7 = comb(acc0_7, v);
                }
            }
        } else {
            for (var j = lo; j < hi; j += 8u) {
                if (j + 0u < hi) {
                    let x0: f32 = ld0(ib0 + red(j + 0u, io + nk) * 4u);
                    let v: f32 = x0;
                    acc0_0 = comb(acc0_0, v);
                }
                if (j + 1u < hi) {
                    let x0: f32 = ld0(ib0 + red(j + 1u, io + nk) * 4u);
                    let v: f32 = x0;
                    acc0_1 = comb(acc0_1, v);
                }
                if (j + 2u < hi) {
                    let x0: f32 = ld0(ib0 + red(j + 2u, io + nk) * 4u);
                    let v: f32 = x0;
                    acc0_2 = comb(acc0_2, v);
                }
                if (j + 3u < hi) {
                    let x0: f32 = ld0(ib0 + red(j + 3u, io + nk) * 4u);
                    let v: f32 = x0;
                    acc0_3 = comb(acc0_3, v);
                }
                if (j + 4u < hi) {
                    let x0: f32 = ld0(ib0 + red(j + 4u, io + nk) * 4u);
                    let v: f32 = x0;
                    acc0_4 = comb(acc0_4, v);
                }
                if (j + 5u < hi) {
                    let x0: f32 = ld0(ib0 + red(j + 5u, io + nk) * 4u);
                    let v: f32 = x0;
                    acc0_5 = comb(acc0_5, v);
                }
                if (j + 6u < hi) {
                    let x0: f32 = ld0(ib0 + red(j + 6u, io + nk) * 4u);
                    let v: f32 = x0;
                    acc0_6 = comb(acc0_6, v);
                }
                if (j + 7u < hi) {
                    let x0: f32 = ld0(ib0 + red(j + 7u, io + nk) * 4u);
                    let v: f32 = x0;
                    acc0_7 = comb(acc0_7, v);
                }
            }
        }
        acc0 = comb(acc0, (((acc0_0 + acc0_1) + (acc0_2 + acc0_3)) + ((acc0_4 + acc0_5) + (acc0_6 + acc0_7))));
        let x1: f32 = acc0 / f32(n_red);
        var acc1: f32 = bitcast<f32>(0x0u);
        var ok1: bool = true;
        let ib1: u32 = p[launch.words + io] + ein * 4u;
        let rs1: u32 = p[launch.words + io + nk + 1u] * 4u;
        var acc1_0: f32 = bitcast<f32>(0x0u);
        var acc1_1: f32 = bitcast<f32>(0x0u);
        var acc1_2: f32 = bitcast<f32>(0x0u);
        var acc1_3: f32 = bitcast<f32>(0x0u);
        var acc1_4: f32 = bitcast<f32>(0x0u);
        var acc1_5: f32 = bitcast<f32>(0x0u);
        var acc1_6: f32 = bitcast<f32>(0x0u);
        var acc1_7: f32 = bitcast<f32>(0x0u);
        if (nr == 1u) {
            for (var j = lo; j < hi; j += 8u) {
                if (j + 0u < hi) {
                    let x0: f32 = ld0(ib1 + (j + 0u) * rs1);
                    let v: f32 = ((x0 - x1) * (x0 - x1));
                    acc1_0 = comb(acc1_0, v);
                }
                if (j + 1u < hi) {
                    let x0: f32 = ld0(ib1 + (j + 1u) * rs1);
                    let v: f32 = ((x0 - x1) * (x0 - x1));
                    acc1_1 = comb(acc1_1, v);
                }
                if (j + 2u < hi) {
                    let x0: f32 = ld0(ib1 + (j + 2u) * rs1);
                    let v: f32 = ((x0 - x1) * (x0 - x1));
                    acc1_2 = comb(acc1_2, v);
                }
                if (j + 3u < hi) {
                    let x0: f32 = ld0(ib1 + (j + 3u) * rs1);
                    let v: f32 = ((x0 - x1) * (x0 - x1));
                    acc1_3 = comb(acc1_3, v);
                }
                if (j + 4u < hi) {
                    let x0: f32 = ld0(ib1 + (j + 4u) * rs1);
                    let v: f32 = ((x0 - x1) * (x0 - x1));
                    acc1_4 = comb(acc1_4, v);
                }
                if (j + 5u < hi) {
                    let x0: f32 = ld0(ib1 + (j + 5u) * rs1);
                    let v: f32 = ((x0 - x1) * (x0 - x1));
                    acc1_5 = comb(acc1_5, v);
                }
                if (j + 6u < hi) {
                    let x0: f32 = ld0(ib1 + (j + 6u) * rs1);
                    let v: f32 = ((x0 - x1) * (x0 - x1));
                    acc1_6 = comb(acc1_6, v);
                }
                if (j + 7u < hi) {
                    let x0: f32 = ld0(ib1 + (j + 7u) * rs1);
                    let v: f32 = ((x0 - x1) * (x0 - x1));
                    acc1_7 = comb(acc1_7, v);
                }
            }
        } else {
            for (var j = lo; j < hi; j += 8u) {
                if (j + 0u < hi) {
                    let x0: f32 = ld0(ib1 + red(j + 0u, io + nk) * 4u);
                    let v: f32 = ((x0 - x1) * (x0 - x1));
                    acc1_0 = comb(acc1_0, v);
                }
                if (j + 1u < hi) {
                    let x0: f32 = ld0(ib1 + red(j + 1u, io + nk) * 4u);
                    let v: f32 = ((x0 - x1) * (x0 - x1));
                    acc1_1 = comb(acc1_1, v);
                }
                if (j + 2u < hi) {
                    let x0: f32 = ld0(ib1 + red(j + 2u, io + nk) * 4u);
                    let v: f32 = ((x0 - x1) * (x0 - x1));
                    acc1_2 = comb(acc1_2, v);
                }
                if (j + 3u < hi) {
                    let x0: f32 = ld0(ib1 + red(j + 3u, io + nk) * 4u);
                    let v: f32 = ((x0 - x1) * (x0 - x1));
                    acc1_3 = comb(acc1_3, v);
                }
                if (j + 4u < hi) {
                    let x0: f32 = ld0(ib1 + red(j + 4u, io + nk) * 4u);
                    let v: f32 = ((x0 - x1) * (x0 - x1));
                    acc1_4 = comb(acc1_4, v);
                }
                if (j + 5u < hi) {
                    let x0: f32 = ld0(ib1 + red(j + 5u, io + nk) * 4u);
                    let v: f32 = ((x0 - x1) * (x0 - x1));
                    acc1_5 = comb(acc1_5, v);
                }
                if (j + 6u < hi) {
                    let x0: f32 = ld0(ib1 + red(j + 6u, io + nk) * 4u);
                    let v: f32 = ((x0 - x1) * (x0 - x1));
                    acc1_6 = comb(acc1_6, v);
                }
                if (j + 7u < hi) {
                    let x0: f32 = ld0(ib1 + red(j + 7u, io + nk) * 4u);
                    let v: f32 = ((x0 - x1) * (x0 - x1));
                    acc1_7 = comb(acc1_7, v);
                }
            }
        }
        acc1 = comb(acc1, (((acc1_0 + acc1_1) + (acc1_2 + acc1_3)) + ((acc1_4 + acc1_5) + (acc1_6 + acc1_7))));
        let rv: f32 = acc1;
        let rs: f32 = x1;
        var rr: f32 = rv;
        {
            let x0: f32 = rv;
            let x1: f32 = rs;
            rr = sqrt(x0);
        }
        {
            let x1: f32 = rr;
            let x2: f32 = rs;
            let eb: u32 = p[launch.words + eo] + eel * 4u;
            var istep: u32 = 0u;
            var ostep: u32 = 0u;
            if (nr == 1u) {
                istep = p[launch.words + io + nk + 1u] * 4u;
                ostep = p[launch.words + eo + nk + 1u] * 4u;
            }
            let ib: u32 = p[launch.words + io] + ein * 4u;
            for (var j = lo; j < hi; j += 1u) {
                var at: u32 = ib + j * istep;
                var to: u32 = eb + j * ostep;
                if (nr != 1u) {
                    at = ib + red(j, io + nk) * 4u;
                    to = eb + red(j, eo + nk) * 4u;
                }
                let x0: f32 = ld0(at);
                st2(to, ((x0 - x2) / x1));
            }
        }
        {
            let x0: f32 = acc1;
            st1(p[launch.words + oo + 0u * (2u + nk)] + (eo0 + c * p[launch.words + oo + 0u * (2u + nk) + 1u + nk]) * 4u, x0);
        }
    }
}
