//! The CUDA streams behind stream ids: id 0 is the legacy default stream; every other id gets a
//! non-blocking stream (as PyTorch's pool streams are) on first use, kept for the process.

use std::collections::HashMap;

use cudarc::driver::sys;
use parking_lot::Mutex;

use super::api::driver;
use super::driver::{check, Context};
use crate::error::Result;
use crate::runtime::streams::DEFAULT_STREAM;

#[derive(Clone, Copy)]
struct Stream(sys::CUstream);

// SAFETY: a CUstream may be used from any thread with its context current.
unsafe impl Send for Stream {}

/// One device's streams.
pub struct Streams {
    context: Context,
    created: Mutex<HashMap<u64, Stream>>,
}

impl Streams {
    pub fn new(context: Context) -> Self {
        Streams {
            context,
            created: Mutex::new(HashMap::new()),
        }
    }

    /// The CUDA stream of stream id `id`, created on first use.
    pub fn get(&self, id: u64) -> Result<sys::CUstream> {
        if id == DEFAULT_STREAM {
            return Ok(std::ptr::null_mut());
        }
        let mut created = self.created.lock();
        if let Some(stream) = created.get(&id) {
            return Ok(stream.0);
        }
        self.context.bind()?;
        let mut stream: sys::CUstream = std::ptr::null_mut();
        let flags = sys::CUstream_flags::CU_STREAM_NON_BLOCKING as u32;
        // SAFETY: valid out-pointer; the context is current.
        check(
            unsafe { driver().cuStreamCreate(&mut stream, flags) },
            "cuStreamCreate",
        )?;
        created.insert(id, Stream(stream));
        Ok(stream)
    }
}
