//! Dense factorizations and solves through cuSOLVER, loaded at run time: LAPACK's getrf,
//! getrs, potrf, potrs, geqrf, syevd, geev, gesvd and sytrs in cuSOLVER's 64-bit generic API, and
//! ormqr (unmqr) and sytrf in its legacy typed API, one call per matrix of a batch
//! (PyTorch's CUDA backend loops over a batch for these too). A handle per stream id, bound
//! to its stream once, so that streams never share a handle's state; one parameter object
//! (default algorithms) for all.

use std::collections::HashMap;
use std::ffi::{c_int, c_void};

use cudarc::cusolver::sys::{
    cublasFillMode_t, cublasOperation_t, cublasSideMode_t, cudaDataType, cusolverDnHandle_t,
    cusolverDnParams_t, cusolverEigMode_t, cusolverStatus_t,
};
use cudarc::driver::sys::{CUdeviceptr, CUstream};
use parking_lot::Mutex;

use super::api::driver;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::runtime::backend::{Solve, SolverRoutine};

#[derive(Clone, Copy)]
struct Handle(cusolverDnHandle_t);

// SAFETY: a cuSOLVER handle may be used from any thread with its context current, one
// thread at a time (the device's library lock).
unsafe impl Send for Handle {}

struct Params(cusolverDnParams_t);

// SAFETY: the parameter object is only read by calls, one at a time.
unsafe impl Send for Params {}
// SAFETY: as above.
unsafe impl Sync for Params {}

/// cuSOLVER for one device's primary context.
pub struct SolverLibrary {
    handles: Mutex<HashMap<u64, Handle>>,
    params: Params,
}

/// The device addresses of a solve's operands, resolved (0 for none), its device workspace,
/// and an int32 for the `info` of calls whose `info` only reports invalid arguments.
pub struct SolveData {
    pub a: CUdeviceptr,
    pub b: CUdeviceptr,
    pub pivots: CUdeviceptr,
    pub u: CUdeviceptr,
    pub vt: CUdeviceptr,
    pub tau: CUdeviceptr,
    pub info: CUdeviceptr,
    pub workspace: CUdeviceptr,
    pub workspace_bytes: usize,
    pub solve_info: CUdeviceptr,
}

fn status(rc: cusolverStatus_t, what: &str) -> Result<()> {
    if rc == cusolverStatus_t::CUSOLVER_STATUS_SUCCESS {
        Ok(())
    } else {
        Err(Error::runtime(format!(
            "mojo: cuSOLVER error in {what}: {rc:?}"
        )))
    }
}

/// cuSOLVER's type for `s`'s elements.
fn data_type(s: &Solve) -> Result<cudaDataType> {
    use cudaDataType as T;
    Ok(match (s.dtype, s.complex) {
        (DType::F32, false) => T::CUDA_R_32F,
        (DType::F64, false) => T::CUDA_R_64F,
        (DType::F32, true) => T::CUDA_C_32F,
        (DType::F64, true) => T::CUDA_C_64F,
        (other, _) => {
            return Err(Error::type_error(format!(
                "mojo: cuSOLVER takes float32 or float64 data, not {}",
                other.name()
            )))
        }
    })
}

const LOWER: cublasFillMode_t = cublasFillMode_t::CUBLAS_FILL_MODE_LOWER;

/// A or, when `adjoint`, its conjugate transpose (its transpose for real elements).
fn operation(adjoint: bool, complex: bool) -> cublasOperation_t {
    match (adjoint, complex) {
        (false, _) => cublasOperation_t::CUBLAS_OP_N,
        (true, false) => cublasOperation_t::CUBLAS_OP_T,
        (true, true) => cublasOperation_t::CUBLAS_OP_C,
    }
}

