//! cuSOLVER behind the seam: each call forwards to the library, loaded at run time by cudarc
//! (from the path the Python package finds in its wheel, with cuSPARSE and nvJitLink, which
//! it needs).

#![allow(non_snake_case, clippy::too_many_arguments)]

use std::ffi::{c_int, c_schar, c_void};

use cudarc::cublas::sys as cublas;
use cudarc::cusolver::sys as solver;
use cudarc::driver::sys::CUstream;

use super::api::Driver;
use super::real::Real;
use super::solver_api::SolverApi;

impl SolverApi for Real {
    fn solver_present(&self) -> bool {
        if !self.blas_present() {
            return false;
        }
        if let Some(path) = crate::config::config().cusolver.clone() {
            let sparse = path.with_file_name("libcusparse.so.12");
            let jit = path.with_file_name("libnvJitLink.so.13");
            super::real::preload(&[jit, sparse, path]);
        }
        // SAFETY: only probes for the library.
        unsafe { solver::is_culib_present() }
    }

    unsafe fn cusolverDnCreate(
        &self,
        handle: *mut solver::cusolverDnHandle_t,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnCreate(handle)
    }

    unsafe fn cusolverDnSetStream(
        &self,
        handle: solver::cusolverDnHandle_t,
        stream: CUstream,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnSetStream(handle, stream as solver::cudaStream_t)
    }

    unsafe fn cusolverDnCreateParams(
        &self,
        params: *mut solver::cusolverDnParams_t,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnCreateParams(params)
    }

    unsafe fn cusolverDnXgetrf_bufferSize(
        &self,
        handle: solver::cusolverDnHandle_t,
        params: solver::cusolverDnParams_t,
        m: i64,
        n: i64,
        data_type: solver::cudaDataType,
        a: *const c_void,
        lda: i64,
        compute_type: solver::cudaDataType,
        device_bytes: *mut usize,
        host_bytes: *mut usize,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnXgetrf_bufferSize(
            handle,
            params,
            m,
            n,
            data_type,
            a,
            lda,
            compute_type,
            device_bytes,
            host_bytes,
        )
    }

    unsafe fn cusolverDnXgetrf(
        &self,
        handle: solver::cusolverDnHandle_t,
        params: solver::cusolverDnParams_t,
        m: i64,
        n: i64,
        data_type: solver::cudaDataType,
        a: *mut c_void,
        lda: i64,
        ipiv: *mut i64,
        compute_type: solver::cudaDataType,
        device_work: *mut c_void,
        device_bytes: usize,
        host_work: *mut c_void,
        host_bytes: usize,
        info: *mut c_int,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnXgetrf(
            handle,
            params,
            m,
            n,
            data_type,
            a,
            lda,
            ipiv,
            compute_type,
            device_work,
            device_bytes,
            host_work,
            host_bytes,
            info,
        )
    }

    unsafe fn cusolverDnXgetrs(
        &self,
        handle: solver::cusolverDnHandle_t,
        params: solver::cusolverDnParams_t,
        trans: solver::cublasOperation_t,
        n: i64,
        nrhs: i64,
        data_type: solver::cudaDataType,
        a: *const c_void,
        lda: i64,
        ipiv: *const i64,
        b_type: solver::cudaDataType,
        b: *mut c_void,
        ldb: i64,
        info: *mut c_int,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnXgetrs(
            handle, params, trans, n, nrhs, data_type, a, lda, ipiv, b_type, b, ldb, info,
        )
    }

    unsafe fn cusolverDnXpotrf_bufferSize(
        &self,
        handle: solver::cusolverDnHandle_t,
        params: solver::cusolverDnParams_t,
        uplo: solver::cublasFillMode_t,
        n: i64,
        data_type: solver::cudaDataType,
        a: *const c_void,
        lda: i64,
        compute_type: solver::cudaDataType,
        device_bytes: *mut usize,
        host_bytes: *mut usize,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnXpotrf_bufferSize(
            handle,
            params,
            uplo,
            n,
            data_type,
            a,
            lda,
            compute_type,
            device_bytes,
            host_bytes,
        )
    }

