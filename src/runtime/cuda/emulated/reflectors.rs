//! cuSOLVER's geqrf and ormqr (unmqr) computed on the CPU as LAPACK defines them: Householder
//! reflectors H_i = I - tau_i v_i v_i^H, v_i stored below the diagonal of column i (its
//! leading 1 not stored), computed in complex float64 and rounded once on the way back.

use super::solver::{Complex, Matrix, Operand};

/// geqrf: A = Q R with Q = H_0 ... H_{k-1} (k = min(m, n)), each H_i = I - tau_i v_i v_i^H
/// made as LAPACK's zlarfg makes it (beta = -sign(re alpha) |(alpha, x)|, real; tau = 0 where
/// there is nothing to reflect) and applied to the columns on its right as H_i^H. R ends on
/// and above a's diagonal, each v_i below it (its leading 1 not stored), tau_i in `tau`.
///
/// # Safety
/// `a` must hold an `m × n` matrix, `tau` min(m, n) elements of its type and `info` one
/// int32.
pub unsafe fn geqrf((m, n): (usize, usize), a: Operand, tau: usize, info: usize) {
    // SAFETY: per the contract.
    let mut x = unsafe { Matrix::read(a, m, n) };
    for k in 0..m.min(n) {
        let alpha = x.at(k, k);
        let norm = (k + 1..m)
            .map(|i| x.at(i, k))
            .map(|v| v.re * v.re + v.im * v.im)
            .sum::<f64>()
            .sqrt();
        let mut t = Complex::default();
        if norm != 0.0 || alpha.im != 0.0 {
            let length = alpha.re.hypot(alpha.im).hypot(norm);
            let beta = if alpha.re >= 0.0 { -length } else { length };
            t = Complex::new((beta - alpha.re) / beta, -alpha.im / beta);
            let scale = Complex::real(1.0) / (alpha - Complex::real(beta));
            for i in k + 1..m {
                x.set(i, k, x.at(i, k) * scale);
            }
            x.set(k, k, Complex::real(beta));
        }
        // SAFETY: per the contract.
        unsafe { a.element.write(tau, k, t) };
        // The reflector's vector: 1, then the entries below the diagonal.
        let v: Vec<Complex> = (k..m)
            .map(|i| {
                if i == k {
                    Complex::real(1.0)
                } else {
                    x.at(i, k)
                }
            })
            .collect();
        for j in k + 1..n {
            let w = (k..m).fold(Complex::default(), |sum, i| {
                sum + v[i - k].conj() * x.at(i, j)
            });
            let factor = t.conj() * w;
            for i in k..m {
                x.set(i, j, x.at(i, j) - v[i - k] * factor);
            }
        }
    }
    // SAFETY: per the contract.
    unsafe {
        x.write(|_, _| true);
        *(info as *mut i32) = 0;
    }
}

/// ormqr (unmqr), from the left: C = Q C, or Q^H C when `adjoint`, for Q = H_0 ... H_{k-1}
/// given as geqrf's reflectors (the `m × k` matrix `a`) and their factors `tau`.
///
/// # Safety
/// `a` must hold an `m × k` matrix, `tau` k elements of its type and `c` an `m × n` matrix.
pub unsafe fn ormqr(
    adjoint: bool,
    (m, n, k): (usize, usize, usize),
    a: Operand,
    tau: usize,
    c: Operand,
) {
    // SAFETY: per the contract.
    let (reflectors, mut x) = unsafe { (Matrix::read(a, m, k), Matrix::read(c, m, n)) };
    let order: Vec<usize> = if adjoint {
        (0..k).collect()
    } else {
        (0..k).rev().collect()
    };
    for i in order {
        // SAFETY: per the contract.
        let t = unsafe { a.element.read(tau, i) };
        let t = if adjoint { t.conj() } else { t };
        let v = |r: usize| {
            if r == i {
                Complex::real(1.0)
            } else {
                reflectors.at(r, i)
            }
        };
        for j in 0..n {
            let w = (i..m).fold(Complex::default(), |sum, r| sum + v(r).conj() * x.at(r, j));
            let factor = t * w;
            for r in i..m {
                x.set(r, j, x.at(r, j) - v(r) * factor);
            }
        }
    }
    // SAFETY: per the contract.
    unsafe { x.write(|_, _| true) };
}
