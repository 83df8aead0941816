//! CUDA events on a stream, with or without timing.

use std::any::Any;

use cudarc::driver::sys;

use super::api::driver;
use super::driver::{check, Context};
use crate::error::{Error, Result};
use crate::runtime::backend::{untimed_event, DeviceEvent};

pub struct CudaEvent {
    context: Context,
    event: sys::CUevent,
    timing: bool,
}

// SAFETY: CUDA events may be queried and synchronised from any thread.
unsafe impl Send for CudaEvent {}
unsafe impl Sync for CudaEvent {}

impl CudaEvent {
    /// Creates an event and records it on `stream`; `context` must be current.
    pub fn record(context: Context, stream: sys::CUstream, timing: bool) -> Result<Self> {
        let flags = if timing {
            sys::CUevent_flags::CU_EVENT_DEFAULT
        } else {
            sys::CUevent_flags::CU_EVENT_DISABLE_TIMING
        };
        let mut event: sys::CUevent = std::ptr::null_mut();
        // SAFETY: valid out-pointer; the context is current; `stream` is one of its streams.
        unsafe {
            check(
                driver().cuEventCreate(&mut event, flags as u32),
                "cuEventCreate",
            )?;
            let made = CudaEvent {
                context,
                event,
                timing,
            };
            check(driver().cuEventRecord(event, stream), "cuEventRecord")?;
            Ok(made)
        }
    }
}

impl DeviceEvent for CudaEvent {
    fn query(&self) -> Result<bool> {
        self.context.bind()?;
        // SAFETY: a live event.
        match unsafe { driver().cuEventQuery(self.event) } {
            sys::CUresult::CUDA_ERROR_NOT_READY => Ok(false),
            rc => check(rc, "cuEventQuery").map(|_| true),
        }
    }

    fn synchronize(&self) -> Result<()> {
        self.context.bind()?;
        // SAFETY: a live event.
        check(
            unsafe { driver().cuEventSynchronize(self.event) },
            "cuEventSynchronize",
        )
    }

    fn elapsed_ms(&self, later: &dyn DeviceEvent) -> Result<f64> {
        let later = later
            .as_any()
            .downcast_ref::<CudaEvent>()
            .ok_or_else(|| Error::runtime("mojo: events of different backends"))?;
        if !self.timing || !later.timing {
            return Err(untimed_event());
        }
        self.synchronize()?;
        later.synchronize()?;
        let mut ms = 0f32;
        // SAFETY: two completed, timed events of this context.
        check(
            unsafe { driver().cuEventElapsedTime_v2(&mut ms, self.event, later.event) },
            "cuEventElapsedTime",
        )?;
        Ok(f64::from(ms))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl CudaEvent {
    /// Makes work issued on `stream` from now on wait for this event.
    pub fn block(&self, stream: sys::CUstream) -> Result<()> {
        self.context.bind()?;
        // SAFETY: a live event and a stream of the same context.
        check(
            unsafe { driver().cuStreamWaitEvent(stream, self.event, 0) },
            "cuStreamWaitEvent",
        )
    }
}

impl Drop for CudaEvent {
    fn drop(&mut self) {
        if self.context.bind().is_ok() {
            // SAFETY: the event is no longer used.
            unsafe {
                let _ = driver().cuEventDestroy_v2(self.event);
            }
        }
    }
}
