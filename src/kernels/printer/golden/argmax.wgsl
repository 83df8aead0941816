var<workgroup> sh_a: array<f32, 64>;
var<workgroup> sh_ok: array<bool, 64>;
var<workgroup> sh_i: array<i64, 64>;
var<workgroup> wv_shared: array<u32, 6>;
fn comb(x0: f32, x1: f32) -> f32 {
    return select(select(max(x0, x1), x1, !(x1 == x1)), x0, !(x0 == x0));
}
fn better(x0: f32, i: i64, x1: f32, j: i64) -> bool {
    return ((x1 > x0) | (((bitcast<u32>(x1) & 0x7fffffffu) > 0x7f800000u) & (!((bitcast<u32>(x0) & 0x7fffffffu) > 0x7f800000u)))) || (((x1 == x0) | (((bitcast<u32>(x1) & 0x7fffffffu) > 0x7f800000u) & ((bitcast<u32>(x0) & 0x7fffffffu) > 0x7f800000u))) && j < i);
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
    let xo: u32 = next;
    next += 1u + nk + nr;
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
            ex += cd * p[launch.words + xo + d];
            eo0 += cd * p[launch.words + oo + 0u * (2u + nk) + d];
        }
        {
            var acc: f32 = bitcast<f32>(0x0u);
            var ok: bool = false;
            var idx: i64 = 0li;
            let ib0: u32 = p[launch.words + io] + ein * 4u;
            let rs0: u32 = p[launch.words + io + nk + 1u] * 4u;
            if (nr == 1u) {
                for (var j = lo + t; j < hi; j += 64u) {
                    let x0: f32 = ld0(ib0 + j * rs0);
                    let v: f32 = x0;
                    let k: i64 = ld1(p[launch.words + xo] + (ex + red(j, xo + nk)) * 8u);
                    if (!ok || better(acc, idx, v, k)) {
                        acc = v;
                        idx = k;
                        ok = true;
                    }
                }
            } else {
                for (var j = lo + t; j < hi; j += 64u) {
                    let x0: f32 = ld0(ib0 + red(j, io + nk) * 4u);
                    let v: f32 = x0;
                    let k: i64 = ld1(p[launch.words + xo] + (ex + red(j, xo + nk)) * 8u);
                    if (!ok || better(acc, idx, v, k)) {
                        acc = v;
                        idx = k;
                        ok = true;
                    }
                }
            }
            sh_a[t] = acc;
            sh_ok[t] = ok;
            sh_i[t] = idx;
        }
        workgroupBarrier();
        for (var s = 32u; s > 0u; s >>= 1u) {
            if (t < s) {
                let u: u32 = t + s;
                if (sh_ok[u] && (!sh_ok[t] || better(sh_a[t], sh_i[t], sh_a[u], sh_i[u]))) {
                    sh_a[t] = sh_a[u];
                    sh_i[t] = sh_i[u];
                    sh_ok[t] = true;
                }
            }
            workgroupBarrier();
        }
        let x1: i64 = sh_i[0];
        if (t == 0u) {
            let x0: f32 = sh_a[0];
            st2(p[launch.words + oo + 0u * (2u + nk)] + (eo0 + c * p[launch.words + oo + 0u * (2u + nk) + 1u + nk]) * 8u, x1);
        }
        workgroupBarrier();
    }
}
