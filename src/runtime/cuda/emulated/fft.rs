//! cuFFT's plans and transforms computed on the CPU as its documentation defines them:
//! unnormalized transforms of rank 1 to 3 over a batch, each side laid out by its embedding
//! sizes, element stride and batch distance (the basic contiguous layout when the embedding
//! is null), the complex side of a real transform holding `n / 2 + 1` entries of its last
//! dimension. A complex-to-real transform reads only that half: the rest of the spectrum is
//! its conjugate mirror, and the result is the real part. Sums are taken in float64 by
//! radix-2 transforms, Bluestein's chirp for other lengths.

use std::f64::consts::PI;
use std::ffi::{c_int, c_void};

use cudarc::cufft::sys::{cufftResult, cufftType};
use parking_lot::Mutex;

type Complex = (f64, f64);

/// A plan's layout once made.
#[derive(Clone, Debug)]
struct Layout {
    kind: cufftType,
    n: Vec<usize>,
    input: Side,
    output: Side,
    batch: usize,
}

/// Where one side's elements lie: embedding sizes, element stride, batch distance.
#[derive(Clone, Debug)]
struct Side {
    embed: Vec<usize>,
    stride: usize,
    distance: usize,
}

impl Side {
    /// The element index of signal position `at` (row-major in the logical sizes) of `batch`.
    fn index(&self, batch: usize, at: &[usize]) -> usize {
        let mut linear = 0;
        for (&p, &size) in at.iter().zip(&self.embed) {
            linear = linear * size + p;
        }
        batch * self.distance + linear * self.stride
    }
}

#[derive(Default)]
struct Plan {
    layout: Option<Layout>,
    stream: usize,
}

/// Every plan created, by handle.
#[derive(Default)]
pub struct Plans {
    plans: Mutex<Vec<Plan>>,
}

/// One transform to run on a stream: the plan's layout, the data and the sign of the exponent.
pub struct Transform {
    layout: Layout,
    input: usize,
    output: usize,
    sign: f64,
}

/// Whether `kind` is a double-precision transform, and which side is real (input, output).
fn shape_of(kind: cufftType) -> (bool, bool, bool) {
    use cufftType as T;
    match kind {
        T::CUFFT_C2C => (false, false, false),
        T::CUFFT_R2C => (false, true, false),
        T::CUFFT_C2R => (false, false, true),
        T::CUFFT_Z2Z => (true, false, false),
        T::CUFFT_D2Z => (true, true, false),
        T::CUFFT_Z2D => (true, false, true),
    }
}

/// `count` values from `values`, or None for a null pointer.
///
/// # Safety
/// A non-null `values` addresses `count` values.
unsafe fn read(values: *const i64, count: usize) -> Option<Vec<i64>> {
    // SAFETY: per the contract.
    (!values.is_null()).then(|| unsafe { std::slice::from_raw_parts(values, count) }.to_vec())
}

impl Plans {
    pub fn create(&self) -> c_int {
        let mut plans = self.plans.lock();
        plans.push(Plan::default());
        (plans.len() - 1) as c_int
    }

