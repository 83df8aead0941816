//! A CPU emulation of the CUDA driver, cuBLAS, cuBLASLt, cuFFT, cuSOLVER and NCCL behind the seam
//! (`api::Driver`),
//! so that the CUDA backend runs without a GPU: `TORCH_MOJO_BACKEND_PLATFORM=cuda-emulated`,
//! for tests only. Device memory is host memory; each stream is a worker thread running its
//! queue in order; events carry the time they were reached; kernels are the renderer's CUDA
//! C++ built by the host compiler and run block by block on the CPU's cores.
//!
//! Settings: `TORCH_MOJO_BACKEND_SOFTWARE_DEVICES` devices (default 1), each with
//! `TORCH_MOJO_BACKEND_EMULATED_MEMORY` bytes (default 16 GiB), reported as compute
//! capability 9.0 with 132 multiprocessors (an H100/H200). `TORCH_MOJO_BACKEND_EMULATED_FAULT`
//! injects a fault: `launch:N` makes the N-th kernel launch and every later one fail as a GPU
//! does when a launch asks for too many resources.

#![allow(non_snake_case)]

mod blas;
mod collective;
mod compiler;
mod eig;
mod fft;
mod ldl;
mod memory;
mod module;
mod pool;
mod prelude;
mod queue;
mod reflectors;
mod rendezvous;
mod solver;
mod solver_calls;

use std::cell::Cell;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use cudarc::cublas::sys as cublas;
use cudarc::cublaslt::sys as lt;
use cudarc::cufft::sys as cufft;
use cudarc::cusolver::sys as cusolver;
use cudarc::driver::sys::{
    CUcontext, CUdevice, CUdevice_attribute, CUdeviceptr, CUevent, CUfunction, CUmodule, CUresult,
    CUstream,
};
use parking_lot::Mutex;

use super::api::{Driver, LtMatmul};
use crate::error::Result;
use crate::kernels::compile::CudaCompiler;
use compiler::HostCompiler;
use memory::Memory;
use module::{library_bytes, Function, Module};
use queue::{Event, Queue};
use solver::{Element, Operand};

/// What the emulation reports as each device's multiprocessor count and architecture.
const MULTIPROCESSORS: i32 = 132;
const CAPABILITY: (i32, i32) = (9, 0);

/// One emulated device and its primary context.
struct Device {
    default_stream: Arc<Queue>,
    streams: Mutex<Vec<Arc<Queue>>>,
    memory: Memory,
}

pub struct Emulated {
    /// Never grown after construction, so each device (a context handle) stays in place.
    devices: Vec<Device>,
    pinned: Memory,
    compiler: HostCompiler,
    launches: AtomicU64,
    failing_launch: Option<u64>,
    fft_plans: fft::Plans,
}

thread_local! {
    /// The calling thread's current context: a device index, or usize::MAX for none.
    static CURRENT: Cell<usize> = const { Cell::new(usize::MAX) };
}

fn parse_bytes(text: &str) -> Option<usize> {
    let text = text.trim();
    let (digits, scale) = match text.chars().last()? {
        'K' | 'k' => (&text[..text.len() - 1], 1 << 10),
        'M' | 'm' => (&text[..text.len() - 1], 1 << 20),
        'G' | 'g' => (&text[..text.len() - 1], 1 << 30),
        _ => (text, 1),
    };
    digits.parse::<usize>().ok().map(|d| d * scale)
}

use CUresult::{
    CUDA_ERROR_INVALID_CONTEXT as INVALID_CONTEXT, CUDA_ERROR_INVALID_DEVICE as INVALID_DEVICE,
    CUDA_ERROR_INVALID_HANDLE as INVALID_HANDLE, CUDA_ERROR_INVALID_VALUE as INVALID_VALUE,
    CUDA_ERROR_NOT_READY as NOT_READY, CUDA_SUCCESS as SUCCESS,
};

