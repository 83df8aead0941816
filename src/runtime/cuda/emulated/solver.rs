//! cuSOLVER's getrf, getrs, potrf, potrs, syevd and gesvd, and cuBLAS's trsm, computed on the
//! CPU as LAPACK and the BLAS define them (geqrf and ormqr in `reflectors.rs`, sytrf and
//! sytrs in `ldl.rs`):
//! column-major matrices with a leading dimension, 1-based int64 pivots, `info` as LAPACK
//! reports it. Every element type (real or complex, single or double) computes in complex
//! float64 and rounds once on the way back.

use std::ops::{Add, Div, Mul, Sub};

use cudarc::cusolver::sys::{cublasOperation_t, cudaDataType, cusolverStatus_t};

/// A stored element type cuSOLVER reads and writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Element {
    F32,
    F64,
    C32,
    C64,
}

impl Element {
    pub fn of(data_type: cudaDataType) -> Option<Element> {
        Element::of_code(data_type as u32)
    }

    pub fn of_blas(data_type: cudarc::cublas::sys::cudaDataType) -> Option<Element> {
        Element::of_code(data_type as u32)
    }

    /// The element of CUDA's `cudaDataType` code `code` (cuSOLVER's and cuBLAS's enums).
    fn of_code(code: u32) -> Option<Element> {
        Some(match code {
            0 => Element::F32,
            1 => Element::F64,
            4 => Element::C32,
            5 => Element::C64,
            _ => return None,
        })
    }

    /// Whether the value at `address` is one.
    ///
    /// # Safety
    /// `address` must hold a value of this type.
    pub unsafe fn is_one(self, address: usize) -> bool {
        // SAFETY: per the contract.
        unsafe { self.read(address, 0) == Complex::real(1.0) }
    }

    /// The element at `index` of `base`.
    ///
    /// # Safety
    /// `base` must address an array of this type holding `index`.
    pub(super) unsafe fn read(self, base: usize, index: usize) -> Complex {
        // SAFETY: per the contract.
        unsafe {
            match self {
                Element::F32 => Complex::real(f64::from(*(base as *const f32).add(index))),
                Element::F64 => Complex::real(*(base as *const f64).add(index)),
                Element::C32 => {
                    let at = (base as *const f32).add(2 * index);
                    Complex::new(f64::from(*at), f64::from(*at.add(1)))
                }
                Element::C64 => {
                    let at = (base as *const f64).add(2 * index);
                    Complex::new(*at, *at.add(1))
                }
            }
        }
    }