    /// cufftMakePlanMany64.
    ///
    /// # Safety
    /// `n` addresses `rank` sizes, and the embeddings `rank` sizes or null.
    pub unsafe fn make(
        &self,
        plan: c_int,
        rank: c_int,
        (n, inembed, istride, idist): (*const i64, *const i64, i64, i64),
        (onembed, ostride, odist): (*const i64, i64, i64),
        kind: cufftType,
        batch: i64,
    ) -> cufftResult {
        if !(1..=3).contains(&rank) || n.is_null() || batch < 1 {
            return cufftResult::CUFFT_INVALID_VALUE;
        }
        let rank = rank as usize;
        // SAFETY: per the contract.
        let (sizes, inembed, onembed) =
            unsafe { (read(n, rank), read(inembed, rank), read(onembed, rank)) };
        let sizes = sizes.unwrap_or_default();
        if sizes.iter().any(|&s| s < 1) || istride < 1 || ostride < 1 {
            return cufftResult::CUFFT_INVALID_SIZE;
        }
        let n: Vec<usize> = sizes.iter().map(|&s| s as usize).collect();
        let (_, real_in, real_out) = shape_of(kind);
        let half = |real: bool| {
            let mut logical = n.clone();
            if !real && (real_in || real_out) {
                *logical.last_mut().unwrap() = n[rank - 1] / 2 + 1;
            }
            logical
        };
        let side = |embed: Option<Vec<i64>>, stride: i64, distance: i64, real: bool| match embed {
            Some(embed) => Side {
                embed: embed.iter().map(|&e| e as usize).collect(),
                stride: stride as usize,
                distance: distance as usize,
            },
            None => {
                let embed = half(real);
                let distance = embed.iter().product();
                Side {
                    embed,
                    stride: 1,
                    distance,
                }
            }
        };
        let layout = Layout {
            kind,
            input: side(inembed, istride, idist, real_in),
            output: side(onembed, ostride, odist, real_out),
            n,
            batch: batch as usize,
        };
        match self.plans.lock().get_mut(plan as usize) {
            Some(entry) => {
                entry.layout = Some(layout);
                cufftResult::CUFFT_SUCCESS
            }
            None => cufftResult::CUFFT_INVALID_PLAN,
        }
    }

    pub fn destroy(&self, plan: c_int) -> cufftResult {
        match self.plans.lock().get_mut(plan as usize) {
            Some(entry) if entry.layout.is_some() => {
                entry.layout = None;
                cufftResult::CUFFT_SUCCESS
            }
            _ => cufftResult::CUFFT_INVALID_PLAN,
        }
    }

    pub fn set_stream(&self, plan: c_int, stream: usize) -> cufftResult {
        match self.plans.lock().get_mut(plan as usize) {
            Some(entry) => {
                entry.stream = stream;
                cufftResult::CUFFT_SUCCESS
            }
            None => cufftResult::CUFFT_INVALID_PLAN,
        }
    }

    /// The transform `plan` makes of `input` into `output`, and the stream it runs on.
    pub fn transform(
        &self,
        plan: c_int,
        kind: cufftType,
        (input, output): (*mut c_void, *mut c_void),
        direction: c_int,
    ) -> std::result::Result<(Transform, usize), cufftResult> {
        let plans = self.plans.lock();
        let entry = plans
            .get(plan as usize)
            .ok_or(cufftResult::CUFFT_INVALID_PLAN)?;
        let layout = entry
            .layout
            .clone()
            .ok_or(cufftResult::CUFFT_INVALID_PLAN)?;
        if layout.kind != kind {
            return Err(cufftResult::CUFFT_INVALID_TYPE);
        }
        let (_, real_in, real_out) = shape_of(kind);
        let sign = match (real_in, real_out, direction) {
            (true, _, _) => -1.0,
            (_, true, _) => 1.0,
            (_, _, -1) => -1.0,
            (_, _, 1) => 1.0,
            _ => return Err(cufftResult::CUFFT_INVALID_VALUE),
        };
        let transform = Transform {
            layout,
            input: input as usize,
            output: output as usize,
            sign,
        };
        Ok((transform, entry.stream))
    }
}

/// Reads and writes one side's elements: real or complex, single or double precision.
struct Elements {
    base: usize,
    double: bool,
}

impl Elements {
    /// # Safety
    /// `base` addresses an array holding complex element `index`.
    unsafe fn complex(&self, index: usize) -> Complex {
        // SAFETY: per the contract.
        unsafe { (self.real(2 * index), self.real(2 * index + 1)) }
    }

    /// # Safety
    /// `base` addresses an array holding real element `index`.
    unsafe fn real(&self, index: usize) -> f64 {
        // SAFETY: per the contract.
        unsafe {
            if self.double {
                *(self.base as *const f64).add(index)
            } else {
                f64::from(*(self.base as *const f32).add(index))
            }
        }
    }