impl Emulated {
    pub fn new() -> Self {
        let config = crate::config::config();
        let count = config.software_devices;
        let limit = config
            .emulated_memory
            .as_deref()
            .and_then(parse_bytes)
            .unwrap_or(16 << 30);
        let failing_launch = config.emulated_failing_launch;
        let devices = (0..count)
            .map(|_| {
                let default_stream = Queue::start();
                Device {
                    streams: Mutex::new(vec![default_stream.clone()]),
                    default_stream,
                    memory: Memory::new(limit, true),
                }
            })
            .collect();
        Emulated {
            devices,
            pinned: Memory::new(usize::MAX, false),
            compiler: HostCompiler::new(),
            launches: AtomicU64::new(0),
            failing_launch,
            fft_plans: fft::Plans::default(),
        }
    }

    fn current(&self) -> Option<&Device> {
        self.devices.get(CURRENT.with(Cell::get))
    }

    /// The queue of `stream` (null: the current context's default stream).
    ///
    /// # Safety
    /// A non-null `stream` must come from `cuStreamCreate`.
    unsafe fn queue(&self, stream: CUstream) -> Option<&Queue> {
        if stream.is_null() {
            return self.current().map(|d| &*d.default_stream);
        }
        // SAFETY: per the contract: streams live for the process.
        Some(unsafe { &*(stream as *const Queue) })
    }

    /// Queues `job` on the stream of library handle `handle` (cuBLAS's or cuSOLVER's); false
    /// when that stream is not one of this driver's.
    ///
    /// # Safety
    /// `handle` must come from [`new_handle`].
    unsafe fn handle_submit(
        &self,
        handle: *mut c_void,
        job: impl FnOnce() + Send + 'static,
    ) -> bool {
        // SAFETY: per the contract.
        let stream = *unsafe { &*(handle as *const Mutex<usize>) }.lock() as CUstream;
        // SAFETY: the handle's stream is one of this driver's.
        let Some(queue) = (unsafe { self.queue(stream) }) else {
            return false;
        };
        queue.submit(Box::new(job));
        true
    }

    /// Queues `job` on the stream of cuBLAS handle `handle`.
    ///
    /// # Safety
    /// `handle` must come from cublasCreate.
    unsafe fn blas_queue(
        &self,
        handle: cublas::cublasHandle_t,
        job: impl FnOnce() + Send + 'static,
    ) -> cublas::cublasStatus_t {
        // SAFETY: per the contract.
        if unsafe { self.handle_submit(handle as *mut c_void, job) } {
            cublas::cublasStatus_t::CUBLAS_STATUS_SUCCESS
        } else {
            cublas::cublasStatus_t::CUBLAS_STATUS_NOT_INITIALIZED
        }
    }

    /// Queues `job` on the stream of cuSOLVER handle `handle`.
    ///
    /// # Safety
    /// `handle` must come from cusolverDnCreate.
    unsafe fn solver_queue(
        &self,
        handle: cusolver::cusolverDnHandle_t,
        job: impl FnOnce() + Send + 'static,
    ) -> cusolver::cusolverStatus_t {
        // SAFETY: per the contract.
        if unsafe { self.handle_submit(handle as *mut c_void, job) } {
            cusolver::cusolverStatus_t::CUSOLVER_STATUS_SUCCESS
        } else {
            cusolver::cusolverStatus_t::CUSOLVER_STATUS_NOT_INITIALIZED
        }
    }

    /// Whether `len` bytes from `address` are device memory of any device.
    fn is_device_memory(&self, address: u64, len: usize) -> bool {
        self.devices
            .iter()
            .any(|d| d.memory.contains(address as usize, len))
    }

    /// Queues a copy of `bytes` from `src` to `dst` on `stream`.
    unsafe fn copy(&self, dst: usize, src: usize, bytes: usize, stream: CUstream) -> CUresult {
        // SAFETY: per the caller's contract.
        let Some(queue) = (unsafe { self.queue(stream) }) else {
            return INVALID_CONTEXT;
        };
        queue.submit(Box::new(move || {
            // SAFETY: both ranges stay valid until the stream passes this copy (the driver's
            // contract); a copy between overlapping ranges is undefined in CUDA, so memmove.
            unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, bytes) };
        }));
        SUCCESS
    }
}

