//! The software device's wide twin: a second lavapipe device whose kernels run on every core,
//! for launches large enough to repay it.
//!
//! Lavapipe fixes its worker threads when the device is enumerated (`LP_NUM_THREADS`), for
//! every launch: handing a tiny kernel to worker threads costs far more than it runs (a tiny
//! op 5 -> 40 us on 2 cores), while a large one runs on one core only without them. So the
//! software device keeps its queue-thread device for every launch, and opens a twin, in an
//! instance of its own enumerated with one worker per core, over the same memory: each of the
//! device's buffers exports its memory (an opaque file descriptor, lavapipe's memfd), which
//! the twin imports on first use. A wide launch waits for the device's queued work, runs on
//! the twin and is waited for, so work stays in issue order.

use std::num::NonZeroUsize;

use parking_lot::Mutex;

use super::batch::{Batch, Dispatch};
use super::host_mapped::{self, Export};
use super::pipelines::PipelineCache;
use crate::error::Result;
use crate::kernels::wgsl::Bindings;
use crate::kernels::Kernel;
use crate::runtime::fast_hash::FastMap;

/// Invocations from which a launch runs on the twin: a launch this large runs for about a
/// millisecond on one core (an add of 2^19 elements, four per invocation: 0.9 -> 0.65 ms on
/// the twin, 2 cores), against about 0.1 ms to hand it over and wait for the workers (an add
/// of 2^17 elements took 0.23 ms on the device, 0.33 ms on the twin).
const WIDE_INVOCATIONS: u64 = 1 << 17;

/// A matrix product's invocations times its inner size from which it runs on the twin: each
/// invocation of a tile walks the inner dimension (256³ 3.3 -> 1.9 ms on the twin; the MLP
/// step's 256 x 64 x 256 products lost the hand-over).
const WIDE_PRODUCT_STEPS: u64 = 1 << 18;

/// Kernels whose invocation walks a long block of another shape (a convolution's or
/// attention's), counted as this many invocations.
const HEAVY_INVOCATION: u64 = 256;

/// A device buffer known to the twin: its exported memory, and the twin's buffer over it
/// once made.
struct Mirror {
    export: Export,
    bytes: u64,
    usage: wgpu::BufferUsages,
    twin: Option<wgpu::Buffer>,
}

/// The twin device.
pub struct Wide {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipelines: PipelineCache,
    batch: Batch,
    mirrors: Mutex<FastMap<wgpu::Buffer, Mirror>>,
}

impl Wide {
    /// Opens the twin of the software adapter with one worker thread per core, or None on one
    /// core or where it cannot be opened.
    pub fn open(
        features: wgpu::Features,
        limits: &wgpu::Limits,
        desc: wgpu::InstanceDescriptor,
    ) -> Option<Wide> {
        let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        if cores < 2 {
            return None;
        }
        // Read by lavapipe as the instance enumerates its adapter; set back at once for the
        // device, whose instance enumerated already.
        std::env::set_var("LP_NUM_THREADS", cores.to_string());
        let instance = wgpu::Instance::new(desc);
        let adapter = super::adapters(&instance)
            .into_iter()
            .find(super::is_software);
        std::env::set_var("LP_NUM_THREADS", "0");
        let adapter = adapter?;
        let name = adapter.get_info().name;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("mojo wide"),
            required_features: features,
            required_limits: limits.clone(),
            ..Default::default()
        }))
        .ok()?;
        Some(Wide {
            device,
            queue,
            pipelines: PipelineCache::new(format!("{name} (wgpu, {cores} threads)"), true),
            batch: Batch::new(limits.max_storage_buffer_binding_size),
            mirrors: Mutex::default(),
        })
    }

    /// Whether a launch of `kernel` over `invocations` with launch words `words` is worth the
    /// twin.
    pub fn worth(kernel: &Kernel, invocations: u64, words: &[u32]) -> bool {
        match kernel {
            // Word 2 of a product's words is its inner size.
            Kernel::Gemm(_) => {
                let inner = words.get(2).map_or(1, |&k| u64::from(k));
                invocations.saturating_mul(inner) >= WIDE_PRODUCT_STEPS
            }
            Kernel::Conv(_) | Kernel::Attention(_) => {
                invocations.saturating_mul(HEAVY_INVOCATION) >= WIDE_INVOCATIONS
            }
            _ => invocations >= WIDE_INVOCATIONS,
        }
    }

    /// Makes `buffer`'s exported memory available to the twin.
    pub fn register(
        &self,
        buffer: &wgpu::Buffer,
        export: Export,
        bytes: u64,
        usage: wgpu::BufferUsages,
    ) {
        self.mirrors.lock().insert(
            buffer.clone(),
            Mirror {
                export,
                bytes,
                usage,
                twin: None,
            },
        );
    }

    /// Forgets `buffer`, which is being released.
    pub fn forget(&self, buffer: &wgpu::Buffer) {
        self.batch.bind_groups().lock().clear();
        self.mirrors.lock().remove(buffer);
    }

    /// The twin's ranges over the device's `ranges`, or None when a buffer has no twin.
    pub fn ranges(
        &self,
        ranges: &[(wgpu::Buffer, u64, u64)],
    ) -> Option<Vec<(wgpu::Buffer, u64, u64)>> {
        let mut mirrors = self.mirrors.lock();
        ranges
            .iter()
            .map(|(buffer, offset, size)| {
                let m = mirrors.get_mut(buffer)?;
                if m.twin.is_none() {
                    m.twin = host_mapped::import(&self.device, &m.export, m.bytes, m.usage);
                }
                Some((m.twin.clone()?, *offset, *size))
            })
            .collect()
    }

    /// Runs one launch on the twin and waits for it. The caller has waited for the device's
    /// earlier work and holds its queue until this returns.
    pub fn run(
        &self,
        kernel: &Kernel,
        bindings: &Bindings,
        ranges: Vec<(wgpu::Buffer, u64, u64)>,
        words: Vec<u32>,
        groups: (u32, u32),
    ) -> Result<()> {
        let (pipeline, layout) = self.pipelines.get(&self.device, kernel, bindings)?;
        let dispatch = Dispatch {
            pipeline,
            layout,
            ranges: ranges.into(),
            words,
            groups,
        };
        self.batch.push(&self.device, &self.queue, dispatch)?;
        self.batch.flush(&self.device, &self.queue)?;
        // Polling with yields, as the device's waits: sleeping at once made a wide sum of 4 MiB
        // 0.51 -> 0.64 ms (the waiter wakes tens of microseconds late).
        super::waits::wait(&self.device, None, |s| s.is_queue_empty())
    }
}
