//! Events on a wgpu queue: a submission whose completion is signalled back, and, for timing, a
//! device timestamp written by an empty compute pass at that point of the queue.

use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::runtime::backend::{untimed_event, DeviceEvent};

/// The timestamp query of a timed event and the buffers it is read back through.
struct Stamp {
    _queries: wgpu::QuerySet,
    readback: wgpu::Buffer,
    period_ns: f32,
}

pub struct WgpuEvent {
    device: wgpu::Device,
    submission: wgpu::SubmissionIndex,
    done: Arc<AtomicBool>,
    stamp: Option<Stamp>,
}

fn poll_error(e: wgpu::PollError) -> Error {
    Error::runtime(format!("mojo: device wait failed: {e}"))
}

impl WgpuEvent {
    /// Records an event at the end of everything submitted to `queue` so far.
    pub fn record(device: &wgpu::Device, queue: &wgpu::Queue, timing: bool) -> Result<Self> {
        let mut encoder = device.create_command_encoder(&Default::default());
        let stamp = if timing {
            if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
                return Err(Error::runtime(
                    "mojo: this device has no timestamp queries, so events cannot be timed",
                ));
            }
            let queries = device.create_query_set(&wgpu::QuerySetDescriptor {
                label: None,
                ty: wgpu::QueryType::Timestamp,
                count: 1,
            });
            let buffer = |usage| {
                device.create_buffer(&wgpu::BufferDescriptor {
                    label: None,
                    size: 8,
                    usage,
                    mapped_at_creation: false,
                })
            };
            let resolved = buffer(wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC);
            let readback = buffer(wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST);
            drop(encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: None,
                timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                    query_set: &queries,
                    beginning_of_pass_write_index: Some(0),
                    end_of_pass_write_index: None,
                }),
            }));
            encoder.resolve_query_set(&queries, 0..1, &resolved, 0);
            encoder.copy_buffer_to_buffer(&resolved, 0, &readback, 0, 8);
            Some(Stamp {
                _queries: queries,
                readback,
                period_ns: queue.get_timestamp_period(),
            })
        } else {
            None
        };
        let submission = queue.submit([encoder.finish()]);
        let done = Arc::new(AtomicBool::new(false));
        let signal = done.clone();
        queue.on_submitted_work_done(move || signal.store(true, Ordering::Release));
        Ok(WgpuEvent {
            device: device.clone(),
            submission,
            done,
            stamp,
        })
    }

    /// The device clock at the event, in nanoseconds.
    fn nanoseconds(&self) -> Result<f64> {
        let stamp = self.stamp.as_ref().ok_or_else(untimed_event)?;
        self.synchronize()?;
        let slice = stamp.readback.slice(..);
        slice.map_async(wgpu::MapMode::Read, |_| {});
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: None,
                timeout: None,
            })
            .map_err(poll_error)?;
        let view = slice
            .get_mapped_range()
            .map_err(|e| Error::runtime(format!("mojo: reading a timestamp failed: {e}")))?;
        let ticks = u64::from_le_bytes(view[..8].try_into().expect("8-byte timestamp"));
        drop(view);
        stamp.readback.unmap();
        Ok(ticks as f64 * f64::from(stamp.period_ns))
    }
}

impl DeviceEvent for WgpuEvent {
    fn query(&self) -> Result<bool> {
        if !self.done.load(Ordering::Acquire) {
            self.device.poll(wgpu::PollType::Poll).map_err(poll_error)?;
        }
        Ok(self.done.load(Ordering::Acquire))
    }

    fn synchronize(&self) -> Result<()> {
        let done = || self.done.load(Ordering::Acquire);
        super::waits::wait(&self.device, Some(self.submission.clone()), |_| done())
    }

    fn elapsed_ms(&self, later: &dyn DeviceEvent) -> Result<f64> {
        let later = later
            .as_any()
            .downcast_ref::<WgpuEvent>()
            .ok_or_else(|| Error::runtime("mojo: events of different backends"))?;
        Ok((later.nanoseconds()? - self.nanoseconds()?) / 1e6)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
