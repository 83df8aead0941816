//! Matrix products through cuBLAS, loaded at run time. cuBLAS is column-major: a row-major
//! `out = a @ b` is computed as `outᵀ = bᵀ aᵀ`, each operand's transpose flag read from its
//! strides. f16 and bf16 accumulate in f32; f32 uses TF32 only when PyTorch's matmul
//! precision allows it, as on CUDA.

use std::collections::HashMap;
use std::ffi::{c_int, c_void};

use cudarc::cublas::sys;
use cudarc::driver::sys::{CUdeviceptr, CUstream};
use parking_lot::Mutex;

use super::api::driver;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::compile::trace_enabled;
use crate::runtime::backend::{Gemm, MatrixView, Solve, SolverRoutine};

extern "C" {
    /// PyTorch's setting: whether float32 matmuls may use TF32 (csrc/hooks.cpp).
    fn mojo_matmul_allows_tf32() -> bool;
}

#[derive(Clone, Copy)]
struct Handle(sys::cublasHandle_t);

// SAFETY: a cuBLAS handle may be used from any thread with its context current.
unsafe impl Send for Handle {}

/// cuBLAS for one device's primary context: a handle per stream id, each bound to its stream
/// once, so that streams never share a handle's workspace.
pub struct Blas {
    handles: Mutex<HashMap<u64, Handle>>,
}

/// Turns a cuBLAS or cuBLASLt status (each library has its own enum) into ours.
pub(super) fn status<S: std::fmt::Debug>(rc: S, what: &str) -> Result<()> {
    let name = format!("{rc:?}");
    if name == "CUBLAS_STATUS_SUCCESS" {
        Ok(())
    } else {
        Err(Error::runtime(format!(
            "mojo: cuBLAS error in {what}: {name}"
        )))
    }
}

/// Whether PyTorch's matmul precision lets float32 products use TF32.
pub(super) fn allows_tf32() -> bool {
    // SAFETY: reads a flag of PyTorch's global context.
    unsafe { mojo_matmul_allows_tf32() }
}

/// How cuBLAS reads a row-major `rows × cols` view: (transposed, leading dimension), or None
/// when neither dimension is contiguous.
fn layout(rows: u64, cols: u64, view: &MatrixView) -> Option<(bool, i64)> {
    let (r, c) = (rows as i64, cols as i64);
    if c == 1 || view.col_stride == 1 {
        let ld = if r == 1 { c.max(1) } else { view.row_stride };
        return (ld >= c.max(1)).then_some((false, ld));
    }
    if r == 1 || view.row_stride == 1 {
        let ld = view.col_stride;
        return (ld >= r.max(1)).then_some((true, ld));
    }
    None
}

/// cuBLAS's arguments for `outᵀ (n × m) = op(b) op(a)`: each operand's transpose flag and
/// leading dimension.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Plan {
    pub trans_b: bool,
    pub ldb: i64,
    pub trans_a: bool,
    pub lda: i64,
    pub ldc: i64,
}

/// The plan for `g`, or None when an operand's layout, a size or the batch layout is not one
/// cuBLAS takes (the portable kernel then runs).
pub(super) fn plan(g: &Gemm) -> Option<Plan> {
    let (trans_b, ldb) = layout(g.k, g.n, &g.b)?;
    let (trans_a, lda) = layout(g.m, g.k, &g.a)?;
    let (false, ldc) = layout(g.m, g.n, &g.out)? else {
        return None;
    };
    let fits = |v: i64| i32::try_from(v).is_ok();
    let sizes_fit = [
        g.m as i64,
        g.n as i64,
        g.k as i64,
        lda,
        ldb,
        ldc,
        g.batch as i64,
    ]
    .into_iter()
    .all(fits);
    let batches_apart = g.batch <= 1 || g.out.batch_stride >= (g.m * g.n) as i64;
    (g.k > 0 && sizes_fit && batches_apart).then_some(Plan {
        trans_b,
        ldb,
        trans_a,
        lda,
        ldc,
    })
}

fn data_type(dtype: DType) -> Option<sys::cudaDataType> {
    Some(match dtype {
        DType::F16 => sys::cudaDataType::CUDA_R_16F,
        DType::BF16 => sys::cudaDataType::CUDA_R_16BF,
        DType::F32 => sys::cudaDataType::CUDA_R_32F,
        DType::F64 => sys::cudaDataType::CUDA_R_64F,
        _ => return None,
    })
}