    unsafe fn cusolverDnXpotrf(
        &self,
        handle: solver::cusolverDnHandle_t,
        params: solver::cusolverDnParams_t,
        uplo: solver::cublasFillMode_t,
        n: i64,
        data_type: solver::cudaDataType,
        a: *mut c_void,
        lda: i64,
        compute_type: solver::cudaDataType,
        device_work: *mut c_void,
        device_bytes: usize,
        host_work: *mut c_void,
        host_bytes: usize,
        info: *mut c_int,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnXpotrf(
            handle,
            params,
            uplo,
            n,
            data_type,
            a,
            lda,
            compute_type,
            device_work,
            device_bytes,
            host_work,
            host_bytes,
            info,
        )
    }

    unsafe fn cusolverDnXpotrs(
        &self,
        handle: solver::cusolverDnHandle_t,
        params: solver::cusolverDnParams_t,
        uplo: solver::cublasFillMode_t,
        n: i64,
        nrhs: i64,
        data_type: solver::cudaDataType,
        a: *const c_void,
        lda: i64,
        b_type: solver::cudaDataType,
        b: *mut c_void,
        ldb: i64,
        info: *mut c_int,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnXpotrs(
            handle, params, uplo, n, nrhs, data_type, a, lda, b_type, b, ldb, info,
        )
    }
    unsafe fn cusolverDnXsyevd_bufferSize(
        &self,
        handle: solver::cusolverDnHandle_t,
        params: solver::cusolverDnParams_t,
        jobz: solver::cusolverEigMode_t,
        uplo: solver::cublasFillMode_t,
        n: i64,
        data_type: solver::cudaDataType,
        a: *const c_void,
        lda: i64,
        w_type: solver::cudaDataType,
        w: *const c_void,
        compute_type: solver::cudaDataType,
        device_bytes: *mut usize,
        host_bytes: *mut usize,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnXsyevd_bufferSize(
            handle,
            params,
            jobz,
            uplo,
            n,
            data_type,
            a,
            lda,
            w_type,
            w,
            compute_type,
            device_bytes,
            host_bytes,
        )
    }

    unsafe fn cusolverDnXsyevd(
        &self,
        handle: solver::cusolverDnHandle_t,
        params: solver::cusolverDnParams_t,
        jobz: solver::cusolverEigMode_t,
        uplo: solver::cublasFillMode_t,
        n: i64,
        data_type: solver::cudaDataType,
        a: *mut c_void,
        lda: i64,
        w_type: solver::cudaDataType,
        w: *mut c_void,
        compute_type: solver::cudaDataType,
        device_work: *mut c_void,
        device_bytes: usize,
        host_work: *mut c_void,
        host_bytes: usize,
        info: *mut c_int,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnXsyevd(
            handle,
            params,
            jobz,
            uplo,
            n,
            data_type,
            a,
            lda,
            w_type,
            w,
            compute_type,
            device_work,
            device_bytes,
            host_work,
            host_bytes,
            info,
        )
    }

    unsafe fn cusolverDnXgesvd_bufferSize(
        &self,
        handle: solver::cusolverDnHandle_t,
        params: solver::cusolverDnParams_t,
        jobu: c_schar,
        jobvt: c_schar,
        m: i64,
        n: i64,
        data_type: solver::cudaDataType,
        a: *const c_void,
        lda: i64,
        s_type: solver::cudaDataType,
        s: *const c_void,
        u_type: solver::cudaDataType,
        u: *const c_void,
        ldu: i64,
        vt_type: solver::cudaDataType,
        vt: *const c_void,
        ldvt: i64,
        compute_type: solver::cudaDataType,
        device_bytes: *mut usize,
        host_bytes: *mut usize,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnXgesvd_bufferSize(
            handle,
            params,
            jobu,
            jobvt,
            m,
            n,
            data_type,
            a,
            lda,
            s_type,
            s,
            u_type,
            u,
            ldu,
            vt_type,
            vt,
            ldvt,
            compute_type,
            device_bytes,
            host_bytes,
        )
    }

