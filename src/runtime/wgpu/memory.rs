//! wgpu buffers as the caching allocator's device memory.

use std::sync::Arc;

use parking_lot::Mutex;

use super::batch::BindGroups;
use crate::error::Result;
use crate::runtime::allocator::{out_of_memory, MemoryProvider};

/// Creates one storage buffer per segment.
pub struct BufferProvider {
    /// The kept bind groups, dropped when a buffer is released (they would keep it alive).
    pub bind_groups: Arc<Mutex<BindGroups>>,
    pub device: wgpu::Device,
    pub max_buffer_size: u64,
    /// The largest buffer a kernel can bind.
    pub max_binding: u64,
}

impl MemoryProvider for BufferProvider {
    type Segment = wgpu::Buffer;

    fn largest_shared_segment(&self) -> u64 {
        self.max_binding
    }

    fn allocate(&mut self, bytes: u64) -> Result<wgpu::Buffer> {
        if bytes > self.max_buffer_size {
            return Err(out_of_memory(
                bytes,
                &format!(
                    "the device's largest buffer is {} bytes",
                    self.max_buffer_size
                ),
            ));
        }
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: bytes,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            buffer.destroy();
            return Err(out_of_memory(bytes, &e.to_string()));
        }
        Ok(buffer)
    }

    fn release(&mut self, segment: wgpu::Buffer) {
        // Dropped, not destroyed: wgpu frees it once submitted work no longer uses it.
        self.bind_groups.lock().clear();
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
