//! The real libraries behind the seam: libcuda, NVRTC, cuBLAS, cuBLASLt, cuFFT (and cuSOLVER:
//! `real_solver`), loaded at run time
//! by cudarc (and `kernels::nvrtc`). Each call forwards to its library; cuBLASLt's matmul
//! builds the descriptors its call describes.

#![allow(non_snake_case)]

use std::ffi::{c_char, c_int, c_uint, c_void};

use cudarc::cublas::sys as blas;
use cudarc::cublaslt::sys as lt;
use cudarc::cufft::sys as fft;
use cudarc::driver::sys::{
    self, CUcontext, CUdevice, CUdevice_attribute, CUdeviceptr, CUevent, CUfunction, CUmodule,
    CUresult, CUstream,
};

use super::api::{Driver, LtMatmul};
use super::blas::status;
use crate::error::Result;
use crate::kernels::compile::{CudaCompiler, Nvrtc};

/// The NVIDIA libraries.
pub struct Real;

/// Loads cuBLAS from `TORCH_MOJO_BACKEND_CUBLAS` (set by the Python package from the
/// nvidia-cublas wheel) into the global namespace, so that cudarc's lookup by name finds it.
/// cuBLASLt, which cuBLAS needs, is loaded first from the same folder.
fn preload_blas() {
    let Some(path) = crate::config::config().cublas.clone() else {
        return;
    };
    let lt = path.with_file_name("libcublasLt.so.13");
    preload(&[lt, path]);
}

/// Loads each of `libraries` into the global namespace, kept for the life of the process.
pub(super) fn preload(libraries: &[std::path::PathBuf]) {
    for library in libraries {
        use libloading::os::unix::{Library, RTLD_GLOBAL, RTLD_NOW};
        // SAFETY: loading NVIDIA's libraries runs no initialisers with preconditions.
        if let Ok(lib) = unsafe { Library::open(Some(library), RTLD_NOW | RTLD_GLOBAL) } {
            std::mem::forget(lib);
        }
    }
}

impl Driver for Real {
    fn library_present(&self) -> bool {
        // SAFETY: only tries to open the library.
        unsafe { sys::is_culib_present() }
    }

    fn compiler(&self) -> &dyn CudaCompiler {
        &Nvrtc
    }

    unsafe fn cuInit(&self, flags: c_uint) -> CUresult {
        sys::cuInit(flags)
    }

    unsafe fn cuGetErrorString(&self, error: CUresult, text: *mut *const c_char) -> CUresult {
        sys::cuGetErrorString(error, text)
    }

    unsafe fn cuDeviceGetCount(&self, count: *mut c_int) -> CUresult {
        sys::cuDeviceGetCount(count)
    }

    unsafe fn cuDeviceGet(&self, device: *mut CUdevice, ordinal: c_int) -> CUresult {
        sys::cuDeviceGet(device, ordinal)
    }

    unsafe fn cuDeviceGetName(&self, name: *mut c_char, len: c_int, device: CUdevice) -> CUresult {
        sys::cuDeviceGetName(name, len, device)
    }

    unsafe fn cuDeviceGetAttribute(
        &self,
        value: *mut c_int,
        attribute: CUdevice_attribute,
        device: CUdevice,
    ) -> CUresult {
        sys::cuDeviceGetAttribute(value, attribute, device)
    }

    unsafe fn cuDevicePrimaryCtxRetain(
        &self,
        context: *mut CUcontext,
        device: CUdevice,
    ) -> CUresult {
        sys::cuDevicePrimaryCtxRetain(context, device)
    }

    unsafe fn cuCtxGetCurrent(&self, context: *mut CUcontext) -> CUresult {
        sys::cuCtxGetCurrent(context)
    }

    unsafe fn cuCtxSetCurrent(&self, context: CUcontext) -> CUresult {
        sys::cuCtxSetCurrent(context)
    }

    unsafe fn cuCtxSynchronize(&self) -> CUresult {
        sys::cuCtxSynchronize()
    }

    unsafe fn cuMemAlloc_v2(&self, pointer: *mut CUdeviceptr, bytes: usize) -> CUresult {
        sys::cuMemAlloc_v2(pointer, bytes)
    }

    unsafe fn cuMemFree_v2(&self, pointer: CUdeviceptr) -> CUresult {
        sys::cuMemFree_v2(pointer)
    }

    unsafe fn cuMemGetInfo_v2(&self, free: *mut usize, total: *mut usize) -> CUresult {
        sys::cuMemGetInfo_v2(free, total)
    }

