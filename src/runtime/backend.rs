//! The interface every vendor backend implements. Device memory is named by 64-bit addresses
//! that the backend hands out; a tensor's data pointer is such an address.

use super::communication::Communication;
use super::stats::DeviceStats;
use crate::dtype::DType;
use crate::error::Result;
use crate::kernels::Kernel;

/// Arguments of one kernel launch.
pub struct Launch<'a> {
    /// The kernel to run (rendered and compiled by the backend on first use).
    pub kernel: &'a Kernel,
    /// The data address of each tensor argument, inputs first.
    pub tensors: &'a [u64],
    /// The launch-argument words, in the pattern's layout.
    pub words: Vec<u32>,
    /// For each tensor, the index of the word that receives its byte offset in its binding.
    pub offset_words: &'a [usize],
    /// How many invocations the pattern needs.
    pub threads: u64,
}

/// A row-major matrix operand: element strides of one batch, row and column.
#[derive(Clone, Copy, Debug)]
pub struct MatrixView {
    pub address: u64,
    pub batch_stride: i64,
    pub row_stride: i64,
    pub col_stride: i64,
}

/// `out = alpha * (a @ b) + beta * out (+ bias)` for `batch` products of `m × k` by `k × n`,
/// `a` and `b` of `dtype`, `out` of `out_dtype` (`dtype`, or the float32 or float64 it
/// accumulates in); `bias`, when given, is the address of `n` contiguous elements added to
/// every row.
#[derive(Clone, Copy, Debug)]
pub struct Gemm {
    pub dtype: DType,
    pub out_dtype: DType,
    pub batch: u64,
    pub m: u64,
    pub n: u64,
    pub k: u64,
    pub a: MatrixView,
    pub b: MatrixView,
    pub out: MatrixView,
    pub alpha: f64,
    pub beta: f64,
    pub bias: Option<u64>,
}

/// What a Fourier transform takes and gives: complex to complex, real to the non-negative
/// half of the spectrum, or that half back to real.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FftKind {
    ComplexToComplex,
    RealToComplex,
    ComplexToReal,
}

/// An unnormalized discrete Fourier transform over the last `signal.len()` (1 to 3)
/// dimensions of `batch` contiguous signals: `input` and `output` hold (batch, *signal)
/// elements contiguously, the last dimension of the complex side of a real transform holding
/// `signal[last] / 2 + 1` elements. `dtype` is the real type of the elements (F32 or F64).
#[derive(Clone, Debug)]
pub struct Fft {
    pub dtype: DType,
    pub kind: FftKind,
    /// Forward transforms use exp(-2 pi i jk / n), inverse ones exp(+2 pi i jk / n).
    pub forward: bool,
    pub signal: Vec<u64>,
    pub batch: u64,
    pub input: u64,
    pub output: u64,
}

/// A dense factorization or solve of the vendor solver library (cuSOLVER, LAPACK's routines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverRoutine {
    /// `getrf`: A = P L U with partial pivoting, in place of `a` (`rows × cols`); 1-based
    /// int64 pivots (min(rows, cols) per matrix; without row exchanges when `pivots` is 0)
    /// and an int32 `info` per matrix.
    LuFactor,
    /// `getrs`: solves op(A) X = B in place of `b` (`rows × rhs`) from `getrf`'s `a` and
    /// pivots; op(A) is A, or its conjugate transpose when `adjoint`.
    LuSolve { adjoint: bool },
    /// `potrf`: A = L L^H from A's lower triangle, L in place of that triangle (the upper
    /// one left as it was); an int32 `info` per matrix.
    Cholesky,
    /// `potrs`: solves A X = B in place of `b` (`rows × rhs`) from `potrf`'s lower factor.
    CholeskySolve,
    /// `syevd`: the eigenvalues of the Hermitian A (its lower triangle) into `b`, ascending
    /// (real elements), and with `vectors` the eigenvectors as the columns of `a`; an int32
    /// `info` per matrix.
    Eigh { vectors: bool },
    /// `geev`: the eigenvalues of the general A into `b`, and with `vectors` its right
    /// eigenvectors (unit length, largest entry real) into `u` (`rows × rows`); `a` is
    /// overwritten; an int32 `info` per matrix. Real A's eigenvalues come as 2 `rows` reals
    /// (real parts, then imaginary parts; a complex pair adjacent, its positive imaginary part
    /// first) and its eigenvectors packed as LAPACK's `dgeev` packs them (a pair's real and
    /// imaginary parts in two columns); complex A's as complex elements.
    Eig { vectors: bool },
    /// `gesvd` (rows ≥ cols): A's singular values into `b`, descending (real elements); with
    /// `vectors` U into `u` (`rows × cols`, or `rows × rows` when `full`) and V^H into `vt`
    /// (`cols × cols`); `a` is overwritten; an int32 `info` per matrix.
    Svd { vectors: bool, full: bool },
    /// `geqrf`: A = Q R in place of `a`: R on and above the diagonal, the Householder
    /// reflectors' vectors below it (LAPACK's layout), their factors into `tau`
    /// (min(rows, cols) elements of a's type); an int32 `info` per matrix.
    Qr,
    /// `ormqr` (`unmqr` for complex elements): C = op(Q) C in place of `b` (`rows × rhs`), Q
    /// = H_0 ... H_{cols-1} given as `geqrf`'s reflectors (the `rows × cols` matrices `a`)
    /// and their factors `tau`; op(Q) is Q, or Q^H when `adjoint`.
    ApplyQ { adjoint: bool },
    /// `sytrf` (lower): A = L D L^T by Bunch and Kaufman's pivoting, of the symmetric A's
    /// lower triangle in place of it; 1-based int32 pivots (negative for 2x2 blocks, n per
    /// matrix) and an int32 `info` per matrix.
    LdlFactor,
    /// `sytrs` (lower): solves A X = B in place of `b` (`rows × rhs`) from `sytrf`'s `a` and
    /// its pivots, as int64.
    LdlSolve,
    /// `getrfBatched` (of the BLAS library): `LuFactor` of square matrices in one call for
    /// the whole batch, with int32 pivots (none when `pivots` is 0).
    LuFactorBatched,
    /// `getrsBatched` (of the BLAS library): `LuSolve` in one call for the whole batch, from
    /// `LuFactorBatched`'s int32 pivots.
    LuSolveBatched { adjoint: bool },
    /// `trsm` (of the BLAS library): solves T X = B in place of `b` (`rows × rhs`) for T the
    /// lower (or `upper`) triangle of `a`, its diagonal taken as ones when `unit`.
    TriangularSolve { upper: bool, unit: bool },
}