/// The sizes of `s` as the 32-bit arguments of cuSOLVER's legacy calls (ormqr, sytrf).
fn narrow(s: &Solve) -> Result<(c_int, c_int, c_int)> {
    match (
        c_int::try_from(s.rows),
        c_int::try_from(s.cols),
        c_int::try_from(s.rhs),
    ) {
        (Ok(rows), Ok(cols), Ok(rhs)) => Ok((rows, cols, rhs)),
        _ => Err(Error::runtime(format!(
            "mojo: cuSOLVER's {:?} takes at most 2^31 - 1 rows and columns",
            s.routine
        ))),
    }
}

/// The bytes of an element of `s`.
fn element_bytes(s: &Solve) -> u64 {
    s.dtype.size() as u64 * if s.complex { 2 } else { 1 }
}

/// cuSOLVER's type for the real values (eigenvalues, singular values) of `s`'s elements.
fn real_type(s: &Solve) -> cudaDataType {
    if s.dtype == DType::F64 {
        cudaDataType::CUDA_R_64F
    } else {
        cudaDataType::CUDA_R_32F
    }
}

fn eig_mode(vectors: bool) -> cusolverEigMode_t {
    if vectors {
        cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR
    } else {
        cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR
    }
}

/// gesvd's jobu and jobvt: all of U's columns ('A'), the first min(m, n) ('S') or none ('N').
fn svd_jobs(vectors: bool, full: bool) -> (i8, i8) {
    match (vectors, full) {
        (false, _) => (b'N' as i8, b'N' as i8),
        (true, false) => (b'S' as i8, b'S' as i8),
        (true, true) => (b'A' as i8, b'A' as i8),
    }
}

impl SolverLibrary {
    /// cuSOLVER when the library loads and takes a parameter object.
    pub fn create() -> Option<Self> {
        if !driver().solver_present() {
            return None;
        }
        let mut params: cusolverDnParams_t = std::ptr::null_mut();
        // SAFETY: valid out-pointer.
        let rc = unsafe { driver().cusolverDnCreateParams(&mut params) };
        (rc == cusolverStatus_t::CUSOLVER_STATUS_SUCCESS).then(|| SolverLibrary {
            handles: Mutex::new(HashMap::new()),
            params: Params(params),
        })
    }

    /// The handle of stream id `id` (whose CUDA stream is `stream`), created on first use;
    /// the device's context must be current.
    fn handle(&self, id: u64, stream: CUstream) -> Result<cusolverDnHandle_t> {
        let mut handles = self.handles.lock();
        if let Some(h) = handles.get(&id) {
            return Ok(h.0);
        }
        let mut handle: cusolverDnHandle_t = std::ptr::null_mut();
        // SAFETY: valid out-pointer; the context is current; the stream is one of its own.
        unsafe {
            status(driver().cusolverDnCreate(&mut handle), "cusolverDnCreate")?;
            status(
                driver().cusolverDnSetStream(handle, stream),
                "cusolverDnSetStream",
            )?;
        }
        handles.insert(id, Handle(handle));
        Ok(handle)
    }