    /// # Safety
    /// As for `real`, writable.
    unsafe fn set_real(&self, index: usize, value: f64) {
        // SAFETY: per the contract.
        unsafe {
            if self.double {
                *(self.base as *mut f64).add(index) = value;
            } else {
                *(self.base as *mut f32).add(index) = value as f32;
            }
        }
    }
}

/// Every multi-index of `sizes`, row-major.
fn positions(sizes: &[usize]) -> impl Iterator<Item = Vec<usize>> + '_ {
    let total: usize = sizes.iter().product();
    (0..total).map(move |mut linear| {
        let mut at = vec![0; sizes.len()];
        for (p, &size) in at.iter_mut().zip(sizes).rev() {
            *p = linear % size;
            linear /= size;
        }
        at
    })
}

impl Transform {
    /// Runs the transform over every signal of the batch (the input is read whole before the
    /// output is written, so in-place transforms hold).
    ///
    /// # Safety
    /// The plan's layout describes valid memory at both addresses.
    pub unsafe fn run(&self) {
        let l = &self.layout;
        let (double, real_in, real_out) = shape_of(l.kind);
        let input = Elements {
            base: self.input,
            double,
        };
        let output = Elements {
            base: self.output,
            double,
        };
        let rank = l.n.len();
        let last = l.n[rank - 1];
        let mut signals = Vec::with_capacity(l.batch);
        for b in 0..l.batch {
            let mut data = vec![(0.0, 0.0); l.n.iter().product()];
            for (slot, at) in data.iter_mut().zip(positions(&l.n)) {
                let mirrored = !real_in && real_out && at[rank - 1] > last / 2;
                // SAFETY: the layout covers every position read.
                *slot = unsafe {
                    if real_in {
                        (input.real(l.input.index(b, &at)), 0.0)
                    } else if mirrored {
                        let mirror: Vec<usize> = at
                            .iter()
                            .zip(&l.n)
                            .map(|(&p, &size)| (size - p) % size)
                            .collect();
                        let (re, im) = input.complex(l.input.index(b, &mirror));
                        (re, -im)
                    } else {
                        input.complex(l.input.index(b, &at))
                    }
                };
            }
            transform(&mut data, &l.n, self.sign);
            signals.push(data);
        }
        if real_out {
            // cuFFT's complex-to-real transforms may overwrite their input: so does this one.
            for b in 0..l.batch {
                let mut half = l.n.clone();
                half[rank - 1] = last / 2 + 1;
                for at in positions(&half) {
                    let index = l.input.index(b, &at);
                    // SAFETY: the layout covers every position read above.
                    unsafe {
                        input.set_real(2 * index, f64::NAN);
                        input.set_real(2 * index + 1, f64::NAN);
                    }
                }
            }
        }
        let mut out_sizes = l.n.clone();
        if real_in {
            out_sizes[rank - 1] = last / 2 + 1;
        }
        for (b, data) in signals.iter().enumerate() {
            for at in positions(&out_sizes) {
                let mut linear = 0;
                for (&p, &size) in at.iter().zip(&l.n) {
                    linear = linear * size + p;
                }
                let (re, im) = data[linear];
                let index = l.output.index(b, &at);
                // SAFETY: the layout covers every position written.
                unsafe {
                    if real_out {
                        output.set_real(index, re);
                    } else {
                        output.set_real(2 * index, re);
                        output.set_real(2 * index + 1, im);
                    }
                }
            }
        }
    }
}