/// CUDA's own text for the codes the emulation returns.
fn error_text(error: CUresult) -> &'static CStr {
    use CUresult::*;
    match error {
        CUDA_SUCCESS => c"no error",
        CUDA_ERROR_INVALID_VALUE => c"invalid argument",
        CUDA_ERROR_OUT_OF_MEMORY => c"out of memory",
        CUDA_ERROR_INVALID_CONTEXT => c"invalid device context",
        CUDA_ERROR_INVALID_DEVICE => c"invalid device ordinal",
        CUDA_ERROR_INVALID_IMAGE => c"device kernel image is invalid",
        CUDA_ERROR_INVALID_HANDLE => c"invalid resource handle",
        CUDA_ERROR_NOT_FOUND => c"named symbol not found",
        CUDA_ERROR_NOT_READY => c"device not ready",
        CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES => c"too many resources requested for launch",
        CUDA_ERROR_NOT_SUPPORTED => c"operation not supported",
        _ => c"unknown error",
    }
}

impl Driver for Emulated {
    fn library_present(&self) -> bool {
        true
    }

    fn compiler(&self) -> &dyn CudaCompiler {
        &self.compiler
    }

    unsafe fn cuInit(&self, _flags: c_uint) -> CUresult {
        SUCCESS
    }

    unsafe fn cuGetErrorString(&self, error: CUresult, text: *mut *const c_char) -> CUresult {
        // SAFETY: valid out-pointer per the API.
        unsafe { *text = error_text(error).as_ptr() };
        SUCCESS
    }

    unsafe fn cuDeviceGetCount(&self, count: *mut c_int) -> CUresult {
        // SAFETY: valid out-pointer per the API.
        unsafe { *count = self.devices.len() as c_int };
        SUCCESS
    }

    unsafe fn cuDeviceGet(&self, device: *mut CUdevice, ordinal: c_int) -> CUresult {
        if ordinal < 0 || ordinal as usize >= self.devices.len() {
            return INVALID_DEVICE;
        }
        // SAFETY: valid out-pointer per the API.
        unsafe { *device = ordinal };
        SUCCESS
    }

    unsafe fn cuDeviceGetName(&self, name: *mut c_char, len: c_int, device: CUdevice) -> CUresult {
        let text = format!("CUDA emulated on the CPU ({device})\0");
        let n = text.len().min(len.max(0) as usize);
        // SAFETY: the buffer holds `len` bytes per the API.
        unsafe {
            std::ptr::copy_nonoverlapping(text.as_ptr() as *const c_char, name, n);
            if n > 0 {
                *name.add(n - 1) = 0;
            }
        }
        SUCCESS
    }

    unsafe fn cuDeviceGetAttribute(
        &self,
        value: *mut c_int,
        attribute: CUdevice_attribute,
        _device: CUdevice,
    ) -> CUresult {
        use CUdevice_attribute as A;
        let v = match attribute {
            A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR => CAPABILITY.0,
            A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR => CAPABILITY.1,
            A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT => MULTIPROCESSORS,
            _ => return CUresult::CUDA_ERROR_NOT_SUPPORTED,
        };
        // SAFETY: valid out-pointer per the API.
        unsafe { *value = v };
        SUCCESS
    }

    unsafe fn cuDevicePrimaryCtxRetain(
        &self,
        context: *mut CUcontext,
        device: CUdevice,
    ) -> CUresult {
        let Some(d) = self.devices.get(device as usize) else {
            return INVALID_DEVICE;
        };
        // SAFETY: valid out-pointer per the API; devices live for the process.
        unsafe { *context = d as *const Device as CUcontext };
        SUCCESS
    }

    unsafe fn cuCtxGetCurrent(&self, context: *mut CUcontext) -> CUresult {
        let current = self
            .current()
            .map_or(std::ptr::null_mut(), |d| d as *const Device as CUcontext);
        // SAFETY: valid out-pointer per the API.
        unsafe { *context = current };
        SUCCESS
    }

    unsafe fn cuCtxSetCurrent(&self, context: CUcontext) -> CUresult {
        let index = self
            .devices
            .iter()
            .position(|d| d as *const Device as CUcontext == context);
        match (index, context.is_null()) {
            (_, true) => CURRENT.with(|c| c.set(usize::MAX)),
            (Some(i), false) => CURRENT.with(|c| c.set(i)),
            (None, false) => return INVALID_CONTEXT,
        }
        SUCCESS
    }