    unsafe fn cusolverDnXgesvd(
        &self,
        handle: solver::cusolverDnHandle_t,
        params: solver::cusolverDnParams_t,
        jobu: c_schar,
        jobvt: c_schar,
        m: i64,
        n: i64,
        data_type: solver::cudaDataType,
        a: *mut c_void,
        lda: i64,
        s_type: solver::cudaDataType,
        s: *mut c_void,
        u_type: solver::cudaDataType,
        u: *mut c_void,
        ldu: i64,
        vt_type: solver::cudaDataType,
        vt: *mut c_void,
        ldvt: i64,
        compute_type: solver::cudaDataType,
        device_work: *mut c_void,
        device_bytes: usize,
        host_work: *mut c_void,
        host_bytes: usize,
        info: *mut c_int,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnXgesvd(
            handle,
            params,
            jobu,
            jobvt,
            m,
            n,
            data_type,
            a,
            lda,
            s_type,
            s,
            u_type,
            u,
            ldu,
            vt_type,
            vt,
            ldvt,
            compute_type,
            device_work,
            device_bytes,
            host_work,
            host_bytes,
            info,
        )
    }
    unsafe fn cusolverDnXgeqrf_bufferSize(
        &self,
        handle: solver::cusolverDnHandle_t,
        params: solver::cusolverDnParams_t,
        m: i64,
        n: i64,
        data_type: solver::cudaDataType,
        a: *const c_void,
        lda: i64,
        tau_type: solver::cudaDataType,
        tau: *const c_void,
        compute_type: solver::cudaDataType,
        device_bytes: *mut usize,
        host_bytes: *mut usize,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnXgeqrf_bufferSize(
            handle,
            params,
            m,
            n,
            data_type,
            a,
            lda,
            tau_type,
            tau,
            compute_type,
            device_bytes,
            host_bytes,
        )
    }

    unsafe fn cusolverDnXgeqrf(
        &self,
        handle: solver::cusolverDnHandle_t,
        params: solver::cusolverDnParams_t,
        m: i64,
        n: i64,
        data_type: solver::cudaDataType,
        a: *mut c_void,
        lda: i64,
        tau_type: solver::cudaDataType,
        tau: *mut c_void,
        compute_type: solver::cudaDataType,
        device_work: *mut c_void,
        device_bytes: usize,
        host_work: *mut c_void,
        host_bytes: usize,
        info: *mut c_int,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnXgeqrf(
            handle,
            params,
            m,
            n,
            data_type,
            a,
            lda,
            tau_type,
            tau,
            compute_type,
            device_work,
            device_bytes,
            host_work,
            host_bytes,
            info,
        )
    }

    unsafe fn cusolverDnOrmqr_bufferSize(
        &self,
        handle: solver::cusolverDnHandle_t,
        data_type: solver::cudaDataType,
        side: solver::cublasSideMode_t,
        trans: solver::cublasOperation_t,
        m: c_int,
        n: c_int,
        k: c_int,
        a: *const c_void,
        lda: c_int,
        tau: *const c_void,
        c: *const c_void,
        ldc: c_int,
        lwork: *mut c_int,
    ) -> solver::cusolverStatus_t {
        use solver::cudaDataType as T;
        let (h, sd, tr) = (handle, side, trans);
        match data_type {
            T::CUDA_R_32F => solver::cusolverDnSormqr_bufferSize(
                h, sd, tr, m, n, k, a as _, lda, tau as _, c as _, ldc, lwork,
            ),
            T::CUDA_R_64F => solver::cusolverDnDormqr_bufferSize(
                h, sd, tr, m, n, k, a as _, lda, tau as _, c as _, ldc, lwork,
            ),
            T::CUDA_C_32F => solver::cusolverDnCunmqr_bufferSize(
                h, sd, tr, m, n, k, a as _, lda, tau as _, c as _, ldc, lwork,
            ),
            T::CUDA_C_64F => solver::cusolverDnZunmqr_bufferSize(
                h, sd, tr, m, n, k, a as _, lda, tau as _, c as _, ldc, lwork,
            ),
            _ => solver::cusolverStatus_t::CUSOLVER_STATUS_NOT_SUPPORTED,
        }
    }

