//! cuBLAS's strided batched GEMM and cuBLASLt's matmul with a bias epilogue, computed on the
//! CPU as their documentation defines them: column-major operands, each possibly transposed,
//! with leading dimensions and batch strides; f16/bf16/f32 accumulate in f32 (inputs rounded
//! to TF32 under the fast TF32 compute type), f64 in f64.

use std::ffi::{c_int, c_void};

use cudarc::cublas::sys as cublas;
use cudarc::cublaslt::sys as lt;

use crate::runtime::cuda::api::LtMatmul;

/// A stored element type cuBLAS reads and writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Element {
    F16,
    BF16,
    F32,
    F64,
}

impl Element {
    fn size(self) -> usize {
        match self {
            Element::F16 | Element::BF16 => 2,
            Element::F32 => 4,
            Element::F64 => 8,
        }
    }

    /// The element at `index` of `base`.
    ///
    /// # Safety
    /// `base` must address an array of this type holding `index`.
    unsafe fn read(self, base: usize, index: i64) -> f64 {
        let at = (base as i64 + index * self.size() as i64) as usize;
        // SAFETY: per the contract.
        unsafe {
            match self {
                Element::F16 => f64::from(f16_to_f32(*(at as *const u16))),
                Element::BF16 => f64::from(f32::from_bits(u32::from(*(at as *const u16)) << 16)),
                Element::F32 => f64::from(*(at as *const f32)),
                Element::F64 => *(at as *const f64),
            }
        }
    }

    /// # Safety
    /// As for `read`, writable.
    unsafe fn write(self, base: usize, index: i64, value: f64) {
        let at = (base as i64 + index * self.size() as i64) as usize;
        // SAFETY: per the contract.
        unsafe {
            match self {
                Element::F16 => *(at as *mut u16) = f32_to_f16(value as f32),
                Element::BF16 => *(at as *mut u16) = f32_to_bf16(value as f32),
                Element::F32 => *(at as *mut f32) = value as f32,
                Element::F64 => *(at as *mut f64) = value,
            }
        }
    }
}

pub(super) fn f16_to_f32(h: u16) -> f32 {
    let (s, e, m) = (
        u32::from(h & 0x8000) << 16,
        u32::from(h >> 10) & 0x1f,
        u32::from(h & 0x3ff),
    );
    match e {
        0 => f32::from_bits(s | (m as f32 * 5.960_464_5e-8).to_bits()),
        31 => f32::from_bits(s | 0x7f80_0000 | (m << 13)),
        _ => f32::from_bits(s | ((e + 112) << 23) | (m << 13)),
    }
}

pub(super) fn f32_to_f16(f: f32) -> u16 {
    let x = f.to_bits();
    let sign = (x >> 16) & 0x8000;
    let a = x & 0x7fff_ffff;
    let h = if a > 0x7f80_0000 {
        sign | 0x7e00
    } else if a >= 0x477f_f000 {
        sign | 0x7c00
    } else if a < 0x3880_0000 {
        let e = a >> 23;
        if e < 102 {
            sign
        } else {
            let m = (a & 0x7f_ffff) | 0x80_0000;
            let shift = 126 - e;
            let (q, rem, half) = (m >> shift, m & ((1 << shift) - 1), 1 << (shift - 1));
            sign | (q + u32::from(rem > half || (rem == half && q & 1 == 1)))
        }
    } else {
        sign | ((a + 0xfff + ((a >> 13) & 1) - 0x3800_0000) >> 13)
    };
    h as u16
}

pub(super) fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits(u32::from(h) << 16)
}

pub(super) fn f32_to_bf16(f: f32) -> u16 {
    let x = f.to_bits();
    if x & 0x7fff_ffff > 0x7f80_0000 {
        return 0x7fc0;
    }
    ((x + 0x7fff + ((x >> 16) & 1)) >> 16) as u16
}