    unsafe fn cuCtxSynchronize(&self) -> CUresult {
        let Some(device) = self.current() else {
            return INVALID_CONTEXT;
        };
        let streams = device.streams.lock().clone();
        for stream in streams {
            stream.synchronize();
        }
        SUCCESS
    }

    unsafe fn cuMemAlloc_v2(&self, pointer: *mut CUdeviceptr, bytes: usize) -> CUresult {
        let Some(device) = self.current() else {
            return INVALID_CONTEXT;
        };
        if bytes == 0 {
            return INVALID_VALUE;
        }
        match device.memory.allocate(bytes) {
            // SAFETY: valid out-pointer per the API.
            Some(address) => unsafe { *pointer = address as CUdeviceptr },
            None => return CUresult::CUDA_ERROR_OUT_OF_MEMORY,
        }
        SUCCESS
    }

    unsafe fn cuMemFree_v2(&self, pointer: CUdeviceptr) -> CUresult {
        let freed = self
            .devices
            .iter()
            .any(|d| d.memory.release(pointer as usize));
        if freed {
            SUCCESS
        } else {
            INVALID_VALUE
        }
    }

    unsafe fn cuMemGetInfo_v2(&self, free: *mut usize, total: *mut usize) -> CUresult {
        let Some(device) = self.current() else {
            return INVALID_CONTEXT;
        };
        let limit = device.memory.limit();
        // SAFETY: valid out-pointers per the API.
        unsafe {
            *total = limit;
            *free = limit - device.memory.used();
        }
        SUCCESS
    }

    unsafe fn cuMemHostAlloc(
        &self,
        pointer: *mut *mut c_void,
        bytes: usize,
        _flags: c_uint,
    ) -> CUresult {
        match self.pinned.allocate(bytes) {
            // SAFETY: valid out-pointer per the API.
            Some(address) => unsafe { *pointer = address as *mut c_void },
            None => return CUresult::CUDA_ERROR_OUT_OF_MEMORY,
        }
        SUCCESS
    }

    unsafe fn cuMemFreeHost(&self, pointer: *mut c_void) -> CUresult {
        if self.pinned.release(pointer as usize) {
            SUCCESS
        } else {
            INVALID_VALUE
        }
    }

    /// Host memory for the emulated pinned blocks; any other pointer is unknown to the driver.
    unsafe fn cuPointerGetMemoryType(&self, kind: *mut c_uint, pointer: CUdeviceptr) -> CUresult {
        if !self.pinned.contains(pointer as usize, 1) {
            return INVALID_VALUE;
        }
        // SAFETY: valid out-pointer per the API.
        unsafe { *kind = cudarc::driver::sys::CUmemorytype::CU_MEMORYTYPE_HOST as c_uint };
        SUCCESS
    }

    unsafe fn cuMemcpyHtoDAsync_v2(
        &self,
        dst: CUdeviceptr,
        src: *const c_void,
        bytes: usize,
        stream: CUstream,
    ) -> CUresult {
        if !self.is_device_memory(dst, bytes) {
            return INVALID_VALUE;
        }
        if !self.pinned.contains(src as usize, bytes) {
            // Pageable memory: staged now, so the caller may reuse it on return, as CUDA's.
            // SAFETY: per the API `src` holds `bytes` readable bytes.
            let staged = unsafe { std::slice::from_raw_parts(src as *const u8, bytes) }.to_vec();
            // SAFETY: the stream is one of this driver's, per the API.
            let Some(queue) = (unsafe { self.queue(stream) }) else {
                return INVALID_CONTEXT;
            };
            queue.submit(Box::new(move || {
                // SAFETY: the device range stays valid until the stream passes this copy.
                unsafe { std::ptr::copy(staged.as_ptr(), dst as usize as *mut u8, bytes) };
            }));
            return SUCCESS;
        }
        // SAFETY: per the API's contract on the host buffer and the stream.
        unsafe { self.copy(dst as usize, src as usize, bytes, stream) }
    }

    unsafe fn cuMemcpyDtoHAsync_v2(
        &self,
        dst: *mut c_void,
        src: CUdeviceptr,
        bytes: usize,
        stream: CUstream,
    ) -> CUresult {
        if !self.is_device_memory(src, bytes) {
            return INVALID_VALUE;
        }
        // SAFETY: as above.
        unsafe { self.copy(dst as usize, src as usize, bytes, stream) }
    }

