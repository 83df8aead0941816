//! Dispatches queued on the host and submitted together: one compute pass and one arguments
//! buffer per batch, so that issuing an op costs microseconds, not a submit. A batch is
//! flushed when it is full and before anything that must observe or precede its work (host
//! reads and writes, buffer copies, waits, releasing memory). The queue sees work in the
//! order it was issued, from any number of threads: recording, flushing and every other
//! submission happen under one lock (`in_order`).

use parking_lot::Mutex;
use wgpu::util::DeviceExt;

use crate::error::{Error, Result};

/// Dispatches per batch: enough to amortise a submit, few enough to keep passes short.
const MAX_DISPATCHES: usize = 256;

/// One recorded dispatch.
pub struct Dispatch {
    pub pipeline: wgpu::ComputePipeline,
    /// The bound ranges of buffers (buffer, offset, size), in binding order.
    pub ranges: Vec<(wgpu::Buffer, u64, u64)>,
    pub words: Vec<u32>,
    pub groups: (u32, u32),
}

/// The dispatches recorded since the last flush.
#[derive(Default)]
pub struct Batch {
    pending: Mutex<Vec<Dispatch>>,
}

impl Batch {
    /// Records `dispatch`; flushes when the batch is full.
    pub fn push(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        dispatch: Dispatch,
    ) -> Result<()> {
        let mut pending = self.pending.lock();
        pending.push(dispatch);
        if pending.len() >= MAX_DISPATCHES {
            submit(&mut pending, device, queue)?;
        }
        Ok(())
    }

    /// Submits every recorded dispatch in order.
    pub fn flush(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> Result<()> {
        self.in_order(device, queue, || Ok(()))
    }

    /// Submits the recorded dispatches, then runs `then` (a queue write or submission) before
    /// any other thread can record or submit: work reaches the queue in issue order.
    pub fn in_order<R>(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        then: impl FnOnce() -> Result<R>,
    ) -> Result<R> {
        let mut pending = self.pending.lock();
        submit(&mut pending, device, queue)?;
        then()
    }
}

/// Submits `pending` (emptied) as one compute pass.
fn submit(pending: &mut Vec<Dispatch>, device: &wgpu::Device, queue: &wgpu::Queue) -> Result<()> {
    let dispatches = std::mem::take(pending);
    if dispatches.is_empty() {
        return Ok(());
    }
    let align = (device.limits().min_storage_buffer_offset_alignment as usize / 4).max(1);
    let mut words: Vec<u32> = Vec::new();
    let mut ranges = Vec::with_capacity(dispatches.len());
    for d in &dispatches {
        let start = words.len().div_ceil(align) * align;
        words.resize(start, 0);
        words.extend_from_slice(&d.words);
        ranges.push((start as u64 * 4, d.words.len() as u64 * 4));
    }
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let args = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("mojo args"),
        contents: as_bytes(&words),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let bind_groups: Vec<wgpu::BindGroup> = dispatches
        .iter()
        .zip(&ranges)
        .map(|(d, &(offset, size))| {
            let mut entries = vec![wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &args,
                    offset,
                    size: wgpu::BufferSize::new(size.max(4)),
                }),
            }];
            for (s, (buffer, offset, size)) in d.ranges.iter().enumerate() {
                entries.push(wgpu::BindGroupEntry {
                    binding: s as u32 + 1,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer,
                        offset: *offset,
                        size: wgpu::BufferSize::new(*size),
                    }),
                });
            }
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &d.pipeline.get_bind_group_layout(0),
                entries: &entries,
            })
        })
        .collect();
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        for (d, bind_group) in dispatches.iter().zip(&bind_groups) {
            pass.set_pipeline(&d.pipeline);
            pass.set_bind_group(0, bind_group, &[]);
            pass.dispatch_workgroups(d.groups.0, d.groups.1, 1);
        }
    }
    queue.submit([encoder.finish()]);
    if let Some(e) = pollster::block_on(scope.pop()) {
        return Err(Error::runtime(format!("mojo: a queued kernel failed: {e}")));
    }
    Ok(())
}

/// The little-endian bytes of `words`.
pub fn as_bytes(words: &[u32]) -> &[u8] {
    // SAFETY: u32 has no padding and any byte pattern is a valid u8.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), std::mem::size_of_val(words)) }
}