/// `x` rounded to TF32 (10 mantissa bits, to nearest even), as tensor cores read it.
fn tf32(x: f64) -> f64 {
    let bits = (x as f32).to_bits();
    if bits & 0x7f80_0000 == 0x7f80_0000 {
        return x;
    }
    let rounded = (bits + 0xfff + ((bits >> 13) & 1)) & !0x1fff;
    f64::from(f32::from_bits(rounded))
}

/// How the products accumulate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Accumulate {
    F32,
    Tf32,
    F64,
}

/// A column-major operand: base address, element type, transposed, leading dimension, batch
/// stride (elements).
#[derive(Clone, Copy, Debug)]
pub struct Operand {
    pub base: usize,
    pub element: Element,
    pub transposed: bool,
    pub ld: i64,
    pub stride: i64,
}

/// `c = alpha * op(a) op(b) + beta * c (+ bias[i] on row i)` for `batch` matrices, `c` being
/// m × n, `op(a)` m × k, `op(b)` k × n; c is not read when beta is 0, as in cuBLAS.
pub struct Gemm {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub batch: usize,
    pub a: Operand,
    pub b: Operand,
    pub c: Operand,
    pub alpha: f64,
    pub beta: f64,
    pub bias: Option<(usize, Element)>,
    pub accumulate: Accumulate,
}

impl Gemm {
    /// Runs the product.
    ///
    /// # Safety
    /// Every operand must address the matrices its layout describes, `c` writable.
    pub unsafe fn run(&self) {
        let round = |x: f64| match self.accumulate {
            Accumulate::Tf32 => tf32(x),
            _ => x,
        };
        // op(a) as m rows of k, op(b) as n columns of k: dot products over contiguous rows.
        let gather = |o: &Operand, rows: usize, batch: usize, at: &dyn Fn(usize, usize) -> i64| {
            let mut out = vec![0f64; rows * self.k];
            for r in 0..rows {
                for p in 0..self.k {
                    // SAFETY: per the contract of `run`.
                    let x = unsafe { o.element.read(o.base, batch as i64 * o.stride + at(r, p)) };
                    out[r * self.k + p] = round(x);
                }
            }
            out
        };
        for batch in 0..self.batch {
            let (a, b) = (&self.a, &self.b);
            let rows_a = gather(a, self.m, batch, &|i, p| {
                let (i, p) = (i as i64, p as i64);
                if a.transposed {
                    p + i * a.ld
                } else {
                    i + p * a.ld
                }
            });
            let cols_b = gather(b, self.n, batch, &|j, p| {
                let (j, p) = (j as i64, p as i64);
                if b.transposed {
                    j + p * b.ld
                } else {
                    p + j * b.ld
                }
            });
            for j in 0..self.n {
                for i in 0..self.m {
                    let (x, y) = (
                        &rows_a[i * self.k..][..self.k],
                        &cols_b[j * self.k..][..self.k],
                    );
                    let dot = if self.accumulate == Accumulate::F64 {
                        x.iter().zip(y).map(|(x, y)| x * y).sum::<f64>()
                    } else {
                        let products = x.iter().zip(y).map(|(x, y)| (*x as f32) * (*y as f32));
                        f64::from(products.sum::<f32>())
                    };
                    let c = &self.c;
                    let index = batch as i64 * c.stride + i as i64 + j as i64 * c.ld;
                    let mut value = self.alpha * dot;
                    if self.beta != 0.0 {
                        // SAFETY: per the contract of `run`.
                        value += self.beta * unsafe { c.element.read(c.base, index) };
                    }
                    if let Some((bias, element)) = self.bias {
                        // SAFETY: the bias holds m elements.
                        value += unsafe { element.read(bias, i as i64) };
                    }
                    if self.accumulate != Accumulate::F64 {
                        value = f64::from(value as f32);
                    }
                    // SAFETY: per the contract of `run`.
                    unsafe { c.element.write(c.base, index, value) };
                }
            }
        }
    }
}