    unsafe fn cuMemcpyDtoDAsync_v2(
        &self,
        dst: CUdeviceptr,
        src: CUdeviceptr,
        bytes: usize,
        stream: CUstream,
    ) -> CUresult {
        if !self.is_device_memory(dst, bytes) || !self.is_device_memory(src, bytes) {
            return INVALID_VALUE;
        }
        // SAFETY: as above.
        unsafe { self.copy(dst as usize, src as usize, bytes, stream) }
    }

    unsafe fn cuStreamCreate(&self, stream: *mut CUstream, _flags: c_uint) -> CUresult {
        let Some(device) = self.current() else {
            return INVALID_CONTEXT;
        };
        let queue = Queue::start();
        device.streams.lock().push(queue.clone());
        // SAFETY: valid out-pointer per the API; the device's list keeps the stream alive.
        unsafe { *stream = Arc::as_ptr(&queue) as CUstream };
        SUCCESS
    }

    unsafe fn cuStreamSynchronize(&self, stream: CUstream) -> CUresult {
        // SAFETY: per the API, a stream of this driver.
        match unsafe { self.queue(stream) } {
            Some(queue) => {
                queue.synchronize();
                SUCCESS
            }
            None => INVALID_CONTEXT,
        }
    }

    unsafe fn cuStreamQuery(&self, stream: CUstream) -> CUresult {
        // SAFETY: as above.
        match unsafe { self.queue(stream) } {
            Some(queue) if queue.idle() => SUCCESS,
            Some(_) => NOT_READY,
            None => INVALID_CONTEXT,
        }
    }

    unsafe fn cuStreamWaitEvent(
        &self,
        stream: CUstream,
        event: CUevent,
        _flags: c_uint,
    ) -> CUresult {
        // SAFETY: as above; events are Arcs from cuEventCreate.
        let (Some(queue), Some(event)) =
            (unsafe { self.queue(stream) }, unsafe { event_of(event) })
        else {
            return INVALID_HANDLE;
        };
        event.block(queue);
        SUCCESS
    }

    unsafe fn cuEventCreate(&self, event: *mut CUevent, flags: c_uint) -> CUresult {
        let timing =
            flags & cudarc::driver::sys::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32 == 0;
        // SAFETY: valid out-pointer per the API; destroyed by cuEventDestroy.
        unsafe { *event = Arc::into_raw(Event::new(timing)) as CUevent };
        SUCCESS
    }

    unsafe fn cuEventRecord(&self, event: CUevent, stream: CUstream) -> CUresult {
        // SAFETY: as for cuStreamWaitEvent.
        let (Some(queue), Some(event)) =
            (unsafe { self.queue(stream) }, unsafe { event_of(event) })
        else {
            return INVALID_HANDLE;
        };
        event.record(queue);
        SUCCESS
    }

    unsafe fn cuEventQuery(&self, event: CUevent) -> CUresult {
        // SAFETY: as above.
        match unsafe { event_of(event) } {
            Some(e) if e.complete() => SUCCESS,
            Some(_) => NOT_READY,
            None => INVALID_HANDLE,
        }
    }

    unsafe fn cuEventSynchronize(&self, event: CUevent) -> CUresult {
        // SAFETY: as above.
        let Some(event) = (unsafe { event_of(event) }) else {
            return INVALID_HANDLE;
        };
        event.synchronize();
        SUCCESS
    }

    unsafe fn cuEventElapsedTime_v2(&self, ms: *mut f32, start: CUevent, end: CUevent) -> CUresult {
        // SAFETY: as above.
        let (Some(start), Some(end)) = (unsafe { event_of(start) }, unsafe { event_of(end) })
        else {
            return INVALID_HANDLE;
        };
        if !start.timing || !end.timing || !start.recorded() || !end.recorded() {
            return INVALID_HANDLE;
        }
        let (Some(a), Some(b)) = (start.reached_at(), end.reached_at()) else {
            return NOT_READY;
        };
        let elapsed = if b >= a {
            (b - a).as_secs_f64()
        } else {
            -(a - b).as_secs_f64()
        };
        // SAFETY: valid out-pointer per the API.
        unsafe { *ms = (elapsed * 1e3) as f32 };
        SUCCESS
    }

