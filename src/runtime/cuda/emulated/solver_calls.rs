//! cuSOLVER's calls in the emulation: each checks its arguments as the backend uses them and
//! queues the routine (`solver.rs`) on its handle's stream.

#![allow(non_snake_case, clippy::too_many_arguments)]

use std::ffi::{c_int, c_schar, c_void};

use cudarc::cublas::sys as cublas;
use cudarc::cusolver::sys as cusolver;
use cudarc::driver::sys::CUstream;

use super::{eig, ldl, new_handle, operand, reflectors, set_handle_stream, solver, Emulated};
use crate::runtime::cuda::solver_api::SolverApi;

impl SolverApi for Emulated {
    fn solver_present(&self) -> bool {
        true
    }

    unsafe fn cusolverDnCreate(
        &self,
        handle: *mut cusolver::cusolverDnHandle_t,
    ) -> cusolver::cusolverStatus_t {
        // SAFETY: valid out-pointer per the API.
        unsafe { *handle = new_handle() as cusolver::cusolverDnHandle_t };
        cusolver::cusolverStatus_t::CUSOLVER_STATUS_SUCCESS
    }

    unsafe fn cusolverDnSetStream(
        &self,
        handle: cusolver::cusolverDnHandle_t,
        stream: CUstream,
    ) -> cusolver::cusolverStatus_t {
        // SAFETY: handles come from cusolverDnCreate.
        unsafe { set_handle_stream(handle as *mut c_void, stream as usize) };
        cusolver::cusolverStatus_t::CUSOLVER_STATUS_SUCCESS
    }

    unsafe fn cusolverDnCreateParams(
        &self,
        params: *mut cusolver::cusolverDnParams_t,
    ) -> cusolver::cusolverStatus_t {
        // SAFETY: valid out-pointer per the API; the emulation keeps nothing in it.
        unsafe { *params = std::ptr::NonNull::dangling().as_ptr() };
        cusolver::cusolverStatus_t::CUSOLVER_STATUS_SUCCESS
    }

    unsafe fn cusolverDnXgetrf_bufferSize(
        &self,
        _handle: cusolver::cusolverDnHandle_t,
        _params: cusolver::cusolverDnParams_t,
        _m: i64,
        _n: i64,
        _data_type: cusolver::cudaDataType,
        _a: *const c_void,
        _lda: i64,
        _compute_type: cusolver::cudaDataType,
        device_bytes: *mut usize,
        host_bytes: *mut usize,
    ) -> cusolver::cusolverStatus_t {
        // SAFETY: valid out-pointers per the API.
        unsafe { solver::no_workspace(device_bytes, host_bytes) }
    }

    unsafe fn cusolverDnXgetrf(
        &self,
        handle: cusolver::cusolverDnHandle_t,
        _params: cusolver::cusolverDnParams_t,
        m: i64,
        n: i64,
        data_type: cusolver::cudaDataType,
        a: *mut c_void,
        lda: i64,
        ipiv: *mut i64,
        _compute_type: cusolver::cudaDataType,
        _device_work: *mut c_void,
        _device_bytes: usize,
        _host_work: *mut c_void,
        _host_bytes: usize,
        info: *mut c_int,
    ) -> cusolver::cusolverStatus_t {
        let Some(a) = operand(data_type, a, lda, m) else {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_INVALID_VALUE;
        };
        let (m, n, info) = (m as usize, n as usize, info as usize);
        let pivots = solver::Pivots::I64(ipiv as usize);
        // SAFETY: per the API the operands stay valid until the stream runs the call.
        unsafe { self.solver_queue(handle, move || solver::getrf(m, n, a, pivots, info)) }
    }

    unsafe fn cusolverDnXgetrs(
        &self,
        handle: cusolver::cusolverDnHandle_t,
        _params: cusolver::cusolverDnParams_t,
        trans: cusolver::cublasOperation_t,
        n: i64,
        nrhs: i64,
        data_type: cusolver::cudaDataType,
        a: *const c_void,
        lda: i64,
        ipiv: *const i64,
        b_type: cusolver::cudaDataType,
        b: *mut c_void,
        ldb: i64,
        info: *mut c_int,
    ) -> cusolver::cusolverStatus_t {
        let (Some(a), Some(b)) = (operand(data_type, a, lda, n), operand(b_type, b, ldb, n)) else {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_INVALID_VALUE;
        };
        let (n, nrhs, pivots, info) = (n as usize, nrhs as usize, ipiv as usize, info as usize);
        // SAFETY: as for getrf.
        unsafe {
            self.solver_queue(handle, move || {
                solver::getrs(trans, n, nrhs, a, solver::Pivots::I64(pivots), b);
                *(info as *mut i32) = 0;
            })
        }
    }