/// The unnormalized transform of the row-major array `data` of `sizes`, in place, with
/// exp(sign 2 pi i jk / n) along each dimension.
fn transform(data: &mut [Complex], sizes: &[usize], sign: f64) {
    let mut inner = 1;
    for &size in sizes.iter().rev() {
        let outer = data.len() / (size * inner);
        let mut line = vec![(0.0, 0.0); size];
        for o in 0..outer {
            for i in 0..inner {
                let at = |k: usize| (o * size + k) * inner + i;
                for (k, slot) in line.iter_mut().enumerate() {
                    *slot = data[at(k)];
                }
                dft(&mut line, sign);
                for (k, &value) in line.iter().enumerate() {
                    data[at(k)] = value;
                }
            }
        }
        inner *= size;
    }
}

fn multiply(a: Complex, b: Complex) -> Complex {
    (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
}

/// exp(i pi numerator / denominator).
fn unit(numerator: f64, denominator: f64) -> Complex {
    let (sin, cos) = (PI * numerator / denominator).sin_cos();
    (cos, sin)
}

/// One line's transform: radix 2 for powers of two, Bluestein's chirp otherwise.
fn dft(x: &mut [Complex], sign: f64) {
    let n = x.len();
    if n <= 1 {
        return;
    }
    if n.is_power_of_two() {
        return radix2(x, sign);
    }
    // exp(sign pi i j^2 / n), j^2 reduced modulo 2n so that the angle is exact.
    let chirp: Vec<Complex> = (0..n)
        .map(|j| unit(sign * ((j * j) % (2 * n)) as f64, n as f64))
        .collect();
    let m = (2 * n - 1).next_power_of_two();
    let mut a = vec![(0.0, 0.0); m];
    let mut b = vec![(0.0, 0.0); m];
    for j in 0..n {
        a[j] = multiply(x[j], chirp[j]);
        let conj = (chirp[j].0, -chirp[j].1);
        b[j] = conj;
        if j > 0 {
            b[m - j] = conj;
        }
    }
    radix2(&mut a, -1.0);
    radix2(&mut b, -1.0);
    for (p, q) in a.iter_mut().zip(&b) {
        *p = multiply(*p, *q);
    }
    radix2(&mut a, 1.0);
    for (k, slot) in x.iter_mut().enumerate() {
        let (re, im) = multiply(chirp[k], a[k]);
        *slot = (re / m as f64, im / m as f64);
    }
}

/// The iterative radix-2 transform of a power-of-two length.
fn radix2(x: &mut [Complex], sign: f64) {
    let n = x.len();
    let bits = n.trailing_zeros();
    for i in 0..n {
        let j = i.reverse_bits() >> (usize::BITS - bits);
        if i < j {
            x.swap(i, j);
        }
    }
    let mut len = 2;
    while len <= n {
        for start in (0..n).step_by(len) {
            for k in 0..len / 2 {
                let w = unit(sign * (2 * k) as f64, len as f64);
                let (u, v) = (x[start + k], multiply(x[start + k + len / 2], w));
                x[start + k] = (u.0 + v.0, u.1 + v.1);
                x[start + k + len / 2] = (u.0 - v.0, u.1 - v.1);
            }
        }
        len *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition, term by term.
    fn naive(x: &[Complex], sign: f64) -> Vec<Complex> {
        let n = x.len();
        (0..n)
            .map(|k| {
                x.iter().enumerate().fold((0.0, 0.0), |acc, (j, &v)| {
                    let w = unit(sign * (2 * ((j * k) % n)) as f64, n as f64);
                    let t = multiply(v, w);
                    (acc.0 + t.0, acc.1 + t.1)
                })
            })
            .collect()
    }

    #[test]
    fn lines_match_the_definition() {
        for n in [1, 2, 3, 5, 8, 12, 17, 64, 100] {
            let x: Vec<Complex> = (0..n)
                .map(|j| ((j as f64).sin(), (j as f64 * 0.7).cos()))
                .collect();
            for sign in [-1.0, 1.0] {
                let mut fast = x.clone();
                dft(&mut fast, sign);
                for (a, b) in fast.iter().zip(naive(&x, sign)) {
                    assert!((a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9, "{n}");
                }
            }
        }
    }
}
