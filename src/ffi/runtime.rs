//! Devices, memory and raw copies for the glue's allocator, guard and hooks.

use std::ffi::c_void;

use super::ffi_call;
use crate::error::Result;
use crate::runtime::backend::HostBuffer;
use crate::runtime::{self, backend, pinned, stats::DeviceStats};

/// Number of devices; 0 when no backend starts (never fails: the guard's `deviceCount` is noexcept).
#[no_mangle]
pub extern "C" fn mojo_device_count() -> i32 {
    std::panic::catch_unwind(runtime::device_count).map_or(0, |n| n as i32)
}

/// Whether attention of `scores` query-key pairs on `device` should take the math path (its
/// products and softmax) rather than the fused kernel: on devices that prefer direct loads
/// (the software device, where the fused kernel's per-row arrays live in memory) up to
/// 2**24 scores, measured faster there (fwd+bwd (4,8,128,64) 263 ms against 893 ms).
#[no_mangle]
pub extern "C" fn mojo_attention_prefers_math(device: i64, scores: i64) -> i32 {
    const MATH_SCORES: i64 = 1 << 24;
    let ask = || {
        scores <= MATH_SCORES
            && usize::try_from(device)
                .ok()
                .and_then(|d| backend().ok().map(|b| b.direct_loads(d)))
                .unwrap_or(false)
    };
    std::panic::catch_unwind(ask).map_or(0, i32::from)
}

/// The thread's current device.
#[no_mangle]
pub extern "C" fn mojo_current_device() -> i32 {
    runtime::current_device() as i32
}

/// Sets the thread's current device after checking the index.
#[no_mangle]
pub extern "C" fn mojo_set_device(device: i64) -> i32 {
    ffi_call(|| runtime::set_current_device(device))
}

/// Sets the current device without checks (noexcept callers).
#[no_mangle]
pub extern "C" fn mojo_set_device_unchecked(device: i64) {
    runtime::set_current_device_unchecked(device.max(0) as usize);
}

/// Allocates `bytes` on `device`.
///
/// # Safety
/// `address` must be writable.
#[no_mangle]
pub unsafe extern "C" fn mojo_allocate(device: i64, bytes: u64, address: *mut u64) -> i32 {
    ffi_call(|| {
        let device = runtime::check_device(device)?;
        *address = backend()?.allocate(device, bytes)?;
        Ok(())
    })
}

/// Frees an allocation (the DataPtr deleter: errors are reported on stderr, never thrown).
#[no_mangle]
pub extern "C" fn mojo_free(address: u64) {
    if ffi_call(|| backend()?.free(address)) != super::STATUS_OK {
        let message = unsafe { std::ffi::CStr::from_ptr(super::mojo_last_error()) };
        eprintln!("mojo: free failed: {}", message.to_string_lossy());
    }
}

/// Copies the statistics of `device` into `out`.
///
/// # Safety
/// `out` must be writable.
#[no_mangle]
pub unsafe extern "C" fn mojo_memory_stats(device: i64, out: *mut DeviceStats) -> i32 {
    ffi_call(|| {
        let device = runtime::check_device(device)?;
        *out = backend()?.stats(device);
        Ok(())
    })
}

/// What `mojo_reset_memory_stats` resets (`MojoStatsReset` in csrc/mojo.h).
#[repr(i32)]
pub enum StatsReset {
    Peaks = 0,
    Totals = 1,
}

/// Resets the peaks or the running totals (`what`, a [`StatsReset`] number) of `device`.
#[no_mangle]
pub extern "C" fn mojo_reset_memory_stats(device: i64, what: i32) -> i32 {
    ffi_call(|| {
        let device = runtime::check_device(device)?;
        let b = backend()?;
        if what == StatsReset::Peaks as i32 {
            b.reset_peak(device);
        } else {
            b.reset_accumulated(device);
        }
        Ok(())
    })
}

/// Releases the cached memory of every device.
#[no_mangle]
pub extern "C" fn mojo_empty_cache() -> i32 {
    ffi_call(|| {
        let b = backend()?;
        (0..b.device_count()).for_each(|d| b.empty_cache(d));
        pinned::empty_cache();
        Ok(())
    })
}

/// A pinned host block of at least `bytes` into `*out`.
///
/// # Safety
/// `out` must be writable.
#[no_mangle]
pub unsafe extern "C" fn mojo_host_allocate(bytes: u64, out: *mut *mut c_void) -> i32 {
    ffi_call(|| {
        let ptr = pinned::allocate(bytes as usize)?;
        // SAFETY: the caller passes a writable pointer.
        unsafe { *out = ptr as *mut c_void };
        Ok(())
    })
}

/// Returns a pinned block to the cache.
#[no_mangle]
pub extern "C" fn mojo_host_free(ptr: *mut c_void) {
    pinned::free(ptr as *mut u8);
}

