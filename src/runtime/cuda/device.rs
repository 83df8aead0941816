//! One CUDA device: its primary context, streams, caching allocator, compiled kernels and
//! cuBLAS. Work goes to the calling thread's current stream (stream 0 is the legacy default
//! stream, as PyTorch's default stream is); copies to and from pageable host memory wait for
//! that stream, as CUDA's do.

use crate::runtime::fast_hash::FastMap;
use std::ffi::{c_uint, c_void};
use std::sync::{Arc, OnceLock};

use cudarc::driver::sys;
use parking_lot::Mutex;

use super::api::driver;
use super::blas::BatchedLu;
use super::blas::Blas;
use super::blas_lt::BlasLt;
use super::driver::{attribute, check, Context};
use super::events::CudaEvent;
use super::fft::FftLibrary;
use super::memory::DeviceMemory;
use super::solver::{SolveData, SolverLibrary};
use super::streams::Streams;
use crate::error::{Error, Result};
use crate::kernels::compile::cuda_binary;
use crate::kernels::{cuda, Kernel};
use crate::runtime::allocator::CachingAllocator;
use crate::runtime::backend::{
    address_base, DeviceEvent, Fft, Gemm, HostBuffer, Launch, Solve, SolverRoutine,
};
use crate::runtime::communication::Communication;
use crate::runtime::devices::VendorDevice;
use crate::runtime::streams;

/// A loaded kernel's entry point.
#[derive(Clone, Copy)]
struct Function(sys::CUfunction);

// SAFETY: a CUfunction may be launched from any thread with its context current.
unsafe impl Send for Function {}

/// An open CUDA device.
pub struct CudaDevice {
    index: usize,
    name: String,
    /// The architecture NVRTC targets, e.g. `sm_90`.
    pub arch: String,
    pub multiprocessors: u32,
    context: Context,
    streams: Arc<Streams>,
    memory: Mutex<CachingAllocator<DeviceMemory>>,
    functions: Mutex<FastMap<Kernel, Function>>,
    blas: OnceLock<Option<Blas>>,
    blas_lt: OnceLock<Option<BlasLt>>,
    fft: OnceLock<Option<FftLibrary>>,
    solver: OnceLock<Option<SolverLibrary>>,
    /// Held while a thread issues a product to cuBLAS or cuBLASLt. On an H200, two threads
    /// issuing cuBLASLt products at once (one handle, one stream and its workspace) got wrong
    /// results in one of them, the same in every run (`bench/gpu_thread_probe.py`); issued
    /// one at a time, or without cuBLASLt, they were right.
    library_calls: Mutex<()>,
}

