//! What a vendor backend's device provides, and the [`Backend`] over a list of such devices:
//! each call finds its device (by index, or by the address it names) and forwards to it.

use parking_lot::Mutex;

use super::allocator::{CachingAllocator, MemoryProvider};
use std::slice;

use super::backend::{device_of, Backend, DeviceEvent, Fft, Gemm, HostBuffer, Launch, Solve};
use super::communication::Communication;
use super::stats::DeviceStats;
use super::streams;
use super::trace;
use crate::dtype::DType;
use crate::error::{Error, Result};

/// One device of a vendor backend.
pub trait VendorDevice: Send + Sync {
    /// Where the device's caching allocator gets memory from.
    type Memory: MemoryProvider;
    /// The adapter name.
    fn name(&self) -> String;
    /// The caching allocator of the device's memory.
    fn memory(&self) -> &Mutex<CachingAllocator<Self::Memory>>;
    /// Called before cached memory is released (to submit work that may still name it).
    fn before_release(&self) {}
    fn supports(&self, _dtype: DType) -> bool {
        true
    }
    fn emulates_f64(&self) -> bool {
        false
    }
    /// Whether streams run concurrently (each its own queue); otherwise all run in issue
    /// order on one queue, and every stream's work follows everything issued before it.
    fn concurrent_streams(&self) -> bool {
        false
    }
    fn memory_info(&self) -> Result<(u64, u64)>;
    fn write(&self, address: u64, data: &[u8]) -> Result<()>;
    fn read(&self, address: u64, out: &mut [u8]) -> Result<()>;
    /// A synchronous `write` or `read`, unless the device copies asynchronously (see
    /// [`Backend::copy_host_async`]).
    ///
    /// # Safety
    /// As for [`Backend::copy_host_async`].
    unsafe fn copy_host_async(
        &self,
        address: u64,
        host: HostBuffer,
        bytes: usize,
    ) -> Result<Option<Box<dyn DeviceEvent>>> {
        // SAFETY: per the contract, the host memory holds `bytes` bytes.
        match host {
            HostBuffer::Source(src) => {
                self.write(address, unsafe { slice::from_raw_parts(src, bytes) })
            }
            HostBuffer::Destination(dst) => {
                self.read(address, unsafe { slice::from_raw_parts_mut(dst, bytes) })
            }
        }
        .map(|_| None)
    }
    fn copy(&self, dst: u64, src: u64, bytes: u64) -> Result<()>;
    fn launch(&self, launch: Launch<'_>) -> Result<()>;
    fn synchronize(&self) -> Result<()>;
    fn idle(&self, stream: u64) -> Result<bool>;
    fn synchronize_stream(&self, _stream: u64) -> Result<()> {
        self.synchronize()
    }
    fn record_event(&self, stream: u64, timing: bool) -> Result<Box<dyn DeviceEvent>>;
    /// One queue runs everything in issue order: later work already follows the event.
    fn wait_event(&self, _stream: u64, _event: &dyn DeviceEvent) -> Result<()> {
        Ok(())
    }
    fn has_gemm_library(&self) -> bool {
        false
    }
    fn direct_loads(&self) -> bool {
        false
    }
    fn cpu_device(&self) -> bool {
        false
    }
    fn lane_broadcast(&self) -> bool {
        false
    }
    fn gemm(&self, _gemm: &Gemm) -> Result<bool> {
        Ok(false)
    }
    fn has_fft_library(&self) -> bool {
        false
    }
    fn fft(&self, _fft: &Fft) -> Result<bool> {
        Ok(false)
    }
    fn has_solver_library(&self) -> bool {
        false
    }
    fn solve(&self, _solve: &Solve) -> Result<bool> {
        Ok(false)
    }
    fn communication(&self) -> Option<&dyn Communication> {
        None
    }
    fn multiprocessors(&self) -> Option<u32> {
        None
    }
    fn host_address(&self, _address: u64, _bytes: u64) -> Option<usize> {
        None
    }
    fn host_allocate(&self, bytes: usize) -> Result<usize> {
        super::pinned::locked_host_allocate(bytes)
    }
    fn page_locked(&self, _address: usize) -> bool {
        false
    }
    /// Frees memory from `host_allocate`; the pool calls it only for blocks no tensor uses.
    fn host_release(&self, address: usize, bytes: usize) {
        // SAFETY: the pinned pool releases only blocks it got from `host_allocate`.
        unsafe { super::pinned::locked_host_release(address, bytes) }
    }
}

/// A backend made of the devices one vendor runtime found.
pub struct Devices<D> {
    pub name: &'static str,
    pub list: Vec<D>,
}

impl<D: VendorDevice> Devices<D> {
    /// Runs `work` (which issues to `device`'s current stream and says whether it did),
    /// bracketed by timed events while the profiler's trace records.
    fn traced(
        &self,
        device: usize,
        name: impl FnOnce() -> String,
        work: impl FnOnce(&D) -> Result<bool>,
    ) -> Result<bool> {
        let d = self.device(device)?;
        if !trace::recording() {
            return work(d);
        }
        let stream = streams::current(device);
        let start = d.record_event(stream, true)?;
        let issued = work(d)?;
        if issued {
            let end = d.record_event(stream, true)?;
            trace::record(name(), device, stream, start, end);
        }
        Ok(issued)
    }

