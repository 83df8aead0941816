//! Host transfers through persistent staging buffers, in chunks, two at a time (GPUs; the
//! software device addresses its memory directly, see `host_mapped`).
//!
//! A buffer made per transfer costs its allocation and a page fault per 4 KiB page the copy
//! touches: on the software device, before it addressed its memory, a 64 MiB download ran at
//! 5 GB/s alone and at a quarter of that with a second process copying (two ranks staging a
//! collective). Two buffers of [`CHUNK`] bytes per direction are made once per device and
//! reused: while the host copies one chunk, the queue fills (or drains) the other.

use std::sync::mpsc;

use parking_lot::Mutex;

use crate::error::{Error, Result};

/// Bytes per staging buffer.
pub const CHUNK: u64 = 4 << 20;

/// The two staging buffers of one direction (made on first use), each with the submission
/// that last used it.
type Pair = Mutex<Option<Buffers>>;

/// A device's staging buffers: downloads (map-read) and uploads (map-write).
#[derive(Default)]
pub struct Staging {
    downloads: Pair,
    uploads: Pair,
}

/// What a transfer needs of the device: the device and queue, and a way to submit commands
/// in order with everything recorded before (returns the submission's index).
pub struct Queue<'a, F: Fn(wgpu::CommandBuffer) -> Result<wgpu::SubmissionIndex>> {
    pub device: &'a wgpu::Device,
    pub submit: F,
}

impl<F: Fn(wgpu::CommandBuffer) -> Result<wgpu::SubmissionIndex>> Queue<'_, F> {
    /// Submits one buffer-to-buffer copy.
    fn copy(
        &self,
        src: &wgpu::Buffer,
        src_offset: u64,
        dst: &wgpu::Buffer,
        dst_offset: u64,
        bytes: u64,
    ) -> Result<wgpu::SubmissionIndex> {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(src, src_offset, dst, dst_offset, bytes);
        (self.submit)(encoder.finish())
    }

    /// Maps the first `bytes` of `staging` once `after` (None: everything submitted) has
    /// finished.
    fn map(
        &self,
        staging: &wgpu::Buffer,
        bytes: u64,
        mode: wgpu::MapMode,
        after: Option<wgpu::SubmissionIndex>,
    ) -> Result<()> {
        let (tx, rx) = mpsc::channel();
        staging.map_async(mode, ..bytes, move |result| {
            let _ = tx.send(result);
        });
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: after,
                timeout: None,
            })
            .map_err(|e| Error::runtime(format!("mojo: device wait failed: {e}")))?;
        rx.recv()
            .map_err(|e| Error::runtime(format!("mojo: host transfer lost: {e}")))?
            .map_err(|e| Error::runtime(format!("mojo: host transfer failed: {e}")))
    }
}

impl Staging {
    /// Copies `out.len()` bytes (a multiple of 4) at `offset` of `buffer` to the host.
    pub fn download(
        &self,
        queue: &Queue<impl Fn(wgpu::CommandBuffer) -> Result<wgpu::SubmissionIndex>>,
        buffer: &wgpu::Buffer,
        offset: u64,
        out: &mut [u8],
    ) -> Result<()> {
        let mut pair = self.downloads.lock();
        let usage = wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST;
        let pair = made(&mut pair, queue.device, usage);
        let chunks = chunks(out.len());
        let fill = |pair: &mut [(wgpu::Buffer, _); 2], i: usize| {
            let (at, len) = chunks[i];
            let (staging, last) = &mut pair[i % 2];
            *last = Some(queue.copy(buffer, offset + at as u64, staging, 0, len as u64)?);
            Ok::<_, Error>(())
        };
        for i in 0..chunks.len().min(2) {
            fill(pair, i)?;
        }
        for (i, &(at, len)) in chunks.iter().enumerate() {
            let (staging, last) = &pair[i % 2];
            queue.map(staging, len as u64, wgpu::MapMode::Read, last.clone())?;
            let view = staging
                .slice(..len as u64)
                .get_mapped_range()
                .map_err(mapping)?;
            out[at..at + len].copy_from_slice(&view);
            drop(view);
            staging.unmap();
            if i + 2 < chunks.len() {
                fill(pair, i + 2)?;
            }
        }
        Ok(())
    }

    /// Copies `data` (a multiple of 4 bytes) to `offset` of `buffer`. Returns once the data is
    /// staged; the last copies finish in queue order.
    pub fn upload(
        &self,
        queue: &Queue<impl Fn(wgpu::CommandBuffer) -> Result<wgpu::SubmissionIndex>>,
        buffer: &wgpu::Buffer,
        offset: u64,
        data: &[u8],
    ) -> Result<()> {
        let mut pair = self.uploads.lock();
        let usage = wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC;
        let pair = made(&mut pair, queue.device, usage);
        for (i, (at, len)) in chunks(data.len()).into_iter().enumerate() {
            let (staging, last) = &mut pair[i % 2];
            // Waits for the copy that last read this buffer.
            queue.map(staging, len as u64, wgpu::MapMode::Write, last.clone())?;
            staging
                .slice(..len as u64)
                .get_mapped_range_mut()
                .map_err(mapping)?
                .copy_from_slice(&data[at..at + len]);
            staging.unmap();
            *last = Some(queue.copy(staging, 0, buffer, offset + at as u64, len as u64)?);
        }
        Ok(())
    }
}

fn mapping(error: impl std::fmt::Display) -> Error {
    Error::runtime(format!("mojo: staging buffer not mapped: {error}"))
}

/// The (start, length) of each chunk of a transfer of `bytes`.
fn chunks(bytes: usize) -> Vec<(usize, usize)> {
    let chunk = CHUNK as usize;
    (0..bytes)
        .step_by(chunk)
        .map(|at| (at, chunk.min(bytes - at)))
        .collect()
}

type Buffers = [(wgpu::Buffer, Option<wgpu::SubmissionIndex>); 2];

/// The two staging buffers of one direction, made on first use.
fn made<'a>(
    pair: &'a mut Option<Buffers>,
    device: &wgpu::Device,
    usage: wgpu::BufferUsages,
) -> &'a mut Buffers {
    pair.get_or_insert_with(|| {
        [0, 1].map(|_| {
            let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("mojo staging"),
                size: CHUNK,
                usage,
                mapped_at_creation: false,
            });
            (buffer, None)
        })
    })
}
