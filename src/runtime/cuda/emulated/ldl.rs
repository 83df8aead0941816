//! cuSOLVER's sytrf and sytrs (lower) computed on the CPU as LAPACK's unblocked `?sytf2` and
//! `?sytrs` define them: A = L D L^T of a symmetric (not Hermitian) matrix, D of 1x1 and 2x2
//! blocks chosen by Bunch and Kaufman's pivoting, 1-based pivots negative for 2x2 blocks.
//! Complex float64 arithmetic, rounded once on the way back.

use super::solver::{Complex, Matrix, Operand};

/// Bunch and Kaufman's constant, (1 + sqrt(17)) / 8.
const ALPHA: f64 = 0.640_388_203_202_208_4;

/// The first position of the largest of `values` and that value (`i?amax`; 0 when empty).
fn first_max(values: impl Iterator<Item = (usize, f64)>) -> (usize, f64) {
    values.fold(
        (0, 0.0),
        |(at, best), (i, v)| {
            if v > best {
                (i, v)
            } else {
                (at, best)
            }
        },
    )
}

/// Swaps rows and columns `p` and `q` of the trailing matrix from `k` of the whole symmetric
/// `s`.
fn swap(s: &mut Matrix, k: usize, p: usize, q: usize) {
    let n = s.rows;
    for j in k..n {
        let (x, y) = (s.at(p, j), s.at(q, j));
        s.set(p, j, y);
        s.set(q, j, x);
    }
    for i in k..n {
        let (x, y) = (s.at(i, p), s.at(i, q));
        s.set(i, p, y);
        s.set(i, q, x);
    }
}

/// sytrf (lower): L and D in place of the lower triangle of the `n × n` matrix `a` (its
/// upper triangle untouched), the int32 pivots and `info`, the first exactly zero pivot's
/// column (1-based).
///
/// # Safety
/// `a` must hold an `n × n` matrix, `pivots` n int32 and `info` one int32.
pub unsafe fn sytrf(n: usize, a: Operand, pivots: usize, info: usize) {
    // SAFETY: per the contract.
    let mut s = unsafe { Matrix::read(a, n, n) };
    for j in 0..n {
        for i in 0..j {
            s.set(i, j, s.at(j, i));
        }
    }
    let mut found = vec![0i32; n];
    let mut first_zero = 0;
    let mut k = 0;
    while k < n {
        let absakk = s.at(k, k).magnitude();
        let (imax, colmax) = first_max((k + 1..n).map(|i| (i, s.at(i, k).magnitude())));
        if absakk.max(colmax) == 0.0 || absakk.is_nan() {
            if first_zero == 0 {
                first_zero = k as i32 + 1;
            }
            found[k] = k as i32 + 1;
            k += 1;
            continue;
        }
        let (mut kp, mut kstep) = (k, 1);
        if absakk < ALPHA * colmax {
            let row = (k..n).filter(|&j| j != imax);
            let (_, rowmax) = first_max(row.map(|j| (j, s.at(imax, j).magnitude())));
            if absakk >= ALPHA * colmax * (colmax / rowmax) {
                kp = k;
            } else if s.at(imax, imax).magnitude() >= ALPHA * rowmax {
                kp = imax;
            } else {
                (kp, kstep) = (imax, 2);
            }
        }
        let kk = k + kstep - 1;
        if kp != kk {
            swap(&mut s, k, kk, kp);
        }
        if kstep == 1 {
            let r1 = Complex::real(1.0) / s.at(k, k);
            let x: Vec<Complex> = (k + 1..n).map(|i| s.at(i, k)).collect();
            for (jj, &xj) in x.iter().enumerate() {
                for (ii, &xi) in x.iter().enumerate() {
                    let (i, j) = (k + 1 + ii, k + 1 + jj);
                    s.set(i, j, s.at(i, j) - xi * r1 * xj);
                }
            }
            for (ii, &xi) in x.iter().enumerate() {
                s.set(k + 1 + ii, k, r1 * xi);
            }
            found[k] = kp as i32 + 1;
        } else {
            let d21 = s.at(k + 1, k);
            let d11 = s.at(k + 1, k + 1) / d21;
            let d22 = s.at(k, k) / d21;
            let scale = Complex::real(1.0) / (d11 * d22 - Complex::real(1.0)) / d21;
            let x: Vec<(Complex, Complex)> =
                (k + 2..n).map(|i| (s.at(i, k), s.at(i, k + 1))).collect();
            let w: Vec<(Complex, Complex)> = x
                .iter()
                .map(|&(x0, x1)| (scale * (d11 * x0 - x1), scale * (d22 * x1 - x0)))
                .collect();
            for (jj, &(wk, wkp1)) in w.iter().enumerate() {
                for (ii, &(x0, x1)) in x.iter().enumerate() {
                    let (i, j) = (k + 2 + ii, k + 2 + jj);
                    s.set(i, j, s.at(i, j) - (x0 * wk + x1 * wkp1));
                }
            }
            for (ii, &(wk, wkp1)) in w.iter().enumerate() {
                s.set(k + 2 + ii, k, wk);
                s.set(k + 2 + ii, k + 1, wkp1);
            }
            found[k] = -(kp as i32 + 1);
            found[k + 1] = found[k];
        }
        k += kstep;
    }
    // SAFETY: per the contract.
    unsafe {
        s.write(|i, j| i >= j);
        for (k, &p) in found.iter().enumerate() {
            *(pivots as *mut i32).add(k) = p;
        }
        *(info as *mut i32) = first_zero;
    }
}

