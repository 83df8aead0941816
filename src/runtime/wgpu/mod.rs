//! The wgpu backend (Vulkan, Metal, DX12; Mesa lavapipe is the software device).

mod batch;
mod device;
mod events;
mod host_mapped;
mod memory;
mod pipelines;
mod staging;
mod waits;
mod wide;

use device::WgpuDevice;

use super::devices::Devices;
use crate::config::config;

/// Every device the process uses through wgpu.
pub type WgpuBackend = Devices<WgpuDevice>;

fn enabled_backends() -> wgpu::Backends {
    wgpu::Backends::VULKAN | wgpu::Backends::METAL | wgpu::Backends::DX12
}

fn instance_descriptor() -> wgpu::InstanceDescriptor {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    desc.backends = enabled_backends();
    desc
}

fn adapters(instance: &wgpu::Instance) -> Vec<wgpu::Adapter> {
    pollster::block_on(instance.enumerate_adapters(enabled_backends()))
}

fn is_software(adapter: &wgpu::Adapter) -> bool {
    adapter.get_info().device_type == wgpu::DeviceType::Cpu
}

/// Finds the hardware adapters, or the software adapter when it is admitted and no hardware
/// adapter exists. Finding none is not an error: the backend then has zero devices.
pub fn discover() -> std::result::Result<WgpuBackend, String> {
    // The software device runs kernels on the queue's own thread: handing each small
    // dispatch to llvmpipe's worker threads costs more than it saves (5 vs 40 µs per op on
    // 2 cores); large launches run on its twin, with a worker per core (see `wide`).
    // `LP_NUM_THREADS` set by the user wins, for every launch.
    let twin = config().software && config().wide && std::env::var_os("LP_NUM_THREADS").is_none();
    if config().software && std::env::var_os("LP_NUM_THREADS").is_none() {
        std::env::set_var("LP_NUM_THREADS", "0");
    }
    // Mesa keeps compiled pipelines on disk; keep them with our kernel cache.
    if std::env::var_os("MESA_SHADER_CACHE_DIR").is_none() {
        let dir = config().cache_dir.join("mesa");
        if std::fs::create_dir_all(&dir).is_ok() {
            std::env::set_var("MESA_SHADER_CACHE_DIR", dir);
        }
    }
    let instance = wgpu::Instance::new(instance_descriptor());
    let found = adapters(&instance);
    let hardware: Vec<wgpu::Adapter> = found.iter().filter(|a| !is_software(a)).cloned().collect();
    let mut devices = Vec::new();
    if !hardware.is_empty() {
        for (index, adapter) in hardware.into_iter().enumerate() {
            devices.push(WgpuDevice::open(adapter, index, false)?);
        }
    } else if super::software_allowed() && found.iter().any(is_software) {
        for index in 0..config().software_devices {
            // An adapter opens one device, so each software device gets a fresh adapter.
            let adapter = adapters(&instance)
                .into_iter()
                .find(is_software)
                .ok_or("mojo: the software adapter disappeared")?;
            devices.push(WgpuDevice::open(adapter, index, twin)?);
        }
    }
    Ok(Devices {
        name: "wgpu",
        list: devices,
    })
}
