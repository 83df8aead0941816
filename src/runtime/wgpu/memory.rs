//! wgpu buffers as the caching allocator's device memory.

use std::sync::Arc;

use parking_lot::Mutex;

use super::batch::BindGroups;
use super::host_mapped;
use super::wide::Wide;
use crate::error::Result;
use crate::runtime::allocator::{out_of_memory, MemoryProvider};

/// One segment: a storage buffer, and where the host addresses its memory (0: it cannot).
#[derive(Clone)]
pub struct Segment {
    pub buffer: wgpu::Buffer,
    pub host: usize,
}

/// Creates one storage buffer per segment.
pub struct BufferProvider {
    /// The kept bind groups, dropped when a buffer is released (they would keep it alive).
    pub bind_groups: Arc<Mutex<BindGroups>>,
    pub device: wgpu::Device,
    pub max_buffer_size: u64,
    /// The largest buffer a kernel can bind.
    pub max_binding: u64,
    /// Whether to make host-addressable buffers (the software device; see `host_mapped`).
    pub host_mapped: bool,
    /// The software device's twin, which imports each buffer's memory.
    pub wide: Option<Arc<Wide>>,
}

impl MemoryProvider for BufferProvider {
    type Segment = Segment;

    fn largest_shared_segment(&self) -> u64 {
        self.max_binding
    }

    fn allocate(&mut self, bytes: u64) -> Result<Segment> {
        if bytes > self.max_buffer_size {
            return Err(out_of_memory(
                bytes,
                &format!(
                    "the device's largest buffer is {} bytes",
                    self.max_buffer_size
                ),
            ));
        }
        let usage = wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST;
        if self.host_mapped {
            let export = self.wide.is_some();
            if let Some((buffer, host, export)) =
                host_mapped::create(&self.device, bytes, usage, export)
            {
                if let (Some(wide), Some(export)) = (&self.wide, export) {
                    wide.register(&buffer, export, bytes, usage);
                }
                // wgpu zeroes the buffers it makes before their first use; these it takes as
                // they are.
                host_mapped::prefer_huge_pages(host, bytes as usize);
                // SAFETY: `host` maps the buffer's `bytes` bytes, which nothing uses yet.
                unsafe { std::ptr::write_bytes(host as *mut u8, 0, bytes as usize) };
                return Ok(Segment { buffer, host });
            }
        }
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: bytes,
            usage,
            mapped_at_creation: false,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            buffer.destroy();
            return Err(out_of_memory(bytes, &e.to_string()));
        }
        Ok(Segment { buffer, host: 0 })
    }

    fn release(&mut self, segment: Segment) {
        // Dropped, not destroyed: wgpu frees it once submitted work no longer uses it.
        self.bind_groups.lock().clear();
        if let Some(wide) = &self.wide {
            wide.forget(&segment.buffer);
        }
        drop(segment);
    }

    /// One queue runs every stream's work in order, so the allocator never needs events.
    type Event = ();
    fn record(&mut self, _stream: u64) -> Result<()> {
        Ok(())
    }
    fn reached(&mut self, _event: &(), _wait: bool) -> bool {
        true
    }
}
