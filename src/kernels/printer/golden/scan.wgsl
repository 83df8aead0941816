fn main {
    let n: u32 = p[launch.words + 0u];
    let len: u32 = p[launch.words + 1u];
    let nk: u32 = p[launch.words + 2u];
    let chunk: u32 = p[launch.words + 3u];
    let n_chunks: u32 = p[launch.words + 4u];
    let io: u32 = 5u + nk;
    let oo: u32 = io + 2u + nk;
    for (var i = group * 64u + t; i < n * n_chunks; i += groups * 64u) {
        let c: u32 = i % n_chunks;
        var r: u32 = i / n_chunks;
        var ein: u32 = 0u;
        var eout: u32 = 0u;
        for (var d = nk; d > 0u; d -= 1u) {
            let size: u32 = p[launch.words + 4u + d];
            let cd: u32 = r % size;
            r = r / size;
            ein += cd * p[launch.words + io + d];
            eout += cd * p[launch.words + oo + d];
        }
        var x0: f32 = bitcast<f32>(0x0u);
        if (c > 0u) {
            x0 = ld1(p[launch.words + oo + 2u + nk] + (i - 1u) * 4u);
        }
        let ib: u32 = p[launch.words + io] + ein * 4u;
        let istep: u32 = p[launch.words + io + 1u + nk] * 4u;
        let ob: u32 = p[launch.words + oo] + eout * 4u;
        let ostep: u32 = p[launch.words + oo + 1u + nk] * 4u;
        let hi: u32 = min(len, c * chunk + chunk);
        var j: u32 = c * chunk;
        if (istep == 4u && ostep == 4u && ((ib + j * 4u) & 15u) == 0u && ((ob + j * 4u) & 15u) == 0u) {
            while (j + 4u <= hi) {
                let v = bitcast<vec4<f32>>(b0[(ib + j * 4u) >> 4u]);
                var r0: f32 = bitcast<f32>(0x0u);
                var r1: f32 = bitcast<f32>(0x0u);
                var r2: f32 = bitcast<f32>(0x0u);
                var r3: f32 = bitcast<f32>(0x0u);
                {
                    let x1: f32 = v[0];
                    x0 = (x0 + x1);
                    r0 = x0;
                }
                {
                    let x1: f32 = v[1];
                    x0 = (x0 + x1);
                    r1 = x0;
                }
                {
                    let x1: f32 = v[2];
                    x0 = (x0 + x1);
                    r2 = x0;
                }
                {
                    let x1: f32 = v[3];
                    x0 = (x0 + x1);
                    r3 = x0;
                }
                b2[(ob + j * 4u) >> 4u] = bitcast<vec4<u32>>(vec4<f32>(r0, r1, r2, r3));
                j += 4u;
            }
        }
        while (j < hi) {
            let x1: f32 = ld0(ib + j * istep);
            x0 = (x0 + x1);
            st2(ob + j * ostep, x0);
            j += 1u;
        }
    }
}