    unsafe fn cuMemHostAlloc(
        &self,
        pointer: *mut *mut c_void,
        bytes: usize,
        flags: c_uint,
    ) -> CUresult {
        sys::cuMemHostAlloc(pointer, bytes, flags)
    }

    unsafe fn cuMemFreeHost(&self, pointer: *mut c_void) -> CUresult {
        sys::cuMemFreeHost(pointer)
    }

    unsafe fn cuPointerGetMemoryType(&self, kind: *mut c_uint, pointer: CUdeviceptr) -> CUresult {
        sys::cuPointerGetAttribute(
            kind as *mut c_void,
            sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
            pointer,
        )
    }

    unsafe fn cuMemcpyHtoDAsync_v2(
        &self,
        dst: CUdeviceptr,
        src: *const c_void,
        bytes: usize,
        stream: CUstream,
    ) -> CUresult {
        sys::cuMemcpyHtoDAsync_v2(dst, src, bytes, stream)
    }

    unsafe fn cuMemcpyDtoHAsync_v2(
        &self,
        dst: *mut c_void,
        src: CUdeviceptr,
        bytes: usize,
        stream: CUstream,
    ) -> CUresult {
        sys::cuMemcpyDtoHAsync_v2(dst, src, bytes, stream)
    }

    unsafe fn cuMemcpyDtoDAsync_v2(
        &self,
        dst: CUdeviceptr,
        src: CUdeviceptr,
        bytes: usize,
        stream: CUstream,
    ) -> CUresult {
        sys::cuMemcpyDtoDAsync_v2(dst, src, bytes, stream)
    }

    unsafe fn cuStreamCreate(&self, stream: *mut CUstream, flags: c_uint) -> CUresult {
        sys::cuStreamCreate(stream, flags)
    }

    unsafe fn cuStreamSynchronize(&self, stream: CUstream) -> CUresult {
        sys::cuStreamSynchronize(stream)
    }

    unsafe fn cuStreamQuery(&self, stream: CUstream) -> CUresult {
        sys::cuStreamQuery(stream)
    }

    unsafe fn cuStreamWaitEvent(
        &self,
        stream: CUstream,
        event: CUevent,
        flags: c_uint,
    ) -> CUresult {
        sys::cuStreamWaitEvent(stream, event, flags)
    }

    unsafe fn cuEventCreate(&self, event: *mut CUevent, flags: c_uint) -> CUresult {
        sys::cuEventCreate(event, flags)
    }

    unsafe fn cuEventRecord(&self, event: CUevent, stream: CUstream) -> CUresult {
        sys::cuEventRecord(event, stream)
    }

    unsafe fn cuEventQuery(&self, event: CUevent) -> CUresult {
        sys::cuEventQuery(event)
    }

    unsafe fn cuEventSynchronize(&self, event: CUevent) -> CUresult {
        sys::cuEventSynchronize(event)
    }

    unsafe fn cuEventElapsedTime_v2(&self, ms: *mut f32, start: CUevent, end: CUevent) -> CUresult {
        sys::cuEventElapsedTime_v2(ms, start, end)
    }

    unsafe fn cuEventDestroy_v2(&self, event: CUevent) -> CUresult {
        sys::cuEventDestroy_v2(event)
    }

    unsafe fn cuModuleLoadData(&self, module: *mut CUmodule, image: *const c_void) -> CUresult {
        sys::cuModuleLoadData(module, image)
    }

    unsafe fn cuModuleGetFunction(
        &self,
        function: *mut CUfunction,
        module: CUmodule,
        name: *const c_char,
    ) -> CUresult {
        sys::cuModuleGetFunction(function, module, name)
    }

    unsafe fn cublasCreate_v2(&self, handle: *mut blas::cublasHandle_t) -> blas::cublasStatus_t {
        blas::cublasCreate_v2(handle)
    }