/// sytrs (lower): solves A X = B in place of the `n × nrhs` matrix `b` from sytrf's factors
/// `a` and its pivots (as int64); a pivot out of range exchanges nothing.
///
/// # Safety
/// `a` must hold an `n × n` matrix, `pivots` n int64 and `b` an `n × nrhs` matrix.
pub unsafe fn sytrs(n: usize, nrhs: usize, a: Operand, pivots: usize, b: Operand) {
    // SAFETY: per the contract.
    let (l, mut x) = unsafe { (Matrix::read(a, n, n), Matrix::read(b, n, nrhs)) };
    // SAFETY: per the contract.
    let pivot = |k: usize| unsafe { *(pivots as *const i64).add(k) };
    let row = |p: i64, k: usize| match p.unsigned_abs() {
        q if (1..=n as u64).contains(&q) => q as usize - 1,
        _ => k,
    };
    // Row `i` of x less the column-`j` multiples of `l` times row `k` of x, from row `from`.
    let eliminate = |x: &mut Matrix, k: usize, j: usize, from: usize| {
        for i in from..n {
            for c in 0..nrhs {
                x.set(i, c, x.at(i, c) - l.at(i, j) * x.at(k, c));
            }
        }
    };
    // Row k of x less the dot products of column j of l (below `from`) with x's rows.
    let dot_out = |x: &mut Matrix, k: usize, j: usize, from: usize| {
        for c in 0..nrhs {
            let sum = (from..n).fold(Complex::default(), |s, i| s + l.at(i, j) * x.at(i, c));
            x.set(k, c, x.at(k, c) - sum);
        }
    };
    // L D Y = B.
    let mut k = 0;
    while k < n {
        let p = pivot(k);
        if p > 0 {
            x.swap_rows(k, row(p, k));
            eliminate(&mut x, k, k, k + 1);
            for c in 0..nrhs {
                x.set(k, c, x.at(k, c) / l.at(k, k));
            }
            k += 1;
        } else if k + 1 < n {
            x.swap_rows(k + 1, row(p, k + 1));
            eliminate(&mut x, k, k, k + 2);
            eliminate(&mut x, k + 1, k + 1, k + 2);
            let akm1k = l.at(k + 1, k);
            let akm1 = l.at(k, k) / akm1k;
            let ak = l.at(k + 1, k + 1) / akm1k;
            let denom = akm1 * ak - Complex::real(1.0);
            for c in 0..nrhs {
                let (bkm1, bk) = (x.at(k, c) / akm1k, x.at(k + 1, c) / akm1k);
                x.set(k, c, (ak * bkm1 - bk) / denom);
                x.set(k + 1, c, (akm1 * bk - bkm1) / denom);
            }
            k += 2;
        } else {
            k += 1;
        }
    }
    // L^T X = Y.
    let mut k = n;
    while k > 0 {
        let top = k - 1;
        let p = pivot(top);
        if p > 0 || top == 0 {
            dot_out(&mut x, top, top, k);
            x.swap_rows(top, row(p, top));
            k -= 1;
        } else {
            dot_out(&mut x, top, top, k);
            dot_out(&mut x, top - 1, top - 1, k);
            x.swap_rows(top, row(p, top));
            k -= 2;
        }
    }
    // SAFETY: per the contract.
    unsafe { x.write(|_, _| true) };
}
