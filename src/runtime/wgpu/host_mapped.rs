//! Buffers whose memory the host addresses directly, for the software device.
//!
//! Lavapipe's device memory is host memory: a buffer allocated through Vulkan and mapped once
//! stays mapped while kernels use it (Vulkan allows persistent mappings of coherent memory),
//! so downloads and large uploads are one `memcpy` after the queue drains, and a collective
//! can hand the bytes to Gloo without staging. wgpu allocates its own buffers privately,
//! so these are made with Vulkan (through wgpu-hal's device) and handed to wgpu, which then
//! owns them: dropping the wgpu buffer destroys the Vulkan buffer and frees its memory
//! (which unmaps it).

use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd, OwnedFd};

use ash::vk;
use wgpu::hal::api::Vulkan;

/// The memory of a host-mapped buffer as a file descriptor that another lavapipe device of
/// this process can import (the wide device, see `wide`), and what the import must match.
pub struct Export {
    pub fd: OwnedFd,
    /// The allocation's size and memory type.
    pub size: u64,
    pub memory_type: u32,
}

/// A storage buffer of `bytes` bytes and the host address of its memory, or None where the
/// device is not Vulkan or has no host-visible coherent memory for it; with `export`, and
/// where the device can, its memory exported as well.
pub fn create(
    device: &wgpu::Device,
    bytes: u64,
    usage: wgpu::BufferUsages,
    export: bool,
) -> Option<(wgpu::Buffer, usize, Option<Export>)> {
    // SAFETY: the raw Vulkan handles are used only while `hal` (the device) is borrowed, and
    // the buffer is handed to wgpu fully initialised and bound to memory wgpu then owns.
    unsafe {
        let hal = device.as_hal::<Vulkan>()?;
        let raw = hal.raw_device();
        let instance = hal.shared_instance().raw_instance();
        let export = export
            && hal
                .enabled_device_extensions()
                .contains(&ash::khr::external_memory_fd::NAME);
        let (buffer, needs, kind) = raw_buffer(&hal, bytes, export)?;
        let mut exported = vk::ExportMemoryAllocateInfo::default().handle_types(OPAQUE_FD);
        let mut allocation = vk::MemoryAllocateInfo::default()
            .allocation_size(needs.size)
            .memory_type_index(kind);
        if export {
            allocation = allocation.push_next(&mut exported);
        }
        let Ok(memory) = raw.allocate_memory(&allocation, None) else {
            raw.destroy_buffer(buffer, None);
            return None;
        };
        let mapped = raw
            .bind_buffer_memory(buffer, memory, 0)
            .and_then(|_| raw.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()));
        let Ok(address) = mapped else {
            raw.destroy_buffer(buffer, None);
            raw.free_memory(memory, None);
            return None;
        };
        let export = export
            .then(|| {
                let info = vk::MemoryGetFdInfoKHR::default()
                    .memory(memory)
                    .handle_type(OPAQUE_FD);
                let fd = ash::khr::external_memory_fd::Device::new(instance, raw)
                    .get_memory_fd(&info)
                    .ok()?;
                Some(Export {
                    fd: OwnedFd::from_raw_fd(fd),
                    size: needs.size,
                    memory_type: kind,
                })
            })
            .flatten();
        let hal_buffer = wgpu::hal::vulkan::Buffer::from_raw_managed(buffer, memory, 0, needs.size);
        drop(hal);
        Some((
            wrap(device, hal_buffer, bytes, usage),
            address as usize,
            export,
        ))
    }
}

/// A storage buffer of `bytes` bytes over the memory `export` describes (another device's),
/// or None where this device cannot import it.
pub fn import(
    device: &wgpu::Device,
    export: &Export,
    bytes: u64,
    usage: wgpu::BufferUsages,
) -> Option<wgpu::Buffer> {
    // SAFETY: as in `create`; the imported memory stays valid while the exporting buffer
    // lives, and the caller drops this buffer first.
    unsafe {
        let hal = device.as_hal::<Vulkan>()?;
        let raw = hal.raw_device();
        let (buffer, needs, _) = raw_buffer(&hal, bytes, true)?;
        // Vulkan takes the descriptor it imports: hand it a duplicate.
        let fd = export.fd.try_clone().ok()?;
        let mut imported = vk::ImportMemoryFdInfoKHR::default()
            .handle_type(OPAQUE_FD)
            .fd(fd.as_raw_fd());
        let allocation = vk::MemoryAllocateInfo::default()
            .allocation_size(export.size)
            .memory_type_index(export.memory_type)
            .push_next(&mut imported);
        if needs.size > export.size {
            raw.destroy_buffer(buffer, None);
            return None;
        }
        let Ok(memory) = raw.allocate_memory(&allocation, None) else {
            raw.destroy_buffer(buffer, None);
            return None;
        };
        // The import succeeded: Vulkan owns the descriptor now.
        let _ = fd.into_raw_fd();
        if raw.bind_buffer_memory(buffer, memory, 0).is_err() {
            raw.destroy_buffer(buffer, None);
            raw.free_memory(memory, None);
            return None;
        }
        let hal_buffer =
            wgpu::hal::vulkan::Buffer::from_raw_managed(buffer, memory, 0, export.size);
        drop(hal);
        Some(wrap(device, hal_buffer, bytes, usage))
    }
}