    fn device(&self, device: usize) -> Result<&D> {
        self.list
            .get(device)
            .ok_or_else(|| Error::runtime(format!("mojo error: invalid device ordinal {device}")))
    }

    fn owner(&self, address: u64) -> Result<&D> {
        self.device(device_of(address))
    }
}

impl<D: VendorDevice> Backend for Devices<D>
where
    <D::Memory as MemoryProvider>::Segment: Send,
    D::Memory: Send,
{
    fn name(&self) -> &'static str {
        self.name
    }

    fn device_count(&self) -> usize {
        self.list.len()
    }

    fn device_name(&self, device: usize) -> String {
        self.device(device).map_or_else(|e| e.message, |d| d.name())
    }

    fn supports(&self, device: usize, dtype: DType) -> bool {
        self.device(device).is_ok_and(|d| d.supports(dtype))
    }

    fn emulates_f64(&self, device: usize) -> bool {
        self.device(device).is_ok_and(|d| d.emulates_f64())
    }

    fn allocate(&self, device: usize, bytes: u64) -> Result<u64> {
        let d = self.device(device)?;
        let stream = if d.concurrent_streams() {
            streams::current(device)
        } else {
            streams::DEFAULT_STREAM
        };
        d.memory().lock().allocate(bytes, stream)
    }

    fn record_stream(&self, address: u64, stream: u64) -> Result<()> {
        let d = self.owner(address)?;
        if d.concurrent_streams() {
            d.memory().lock().record_stream(address, stream);
        }
        Ok(())
    }

    fn free(&self, address: u64) -> Result<()> {
        self.owner(address)?.memory().lock().free(address)
    }

    fn stats(&self, device: usize) -> DeviceStats {
        self.device(device)
            .map(|d| *d.memory().lock().stats())
            .unwrap_or_default()
    }

    fn reset_peak(&self, device: usize) {
        if let Ok(d) = self.device(device) {
            d.memory().lock().stats_mut().reset_peak();
        }
    }

    fn reset_accumulated(&self, device: usize) {
        if let Ok(d) = self.device(device) {
            d.memory().lock().stats_mut().reset_accumulated();
        }
    }

    fn empty_cache(&self, device: usize) {
        if let Ok(d) = self.device(device) {
            d.before_release();
            d.memory().lock().empty_cache();
        }
    }

    fn memory_info(&self, device: usize) -> Result<(u64, u64)> {
        self.device(device)?.memory_info()
    }

    fn write(&self, address: u64, data: &[u8]) -> Result<()> {
        self.owner(address)?.write(address, data)
    }

    fn read(&self, address: u64, out: &mut [u8]) -> Result<()> {
        self.owner(address)?.read(address, out)
    }