    unsafe fn cusolverDnXpotrf_bufferSize(
        &self,
        _handle: cusolver::cusolverDnHandle_t,
        _params: cusolver::cusolverDnParams_t,
        _uplo: cusolver::cublasFillMode_t,
        _n: i64,
        _data_type: cusolver::cudaDataType,
        _a: *const c_void,
        _lda: i64,
        _compute_type: cusolver::cudaDataType,
        device_bytes: *mut usize,
        host_bytes: *mut usize,
    ) -> cusolver::cusolverStatus_t {
        // SAFETY: valid out-pointers per the API.
        unsafe { solver::no_workspace(device_bytes, host_bytes) }
    }

    unsafe fn cusolverDnXpotrf(
        &self,
        handle: cusolver::cusolverDnHandle_t,
        _params: cusolver::cusolverDnParams_t,
        uplo: cusolver::cublasFillMode_t,
        n: i64,
        data_type: cusolver::cudaDataType,
        a: *mut c_void,
        lda: i64,
        _compute_type: cusolver::cudaDataType,
        _device_work: *mut c_void,
        _device_bytes: usize,
        _host_work: *mut c_void,
        _host_bytes: usize,
        info: *mut c_int,
    ) -> cusolver::cusolverStatus_t {
        let Some(a) = operand(data_type, a, lda, n) else {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_INVALID_VALUE;
        };
        if uplo != cusolver::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_NOT_SUPPORTED;
        }
        let (n, info) = (n as usize, info as usize);
        // SAFETY: as for getrf.
        unsafe { self.solver_queue(handle, move || solver::potrf(n, a, info)) }
    }

    unsafe fn cusolverDnXpotrs(
        &self,
        handle: cusolver::cusolverDnHandle_t,
        _params: cusolver::cusolverDnParams_t,
        uplo: cusolver::cublasFillMode_t,
        n: i64,
        nrhs: i64,
        data_type: cusolver::cudaDataType,
        a: *const c_void,
        lda: i64,
        b_type: cusolver::cudaDataType,
        b: *mut c_void,
        ldb: i64,
        info: *mut c_int,
    ) -> cusolver::cusolverStatus_t {
        let (Some(a), Some(b)) = (operand(data_type, a, lda, n), operand(b_type, b, ldb, n)) else {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_INVALID_VALUE;
        };
        if uplo != cusolver::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_NOT_SUPPORTED;
        }
        let (n, nrhs, info) = (n as usize, nrhs as usize, info as usize);
        // SAFETY: as for getrf.
        unsafe {
            self.solver_queue(handle, move || {
                solver::potrs(n, nrhs, a, b);
                *(info as *mut i32) = 0;
            })
        }
    }
    unsafe fn cusolverDnXsyevd_bufferSize(
        &self,
        _handle: cusolver::cusolverDnHandle_t,
        _params: cusolver::cusolverDnParams_t,
        _jobz: cusolver::cusolverEigMode_t,
        _uplo: cusolver::cublasFillMode_t,
        _n: i64,
        _data_type: cusolver::cudaDataType,
        _a: *const c_void,
        _lda: i64,
        _w_type: cusolver::cudaDataType,
        _w: *const c_void,
        _compute_type: cusolver::cudaDataType,
        device_bytes: *mut usize,
        host_bytes: *mut usize,
    ) -> cusolver::cusolverStatus_t {
        // SAFETY: valid out-pointers per the API.
        unsafe { solver::no_workspace(device_bytes, host_bytes) }
    }

    unsafe fn cusolverDnXsyevd(
        &self,
        handle: cusolver::cusolverDnHandle_t,
        _params: cusolver::cusolverDnParams_t,
        jobz: cusolver::cusolverEigMode_t,
        uplo: cusolver::cublasFillMode_t,
        n: i64,
        data_type: cusolver::cudaDataType,
        a: *mut c_void,
        lda: i64,
        w_type: cusolver::cudaDataType,
        w: *mut c_void,
        _compute_type: cusolver::cudaDataType,
        _device_work: *mut c_void,
        _device_bytes: usize,
        _host_work: *mut c_void,
        _host_bytes: usize,
        info: *mut c_int,
    ) -> cusolver::cusolverStatus_t {
        let Some(a) = operand(data_type, a, lda, n) else {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_INVALID_VALUE;
        };
        if !solver::holds_reals_of(w_type, a.element) {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_INVALID_VALUE;
        }
        if uplo != cusolver::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_NOT_SUPPORTED;
        }
        let vectors = jobz == cusolver::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR;
        let (n, w, info) = (n as usize, w as usize, info as usize);
        // SAFETY: as for getrf.
        unsafe { self.solver_queue(handle, move || solver::syevd(n, a, w, vectors, info)) }
    }

    unsafe fn cusolverDnXgesvd_bufferSize(
        &self,
        _handle: cusolver::cusolverDnHandle_t,
        _params: cusolver::cusolverDnParams_t,
        _jobu: c_schar,
        _jobvt: c_schar,
        _m: i64,
        _n: i64,
        _data_type: cusolver::cudaDataType,
        _a: *const c_void,
        _lda: i64,
        _s_type: cusolver::cudaDataType,
        _s: *const c_void,
        _u_type: cusolver::cudaDataType,
        _u: *const c_void,
        _ldu: i64,
        _vt_type: cusolver::cudaDataType,
        _vt: *const c_void,
        _ldvt: i64,
        _compute_type: cusolver::cudaDataType,
        device_bytes: *mut usize,
        host_bytes: *mut usize,
    ) -> cusolver::cusolverStatus_t {
        // SAFETY: valid out-pointers per the API.
        unsafe { solver::no_workspace(device_bytes, host_bytes) }
    }

    unsafe fn cusolverDnXgesvd(
        &self,
        handle: cusolver::cusolverDnHandle_t,
        _params: cusolver::cusolverDnParams_t,
        jobu: c_schar,
        jobvt: c_schar,
        m: i64,
        n: i64,
        data_type: cusolver::cudaDataType,
        a: *mut c_void,
        lda: i64,
        s_type: cusolver::cudaDataType,
        s: *mut c_void,
        u_type: cusolver::cudaDataType,
        u: *mut c_void,
        ldu: i64,
        vt_type: cusolver::cudaDataType,
        vt: *mut c_void,
        ldvt: i64,
        _compute_type: cusolver::cudaDataType,
        _device_work: *mut c_void,
        _device_bytes: usize,
        _host_work: *mut c_void,
        _host_bytes: usize,
        info: *mut c_int,
    ) -> cusolver::cusolverStatus_t {
        use cusolver::cusolverStatus_t::{
            CUSOLVER_STATUS_INVALID_VALUE, CUSOLVER_STATUS_NOT_SUPPORTED,
        };
        let Some(a) = operand(data_type, a, lda, m) else {
            return CUSOLVER_STATUS_INVALID_VALUE;
        };
        let (jobu, jobvt) = (jobu as u8, jobvt as u8);
        // The emulation takes the jobs the backend asks for: both 'N', 'S' or 'A'.
        let full = jobu == b'A';
        let vectors = jobu != b'N';
        if m < n || jobu != jobvt || !b"NSA".contains(&jobu) {
            return CUSOLVER_STATUS_NOT_SUPPORTED;
        }
        if !solver::holds_reals_of(s_type, a.element)
            || (vectors && (u_type != data_type || vt_type != data_type || ldu != m || ldvt != n))
        {
            return CUSOLVER_STATUS_INVALID_VALUE;
        }
        let (m, n, s, info) = (m as usize, n as usize, s as usize, info as usize);
        let vectors = if vectors {
            (u as usize, vt as usize, full)
        } else {
            (0, 0, false)
        };
        // SAFETY: as for getrf.
        unsafe { self.solver_queue(handle, move || solver::gesvd((m, n), a, s, vectors, info)) }
    }
    unsafe fn cusolverDnXgeqrf_bufferSize(
        &self,
        _handle: cusolver::cusolverDnHandle_t,
        _params: cusolver::cusolverDnParams_t,
        _m: i64,
        _n: i64,
        _data_type: cusolver::cudaDataType,
        _a: *const c_void,
        _lda: i64,
        _tau_type: cusolver::cudaDataType,
        _tau: *const c_void,
        _compute_type: cusolver::cudaDataType,
        device_bytes: *mut usize,
        host_bytes: *mut usize,
    ) -> cusolver::cusolverStatus_t {
        // SAFETY: valid out-pointers per the API.
        unsafe { solver::no_workspace(device_bytes, host_bytes) }
    }

    unsafe fn cusolverDnXgeqrf(
        &self,
        handle: cusolver::cusolverDnHandle_t,
        _params: cusolver::cusolverDnParams_t,
        m: i64,
        n: i64,
        data_type: cusolver::cudaDataType,
        a: *mut c_void,
        lda: i64,
        tau_type: cusolver::cudaDataType,
        tau: *mut c_void,
        _compute_type: cusolver::cudaDataType,
        _device_work: *mut c_void,
        _device_bytes: usize,
        _host_work: *mut c_void,
        _host_bytes: usize,
        info: *mut c_int,
    ) -> cusolver::cusolverStatus_t {
        let Some(a) = operand(data_type, a, lda, m) else {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_INVALID_VALUE;
        };
        if tau_type != data_type {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_INVALID_VALUE;
        }
        let (m, n, tau, info) = (m as usize, n as usize, tau as usize, info as usize);
        // SAFETY: as for getrf.
        unsafe { self.solver_queue(handle, move || reflectors::geqrf((m, n), a, tau, info)) }
    }

    unsafe fn cusolverDnOrmqr_bufferSize(
        &self,
        _handle: cusolver::cusolverDnHandle_t,
        _data_type: cusolver::cudaDataType,
        _side: cusolver::cublasSideMode_t,
        _trans: cusolver::cublasOperation_t,
        _m: c_int,
        _n: c_int,
        _k: c_int,
        _a: *const c_void,
        _lda: c_int,
        _tau: *const c_void,
        _c: *const c_void,
        _ldc: c_int,
        lwork: *mut c_int,
    ) -> cusolver::cusolverStatus_t {
        // SAFETY: valid out-pointer per the API.
        unsafe { *lwork = 0 };
        cusolver::cusolverStatus_t::CUSOLVER_STATUS_SUCCESS
    }

    unsafe fn cusolverDnOrmqr(
        &self,
        handle: cusolver::cusolverDnHandle_t,
        data_type: cusolver::cudaDataType,
        side: cusolver::cublasSideMode_t,
        trans: cusolver::cublasOperation_t,
        m: c_int,
        n: c_int,
        k: c_int,
        a: *const c_void,
        lda: c_int,
        tau: *const c_void,
        c: *mut c_void,
        ldc: c_int,
        _work: *mut c_void,
        _lwork: c_int,
        info: *mut c_int,
    ) -> cusolver::cusolverStatus_t {
        let (Some(a), Some(c)) = (
            operand(data_type, a, lda.into(), m.into()),
            operand(data_type, c, ldc.into(), m.into()),
        ) else {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_INVALID_VALUE;
        };
        if side != cusolver::cublasSideMode_t::CUBLAS_SIDE_LEFT || k > m || k < 0 || n < 0 {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_INVALID_VALUE;
        }
        let adjoint = trans != cusolver::cublasOperation_t::CUBLAS_OP_N;
        let sizes = (m as usize, n as usize, k as usize);
        let (tau, info) = (tau as usize, info as usize);
        // SAFETY: as for getrf.
        unsafe {
            self.solver_queue(handle, move || {
                reflectors::ormqr(adjoint, sizes, a, tau, c);
                *(info as *mut i32) = 0;
            })
        }
    }

    unsafe fn cusolverDnSytrf_bufferSize(
        &self,
        _handle: cusolver::cusolverDnHandle_t,
        _data_type: cusolver::cudaDataType,
        _n: c_int,
        _a: *mut c_void,
        _lda: c_int,
        lwork: *mut c_int,
    ) -> cusolver::cusolverStatus_t {
        // SAFETY: valid out-pointer per the API.
        unsafe { *lwork = 0 };
        cusolver::cusolverStatus_t::CUSOLVER_STATUS_SUCCESS
    }

    unsafe fn cusolverDnSytrf(
        &self,
        handle: cusolver::cusolverDnHandle_t,
        data_type: cusolver::cudaDataType,
        uplo: cusolver::cublasFillMode_t,
        n: c_int,
        a: *mut c_void,
        lda: c_int,
        ipiv: *mut c_int,
        _work: *mut c_void,
        _lwork: c_int,
        info: *mut c_int,
    ) -> cusolver::cusolverStatus_t {
        let Some(a) = operand(data_type, a, lda.into(), n.into()) else {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_INVALID_VALUE;
        };
        if uplo != cusolver::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER || n < 0 {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_NOT_SUPPORTED;
        }
        let (n, pivots, info) = (n as usize, ipiv as usize, info as usize);
        // SAFETY: as for getrf.
        unsafe { self.solver_queue(handle, move || ldl::sytrf(n, a, pivots, info)) }
    }

    unsafe fn cusolverDnXsytrs_bufferSize(
        &self,
        _handle: cusolver::cusolverDnHandle_t,
        _uplo: cusolver::cublasFillMode_t,
        _n: i64,
        _nrhs: i64,
        _data_type: cusolver::cudaDataType,
        _a: *const c_void,
        _lda: i64,
        _ipiv: *const i64,
        _b_type: cusolver::cudaDataType,
        _b: *mut c_void,
        _ldb: i64,
        device_bytes: *mut usize,
        host_bytes: *mut usize,
    ) -> cusolver::cusolverStatus_t {
        // SAFETY: valid out-pointers per the API.
        unsafe { solver::no_workspace(device_bytes, host_bytes) }
    }

    unsafe fn cusolverDnXsytrs(
        &self,
        handle: cusolver::cusolverDnHandle_t,
        uplo: cusolver::cublasFillMode_t,
        n: i64,
        nrhs: i64,
        data_type: cusolver::cudaDataType,
        a: *const c_void,
        lda: i64,
        ipiv: *const i64,
        b_type: cusolver::cudaDataType,
        b: *mut c_void,
        ldb: i64,
        _device_work: *mut c_void,
        _device_bytes: usize,
        _host_work: *mut c_void,
        _host_bytes: usize,
        info: *mut c_int,
    ) -> cusolver::cusolverStatus_t {
        let (Some(a), Some(b)) = (operand(data_type, a, lda, n), operand(b_type, b, ldb, n)) else {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_INVALID_VALUE;
        };
        if uplo != cusolver::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_NOT_SUPPORTED;
        }
        let (n, nrhs, pivots, info) = (n as usize, nrhs as usize, ipiv as usize, info as usize);
        // SAFETY: as for getrf.
        unsafe {
            self.solver_queue(handle, move || {
                ldl::sytrs(n, nrhs, a, pivots, b);
                *(info as *mut i32) = 0;
            })
        }
    }

    unsafe fn cusolverDnXgeev_bufferSize(
        &self,
        _handle: cusolver::cusolverDnHandle_t,
        _params: cusolver::cusolverDnParams_t,
        _jobvl: cusolver::cusolverEigMode_t,
        _jobvr: cusolver::cusolverEigMode_t,
        _n: i64,
        _data_type: cusolver::cudaDataType,
        _a: *const c_void,
        _lda: i64,
        _w_type: cusolver::cudaDataType,
        _w: *const c_void,
        _vl_type: cusolver::cudaDataType,
        _vl: *const c_void,
        _ldvl: i64,
        _vr_type: cusolver::cudaDataType,
        _vr: *const c_void,
        _ldvr: i64,
        _compute_type: cusolver::cudaDataType,
        device_bytes: *mut usize,
        host_bytes: *mut usize,
    ) -> cusolver::cusolverStatus_t {
        // SAFETY: valid out-pointers per the API.
        unsafe { solver::no_workspace(device_bytes, host_bytes) }
    }

    unsafe fn cusolverDnXgeev(
        &self,
        handle: cusolver::cusolverDnHandle_t,
        _params: cusolver::cusolverDnParams_t,
        jobvl: cusolver::cusolverEigMode_t,
        jobvr: cusolver::cusolverEigMode_t,
        n: i64,
        data_type: cusolver::cudaDataType,
        a: *mut c_void,
        lda: i64,
        w_type: cusolver::cudaDataType,
        w: *mut c_void,
        _vl_type: cusolver::cudaDataType,
        _vl: *mut c_void,
        _ldvl: i64,
        vr_type: cusolver::cudaDataType,
        vr: *mut c_void,
        ldvr: i64,
        _compute_type: cusolver::cudaDataType,
        _device_work: *mut c_void,
        _device_bytes: usize,
        _host_work: *mut c_void,
        _host_bytes: usize,
        info: *mut c_int,
    ) -> cusolver::cusolverStatus_t {
        let Some(a) = operand(data_type, a, lda, n) else {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_INVALID_VALUE;
        };
        if w_type != data_type || vr_type != data_type || (ldvr < n.max(1)) {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_INVALID_VALUE;
        }
        if jobvl != cusolver::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR {
            return cusolver::cusolverStatus_t::CUSOLVER_STATUS_NOT_SUPPORTED;
        }
        let vectors = jobvr == cusolver::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR;
        let vr = (if vectors { vr as usize } else { 0 }, ldvr as usize);
        let (n, w, info) = (n as usize, w as usize, info as usize);
        // SAFETY: as for getrf.
        unsafe { self.solver_queue(handle, move || eig::geev(n, a, w, vr, info)) }
    }

    unsafe fn cublasGetrfBatched(
        &self,
        handle: cublas::cublasHandle_t,
        data_type: cublas::cudaDataType,
        n: c_int,
        a: *const *mut c_void,
        lda: c_int,
        pivots: *mut c_int,
        info: *mut c_int,
        batch: c_int,
    ) -> cublas::cublasStatus_t {
        use cublas::cublasStatus_t as S;
        let Some(element) = solver::Element::of_blas(data_type) else {
            return S::CUBLAS_STATUS_NOT_SUPPORTED;
        };
        if n < 0 || lda < n.max(1) || batch < 0 {
            return S::CUBLAS_STATUS_INVALID_VALUE;
        }
        let (n, ld, batch) = (n as usize, lda as usize, batch as usize);
        let (array, pivots, info) = (a as usize, pivots as usize, info as usize);
        let factor = move || {
            for m in 0..batch {
                // SAFETY: per the API the device array holds `batch` matrix addresses, the
                // pivots n int32 per matrix (or none) and the infos one each, valid until the
                // stream runs the call.
                unsafe {
                    let base = *(array as *const usize).add(m);
                    let a = solver::Operand { element, base, ld };
                    let pivots =
                        solver::Pivots::I32(if pivots == 0 { 0 } else { pivots + 4 * n * m });
                    solver::getrf(n, n, a, pivots, info + 4 * m);
                }
            }
        };
        // SAFETY: handles come from cublasCreate.
        unsafe { self.blas_queue(handle, factor) }
    }

    unsafe fn cublasGetrsBatched(
        &self,
        handle: cublas::cublasHandle_t,
        data_type: cublas::cudaDataType,
        trans: cublas::cublasOperation_t,
        n: c_int,
        nrhs: c_int,
        a: *const *const c_void,
        lda: c_int,
        pivots: *const c_int,
        b: *const *mut c_void,
        ldb: c_int,
        info: *mut c_int,
        batch: c_int,
    ) -> cublas::cublasStatus_t {
        use cublas::cublasStatus_t as S;
        let Some(element) = solver::Element::of_blas(data_type) else {
            return S::CUBLAS_STATUS_NOT_SUPPORTED;
        };
        if n < 0 || nrhs < 0 || lda < n.max(1) || ldb < n.max(1) || batch < 0 || pivots.is_null() {
            return S::CUBLAS_STATUS_INVALID_VALUE;
        }
        // SAFETY: `info` is a host int32 per the API.
        unsafe { *info = 0 };
        let trans = match trans {
            cublas::cublasOperation_t::CUBLAS_OP_N => cusolver::cublasOperation_t::CUBLAS_OP_N,
            cublas::cublasOperation_t::CUBLAS_OP_T => cusolver::cublasOperation_t::CUBLAS_OP_T,
            _ => cusolver::cublasOperation_t::CUBLAS_OP_C,
        };
        let (n, nrhs, batch) = (n as usize, nrhs as usize, batch as usize);
        let (lda, ldb) = (lda as usize, ldb as usize);
        let (arrays, pivots) = ((a as usize, b as usize), pivots as usize);
        let solve = move || {
            for m in 0..batch {
                // SAFETY: per the API the device arrays hold `batch` addresses of factors and
                // right-hand sides, and the pivots n int32 per matrix.
                unsafe {
                    let a = *(arrays.0 as *const usize).add(m);
                    let b = *(arrays.1 as *const usize).add(m);
                    let a = solver::Operand {
                        element,
                        base: a,
                        ld: lda,
                    };
                    let b = solver::Operand {
                        element,
                        base: b,
                        ld: ldb,
                    };
                    let pivots = solver::Pivots::I32(pivots + 4 * n * m);
                    solver::getrs(trans, n, nrhs, a, pivots, b);
                }
            }
        };
        // SAFETY: handles come from cublasCreate.
        unsafe { self.blas_queue(handle, solve) }
    }
}
