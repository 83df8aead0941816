//! cuSOLVER's geev computed on the CPU: the eigenvalues and right eigenvectors of a general
//! matrix, in complex float64, by LAPACK's route without its balancing (so the eigenvalues
//! may come in another order than LAPACK's, as geev promises none): reduction to
//! Hessenberg form by Householder reflections, the shifted QR algorithm (Wilkinson shifts,
//! an exceptional shift every 10 iterations without deflation) to a Schur form T = Z^H A Z,
//! and back substitution for T's eigenvectors, taken back by Z and normalized to unit
//! length with their largest entry real. A real matrix's eigenvalues come back as LAPACK's
//! real routines give them: real ones with no imaginary part, complex conjugate pairs
//! adjacent with the positive imaginary part first, the eigenvectors of a pair packed as
//! its first vector's real and imaginary parts in two real columns.

use super::solver::{identity, Complex, Element, Matrix, Operand};

/// QR iterations allowed per eigenvalue before `info` reports a failure (LAPACK's 30).
const ITERATIONS: usize = 30;

/// Reduces `h` to upper Hessenberg form by Householder reflections, accumulated into `z`.
fn hessenberg(h: &mut Matrix, z: &mut Matrix) {
    let n = h.rows;
    for k in 0..n.saturating_sub(2) {
        let norm = (k + 1..n)
            .map(|i| h.at(i, k).abs().powi(2))
            .sum::<f64>()
            .sqrt();
        if norm == 0.0 {
            continue;
        }
        let alpha = h.at(k + 1, k);
        let phase = if alpha.abs() == 0.0 {
            Complex::real(1.0)
        } else {
            alpha / Complex::real(alpha.abs())
        };
        // v = x + phase |x| e_1, reflecting x onto -phase |x| e_1.
        let mut v: Vec<Complex> = (k + 1..n).map(|i| h.at(i, k)).collect();
        v[0] = v[0] + phase * Complex::real(norm);
        let vv = v.iter().map(|x| x.abs().powi(2)).sum::<f64>();
        let two = Complex::real(2.0 / vv);
        // H <- P H P with P = I - 2 v v^H / (v^H v), on rows and columns k+1..n.
        for j in 0..n {
            let w = (0..v.len()).fold(Complex::default(), |s, r| {
                s + v[r].conj() * h.at(k + 1 + r, j)
            });
            for (r, &vr) in v.iter().enumerate() {
                h.set(k + 1 + r, j, h.at(k + 1 + r, j) - two * vr * w);
            }
        }
        for m in [&mut *h, &mut *z] {
            for i in 0..n {
                let w = (0..v.len()).fold(Complex::default(), |s, r| s + m.at(i, k + 1 + r) * v[r]);
                for (r, &vr) in v.iter().enumerate() {
                    m.set(i, k + 1 + r, m.at(i, k + 1 + r) - two * w * vr.conj());
                }
            }
        }
        for i in k + 2..n {
            h.set(i, k, Complex::default());
        }
    }
}

/// The eigenvalue of the 2x2 block of `h` at `k - 1, k` nearer its last diagonal entry.
fn wilkinson_shift(h: &Matrix, k: usize) -> Complex {
    let (a, b, c, d) = (
        h.at(k - 1, k - 1),
        h.at(k - 1, k),
        h.at(k, k - 1),
        h.at(k, k),
    );
    let half = (a - d) * Complex::real(0.5);
    let root = (half * half + b * c).sqrt();
    let mean = (a + d) * Complex::real(0.5);
    let (first, second) = (mean + root, mean - root);
    if (first - d).abs() <= (second - d).abs() {
        first
    } else {
        second
    }
}

/// Applies the rotation taking (x, y) to (r, 0) to rows `k`, `k + 1` of `h` and, as its
/// adjoint, to those columns of `h` and `z`.
fn rotate(h: &mut Matrix, z: &mut Matrix, k: usize, (x, y): (Complex, Complex)) {
    let n = h.rows;
    let r = x.abs().hypot(y.abs());
    if r == 0.0 {
        return;
    }
    let (c, s) = if x.abs() == 0.0 {
        (0.0, Complex::real(1.0))
    } else {
        let unit = x / Complex::real(x.abs());
        (x.abs() / r, unit * y.conj() / Complex::real(r))
    };
    let c = Complex::real(c);
    for j in 0..n {
        let (p, q) = (h.at(k, j), h.at(k + 1, j));
        h.set(k, j, c * p + s * q);
        h.set(k + 1, j, c * q - s.conj() * p);
    }
    for m in [&mut *h, &mut *z] {
        for i in 0..n {
            let (p, q) = (m.at(i, k), m.at(i, k + 1));
            m.set(i, k, c * p + s.conj() * q);
            m.set(i, k + 1, c * q - s * p);
        }
    }
}