    /// # Safety
    /// As for `read`, writable.
    pub(super) unsafe fn write(self, base: usize, index: usize, value: Complex) {
        // SAFETY: per the contract.
        unsafe {
            match self {
                Element::F32 => *(base as *mut f32).add(index) = value.re as f32,
                Element::F64 => *(base as *mut f64).add(index) = value.re,
                Element::C32 => {
                    let at = (base as *mut f32).add(2 * index);
                    *at = value.re as f32;
                    *at.add(1) = value.im as f32;
                }
                Element::C64 => {
                    let at = (base as *mut f64).add(2 * index);
                    *at = value.re;
                    *at.add(1) = value.im;
                }
            }
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Complex {
    pub(super) re: f64,
    pub(super) im: f64,
}

impl Complex {
    pub(super) fn new(re: f64, im: f64) -> Self {
        Complex { re, im }
    }
    pub(super) fn real(re: f64) -> Self {
        Complex { re, im: 0.0 }
    }
    pub(super) fn conj(self) -> Self {
        Complex::new(self.re, -self.im)
    }
    /// LAPACK's pivoting magnitude: |re| + |im|.
    pub(super) fn magnitude(self) -> f64 {
        self.re.abs() + self.im.abs()
    }
    pub(super) fn abs(self) -> f64 {
        self.re.hypot(self.im)
    }
    /// The square root with a non-negative real part.
    pub(super) fn sqrt(self) -> Self {
        let r = self.abs();
        let re = ((r + self.re) / 2.0).max(0.0).sqrt();
        let im = ((r - self.re) / 2.0).max(0.0).sqrt();
        Complex::new(re, if self.im < 0.0 { -im } else { im })
    }
}

impl Add for Complex {
    type Output = Complex;
    fn add(self, o: Complex) -> Complex {
        Complex::new(self.re + o.re, self.im + o.im)
    }
}

impl Sub for Complex {
    type Output = Complex;
    fn sub(self, o: Complex) -> Complex {
        Complex::new(self.re - o.re, self.im - o.im)
    }
}

impl Mul for Complex {
    type Output = Complex;
    fn mul(self, o: Complex) -> Complex {
        Complex::new(
            self.re * o.re - self.im * o.im,
            self.re * o.im + self.im * o.re,
        )
    }
}

impl Div for Complex {
    type Output = Complex;
    fn div(self, o: Complex) -> Complex {
        if o.im == 0.0 {
            return Complex::new(self.re / o.re, self.im / o.re);
        }
        let d = o.re * o.re + o.im * o.im;
        Complex::new(
            (self.re * o.re + self.im * o.im) / d,
            (self.im * o.re - self.re * o.im) / d,
        )
    }
}

/// Whether `data_type` is the real type of `element`'s precision (eigenvalues, singular
/// values).
pub fn holds_reals_of(data_type: cudaDataType, element: Element) -> bool {
    matches!(
        (Element::of(data_type), element),
        (Some(Element::F32), Element::F32 | Element::C32)
            | (Some(Element::F64), Element::F64 | Element::C64)
    )
}

/// A column-major `rows × cols` matrix read from device memory, written back the same way.
pub(super) struct Matrix {
    pub(super) element: Element,
    base: usize,
    ld: usize,
    pub(super) rows: usize,
    cols: usize,
    pub(super) values: Vec<Complex>,
}

impl Matrix {
    /// # Safety
    /// `at` must address `cols` columns of its leading dimension apart, each holding `rows`
    /// elements.
    pub(super) unsafe fn read(at: Operand, rows: usize, cols: usize) -> Self {
        let Operand { element, base, ld } = at;
        let mut values = Vec::with_capacity(rows * cols);
        for j in 0..cols {
            for i in 0..rows {
                // SAFETY: per the contract.
                values.push(unsafe { element.read(base, i + j * ld) });
            }
        }
        Matrix {
            element,
            base,
            ld,
            rows,
            cols,
            values,
        }
    }

    pub(super) fn at(&self, i: usize, j: usize) -> Complex {
        self.values[i + j * self.rows]
    }

    pub(super) fn set(&mut self, i: usize, j: usize, value: Complex) {
        self.values[i + j * self.rows] = value;
    }

    pub(super) fn swap_rows(&mut self, i: usize, k: usize) {
        for j in 0..self.cols {
            self.values.swap(i + j * self.rows, k + j * self.rows);
        }
    }

    /// Writes the entries `keep(i, j)` selects back where they were read.
    ///
    /// # Safety
    /// As for `read`, writable.
    pub(super) unsafe fn write(&self, keep: impl Fn(usize, usize) -> bool) {
        for j in 0..self.cols {
            for i in (0..self.rows).filter(|&i| keep(i, j)) {
                // SAFETY: per the contract.
                unsafe {
                    self.element
                        .write(self.base, i + j * self.ld, self.at(i, j))
                };
            }
        }
    }
}

/// Addresses as plain numbers, so that a queued call may carry them to the stream's thread.
#[derive(Clone, Copy)]
pub struct Operand {
    pub element: Element,
    pub base: usize,
    pub ld: usize,
}

/// Reports that a call needs no workspace.
///
/// # Safety
/// Both pointers must be valid for writes.
pub unsafe fn no_workspace(device: *mut usize, host: *mut usize) -> cusolverStatus_t {
    // SAFETY: per the contract.
    unsafe {
        *device = 0;
        *host = 0;
    }
    cusolverStatus_t::CUSOLVER_STATUS_SUCCESS
}

/// An array of 1-based pivots at an address: int64 (cuSOLVER's) or int32 (cuBLAS's), or none
/// (address 0).
#[derive(Clone, Copy)]
pub enum Pivots {
    I64(usize),
    I32(usize),
}

impl Pivots {
    fn address(self) -> usize {
        match self {
            Pivots::I64(at) | Pivots::I32(at) => at,
        }
    }

    /// # Safety
    /// The array must hold `k + 1` pivots.
    unsafe fn get(self, k: usize) -> i64 {
        // SAFETY: per the contract.
        unsafe {
            match self {
                Pivots::I64(at) => *(at as *const i64).add(k),
                Pivots::I32(at) => i64::from(*(at as *const i32).add(k)),
            }
        }
    }

    /// # Safety
    /// The array must hold `k + 1` writable pivots.
    unsafe fn set(self, k: usize, value: i64) {
        // SAFETY: per the contract.
        unsafe {
            match self {
                Pivots::I64(at) => *(at as *mut i64).add(k) = value,
                Pivots::I32(at) => *(at as *mut i32).add(k) = value as i32,
            }
        }
    }
}

/// getrf: P A = L U with partial pivoting (the first entry of largest |re| + |im| in the
/// column), or A = L U without row exchanges when `pivots` is at 0 (null); `info` is the
/// first zero pivot's column, 1-based, its column left unscaled.
///
/// # Safety
/// `a` must hold an `m × n` matrix, `pivots` (unless at 0) min(m, n) pivots and `info` one
/// int32.
pub unsafe fn getrf(m: usize, n: usize, a: Operand, pivots: Pivots, info: usize) {
    // SAFETY: per the contract.
    let mut x = unsafe { Matrix::read(a, m, n) };
    let mut first_zero = 0;
    for j in 0..m.min(n) {
        let mut p = j;
        if pivots.address() != 0 {
            for i in j + 1..m {
                if x.at(i, j).magnitude() > x.at(p, j).magnitude() {
                    p = i;
                }
            }
            // SAFETY: per the contract.
            unsafe { pivots.set(j, p as i64 + 1) };
        }
        let pivot = x.at(p, j);
        if pivot != Complex::default() {
            x.swap_rows(p, j);
            for i in j + 1..m {
                x.set(i, j, x.at(i, j) / pivot);
            }
        } else if first_zero == 0 {
            first_zero = j as i32 + 1;
        }
        for k in j + 1..n {
            let u = x.at(j, k);
            for i in j + 1..m {
                x.set(i, k, x.at(i, k) - x.at(i, j) * u);
            }
        }
    }
    // SAFETY: per the contract.
    unsafe {
        x.write(|_, _| true);
        *(info as *mut i32) = first_zero;
    }
}

/// getrs: solves op(A) X = B for getrf's factors, op N, T or C.
///
/// # Safety
/// `a` must hold getrf's `n × n` factors, `pivots` its n pivots, `b` an `n × nrhs` matrix.
pub unsafe fn getrs(
    trans: cublasOperation_t,
    n: usize,
    nrhs: usize,
    a: Operand,
    pivots: Pivots,
    b: Operand,
) {
    // SAFETY: per the contract.
    let (lu, mut x) = unsafe { (Matrix::read(a, n, n), Matrix::read(b, n, nrhs)) };
    // A pivot out of range (not getrf's) exchanges nothing.
    // SAFETY: per the contract.
    let pivot = |k: usize| match unsafe { pivots.get(k) } {
        p if (1..=n as i64).contains(&p) => p as usize - 1,
        _ => k,
    };
    let op = |c: Complex| match trans {
        cublasOperation_t::CUBLAS_OP_C => c.conj(),
        _ => c,
    };
    if trans == cublasOperation_t::CUBLAS_OP_N {
        for k in 0..n {
            x.swap_rows(k, pivot(k));
        }
        substitute(&mut x, n, |i, k| lu.at(i, k), true, true);
        substitute(&mut x, n, |i, k| lu.at(i, k), false, false);
    } else {
        substitute(&mut x, n, |i, k| op(lu.at(k, i)), true, false);
        substitute(&mut x, n, |i, k| op(lu.at(k, i)), false, true);
        for k in (0..n).rev() {
            x.swap_rows(k, pivot(k));
        }
    }
    // SAFETY: per the contract.
    unsafe { x.write(|_, _| true) };
}

/// Solves T Y = X in place of `x` for the lower (or upper) triangle of the `n × n` matrix
/// whose entries `t(i, k)` gives, its diagonal taken as ones when `unit`.
fn substitute(
    x: &mut Matrix,
    n: usize,
    t: impl Fn(usize, usize) -> Complex,
    lower: bool,
    unit: bool,
) {
    for c in 0..x.cols {
        let order: Box<dyn Iterator<Item = usize>> = if lower {
            Box::new(0..n)
        } else {
            Box::new((0..n).rev())
        };
        for i in order {
            let mut v = x.at(i, c);
            let known: Box<dyn Iterator<Item = usize>> = if lower {
                Box::new(0..i)
            } else {
                Box::new(i + 1..n)
            };
            for k in known {
                v = v - t(i, k) * x.at(k, c);
            }
            if !unit {
                v = v / t(i, i);
            }
            x.set(i, c, v);
        }
    }
}

/// trsm (left side, no transpose, alpha 1): solves T X = B in place of the `m × n` matrix `b`
/// for T the lower (or `upper`) triangle of `a`, with a unit diagonal when `unit`.
///
/// # Safety
/// `a` must hold an `m × m` matrix and `b` an `m × n` one.
pub unsafe fn trsm((m, n): (usize, usize), a: Operand, b: Operand, upper: bool, unit: bool) {
    // SAFETY: per the contract.
    let (t, mut x) = unsafe { (Matrix::read(a, m, m), Matrix::read(b, m, n)) };
    substitute(&mut x, m, |i, k| t.at(i, k), !upper, unit);
    // SAFETY: per the contract.
    unsafe { x.write(|_, _| true) };
}

/// potrf (lower): A = L L^H from A's lower triangle (the diagonal's imaginary parts ignored),
/// L in place of it; `info` is the first column whose pivot is not positive, which LAPACK
/// leaves holding that pivot and stops at.
///
/// # Safety
/// `a` must hold an `n × n` matrix and `info` one int32.
pub unsafe fn potrf(n: usize, a: Operand, info: usize) {
    // SAFETY: per the contract.
    let mut x = unsafe { Matrix::read(a, n, n) };
    let mut failed = 0;
    for j in 0..n {
        let mut d = x.at(j, j).re;
        for k in 0..j {
            let l = x.at(j, k);
            d -= l.re * l.re + l.im * l.im;
        }
        // Not positive, or NaN.
        if d.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            x.set(j, j, Complex::real(d));
            failed = j as i32 + 1;
            break;
        }
        let d = d.sqrt();
        x.set(j, j, Complex::real(d));
        for i in j + 1..n {
            let mut v = x.at(i, j);
            for k in 0..j {
                v = v - x.at(i, k) * x.at(j, k).conj();
            }
            x.set(i, j, v / Complex::real(d));
        }
    }
    // SAFETY: per the contract.
    unsafe {
        x.write(|i, j| i >= j);
        *(info as *mut i32) = failed;
    }
}

/// potrs (lower): solves A X = B from potrf's factor L: L Y = B, then L^H X = Y.
///
/// # Safety
/// `a` must hold potrf's `n × n` factor and `b` an `n × nrhs` matrix.
pub unsafe fn potrs(n: usize, nrhs: usize, a: Operand, b: Operand) {
    // SAFETY: per the contract.
    let (l, mut x) = unsafe { (Matrix::read(a, n, n), Matrix::read(b, n, nrhs)) };
    substitute(&mut x, n, |i, k| l.at(i, k), true, false);
    substitute(&mut x, n, |i, k| l.at(k, i).conj(), false, false);
    // SAFETY: per the contract.
    unsafe { x.write(|_, _| true) };
}

/// The rotation that diagonalizes the Hermitian 2 × 2 block [[alpha, gamma], [conj(gamma),
/// beta]] (alpha and beta real): (c, s, e^{-i arg gamma}), for [`rotate_columns`]; None when
/// |gamma| is within `tolerance` of sqrt(|alpha beta|), or under `floor`.
fn jacobi_rotation(
    (alpha, beta, gamma): (f64, f64, Complex),
    tolerance: f64,
    floor: f64,
) -> Option<(f64, f64, Complex)> {
    let magnitude = gamma.re.hypot(gamma.im);
    if magnitude <= floor.max(1e-300) || magnitude <= tolerance * (alpha * beta).abs().sqrt() {
        return None;
    }
    let phase = Complex::new(gamma.re / magnitude, -gamma.im / magnitude);
    let theta = (beta - alpha) / (2.0 * magnitude);
    let t = theta.signum() / (theta.abs() + theta.hypot(1.0));
    let c = 1.0 / t.hypot(1.0);
    Some((c, t * c, phase))
}

/// Columns p and q of `x` times the rotation (c, s, phase): p' = c p - s phase q,
/// q' = s p + c phase q.
fn rotate_columns(x: &mut Matrix, p: usize, q: usize, (c, s, phase): (f64, f64, Complex)) {
    for k in 0..x.rows {
        let (xp, xq) = (x.at(k, p), x.at(k, q) * phase);
        x.set(k, p, Complex::real(c) * xp - Complex::real(s) * xq);
        x.set(k, q, Complex::real(s) * xp + Complex::real(c) * xq);
    }
}

/// Rows p and q of `x` times the adjoint of the rotation: p' = c p - s conj(phase) q,
/// q' = s p + c conj(phase) q.
fn rotate_rows(x: &mut Matrix, p: usize, q: usize, (c, s, phase): (f64, f64, Complex)) {
    for k in 0..x.cols {
        let (xp, xq) = (x.at(p, k), x.at(q, k) * phase.conj());
        x.set(p, k, Complex::real(c) * xp - Complex::real(s) * xq);
        x.set(q, k, Complex::real(s) * xp + Complex::real(c) * xq);
    }
}

/// The most cyclic Jacobi sweeps run; they converge quadratically, in well under 20.
const SWEEPS: usize = 60;

/// An identity matrix of order n, written like `like` (its element type) to nowhere.
pub(super) fn identity(n: usize, element: Element) -> Matrix {
    let mut eye = Matrix {
        element,
        base: 0,
        ld: n,
        rows: n,
        cols: n,
        values: vec![Complex::default(); n * n],
    };
    (0..n).for_each(|i| eye.set(i, i, Complex::real(1.0)));
    eye
}

/// Writes `values` at `base` as real elements of `element`'s precision.
///
/// # Safety
/// `base` must address `values.len()` writable real elements.
unsafe fn write_reals(element: Element, base: usize, values: &[f64]) {
    let real = match element {
        Element::F32 | Element::C32 => Element::F32,
        Element::F64 | Element::C64 => Element::F64,
    };
    for (i, &v) in values.iter().enumerate() {
        // SAFETY: per the contract.
        unsafe { real.write(base, i, Complex::real(v)) };
    }
}

/// Copies `x`'s columns in `order` to `base` (column-major, leading dimension `ld`).
///
/// # Safety
/// `base` must address `order.len()` writable columns of `x.rows` elements, `ld` apart.
unsafe fn write_columns(x: &Matrix, order: &[usize], base: usize, ld: usize) {
    for (j, &from) in order.iter().enumerate() {
        for i in 0..x.rows {
            // SAFETY: per the contract.
            unsafe { x.element.write(base, i + j * ld, x.at(i, from)) };
        }
    }
}

/// syevd (lower): the eigenvalues of the Hermitian matrix A's lower triangle (the diagonal's
/// imaginary parts ignored) into `values`, ascending, by cyclic Jacobi rotations; with
/// `vectors` the eigenvectors as a's columns. `info` is 0.
///
/// # Safety
/// `a` must hold an `n × n` matrix, `values` n real elements and `info` one int32.
pub unsafe fn syevd(n: usize, a: Operand, values: usize, vectors: bool, info: usize) {
    // SAFETY: per the contract.
    let mut h = unsafe { Matrix::read(a, n, n) };
    for j in 0..n {
        h.set(j, j, Complex::real(h.at(j, j).re));
        for i in j + 1..n {
            h.set(j, i, h.at(i, j).conj());
        }
    }
    let mut q = identity(n, a.element);
    let norm = h
        .values
        .iter()
        .map(|x| x.re * x.re + x.im * x.im)
        .sum::<f64>()
        .sqrt();
    let tolerance = n as f64 * f64::EPSILON;
    for _ in 0..SWEEPS {
        let mut rotated = false;
        for p in 0..n {
            for r in p + 1..n {
                let alpha = h.at(p, p).re;
                let beta = h.at(r, r).re;
                let block = (alpha, beta, h.at(p, r));
                if let Some(rotation) = jacobi_rotation(block, tolerance, f64::EPSILON * norm) {
                    rotate_columns(&mut h, p, r, rotation);
                    rotate_rows(&mut h, p, r, rotation);
                    rotate_columns(&mut q, p, r, rotation);
                    rotated = true;
                }
            }
        }
        if !rotated {
            break;
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| h.at(i, i).re.total_cmp(&h.at(j, j).re));
    let eigenvalues: Vec<f64> = order.iter().map(|&i| h.at(i, i).re).collect();
    // SAFETY: per the contract.
    unsafe {
        write_reals(a.element, values, &eigenvalues);
        if vectors {
            write_columns(&q, &order, a.base, a.ld);
        }
        *(info as *mut i32) = 0;
    }
}

/// `want` orthonormal columns of `rows` entries: each of `candidates` in turn, orthogonalized
/// against those kept before it (twice, for accuracy) and kept where most of it remains
/// (else its place is left empty), then unit vectors orthogonalized the same way, filling the
/// empty places first. A unit vector is kept where more than 0.5 / sqrt(rows) of it remains:
/// the squares of what remains of all of them sum to the dimensions left, so one of them
/// keeps at least 1 / sqrt(rows) while any is left.
fn orthonormal_columns(
    candidates: Vec<Vec<Complex>>,
    rows: usize,
    want: usize,
) -> Vec<Vec<Complex>> {
    fn dot(a: &[Complex], b: &[Complex]) -> Complex {
        a.iter()
            .zip(b)
            .fold(Complex::default(), |sum, (&x, &y)| sum + x.conj() * y)
    }
    let orthogonalize = |kept: &[Option<Vec<Complex>>], mut v: Vec<Complex>, least: f64| {
        for _ in 0..2 {
            for c in kept.iter().flatten() {
                let projection = dot(c, &v);
                v.iter_mut()
                    .zip(c)
                    .for_each(|(x, &y)| *x = *x - projection * y);
            }
        }
        let norm = dot(&v, &v).re.sqrt();
        (norm > least).then(|| v.into_iter().map(|x| x / Complex::real(norm)).collect())
    };
    let mut columns: Vec<Option<Vec<Complex>>> = Vec::with_capacity(want);
    for candidate in candidates {
        let kept = orthogonalize(&columns, candidate, 0.5);
        columns.push(kept);
    }
    for unit in 0..rows {
        let missing = columns.iter().filter(|c| c.is_none()).count();
        if columns.len() - missing >= want {
            break;
        }
        let mut v = vec![Complex::default(); rows];
        v[unit] = Complex::real(1.0);
        if let Some(v) = orthogonalize(&columns, v, 0.5 / (rows as f64).sqrt()) {
            match columns.iter_mut().find(|c| c.is_none()) {
                Some(place) => *place = Some(v),
                None => columns.push(Some(v)),
            }
        }
    }
    columns.into_iter().flatten().take(want).collect()
}

/// gesvd (m ≥ n): A's singular values into `values`, descending, by one-sided Jacobi
/// rotations of its columns; with `u` and `vt` (addresses, 0 for none) U's first n columns
/// (all m with `full`) and V^H. `info` is 0.
///
/// # Safety
/// `a` must hold an `m × n` matrix, `values` n real elements, `u` (unless 0) m × n (m × m
/// with `full`) elements with leading dimension m, `vt` (unless 0) n × n with leading
/// dimension n, and `info` one int32.
pub unsafe fn gesvd(
    (m, n): (usize, usize),
    a: Operand,
    values: usize,
    (u, vt, full): (usize, usize, bool),
    info: usize,
) {
    // SAFETY: per the contract.
    let mut w = unsafe { Matrix::read(a, m, n) };
    let mut v = identity(n, a.element);
    let norm2 = w
        .values
        .iter()
        .map(|x| x.re * x.re + x.im * x.im)
        .sum::<f64>();
    let tolerance = m as f64 * f64::EPSILON;
    let floor = f64::EPSILON * f64::EPSILON * norm2;
    let column_dot = |w: &Matrix, p: usize, q: usize| {
        (0..m).fold(Complex::default(), |sum, k| {
            sum + w.at(k, p).conj() * w.at(k, q)
        })
    };
    for _ in 0..SWEEPS {
        let mut rotated = false;
        for p in 0..n {
            for q in p + 1..n {
                let alpha = column_dot(&w, p, p).re;
                let beta = column_dot(&w, q, q).re;
                let block = (alpha, beta, column_dot(&w, p, q));
                if let Some(rotation) = jacobi_rotation(block, tolerance, floor) {
                    rotate_columns(&mut w, p, q, rotation);
                    rotate_columns(&mut v, p, q, rotation);
                    rotated = true;
                }
            }
        }
        if !rotated {
            break;
        }
    }
    let norms: Vec<f64> = (0..n).map(|j| column_dot(&w, j, j).re.sqrt()).collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| norms[j].total_cmp(&norms[i]));
    let sorted: Vec<f64> = order.iter().map(|&j| norms[j]).collect();
    // SAFETY: per the contract.
    unsafe { write_reals(a.element, values, &sorted) };
    if u != 0 {
        // U's columns: A's rotated columns over their norms, those of (numerically) zero
        // singular values replaced to keep U orthonormal.
        let candidates: Vec<Vec<Complex>> = order
            .iter()
            .map(|&j| {
                let scale = Complex::real(if norms[j] > 0.0 { norms[j] } else { 1.0 });
                (0..m).map(|k| w.at(k, j) / scale).collect()
            })
            .collect();
        let columns = orthonormal_columns(candidates, m, if full { m } else { n });
        for (j, column) in columns.iter().enumerate() {
            for (i, &x) in column.iter().enumerate() {
                // SAFETY: per the contract.
                unsafe { a.element.write(u, i + j * m, x) };
            }
        }
    }
    if vt != 0 {
        for (i, &j) in order.iter().enumerate() {
            for k in 0..n {
                // Row i of V^H is the conjugate of V's column j.
                // SAFETY: per the contract.
                unsafe { a.element.write(vt, i + k * n, v.at(k, j).conj()) };
            }
        }
    }
    // SAFETY: per the contract.
    unsafe { *(info as *mut i32) = 0 };
}
