//! The wgpu backend (Vulkan, Metal, DX12; Mesa lavapipe is the software device).

mod batch;
mod device;
mod events;
mod memory;
mod pipelines;

use std::sync::Arc;

use device::WgpuDevice;

use super::backend::{device_of, Backend, DeviceEvent, Launch};
use super::stats::DeviceStats;
use crate::dtype::DType;
use crate::error::{Error, Result};

/// Every device the process uses through wgpu.
pub struct WgpuBackend {
    devices: Vec<Arc<WgpuDevice>>,
}

fn enabled_backends() -> wgpu::Backends {
    wgpu::Backends::VULKAN | wgpu::Backends::METAL | wgpu::Backends::DX12
}

fn adapters(instance: &wgpu::Instance) -> Vec<wgpu::Adapter> {
    pollster::block_on(instance.enumerate_adapters(enabled_backends()))
}

fn is_software(adapter: &wgpu::Adapter) -> bool {
    adapter.get_info().device_type == wgpu::DeviceType::Cpu
}

/// How many software devices to expose (`TORCH_MOJO_BACKEND_SOFTWARE_DEVICES`, default 1).
fn software_device_count() -> usize {
    std::env::var("TORCH_MOJO_BACKEND_SOFTWARE_DEVICES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
}

impl WgpuBackend {
    /// Finds the hardware adapters, or the software adapter when it is admitted and no hardware
    /// adapter exists. Finding none is not an error: the backend then has zero devices.
    pub fn discover() -> std::result::Result<Self, String> {
        // The software device runs kernels on the queue's own thread: handing each small
        // dispatch to llvmpipe's worker threads costs more than it saves (17 vs 38 µs per op
        // on 2 cores). `LP_NUM_THREADS` set by the user wins.
        if std::env::var("TORCH_MOJO_BACKEND_SOFTWARE").is_ok_and(|v| v == "1")
            && std::env::var_os("LP_NUM_THREADS").is_none()
        {
            std::env::set_var("LP_NUM_THREADS", "0");
        }
        // Mesa keeps compiled pipelines on disk; keep them with our kernel cache.
        if std::env::var_os("MESA_SHADER_CACHE_DIR").is_none() {
            let dir = crate::kernels::cache::default_dir().join("mesa");
            if std::fs::create_dir_all(&dir).is_ok() {
                std::env::set_var("MESA_SHADER_CACHE_DIR", dir);
            }
        }
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = enabled_backends();
        let instance = wgpu::Instance::new(desc);
        let found = adapters(&instance);
        let hardware: Vec<wgpu::Adapter> =
            found.iter().filter(|a| !is_software(a)).cloned().collect();
        let mut devices = Vec::new();
        if !hardware.is_empty() {
            for (index, adapter) in hardware.into_iter().enumerate() {
                devices.push(Arc::new(WgpuDevice::open(adapter, index)?));
            }
        } else if super::software_allowed() && found.iter().any(is_software) {
            for index in 0..software_device_count() {
                // An adapter opens one device, so each software device gets a fresh adapter.
                let adapter = adapters(&instance)
                    .into_iter()
                    .find(is_software)
                    .ok_or("mojo: the software adapter disappeared")?;
                devices.push(Arc::new(WgpuDevice::open(adapter, index)?));
            }
        }
        Ok(WgpuBackend { devices })
    }

    fn device(&self, device: usize) -> Result<&WgpuDevice> {
        self.devices
            .get(device)
            .map(Arc::as_ref)
            .ok_or_else(|| Error::runtime(format!("mojo error: invalid device ordinal {device}")))
    }
}

impl Backend for WgpuBackend {
    fn name(&self) -> &'static str {
        "wgpu"
    }

    fn device_count(&self) -> usize {
        self.devices.len()
    }

    fn device_name(&self, device: usize) -> String {
        self.device(device)
            .map_or_else(|e| e.message, |d| d.name.clone())
    }

    fn supports(&self, device: usize, dtype: DType) -> bool {
        self.device(device).is_ok_and(|d| d.supports(dtype))
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
}
