//! Dispatches queued on the host and submitted together: one compute pass per batch, so
//! that issuing an op costs microseconds, not a submit. A batch is flushed when it is full
//! and before anything that must observe or precede its work (host reads and writes, buffer
//! copies, waits, releasing memory). The queue sees work in the order it was issued, from
//! any number of threads: recording, flushing and every other submission happen under one
//! lock (`in_order`).
//!
//! Launch words go to one arguments buffer, rewritten by each batch; a dispatch reads its
//! words from the word its immediate data names. Bind groups therefore depend only on the
//! buffers a launch binds and are kept across batches (`BindGroups`): a training step binds the same
//! buffers again and again, and creating a bind group was a fifth of a tiny op's host time.

use std::sync::Arc;

use parking_lot::Mutex;

use crate::error::{Error, Result};
use crate::runtime::fast_hash::FastMap;

/// Dispatches per batch: enough to amortise a submit, few enough to keep passes short.
const MAX_DISPATCHES: usize = 256;

/// Bind groups kept at most; past it they are all dropped (a new working set is built).
const MAX_BIND_GROUPS: usize = 4096;

/// One recorded dispatch.
pub struct Dispatch {
    pub pipeline: wgpu::ComputePipeline,
    /// The layout of the pipeline's bind group (see `PipelineCache::layout`).
    pub layout: wgpu::BindGroupLayout,
    /// The bound ranges of buffers (buffer, offset, size), in binding order.
    pub ranges: Ranges,
    pub words: Vec<u32>,
    pub groups: (u32, u32),
}

/// A bind group's identity: its layout and the buffer ranges it binds after the words.
type GroupKey = (wgpu::BindGroupLayout, Ranges);

/// The buffer ranges a dispatch binds (buffer, offset, size), in binding order: inline for
/// the usual few, so that recording a dispatch allocates nothing for them.
pub type Ranges = smallvec::SmallVec<[(wgpu::Buffer, u64, u64); 4]>;

/// The arguments buffer and the bind groups over it.
#[derive(Default)]
pub struct BindGroups {
    groups: FastMap<GroupKey, wgpu::BindGroup>,
    arguments: Option<wgpu::Buffer>,
    /// The arguments buffer's size in bytes.
    capacity: u64,
    /// The bytes of it binding 0 spans: all of it, within the device's largest binding.
    bound: u64,
    /// The words of the batch being submitted (kept to reuse its allocation).
    staged: Vec<u32>,
}

impl BindGroups {
    /// Drops every bind group: called when buffers are released, so that none keeps a
    /// released buffer alive.
    pub fn clear(&mut self) {
        self.groups.clear();
    }
}

/// The dispatches recorded since the last flush and the count of their words.
#[derive(Default)]
struct Pending {
    dispatches: Vec<Dispatch>,
    words: usize,
}

/// The dispatches recorded since the last flush.
pub struct Batch {
    pending: Mutex<Pending>,
    bind_groups: Arc<Mutex<BindGroups>>,
    /// The most words one batch may have: binding 0 spans all of them, within the device's
    /// largest binding.
    max_words: usize,
}

impl Batch {
    /// A batch for a device whose largest storage binding is `max_binding` bytes.
    pub fn new(max_binding: u64) -> Batch {
        Batch {
            pending: Mutex::default(),
            bind_groups: Arc::new(Mutex::new(BindGroups {
                bound: max_binding,
                ..BindGroups::default()
            })),
            max_words: usize::try_from(max_binding / 4).unwrap_or(usize::MAX),
        }
    }

    /// The bind groups, for the memory provider to clear when it releases buffers.
    pub fn bind_groups(&self) -> Arc<Mutex<BindGroups>> {
        self.bind_groups.clone()
    }