    unsafe fn copy_host_async(
        &self,
        address: u64,
        host: HostBuffer,
        bytes: usize,
    ) -> Result<Option<Box<dyn DeviceEvent>>> {
        // SAFETY: the caller's contract is the device's.
        unsafe { self.owner(address)?.copy_host_async(address, host, bytes) }
    }

    fn copy(&self, dst: u64, src: u64, bytes: u64) -> Result<()> {
        if device_of(dst) != device_of(src) {
            return Err(Error::runtime(
                "mojo: device-to-device copy across devices goes through the host",
            ));
        }
        self.owner(dst)?.copy(dst, src, bytes)
    }

    fn launch(&self, device: usize, launch: Launch<'_>) -> Result<()> {
        let kernel = launch.kernel;
        self.traced(device, || kernel.name(), |d| d.launch(launch).map(|_| true))
            .map(|_| ())
    }

    fn synchronize(&self, device: usize) -> Result<()> {
        self.device(device)?.synchronize()
    }

    fn stream_idle(&self, device: usize, stream: u64) -> Result<bool> {
        self.device(device)?.idle(stream)
    }

    fn synchronize_stream(&self, device: usize, stream: u64) -> Result<()> {
        self.device(device)?.synchronize_stream(stream)
    }

    fn record_event(
        &self,
        device: usize,
        stream: u64,
        timing: bool,
    ) -> Result<Box<dyn DeviceEvent>> {
        self.device(device)?.record_event(stream, timing)
    }

    fn wait_event(&self, device: usize, stream: u64, event: &dyn DeviceEvent) -> Result<()> {
        self.device(device)?.wait_event(stream, event)
    }

    fn has_gemm_library(&self, device: usize) -> bool {
        self.device(device).is_ok_and(|d| d.has_gemm_library())
    }

    fn direct_loads(&self, device: usize) -> bool {
        self.device(device).is_ok_and(|d| d.direct_loads())
    }

    fn cpu_device(&self, device: usize) -> bool {
        self.device(device).is_ok_and(|d| d.cpu_device())
    }

    fn lane_broadcast(&self, device: usize) -> bool {
        self.device(device).is_ok_and(|d| d.lane_broadcast())
    }

    fn gemm(&self, device: usize, gemm: &Gemm) -> Result<bool> {
        let name = || format!("gemm({})", gemm.dtype.name());
        self.traced(device, name, |d| d.gemm(gemm))
    }

    fn has_fft_library(&self, device: usize) -> bool {
        self.device(device).is_ok_and(|d| d.has_fft_library())
    }

    fn fft(&self, device: usize, fft: &Fft) -> Result<bool> {
        let name = || format!("fft({:?}, {})", fft.kind, fft.dtype.name());
        self.traced(device, name, |d| d.fft(fft))
    }

    fn has_solver_library(&self, device: usize) -> bool {
        self.device(device).is_ok_and(|d| d.has_solver_library())
    }

    fn solve(&self, device: usize, solve: &Solve) -> Result<bool> {
        let name = || format!("solve({:?}, {})", solve.routine, solve.dtype.name());
        self.traced(device, name, |d| d.solve(solve))
    }

    fn communication(&self, device: usize) -> Option<&dyn Communication> {
        self.device(device).ok()?.communication()
    }

    fn multiprocessors(&self, device: usize) -> Option<u32> {
        self.device(device).ok()?.multiprocessors()
    }

    fn host_address(&self, address: u64, bytes: u64) -> Option<usize> {
        self.owner(address).ok()?.host_address(address, bytes)
    }

    /// Pinned memory is the first device's to hand out (CUDA's is portable across devices).
    fn host_allocate(&self, bytes: usize) -> Result<usize> {
        self.device(0)?.host_allocate(bytes)
    }

    fn page_locked(&self, address: usize) -> bool {
        self.device(0).is_ok_and(|d| d.page_locked(address))
    }

    fn host_release(&self, address: usize, bytes: usize) {
        if let Ok(d) = self.device(0) {
            d.host_release(address, bytes);
        }
    }
}