    unsafe fn cublasSetStream_v2(
        &self,
        handle: blas::cublasHandle_t,
        stream: blas::cudaStream_t,
    ) -> blas::cublasStatus_t {
        blas::cublasSetStream_v2(handle, stream)
    }

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
    ) -> blas::cublasStatus_t {
        blas::cublasGemmStridedBatchedEx(
            handle, transa, transb, m, n, k, alpha, a, a_type, lda, stride_a, b, b_type, ldb,
            stride_b, beta, c, c_type, ldc, stride_c, batch, compute, algo,
        )
    }

    unsafe fn cuLaunchKernel(
        &self,
        function: CUfunction,
        grid: [c_uint; 3],
        block: [c_uint; 3],
        shared_bytes: c_uint,
        stream: CUstream,
        params: *mut *mut c_void,
        extra: *mut *mut c_void,
    ) -> CUresult {
        sys::cuLaunchKernel(
            function,
            grid[0],
            grid[1],
            grid[2],
            block[0],
            block[1],
            block[2],
            shared_bytes,
            stream,
            params,
            extra,
        )
    }

    fn blas_present(&self) -> bool {
        preload_blas();
        // SAFETY: only probes for the libraries.
        unsafe { blas::is_culib_present() && lt::is_culib_present() }
    }

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
    ) -> blas::cublasStatus_t {
        use blas::cudaDataType as T;
        let (h, sd, ul, tr, dg) = (handle, side, uplo, trans, diag);
        match data_type {
            T::CUDA_R_32F => blas::cublasStrsm_v2(
                h, sd, ul, tr, dg, m, n, alpha as _, a as _, lda, b as _, ldb,
            ),
            T::CUDA_R_64F => blas::cublasDtrsm_v2(
                h, sd, ul, tr, dg, m, n, alpha as _, a as _, lda, b as _, ldb,
            ),
            T::CUDA_C_32F => blas::cublasCtrsm_v2(
                h, sd, ul, tr, dg, m, n, alpha as _, a as _, lda, b as _, ldb,
            ),
            T::CUDA_C_64F => blas::cublasZtrsm_v2(
                h, sd, ul, tr, dg, m, n, alpha as _, a as _, lda, b as _, ldb,
            ),
            _ => blas::cublasStatus_t::CUBLAS_STATUS_NOT_SUPPORTED,
        }
    }

    unsafe fn cublasLtCreate(&self, handle: *mut lt::cublasLtHandle_t) -> lt::cublasStatus_t {
        lt::cublasLtCreate(handle)
    }

    unsafe fn cublasLtMatmul(&self, handle: lt::cublasLtHandle_t, call: &LtMatmul) -> Result<bool> {
        lt_matmul(handle, call)
    }

    fn fft_present(&self) -> bool {
        if let Some(path) = crate::config::config().cufft.clone() {
            preload(&[path]);
        }
        // SAFETY: only probes for the library.
        unsafe { fft::is_culib_present() }
    }

    unsafe fn cufftCreate(&self, plan: *mut fft::cufftHandle) -> fft::cufftResult {
        fft::cufftCreate(plan)
    }

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
    ) -> fft::cufftResult {
        fft::cufftMakePlanMany64(
            plan, rank, n, inembed, istride, idist, onembed, ostride, odist, kind, batch, work_size,
        )
    }

    unsafe fn cufftSetStream(&self, plan: fft::cufftHandle, stream: CUstream) -> fft::cufftResult {
        fft::cufftSetStream(plan, stream as fft::cudaStream_t)
    }

    unsafe fn cufftDestroy(&self, plan: fft::cufftHandle) -> fft::cufftResult {
        fft::cufftDestroy(plan)
    }

    unsafe fn cufftExec(
        &self,
        plan: fft::cufftHandle,
        kind: fft::cufftType,
        input: *mut c_void,
        output: *mut c_void,
        direction: c_int,
    ) -> fft::cufftResult {
        use fft::cufftType as T;
        match kind {
            T::CUFFT_C2C => fft::cufftExecC2C(plan, input as _, output as _, direction),
            T::CUFFT_R2C => fft::cufftExecR2C(plan, input as _, output as _),
            T::CUFFT_C2R => fft::cufftExecC2R(plan, input as _, output as _),
            T::CUFFT_Z2Z => fft::cufftExecZ2Z(plan, input as _, output as _, direction),
            T::CUFFT_D2Z => fft::cufftExecD2Z(plan, input as _, output as _),
            T::CUFFT_Z2D => fft::cufftExecZ2D(plan, input as _, output as _),
        }
    }
}

struct Desc(lt::cublasLtMatmulDesc_t);
struct Layout(lt::cublasLtMatrixLayout_t);
struct Preference(lt::cublasLtMatmulPreference_t);

impl Drop for Desc {
    fn drop(&mut self) {
        // SAFETY: created by cublasLtMatmulDescCreate, used by no call any more.
        unsafe { lt::cublasLtMatmulDescDestroy(self.0) };
    }
}

impl Drop for Layout {
    fn drop(&mut self) {
        // SAFETY: created by cublasLtMatrixLayoutCreate, used by no call any more.
        unsafe { lt::cublasLtMatrixLayoutDestroy(self.0) };
    }
}

impl Drop for Preference {
    fn drop(&mut self) {
        // SAFETY: created by cublasLtMatmulPreferenceCreate, used by no call any more.
        unsafe { lt::cublasLtMatmulPreferenceDestroy(self.0) };
    }
}

