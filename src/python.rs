//! The `torch_mojo_backend._C` Python module: plain-value entry points for the device module.
//! Everything torch calls goes through the C++ glue; this is only what Python code needs.

use pyo3::exceptions::{
    PyIndexError, PyNotImplementedError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use smallvec::smallvec;

use crate::dtype::DType;
use crate::error::{Error, ErrorKind};
use crate::kernels::{compile, cuda, Expr, Kernel, MapKernel};
use crate::runtime::{self, backend};

fn to_py(e: Error) -> PyErr {
    match e.kind {
        ErrorKind::NotImplemented => PyNotImplementedError::new_err(e.message),
        ErrorKind::Index => PyIndexError::new_err(e.message),
        ErrorKind::Value => PyValueError::new_err(e.message),
        ErrorKind::Type => PyTypeError::new_err(e.message),
        _ => PyRuntimeError::new_err(e.message),
    }
}

/// Number of usable devices (0 when the runtime cannot start).
#[pyfunction]
fn device_count() -> usize {
    runtime::device_count()
}

/// Why the runtime could not start, or None.
#[pyfunction]
fn init_error() -> Option<String> {
    backend().err().map(|e| e.message)
}

/// The backend's name (`wgpu` or `cuda`).
#[pyfunction]
fn backend_name() -> PyResult<&'static str> {
    backend().map(|b| b.name()).map_err(to_py)
}

/// The adapter name of device `device`.
#[pyfunction]
fn device_name(device: i64) -> PyResult<String> {
    let device = runtime::check_device(device).map_err(to_py)?;
    Ok(backend().map_err(to_py)?.device_name(device))
}

/// The device's multiprocessor count where the hardware reports one (torch.compile sizes
/// its split reductions by it).
#[pyfunction]
fn multiprocessor_count(device: i64) -> PyResult<Option<u32>> {
    let device = runtime::check_device(device).map_err(to_py)?;
    Ok(backend().map_err(to_py)?.multiprocessors(device))
}

/// Where the host addresses the `bytes` device bytes at `address` (None: it cannot); valid
/// once the device's queued work is done.
#[pyfunction]
fn host_address(address: u64, bytes: u64) -> PyResult<Option<usize>> {
    Ok(backend().map_err(to_py)?.host_address(address, bytes))
}

/// Whether a vendor FFT library (cuFFT) serves `device`: `torch.fft` then runs through it.
#[pyfunction]
fn fft_library(device: usize) -> PyResult<bool> {
    Ok(backend().map_err(to_py)?.has_fft_library(device))
}

/// Whether a vendor solver library (cuSOLVER) serves `device`: LU and Cholesky factorizations
/// and their solves then run through it.
#[pyfunction]
fn solver_library(device: usize) -> PyResult<bool> {
    Ok(backend().map_err(to_py)?.has_solver_library(device))
}

/// The collective library serving `device`, or the error that it has none.
fn communication(device: usize) -> PyResult<&'static dyn runtime::communication::Communication> {
    backend()
        .map_err(to_py)?
        .communication(device)
        .ok_or_else(|| PyRuntimeError::new_err(format!("mojo: device {device} has no NCCL")))
}

/// Whether a collective library (NCCL) serves `device`: the `mojo` process group then runs
/// its collectives through it (`torch.ops.mojo.collective`).
#[pyfunction]
fn collective_library(device: usize) -> PyResult<bool> {
    Ok(backend().map_err(to_py)?.communication(device).is_some())
}

/// A new communicator's unique id (128 bytes, made by one rank and handed to the others).
#[pyfunction]
fn collective_unique_id(device: usize) -> PyResult<Vec<u8>> {
    communication(device)?.unique_id().map_err(to_py)
}

/// Joins the communicator `id` as `rank` of `ranks` on `device` (blocks, without the GIL,
/// until every rank has joined); its handle.
#[pyfunction]
fn collective_open(
    py: Python<'_>,
    device: usize,
    id: Vec<u8>,
    ranks: u32,
    rank: u32,
) -> PyResult<u64> {
    let library = communication(device)?;
    py.detach(|| library.open(&id, ranks, rank)).map_err(to_py)
}

/// Releases communicator `comm` of `device`; `abort` stops its pending calls first.
#[pyfunction]
fn collective_close(device: usize, comm: u64, abort: bool) -> PyResult<()> {
    communication(device)?.close(comm, abort).map_err(to_py)
}

