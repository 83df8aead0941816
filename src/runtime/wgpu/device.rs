//! One wgpu device: its queue, its caching allocator over buffers, copies and launches.

use crate::runtime::wgpu::batch::Ranges;
use parking_lot::Mutex;
use smallvec::SmallVec;

use super::batch::{Batch, Dispatch};
use super::memory::BufferProvider;
use super::pipelines::PipelineCache;
use super::staging::{Queue, Staging, CHUNK};
use super::wide::Wide;
use crate::config::config;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::wgsl::Bindings;
use crate::runtime::allocator::CachingAllocator;
use crate::runtime::backend::{address_base, DeviceEvent, Launch};
use crate::runtime::devices::VendorDevice;

/// An open wgpu device.
pub struct WgpuDevice {
    pub name: String,
    software: bool,
    /// Subgroups hold at least `printer::GEMM_LANES` invocations (see `lane_broadcast`).
    lane_broadcast: bool,
    /// How many groups keep the device busy (see `open`).
    resident_groups: u64,
    device: wgpu::Device,
    queue: wgpu::Queue,
    features: wgpu::Features,
    limits: wgpu::Limits,
    memory: Mutex<CachingAllocator<BufferProvider>>,
    pipelines: PipelineCache,
    batch: Batch,
    staging: Staging,
    /// The software device's twin for large launches (see `wide`).
    wide: Option<std::sync::Arc<Wide>>,
}

/// Features used when the adapter has them. `TORCH_MOJO_BACKEND_WITHOUT_F64=1` leaves out
/// shader-f64, so that any adapter behaves as Apple GPUs do (float64 emulated, see `supports`).
fn wanted_features() -> wgpu::Features {
    let all = wgpu::Features::SHADER_F64
        | wgpu::Features::SHADER_INT64
        | wgpu::Features::TIMESTAMP_QUERY
        | wgpu::Features::IMMEDIATES
        | wgpu::Features::SUBGROUP;
    if config().without_f64 {
        all - wgpu::Features::SHADER_F64
    } else {
        all
    }
}

/// A buffer a launch binds: the range `lo..hi` of it its tensors may touch.
struct Bound {
    start: u64,
    buffer: wgpu::Buffer,
    size: u64,
    lo: u64,
    hi: u64,
}

/// A launch's bindings: the bound buffers, each tensor's slot among them, each slot's
/// window count, and the buffer ranges bound in binding order.
struct Slotted {
    bound: SmallVec<[Bound; 4]>,
    slots: SmallVec<[usize; 4]>,
    windows: SmallVec<[u32; 4]>,
    ranges: Ranges,
}

/// A buffer range resolved from an address, and the host address of the range where the host
/// addresses the buffer's memory.
struct Resolved {
    start: u64,
    buffer: wgpu::Buffer,
    offset: u64,
    size: u64,
    host: Option<*mut u8>,
}

/// A launch of at least this many groups over a tensor of at least this many bytes runs on
/// the twin (see `wide`) whatever its invocation count: reductions and scans walk long chunks
/// per invocation (a sum of 16M elements is 256 groups of 64). Measured sums on 2 cores:
/// 4 MiB 0.56 -> 0.51 ms, 8 MiB 1.13 -> 0.80 ms, 2 MiB 0.29 ms either way.
const WIDE_GROUPS: u64 = 8;
const WIDE_BYTES: u64 = 4 << 20;