    unsafe fn cusolverDnOrmqr(
        &self,
        handle: solver::cusolverDnHandle_t,
        data_type: solver::cudaDataType,
        side: solver::cublasSideMode_t,
        trans: solver::cublasOperation_t,
        m: c_int,
        n: c_int,
        k: c_int,
        a: *const c_void,
        lda: c_int,
        tau: *const c_void,
        c: *mut c_void,
        ldc: c_int,
        work: *mut c_void,
        lwork: c_int,
        info: *mut c_int,
    ) -> solver::cusolverStatus_t {
        use solver::cudaDataType as T;
        let (h, sd, tr) = (handle, side, trans);
        match data_type {
            T::CUDA_R_32F => solver::cusolverDnSormqr(
                h, sd, tr, m, n, k, a as _, lda, tau as _, c as _, ldc, work as _, lwork, info,
            ),
            T::CUDA_R_64F => solver::cusolverDnDormqr(
                h, sd, tr, m, n, k, a as _, lda, tau as _, c as _, ldc, work as _, lwork, info,
            ),
            T::CUDA_C_32F => solver::cusolverDnCunmqr(
                h, sd, tr, m, n, k, a as _, lda, tau as _, c as _, ldc, work as _, lwork, info,
            ),
            T::CUDA_C_64F => solver::cusolverDnZunmqr(
                h, sd, tr, m, n, k, a as _, lda, tau as _, c as _, ldc, work as _, lwork, info,
            ),
            _ => solver::cusolverStatus_t::CUSOLVER_STATUS_NOT_SUPPORTED,
        }
    }

    unsafe fn cusolverDnSytrf_bufferSize(
        &self,
        handle: solver::cusolverDnHandle_t,
        data_type: solver::cudaDataType,
        n: c_int,
        a: *mut c_void,
        lda: c_int,
        lwork: *mut c_int,
    ) -> solver::cusolverStatus_t {
        use solver::cudaDataType as T;
        match data_type {
            T::CUDA_R_32F => solver::cusolverDnSsytrf_bufferSize(handle, n, a as _, lda, lwork),
            T::CUDA_R_64F => solver::cusolverDnDsytrf_bufferSize(handle, n, a as _, lda, lwork),
            T::CUDA_C_32F => solver::cusolverDnCsytrf_bufferSize(handle, n, a as _, lda, lwork),
            T::CUDA_C_64F => solver::cusolverDnZsytrf_bufferSize(handle, n, a as _, lda, lwork),
            _ => solver::cusolverStatus_t::CUSOLVER_STATUS_NOT_SUPPORTED,
        }
    }

    unsafe fn cusolverDnSytrf(
        &self,
        handle: solver::cusolverDnHandle_t,
        data_type: solver::cudaDataType,
        uplo: solver::cublasFillMode_t,
        n: c_int,
        a: *mut c_void,
        lda: c_int,
        ipiv: *mut c_int,
        work: *mut c_void,
        lwork: c_int,
        info: *mut c_int,
    ) -> solver::cusolverStatus_t {
        use solver::cudaDataType as T;
        let (h, ul) = (handle, uplo);
        match data_type {
            T::CUDA_R_32F => {
                solver::cusolverDnSsytrf(h, ul, n, a as _, lda, ipiv, work as _, lwork, info)
            }
            T::CUDA_R_64F => {
                solver::cusolverDnDsytrf(h, ul, n, a as _, lda, ipiv, work as _, lwork, info)
            }
            T::CUDA_C_32F => {
                solver::cusolverDnCsytrf(h, ul, n, a as _, lda, ipiv, work as _, lwork, info)
            }
            T::CUDA_C_64F => {
                solver::cusolverDnZsytrf(h, ul, n, a as _, lda, ipiv, work as _, lwork, info)
            }
            _ => solver::cusolverStatus_t::CUSOLVER_STATUS_NOT_SUPPORTED,
        }
    }

    unsafe fn cusolverDnXsytrs_bufferSize(
        &self,
        handle: solver::cusolverDnHandle_t,
        uplo: solver::cublasFillMode_t,
        n: i64,
        nrhs: i64,
        data_type: solver::cudaDataType,
        a: *const c_void,
        lda: i64,
        ipiv: *const i64,
        b_type: solver::cudaDataType,
        b: *mut c_void,
        ldb: i64,
        device_bytes: *mut usize,
        host_bytes: *mut usize,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnXsytrs_bufferSize(
            handle,
            uplo,
            n,
            nrhs,
            data_type,
            a,
            lda,
            ipiv,
            b_type,
            b,
            ldb,
            device_bytes,
            host_bytes,
        )
    }

    unsafe fn cusolverDnXsytrs(
        &self,
        handle: solver::cusolverDnHandle_t,
        uplo: solver::cublasFillMode_t,
        n: i64,
        nrhs: i64,
        data_type: solver::cudaDataType,
        a: *const c_void,
        lda: i64,
        ipiv: *const i64,
        b_type: solver::cudaDataType,
        b: *mut c_void,
        ldb: i64,
        device_work: *mut c_void,
        device_bytes: usize,
        host_work: *mut c_void,
        host_bytes: usize,
        info: *mut c_int,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnXsytrs(
            handle,
            uplo,
            n,
            nrhs,
            data_type,
            a,
            lda,
            ipiv,
            b_type,
            b,
            ldb,
            device_work,
            device_bytes,
            host_work,
            host_bytes,
            info,
        )
    }

