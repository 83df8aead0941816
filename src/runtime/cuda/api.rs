//! The seam between the CUDA backend and what it runs on: every driver, cuBLAS, cuBLASLt,
//! cuFFT, cuSOLVER (`solver_api`) and NCCL (`collective_api`) call the backend makes, by its C name and signature, and the compiler of its kernels. The
//! real libraries implement it (`real`), and so does a CPU emulation of them (`emulated`, for
//! tests); everything above this trait is the code that runs on a GPU.

#![allow(non_snake_case, clippy::too_many_arguments)]

use std::ffi::{c_char, c_int, c_uint, c_void};
use std::sync::OnceLock;

use cudarc::cublas::sys as blas;
use cudarc::cublaslt::sys as lt;
use cudarc::cufft::sys as fft;
use cudarc::driver::sys::{
    CUcontext, CUdevice, CUdevice_attribute, CUdeviceptr, CUevent, CUfunction, CUmodule, CUresult,
    CUstream,
};

use super::collective_api::CollectiveApi;
use super::solver_api::SolverApi;
use crate::error::Result;
use crate::kernels::compile::CudaCompiler;

/// A column-major matrix as a cuBLASLt layout describes it.
#[derive(Clone, Copy, Debug)]
pub struct LtLayout {
    pub rows: u64,
    pub cols: u64,
    pub ld: i64,
}

/// One `cublasLtMatmul` with everything its descriptors hold: `d = alpha * op(a) op(b) +
/// beta * c (+ bias, broadcast over columns, with the bias epilogue)`, `c` and `d` sharing
/// the result layout. `trans_a`/`trans_b` are cuBLAS's codes (1 transposes).
pub struct LtMatmul {
    pub compute: lt::cublasComputeType_t,
    pub scale: lt::cudaDataType,
    pub data: lt::cudaDataType,
    pub trans_a: i32,
    pub trans_b: i32,
    pub epilogue: lt::cublasLtEpilogue_t,
    pub bias: *const c_void,
    pub bias_type: lt::cudaDataType,
    pub layouts: [LtLayout; 3],
    pub alignments: [u32; 3],
    pub alpha: f32,
    pub beta: f32,
    pub a: *const c_void,
    pub b: *const c_void,
    pub d: *mut c_void,
    pub workspace: *mut c_void,
    pub workspace_bytes: usize,
    pub stream: CUstream,
}

/// The calls the CUDA backend makes. Driver calls return the driver's codes; library calls
/// their libraries' statuses, so that the code above handles the same results either way.
pub trait Driver: SolverApi + CollectiveApi + Send + Sync {
    /// Whether the driver library can be used at all (the real one: libcuda loads).
    fn library_present(&self) -> bool;
    /// The kernel compiler whose binaries `cuModuleLoadData` takes.
    fn compiler(&self) -> &dyn CudaCompiler;

    unsafe fn cuInit(&self, flags: c_uint) -> CUresult;
    unsafe fn cuGetErrorString(&self, error: CUresult, text: *mut *const c_char) -> CUresult;
    unsafe fn cuDeviceGetCount(&self, count: *mut c_int) -> CUresult;
    unsafe fn cuDeviceGet(&self, device: *mut CUdevice, ordinal: c_int) -> CUresult;
    unsafe fn cuDeviceGetName(&self, name: *mut c_char, len: c_int, device: CUdevice) -> CUresult;
    unsafe fn cuDeviceGetAttribute(
        &self,
        value: *mut c_int,
        attribute: CUdevice_attribute,
        device: CUdevice,
    ) -> CUresult;
    unsafe fn cuDevicePrimaryCtxRetain(
        &self,
        context: *mut CUcontext,
        device: CUdevice,
    ) -> CUresult;
    unsafe fn cuCtxGetCurrent(&self, context: *mut CUcontext) -> CUresult;
    unsafe fn cuCtxSetCurrent(&self, context: CUcontext) -> CUresult;
    unsafe fn cuCtxSynchronize(&self) -> CUresult;

    unsafe fn cuMemAlloc_v2(&self, pointer: *mut CUdeviceptr, bytes: usize) -> CUresult;
    unsafe fn cuMemFree_v2(&self, pointer: CUdeviceptr) -> CUresult;
    unsafe fn cuMemGetInfo_v2(&self, free: *mut usize, total: *mut usize) -> CUresult;
    unsafe fn cuMemHostAlloc(
        &self,
        pointer: *mut *mut c_void,
        bytes: usize,
        flags: c_uint,
    ) -> CUresult;
    unsafe fn cuMemFreeHost(&self, pointer: *mut c_void) -> CUresult;
    /// The memory type (`CU_POINTER_ATTRIBUTE_MEMORY_TYPE`) of `pointer`, written to `kind`.
    unsafe fn cuPointerGetMemoryType(&self, kind: *mut c_uint, pointer: CUdeviceptr) -> CUresult;
    unsafe fn cuMemcpyHtoDAsync_v2(
        &self,
        dst: CUdeviceptr,
        src: *const c_void,
        bytes: usize,
        stream: CUstream,
    ) -> CUresult;
    unsafe fn cuMemcpyDtoHAsync_v2(
        &self,
        dst: *mut c_void,
        src: CUdeviceptr,
        bytes: usize,
        stream: CUstream,
    ) -> CUresult;
    unsafe fn cuMemcpyDtoDAsync_v2(
        &self,
        dst: CUdeviceptr,
        src: CUdeviceptr,
        bytes: usize,
        stream: CUstream,
    ) -> CUresult;