/// The error communicator `comm`'s pending calls met, if any.
#[pyfunction]
fn collective_error(device: usize, comm: u64) -> PyResult<Option<String>> {
    communication(device)?.error(comm).map_err(to_py)
}

/// Opens (`start`) or closes a group of collectives the library issues together.
#[pyfunction]
fn collective_group(device: usize, start: bool) -> PyResult<()> {
    communication(device)?.group(start).map_err(to_py)
}

/// The most bytes one score matrix buffer of attention takes on `device` (attention through
/// its GEMM library holds two), or 0 where the fused kernels serve every call.
#[pyfunction]
fn attention_score_bytes(device: usize) -> PyResult<i64> {
    let gemm = backend().map_err(to_py)?.has_gemm_library(device);
    Ok(if gemm {
        crate::ops::nn::attention_gemm::SCORE_BYTES
    } else {
        0
    })
}

/// The calling thread's current device index.
#[pyfunction]
fn current_device() -> usize {
    runtime::current_device()
}

/// Sets the calling thread's current device index.
#[pyfunction]
fn set_device(device: i64) -> PyResult<()> {
    runtime::set_current_device(device).map_err(to_py)
}

/// Waits for the work queued on `device`.
#[pyfunction]
fn synchronize(device: i64) -> PyResult<()> {
    let device = runtime::check_device(device).map_err(to_py)?;
    backend()
        .map_err(to_py)?
        .synchronize(device)
        .map_err(to_py)?;
    crate::ops::core::faults::check(device).map_err(to_py)
}

/// The torch version the glue was compiled against.
#[pyfunction]
fn torch_version_built() -> &'static str {
    env!("MOJO_TORCH_VERSION")
}

/// CUDA compilation counters: (compiled, disk_hits, failures, shadow_enabled).
#[pyfunction]
fn cuda_compile_stats() -> (u64, u64, u64, bool) {
    use std::sync::atomic::Ordering::Relaxed;
    let s = compile::stats();
    (
        s.compiled.load(Relaxed),
        s.disk_hits.load(Relaxed),
        s.failures.load(Relaxed),
        compile::shadow_enabled(),
    )
}

extern "C" {
    fn mojo_rng_get(device: i64, seed: *mut u64, offset: *mut u64) -> i32;
    fn mojo_rng_set(device: i64, seed: u64, offset: u64) -> i32;
}

fn rng_error() -> PyErr {
    to_py(
        crate::ops::core::output::take_callback_error()
            .unwrap_or_else(|| crate::error::Error::runtime("mojo: generator call failed")),
    )
}

/// The (seed, offset) of `device`'s default generator.
#[pyfunction]
fn rng_state(device: i64) -> PyResult<(u64, u64)> {
    runtime::check_device(device).map_err(to_py)?;
    let (mut seed, mut offset) = (0, 0);
    // SAFETY: the glue writes the two outputs.
    if unsafe { mojo_rng_get(device, &mut seed, &mut offset) } != 0 {
        return Err(rng_error());
    }
    Ok((seed, offset))
}

/// Sets the seed and offset of `device`'s default generator.
#[pyfunction]
fn set_rng_state(device: i64, seed: u64, offset: u64) -> PyResult<()> {
    runtime::check_device(device).map_err(to_py)?;
    // SAFETY: plain values.
    if unsafe { mojo_rng_set(device, seed, offset) } != 0 {
        return Err(rng_error());
    }
    Ok(())
}

/// Whether this process was forked after the device was initialised.
#[pyfunction]
fn in_bad_fork() -> bool {
    runtime::in_bad_fork()
}