    /// The (device, host) workspace bytes each matrix of `s` needs, on stream `id`, asked
    /// with the first matrix's operands in `data` (the sizes are the same for every one).
    pub fn workspace(
        &self,
        s: &Solve,
        data: &SolveData,
        (id, stream): (u64, CUstream),
    ) -> Result<(usize, usize)> {
        let handle = self.handle(id, stream)?;
        let t = data_type(s)?;
        let (mut device, mut host) = (0usize, 0usize);
        let (rows, cols) = (s.rows as i64, s.cols as i64);
        let lda = rows.max(1);
        let a = data.a as *const c_void;
        // The legacy calls count their workspace in elements.
        let mut elements: c_int = 0;
        // SAFETY: valid out-pointers; `a` holds a matrix of these sizes.
        unsafe {
            match s.routine {
                SolverRoutine::LuFactor => status(
                    driver().cusolverDnXgetrf_bufferSize(
                        handle,
                        self.params.0,
                        rows,
                        cols,
                        t,
                        a,
                        lda,
                        t,
                        &mut device,
                        &mut host,
                    ),
                    "cusolverDnXgetrf_bufferSize",
                )?,
                SolverRoutine::Cholesky => status(
                    driver().cusolverDnXpotrf_bufferSize(
                        handle,
                        self.params.0,
                        LOWER,
                        rows,
                        t,
                        a,
                        lda,
                        t,
                        &mut device,
                        &mut host,
                    ),
                    "cusolverDnXpotrf_bufferSize",
                )?,
                SolverRoutine::Qr => status(
                    driver().cusolverDnXgeqrf_bufferSize(
                        handle,
                        self.params.0,
                        rows,
                        cols,
                        t,
                        a,
                        lda,
                        t,
                        std::ptr::null(),
                        t,
                        &mut device,
                        &mut host,
                    ),
                    "cusolverDnXgeqrf_bufferSize",
                )?,
                SolverRoutine::Eig { vectors } => status(
                    driver().cusolverDnXgeev_bufferSize(
                        handle,
                        self.params.0,
                        eig_mode(false),
                        eig_mode(vectors),
                        rows,
                        t,
                        a,
                        lda,
                        t,
                        data.b as *const c_void,
                        t,
                        std::ptr::null(),
                        1,
                        t,
                        data.u as *const c_void,
                        lda,
                        t,
                        &mut device,
                        &mut host,
                    ),
                    "cusolverDnXgeev_bufferSize",
                )?,
                SolverRoutine::Eigh { vectors } => status(
                    driver().cusolverDnXsyevd_bufferSize(
                        handle,
                        self.params.0,
                        eig_mode(vectors),
                        LOWER,
                        rows,
                        t,
                        a,
                        lda,
                        real_type(s),
                        std::ptr::null(),
                        t,
                        &mut device,
                        &mut host,
                    ),
                    "cusolverDnXsyevd_bufferSize",
                )?,
                SolverRoutine::Svd { vectors, full } => {
                    let (jobu, jobvt) = svd_jobs(vectors, full);
                    status(
                        driver().cusolverDnXgesvd_bufferSize(
                            handle,
                            self.params.0,
                            jobu,
                            jobvt,
                            rows,
                            cols,
                            t,
                            a,
                            lda,
                            real_type(s),
                            std::ptr::null(),
                            t,
                            std::ptr::null(),
                            lda,
                            t,
                            std::ptr::null(),
                            cols.max(1),
                            t,
                            &mut device,
                            &mut host,
                        ),
                        "cusolverDnXgesvd_bufferSize",
                    )?
                }
                SolverRoutine::ApplyQ { adjoint } => {
                    let (rows, cols, rhs) = narrow(s)?;
                    status(
                        driver().cusolverDnOrmqr_bufferSize(
                            handle,
                            t,
                            cublasSideMode_t::CUBLAS_SIDE_LEFT,
                            operation(adjoint, s.complex),
                            rows,
                            rhs,
                            cols,
                            a,
                            rows.max(1),
                            data.tau as *const c_void,
                            data.b as *const c_void,
                            rows.max(1),
                            &mut elements,
                        ),
                        "cusolverDnOrmqr_bufferSize",
                    )?
                }
                SolverRoutine::LdlFactor => {
                    let (rows, _, _) = narrow(s)?;
                    status(
                        driver().cusolverDnSytrf_bufferSize(
                            handle,
                            t,
                            rows,
                            data.a as *mut c_void,
                            rows.max(1),
                            &mut elements,
                        ),
                        "cusolverDnSytrf_bufferSize",
                    )?
                }
                SolverRoutine::LdlSolve => status(
                    driver().cusolverDnXsytrs_bufferSize(
                        handle,
                        LOWER,
                        rows,
                        s.rhs as i64,
                        t,
                        a,
                        lda,
                        data.pivots as *const i64,
                        t,
                        data.b as *mut c_void,
                        lda,
                        &mut device,
                        &mut host,
                    ),
                    "cusolverDnXsytrs_bufferSize",
                )?,
                SolverRoutine::LuSolve { .. }
                | SolverRoutine::CholeskySolve
                | SolverRoutine::TriangularSolve { .. }
                | SolverRoutine::LuFactorBatched
                | SolverRoutine::LuSolveBatched { .. } => {}
            }
        }
        let elements = usize::try_from(elements).unwrap_or(0);
        Ok((device + elements * element_bytes(s) as usize, host))
    }

