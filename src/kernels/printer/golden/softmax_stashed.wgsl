fn comb(x0: f32, x1: f32) -> f32 {
    return (x0 + x1);
}
fn comb_max(x0: f32, x1: f32) -> f32 {
    return select(select(max(x0, x1), x1, !(x1 == x1)), x0, !(x0 == x0));
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
    let eo: u32 = oo + 0u * (2u + nk);
    for (var w = group * 64u + t; w < n_out * n_chunks; w += groups * 64u) {
        let o: u32 = w / n_chunks;
        let c: u32 = w % n_chunks;
        let lo: u32 = c * chunk;
        let hi: u32 = min(n_red, lo + chunk);
        var r: u32 = o;
        var ein: u32 = 0u;
        var ex: u32 = 0u;
        var epo: u32 = 0u;
        var eel: u32 = 0u;
        for (var d = nk; d > 0u; d -= 1u) {
            let size: u32 = p[launch.words + 5u + d];
            let cd: u32 = r % size;
            r = r / size;
            ein += cd * p[launch.words + io + d];
            eel += cd * p[launch.words + eo + d];
        }
        let stash_base: u32 = p[launch.words + eo] + eel * 4u;
        let stash_step: u32 = p[launch.words + eo + nk + 1u] * 4u;
        var acc0: f32 = bitcast<f32>(0x0u);
        var ok0: bool = false;
        let ib0: u32 = p[launch.words + io] + ein * 4u;
        let rs0: u32 = p[launch.words + io + nk + 1u] * 4u;
        if (nr == 1u) {
            if (rs0 == 4u && ((ib0 + lo * 4u) & 15u) == 0u) {
                let whole: u32 = lo + (hi - lo) / 32u * 32u;
                for (var j = lo; j < whole; j += 32u) {
                    let v4_0 = bitcast<vec4<f32>>(b0[(ib0 + (j + 0u) * 4u) >> 4u]);
                    let v4_1 = bitcast<vec4<f32>>(b0[(ib0 + (j + 4u) * 4u) >> 4u]);
                    let v4_2 = bitcast<vec4<f32>>(b0[(ib0 + (j + 8u) * 4u) >> 4u]);
                    let v4_3 = bitcast<vec4<f32>>(b0[(ib0 + (j + 12u) * 4u) >> 4u]);
                    let v4_4 = bitcast<vec4<f32>>(b0[(ib0 + (j + 16u) * 4u) >> 4u]);
                    let v4_5 = bitcast<vec4<f32>>(b0[(ib0 + (j + 20u) * 4u) >> 4u]);
                    let v4_6 = bitcast<vec4<f32>>(b0[(ib0 + (j + 24u) * 4u) >> 4u]);
                    let v4_7 = bitcast<vec4<f32>>(b0[(ib0 + (j + 28u) * 4u) >> 4u]);
                    {
                        let x0: f32 = v4_0[0];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_0[1];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_0[2];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_0[3];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_1[0];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_1[1];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_1[2];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_1[3];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_2[0];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_2[1];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_2[2];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_2[3];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_3[0];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_3[1];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_3[2];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_3[3];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_4[0];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_4[1];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_4[2];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_4[3];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_5[0];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_5[1];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_5[2];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_5[3];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_6[0];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_6[1];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_6[2];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_6[3];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_7[0];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_7[1];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_7[2];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                    {
                        let x0: f32 = v4_7[3];
                        let v: f32 = x0;
                        if (ok0) {
                            acc0 = comb_max(acc0, v);
                        } else {
                            acc0 = v;
                            ok0 = true;
                        }
                    }
                }
                for (var j = whole; j < hi; j += 1u) {
                    let x0: f32 = ld0(ib0 + j * 4u);
                    let v: f32 = x0;
                    if (ok0) {
                        acc0 = comb_max(acc0, v);
                    } else {
                        acc0 = v;
                        ok0 = true;
                    }
                }
            } else {
                for (var j = lo; j < hi; j += 1u) {
                    let x0: f32 = ld0(ib0 + j * rs0);
                    let v: f32 = x0;
                    if (ok0) {
                        acc0 = comb_max(acc0, v);
                    } else {
                        acc0 = v;
                        ok0 = true;
                    }
                }
            }
        } else {
            for (var j = lo; j < hi; j += 1u) {
                let x0: f32 = ld0(ib0 + red(j, io + nk) * 4u);
                let v: f32 = x0;
                if (ok0) {
                    acc0 = comb_max(acc0, v);
                } else {
                    acc0 = v;
                    ok0 = true;
                }
            }
        }
        let x2: f32 = acc0;
        let x1: f32 = select(bitcast<f32>(0x0u), x2, ((bitcast<u32>(x2) & 0x7fffffffu) < 0x7f800000u));
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
            if (rs1 == 4u && ((ib1 + lo * 4u) & 15u) == 0u) {
                let whole: u32 = lo + (hi - lo) / 16u * 16u;
                for (var j = lo; j < whole; j += 16u) {
                    let v4_0 = bitcast<vec4<f32>>(b0[(ib1 + (j + 0u) * 4u) >> 4u]);
                    let v4_1 = bitcast<vec4<f32>>(b0[(ib1 + (j + 4u) * 4u) >> 4u]);
                    let v4_2 = bitcast<vec4<f32>>(b0[(ib1 + (j + 8u) * 4u) >> 4u]);
                    let v4_3 = bitcast<vec4<f32>>(b0[(ib1 + (j + 12u) * 4u) >> 4u]);
                    var s_0: f32 = bitcast<f32>(0x0u);
                    {
                        let x0: f32 = v4_0[0];
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 0u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 0u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_0 = v;
                    }
                    var s_1: f32 = bitcast<f32>(0x0u);
                    {
                        let x0: f32 = v4_0[1];
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 1u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 1u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_1 = v;
                    }
                    var s_2: f32 = bitcast<f32>(0x0u);
                    {
                        let x0: f32 = v4_0[2];
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 2u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 2u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_2 = v;
                    }
                    var s_3: f32 = bitcast<f32>(0x0u);
                    {
                        let x0: f32 = v4_0[3];
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 3u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 3u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_3 = v;
                    }
                    var s_4: f32 = bitcast<f32>(0x0u);
                    {
                        let x0: f32 = v4_1[0];
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 4u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 4u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_4 = v;
                    }
                    var s_5: f32 = bitcast<f32>(0x0u);
                    {
                        let x0: f32 = v4_1[1];
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 5u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 5u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_5 = v;
                    }
                    var s_6: f32 = bitcast<f32>(0x0u);
                    {
                        let x0: f32 = v4_1[2];
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 6u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 6u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_6 = v;
                    }
                    var s_7: f32 = bitcast<f32>(0x0u);
                    {
                        let x0: f32 = v4_1[3];
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 7u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 7u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_7 = v;
                    }
                    var s_8: f32 = bitcast<f32>(0x0u);
                    {
                        let x0: f32 = v4_2[0];
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 8u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 8u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_8 = v;
                    }
                    var s_9: f32 = bitcast<f32>(0x0u);
                    {
                        let x0: f32 = v4_2[1];
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 9u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 9u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_9 = v;
                    }
                    var s_10: f32 = bitcast<f32>(0x0u);
                    {
                        let x0: f32 = v4_2[2];
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 10u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 10u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_10 = v;
                    }
                    var s_11: f32 = bitcast<f32>(0x0u);
                    {
                        let x0: f32 = v4_2[3];
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 11u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 11u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_11 = v;
                    }
                    var s_12: f32 = bitcast<f32>(0x0u);
                    {
                        let x0: f32 = v4_3[0];
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 12u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 12u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_12 = v;
                    }
                    var s_13: f32 = bitcast<f32>(0x0u);
                    {
                        let x0: f32 = v4_3[1];
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 13u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 13u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_13 = v;
                    }
                    var s_14: f32 = bitcast<f32>(0x0u);
                    {
                        let x0: f32 = v4_3[2];
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 14u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 14u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_14 = v;
                    }
                    var s_15: f32 = bitcast<f32>(0x0u);
                    {
                        let x0: f32 = v4_3[3];
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 15u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 15u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        s_15 = v;
                    }
                    acc1 = comb(acc1, ((((s_0 + s_1) + (s_2 + s_3)) + ((s_4 + s_5) + (s_6 + s_7))) + (((s_8 + s_9) + (s_10 + s_11)) + ((s_12 + s_13) + (s_14 + s_15)))));
                }
                for (var j = whole; j < hi; j += 1u) {
                    let x0: f32 = ld0(ib1 + j * 4u);
                    let v: f32 = exp_f32((x0 - x1));
                    var sat: u32 = stash_base + (j) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j, eo + nk) * 4u;
                    }
                    st1(sat, v);
                    acc1 = comb(acc1, v);
                }
            } else {
                for (var j = lo; j < hi; j += 8u) {
                    if (j + 0u < hi) {
                        let x0: f32 = ld0(ib1 + (j + 0u) * rs1);
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 0u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 0u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        acc1_0 = comb(acc1_0, v);
                    }
                    if (j + 1u < hi) {
                        let x0: f32 = ld0(ib1 + (j + 1u) * rs1);
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 1u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 1u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        acc1_1 = comb(acc1_1, v);
                    }
                    if (j + 2u < hi) {
                        let x0: f32 = ld0(ib1 + (j + 2u) * rs1);
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 2u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 2u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        acc1_2 = comb(acc1_2, v);
                    }
                    if (j + 3u < hi) {
                        let x0: f32 = ld0(ib1 + (j + 3u) * rs1);
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 3u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 3u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        acc1_3 = comb(acc1_3, v);
                    }
                    if (j + 4u < hi) {
                        let x0: f32 = ld0(ib1 + (j + 4u) * rs1);
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 4u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 4u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        acc1_4 = comb(acc1_4, v);
                    }
                    if (j + 5u < hi) {
                        let x0: f32 = ld0(ib1 + (j + 5u) * rs1);
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 5u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 5u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        acc1_5 = comb(acc1_5, v);
                    }
                    if (j + 6u < hi) {
                        let x0: f32 = ld0(ib1 + (j + 6u) * rs1);
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 6u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 6u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        acc1_6 = comb(acc1_6, v);
                    }
                    if (j + 7u < hi) {
                        let x0: f32 = ld0(ib1 + (j + 7u) * rs1);
                        let v: f32 = exp_f32((x0 - x1));
                        var sat: u32 = stash_base + (j + 7u) * stash_step;
                        if (nr != 1u) {
                            sat = stash_base + red(j + 7u, eo + nk) * 4u;
                        }
                        st1(sat, v);
                        acc1_7 = comb(acc1_7, v);
                    }
                }
            }
        } else {
            for (var j = lo; j < hi; j += 8u) {
                if (j + 0u < hi) {
                    let x0: f32 = ld0(ib1 + red(j + 0u, io + nk) * 4u);
                    let v: f32 = exp_f32((x0 - x1));
                    var sat: u32 = stash_base + (j + 0u) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j + 0u, eo + nk) * 4u;
                    }
                    st1(sat, v);
                    acc1_0 = comb(acc1_0, v);
                }
                if (j + 1u < hi) {
                    let x0: f32 = ld0(ib1 + red(j + 1u, io + nk) * 4u);
                    let v: f32 = exp_f32((x0 - x1));
                    var sat: u32 = stash_base + (j + 1u) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j + 1u, eo + nk) * 4u;
                    }
                    st1(sat, v);
                    acc1_1 = comb(acc1_1, v);
                }
                if (j + 2u < hi) {
                    let x0: f32 = ld0(ib1 + red(j + 2u, io + nk) * 4u);
                    let v: f32 = exp_f32((x0 - x1));
                    var sat: u32 = stash_base + (j + 2u) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j + 2u, eo + nk) * 4u;
                    }
                    st1(sat, v);
                    acc1_2 = comb(acc1_2, v);
                }
                if (j + 3u < hi) {
                    let x0: f32 = ld0(ib1 + red(j + 3u, io + nk) * 4u);
                    let v: f32 = exp_f32((x0 - x1));
                    var sat: u32 = stash_base + (j + 3u) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j + 3u, eo + nk) * 4u;
                    }
                    st1(sat, v);
                    acc1_3 = comb(acc1_3, v);
                }
                if (j + 4u < hi) {
                    let x0: f32 = ld0(ib1 + red(j + 4u, io + nk) * 4u);
                    let v: f32 = exp_f32((x0 - x1));
                    var sat: u32 = stash_base + (j + 4u) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j + 4u, eo + nk) * 4u;
                    }
                    st1(sat, v);
                    acc1_4 = comb(acc1_4, v);
                }
                if (j + 5u < hi) {
                    let x0: f32 = ld0(ib1 + red(j + 5u, io + nk) * 4u);
                    let v: f32 = exp_f32((x0 - x1));
                    var sat: u32 = stash_base + (j + 5u) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j + 5u, eo + nk) * 4u;
                    }
                    st1(sat, v);
                    acc1_5 = comb(acc1_5, v);
                }
                if (j + 6u < hi) {
                    let x0: f32 = ld0(ib1 + red(j + 6u, io + nk) * 4u);
                    let v: f32 = exp_f32((x0 - x1));
                    var sat: u32 = stash_base + (j + 6u) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j + 6u, eo + nk) * 4u;
                    }
                    st1(sat, v);
                    acc1_6 = comb(acc1_6, v);
                }
                if (j + 7u < hi) {
                    let x0: f32 = ld0(ib1 + red(j + 7u, io + nk) * 4u);
                    let v: f32 = exp_f32((x0 - x1));
                    var sat: u32 = stash_base + (j + 7u) * stash_step;
                    if (nr != 1u) {
                        sat = stash_base + red(j + 7u, eo + nk) * 4u;
                    }
                    st1(sat, v);
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
            rr = f32(log_f64(f64(x0)));
        }
        {
            let x1: f32 = rr;
            let x2: f32 = rs;
            let x3: f32 = rv;
            let eb: u32 = p[launch.words + eo] + eel * 4u;
            var istep: u32 = 0u;
            var ostep: u32 = 0u;
            if (nr == 1u) {
                istep = p[launch.words + io + nk + 1u] * 4u;
                ostep = p[launch.words + eo + nk + 1u] * 4u;
            }
            let ib: u32 = p[launch.words + io] + ein * 4u;
            if (istep == 4u && ostep == 4u && (ib & 15u) == 0u && (eb & 15u) == 0u) {
                for (var j = lo; j < hi; j += 4u) {
                    if (j + 4u <= hi) {
                        let v4 = bitcast<vec4<f32>>(b1[(eb + j * 4u) >> 4u]);
                        var r0: f32 = bitcast<f32>(0x0u);
                        var r1: f32 = bitcast<f32>(0x0u);
                        var r2: f32 = bitcast<f32>(0x0u);
                        var r3: f32 = bitcast<f32>(0x0u);
                        {
                            let x0: f32 = v4[0];
                            r0 = (x0 / x3);
                        }
                        {
                            let x0: f32 = v4[1];
                            r1 = (x0 / x3);
                        }
                        {
                            let x0: f32 = v4[2];
                            r2 = (x0 / x3);
                        }
                        {
                            let x0: f32 = v4[3];
                            r3 = (x0 / x3);
                        }
                        b1[(eb + j * 4u) >> 4u] = bitcast<vec4<u32>>(vec4<f32>(r0, r1, r2, r3));
                    } else {
                        for (var jj = j; jj < hi; jj += 1u) {
                            let x0: f32 = ld1(eb + jj * 4u);
                            st1(eb + jj * 4u, (x0 / x3));
                        }
                    }
                }
            } else {
                for (var j = lo; j < hi; j += 1u) {
                    var at: u32 = ib + j * istep;
                    var to: u32 = eb + j * ostep;
                    if (nr != 1u) {
                        at = ib + red(j, io + nk) * 4u;
                        to = eb + red(j, eo + nk) * 4u;
                    }
                    let x0: f32 = ld1(to);
                    st1(to, (x0 / x3));
                }
            }
        }
        {
            let x0: f32 = acc1;
        }
    }
}