    unsafe fn cuEventDestroy_v2(&self, event: CUevent) -> CUresult {
        if event.is_null() {
            return INVALID_HANDLE;
        }
        // SAFETY: the event came from cuEventCreate and is destroyed once; queued work that
        // still refers to it holds its own reference.
        drop(unsafe { Arc::from_raw(event as *const Event) });
        SUCCESS
    }

    unsafe fn cuModuleLoadData(&self, module: *mut CUmodule, image: *const c_void) -> CUresult {
        // SAFETY: per the API, the image is complete.
        let Some(library) = (unsafe { library_bytes(image) }) else {
            return CUresult::CUDA_ERROR_INVALID_IMAGE;
        };
        match Module::load(library) {
            // SAFETY: valid out-pointer per the API; modules live for the process.
            Ok(m) => unsafe { *module = Box::into_raw(Box::new(m)) as CUmodule },
            Err(e) => {
                if crate::kernels::compile::trace_enabled() {
                    eprintln!("mojo: the CUDA emulation cannot load a module: {e}");
                }
                return CUresult::CUDA_ERROR_INVALID_IMAGE;
            }
        }
        SUCCESS
    }

    unsafe fn cuModuleGetFunction(
        &self,
        function: *mut CUfunction,
        module: CUmodule,
        name: *const c_char,
    ) -> CUresult {
        if module.is_null() {
            return INVALID_HANDLE;
        }
        // SAFETY: modules come from cuModuleLoadData; the name is a C string per the API.
        let (module, name) = unsafe { (&*(module as *const Module), CStr::from_ptr(name)) };
        match module.function(&name.to_string_lossy()) {
            // SAFETY: valid out-pointer per the API; functions live for the process.
            Some(f) => unsafe { *function = Box::into_raw(Box::new(f)) as CUfunction },
            None => return CUresult::CUDA_ERROR_NOT_FOUND,
        }
        SUCCESS
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
        let threads: u64 = block.iter().map(|&b| u64::from(b)).product();
        let fits = grid.iter().all(|&g| g > 0 && g <= i32::MAX as u32)
            && threads > 0
            && threads <= 1024
            && block[2] <= 64;
        // Dynamic shared memory and the `extra` form are not used by the backend.
        if function.is_null() || !fits || shared_bytes != 0 || !extra.is_null() {
            return INVALID_VALUE;
        }
        let launch = self.launches.fetch_add(1, Ordering::Relaxed) + 1;
        if self.failing_launch.is_some_and(|n| launch >= n) {
            return CUresult::CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
        }
        // SAFETY: per the API.
        let Some(queue) = (unsafe { self.queue(stream) }) else {
            return INVALID_CONTEXT;
        };
        // SAFETY: functions come from cuModuleGetFunction and live for the process; the
        // parameters match the kernel's signature per the API and are copied now.
        let function: &'static Function = unsafe { &*(function as *const Function) };
        let parameters = unsafe { function.copy_parameters(params) };
        queue.submit(Box::new(move || function.run(grid, block, parameters)));
        SUCCESS
    }

    fn blas_present(&self) -> bool {
        true
    }

    unsafe fn cublasCreate_v2(
        &self,
        handle: *mut cublas::cublasHandle_t,
    ) -> cublas::cublasStatus_t {
        // SAFETY: valid out-pointer per the API.
        unsafe { *handle = new_handle() as cublas::cublasHandle_t };
        cublas::cublasStatus_t::CUBLAS_STATUS_SUCCESS
    }

    unsafe fn cublasSetStream_v2(
        &self,
        handle: cublas::cublasHandle_t,
        stream: cublas::cudaStream_t,
    ) -> cublas::cublasStatus_t {
        // SAFETY: handles come from cublasCreate.
        unsafe { set_handle_stream(handle as *mut c_void, stream as usize) };
        cublas::cublasStatus_t::CUBLAS_STATUS_SUCCESS
    }

