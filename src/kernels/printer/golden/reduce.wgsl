var<workgroup> sh_a: array<f32, 64>;
var<workgroup> sh_ok: array<bool, 64>;
var<workgroup> sh_i: array<i64, 64>;
var<workgroup> wv_shared: array<u32, 6>;
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
    if (t == 0u) { for (var k = 0u; k < 6u; k += 1u) { wv_shared[k] = p[launch.words + k]; } }
    let wv = workgroupUniformLoad(&wv_shared);
    let n_out: u32 = wv[0];
    let n_red: u32 = wv[1];
    let nk: u32 = wv[2];
    let nr: u32 = wv[3];
    let chunk: u32 = wv[4];
    let n_chunks: u32 = wv[5];
    let io: u32 = 6u + nk + nr;
    var next: u32 = io + 1u + nk + nr;
    let oo: u32 = next;
    let eo: u32 = oo + 1u * (2u + nk);
    for (var w = group; w < n_out * n_chunks; w += groups) {
        let o: u32 = w / n_chunks;
        let c: u32 = w % n_chunks;
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
            eo0 += cd * p[launch.words + oo + 0u * (2u + nk) + d];
        }
        {
            var acc: f32 = bitcast<f32>(0x0u);
            var ok: bool = true;
            let ib0: u32 = p[launch.words + io] + ein * 4u;
            let rs0: u32 = p[launch.words + io + nk + 1u] * 4u;
            if (nr == 1u) {
                if (rs0 == 4u && ((ib0 + lo * 4u) & 15u) == 0u) {
                    for (var j = lo + 4u * t; j < hi; j += 256u) {
                        if (j + 4u <= hi) {
                            let v4 = bitcast<vec4<f32>>(b0[(ib0 + j * 4u) >> 4u]);
                            {
                                let x0: f32 = v4[0];
                                let v: f32 = x0;
                                acc = comb(acc, v);
                            }
                            {
                                let x0: f32 = v4[1];
                                let v: f32 = x0;
                                acc = comb(acc, v);
                            }
                            {
                                let x0: f32 = v4[2];
                                let v: f32 = x0;
                                acc = comb(acc, v);
                            }
                            {
                                let x0: f32 = v4[3];
                                let v: f32 = x0;
                                acc = comb(acc, v);
                            }
                        } else {
                            for (var jj = j; jj < hi; jj += 1u) {
                                let x0: f32 = ld0(ib0 + jj * 4u);
                                let v: f32 = x0;
                                acc = comb(acc, v);
                            }
                        }
                    }
                } else {
                    for (var j = lo + t; j < hi; j += 64u) {
                        let x0: f32 = ld0(ib0 + j * rs0);
                        let v: f32 = x0;
                        acc = comb(acc, v);
                    }
                }
            } else {
                for (var j = lo + t; j < hi; j += 64u) {
                    let x0: f32 = ld0(ib0 + red(j, io + nk) * 4u);
                    let v: f32 = x0;
                    acc = comb(acc, v);
                }
            }
            sh_a[t] = acc;
            sh_ok[t] = ok;
        }
        workgroupBarrier();
        for (var s = 32u; s > 0u; s >>= 1u) {
            if (t < s) {
                let u: u32 = t + s;
                sh_a[t] = comb(sh_a[t], sh_a[u]);
            }
            workgroupBarrier();
        }
        if (t == 0u) {
            let x0: f32 = sh_a[0];
            st1(p[launch.words + oo + 0u * (2u + nk)] + (eo0 + c * p[launch.words + oo + 0u * (2u + nk) + 1u + nk]) * 4u, x0);
        }
        workgroupBarrier();
    }
}
