//! The CUDA backend: NVIDIA GPUs through the driver API (libcuda loaded at run time by cudarc),
//! kernels compiled by NVRTC for each device's architecture, GEMM through cuBLAS, Fourier
//! transforms through cuFFT, dense factorizations through cuSOLVER, collectives through NCCL.

mod api;
mod blas;
mod blas_lt;
mod collective;
mod collective_api;
mod device;
mod driver;
mod emulated;
mod events;
mod fft;
mod memory;
mod real;
mod real_collective;
mod real_solver;
mod solver;
mod solver_api;
mod streams;

use api::driver;
use device::CudaDevice;

use super::devices::Devices;
use crate::error::Result;

/// Every NVIDIA device the process sees (after CUDA_VISIBLE_DEVICES, which the driver applies).
pub type CudaBackend = Devices<CudaDevice>;

/// Opens every device of the real driver, or of its CPU emulation when `emulated` (tests
/// only: `TORCH_MOJO_BACKEND_PLATFORM=cuda-emulated`); an error says why CUDA is unavailable
/// (no libcuda, no driver, no device), never panicking.
pub fn discover(emulated: bool) -> std::result::Result<CudaBackend, String> {
    if emulated {
        api::install(Box::new(emulated::Emulated::new()));
    }
    if !driver().library_present() {
        return Err("libcuda could not be loaded (no NVIDIA driver)".into());
    }
    let mut count = 0;
    // SAFETY: libcuda is present; out-pointer valid.
    unsafe {
        driver::check(driver().cuInit(0), "cuInit").map_err(|e| e.message)?;
        driver::check(driver().cuDeviceGetCount(&mut count), "cuDeviceGetCount")
            .map_err(|e| e.message)?;
    }
    if count == 0 {
        return Err("the NVIDIA driver reports no device".into());
    }
    let list = (0..count as usize)
        .map(CudaDevice::open)
        .collect::<Result<Vec<_>>>()
        .map_err(|e| e.message)?;
    Ok(Devices { name: "cuda", list })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without libcuda (as on CI) discovery says so instead of panicking in cudarc's loader.
    #[test]
    fn discovery_without_a_driver_is_an_error() {
        if driver().library_present() {
            return;
        }
        let error = discover(false).err().expect("no driver, no backend");
        assert!(error.contains("libcuda"), "{error}");
    }
}
