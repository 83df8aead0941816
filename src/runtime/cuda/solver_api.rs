//! The cuSOLVER part of the seam (`api::Driver`): every cuSOLVER call the backend makes, by
//! its C name and signature; the real library (`real_solver`) and the CPU emulation
//! (`emulated::solver_calls`) implement it.

#![allow(non_snake_case, clippy::too_many_arguments)]

use std::ffi::{c_int, c_schar, c_void};

use cudarc::cusolver::sys as solver;
use cudarc::driver::sys::CUstream;

/// The cuSOLVER calls of the CUDA backend, returning cuSOLVER's statuses.
pub trait SolverApi {
    /// Whether cuSOLVER can be used.
    fn solver_present(&self) -> bool;
    unsafe fn cusolverDnCreate(
        &self,
        handle: *mut solver::cusolverDnHandle_t,
    ) -> solver::cusolverStatus_t;
    unsafe fn cusolverDnSetStream(
        &self,
        handle: solver::cusolverDnHandle_t,
        stream: CUstream,
    ) -> solver::cusolverStatus_t;
    unsafe fn cusolverDnCreateParams(
        &self,
        params: *mut solver::cusolverDnParams_t,
    ) -> solver::cusolverStatus_t;
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
    ) -> solver::cusolverStatus_t;
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
    ) -> solver::cusolverStatus_t;
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
    ) -> solver::cusolverStatus_t;
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
    ) -> solver::cusolverStatus_t;
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
    ) -> solver::cusolverStatus_t;
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
    ) -> solver::cusolverStatus_t;
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
    ) -> solver::cusolverStatus_t;
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
    ) -> solver::cusolverStatus_t;
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
    ) -> solver::cusolverStatus_t;
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
    ) -> solver::cusolverStatus_t;
}