    /// Records `dispatch`; submits the batch first when its words would outgrow a binding,
    /// and after when it is full.
    pub fn push(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        dispatch: Dispatch,
    ) -> Result<()> {
        let mut pending = self.pending.lock();
        if pending.words + dispatch.words.len() > self.max_words {
            self.submit(&mut pending, device, queue)?;
        }
        pending.words += dispatch.words.len();
        pending.dispatches.push(dispatch);
        if pending.dispatches.len() >= MAX_DISPATCHES {
            self.submit(&mut pending, device, queue)?;
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
        self.submit(&mut pending, device, queue)?;
        then()
    }

    /// Submits `pending` (emptied) as one compute pass.
    fn submit(
        &self,
        pending: &mut Pending,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<()> {
        if pending.dispatches.is_empty() {
            return Ok(());
        }
        pending.words = 0;
        let pending = &mut pending.dispatches;
        let mut state = self.bind_groups.lock();
        let starts = state.stage(pending);
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let arguments = state.arguments(device);
        queue.write_buffer(&arguments, 0, as_bytes(&state.staged));
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            for (d, start) in pending.drain(..).zip(starts) {
                pass.set_pipeline(&d.pipeline);
                let group = state.group(device, &arguments, d.layout, d.ranges);
                pass.set_bind_group(0, &group, &[]);
                pass.set_immediates(0, &start.to_le_bytes());
                pass.dispatch_workgroups(d.groups.0, d.groups.1, 1);
            }
        }
        queue.submit([encoder.finish()]);
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(Error::runtime(format!("mojo: a queued kernel failed: {e}")));
        }
        Ok(())
    }
}

impl BindGroups {
    /// Lays the dispatches' words out in `staged`, one after another; returns the index of
    /// each dispatch's first word.
    fn stage(&mut self, dispatches: &[Dispatch]) -> Vec<u32> {
        self.staged.clear();
        let mut starts = Vec::with_capacity(dispatches.len());
        for d in dispatches {
            starts.push(self.staged.len() as u32);
            self.staged.extend_from_slice(&d.words);
        }
        starts
    }

    /// The arguments buffer, grown (dropping the bind groups over the old one) to hold the
    /// staged words.
    fn arguments(&mut self, device: &wgpu::Device) -> wgpu::Buffer {
        let needed = (self.staged.len() as u64 * 4).max(4096);
        match &self.arguments {
            Some(buffer) if self.capacity >= needed => buffer.clone(),
            _ => {
                self.capacity = needed.max(self.capacity * 2).next_power_of_two();
                let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("mojo args"),
                    size: self.capacity,
                    usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                self.groups.clear();
                self.arguments = Some(buffer.clone());
                buffer
            }
        }
    }

    /// The bind group of `layout` over the words and `ranges`, made on first use.
    fn group(
        &mut self,
        device: &wgpu::Device,
        arguments: &wgpu::Buffer,
        layout: wgpu::BindGroupLayout,
        ranges: Ranges,
    ) -> wgpu::BindGroup {
        if self.groups.len() >= MAX_BIND_GROUPS {
            self.groups.clear();
        }
        let bound = self.bound.min(self.capacity);
        self.groups
            .entry((layout, ranges))
            .or_insert_with_key(|(layout, ranges)| {
                let words = wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: arguments,
                        offset: 0,
                        size: wgpu::BufferSize::new(bound),
                    }),
                };
                let buffers = ranges
                    .iter()
                    .enumerate()
                    .map(|(s, (buffer, offset, size))| wgpu::BindGroupEntry {
                        binding: s as u32 + 1,
                        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer,
                            offset: *offset,
                            size: wgpu::BufferSize::new(*size),
                        }),
                    });
                let entries: Vec<_> = std::iter::once(words).chain(buffers).collect();
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: None,
                    layout,
                    entries: &entries,
                })
            })
            .clone()
    }
}

/// The little-endian bytes of `words`.
pub fn as_bytes(words: &[u32]) -> &[u8] {
    // SAFETY: u32 has no padding and any byte pattern is a valid u8.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), std::mem::size_of_val(words)) }
}