/// An attribute value as cuBLASLt's setters take it.
fn attribute<T>(value: &T) -> (*const c_void, usize) {
    (value as *const T as *const c_void, std::mem::size_of::<T>())
}

/// A column-major matrix layout of `call`'s data type.
fn layout(call: &LtMatmul, which: usize) -> Result<Layout> {
    let l = call.layouts[which];
    let mut made: lt::cublasLtMatrixLayout_t = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    status(
        unsafe { lt::cublasLtMatrixLayoutCreate(&mut made, call.data, l.rows, l.cols, l.ld) },
        "cublasLtMatrixLayoutCreate",
    )?;
    Ok(Layout(made))
}

/// `call` through cuBLASLt's descriptors, its heuristic's first algorithm and its matmul.
fn lt_matmul(handle: lt::cublasLtHandle_t, call: &LtMatmul) -> Result<bool> {
    let mut desc = Desc(std::ptr::null_mut());
    // SAFETY: valid out-pointer.
    status(
        unsafe { lt::cublasLtMatmulDescCreate(&mut desc.0, call.compute, call.scale) },
        "cublasLtMatmulDescCreate",
    )?;
    let bias_type = call.bias_type as u32;
    use lt::cublasLtMatmulDescAttributes_t as D;
    let settings = [
        (D::CUBLASLT_MATMUL_DESC_TRANSA, attribute(&call.trans_a)),
        (D::CUBLASLT_MATMUL_DESC_TRANSB, attribute(&call.trans_b)),
        (D::CUBLASLT_MATMUL_DESC_EPILOGUE, attribute(&call.epilogue)),
        (D::CUBLASLT_MATMUL_DESC_BIAS_POINTER, attribute(&call.bias)),
        (
            D::CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE,
            attribute(&bias_type),
        ),
    ];
    for (what, (value, size)) in settings {
        // SAFETY: each value is of the type the attribute documents and outlives the call.
        status(
            unsafe { lt::cublasLtMatmulDescSetAttribute(desc.0, what, value, size) },
            "cublasLtMatmulDescSetAttribute",
        )?;
    }
    let (first, second, result) = (layout(call, 0)?, layout(call, 1)?, layout(call, 2)?);
    let mut preference = Preference(std::ptr::null_mut());
    // SAFETY: valid out-pointer.
    status(
        unsafe { lt::cublasLtMatmulPreferenceCreate(&mut preference.0) },
        "cublasLtMatmulPreferenceCreate",
    )?;
    let workspace_bytes = call.workspace_bytes as u64;
    let [align_a, align_b, align_d] = call.alignments;
    use lt::cublasLtMatmulPreferenceAttributes_t as P;
    let preferences = [
        (
            P::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
            attribute(&workspace_bytes),
        ),
        (
            P::CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
            attribute(&align_a),
        ),
        (
            P::CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
            attribute(&align_b),
        ),
        (
            P::CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES,
            attribute(&align_d),
        ),
        (
            P::CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES,
            attribute(&align_d),
        ),
    ];
    for (what, (value, size)) in preferences {
        // SAFETY: as for the descriptor's attributes.
        status(
            unsafe { lt::cublasLtMatmulPreferenceSetAttribute(preference.0, what, value, size) },
            "cublasLtMatmulPreferenceSetAttribute",
        )?;
    }
    // SAFETY: a zeroed result is a valid value of this plain C struct.
    let mut heuristic: lt::cublasLtMatmulHeuristicResult_t = unsafe { std::mem::zeroed() };
    let mut found = 0;
    // SAFETY: every descriptor is live; one result fits the out-pointer.
    let rc = unsafe {
        lt::cublasLtMatmulAlgoGetHeuristic(
            handle,
            desc.0,
            first.0,
            second.0,
            result.0,
            result.0,
            preference.0,
            1,
            &mut heuristic,
            &mut found,
        )
    };
    if status(rc, "cublasLtMatmulAlgoGetHeuristic").is_err() || found == 0 {
        return Ok(false);
    }
    // SAFETY: the caller's pointers address the matrices the layouts describe, the workspace
    // is its stream's, and alpha/beta outlive the call.
    status(
        unsafe {
            lt::cublasLtMatmul(
                handle,
                desc.0,
                &call.alpha as *const f32 as *const c_void,
                call.a,
                first.0,
                call.b,
                second.0,
                &call.beta as *const f32 as *const c_void,
                call.d,
                result.0,
                call.d,
                result.0,
                &heuristic.algo,
                call.workspace,
                call.workspace_bytes,
                call.stream as lt::cudaStream_t,
            )
        },
        "cublasLtMatmul",
    )?;
    Ok(true)
}