impl WgpuDevice {
    /// Opens `adapter` as device number `index`.
    /// With `twin`, a software device also opens its twin for large launches.
    pub fn open(
        adapter: wgpu::Adapter,
        index: usize,
        twin: bool,
    ) -> std::result::Result<Self, String> {
        let info = adapter.get_info();
        let features = adapter.features() & wanted_features();
        let mut limits = adapter.limits();
        if !features.contains(wgpu::Features::IMMEDIATES)
            || limits.max_immediate_size < super::pipelines::IMMEDIATE_BYTES
        {
            return Err(format!(
                "mojo: {} has no immediate data (push constants), which every kernel reads its \
                 arguments' position from",
                info.name
            ));
        }
        if let Some(cap) = config().max_binding {
            let limit = &mut limits.max_storage_buffer_binding_size;
            *limit = (*limit).min(cap);
        }
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("mojo"),
            required_features: features,
            required_limits: limits.clone(),
            ..Default::default()
        }))
        .map_err(|e| format!("mojo: cannot open {}: {e}", info.name))?;
        device.on_uncaptured_error(std::sync::Arc::new(|e| {
            eprintln!("mojo: uncaptured wgpu error: {e}")
        }));
        let batch = Batch::new(limits.max_storage_buffer_binding_size);
        let software = info.device_type == wgpu::DeviceType::Cpu;
        let wide = (twin && software)
            .then(|| Wide::open(features, &limits, super::instance_descriptor()))
            .flatten()
            .map(std::sync::Arc::new);
        let provider = BufferProvider {
            wide: wide.clone(),
            bind_groups: batch.bind_groups(),
            device: device.clone(),
            max_buffer_size: limits.max_buffer_size,
            max_binding: limits.max_storage_buffer_binding_size,
            host_mapped: info.device_type == wgpu::DeviceType::Cpu && !config().staged_transfers,
        };
        // How many groups keep the device busy: on the software device a few per core (each
        // core runs one group at a time, and fewer, longer groups save its per-group cost),
        // on a GPU enough for every multiprocessor (wgpu does not say how many it has).
        let resident_groups = if software {
            let cores = std::thread::available_parallelism().map_or(4, |n| n.get());
            cores as u64 * 4
        } else {
            4096
        };
        Ok(WgpuDevice {
            resident_groups,
            name: info.name.clone(),
            software,
            lane_broadcast: software
                && features.contains(wgpu::Features::SUBGROUP)
                && info.subgroup_min_size >= crate::kernels::printer::GEMM_LANES,
            pipelines: PipelineCache::new(
                format!("{} (wgpu {:?})", info.name, info.backend),
                info.device_type == wgpu::DeviceType::Cpu,
            ),
            device,
            queue,
            features,
            limits,
            memory: Mutex::new(CachingAllocator::new(provider, address_base(index))),
            batch,
            staging: Staging::default(),
            wide,
        })
    }

    /// The slots of a launch's tensors: one per tensor, or with `share` one per distinct
    /// buffer; a slot over a buffer past the largest binding is bound as the windows holding
    /// its tensors' live blocks.
    fn slot(&self, tensors: &[u64], share: bool) -> Result<Slotted> {
        let max_binding = self.limits.max_storage_buffer_binding_size;
        let mut bound: SmallVec<[Bound; 4]> = SmallVec::new();
        let mut slots = SmallVec::new();
        for &address in tensors {
            let r = self.resolve(address, 0)?;
            // What the kernel may touch: the whole buffer, or in a buffer over the binding
            // limit, the live block holding the tensor.
            let (lo, hi) = if r.size > max_binding {
                let block = self.memory.lock().live_block_containing(address);
                block.map_or((0, r.size), |(at, size)| {
                    (at - r.start, at - r.start + size)
                })
            } else {
                (0, r.size)
            };
            let shared = bound.iter().position(|b| share && b.start == r.start);
            let slot = match shared {
                Some(slot) => {
                    let b = &mut bound[slot];
                    (b.lo, b.hi) = (b.lo.min(lo), b.hi.max(hi));
                    slot
                }
                None => {
                    bound.push(Bound {
                        start: r.start,
                        buffer: r.buffer,
                        size: r.size,
                        lo,
                        hi,
                    });
                    bound.len() - 1
                }
            };
            slots.push(slot);
        }
        let window = 1u64 << self.window_shift();
        // A windowed slot starts at the window holding its lowest block.
        let mut windows = SmallVec::new();
        let mut ranges = Ranges::new();
        for b in &mut bound {
            if b.size <= max_binding {
                windows.push(1);
                ranges.push((b.buffer.clone(), 0, b.size));
                (b.lo, b.hi) = (0, b.size);
                continue;
            }
            b.lo = b.lo / window * window;
            let n = (b.hi - b.lo).div_ceil(window);
            for w in 0..n {
                let at = b.lo + w * window;
                ranges.push((b.buffer.clone(), at, window.min(b.size - at)));
            }
            windows.push(n as u32);
        }
        Ok(Slotted {
            bound,
            slots,
            windows,
            ranges,
        })
    }

    /// The size of the largest allocation holding one of `tensors`.
    fn largest_block(&self, tensors: &[u64]) -> u64 {
        let memory = self.memory.lock();
        tensors
            .iter()
            .filter_map(|&a| memory.live_block_containing(a))
            .map(|(_, size)| size)
            .max()
            .unwrap_or(0)
    }

    /// log2 of the windows a buffer over the largest binding is bound as: the largest power of
    /// two within the binding limit (an offset alignment's multiple, and every element lies
    /// in one window).
    fn window_shift(&self) -> u32 {
        let max_binding = self.limits.max_storage_buffer_binding_size.min(1 << 31);
        63 - max_binding.leading_zeros()
    }

    fn resolve(&self, address: u64, len: u64) -> Result<Resolved> {
        let memory = self.memory.lock();
        let (start, segment, size) = memory.find(address).ok_or_else(|| {
            Error::runtime(format!("mojo: address {address:#x} is not device memory"))
        })?;
        let offset = address - start;
        if offset + len > size {
            return Err(Error::runtime(format!(
                "mojo: access of {len} bytes at offset {offset} overruns a block of {size} bytes"
            )));
        }
        Ok(Resolved {
            start,
            buffer: segment.buffer.clone(),
            offset,
            size,
            host: (segment.host != 0).then(|| (segment.host + offset as usize) as *mut u8),
        })
    }

    /// Reads the word-aligned range `[offset, offset + out.len())` of `buffer`.
    fn read_range(&self, buffer: &wgpu::Buffer, offset: u64, out: &mut [u8]) -> Result<()> {
        self.staging
            .download(&self.transfers(), buffer, offset, out)
    }

    /// The queue as host transfers use it.
    fn transfers(
        &self,
    ) -> Queue<'_, impl Fn(wgpu::CommandBuffer) -> Result<wgpu::SubmissionIndex> + '_> {
        Queue {
            device: &self.device,
            submit: |commands| self.in_order(|| Ok(self.queue.submit([commands]))),
        }
    }

    /// Submits the recorded dispatches.
    pub fn flush(&self) -> Result<()> {
        self.batch.flush(&self.device, &self.queue)
    }

    /// Submits the recorded dispatches, then runs `then` (a queue operation) before any other
    /// thread's work reaches the queue.
    fn in_order<R>(&self, then: impl FnOnce() -> Result<R>) -> Result<R> {
        self.batch.in_order(&self.device, &self.queue, then)
    }

    /// Waits until every submission so far has finished.
    fn wait(&self) -> Result<()> {
        super::waits::wait(&self.device, None, |status| status.is_queue_empty())
    }
}