/// Runs the shifted QR algorithm on the Hessenberg `h` until it is upper triangular (the
/// Schur form), accumulating the rotations into `z`; the 1-based position of the first
/// eigenvalue that did not converge, or 0.
fn schur(h: &mut Matrix, z: &mut Matrix) -> i32 {
    let n = h.rows;
    let mut hi = n.saturating_sub(1);
    let mut iterations = 0;
    while hi > 0 {
        let mut lo = hi;
        while lo > 0 {
            let scale = h.at(lo - 1, lo - 1).magnitude() + h.at(lo, lo).magnitude();
            if h.at(lo, lo - 1).magnitude() <= f64::EPSILON * scale {
                h.set(lo, lo - 1, Complex::default());
                break;
            }
            lo -= 1;
        }
        if lo == hi {
            hi -= 1;
            iterations = 0;
            continue;
        }
        iterations += 1;
        if iterations > ITERATIONS * n.max(10) {
            return hi as i32 + 1;
        }
        let shift = if iterations % 10 == 0 {
            h.at(hi, hi) + Complex::real(0.75 * h.at(hi, hi - 1).abs())
        } else {
            wilkinson_shift(h, hi)
        };
        let (mut x, mut y) = (h.at(lo, lo) - shift, h.at(lo + 1, lo));
        for k in lo..hi {
            rotate(h, z, k, (x, y));
            if k + 1 < hi {
                (x, y) = (h.at(k + 1, k), h.at(k + 2, k));
            }
        }
    }
    0
}

/// The eigenvectors of the upper triangular `t` (columns, before normalization): x_k has
/// x_k[k] = 1, zeros below, and is solved upwards; a difference of eigenvalues below
/// `small` is replaced by it, as LAPACK's trevc does.
fn triangular_vectors(t: &Matrix) -> Matrix {
    let n = t.rows;
    let norm = t.values.iter().map(|x| x.magnitude()).fold(0.0, f64::max);
    let small = (f64::EPSILON * norm).max(f64::MIN_POSITIVE);
    let mut x = identity(n, t.element);
    for k in 0..n {
        let lambda = t.at(k, k);
        for j in (0..k).rev() {
            let sum = (j + 1..=k).fold(Complex::default(), |s, l| s + t.at(j, l) * x.at(l, k));
            let mut d = t.at(j, j) - lambda;
            if d.magnitude() < small {
                d = Complex::real(small);
            }
            x.set(j, k, Complex::default() - sum / d);
        }
    }
    x
}

/// `v` scaled to unit length with its largest entry (the first of equals) real and
/// positive, its imaginary part exactly 0 as geev leaves it.
fn normalized(v: Vec<Complex>) -> Vec<Complex> {
    let length = v.iter().map(|x| x.abs().powi(2)).sum::<f64>().sqrt();
    let top = (0..v.len()).fold(0, |m, i| if v[i].abs() > v[m].abs() { i } else { m });
    let Some(&largest) = v.get(top) else {
        return v;
    };
    if length == 0.0 || largest.abs() == 0.0 {
        return v;
    }
    let scale = largest.conj() / Complex::real(largest.abs() * length);
    let mut v: Vec<Complex> = v.into_iter().map(|x| x * scale).collect();
    v[top].im = 0.0;
    v
}