    unsafe fn cublasGemmStridedBatchedEx(
        &self,
        handle: cublas::cublasHandle_t,
        transa: cublas::cublasOperation_t,
        transb: cublas::cublasOperation_t,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: *const c_void,
        a: *const c_void,
        a_type: cublas::cudaDataType,
        lda: c_int,
        stride_a: i64,
        b: *const c_void,
        b_type: cublas::cudaDataType,
        ldb: c_int,
        stride_b: i64,
        beta: *const c_void,
        c: *mut c_void,
        c_type: cublas::cudaDataType,
        ldc: c_int,
        stride_c: i64,
        batch: c_int,
        compute: cublas::cublasComputeType_t,
        _algo: cublas::cublasGemmAlgo_t,
    ) -> cublas::cublasStatus_t {
        use cublas::cublasStatus_t as S;
        // SAFETY: per the API.
        let gemm = match unsafe {
            blas::strided_batched(
                (transa, transb),
                (m, n, k),
                (alpha, beta),
                (a, a_type, lda, stride_a),
                (b, b_type, ldb, stride_b),
                (c, c_type, ldc, stride_c),
                batch,
                compute,
            )
        } {
            Ok(gemm) => gemm,
            Err(status) => return status,
        };
        // SAFETY: handles come from cublasCreate; per the API the operands stay valid until
        // the stream runs the product.
        if unsafe { self.handle_submit(handle as *mut c_void, move || gemm.run()) } {
            S::CUBLAS_STATUS_SUCCESS
        } else {
            S::CUBLAS_STATUS_NOT_INITIALIZED
        }
    }

    unsafe fn cublasTrsm(
        &self,
        handle: cublas::cublasHandle_t,
        data_type: cublas::cudaDataType,
        side: cublas::cublasSideMode_t,
        uplo: cublas::cublasFillMode_t,
        trans: cublas::cublasOperation_t,
        diag: cublas::cublasDiagType_t,
        m: c_int,
        n: c_int,
        alpha: *const c_void,
        a: *const c_void,
        lda: c_int,
        b: *mut c_void,
        ldb: c_int,
    ) -> cublas::cublasStatus_t {
        use cublas::cublasStatus_t as S;
        let Some(element) = solver::Element::of_blas(data_type) else {
            return S::CUBLAS_STATUS_NOT_SUPPORTED;
        };
        // The emulation takes what the backend asks for: left side, no transpose, alpha 1.
        // SAFETY: alpha points to a value of the data type, whose real part comes first.
        let one = unsafe { element.is_one(alpha as usize) };
        let left = side == cublas::cublasSideMode_t::CUBLAS_SIDE_LEFT;
        if !left || trans != cublas::cublasOperation_t::CUBLAS_OP_N || !one {
            return S::CUBLAS_STATUS_NOT_SUPPORTED;
        }
        if lda < m.max(1) || ldb < m.max(1) {
            return S::CUBLAS_STATUS_INVALID_VALUE;
        }
        let operand = |base: usize, ld: c_int| Operand {
            element,
            base,
            ld: ld as usize,
        };
        let (a, b) = (operand(a as usize, lda), operand(b as usize, ldb));
        let upper = uplo == cublas::cublasFillMode_t::CUBLAS_FILL_MODE_UPPER;
        let unit = diag == cublas::cublasDiagType_t::CUBLAS_DIAG_UNIT;
        let (m, n) = (m as usize, n as usize);
        let solve = move || unsafe { solver::trsm((m, n), a, b, upper, unit) };
        // SAFETY: handles come from cublasCreate; per the API the operands stay valid until
        // the stream runs the solve.
        unsafe { self.blas_queue(handle, solve) }
    }

    unsafe fn cublasLtCreate(&self, handle: *mut lt::cublasLtHandle_t) -> lt::cublasStatus_t {
        // SAFETY: valid out-pointer per the API; the handle is never dereferenced.
        unsafe { *handle = std::ptr::NonNull::dangling().as_ptr() };
        lt::cublasStatus_t::CUBLAS_STATUS_SUCCESS
    }

    unsafe fn cublasLtMatmul(
        &self,
        _handle: lt::cublasLtHandle_t,
        call: &LtMatmul,
    ) -> Result<bool> {
        let Some(gemm) = blas::lt_matmul(call) else {
            return Ok(false);
        };
        // SAFETY: the call's stream is one of this driver's.
        let Some(queue) = (unsafe { self.queue(call.stream) }) else {
            return Ok(false);
        };
        // SAFETY: per the API the operands stay valid until the stream runs the product.
        queue.submit(Box::new(move || unsafe { gemm.run() }));
        Ok(true)
    }

