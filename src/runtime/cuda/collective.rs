//! Collectives through NCCL (loaded at run time, like cuBLAS): communicators made from a
//! unique id the process group hands around through its store, and the collectives the
//! `mojo` c10d backend issues, on the device's current stream (the group's communication
//! stream). A communicator belongs to the device that opened it. Elements that are only
//! moved travel as bytes, so every dtype goes; reductions take NCCL's types.

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::Mutex;

use super::api::driver;
use super::collective_api::{result_text, NcclComm, NcclResult, NcclType, NcclUniqueId};
use super::device::CudaDevice;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::runtime::communication::{Collective, CollectiveKind, Communication, ReduceOp};

/// A communicator handle NCCL made.
#[derive(Clone, Copy)]
struct Comm(NcclComm);

// SAFETY: NCCL communicators may be used from any thread, one call at a time (the calls
// below hold no lock across threads, as the process group issues them from one).
unsafe impl Send for Comm {}

/// An open communicator: its device, NCCL's handle and its number of ranks.
#[derive(Clone, Copy)]
struct Open {
    device: usize,
    comm: Comm,
    ranks: u32,
}

/// The process's open communicators by handle.
fn communicators() -> &'static Mutex<HashMap<u64, Open>> {
    static OPEN: std::sync::OnceLock<Mutex<HashMap<u64, Open>>> = std::sync::OnceLock::new();
    OPEN.get_or_init(Default::default)
}

fn check(result: NcclResult, what: &str) -> Result<()> {
    if result == 0 {
        return Ok(());
    }
    // SAFETY: NCCL returns a static string (or null) for any code.
    let text = unsafe { driver().ncclGetErrorString(result) };
    let text = if text.is_null() {
        result_text(result).to_string_lossy().into_owned()
    } else {
        // SAFETY: a NUL-terminated static string.
        unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned()
    };
    Err(Error::runtime(format!(
        "mojo: NCCL error in {what}: {text} (ncclResult {result})"
    )))
}

/// NCCL's type for elements of `dtype` that are reduced.
fn reduced_type(dtype: DType) -> Result<NcclType> {
    Ok(match dtype {
        DType::I8 => NcclType::Int8,
        DType::U8 => NcclType::Uint8,
        DType::I32 => NcclType::Int32,
        DType::I64 => NcclType::Int64,
        DType::F16 => NcclType::Float16,
        DType::F32 => NcclType::Float32,
        DType::F64 => NcclType::Float64,
        DType::BF16 => NcclType::Bfloat16,
        other => {
            return Err(Error::type_error(format!(
                "mojo: NCCL cannot reduce {} elements",
                other.torch_name()
            )))
        }
    })
}

fn nccl_op(op: ReduceOp) -> c_int {
    match op {
        ReduceOp::Sum => 0,
        ReduceOp::Product => 1,
        ReduceOp::Max => 2,
        ReduceOp::Min => 3,
    }
}

impl CudaDevice {
    /// Runs `f` on this device's communicator `comm`, holding the registry, so that no other
    /// thread closes it meanwhile (the watchdog of a process group may abort it).
    fn with_comm<T>(&self, comm: u64, f: impl FnOnce(&Open) -> Result<T>) -> Result<T> {
        let open = communicators().lock();
        match open.get(&comm) {
            Some(c) if c.device == self.index() => f(c),
            Some(_) => Err(Error::runtime(format!(
                "mojo: NCCL communicator {comm} belongs to another device"
            ))),
            None => Err(Error::runtime(format!(
                "mojo: NCCL communicator {comm} is not open (destroyed or aborted)"
            ))),
        }
    }
}

impl Communication for CudaDevice {
    fn unique_id(&self) -> Result<Vec<u8>> {
        let mut id = NcclUniqueId { internal: [0; 128] };
        // SAFETY: valid out-pointer.
        check(
            unsafe { driver().ncclGetUniqueId(&mut id) },
            "ncclGetUniqueId",
        )?;
        Ok(id.internal.iter().map(|&b| b as u8).collect())
    }