impl Blas {
    /// A handle for the current context, or None (with a trace line) when cuBLAS is absent.
    pub fn create(device_name: &str) -> Option<Blas> {
        if !driver().blas_present() {
            if trace_enabled() {
                eprintln!("cuBLAS not found: the portable GEMM kernel serves {device_name}");
            }
            return None;
        }
        let blas = Blas {
            handles: Mutex::new(HashMap::new()),
        };
        if let Err(e) = blas.handle(0, std::ptr::null_mut()) {
            if trace_enabled() {
                eprintln!("{e}: the portable GEMM kernel serves {device_name}");
            }
            return None;
        }
        Some(blas)
    }

    /// The handle of stream id `id` (whose CUDA stream is `stream`), created on first use;
    /// the device's context must be current.
    fn handle(&self, id: u64, stream: CUstream) -> Result<sys::cublasHandle_t> {
        let mut handles = self.handles.lock();
        if let Some(h) = handles.get(&id) {
            return Ok(h.0);
        }
        let mut handle: sys::cublasHandle_t = std::ptr::null_mut();
        // SAFETY: valid out-pointer; the context is current; the stream is one of its own.
        unsafe {
            status(driver().cublasCreate_v2(&mut handle), "cublasCreate")?;
            status(
                driver().cublasSetStream_v2(handle, stream as sys::cudaStream_t),
                "cublasSetStream",
            )?;
        }
        handles.insert(id, Handle(handle));
        Ok(handle)
    }

    /// Runs `gemm` on `stream` (its id and CUDA stream); false when its layout or dtype is not
    /// cuBLAS's.
    pub fn gemm(
        &self,
        g: &Gemm,
        a: CUdeviceptr,
        b: CUdeviceptr,
        out: CUdeviceptr,
        (id, stream): (u64, CUstream),
    ) -> Result<bool> {
        let (Some(ty), Some(out_ty)) = (data_type(g.dtype), data_type(g.out_dtype)) else {
            return Ok(false);
        };
        if g.bias.is_some() {
            return Ok(false);
        }
        let Some(plan) = plan(g) else {
            return Ok(false);
        };
        let op = |t: bool| {
            if t {
                sys::cublasOperation_t::CUBLAS_OP_T
            } else {
                sys::cublasOperation_t::CUBLAS_OP_N
            }
        };
        let compute = match g.dtype {
            DType::F64 => sys::cublasComputeType_t::CUBLAS_COMPUTE_64F,
            DType::F32 if allows_tf32() => sys::cublasComputeType_t::CUBLAS_COMPUTE_32F_FAST_TF32,
            _ => sys::cublasComputeType_t::CUBLAS_COMPUTE_32F,
        };
        let (alpha32, beta32) = (g.alpha as f32, g.beta as f32);
        let (alpha_ptr, beta_ptr): (*const c_void, *const c_void) = if g.dtype == DType::F64 {
            (&g.alpha as *const f64 as _, &g.beta as *const f64 as _)
        } else {
            (&alpha32 as *const f32 as _, &beta32 as *const f32 as _)
        };
        let handle = self.handle(id, stream)?;
        // SAFETY: the pointers address blocks holding the views the strides describe (checked
        // by the caller), and alpha/beta live across the call.
        let rc = unsafe {
            driver().cublasGemmStridedBatchedEx(
                handle,
                op(plan.trans_b),
                op(plan.trans_a),
                g.n as i32,
                g.m as i32,
                g.k as i32,
                alpha_ptr,
                b as *const c_void,
                ty,
                plan.ldb as i32,
                g.b.batch_stride,
                a as *const c_void,
                ty,
                plan.lda as i32,
                g.a.batch_stride,
                beta_ptr,
                out as *mut c_void,
                out_ty,
                plan.ldc as i32,
                g.out.batch_stride,
                g.batch as i32,
                compute,
                sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        };
        status(rc, "cublasGemmStridedBatchedEx")?;
        Ok(true)
    }
}

/// The device addresses of a batched LU's operands and of the arrays of their matrices'
/// addresses (`a_array`, `b_array`, each `batch` pointers, filled by the caller).
pub struct BatchedLu {
    pub pivots: CUdeviceptr,
    pub info: CUdeviceptr,
    pub a_array: CUdeviceptr,
    pub b_array: CUdeviceptr,
}

impl Blas {
    /// `s`'s batched LU (`LuFactorBatched`) or its solves (`LuSolveBatched`) in one cuBLAS
    /// call on `stream`.
    pub fn lu_batched(
        &self,
        s: &Solve,
        data: &BatchedLu,
        (id, stream): (u64, CUstream),
    ) -> Result<()> {
        let data_type = blas_data_type(s)?;
        let (Ok(n), Ok(rhs), Ok(batch)) = (
            i32::try_from(s.rows),
            i32::try_from(s.rhs),
            i32::try_from(s.batch),
        ) else {
            return Err(Error::runtime(
                "mojo: cuBLAS's batched LU takes at most 2^31 - 1 rows, columns and matrices",
            ));
        };
        let handle = self.handle(id, stream)?;
        match s.routine {
            SolverRoutine::LuFactorBatched => {
                // SAFETY: the caller's arrays address `batch` matrices of order n, the pivots
                // n int32 per matrix (or none) and the infos one int32 each.
                let rc = unsafe {
                    driver().cublasGetrfBatched(
                        handle,
                        data_type,
                        n,
                        data.a_array as *const *mut c_void,
                        n.max(1),
                        data.pivots as *mut c_int,
                        data.info as *mut c_int,
                        batch,
                    )
                };
                status(rc, "cublasGetrfBatched")
            }
            SolverRoutine::LuSolveBatched { adjoint } => {
                let trans = match (adjoint, s.complex) {
                    (false, _) => sys::cublasOperation_t::CUBLAS_OP_N,
                    (true, false) => sys::cublasOperation_t::CUBLAS_OP_T,
                    (true, true) => sys::cublasOperation_t::CUBLAS_OP_C,
                };
                let mut info: c_int = 0;
                // SAFETY: as above, with `batch` right-hand sides of n × rhs; `info` is a
                // host int, as the call takes it.
                let rc = unsafe {
                    driver().cublasGetrsBatched(
                        handle,
                        data_type,
                        trans,
                        n,
                        rhs,
                        data.a_array as *const *const c_void,
                        n.max(1),
                        data.pivots as *const c_int,
                        data.b_array as *const *mut c_void,
                        n.max(1),
                        &mut info,
                        batch,
                    )
                };
                status(rc, "cublasGetrsBatched")?;
                if info != 0 {
                    return Err(Error::runtime(format!(
                        "mojo: cublasGetrsBatched rejected argument {}",
                        -info
                    )));
                }
                Ok(())
            }
            other => Err(Error::runtime(format!(
                "mojo: {other:?} is not a batched LU"
            ))),
        }
    }