/// The product `cublasGemmStridedBatchedEx` describes (alpha and beta read now, as in
/// `CUBLAS_POINTER_MODE_HOST`), or the status cuBLAS returns for its arguments.
///
/// # Safety
/// `alpha` and `beta` must point to scalars of the compute type.
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub unsafe fn strided_batched(
    (transa, transb): (cublas::cublasOperation_t, cublas::cublasOperation_t),
    (m, n, k): (c_int, c_int, c_int),
    (alpha, beta): (*const c_void, *const c_void),
    (a, a_type, lda, stride_a): (*const c_void, cublas::cudaDataType, c_int, i64),
    (b, b_type, ldb, stride_b): (*const c_void, cublas::cudaDataType, c_int, i64),
    (c, c_type, ldc, stride_c): (*mut c_void, cublas::cudaDataType, c_int, i64),
    batch: c_int,
    compute: cublas::cublasComputeType_t,
) -> Result<Gemm, cublas::cublasStatus_t> {
    use cublas::cublasComputeType_t as C;
    use cublas::cublasStatus_t as S;
    let element = |t: cublas::cudaDataType| {
        use cublas::cudaDataType as T;
        match t {
            T::CUDA_R_16F => Some(Element::F16),
            T::CUDA_R_16BF => Some(Element::BF16),
            T::CUDA_R_32F => Some(Element::F32),
            T::CUDA_R_64F => Some(Element::F64),
            _ => None,
        }
    };
    let (Some(ea), Some(eb), Some(ec)) = (element(a_type), element(b_type), element(c_type)) else {
        return Err(S::CUBLAS_STATUS_NOT_SUPPORTED);
    };
    let accumulate = match compute {
        C::CUBLAS_COMPUTE_32F => Accumulate::F32,
        C::CUBLAS_COMPUTE_32F_FAST_TF32 => Accumulate::Tf32,
        C::CUBLAS_COMPUTE_64F => Accumulate::F64,
        _ => return Err(S::CUBLAS_STATUS_NOT_SUPPORTED),
    };
    let transposed = |t| t != cublas::cublasOperation_t::CUBLAS_OP_N;
    let (rows_a, rows_b) = (
        if transposed(transa) { k } else { m },
        if transposed(transb) { n } else { k },
    );
    if m < 0
        || n < 0
        || k < 0
        || batch < 0
        || lda < rows_a.max(1)
        || ldb < rows_b.max(1)
        || ldc < m.max(1)
    {
        return Err(S::CUBLAS_STATUS_INVALID_VALUE);
    }
    // The scalars are read now, on the host (CUBLAS_POINTER_MODE_HOST).
    // SAFETY: per the API, scalars of the compute type.
    let (alpha, beta) = unsafe {
        if accumulate == Accumulate::F64 {
            (*(alpha as *const f64), *(beta as *const f64))
        } else {
            (
                f64::from(*(alpha as *const f32)),
                f64::from(*(beta as *const f32)),
            )
        }
    };
    let operand = |base: usize, element, transposed, ld: c_int, stride| Operand {
        base,
        element,
        transposed,
        ld: i64::from(ld),
        stride,
    };
    Ok(Gemm {
        m: m as usize,
        n: n as usize,
        k: k as usize,
        batch: batch as usize,
        a: operand(a as usize, ea, transposed(transa), lda, stride_a),
        b: operand(b as usize, eb, transposed(transb), ldb, stride_b),
        c: operand(c as usize, ec, false, ldc, stride_c),
        alpha,
        beta,
        bias: None,
        accumulate,
    })
}