const OPAQUE_FD: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;

/// An unbound storage buffer of `bytes` bytes (usable with external memory when `external`),
/// its memory requirements and the host-visible coherent memory type for it.
///
/// # Safety
/// `hal` must be a live device; the caller binds or destroys the buffer.
unsafe fn raw_buffer(
    hal: &wgpu::hal::vulkan::Device,
    bytes: u64,
    external: bool,
) -> Option<(vk::Buffer, vk::MemoryRequirements, u32)> {
    let raw = hal.raw_device();
    let instance = hal.shared_instance().raw_instance();
    let properties = instance.get_physical_device_memory_properties(hal.raw_physical_device());
    let mut external_info = vk::ExternalMemoryBufferCreateInfo::default().handle_types(OPAQUE_FD);
    let mut info = vk::BufferCreateInfo::default()
        .size(bytes)
        .usage(
            vk::BufferUsageFlags::STORAGE_BUFFER
                | vk::BufferUsageFlags::TRANSFER_SRC
                | vk::BufferUsageFlags::TRANSFER_DST,
        )
        .sharing_mode(vk::SharingMode::EXCLUSIVE);
    if external {
        info = info.push_next(&mut external_info);
    }
    let buffer = raw.create_buffer(&info, None).ok()?;
    let needs = raw.get_buffer_memory_requirements(buffer);
    let wanted = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
    let Some(kind) = (0..properties.memory_type_count).find(|&i| {
        needs.memory_type_bits & (1 << i) != 0
            && properties.memory_types[i as usize]
                .property_flags
                .contains(wanted)
    }) else {
        raw.destroy_buffer(buffer, None);
        return None;
    };
    Some((buffer, needs, kind))
}

/// `hal_buffer` handed to wgpu, which then owns it.
///
/// # Safety
/// `hal_buffer` must be a live buffer of `device`, bound to memory it owns.
unsafe fn wrap(
    device: &wgpu::Device,
    hal_buffer: wgpu::hal::vulkan::Buffer,
    bytes: u64,
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer_from_hal::<Vulkan>(
        hal_buffer,
        &wgpu::BufferDescriptor {
            label: Some("mojo host-mapped"),
            size: bytes,
            usage,
            mapped_at_creation: false,
        },
    )
}

/// Asks the kernel to back the 2 MiB-aligned pages of `[host, host + bytes)` with huge pages
/// (before they are first touched): kernels that stride through large tensors (a reduction
/// over rows walks one 4 KiB page per element) otherwise miss the TLB at every step.
pub fn prefer_huge_pages(host: usize, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        const MADV_HUGEPAGE: i32 = 14;
        extern "C" {
            fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
        }
        let start = host.next_multiple_of(HUGE);
        let end = (host + bytes) / HUGE * HUGE;
        if end > start {
            // SAFETY: advice on pages of a live mapping; failure only leaves 4 KiB pages.
            unsafe { madvise(start as *mut std::ffi::c_void, end - start, MADV_HUGEPAGE) };
        }
    }
}

/// Bytes from which a copy between host memory and a mapped buffer is split over the cores:
/// one core's memcpy of 64 MiB took 10 ms, the CPU's own copy into pinned memory 4.7 ms.
const PARALLEL_COPY_BYTES: usize = 8 << 20;

/// Copies `len` bytes from `src` to `dst` (not overlapping), over every core when large.
///
/// # Safety
/// `src` must be valid for `len` bytes of reads and `dst` for `len` bytes of writes, and
/// nothing else may access either range during the copy.
pub unsafe fn copy(src: *const u8, dst: *mut u8, len: usize) {
    // Asked only for large copies: it reads the process's CPU affinity each time.
    let cores = if len < PARALLEL_COPY_BYTES {
        1
    } else {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    };
    if cores < 2 {
        // SAFETY: the caller's contract.
        unsafe { std::ptr::copy_nonoverlapping(src, dst, len) };
        return;
    }
    // Cache-line-aligned parts; the addresses cross threads as integers.
    let part = len.div_ceil(cores).div_ceil(64) * 64;
    let (src, dst) = (src as usize, dst as usize);
    std::thread::scope(|scope| {
        for start in (0..len).step_by(part).skip(1) {
            let n = part.min(len - start);
            // SAFETY: each part is a disjoint piece of the caller's ranges.
            scope.spawn(move || unsafe {
                std::ptr::copy_nonoverlapping(
                    (src + start) as *const u8,
                    (dst + start) as *mut u8,
                    n,
                )
            });
        }
        // SAFETY: the first part, on this thread.
        unsafe { std::ptr::copy_nonoverlapping(src as *const u8, dst as *mut u8, part.min(len)) };
    });
}
