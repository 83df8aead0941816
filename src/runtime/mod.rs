//! Device runtimes behind one [`Backend`] trait, the process-wide backend choice and the
//! thread's current device.

pub mod allocator;
pub mod backend;
pub mod stats;
pub mod wgpu;

use std::cell::Cell;
use std::sync::OnceLock;

pub use backend::{Backend, Launch};

use crate::error::{Error, Result};

static BACKEND: OnceLock<std::result::Result<Box<dyn Backend>, String>> = OnceLock::new();

thread_local! {
    static CURRENT_DEVICE: Cell<usize> = const { Cell::new(0) };
}

/// True when the software device is admitted (`TORCH_MOJO_BACKEND_SOFTWARE=1`).
pub fn software_allowed() -> bool {
    std::env::var("TORCH_MOJO_BACKEND_SOFTWARE").is_ok_and(|v| v == "1")
}

/// The process's backend, discovered on first use.
pub fn backend() -> Result<&'static dyn Backend> {
    let found = BACKEND
        .get_or_init(|| wgpu::WgpuBackend::discover().map(|b| Box::new(b) as Box<dyn Backend>));
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
