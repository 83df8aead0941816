//! Buffers whose memory the host addresses directly, for the software device.
//!
//! Lavapipe's device memory is host memory: a buffer allocated through Vulkan and mapped once
//! stays mapped while kernels use it (Vulkan allows persistent mappings of coherent memory),
//! so downloads and large uploads are one `memcpy` after the queue drains, and a collective
//! can hand the bytes to Gloo without staging. wgpu allocates its own buffers privately,
//! so these are made with Vulkan (through wgpu-hal's device) and handed to wgpu, which then
//! owns them: dropping the wgpu buffer destroys the Vulkan buffer and frees its memory
//! (which unmaps it).

use ash::vk;
use wgpu::hal::api::Vulkan;

/// A storage buffer of `bytes` bytes and the host address of its memory, or None where the
/// device is not Vulkan or has no host-visible coherent memory for it.
pub fn create(
    device: &wgpu::Device,
    bytes: u64,
    usage: wgpu::BufferUsages,
) -> Option<(wgpu::Buffer, usize)> {
    // SAFETY: the raw Vulkan handles are used only while `hal` (the device) is borrowed, and
    // the buffer is handed to wgpu fully initialised and bound to memory wgpu then owns.
    unsafe {
        let hal = device.as_hal::<Vulkan>()?;
        let raw = hal.raw_device();
        let instance = hal.shared_instance().raw_instance();
        let properties = instance.get_physical_device_memory_properties(hal.raw_physical_device());
        let info = vk::BufferCreateInfo::default()
            .size(bytes)
            .usage(
                vk::BufferUsageFlags::STORAGE_BUFFER
                    | vk::BufferUsageFlags::TRANSFER_SRC
                    | vk::BufferUsageFlags::TRANSFER_DST,
            )
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
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
        let allocation = vk::MemoryAllocateInfo::default()
            .allocation_size(needs.size)
            .memory_type_index(kind);
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
        let hal_buffer = wgpu::hal::vulkan::Buffer::from_raw_managed(buffer, memory, 0, needs.size);
        drop(hal);
        let buffer = device.create_buffer_from_hal::<Vulkan>(
            hal_buffer,
            &wgpu::BufferDescriptor {
                label: Some("mojo host-mapped"),
                size: bytes,
                usage,
                mapped_at_creation: false,
            },
        );
        Some((buffer, address as usize))
    }
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