impl VendorDevice for WgpuDevice {
    type Memory = BufferProvider;

    fn name(&self) -> String {
        self.name.clone()
    }

    fn direct_loads(&self) -> bool {
        self.software
    }

    fn cpu_device(&self) -> bool {
        self.software
    }

    fn lane_broadcast(&self) -> bool {
        self.lane_broadcast
    }

    fn memory(&self) -> &Mutex<CachingAllocator<BufferProvider>> {
        &self.memory
    }

    /// Released buffers may still be named by recorded dispatches: submit those first.
    fn before_release(&self) {
        let _ = self.flush();
    }

    /// Whether this device can hold and compute `dtype`.
    fn supports(&self, dtype: DType) -> bool {
        match dtype {
            DType::F64 => self
                .features
                .contains(wgpu::Features::SHADER_F64 | wgpu::Features::SHADER_INT64),
            DType::I64 => self.features.contains(wgpu::Features::SHADER_INT64),
            _ => true,
        }
    }

    /// Without shader-f64, float64 is held as its bits in u64 and a few ops are emulated.
    fn emulates_f64(&self) -> bool {
        !self.features.contains(wgpu::Features::SHADER_F64)
            && self.features.contains(wgpu::Features::SHADER_INT64)
    }

    /// (free, total): host memory for the software device, whose buffers live there; other
    /// adapters do not report their memory through wgpu, so the host figures stand in.
    fn memory_info(&self) -> Result<(u64, u64)> {
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        let field = |name: &str| {
            meminfo
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse::<u64>().ok())
                .map_or(0, |kib| kib * 1024)
        };
        let _ = self.software;
        Ok((field("MemAvailable:"), field("MemTotal:")))
    }

    /// Copies host bytes to `address`; unaligned edges are merged with the words around them.
    fn write(&self, address: u64, data: &[u8]) -> Result<()> {
        if data.is_empty() {
            return Ok(());
        }
        let r = self.resolve(address, data.len() as u64)?;
        let lo = r.offset & !3;
        let hi = (r.offset + data.len() as u64).div_ceil(4) * 4;
        let aligned = lo == r.offset && hi == r.offset + data.len() as u64;
        if let Some(host) = r
            .host
            .filter(|_| !aligned || data.len() as u64 >= CHUNK / 4)
        {
            // Written in place once the queued work (which may read these bytes) is done.
            self.synchronize()?;
            // SAFETY: `host` maps the resolved range, and no queued work uses it any more.
            unsafe { super::host_mapped::copy(data.as_ptr(), host, data.len()) };
            return Ok(());
        }
        if aligned {
            // Large uploads through the staging buffers; small ones stay asynchronous (wgpu
            // stages them in a buffer of their own, copied at the next submission).
            if data.len() as u64 >= CHUNK / 4 {
                return self.staging.upload(&self.transfers(), &r.buffer, lo, data);
            }
            return self.in_order(|| {
                self.queue.write_buffer(&r.buffer, lo, data);
                self.queue.submit([]);
                Ok(())
            });
        }
        // The words around unaligned edges are read back and merged; this is not atomic with
        // respect to kernels of other threads writing the same words.
        let mut words = vec![0u8; (hi - lo) as usize];
        self.read_range(&r.buffer, lo, &mut words[..4])?;
        let tail = words.len() - 4;
        self.read_range(&r.buffer, hi - 4, &mut words[tail..])?;
        let at = (r.offset - lo) as usize;
        words[at..at + data.len()].copy_from_slice(data);
        self.in_order(|| {
            self.queue.write_buffer(&r.buffer, lo, &words);
            self.queue.submit([]);
            Ok(())
        })
    }

    /// Copies `out.len()` bytes from `address` to the host, waiting for queued work.
    fn read(&self, address: u64, out: &mut [u8]) -> Result<()> {
        if out.is_empty() {
            return Ok(());
        }
        let r = self.resolve(address, out.len() as u64)?;
        if let Some(host) = r.host {
            self.synchronize()?;
            // SAFETY: `host` maps the resolved range, and the queued work that writes it is done.
            unsafe { super::host_mapped::copy(host, out.as_mut_ptr(), out.len()) };
            return Ok(());
        }
        let lo = r.offset & !3;
        let hi = (r.offset + out.len() as u64).div_ceil(4) * 4;
        if lo == r.offset && hi == r.offset + out.len() as u64 {
            return self.read_range(&r.buffer, lo, out);
        }
        let mut words = vec![0u8; (hi - lo) as usize];
        self.read_range(&r.buffer, lo, &mut words)?;
        let at = (r.offset - lo) as usize;
        out.copy_from_slice(&words[at..at + out.len()]);
        Ok(())
    }

    /// Copies word-aligned bytes between two different buffers.
    fn copy(&self, dst: u64, src: u64, bytes: u64) -> Result<()> {
        let d = self.resolve(dst, bytes)?;
        let s = self.resolve(src, bytes)?;
        if d.start == s.start || !(d.offset | s.offset | bytes).is_multiple_of(4) {
            return Err(Error::runtime(
                "mojo: buffer copy needs word-aligned ranges in two buffers",
            ));
        }
        self.in_order(|| {
            let mut encoder = self.device.create_command_encoder(&Default::default());
            encoder.copy_buffer_to_buffer(&s.buffer, s.offset, &d.buffer, d.offset, bytes);
            self.queue.submit([encoder.finish()]);
            Ok(())
        })
    }

    /// Binds each tensor's buffer to its own slot (the windows its block lies in, when the
    /// buffer exceeds the largest binding), or, past the device's binding limit, each distinct
    /// buffer once; writes tensor offsets into the words and dispatches. Own slots keep a
    /// kernel's text independent of which tensors happen to share a buffer: sharing slots
    /// made a pipeline per pattern, and a training step after much allocation built new ones
    /// on every step (a second each for attention's backward on the software device).
    fn launch(&self, mut launch: Launch<'_>) -> Result<()> {
        if launch.threads == 0 {
            return Ok(());
        }
        let limit = self.limits.max_storage_buffers_per_shader_stage;
        // Binding 0 holds the launch words.
        let mut slotted = self.slot(launch.tensors, false)?;
        if slotted.ranges.len() as u32 + 1 > limit {
            slotted = self.slot(launch.tensors, true)?;
        }
        let Slotted {
            bound,
            slots,
            windows,
            ranges,
        } = slotted;
        for (t, &address) in launch.tensors.iter().enumerate() {
            let b = &bound[slots[t]];
            // Kernels address bytes with 32-bit integers.
            let offset = u32::try_from(address - b.start - b.lo).map_err(|_| {
                Error::not_implemented(
                    "mojo: tensors more than 4 GiB into a buffer are not supported by wgpu kernels yet",
                )
            })?;
            if b.hi - b.lo > 1 << 32 {
                return Err(Error::not_implemented(
                    "mojo: tensors over 4 GiB are not supported by wgpu kernels yet",
                ));
            }
            launch.words[launch.offset_words[t]] = offset;
        }
        let count = ranges.len() as u32 + 1;
        if count > limit {
            let max_binding = self.limits.max_storage_buffer_binding_size;
            return Err(Error::not_implemented(format!(
                "mojo: {} needs {count} buffer bindings (tensors over {max_binding} bytes are \
                 bound in windows), more than this device's {limit}",
                launch.kernel.name(),
            )));
        }
        let bindings = Bindings {
            slots,
            windows,
            window_shift: self.window_shift(),
        };
        let groups = launch.kernel.groups(
            launch.threads,
            self.resident_groups,
            self.software,
            &launch.words,
        );
        let x = groups.min(65535) as u32;
        let y = groups.div_ceil(u64::from(x)).min(65535) as u32;
        if let Some(wide) = &self.wide {
            let worth = Wide::worth(launch.kernel, launch.threads, &launch.words)
                || (groups >= WIDE_GROUPS && self.largest_block(launch.tensors) >= WIDE_BYTES);
            if worth {
                if let Some(twin_ranges) = wide.ranges(&ranges) {
                    return self.in_order(|| {
                        self.wait()?;
                        wide.run(launch.kernel, &bindings, twin_ranges, launch.words, (x, y))
                    });
                }
            }
        }
        let (pipeline, layout) = self.pipelines.get(&self.device, launch.kernel, &bindings)?;
        self.batch.push(
            &self.device,
            &self.queue,
            Dispatch {
                pipeline,
                layout,
                ranges,
                words: launch.words,
                groups: (x, y),
            },
        )
    }

    fn host_address(&self, address: u64, bytes: u64) -> Option<usize> {
        Some(self.resolve(address, bytes).ok()?.host? as usize)
    }

    /// Whether every dispatch recorded so far has finished. A poll that retires the last
    /// submission reports it only to the next poll, hence two.
    fn idle(&self, _stream: u64) -> Result<bool> {
        self.flush()?;
        for _ in 0..2 {
            let status = self
                .device
                .poll(wgpu::PollType::Poll)
                .map_err(|e| Error::runtime(format!("mojo: device poll failed: {e}")))?;
            if status.is_queue_empty() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// An event after every dispatch recorded so far.
    fn record_event(&self, _stream: u64, timing: bool) -> Result<Box<dyn DeviceEvent>> {
        let event =
            self.in_order(|| super::events::WgpuEvent::record(&self.device, &self.queue, timing))?;
        Ok(Box::new(event))
    }

    /// Waits until the queue is idle.
    fn synchronize(&self) -> Result<()> {
        self.flush()?;
        self.wait()
    }
}