    /// Runs `s` over its batch on stream `id`, matrix after matrix.
    pub fn run(
        &self,
        s: &Solve,
        data: &SolveData,
        host_bytes: usize,
        stream: (u64, CUstream),
    ) -> Result<()> {
        if let SolverRoutine::TriangularSolve { .. }
        | SolverRoutine::LuFactorBatched
        | SolverRoutine::LuSolveBatched { .. } = s.routine
        {
            return Err(Error::runtime(format!(
                "mojo: {:?} goes through cuBLAS",
                s.routine
            )));
        }
        let handle = self.handle(stream.0, stream.1)?;
        let t = data_type(s)?;
        let element = element_bytes(s);
        let (rows, cols, rhs) = (s.rows as i64, s.cols as i64, s.rhs as i64);
        let lda = rows.max(1);
        let steps = s.rows.min(s.cols);
        let mut host = vec![0u8; host_bytes];
        let host_work = if host_bytes == 0 {
            std::ptr::null_mut()
        } else {
            host.as_mut_ptr() as *mut c_void
        };
        let params = self.params.0;
        let u_columns = if matches!(s.routine, SolverRoutine::Svd { full: true, .. }) {
            s.rows
        } else {
            steps
        };
        // Bytes per matrix of each operand (of `b` as eigenvalues or singular values too).
        let matrix = s.rows * s.cols * element;
        let (rhs_bytes, values_bytes) = (s.rows * s.rhs * element, steps * s.dtype.size() as u64);
        let (u_bytes, vt_bytes) = (s.rows * u_columns * element, s.cols * s.cols * element);
        for m in 0..s.batch {
            // The m-th matrix's operand of `bytes` each from `base`, or null for none.
            let at = |base: CUdeviceptr, bytes: u64| {
                if base == 0 {
                    std::ptr::null_mut()
                } else {
                    (base + m * bytes) as *mut c_void
                }
            };
            let (a, b, values) = (
                at(data.a, matrix),
                at(data.b, rhs_bytes),
                at(data.b, values_bytes),
            );
            let (u, vt) = (at(data.u, u_bytes), at(data.vt, vt_bytes));
            let pivots = at(data.pivots, steps * 8) as *mut i64;
            let info = at(data.info, 4) as *mut c_int;
            let solve_info = data.solve_info as *mut c_int;
            let work = data.workspace as *mut c_void;
            let bytes = data.workspace_bytes;
            // SAFETY: the caller's addresses hold `batch` matrices of these sizes, laid out
            // one after another, and the workspace the bytes cuSOLVER asked for.
            unsafe {
                match s.routine {
                    SolverRoutine::LuFactor => status(
                        driver().cusolverDnXgetrf(
                            handle, params, rows, cols, t, a, lda, pivots, t, work, bytes,
                            host_work, host_bytes, info,
                        ),
                        "cusolverDnXgetrf",
                    )?,
                    SolverRoutine::LuSolve { adjoint } => status(
                        driver().cusolverDnXgetrs(
                            handle,
                            params,
                            operation(adjoint, s.complex),
                            rows,
                            rhs,
                            t,
                            a,
                            lda,
                            pivots,
                            t,
                            b,
                            lda,
                            solve_info,
                        ),
                        "cusolverDnXgetrs",
                    )?,
                    SolverRoutine::Cholesky => status(
                        driver().cusolverDnXpotrf(
                            handle, params, LOWER, rows, t, a, lda, t, work, bytes, host_work,
                            host_bytes, info,
                        ),
                        "cusolverDnXpotrf",
                    )?,
                    SolverRoutine::Qr => status(
                        driver().cusolverDnXgeqrf(
                            handle,
                            params,
                            rows,
                            cols,
                            t,
                            a,
                            lda,
                            t,
                            at(data.tau, steps * element),
                            t,
                            work,
                            bytes,
                            host_work,
                            host_bytes,
                            info,
                        ),
                        "cusolverDnXgeqrf",
                    )?,
                    SolverRoutine::Eig { vectors } => status(
                        driver().cusolverDnXgeev(
                            handle,
                            params,
                            eig_mode(false),
                            eig_mode(vectors),
                            rows,
                            t,
                            a,
                            lda,
                            t,
                            at(data.b, 2 * values_bytes),
                            t,
                            std::ptr::null_mut(),
                            1,
                            t,
                            u,
                            lda,
                            t,
                            work,
                            bytes,
                            host_work,
                            host_bytes,
                            info,
                        ),
                        "cusolverDnXgeev",
                    )?,
                    SolverRoutine::Eigh { vectors } => status(
                        driver().cusolverDnXsyevd(
                            handle,
                            params,
                            eig_mode(vectors),
                            LOWER,
                            rows,
                            t,
                            a,
                            lda,
                            real_type(s),
                            values,
                            t,
                            work,
                            bytes,
                            host_work,
                            host_bytes,
                            info,
                        ),
                        "cusolverDnXsyevd",
                    )?,
                    SolverRoutine::Svd { vectors, full } => {
                        let (jobu, jobvt) = svd_jobs(vectors, full);
                        status(
                            driver().cusolverDnXgesvd(
                                handle,
                                params,
                                jobu,
                                jobvt,
                                rows,
                                cols,
                                t,
                                a,
                                lda,
                                real_type(s),
                                values,
                                t,
                                u,
                                lda,
                                t,
                                vt,
                                cols.max(1),
                                t,
                                work,
                                bytes,
                                host_work,
                                host_bytes,
                                info,
                            ),
                            "cusolverDnXgesvd",
                        )?
                    }
                    SolverRoutine::ApplyQ { adjoint } => {
                        let (m32, k32, n32) = narrow(s)?;
                        status(
                            driver().cusolverDnOrmqr(
                                handle,
                                t,
                                cublasSideMode_t::CUBLAS_SIDE_LEFT,
                                operation(adjoint, s.complex),
                                m32,
                                n32,
                                k32,
                                a,
                                m32.max(1),
                                at(data.tau, s.cols * element),
                                b,
                                m32.max(1),
                                work,
                                (bytes as u64 / element) as c_int,
                                solve_info,
                            ),
                            "cusolverDnOrmqr",
                        )?
                    }
                    SolverRoutine::LdlFactor => {
                        let (n32, _, _) = narrow(s)?;
                        status(
                            driver().cusolverDnSytrf(
                                handle,
                                t,
                                LOWER,
                                n32,
                                a,
                                n32.max(1),
                                at(data.pivots, s.rows * 4) as *mut c_int,
                                work,
                                (bytes as u64 / element) as c_int,
                                info,
                            ),
                            "cusolverDnSytrf",
                        )?
                    }
                    SolverRoutine::LdlSolve => status(
                        driver().cusolverDnXsytrs(
                            handle,
                            LOWER,
                            rows,
                            rhs,
                            t,
                            a,
                            lda,
                            at(data.pivots, s.rows * 8) as *const i64,
                            t,
                            b,
                            lda,
                            work,
                            bytes,
                            host_work,
                            host_bytes,
                            solve_info,
                        ),
                        "cusolverDnXsytrs",
                    )?,
                    SolverRoutine::TriangularSolve { .. }
                    | SolverRoutine::LuFactorBatched
                    | SolverRoutine::LuSolveBatched { .. } => unreachable!("returned above"),
                    SolverRoutine::CholeskySolve => status(
                        driver().cusolverDnXpotrs(
                            handle, params, LOWER, rows, rhs, t, a, lda, t, b, lda, solve_info,
                        ),
                        "cusolverDnXpotrs",
                    )?,
                }
            }
        }
        Ok(())
    }
}
