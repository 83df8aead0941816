//! The CUDA backend: NVIDIA GPUs through the driver API (libcuda loaded at run time by cudarc),
//! kernels compiled by NVRTC for each device's architecture, GEMM through cuBLAS.

mod blas;
mod device;
mod driver;
mod events;
mod memory;

use cudarc::driver::sys;
use device::CudaDevice;

use super::backend::{device_of, Backend, DeviceEvent, Gemm, Launch};
use super::stats::DeviceStats;
use crate::dtype::DType;
use crate::error::{Error, Result};

/// Every NVIDIA device the process sees (after CUDA_VISIBLE_DEVICES, which the driver applies).
pub struct CudaBackend {
    devices: Vec<CudaDevice>,
}

impl CudaBackend {
    /// Opens every device; an error says why CUDA is unavailable (no libcuda, no driver, no
    /// device), never panicking.
    pub fn discover() -> std::result::Result<Self, String> {
        if !driver::library_present() {
            return Err("libcuda could not be loaded (no NVIDIA driver)".into());
        }
        let mut count = 0;
        // SAFETY: libcuda is present; out-pointer valid.
        unsafe {
            driver::check(sys::cuInit(0), "cuInit").map_err(|e| e.message)?;
            driver::check(sys::cuDeviceGetCount(&mut count), "cuDeviceGetCount")
                .map_err(|e| e.message)?;
        }
        if count == 0 {
            return Err("the NVIDIA driver reports no device".into());
        }
        let devices = (0..count as usize)
            .map(CudaDevice::open)
            .collect::<Result<Vec<_>>>()
            .map_err(|e| e.message)?;
        Ok(CudaBackend { devices })
    }

    fn device(&self, device: usize) -> Result<&CudaDevice> {
        self.devices
            .get(device)
            .ok_or_else(|| Error::runtime(format!("mojo error: invalid device ordinal {device}")))
    }
}

impl Backend for CudaBackend {
    fn name(&self) -> &'static str {
        "cuda"
    }

    fn device_count(&self) -> usize {
        self.devices.len()
    }

    fn device_name(&self, device: usize) -> String {
        self.device(device)
            .map_or_else(|e| e.message, |d| d.name.clone())
    }

    fn supports(&self, device: usize, _dtype: DType) -> bool {
        self.device(device).is_ok()
    }

    fn allocate(&self, device: usize, bytes: u64) -> Result<u64> {
        self.device(device)?.allocate(bytes)
    }

    fn free(&self, address: u64) -> Result<()> {
        self.device(device_of(address))?.free(address)
    }

    fn stats(&self, device: usize) -> DeviceStats {
        self.device(device).map(|d| d.stats()).unwrap_or_default()
    }

    fn reset_peak(&self, device: usize) {
        if let Ok(d) = self.device(device) {
            d.reset_stats(true);
        }
    }

    fn reset_accumulated(&self, device: usize) {
        if let Ok(d) = self.device(device) {
            d.reset_stats(false);
        }
    }

    fn empty_cache(&self, device: usize) {
        if let Ok(d) = self.device(device) {
            d.empty_cache();
        }
    }

    fn memory_info(&self, device: usize) -> Result<(u64, u64)> {
        self.device(device)?.memory_info()
    }

    fn write(&self, address: u64, data: &[u8]) -> Result<()> {
        self.device(device_of(address))?.write(address, data)
    }

    fn read(&self, address: u64, out: &mut [u8]) -> Result<()> {
        self.device(device_of(address))?.read(address, out)
    }

    fn copy(&self, dst: u64, src: u64, bytes: u64) -> Result<()> {
        if device_of(dst) != device_of(src) {
            return Err(Error::runtime(
                "mojo: device-to-device copy across devices goes through the host",
            ));
        }
        self.device(device_of(dst))?.copy(dst, src, bytes)
    }

    fn launch(&self, device: usize, launch: Launch<'_>) -> Result<()> {
        self.device(device)?.launch(launch)
    }

    fn synchronize(&self, device: usize) -> Result<()> {
        self.device(device)?.synchronize()
    }

    fn idle(&self, device: usize) -> Result<bool> {
        self.device(device)?.idle()
    }

    fn record_event(&self, device: usize, timing: bool) -> Result<Box<dyn DeviceEvent>> {
        Ok(Box::new(self.device(device)?.record_event(timing)?))
    }

    fn has_gemm_library(&self, device: usize) -> bool {
        self.device(device).is_ok_and(|d| d.has_blas())
    }

    fn gemm(&self, device: usize, gemm: &Gemm) -> Result<bool> {
        self.device(device)?.gemm(gemm)
    }

    fn host_allocate(&self, bytes: usize) -> Result<*mut u8> {
        self.device(0)?.host_allocate(bytes)
    }

    fn host_release(&self, ptr: *mut u8, _bytes: usize) {
        if let Ok(d) = self.device(0) {
            d.host_release(ptr);
        }
    }

    fn multiprocessors(&self, device: usize) -> Option<u32> {
        self.device(device).ok().map(|d| d.multiprocessors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without libcuda (as on CI) discovery says so instead of panicking in cudarc's loader.
    #[test]
    fn discovery_without_a_driver_is_an_error() {
        if driver::library_present() {
            return;
        }
        let error = CudaBackend::discover()
            .err()
            .expect("no driver, no backend");
        assert!(error.contains("libcuda"), "{error}");
    }
}
