fn main {
    let n: u32 = p[launch.words + 0u];
    let threads: u32 = p[launch.words + 1u];
    let nd: u32 = p[launch.words + 6u];
    let s0: f32 = bitcast<f32>(p[launch.words + 7u + nd + 1u * (1u + nd) + 0u]);
    let s1: f32 = bitcast<f32>(p[launch.words + 7u + nd + 1u * (1u + nd) + 1u]);
    var inner: u32 = 1u;
    var middle: u32 = 1u;
    var sp0: u32 = 0u;
    var sa0: u32 = 0u;
    var sb0: u32 = 0u;
    let o0: u32 = p[launch.words + 7u + nd + 0u * (1u + nd)];
    if (nd == 1u) {
        sb0 = p[launch.words + 7u + nd + 0u * 2u + 1u];
    } else if (nd == 2u) {
        inner = p[launch.words + 6u + 2u];
        sp0 = p[launch.words + 7u + nd + 0u * 3u + 1u];
        sb0 = p[launch.words + 7u + nd + 0u * 3u + 2u];
    } else if (nd == 3u) {
        middle = p[launch.words + 6u + 2u];
        inner = p[launch.words + 6u + 3u];
        sp0 = p[launch.words + 7u + nd + 0u * 4u + 1u];
        sa0 = p[launch.words + 7u + nd + 0u * 4u + 2u];
        sb0 = p[launch.words + 7u + nd + 0u * 4u + 3u];
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
        if (nd == 1u) {
            e0 = i * sb0;
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
        } else {
            var r: u32 = i;
            for (var d = nd; d > 0u; d -= 1u) {
                let c: u32 = r % p[launch.words + 6u + d];
                r = r / p[launch.words + 6u + d];
                e0 += c * p[launch.words + 7u + nd + 0u * (1u + nd) + d];
            }
        }
        let a0: u32 = o0 + e0 * 4u;
        let sub: u32 = i % threads;
        let q: u32 = i / threads;
        let kb: u32 = q / 4u;
        let c: u32 = q % 4u;
        var x: array<u32, 4>;
        {
            let lo: u32 = p[launch.words + 4u] + kb;
            var c0: u32 = lo;
            var c1: u32 = p[launch.words + 5u] + select(0u, 1u, lo < kb);
            var c2: u32 = sub;
            var c3: u32 = 0u;
            var k0: u32 = p[launch.words + 2u];
            var k1: u32 = p[launch.words + 3u];
            for (var round = 0u; round < 10u; round += 1u) {
                let hi0: u32 = mulhi(0xD2511F53u, c0);
                let lo0: u32 = 0xD2511F53u * c0;
                let hi1: u32 = mulhi(0xCD9E8D57u, c2);
                let lo1: u32 = 0xCD9E8D57u * c2;
                c0 = hi1 ^ c1 ^ k0;
                c1 = lo1;
                c2 = hi0 ^ c3 ^ k1;
                c3 = lo0;
                k0 += 0x9E3779B9u;
                k1 += 0xBB67AE85u;
            }
            x[0] = c0;
            x[1] = c1;
            x[2] = c2;
            x[3] = c3;
        }
        let pr: u32 = c / 2u;
        let u: f32 = f32(x[2u * pr]) * 2.3283064e-10f + 1.1641532e-10f;
        let w: f32 = f32(x[2u * pr + 1u]) * 1.4629181e-9f + 7.3145906e-10f;
        let radius: f32 = sqrt(-2.0f * log(u));
        let z: f32 = select(cos(w), sin(w), c % 2u == 0u) * radius;
        st0(a0, fma32(z, s1, s0));
    }
}