    fn open(&self, id: &[u8], ranks: u32, rank: u32) -> Result<u64> {
        let Ok(bytes) = <[u8; 128]>::try_from(id) else {
            return Err(Error::value(format!(
                "mojo: an NCCL unique id has 128 bytes, not {}",
                id.len()
            )));
        };
        let id = NcclUniqueId {
            internal: bytes.map(|b| b as c_char),
        };
        self.bind()?;
        let mut comm: NcclComm = std::ptr::null_mut();
        // SAFETY: valid out-pointer; the device's context is current, so NCCL takes its device.
        let result =
            unsafe { driver().ncclCommInitRank(&mut comm, ranks as c_int, id, rank as c_int) };
        check(result, "ncclCommInitRank")?;
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let handle = NEXT.fetch_add(1, Ordering::Relaxed);
        let open = Open {
            device: self.index(),
            comm: Comm(comm),
            ranks,
        };
        communicators().lock().insert(handle, open);
        Ok(handle)
    }

    fn ranks(&self, comm: u64) -> Result<u32> {
        self.with_comm(comm, |open| Ok(open.ranks))
    }

    fn close(&self, comm: u64, abort: bool) -> Result<()> {
        self.bind()?;
        let mut open = communicators().lock();
        let Some(closing) = open.remove(&comm) else {
            return Err(Error::runtime(format!(
                "mojo: NCCL communicator {comm} is not open (destroyed or aborted)"
            )));
        };
        let nccl = closing.comm.0;
        // SAFETY: an open communicator, released once.
        if abort {
            check(unsafe { driver().ncclCommAbort(nccl) }, "ncclCommAbort")
        } else {
            check(unsafe { driver().ncclCommDestroy(nccl) }, "ncclCommDestroy")
        }
    }

    fn error(&self, comm: u64) -> Result<Option<String>> {
        self.with_comm(comm, |open| {
            let mut error: NcclResult = 0;
            // SAFETY: an open communicator; valid out-pointer.
            let result = unsafe { driver().ncclCommGetAsyncError(open.comm.0, &mut error) };
            check(result, "ncclCommGetAsyncError")?;
            Ok(check(error, "a pending collective")
                .err()
                .map(|e| e.message))
        })
    }

    fn group(&self, start: bool) -> Result<()> {
        // SAFETY: group calls only mark the calling thread's calls.
        if start {
            check(unsafe { driver().ncclGroupStart() }, "ncclGroupStart")
        } else {
            check(unsafe { driver().ncclGroupEnd() }, "ncclGroupEnd")
        }
    }

    fn run(&self, comm: u64, call: &Collective) -> Result<()> {
        let element = call.dtype.size() as u64;
        // Moves go as bytes; reductions in NCCL's type of the dtype.
        let (dtype, count) = if call.kind.moves_only() {
            (NcclType::Uint8, call.count * element)
        } else {
            (reduced_type(call.dtype)?, call.count)
        };
        let count =
            usize::try_from(count).map_err(|_| Error::runtime("mojo: too many elements"))?;
        let pointer = |address: u64| -> Result<*mut c_void> {
            Ok(if address == 0 {
                std::ptr::null_mut()
            } else {
                self.device_pointer(address)? as *mut c_void
            })
        };
        let (send, recv) = (pointer(call.send)? as *const c_void, pointer(call.recv)?);
        let stream = self.bound_stream()?;
        let t = dtype as c_int;
        let d = driver();
        self.with_comm(comm, |open| {
            let nccl = open.comm.0;
            // SAFETY: the buffers are live device memory of the sizes the kind implies
            // (checked by the op), the communicator is open and the stream is the device's.
            let result = unsafe {
                match call.kind {
                    CollectiveKind::AllReduce(op) => {
                        d.ncclAllReduce(send, recv, count, t, nccl_op(op), nccl, stream)
                    }
                    CollectiveKind::Broadcast { root } => {
                        d.ncclBroadcast(send, recv, count, t, root as c_int, nccl, stream)
                    }
                    CollectiveKind::Reduce { op, root } => {
                        let (op, root) = (nccl_op(op), root as c_int);
                        d.ncclReduce(send, recv, count, t, op, root, nccl, stream)
                    }
                    CollectiveKind::AllGather => {
                        d.ncclAllGather(send, recv, count, t, nccl, stream)
                    }
                    CollectiveKind::ReduceScatter(op) => {
                        d.ncclReduceScatter(send, recv, count, t, nccl_op(op), nccl, stream)
                    }
                    CollectiveKind::Send { peer } => {
                        d.ncclSend(send, count, t, peer as c_int, nccl, stream)
                    }
                    CollectiveKind::Recv { peer } => {
                        d.ncclRecv(recv, count, t, peer as c_int, nccl, stream)
                    }
                }
            };
            check(result, &format!("{:?}", call.kind))
        })
    }
}