/// geev: the eigenvalues of the `n × n` matrix `a` into `w`, with `vr` (unless 0) its right
/// eigenvectors as columns (leading dimension `ldvr`), and `info`, the first eigenvalue
/// that did not converge (1-based) or 0. `a` is left as it was. For a real `a`, `w` holds
/// 2 n reals (real parts, then imaginary parts) and `vr` real columns as `dgeev` packs them.
///
/// # Safety
/// `a` must hold an `n × n` matrix, `w` n elements of its type (2 n real ones when real),
/// `vr` (unless 0) n columns `ldvr` apart and `info` one int32.
pub unsafe fn geev(n: usize, a: Operand, w: usize, (vr, ldvr): (usize, usize), info: usize) {
    // SAFETY: per the contract.
    let mut h = unsafe { Matrix::read(a, n, n) };
    let mut z = identity(n, a.element);
    hessenberg(&mut h, &mut z);
    let failed = schur(&mut h, &mut z);
    let values: Vec<Complex> = (0..n).map(|k| h.at(k, k)).collect();
    let vectors: Vec<Vec<Complex>> = if vr != 0 && failed == 0 {
        let x = triangular_vectors(&h);
        (0..n)
            .map(|k| {
                let column = (0..n)
                    .map(|i| (0..n).fold(Complex::default(), |s, l| s + z.at(i, l) * x.at(l, k)));
                normalized(column.collect())
            })
            .collect()
    } else {
        Vec::new()
    };
    let real = matches!(a.element, Element::F32 | Element::F64);
    // SAFETY: per the contract.
    unsafe {
        if real {
            write_real(n, a.element, &values, &vectors, w, (vr, ldvr));
        } else {
            for (k, &value) in values.iter().enumerate() {
                a.element.write(w, k, value);
            }
            for (k, column) in vectors.iter().enumerate() {
                for (i, &x) in column.iter().enumerate() {
                    a.element.write(vr, i + k * ldvr, x);
                }
            }
        }
        *(info as *mut i32) = failed;
    }
}

/// Writes a real matrix's eigenvalues and eigenvectors as the real `dgeev` does: an
/// eigenvalue whose imaginary part is rounding noise is real, with a real eigenvector; the
/// others pair with their nearest conjugate, the one with the positive imaginary part
/// first, and the pair's eigenvector is stored as its real and imaginary parts.
///
/// # Safety
/// As for `geev` with a real element type.
unsafe fn write_real(
    n: usize,
    element: Element,
    values: &[Complex],
    vectors: &[Vec<Complex>],
    w: usize,
    (vr, ldvr): (usize, usize),
) {
    let scale = values.iter().map(|x| x.abs()).fold(1.0, f64::max);
    let noise = 64.0 * n as f64 * f64::EPSILON * scale;
    let mut used = vec![false; n];
    // (eigenvalue, index of its vector, part): part 0 real, 1 a pair's first, 2 its second.
    let mut order: Vec<(Complex, usize, u8)> = Vec::with_capacity(n);
    for k in 0..n {
        if used[k] {
            continue;
        }
        used[k] = true;
        let value = values[k];
        let partner = (value.im.abs() > noise)
            .then(|| {
                (0..n)
                    .filter(|&j| !used[j] && values[j].im * value.im < 0.0)
                    .min_by(|&i, &j| {
                        let d = |x: usize| (values[x] - value.conj()).abs();
                        d(i).total_cmp(&d(j))
                    })
            })
            .flatten();
        match partner {
            Some(j) => {
                used[j] = true;
                let first = if value.im > 0.0 { k } else { j };
                let re = (value.re + values[j].re) / 2.0;
                let im = (value.im.abs() + values[j].im.abs()) / 2.0;
                order.push((Complex::new(re, im), first, 1));
                order.push((Complex::new(re, -im), first, 2));
            }
            None => order.push((Complex::real(value.re), k, 0)),
        }
    }
    for (slot, &(value, k, part)) in order.iter().enumerate() {
        // SAFETY: per the contract.
        unsafe {
            element.write(w, slot, Complex::real(value.re));
            element.write(w, n + slot, Complex::real(value.im));
        }
        let Some(vector) = vectors.get(k) else {
            continue;
        };
        // A real eigenvalue's vector made real: normalized() left its largest entry real.
        let vector = if part == 0 {
            normalized(vector.iter().map(|x| Complex::real(x.re)).collect())
        } else {
            vector.clone()
        };
        for (i, x) in vector.iter().enumerate() {
            let entry = if part == 2 { x.im } else { x.re };
            // SAFETY: per the contract.
            unsafe { element.write(vr, i + slot * ldvr, Complex::real(entry)) };
        }
    }
}