impl CudaDevice {
    /// Opens device `ordinal` (as the driver numbers them after CUDA_VISIBLE_DEVICES).
    pub fn open(ordinal: usize) -> Result<Self> {
        let mut device: sys::CUdevice = 0;
        // SAFETY: valid out-pointers; the driver is initialised.
        unsafe {
            check(
                driver().cuDeviceGet(&mut device, ordinal as i32),
                "cuDeviceGet",
            )?;
        }
        let mut name = [0 as std::ffi::c_char; 256];
        let mut context: sys::CUcontext = std::ptr::null_mut();
        // SAFETY: as above; the name buffer's length is passed.
        unsafe {
            check(
                driver().cuDeviceGetName(name.as_mut_ptr(), name.len() as i32, device),
                "cuDeviceGetName",
            )?;
            check(
                driver().cuDevicePrimaryCtxRetain(&mut context, device),
                "cuDevicePrimaryCtxRetain",
            )?;
        }
        use sys::CUdevice_attribute as A;
        let major = attribute(device, A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?;
        let minor = attribute(device, A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?;
        let multiprocessors = attribute(device, A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
        let context = Context(context);
        // SAFETY: the driver wrote a NUL-terminated string.
        let name = unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        let streams = Arc::new(Streams::new(context));
        Ok(CudaDevice {
            index: ordinal,
            name,
            arch: format!("sm_{major}{minor}"),
            multiprocessors: multiprocessors as u32,
            context,
            memory: Mutex::new(CachingAllocator::new(
                DeviceMemory {
                    context,
                    streams: streams.clone(),
                },
                address_base(ordinal),
            )),
            streams,
            functions: Mutex::new(FastMap::default()),
            blas: OnceLock::new(),
            blas_lt: OnceLock::new(),
            fft: OnceLock::new(),
            solver: OnceLock::new(),
            library_calls: Mutex::new(()),
        })
    }

    pub(super) fn index(&self) -> usize {
        self.index
    }

    /// Makes this device's context current on the calling thread.
    pub(super) fn bind(&self) -> Result<()> {
        self.context.bind()
    }

    /// The calling thread's current stream on this device, with the context bound.
    pub(super) fn bound_stream(&self) -> Result<sys::CUstream> {
        self.context.bind()?;
        self.stream()
    }

    /// The device pointer of `address`.
    pub(super) fn device_pointer(&self, address: u64) -> Result<sys::CUdeviceptr> {
        self.pointer(address, 0)
    }

    /// The calling thread's current stream on this device.
    fn stream(&self) -> Result<sys::CUstream> {
        self.streams.get(streams::current(self.index))
    }

    /// Waits for `stream`'s work.
    fn wait_for(&self, stream: sys::CUstream) -> Result<()> {
        // SAFETY: a stream of the current context.
        check(
            unsafe { driver().cuStreamSynchronize(stream) },
            "cuStreamSynchronize",
        )
    }

    /// The device pointer of `address`, checking that `len` bytes from it lie in one block.
    fn pointer(&self, address: u64, len: u64) -> Result<sys::CUdeviceptr> {
        resolve(&self.memory.lock(), address, len)
    }

    /// `pointer(address, 0)`, or 0 for address 0 (an operand a routine goes without).
    fn optional_pointer(&self, address: u64) -> Result<sys::CUdeviceptr> {
        if address == 0 {
            Ok(0)
        } else {
            self.pointer(address, 0)
        }
    }

    /// `s`'s batched LU or its solves through cuBLAS in one call: the arrays of the matrices'
    /// addresses it takes are uploaded to workspace from the allocator on the current stream.
    fn lu_batched(&self, s: &Solve) -> Result<bool> {
        let Some(blas) = self.blas() else {
            return Ok(false);
        };
        let (stream, _one_at_a_time) = self.library_call()?;
        let element = s.dtype.size() as u64 * if s.complex { 2 } else { 1 };
        let a = self.pointer(s.a, 0)?;
        let mut addresses: Vec<u64> = (0..s.batch)
            .map(|m| a + m * s.rows * s.rows * element)
            .collect();
        if s.b != 0 {
            let b = self.pointer(s.b, 0)?;
            addresses.extend((0..s.batch).map(|m| b + m * s.rows * s.rhs * element));
        }
        let bytes = addresses.len() * 8;
        let scratch = self.memory.lock().allocate(bytes.max(8) as u64, stream.0)?;
        let run = || -> Result<()> {
            let array = self.pointer(scratch, 0)?;
            // SAFETY: pageable host memory, which the driver stages before it returns; the
            // workspace holds `bytes`.
            check(
                unsafe {
                    driver().cuMemcpyHtoDAsync_v2(
                        array,
                        addresses.as_ptr() as *const c_void,
                        bytes,
                        stream.1,
                    )
                },
                "cuMemcpyHtoDAsync",
            )?;
            let data = BatchedLu {
                pivots: self.optional_pointer(s.pivots)?,
                info: self.optional_pointer(s.info)?,
                a_array: array,
                b_array: array + s.batch * 8,
            };
            blas.lu_batched(s, &data, stream)
        };
        let result = run();
        self.memory.lock().free(scratch)?;
        result.map(|()| true)
    }

    /// The entry point of `kernel`, compiled (or read from the disk cache) and loaded once.
    fn function(&self, kernel: &Kernel) -> Result<Function> {
        if let Some(&f) = self.functions.lock().get(kernel) {
            return Ok(f);
        }
        let binary = cuda_binary(kernel, &self.arch, driver().compiler())?;
        let mut module: sys::CUmodule = std::ptr::null_mut();
        let mut function: sys::CUfunction = std::ptr::null_mut();
        let entry = std::ffi::CString::new(cuda::ENTRY).expect("no NUL");
        // SAFETY: `binary` is a complete cubin; the context is current; out-pointers valid.
        unsafe {
            check(
                driver().cuModuleLoadData(&mut module, binary.as_ptr() as *const c_void),
                "cuModuleLoadData",
            )?;
            check(
                driver().cuModuleGetFunction(&mut function, module, entry.as_ptr()),
                "cuModuleGetFunction",
            )?;
        }
        let f = Function(function);
        self.functions.lock().insert(kernel.clone(), f);
        Ok(f)
    }

    fn blas(&self) -> Option<&Blas> {
        self.blas
            .get_or_init(|| {
                self.context.bind().ok()?;
                Blas::create(&self.name)
            })
            .as_ref()
    }

    /// Binds the context for a vendor library call on the calling thread's current stream:
    /// that stream (its id and CUDA stream) and the lock that runs library calls one at a time.
    fn library_call(&self) -> Result<((u64, sys::CUstream), parking_lot::MutexGuard<'_, ()>)> {
        self.context.bind()?;
        let id = streams::current(self.index);
        let stream = (id, self.streams.get(id)?);
        Ok((stream, self.library_calls.lock()))
    }

    fn fft_library(&self) -> Option<&FftLibrary> {
        self.fft
            .get_or_init(|| {
                self.context.bind().ok()?;
                FftLibrary::create()
            })
            .as_ref()
    }

    fn solver_library(&self) -> Option<&SolverLibrary> {
        self.solver
            .get_or_init(|| {
                self.context.bind().ok()?;
                SolverLibrary::create()
            })
            .as_ref()
    }

    /// cuBLASLt, for products with a bias epilogue (loaded with cuBLAS); 32 MiB of workspace
    /// per stream on Hopper and newer, 4 MiB before, as PyTorch gives it.
    fn blas_lt(&self) -> Option<&BlasLt> {
        self.blas()?;
        self.blas_lt
            .get_or_init(|| {
                let capability: u32 = self.arch[3..].parse().unwrap_or(0);
                BlasLt::create(if capability >= 90 { 32 << 20 } else { 4 << 20 })
            })
            .as_ref()
    }
}

impl VendorDevice for CudaDevice {
    type Memory = DeviceMemory;

    fn communication(&self) -> Option<&dyn Communication> {
        driver()
            .nccl_present()
            .then_some(self as &dyn Communication)
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    fn memory(&self) -> &Mutex<CachingAllocator<DeviceMemory>> {
        &self.memory
    }

    fn multiprocessors(&self) -> Option<u32> {
        Some(self.multiprocessors)
    }

    /// (free, total) bytes, as the driver reports them.
    fn memory_info(&self) -> Result<(u64, u64)> {
        self.context.bind()?;
        let (mut free, mut total) = (0usize, 0usize);
        // SAFETY: valid out-pointers; the context is current.
        check(
            unsafe { driver().cuMemGetInfo_v2(&mut free, &mut total) },
            "cuMemGetInfo",
        )?;
        Ok((free as u64, total as u64))
    }

    fn write(&self, address: u64, data: &[u8]) -> Result<()> {
        if data.is_empty() {
            return Ok(());
        }
        let pointer = self.pointer(address, data.len() as u64)?;
        self.context.bind()?;
        let stream = self.stream()?;
        // SAFETY: `data` is valid for its length until the stream is waited for below; the
        // range was checked above.
        check(
            unsafe {
                driver().cuMemcpyHtoDAsync_v2(
                    pointer,
                    data.as_ptr() as *const c_void,
                    data.len(),
                    stream,
                )
            },
            "cuMemcpyHtoDAsync",
        )?;
        self.wait_for(stream)
    }

    fn read(&self, address: u64, out: &mut [u8]) -> Result<()> {
        self.context.bind()?;
        let stream = self.stream()?;
        if out.is_empty() {
            return self.wait_for(stream);
        }
        let pointer = self.pointer(address, out.len() as u64)?;
        // SAFETY: `out` is valid for its length until the stream is waited for below; the
        // copy follows the stream's earlier work.
        check(
            unsafe {
                driver().cuMemcpyDtoHAsync_v2(
                    out.as_mut_ptr() as *mut c_void,
                    pointer,
                    out.len(),
                    stream,
                )
            },
            "cuMemcpyDtoHAsync",
        )?;
        self.wait_for(stream)
    }

    /// cuMemcpy{HtoD,DtoH}Async on the current stream; the host memory is used until the
    /// returned event.
    unsafe fn copy_host_async(
        &self,
        address: u64,
        host: HostBuffer,
        bytes: usize,
    ) -> Result<Option<Box<dyn DeviceEvent>>> {
        if bytes == 0 {
            return Ok(None);
        }
        let pointer = self.pointer(address, bytes as u64)?;
        self.context.bind()?;
        let stream = self.stream()?;
        // SAFETY: per the contract the host memory stays valid until the event; the device
        // range was checked.
        let rc = unsafe {
            match host {
                HostBuffer::Source(src) => {
                    driver().cuMemcpyHtoDAsync_v2(pointer, src as *const c_void, bytes, stream)
                }
                HostBuffer::Destination(dst) => {
                    driver().cuMemcpyDtoHAsync_v2(dst as *mut c_void, pointer, bytes, stream)
                }
            }
        };
        check(rc, "cuMemcpyAsync")?;
        let event = CudaEvent::record(self.context, stream, false)?;
        Ok(Some(Box::new(event)))
    }

    fn copy(&self, dst: u64, src: u64, bytes: u64) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        let (d, s) = (self.pointer(dst, bytes)?, self.pointer(src, bytes)?);
        self.context.bind()?;
        let stream = self.stream()?;
        // SAFETY: both ranges were checked; the stream orders the copy.
        check(
            unsafe { driver().cuMemcpyDtoDAsync_v2(d, s, bytes as usize, stream) },
            "cuMemcpyDtoDAsync",
        )
    }

    fn launch(&self, mut launch: Launch<'_>) -> Result<()> {
        if launch.threads == 0 {
            return Ok(());
        }
        let mut pointers = Vec::with_capacity(launch.tensors.len());
        {
            let memory = self.memory.lock();
            for (t, &address) in launch.tensors.iter().enumerate() {
                let (pointer, offset) = kernel_base(&memory, address)?;
                pointers.push(pointer);
                launch.words[launch.offset_words[t]] = offset;
            }
        }
        if launch.words.len() > cuda::MAX_WORDS {
            return Err(Error::not_implemented(format!(
                "mojo: {} launch words exceed the CUDA kernels' {}",
                launch.words.len(),
                cuda::MAX_WORDS
            )));
        }
        self.context.bind()?;
        let stream = self.stream()?;
        let function = self.function(launch.kernel)?;
        let mut words = [0u32; cuda::MAX_WORDS];
        words[..launch.words.len()].copy_from_slice(&launch.words);
        let mut params: Vec<*mut c_void> = Vec::with_capacity(pointers.len() + 1);
        params.push(words.as_mut_ptr() as *mut c_void);
        for p in pointers.iter_mut() {
            params.push(p as *mut sys::CUdeviceptr as *mut c_void);
        }
        let block = launch.kernel.group_size(false);
        // 32 groups of 64 per multiprocessor keep it full (2,048 resident threads).
        let resident = u64::from(self.multiprocessors) * 32;
        let grid = launch
            .kernel
            .groups(launch.threads, resident, false, &launch.words)
            .min(i32::MAX as u64) as u32;
        // SAFETY: the parameters match the kernel's signature (a Words struct by value, then
        // one pointer per tensor) and outlive the call, which copies them.
        check(
            unsafe {
                driver().cuLaunchKernel(
                    function.0,
                    [grid, 1, 1],
                    [block, 1, 1],
                    0,
                    stream,
                    params.as_mut_ptr(),
                    std::ptr::null_mut(),
                )
            },
            &format!("cuLaunchKernel of {}", launch.kernel.name()),
        )
    }

    fn synchronize(&self) -> Result<()> {
        self.context.bind()?;
        // SAFETY: the context is current.
        check(unsafe { driver().cuCtxSynchronize() }, "cuCtxSynchronize")
    }

    fn concurrent_streams(&self) -> bool {
        true
    }

    /// Whether `stream` has finished its work.
    fn idle(&self, stream: u64) -> Result<bool> {
        self.context.bind()?;
        let stream = self.streams.get(stream)?;
        // SAFETY: a stream of the current context.
        match unsafe { driver().cuStreamQuery(stream) } {
            sys::CUresult::CUDA_ERROR_NOT_READY => Ok(false),
            rc => check(rc, "cuStreamQuery").map(|_| true),
        }
    }

    fn synchronize_stream(&self, stream: u64) -> Result<()> {
        self.context.bind()?;
        self.wait_for(self.streams.get(stream)?)
    }

    /// A CUDA event recorded on `stream`.
    fn record_event(&self, stream: u64, timing: bool) -> Result<Box<dyn DeviceEvent>> {
        self.context.bind()?;
        let stream = self.streams.get(stream)?;
        Ok(Box::new(CudaEvent::record(self.context, stream, timing)?))
    }

    fn wait_event(&self, stream: u64, event: &dyn DeviceEvent) -> Result<()> {
        let event = event
            .as_any()
            .downcast_ref::<CudaEvent>()
            .ok_or_else(|| Error::runtime("mojo: an event of another backend"))?;
        event.block(self.streams.get(stream)?)
    }

    /// Whether cuBLAS loaded for this device.
    fn has_gemm_library(&self) -> bool {
        self.blas().is_some()
    }

    /// Runs `gemm` through cuBLAS; false when cuBLAS is absent or cannot take this layout.
    fn gemm(&self, gemm: &Gemm) -> Result<bool> {
        let Some(blas) = self.blas() else {
            return Ok(false);
        };
        let (stream, _one_at_a_time) = self.library_call()?;
        let a = self.pointer(gemm.a.address, 0)?;
        let b = self.pointer(gemm.b.address, 0)?;
        let out = self.pointer(gemm.out.address, 0)?;
        match gemm.bias {
            Some(bias) => match self.blas_lt() {
                Some(lt) => lt.gemm_with_bias(gemm, (a, b, out, self.pointer(bias, 0)?), stream),
                None => Ok(false),
            },
            None => blas.gemm(gemm, a, b, out, stream),
        }
    }

    fn has_fft_library(&self) -> bool {
        self.fft_library().is_some()
    }

    /// Runs `f` through cuFFT; false when cuFFT is absent or declines it.
    fn fft(&self, f: &Fft) -> Result<bool> {
        let Some(library) = self.fft_library() else {
            return Ok(false);
        };
        let (stream, _one_at_a_time) = self.library_call()?;
        let input = self.pointer(f.input, 0)?;
        let output = self.pointer(f.output, 0)?;
        library.run(f, (input, output), stream)
    }

    fn has_solver_library(&self) -> bool {
        self.solver_library().is_some()
    }

    /// Runs `s` through cuSOLVER (triangular solves through cuBLAS), with device workspace
    /// from the allocator on the current stream (freed once queued: the stream's later work
    /// is ordered after it).
    fn solve(&self, s: &Solve) -> Result<bool> {
        match s.routine {
            SolverRoutine::TriangularSolve { upper, unit } => {
                let Some(blas) = self.blas() else {
                    return Ok(false);
                };
                let (stream, _one_at_a_time) = self.library_call()?;
                let operands = (self.pointer(s.a, 0)?, self.pointer(s.b, 0)?);
                blas.trsm(s, (upper, unit), operands, stream)?;
                return Ok(true);
            }
            SolverRoutine::LuFactorBatched | SolverRoutine::LuSolveBatched { .. } => {
                return self.lu_batched(s);
            }
            _ => {}
        }
        let Some(library) = self.solver_library() else {
            return Ok(false);
        };
        let (stream, _one_at_a_time) = self.library_call()?;
        let optional = |address: u64| self.optional_pointer(address);
        let mut data = SolveData {
            a: self.pointer(s.a, 0)?,
            b: optional(s.b)?,
            pivots: optional(s.pivots)?,
            u: optional(s.u)?,
            vt: optional(s.vt)?,
            tau: optional(s.tau)?,
            info: optional(s.info)?,
            workspace: 0,
            workspace_bytes: 0,
            solve_info: 0,
        };
        let (workspace_bytes, host_bytes) = library.workspace(s, &data, stream)?;
        // The workspace, then (16-byte aligned) the solves' own int32 `info`.
        let info_offset = workspace_bytes.next_multiple_of(16) as u64;
        let scratch = self.memory.lock().allocate(info_offset + 16, stream.0)?;
        let result = self.pointer(scratch, 0).and_then(|workspace| {
            data.workspace = workspace;
            data.workspace_bytes = workspace_bytes;
            data.solve_info = workspace + info_offset;
            library.run(s, &data, host_bytes, stream)
        });
        self.memory.lock().free(scratch)?;
        result.map(|()| true)
    }

    /// Page-locked host memory usable by every device's copies (portable).
    fn host_allocate(&self, bytes: usize) -> Result<usize> {
        self.context.bind()?;
        let mut ptr: *mut c_void = std::ptr::null_mut();
        // SAFETY: valid out-pointer; the context is current.
        let rc = unsafe { driver().cuMemHostAlloc(&mut ptr, bytes, sys::CU_MEMHOSTALLOC_PORTABLE) };
        if rc == sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY {
            return Err(crate::runtime::allocator::out_of_memory(
                bytes as u64,
                "cuMemHostAlloc could not pin host memory",
            ));
        }
        check(rc, "cuMemHostAlloc")?;
        Ok(ptr as usize)
    }

    /// Whether the driver knows `address` as page-locked host memory (PyTorch's CUDA pinned
    /// allocator makes it where both run in one process).
    fn page_locked(&self, address: usize) -> bool {
        if self.context.bind().is_err() {
            return false;
        }
        let mut kind: c_uint = 0;
        // SAFETY: valid out-pointer; the driver only looks the address up.
        let rc = unsafe { driver().cuPointerGetMemoryType(&mut kind, address as sys::CUdeviceptr) };
        rc == sys::CUresult::CUDA_SUCCESS && kind == sys::CUmemorytype::CU_MEMORYTYPE_HOST as c_uint
    }

    /// Frees memory from [`CudaDevice::host_allocate`].
    fn host_release(&self, address: usize, _bytes: usize) {
        if self.context.bind().is_ok() {
            // SAFETY: `ptr` came from cuMemHostAlloc and no copy uses it any more.
            unsafe {
                let _ = driver().cuMemFreeHost(address as *mut c_void);
            }
        }
    }
}

/// The pointer a kernel gets for the tensor at `address`, and the byte offset word it adds:
/// the kernels compute byte offsets in 32 bits from the offset word, and a view with negative
/// strides (flip) reaches below its address, so the pointer is the start of the tensor's
/// segment when the address lies within 2 GiB of it, else 2 GiB below the address (256-byte
/// aligned, so vector loads keep their alignment).
fn kernel_base(
    memory: &CachingAllocator<DeviceMemory>,
    address: u64,
) -> Result<(sys::CUdeviceptr, u32)> {
    const REACH: u64 = 1 << 31;
    let (start, &segment, _) = memory.find(address).ok_or_else(|| {
        Error::runtime(format!("mojo: address {address:#x} is not device memory"))
    })?;
    let base = if address - start < REACH {
        start
    } else {
        (address - REACH) & !255
    };
    Ok((segment + (base - start), (address - base) as u32))
}

/// The device pointer of `address`, checking that `len` bytes from it lie in one segment.
fn resolve(
    memory: &CachingAllocator<DeviceMemory>,
    address: u64,
    len: u64,
) -> Result<sys::CUdeviceptr> {
    let (start, &segment, size) = memory.find(address).ok_or_else(|| {
        Error::runtime(format!("mojo: address {address:#x} is not device memory"))
    })?;
    if address - start + len > size {
        return Err(Error::runtime(format!(
            "mojo: {len} bytes at {address:#x} run past the end of their allocation"
        )));
    }
    Ok(segment + (address - start))
}