    fn fft_present(&self) -> bool {
        true
    }

    unsafe fn cufftCreate(&self, plan: *mut cufft::cufftHandle) -> cufft::cufftResult {
        // SAFETY: valid out-pointer per the API.
        unsafe { *plan = self.fft_plans.create() };
        cufft::cufftResult::CUFFT_SUCCESS
    }

    unsafe fn cufftMakePlanMany64(
        &self,
        plan: cufft::cufftHandle,
        rank: c_int,
        n: *mut i64,
        inembed: *mut i64,
        istride: i64,
        idist: i64,
        onembed: *mut i64,
        ostride: i64,
        odist: i64,
        kind: cufft::cufftType,
        batch: i64,
        work_size: *mut usize,
    ) -> cufft::cufftResult {
        if !work_size.is_null() {
            // SAFETY: valid out-pointer per the API; the emulation needs no workspace.
            unsafe { *work_size = 0 };
        }
        // SAFETY: the sizes and embeddings hold `rank` values per the API.
        unsafe {
            self.fft_plans.make(
                plan,
                rank,
                (n, inembed, istride, idist),
                (onembed, ostride, odist),
                kind,
                batch,
            )
        }
    }

    unsafe fn cufftSetStream(
        &self,
        plan: cufft::cufftHandle,
        stream: CUstream,
    ) -> cufft::cufftResult {
        self.fft_plans.set_stream(plan, stream as usize)
    }

    unsafe fn cufftDestroy(&self, plan: cufft::cufftHandle) -> cufft::cufftResult {
        self.fft_plans.destroy(plan)
    }

    unsafe fn cufftExec(
        &self,
        plan: cufft::cufftHandle,
        kind: cufft::cufftType,
        input: *mut c_void,
        output: *mut c_void,
        direction: c_int,
    ) -> cufft::cufftResult {
        let (transform, stream) =
            match self
                .fft_plans
                .transform(plan, kind, (input, output), direction)
            {
                Ok(found) => found,
                Err(status) => return status,
            };
        // SAFETY: the plan's stream is one of this driver's.
        let Some(queue) = (unsafe { self.queue(stream as CUstream) }) else {
            return cufft::cufftResult::CUFFT_EXEC_FAILED;
        };
        // SAFETY: per the API the data stays valid until the stream runs the transform.
        queue.submit(Box::new(move || unsafe { transform.run() }));
        cufft::cufftResult::CUFFT_SUCCESS
    }
}

/// A new library handle (cuBLAS's or cuSOLVER's) of the emulation: the stream its calls go
/// to, the null stream until one is set. Handles live for the process.
fn new_handle() -> *mut c_void {
    Box::into_raw(Box::new(Mutex::new(0usize))) as *mut c_void
}

/// Sets the stream of library handle `handle`.
///
/// # Safety
/// `handle` must come from [`new_handle`].
unsafe fn set_handle_stream(handle: *mut c_void, stream: usize) {
    // SAFETY: per the contract.
    *unsafe { &*(handle as *const Mutex<usize>) }.lock() = stream;
}

/// A cuSOLVER operand of `data_type` at `base` with leading dimension `ld` for `rows` rows,
/// or None for a type or leading dimension cuSOLVER refuses.
fn operand(
    data_type: cusolver::cudaDataType,
    base: *const c_void,
    ld: i64,
    rows: i64,
) -> Option<Operand> {
    let element = Element::of(data_type)?;
    (ld >= rows.max(1)).then_some(Operand {
        element,
        base: base as usize,
        ld: ld as usize,
    })
}

/// The event behind `event` (from cuEventCreate), or None for null.
///
/// # Safety
/// A non-null `event` must be live.
unsafe fn event_of(event: CUevent) -> Option<Arc<Event>> {
    if event.is_null() {
        return None;
    }
    // SAFETY: the pointer came from Arc::into_raw and stays owned by the event's handle.
    let held = std::mem::ManuallyDrop::new(unsafe { Arc::from_raw(event as *const Event) });
    Some(Arc::clone(&held))
}