/// 1 when `ptr` lies in a live pinned block (ours, or page-locked memory another library
/// pinned), else 0.
#[no_mangle]
pub extern "C" fn mojo_is_pinned(ptr: *const c_void) -> i32 {
    let foreign = || backend().is_ok_and(|b| b.page_locked(ptr as usize));
    i32::from(pinned::is_pinned(ptr as *const u8) || foreign())
}

/// (free, total) bytes of `device`.
///
/// # Safety
/// `free` and `total` must be writable.
#[no_mangle]
pub unsafe extern "C" fn mojo_memory_info(device: i64, free: *mut u64, total: *mut u64) -> i32 {
    ffi_call(|| {
        let device = runtime::check_device(device)?;
        (*free, *total) = backend()?.memory_info(device)?;
        Ok(())
    })
}

/// Calls that made the host wait for the device (reads to the host and synchronize), for
/// tests that check an op path never synchronises.
pub static HOST_SYNCS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

pub(super) fn count_sync() {
    HOST_SYNCS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// Waits for the work queued on `device`.
#[no_mangle]
pub extern "C" fn mojo_synchronize(device: i64) -> i32 {
    ffi_call(|| {
        count_sync();
        let device = runtime::check_device(device)?;
        backend()?.synchronize(device)?;
        crate::ops::core::faults::check(device)
    })
}

/// Copies `bytes` host bytes to device `address`.
///
/// # Safety
/// `src` must hold `bytes` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn mojo_write(address: u64, src: *const c_void, bytes: u64) -> i32 {
    ffi_call(|| {
        let data = if bytes == 0 {
            &[][..]
        } else {
            std::slice::from_raw_parts(src.cast::<u8>(), bytes as usize)
        };
        backend()?.write(address, data)
    })
}

/// Copies `bytes` from device `address` to host memory.
///
/// # Safety
/// `dst` must hold `bytes` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn mojo_read(address: u64, dst: *mut c_void, bytes: u64) -> i32 {
    ffi_call(|| {
        let out = if bytes == 0 {
            &mut [][..]
        } else {
            std::slice::from_raw_parts_mut(dst.cast::<u8>(), bytes as usize)
        };
        count_sync();
        backend()?.read(address, out)?;
        crate::ops::core::faults::check(crate::runtime::backend::device_of(address))
    })
}

/// A copy between `address` and pinned host memory, asynchronous where the backend can be:
/// the pinned block is kept from reuse until the copy has finished.
///
/// # Safety
/// The host memory lies in a live pinned block holding `bytes` bytes from it.
unsafe fn copy_pinned(address: u64, host: HostBuffer, bytes: u64) -> Result<()> {
    let start = match host {
        HostBuffer::Source(src) => src,
        HostBuffer::Destination(dst) => dst.cast_const(),
    };
    // SAFETY: the pinned block outlives the copy's event (record_use).
    match unsafe { backend()?.copy_host_async(address, host, bytes as usize)? } {
        Some(event) => pinned::record_use(start, event),
        // The backend copied synchronously: a download waited for the device.
        None if matches!(host, HostBuffer::Destination(_)) => {
            count_sync();
            crate::ops::core::faults::check(crate::runtime::backend::device_of(address))?;
        }
        None => {}
    }
    Ok(())
}

/// `non_blocking=True` upload: from pinned memory the copy runs on the current stream and
/// returns before it ends; from other memory it is `mojo_write`.
///
/// # Safety
/// `src` must hold `bytes` readable bytes (until the copy ends, when pinned).
#[no_mangle]
pub unsafe extern "C" fn mojo_write_async(address: u64, src: *const c_void, bytes: u64) -> i32 {
    let src = src.cast::<u8>();
    if bytes == 0 || !pinned::holds(src, bytes as usize) {
        // SAFETY: per the contract.
        return unsafe { mojo_write(address, src.cast(), bytes) };
    }
    // SAFETY: `src` lies in a pinned block, per the check above.
    ffi_call(|| unsafe { copy_pinned(address, HostBuffer::Source(src), bytes) })
}

/// `non_blocking=True` download: into pinned memory the copy runs on the current stream (the
/// caller synchronises before reading it, as with CUDA); into other memory it is `mojo_read`.
///
/// # Safety
/// `dst` must hold `bytes` writable bytes (until the copy ends, when pinned).
#[no_mangle]
pub unsafe extern "C" fn mojo_read_async(address: u64, dst: *mut c_void, bytes: u64) -> i32 {
    let dst = dst.cast::<u8>();
    if bytes == 0 || !pinned::holds(dst, bytes as usize) {
        // SAFETY: per the contract.
        return unsafe { mojo_read(address, dst.cast(), bytes) };
    }
    // SAFETY: `dst` lies in a pinned block, per the check above.
    ffi_call(|| unsafe { copy_pinned(address, HostBuffer::Destination(dst), bytes) })
}