    /// Solves T X = B in place of `b` for each of `s`'s `batch` triangles T in `a` (lower, or
    /// `upper`; a unit diagonal when `unit`), column-major, on `stream`: a `trsm` per matrix.
    pub fn trsm(
        &self,
        s: &Solve,
        (upper, unit): (bool, bool),
        (a, b): (CUdeviceptr, CUdeviceptr),
        (id, stream): (u64, CUstream),
    ) -> Result<()> {
        let data_type = blas_data_type(s)?;
        let (Ok(rows), Ok(rhs)) = (i32::try_from(s.rows), i32::try_from(s.rhs)) else {
            return Err(Error::runtime(
                "mojo: trsm takes at most 2^31 - 1 rows and columns",
            ));
        };
        let element = s.dtype.size() as u64 * if s.complex { 2 } else { 1 };
        let (one64, one32) = ([1.0f64, 0.0], [1.0f32, 0.0]);
        let alpha: *const c_void = if s.dtype == DType::F64 {
            one64.as_ptr() as _
        } else {
            one32.as_ptr() as _
        };
        let uplo = if upper {
            sys::cublasFillMode_t::CUBLAS_FILL_MODE_UPPER
        } else {
            sys::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER
        };
        let diag = if unit {
            sys::cublasDiagType_t::CUBLAS_DIAG_UNIT
        } else {
            sys::cublasDiagType_t::CUBLAS_DIAG_NON_UNIT
        };
        let handle = self.handle(id, stream)?;
        for m in 0..s.batch {
            let a = a + m * s.rows * s.rows * element;
            let b = b + m * s.rows * s.rhs * element;
            // SAFETY: the caller's addresses hold `batch` triangles and right-hand sides of
            // these sizes one after another; alpha lives across the call.
            let rc = unsafe {
                driver().cublasTrsm(
                    handle,
                    data_type,
                    sys::cublasSideMode_t::CUBLAS_SIDE_LEFT,
                    uplo,
                    sys::cublasOperation_t::CUBLAS_OP_N,
                    diag,
                    rows,
                    rhs,
                    alpha,
                    a as *const c_void,
                    rows.max(1),
                    b as *mut c_void,
                    rows.max(1),
                )
            };
            status(rc, "cublasTrsm")?;
        }
        Ok(())
    }
}

/// cuBLAS's type for `s`'s elements.
fn blas_data_type(s: &Solve) -> Result<sys::cudaDataType> {
    use sys::cudaDataType as T;
    Ok(match (s.dtype, s.complex) {
        (DType::F32, false) => T::CUDA_R_32F,
        (DType::F64, false) => T::CUDA_R_64F,
        (DType::F32, true) => T::CUDA_C_32F,
        (DType::F64, true) => T::CUDA_C_64F,
        (other, _) => {
            return Err(Error::type_error(format!(
                "mojo: cuBLAS's solvers take float32 or float64 data, not {}",
                other.name()
            )))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// cuBLAS's column-major GEMM (`c = op(a) op(b)`, beta 0) over flat arrays, as its
    /// documentation defines it.
    #[allow(clippy::too_many_arguments)]
    fn column_major_gemm(
        (ta, tb): (bool, bool),
        (m, n, k): (usize, usize, usize),
        a: &[f64],
        lda: usize,
        b: &[f64],
        ldb: usize,
        c: &mut [f64],
        ldc: usize,
    ) {
        for i in 0..m {
            for j in 0..n {
                let mut acc = 0.0;
                for p in 0..k {
                    let x = if ta { a[p + i * lda] } else { a[i + p * lda] };
                    let y = if tb { b[j + p * ldb] } else { b[p + j * ldb] };
                    acc += x * y;
                }
                c[i + j * ldc] = acc;
            }
        }
    }

    fn view(address: u64, row_stride: i64, col_stride: i64) -> MatrixView {
        MatrixView {
            address,
            batch_stride: 0,
            row_stride,
            col_stride,
        }
    }

    /// Every contiguous and transposed layout of `a` and `b`: the plan run through the
    /// column-major definition gives the row-major product.
    #[test]
    fn plans_compute_the_row_major_product() {
        let (m, n, k) = (3usize, 4usize, 5usize);
        let a_val = |i: usize, p: usize| (i * 7 + p * 3) as f64 - 4.0;
        let b_val = |p: usize, j: usize| (p * 5 + j * 2) as f64 * 0.5 - 3.0;
        for a_transposed in [false, true] {
            for b_transposed in [false, true] {
                // Row-major storage, or storage of the transpose viewed through strides.
                let (a_rs, a_cs) = if a_transposed { (1, m) } else { (k, 1) };
                let (b_rs, b_cs) = if b_transposed { (1, k) } else { (n, 1) };
                let mut a = vec![0.0; m * k];
                let mut b = vec![0.0; k * n];
                for i in 0..m {
                    for p in 0..k {
                        a[i * a_rs + p * a_cs] = a_val(i, p);
                    }
                }
                for p in 0..k {
                    for j in 0..n {
                        b[p * b_rs + j * b_cs] = b_val(p, j);
                    }
                }
                let g = Gemm {
                    dtype: DType::F32,
                    out_dtype: DType::F32,
                    batch: 1,
                    m: m as u64,
                    n: n as u64,
                    k: k as u64,
                    a: view(0, a_rs as i64, a_cs as i64),
                    b: view(0, b_rs as i64, b_cs as i64),
                    out: view(0, n as i64, 1),
                    alpha: 1.0,
                    beta: 0.0,
                    bias: None,
                };
                let p = plan(&g).expect("a dense layout has a plan");
                let mut out = vec![0.0; m * n];
                column_major_gemm(
                    (p.trans_b, p.trans_a),
                    (n, m, k),
                    &b,
                    p.ldb as usize,
                    &a,
                    p.lda as usize,
                    &mut out,
                    p.ldc as usize,
                );
                for i in 0..m {
                    for j in 0..n {
                        let want: f64 = (0..k).map(|p| a_val(i, p) * b_val(p, j)).sum();
                        assert_eq!(
                            out[i * n + j],
                            want,
                            "a^T {a_transposed} b^T {b_transposed}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn layouts_without_a_unit_stride_have_no_plan() {
        assert_eq!(layout(4, 4, &view(0, 8, 2)), None);
        assert_eq!(layout(1, 4, &view(0, 0, 1)), Some((false, 4)));
        assert_eq!(layout(4, 1, &view(0, 1, 0)), Some((false, 1)));
        assert_eq!(layout(4, 3, &view(0, 1, 4)), Some((true, 4)));
    }
}
