//! Device runtimes behind one [`Backend`] trait, the process-wide backend choice and the
//! thread's current device.

pub mod allocator;
pub mod backend;
pub mod communication;
pub mod cuda;
pub mod devices;
pub mod fast_hash;
pub mod pinned;
pub mod stats;
pub mod streams;
pub mod trace;
pub mod wgpu;

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

pub use backend::{Backend, Launch};

use crate::error::{Error, Result};

static BACKEND: OnceLock<std::result::Result<Box<dyn Backend>, String>> = OnceLock::new();

thread_local! {
    static CURRENT_DEVICE: Cell<usize> = const { Cell::new(0) };
}

/// True when the software device is admitted (`TORCH_MOJO_BACKEND_SOFTWARE=1`).
pub fn software_allowed() -> bool {
    crate::config::config().software
}

/// Set in a child forked after the backend started: its device state (queues, threads,
/// locks) belongs to the parent and cannot be used, as with CUDA.
static IN_BAD_FORK: AtomicBool = AtomicBool::new(false);

extern "C" fn mark_forked_child() {
    IN_BAD_FORK.store(true, Ordering::SeqCst);
}

extern "C" {
    fn pthread_atfork(
        prepare: Option<extern "C" fn()>,
        parent: Option<extern "C" fn()>,
        child: Option<extern "C" fn()>,
    ) -> i32;
}

/// Whether this process is a child forked after the device was initialised.
pub fn in_bad_fork() -> bool {
    IN_BAD_FORK.load(Ordering::SeqCst)
}

fn boxed(backend: impl Backend + 'static) -> Box<dyn Backend> {
    Box::new(backend)
}

/// The process's one vendor: `TORCH_MOJO_BACKEND_PLATFORM=cuda|wgpu` when set (unavailable is
/// then an error), else NVIDIA through CUDA when libcuda and a GPU are present, else wgpu
/// (a hardware adapter, or the software device when admitted). `cuda-emulated` runs the CUDA
/// backend on its CPU emulation of the driver (tests only).
fn discover() -> std::result::Result<Box<dyn Backend>, String> {
    match crate::config::config().platform.as_str() {
        "cuda" => cuda::discover(false).map(boxed).map_err(|e| {
            format!("mojo: TORCH_MOJO_BACKEND_PLATFORM=cuda, but CUDA is unavailable: {e}")
        }),
        "cuda-emulated" => cuda::discover(true).map(boxed),
        "wgpu" => wgpu::discover().map(boxed),
        "" => match cuda::discover(false) {
            Ok(b) => Ok(boxed(b)),
            Err(_) => wgpu::discover().map(boxed),
        },
        other => Err(format!(
            "mojo: TORCH_MOJO_BACKEND_PLATFORM={other:?} is not a platform (expected \"cuda\", \"wgpu\" or \"cuda-emulated\")"
        )),
    }
}

/// The process's backend, discovered on first use.
pub fn backend() -> Result<&'static dyn Backend> {
    if in_bad_fork() {
        return Err(Error::runtime(
            "Cannot re-initialize mojo in forked subprocess. To use mojo with multiprocessing, you must use the 'spawn' start method",
        ));
    }
    let found = BACKEND.get_or_init(|| {
        // SAFETY: registers a handler that only stores to an atomic.
        unsafe { pthread_atfork(None, None, Some(mark_forked_child)) };
        discover()
    });
    match found {
        Ok(b) => Ok(b.as_ref()),
        Err(e) => Err(Error::runtime(e.clone())),
    }
}

/// Number of usable devices; 0 when no backend could start.
pub fn device_count() -> usize {
    backend().map_or(0, |b| b.device_count())
}

/// Checks that `device` exists, with CUDA's wording for a bad ordinal.
pub fn check_device(device: i64) -> Result<usize> {
    if in_bad_fork() {
        backend()?;
    }
    let count = device_count();
    if device < 0 || device as usize >= count {
        return Err(Error::runtime(format!(
            "mojo error: invalid device ordinal {device} (the process sees {count} mojo device(s))"
        )));
    }
    Ok(device as usize)
}

/// The calling thread's current device index.
pub fn current_device() -> usize {
    CURRENT_DEVICE.with(Cell::get)
}

/// Sets the calling thread's current device index after checking it.
pub fn set_current_device(device: i64) -> Result<()> {
    let device = check_device(device)?;
    CURRENT_DEVICE.with(|c| c.set(device));
    Ok(())
}

/// Sets the current device without checking (for guards that restore a known-good index).
pub fn set_current_device_unchecked(device: usize) {
    CURRENT_DEVICE.with(|c| c.set(device));
}
