var<workgroup> sk: array<f32, 2048>;
var<workgroup> sv: array<f32, 2048>;
var<workgroup> dims_shared: array<u32, 14>;
fn main {
    if (t == 0u) { for (var k = 0u; k < 14u; k += 1u) { dims_shared[k] = p[launch.words + k]; } }
    let dims = workgroupUniformLoad(&dims_shared);
    for (var g = group; g < dims[13]; g += groups) {
        let c: u32 = dims[10];
        let tile: u32 = g % dims[12];
        let bh: u32 = g / dims[12];
        let b: u32 = bh / dims[1];
        let h: u32 = bh % dims[1];
        let hk: u32 = h / (dims[1] / dims[2]);
        let row: u32 = tile * 64u + t;
        let valid: bool = row < dims[3];
        let resume: bool = valid && c > 0u;
        var qv: array<f32, 256>;
        for (var d = 0u; d < dims[7]; d += 1u) {
            qv[d] = bitcast<f32>(0x0u);
            if (valid && d < dims[5]) {
                qv[d] = ld0(p[launch.words + 15u] + ((b) * p[launch.words + 16u] + (h) * p[launch.words + 17u] + (row) * p[launch.words + 18u] + (d) * p[launch.words + 19u]) * 2u);
            }
        }
        var ov: array<f32, 256>;
        for (var d = 0u; d < dims[7]; d += 1u) {
            ov[d] = bitcast<f32>(0x0u);
        }
        var s: array<f32, 64>;
        var m: f32 = bitcast<f32>(0xff800000u);
        var l: f32 = bitcast<f32>(0x0u);
        let r: u32 = bh * dims[3] + row;
        let base: u32 = r * (dims[7] + 2u);
        if (resume) {
            for (var d = 0u; d < dims[7]; d += 1u) {
                ov[d] = ld4(p[launch.words + 45u] + (base + d) * 4u);
            }
        }
        if (resume) {
            m = ld4(p[launch.words + 45u] + (base + dims[7]) * 4u);
            l = ld4(p[launch.words + 45u] + (base + dims[7] + 1u) * 4u);
        }
        let lo: u32 = c * dims[9] * dims[8];
        var hi: u32 = min(dims[4], lo + dims[9] * dims[8]);
        if (dims[11] != 0u) {
            hi = min(hi, tile * 64u + 64u);
        }
        for (var kb = lo; kb < hi; kb += dims[8]) {
            for (var e = t; e < dims[8] * dims[7]; e += 64u) {
                let sr: u32 = kb + e / dims[7];
                let sd: u32 = e % dims[7];
                {
                    var x: f32 = bitcast<f32>(0x0u);
                    if (sr < hi && sd < dims[5]) {
                        x = ld1(p[launch.words + 20u] + ((b) * p[launch.words + 21u] + (hk) * p[launch.words + 22u] + (sr) * p[launch.words + 23u] + (sd) * p[launch.words + 24u]) * 2u);
                    }
                    sk[e] = x;
                }
                {
                    var x: f32 = bitcast<f32>(0x0u);
                    if (sr < hi && sd < dims[6]) {
                        x = ld2(p[launch.words + 25u] + ((b) * p[launch.words + 26u] + (hk) * p[launch.words + 27u] + (sr) * p[launch.words + 28u] + (sd) * p[launch.words + 29u]) * 2u);
                    }
                    sv[e] = x;
                }
            }
            workgroupBarrier();
            var bm: f32 = bitcast<f32>(0xff800000u);
            for (var j = 0u; j < dims[8]; j += 1u) {
                var qk: f32 = bitcast<f32>(0x0u);
                for (var d = 0u; d < dims[7]; d += 8u) {
                    qk = qk + qv[0u + d + 0u] * sk[j * dims[7] + d + 0u];
                    qk = qk + qv[0u + d + 1u] * sk[j * dims[7] + d + 1u];
                    qk = qk + qv[0u + d + 2u] * sk[j * dims[7] + d + 2u];
                    qk = qk + qv[0u + d + 3u] * sk[j * dims[7] + d + 3u];
                    qk = qk + qv[0u + d + 4u] * sk[j * dims[7] + d + 4u];
                    qk = qk + qv[0u + d + 5u] * sk[j * dims[7] + d + 5u];
                    qk = qk + qv[0u + d + 6u] * sk[j * dims[7] + d + 6u];
                    qk = qk + qv[0u + d + 7u] * sk[j * dims[7] + d + 7u];
                }
                s[j] = select(bitcast<f32>(0xff800000u), qk * bitcast<f32>(p[launch.words + 14u]) + ld3(p[launch.words + 30u] + ((b) * p[launch.words + 31u] + (h) * p[launch.words + 32u] + (row) * p[launch.words + 33u] + (kb + j) * p[launch.words + 34u]) * 2u), valid && kb + j < hi && (dims[11] == 0u || kb + j <= row));
                bm = max(bm, s[j]);
            }
            let mn: f32 = max(m, bm);
            if (mn != bitcast<f32>(0xff800000u)) {
                let corr: f32 = exp(m - mn);
                l = l * corr;
                for (var d = 0u; d < dims[7]; d += 1u) {
                    ov[d] = ov[d] * corr;
                }
                for (var j = 0u; j < dims[8]; j += 1u) {
                    let pj: f32 = exp(s[j] - mn);
                    l = l + pj;
                    let wj: f32 = pj;
                    for (var d = 0u; d < dims[7]; d += 8u) {
                        ov[0u + d + 0u] = ov[0u + d + 0u] + wj * sv[j * dims[7] + d + 0u];
                        ov[0u + d + 1u] = ov[0u + d + 1u] + wj * sv[j * dims[7] + d + 1u];
                        ov[0u + d + 2u] = ov[0u + d + 2u] + wj * sv[j * dims[7] + d + 2u];
                        ov[0u + d + 3u] = ov[0u + d + 3u] + wj * sv[j * dims[7] + d + 3u];
                        ov[0u + d + 4u] = ov[0u + d + 4u] + wj * sv[j * dims[7] + d + 4u];
                        ov[0u + d + 5u] = ov[0u + d + 5u] + wj * sv[j * dims[7] + d + 5u];
                        ov[0u + d + 6u] = ov[0u + d + 6u] + wj * sv[j * dims[7] + d + 6u];
                        ov[0u + d + 7u] = ov[0u + d + 7u] + wj * sv[j * dims[7] + d + 7u];
                    }
                }
                m = mn;
            }
            workgroupBarrier();
        }
        if (valid) {
            for (var d = 0u; d < dims[7]; d += 1u) {
                st4(p[launch.words + 45u] + (base + d) * 4u, ov[d]);
            }
            st4(p[launch.words + 45u] + (base + dims[7]) * 4u, m);
            st4(p[launch.words + 45u] + (base + dims[7] + 1u) * 4u, l);
        }
    }
}