/// One solver routine over `batch` column-major matrices stored one after another (leading
/// dimension `rows`), each with its own right-hand sides (or eigenvalues, or singular values:
/// `b`), pivots, singular vectors, reflector factors and `info` where the routine has them (0
/// where not).
/// `dtype` is the real type of the elements (F32 or F64), pairs of them when `complex`.
#[derive(Clone, Debug)]
pub struct Solve {
    pub routine: SolverRoutine,
    pub dtype: DType,
    pub complex: bool,
    pub rows: u64,
    pub cols: u64,
    pub rhs: u64,
    pub batch: u64,
    pub a: u64,
    pub b: u64,
    pub pivots: u64,
    pub u: u64,
    pub vt: u64,
    pub tau: u64,
    pub info: u64,
}

/// The host side of an asynchronous copy.
#[derive(Clone, Copy)]
pub enum HostBuffer {
    /// Uploaded from.
    Source(*const u8),
    /// Downloaded into.
    Destination(*mut u8),
}

/// A point in a device's work queue, recorded by [`Backend::record_event`].
pub trait DeviceEvent: Send + Sync {
    /// Whether the work queued before the event has finished (never blocks).
    fn query(&self) -> Result<bool>;
    /// Waits until the work queued before the event has finished.
    fn synchronize(&self) -> Result<()>;
    /// Milliseconds from this event to `later` (both recorded with timing), after waiting for
    /// both.
    fn elapsed_ms(&self, later: &dyn DeviceEvent) -> Result<f64>;
    /// For `elapsed_ms`: the concrete event behind the trait object.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// The error for `elapsed_time` on events recorded without timing, in PyTorch's words.
pub fn untimed_event() -> crate::error::Error {
    crate::error::Error::runtime("Both events must be created with argument 'enable_timing=True'.")
}

/// A vendor runtime: devices, memory, copies and kernel launches.
pub trait Backend: Send + Sync {
    /// The backend's name (`wgpu` or `cuda`).
    fn name(&self) -> &'static str;
    /// Number of devices.
    fn device_count(&self) -> usize;
    /// The adapter name of `device`.
    fn device_name(&self, device: usize) -> String;
    /// Whether `device` can hold and compute `dtype`.
    fn supports(&self, device: usize, dtype: DType) -> bool;
    /// Whether `device`, lacking float64 arithmetic, holds float64 as bits and emulates the
    /// ops [`crate::kernels::Expr::within_emulated_f64`] allows.
    fn emulates_f64(&self, device: usize) -> bool;
    /// Allocates `bytes` on `device` for work on the thread's current stream and returns the
    /// address.
    fn allocate(&self, device: usize, bytes: u64) -> Result<u64>;
    /// Keeps the block holding `address` from reuse until `stream`'s work issued before its
    /// free has finished (`Tensor.record_stream`).
    fn record_stream(&self, address: u64, stream: u64) -> Result<()>;
    /// Frees the allocation starting at `address`.
    fn free(&self, address: u64) -> Result<()>;
    /// The memory statistics of `device`.
    fn stats(&self, device: usize) -> DeviceStats;
    /// Resets the peaks of `device` to the current values.
    fn reset_peak(&self, device: usize);
    /// Resets the running totals of `device`.
    fn reset_accumulated(&self, device: usize);
    /// Returns cached device memory of `device` to the system.
    fn empty_cache(&self, device: usize);
    /// (free, total) bytes of `device`.
    fn memory_info(&self, device: usize) -> Result<(u64, u64)>;
    /// Copies host bytes to device memory at `address`.
    fn write(&self, address: u64, data: &[u8]) -> Result<()>;
    /// Copies device memory at `address` to host bytes, waiting for pending work.
    fn read(&self, address: u64, out: &mut [u8]) -> Result<()>;
    /// Starts copying `bytes` between `address` and `host` on the current stream and returns
    /// the event after which the copy no longer uses the host memory (None when it already
    /// does not).
    ///
    /// # Safety
    /// The host memory holds `bytes` bytes (writable for a destination) until that event.
    unsafe fn copy_host_async(
        &self,
        address: u64,
        host: HostBuffer,
        bytes: usize,
    ) -> Result<Option<Box<dyn DeviceEvent>>>;
    /// Copies `bytes` between device addresses (the ranges must not overlap).
    fn copy(&self, dst: u64, src: u64, bytes: u64) -> Result<()>;
    /// Queues a kernel on `device`.
    fn launch(&self, device: usize, launch: Launch<'_>) -> Result<()>;
    /// Waits for all work queued on `device`.
    fn synchronize(&self, device: usize) -> Result<()>;
    /// Whether a vendor GEMM library (cuBLAS) serves `device`.
    fn has_gemm_library(&self, device: usize) -> bool;
    /// Whether `device`'s workgroup memory is no faster than its cached memory (the software
    /// device, where each load is a loop over the lanes): products then read their operands
    /// straight from memory, 16 bytes per load, instead of staging them.
    fn direct_loads(&self, device: usize) -> bool;
    /// Whether `device` is the host's CPU (the software device): its cores each run whole
    /// groups, a SIMD batch of invocations at a time.
    fn cpu_device(&self, device: usize) -> bool;
    /// Whether a group of `printer::GEMM_LANES` invocations on `device` is one subgroup that
    /// can broadcast values between its lanes (the software device's products share rows so).
    fn lane_broadcast(&self, device: usize) -> bool;
    /// Runs `gemm` through the vendor library; false when it cannot take this layout or dtype
    /// (the portable kernel then does).
    fn gemm(&self, device: usize, gemm: &Gemm) -> Result<bool>;
    /// Whether a vendor FFT library (cuFFT) serves `device`.
    fn has_fft_library(&self, device: usize) -> bool;
    /// Runs `fft` through the vendor FFT library; false when there is none or it declines.
    fn fft(&self, device: usize, fft: &Fft) -> Result<bool>;
    /// Whether a vendor solver library (cuSOLVER) serves `device`.
    fn has_solver_library(&self, device: usize) -> bool;
    /// Runs `solve` through the vendor solver library; false when there is none.
    fn solve(&self, device: usize, solve: &Solve) -> Result<bool>;
    /// The collective library (NCCL) serving `device`, if any.
    fn communication(&self, device: usize) -> Option<&dyn Communication>;
    /// Whether all work queued on `stream` of `device` has finished (never blocks).
    fn stream_idle(&self, device: usize, stream: u64) -> Result<bool>;
    /// Waits for the work queued on `stream` of `device`.
    fn synchronize_stream(&self, device: usize, stream: u64) -> Result<()>;
    /// Marks the current end of `stream`'s work; `timing` also stamps the device's clock.
    fn record_event(
        &self,
        device: usize,
        stream: u64,
        timing: bool,
    ) -> Result<Box<dyn DeviceEvent>>;
    /// Makes work issued on `stream` from now on wait for `event`.
    fn wait_event(&self, device: usize, stream: u64, event: &dyn DeviceEvent) -> Result<()>;
    /// Page-locked host memory of `bytes` (a multiple of the page size) for pinned tensors.
    fn host_allocate(&self, bytes: usize) -> Result<usize>;
    /// Whether `address` is page-locked host memory another library pinned (PyTorch's CUDA
    /// pinned allocator serves `torch.empty(pin_memory=True)` when CUDA is present).
    fn page_locked(&self, address: usize) -> bool;
    /// Frees memory from [`Backend::host_allocate`].
    fn host_release(&self, address: usize, bytes: usize);
    /// The device's multiprocessor count, where the hardware reports one.
    fn multiprocessors(&self, device: usize) -> Option<u32>;
    /// Where the host addresses the `bytes` device bytes at `address`, on devices whose
    /// memory it addresses directly (the software device); the bytes may be read or written
    /// there once the device's queued work is done.
    fn host_address(&self, address: u64, bytes: u64) -> Option<usize>;
}

/// The device an address belongs to: addresses of device `d` start at `(d + 1) << 48`.
pub fn device_of(address: u64) -> usize {
    ((address >> 48) as usize).saturating_sub(1)
}

/// The first address handed out for `device`.
pub fn address_base(device: usize) -> u64 {
    ((device as u64) + 1) << 48
}