    unsafe fn cuStreamCreate(&self, stream: *mut CUstream, flags: c_uint) -> CUresult;
    unsafe fn cuStreamSynchronize(&self, stream: CUstream) -> CUresult;
    unsafe fn cuStreamQuery(&self, stream: CUstream) -> CUresult;
    unsafe fn cuStreamWaitEvent(&self, stream: CUstream, event: CUevent, flags: c_uint)
        -> CUresult;

    unsafe fn cuEventCreate(&self, event: *mut CUevent, flags: c_uint) -> CUresult;
    unsafe fn cuEventRecord(&self, event: CUevent, stream: CUstream) -> CUresult;
    unsafe fn cuEventQuery(&self, event: CUevent) -> CUresult;
    unsafe fn cuEventSynchronize(&self, event: CUevent) -> CUresult;
    unsafe fn cuEventElapsedTime_v2(&self, ms: *mut f32, start: CUevent, end: CUevent) -> CUresult;
    unsafe fn cuEventDestroy_v2(&self, event: CUevent) -> CUresult;

    unsafe fn cuModuleLoadData(&self, module: *mut CUmodule, image: *const c_void) -> CUresult;
    unsafe fn cuModuleGetFunction(
        &self,
        function: *mut CUfunction,
        module: CUmodule,
        name: *const c_char,
    ) -> CUresult;
    unsafe fn cuLaunchKernel(
        &self,
        function: CUfunction,
        grid: [c_uint; 3],
        block: [c_uint; 3],
        shared_bytes: c_uint,
        stream: CUstream,
        params: *mut *mut c_void,
        extra: *mut *mut c_void,
    ) -> CUresult;

    /// Whether cuBLAS (and with it cuBLASLt) can be used.
    fn blas_present(&self) -> bool;
    unsafe fn cublasCreate_v2(&self, handle: *mut blas::cublasHandle_t) -> blas::cublasStatus_t;
    unsafe fn cublasSetStream_v2(
        &self,
        handle: blas::cublasHandle_t,
        stream: blas::cudaStream_t,
    ) -> blas::cublasStatus_t;
    unsafe fn cublasGemmStridedBatchedEx(
        &self,
        handle: blas::cublasHandle_t,
        transa: blas::cublasOperation_t,
        transb: blas::cublasOperation_t,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: *const c_void,
        a: *const c_void,
        a_type: blas::cudaDataType,
        lda: c_int,
        stride_a: i64,
        b: *const c_void,
        b_type: blas::cudaDataType,
        ldb: c_int,
        stride_b: i64,
        beta: *const c_void,
        c: *mut c_void,
        c_type: blas::cudaDataType,
        ldc: c_int,
        stride_c: i64,
        batch: c_int,
        compute: blas::cublasComputeType_t,
        algo: blas::cublasGemmAlgo_t,
    ) -> blas::cublasStatus_t;

    /// The `cublas{S,D,C,Z}trsm_v2` call `data_type` names (real or complex, single or
    /// double), `alpha` pointing to a value of that type.
    unsafe fn cublasTrsm(
        &self,
        handle: blas::cublasHandle_t,
        data_type: blas::cudaDataType,
        side: blas::cublasSideMode_t,
        uplo: blas::cublasFillMode_t,
        trans: blas::cublasOperation_t,
        diag: blas::cublasDiagType_t,
        m: c_int,
        n: c_int,
        alpha: *const c_void,
        a: *const c_void,
        lda: c_int,
        b: *mut c_void,
        ldb: c_int,
    ) -> blas::cublasStatus_t;

    unsafe fn cublasLtCreate(&self, handle: *mut lt::cublasLtHandle_t) -> lt::cublasStatus_t;
    /// Describes `call` to cuBLASLt (descriptor, layouts, preference), asks its heuristic for
    /// an algorithm and runs it: Ok(false) when no algorithm takes the call.
    unsafe fn cublasLtMatmul(&self, handle: lt::cublasLtHandle_t, call: &LtMatmul) -> Result<bool>;

    /// Whether cuFFT can be used.
    fn fft_present(&self) -> bool;
    unsafe fn cufftCreate(&self, plan: *mut fft::cufftHandle) -> fft::cufftResult;
    unsafe fn cufftMakePlanMany64(
        &self,
        plan: fft::cufftHandle,
        rank: c_int,
        n: *mut i64,
        inembed: *mut i64,
        istride: i64,
        idist: i64,
        onembed: *mut i64,
        ostride: i64,
        odist: i64,
        kind: fft::cufftType,
        batch: i64,
        work_size: *mut usize,
    ) -> fft::cufftResult;
    unsafe fn cufftSetStream(&self, plan: fft::cufftHandle, stream: CUstream) -> fft::cufftResult;
    unsafe fn cufftDestroy(&self, plan: fft::cufftHandle) -> fft::cufftResult;
    /// The `cufftExec*` call the plan's type names (C2C, R2C, C2R, Z2Z, D2Z or Z2D), with
    /// `direction` (`CUFFT_FORWARD` -1, `CUFFT_INVERSE` 1) for the complex-to-complex ones.
    unsafe fn cufftExec(
        &self,
        plan: fft::cufftHandle,
        kind: fft::cufftType,
        input: *mut c_void,
        output: *mut c_void,
        direction: c_int,
    ) -> fft::cufftResult;
}

static DRIVER: OnceLock<Box<dyn Driver>> = OnceLock::new();

/// The process's driver, installed by `cuda::discover` (the real one unless the emulated
/// platform was chosen first).
pub fn driver() -> &'static dyn Driver {
    DRIVER.get_or_init(|| Box::new(super::real::Real)).as_ref()
}

/// Installs `chosen` unless a driver is already in use; returns the one in use.
pub fn install(chosen: Box<dyn Driver>) -> &'static dyn Driver {
    DRIVER.get_or_init(|| chosen).as_ref()
}