/// The product a cuBLASLt matmul call describes, or None when the emulation (like a
/// heuristic finding no algorithm) does not take it.
pub fn lt_matmul(call: &LtMatmul) -> Option<Gemm> {
    use lt::cudaDataType as T;
    let element = |t: T| match t {
        T::CUDA_R_16F => Some(Element::F16),
        T::CUDA_R_16BF => Some(Element::BF16),
        T::CUDA_R_32F => Some(Element::F32),
        _ => None,
    };
    let accumulate = match call.compute {
        lt::cublasComputeType_t::CUBLAS_COMPUTE_32F => Accumulate::F32,
        lt::cublasComputeType_t::CUBLAS_COMPUTE_32F_FAST_TF32 => Accumulate::Tf32,
        _ => return None,
    };
    let bias = match call.epilogue {
        lt::cublasLtEpilogue_t::CUBLASLT_EPILOGUE_DEFAULT => None,
        lt::cublasLtEpilogue_t::CUBLASLT_EPILOGUE_BIAS => {
            Some((call.bias as usize, element(call.bias_type)?))
        }
        _ => return None,
    };
    let data = element(call.data)?;
    let [la, lb, ld] = call.layouts;
    let (ta, tb) = (call.trans_a != 0, call.trans_b != 0);
    let (m, n) = (ld.rows, ld.cols);
    let k = if ta { la.rows } else { la.cols };
    let consistent = (if ta { la.cols } else { la.rows }) == m
        && (if tb { lb.rows } else { lb.cols }) == n
        && (if tb { lb.cols } else { lb.rows }) == k;
    if !consistent {
        return None;
    }
    let operand = |base: usize, transposed, ld: i64| Operand {
        base,
        element: data,
        transposed,
        ld,
        stride: 0,
    };
    Some(Gemm {
        m: m as usize,
        n: n as usize,
        k: k as usize,
        batch: 1,
        a: operand(call.a as usize, ta, la.ld),
        b: operand(call.b as usize, tb, lb.ld),
        c: operand(call.d as usize, false, ld.ld),
        alpha: f64::from(call.alpha),
        beta: f64::from(call.beta),
        bias,
        accumulate,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversions_round_to_nearest_even() {
        for bits in [
            0u16, 1, 0x3c00, 0x7bff, 0x8001, 0x7c00, 0xfc00, 0x0400, 0x03ff,
        ] {
            assert_eq!(f32_to_f16(f16_to_f32(bits)), bits, "{bits:#x}");
        }
        assert_eq!(
            f32_to_f16(1.0 + 2f32.powi(-11)),
            0x3c00,
            "a tie rounds to even"
        );
        assert_eq!(f32_to_bf16(1.0 + 2f32.powi(-8)), 0x3f80);
        assert_eq!(tf32(1.0 + 2f64.powi(-11)), 1.0);
    }

    /// A transposed a (stored k × m) times b (k × n) with a bias, against the sum by hand.
    #[test]
    fn transposed_product_with_bias() {
        let (m, n, k) = (2usize, 3usize, 4usize);
        let a: Vec<f32> = (0..m * k).map(|v| v as f32).collect(); // stored k × m: a[p + i*k]
        let b: Vec<f32> = (0..k * n).map(|v| v as f32 * 0.5).collect(); // k × n: b[p + j*k]
        let bias = [10f32, 20.0];
        let mut c = vec![0f32; m * n];
        let operand = |base: usize, transposed, ld| Operand {
            base,
            element: Element::F32,
            transposed,
            ld,
            stride: 0,
        };
        let gemm = Gemm {
            m,
            n,
            k,
            batch: 1,
            a: operand(a.as_ptr() as usize, true, k as i64),
            b: operand(b.as_ptr() as usize, false, k as i64),
            c: operand(c.as_mut_ptr() as usize, false, m as i64),
            alpha: 1.0,
            beta: 0.0,
            bias: Some((bias.as_ptr() as usize, Element::F32)),
            accumulate: Accumulate::F32,
        };
        // SAFETY: the vectors hold the described matrices.
        unsafe { gemm.run() };
        for i in 0..m {
            for j in 0..n {
                let want: f32 = (0..k).map(|p| a[p + i * k] * b[p + j * k]).sum::<f32>() + bias[i];
                assert_eq!(c[i + j * m], want);
            }
        }
    }
}