/// Host waits on the device so far (reads to the host and synchronize calls from PyTorch).
#[pyfunction]
fn host_sync_count() -> u64 {
    crate::ffi::runtime::HOST_SYNCS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Kernel launches issued by this process so far, by pattern name (`map`, `foreach`, ...).
#[pyfunction]
fn launch_counts() -> std::collections::HashMap<String, u64> {
    crate::ops::core::launch::launch_counts()
}

/// Parses a compiled kernel's program (`torch.compile`'s code generator prints it) once and
/// returns the handle `mojo::run_compiled` launches it by.
#[pyfunction]
fn load_compiled_program(program: &str) -> PyResult<i64> {
    crate::ops::core::compiled::load_program(program).map_err(to_py)
}

/// Whether one invocation of a compiled kernel's program (`torch.compile`'s code generator
/// asks before packing reductions as parts of one launch) may reduce rows of `rnumel`
/// elements alone.
#[pyfunction]
fn compiled_rows_fit(program: &str, rnumel: i64) -> PyResult<bool> {
    let fused = crate::kernels::fused::FusedKernel::parse(program).map_err(to_py)?;
    Ok(crate::ops::core::compiled::rows_fit(&fused, rnumel))
}

/// Whether an accumulating scatter of `positions` values into `keys` rows of `free` elements
/// (the innermost dimension `inner` long) on `device` is faster as mojo's eager kernel than
/// as a fused sum of one term per value and element (`torch.compile`'s lowering asks): on a
/// CPU device, where the eager kernel scans the keys (`accumulate::scans`), with int32 keys
/// and four elements per key comparison, and the fused sum has more terms than the eager
/// kernel's two launches cost time (about 2^14 terms, 50 us on the software device).
#[pyfunction]
fn eager_accumulation_preferred(
    device: i64,
    keys: i64,
    positions: i64,
    free: i64,
    inner: i64,
) -> PyResult<bool> {
    let device = runtime::check_device(device).map_err(to_py)?;
    let items = crate::ops::index::accumulate::work_items(free, inner % 4 == 0);
    let terms = keys.saturating_mul(positions).saturating_mul(free);
    Ok(backend().map_err(to_py)?.cpu_device(device)
        && terms >= 1 << 14
        && crate::ops::index::accumulate::scans(keys, positions, items))
}

/// Renders and compiles a kernel description for NVRTC check scripts: the CUDA source of an
/// elementwise `op(x)` kernel over `dtype` (a c10 code), for eyeballing the renderer.
#[pyfunction]
fn cuda_source_of_copy(src_dtype: i32, dst_dtype: i32) -> PyResult<String> {
    let (from, to) = (
        DType::from_code(src_dtype).map_err(to_py)?,
        DType::from_code(dst_dtype).map_err(to_py)?,
    );
    let kernel = Kernel::Map(MapKernel {
        inputs: smallvec![from],
        scalars: smallvec![],
        outputs: smallvec![(to, Expr::input(0, from).cast(to))],
    });
    Ok(cuda::render(&kernel))
}

#[pymodule]
#[pyo3(name = "_C")]
fn mojo_c(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(device_count, m)?)?;
    m.add_function(wrap_pyfunction!(init_error, m)?)?;
    m.add_function(wrap_pyfunction!(backend_name, m)?)?;
    m.add_function(wrap_pyfunction!(device_name, m)?)?;
    m.add_function(wrap_pyfunction!(host_address, m)?)?;
    m.add_function(wrap_pyfunction!(fft_library, m)?)?;
    m.add_function(wrap_pyfunction!(solver_library, m)?)?;
    m.add_function(wrap_pyfunction!(collective_library, m)?)?;
    m.add_function(wrap_pyfunction!(collective_unique_id, m)?)?;
    m.add_function(wrap_pyfunction!(collective_open, m)?)?;
    m.add_function(wrap_pyfunction!(collective_close, m)?)?;
    m.add_function(wrap_pyfunction!(collective_error, m)?)?;
    m.add_function(wrap_pyfunction!(collective_group, m)?)?;
    m.add_function(wrap_pyfunction!(attention_score_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(multiprocessor_count, m)?)?;
    m.add_function(wrap_pyfunction!(current_device, m)?)?;
    m.add_function(wrap_pyfunction!(set_device, m)?)?;
    m.add_function(wrap_pyfunction!(synchronize, m)?)?;
    m.add_function(wrap_pyfunction!(torch_version_built, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_compile_stats, m)?)?;
    m.add_function(wrap_pyfunction!(launch_counts, m)?)?;
    m.add_function(wrap_pyfunction!(compiled_rows_fit, m)?)?;
    m.add_function(wrap_pyfunction!(eager_accumulation_preferred, m)?)?;
    m.add_function(wrap_pyfunction!(load_compiled_program, m)?)?;
    m.add_function(wrap_pyfunction!(host_sync_count, m)?)?;
    m.add_function(wrap_pyfunction!(in_bad_fork, m)?)?;
    m.add_function(wrap_pyfunction!(rng_state, m)?)?;
    m.add_function(wrap_pyfunction!(set_rng_state, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_source_of_copy, m)?)?;
    Ok(())
}