    unsafe fn cusolverDnXgeev_bufferSize(
        &self,
        handle: solver::cusolverDnHandle_t,
        params: solver::cusolverDnParams_t,
        jobvl: solver::cusolverEigMode_t,
        jobvr: solver::cusolverEigMode_t,
        n: i64,
        data_type: solver::cudaDataType,
        a: *const c_void,
        lda: i64,
        w_type: solver::cudaDataType,
        w: *const c_void,
        vl_type: solver::cudaDataType,
        vl: *const c_void,
        ldvl: i64,
        vr_type: solver::cudaDataType,
        vr: *const c_void,
        ldvr: i64,
        compute_type: solver::cudaDataType,
        device_bytes: *mut usize,
        host_bytes: *mut usize,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnXgeev_bufferSize(
            handle,
            params,
            jobvl,
            jobvr,
            n,
            data_type,
            a,
            lda,
            w_type,
            w,
            vl_type,
            vl,
            ldvl,
            vr_type,
            vr,
            ldvr,
            compute_type,
            device_bytes,
            host_bytes,
        )
    }

    unsafe fn cusolverDnXgeev(
        &self,
        handle: solver::cusolverDnHandle_t,
        params: solver::cusolverDnParams_t,
        jobvl: solver::cusolverEigMode_t,
        jobvr: solver::cusolverEigMode_t,
        n: i64,
        data_type: solver::cudaDataType,
        a: *mut c_void,
        lda: i64,
        w_type: solver::cudaDataType,
        w: *mut c_void,
        vl_type: solver::cudaDataType,
        vl: *mut c_void,
        ldvl: i64,
        vr_type: solver::cudaDataType,
        vr: *mut c_void,
        ldvr: i64,
        compute_type: solver::cudaDataType,
        device_work: *mut c_void,
        device_bytes: usize,
        host_work: *mut c_void,
        host_bytes: usize,
        info: *mut c_int,
    ) -> solver::cusolverStatus_t {
        solver::cusolverDnXgeev(
            handle,
            params,
            jobvl,
            jobvr,
            n,
            data_type,
            a,
            lda,
            w_type,
            w,
            vl_type,
            vl,
            ldvl,
            vr_type,
            vr,
            ldvr,
            compute_type,
            device_work,
            device_bytes,
            host_work,
            host_bytes,
            info,
        )
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
        use cublas::cudaDataType as T;
        let (h, p, i, b) = (handle, pivots, info, batch);
        match data_type {
            T::CUDA_R_32F => cublas::cublasSgetrfBatched(h, n, a as _, lda, p, i, b),
            T::CUDA_R_64F => cublas::cublasDgetrfBatched(h, n, a as _, lda, p, i, b),
            T::CUDA_C_32F => cublas::cublasCgetrfBatched(h, n, a as _, lda, p, i, b),
            T::CUDA_C_64F => cublas::cublasZgetrfBatched(h, n, a as _, lda, p, i, b),
            _ => cublas::cublasStatus_t::CUBLAS_STATUS_NOT_SUPPORTED,
        }
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
        use cublas::cudaDataType as T;
        let (h, t, p) = (handle, trans, pivots);
        match data_type {
            T::CUDA_R_32F => {
                cublas::cublasSgetrsBatched(h, t, n, nrhs, a as _, lda, p, b as _, ldb, info, batch)
            }
            T::CUDA_R_64F => {
                cublas::cublasDgetrsBatched(h, t, n, nrhs, a as _, lda, p, b as _, ldb, info, batch)
            }
            T::CUDA_C_32F => {
                cublas::cublasCgetrsBatched(h, t, n, nrhs, a as _, lda, p, b as _, ldb, info, batch)
            }
            T::CUDA_C_64F => {
                cublas::cublasZgetrsBatched(h, t, n, nrhs, a as _, lda, p, b as _, ldb, info, batch)
            }
            _ => cublas::cublasStatus_t::CUBLAS_STATUS_NOT_SUPPORTED,
        }
    }
}
