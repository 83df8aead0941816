//! The `torch_mojo_backend._C` Python module: plain-value entry points for the device module.
//! Everything torch calls goes through the C++ glue; this is only what Python code needs.

use pyo3::exceptions::{
    PyIndexError, PyNotImplementedError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;

use crate::error::{Error, ErrorKind};
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
    backend().map_err(to_py)?.synchronize(device).map_err(to_py)
}

/// The torch version the glue was compiled against.
#[pyfunction]
fn torch_version_built() -> &'static str {
    env!("MOJO_TORCH_VERSION")
}

#[pymodule]
#[pyo3(name = "_C")]
fn mojo_c(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(device_count, m)?)?;
    m.add_function(wrap_pyfunction!(init_error, m)?)?;
    m.add_function(wrap_pyfunction!(backend_name, m)?)?;
    m.add_function(wrap_pyfunction!(device_name, m)?)?;
    m.add_function(wrap_pyfunction!(current_device, m)?)?;
    m.add_function(wrap_pyfunction!(set_device, m)?)?;
    m.add_function(wrap_pyfunction!(synchronize, m)?)?;
    m.add_function(wrap_pyfunction!(torch_version_built, m)?)?;
    Ok(())
}
