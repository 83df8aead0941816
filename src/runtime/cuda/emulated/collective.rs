//! NCCL in the emulation: communicators of several processes meet through files
//! (`rendezvous`); each call is queued on its stream like a kernel and computes what NCCL's
//! documentation defines from every rank's contribution. Calls between `ncclGroupStart` and
//! `ncclGroupEnd` run as one task, sends first, so that no rank waits on a peer's send that
//! its own group issues later.

#![allow(non_snake_case, clippy::too_many_arguments)]

use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::sync::Arc;

use cudarc::driver::sys::CUstream;

use super::blas::{bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};
use super::queue::Queue;
use super::rendezvous::{unique_name, Rendezvous};
use super::Emulated;
use crate::runtime::cuda::collective_api::{
    result_text, CollectiveApi, NcclComm, NcclOp, NcclResult, NcclType, NcclUniqueId,
    NCCL_INVALID_ARGUMENT, NCCL_INVALID_USAGE, NCCL_SUCCESS,
};

/// An emulated communicator: where its ranks meet, the first error a call met and the calls
/// issued but not yet run.
struct Comm {
    rendezvous: Rendezvous,
    error: AtomicI32,
    queued: AtomicUsize,
}

/// What a call does.
#[derive(Clone, Copy)]
enum Kind {
    AllReduce(NcclOp),
    Broadcast { root: usize },
    Reduce { op: NcclOp, root: usize },
    AllGather,
    ReduceScatter(NcclOp),
    Send { peer: usize, number: u64 },
    Recv { peer: usize, number: u64 },
}

/// One call: its kind, buffers (host addresses of emulated device memory), element count and
/// type, and the collective's number among the communicator's.
struct Call {
    comm: Arc<Comm>,
    kind: Kind,
    send: usize,
    recv: usize,
    count: usize,
    dtype: NcclType,
    number: u64,
}

thread_local! {
    /// The open group's nesting depth and the calls it holds, with their streams.
    static GROUP: RefCell<(u32, Vec<(usize, Call)>)> = const { RefCell::new((0, Vec::new())) };
}

/// # Safety
/// `comm` must come from `ncclCommInitRank` and not be destroyed.
unsafe fn comm_of(comm: NcclComm) -> Arc<Comm> {
    // SAFETY: the pointer came from Arc::into_raw and stays owned by the handle.
    let held = std::mem::ManuallyDrop::new(unsafe { Arc::from_raw(comm as *const Comm) });
    Arc::clone(&held)
}

/// `len` bytes of emulated device memory at `address`.
///
/// # Safety
/// The bytes must be live device memory no one writes meanwhile.
unsafe fn bytes<'a>(address: usize, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: per the contract.
    unsafe { std::slice::from_raw_parts(address as *const u8, len) }
}

/// Writes `data` to emulated device memory at `address`.
///
/// # Safety
/// `data.len()` bytes at `address` must be live device memory.
unsafe fn store(address: usize, data: &[u8]) {
    if data.is_empty() {
        return;
    }
    // SAFETY: per the contract; `data` is a host buffer of its own.
    unsafe { std::ptr::copy(data.as_ptr(), address as *mut u8, data.len()) };
}

/// Combines `x` into `acc` element by element (both of `dtype`), as `op`; halves round each
/// step, as NCCL's reduction kernels do.
fn combine(dtype: NcclType, op: NcclOp, acc: &mut [u8], x: &[u8]) {
    macro_rules! each {
        ($t:ty, $size:expr, $load:expr, $save:expr, $apply:expr) => {
            for (a, b) in acc.chunks_exact_mut($size).zip(x.chunks_exact($size)) {
                let (p, q): ($t, $t) = ($load(&*a), $load(b));
                a.copy_from_slice(&$save($apply(p, q)));
            }
        };
    }
    macro_rules! integer {
        ($t:ty) => {{
            let apply = |p: $t, q: $t| match op {
                NcclOp::Sum => p.wrapping_add(q),
                NcclOp::Prod => p.wrapping_mul(q),
                NcclOp::Max => p.max(q),
                NcclOp::Min => p.min(q),
            };
            const N: usize = std::mem::size_of::<$t>();
            let load = |s: &[u8]| <$t>::from_le_bytes(s.try_into().expect("element"));
            each!($t, N, load, <$t>::to_le_bytes, apply)
        }};
    }
    let real = |p: f64, q: f64| match op {
        NcclOp::Sum => p + q,
        NcclOp::Prod => p * q,
        NcclOp::Max => p.max(q),
        NcclOp::Min => p.min(q),
    };
    let single = |p: f32, q: f32| real(f64::from(p), f64::from(q)) as f32;
    let half = |s: &[u8]| u16::from_le_bytes([s[0], s[1]]);
    match dtype {
        NcclType::Int8 => integer!(i8),
        NcclType::Uint8 => integer!(u8),
        NcclType::Int32 => integer!(i32),
        NcclType::Uint32 => integer!(u32),
        NcclType::Int64 => integer!(i64),
        NcclType::Uint64 => integer!(u64),
        NcclType::Float32 => {
            let load = |s: &[u8]| f32::from_le_bytes(s.try_into().expect("element"));
            each!(f32, 4, load, f32::to_le_bytes, single)
        }
        NcclType::Float64 => {
            let load = |s: &[u8]| f64::from_le_bytes(s.try_into().expect("element"));
            each!(f64, 8, load, f64::to_le_bytes, real)
        }
        NcclType::Float16 => {
            let load = |s: &[u8]| f16_to_f32(half(s));
            each!(f32, 2, load, |v| f32_to_f16(v).to_le_bytes(), single)
        }
        NcclType::Bfloat16 => {
            let load = |s: &[u8]| bf16_to_f32(half(s));
            each!(f32, 2, load, |v| f32_to_bf16(v).to_le_bytes(), single)
        }
    }
}

/// The reduction of every rank's `parts`, each cut to `range`.
fn reduce(call: &Call, op: NcclOp, parts: &[Vec<u8>], range: std::ops::Range<usize>) -> Vec<u8> {
    let mut acc = parts[0][range.clone()].to_vec();
    for part in &parts[1..] {
        combine(call.dtype, op, &mut acc, &part[range.clone()]);
    }
    acc
}

impl Call {
    /// Runs the call (on its stream's worker).
    ///
    /// # Safety
    /// The call's buffers must be live device memory of the sizes its kind implies.
    unsafe fn run(&self) -> Result<(), NcclResult> {
        let r = &self.comm.rendezvous;
        let len = self.count * self.dtype.size();
        // SAFETY (each read and store): per the contract.
        let read = |size: usize| unsafe { bytes(self.send, size) };
        // Every rank's contribution, which must be as long as this rank's (ranks that
        // disagree fail instead of reading past a buffer).
        let parts = |mine: &[u8]| {
            let all = r.exchange(self.number, mine)?;
            let root = match self.kind {
                Kind::Broadcast { root } => Some(root),
                _ => None,
            };
            let expected = |rank: usize| match root {
                Some(root) if rank != root => 0,
                Some(_) => len,
                None => mine.len(),
            };
            if all
                .iter()
                .enumerate()
                .any(|(rank, part)| part.len() != expected(rank))
            {
                return Err(NCCL_INVALID_USAGE);
            }
            Ok(all)
        };
        match self.kind {
            Kind::AllReduce(op) => {
                let all = parts(read(len))?;
                unsafe { store(self.recv, &reduce(self, op, &all, 0..len)) };
            }
            Kind::Reduce { op, root } => {
                let all = parts(read(len))?;
                if r.rank == root {
                    unsafe { store(self.recv, &reduce(self, op, &all, 0..len)) };
                }
            }
            Kind::Broadcast { root } => {
                let all = parts(if r.rank == root { read(len) } else { &[] })?;
                unsafe { store(self.recv, &all[root]) };
            }
            Kind::AllGather => {
                let all = parts(read(len))?;
                unsafe { store(self.recv, &all.concat()) };
            }
            Kind::ReduceScatter(op) => {
                let all = parts(read(len * r.ranks))?;
                let mine = r.rank * len..(r.rank + 1) * len;
                unsafe { store(self.recv, &reduce(self, op, &all, mine)) };
            }
            Kind::Send { peer, number } => r.send(peer, number, read(len))?,
            Kind::Recv { peer, number } => {
                let data = r.receive(peer, number)?;
                if data.len() != len {
                    return Err(NCCL_INVALID_USAGE);
                }
                unsafe { store(self.recv, &data) };
            }
        }
        Ok(())
    }
}

/// Runs `calls` in order, sends first, recording the first error in their communicators.
fn run_all(calls: Vec<Call>) {
    let (sends, others): (Vec<_>, Vec<_>) = calls
        .into_iter()
        .partition(|c| matches!(c.kind, Kind::Send { .. }));
    for call in sends.iter().chain(&others) {
        if call.comm.error.load(Ordering::SeqCst) == NCCL_SUCCESS {
            // SAFETY: the backend issues calls on live buffers of their sizes.
            if let Err(e) = unsafe { call.run() } {
                let (ok, seq) = (NCCL_SUCCESS, Ordering::SeqCst);
                let _ = call.comm.error.compare_exchange(ok, e, seq, seq);
            }
        }
        call.comm.queued.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Emulated {
    /// Issues a call on `stream`: queued now, or held for the open group's end.
    ///
    /// # Safety
    /// `comm` must be live and `stream` one of this driver's (or null).
    unsafe fn issue(
        &self,
        comm: NcclComm,
        kind: impl FnOnce(&Rendezvous) -> Option<Kind>,
        buffers: (*const c_void, *mut c_void),
        count: usize,
        dtype: c_int,
        stream: CUstream,
    ) -> NcclResult {
        // SAFETY: per the contract.
        let comm = unsafe { comm_of(comm) };
        // SAFETY: per the contract.
        let (Some(dtype), Some(queue)) = (NcclType::of(dtype), unsafe { self.queue(stream) })
        else {
            return NCCL_INVALID_ARGUMENT;
        };
        // Last: a send's or receive's kind takes the next message number of its peer.
        let Some(kind) = kind(&comm.rendezvous) else {
            return NCCL_INVALID_ARGUMENT;
        };
        comm.queued.fetch_add(1, Ordering::SeqCst);
        let collective = !matches!(kind, Kind::Send { .. } | Kind::Recv { .. });
        let number = if collective {
            comm.rendezvous.next_collective()
        } else {
            0
        };
        let call = Call {
            comm,
            kind,
            send: buffers.0 as usize,
            recv: buffers.1 as usize,
            count,
            dtype,
            number,
        };
        let queue_id = queue as *const Queue as usize;
        let mut call = Some(call);
        GROUP.with_borrow_mut(|(depth, calls)| {
            if *depth > 0 {
                calls.extend(call.take().map(|c| (queue_id, c)));
            }
        });
        if let Some(call) = call {
            queue.submit(Box::new(move || run_all(vec![call])));
        }
        NCCL_SUCCESS
    }
}

/// A rank index of `ranks`, or None.
fn rank_below(rank: c_int, ranks: usize) -> Option<usize> {
    usize::try_from(rank).ok().filter(|&r| r < ranks)
}

fn op_of(op: c_int) -> Option<NcclOp> {
    NcclOp::of(op)
}

impl CollectiveApi for Emulated {
    fn nccl_present(&self) -> bool {
        true
    }

    unsafe fn ncclGetUniqueId(&self, id: *mut NcclUniqueId) -> NcclResult {
        let name = unique_name();
        let mut internal = [0 as c_char; 128];
        for (slot, byte) in internal.iter_mut().zip(name.bytes().take(127)) {
            *slot = byte as c_char;
        }
        // SAFETY: valid out-pointer per the API.
        unsafe { (*id).internal = internal };
        NCCL_SUCCESS
    }

    unsafe fn ncclCommInitRank(
        &self,
        comm: *mut NcclComm,
        ranks: c_int,
        id: NcclUniqueId,
        rank: c_int,
    ) -> NcclResult {
        let Ok(ranks) = usize::try_from(ranks) else {
            return NCCL_INVALID_ARGUMENT;
        };
        let (Some(rank), true) = (rank_below(rank, ranks), ranks > 0) else {
            return NCCL_INVALID_ARGUMENT;
        };
        // SAFETY: the id holds a NUL-terminated name (made by ncclGetUniqueId).
        let name = unsafe { CStr::from_ptr(id.internal.as_ptr()) };
        let name = name.to_string_lossy();
        if !name.starts_with("mojo-nccl-") {
            return NCCL_INVALID_ARGUMENT;
        }
        match Rendezvous::join(&name, ranks, rank) {
            Ok(rendezvous) => {
                let made = Arc::new(Comm {
                    rendezvous,
                    error: AtomicI32::new(NCCL_SUCCESS),
                    queued: AtomicUsize::new(0),
                });
                // SAFETY: valid out-pointer per the API.
                unsafe { *comm = Arc::into_raw(made) as NcclComm };
                NCCL_SUCCESS
            }
            Err(e) => e,
        }
    }

    unsafe fn ncclCommDestroy(&self, comm: NcclComm) -> NcclResult {
        if comm.is_null() {
            return NCCL_INVALID_ARGUMENT;
        }
        // SAFETY: the handle's own reference, released once; queued calls hold theirs.
        let comm = unsafe { Arc::from_raw(comm as *const Comm) };
        // As NCCL's, destroying waits for the calls issued (their peers may need this rank's
        // contributions); an aborted communicator's calls end at once.
        while comm.queued.load(Ordering::SeqCst) > 0 {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        comm.rendezvous.leave();
        NCCL_SUCCESS
    }

    unsafe fn ncclCommAbort(&self, comm: NcclComm) -> NcclResult {
        if comm.is_null() {
            return NCCL_INVALID_ARGUMENT;
        }
        // SAFETY: the handle's own reference, released once.
        let comm = unsafe { Arc::from_raw(comm as *const Comm) };
        comm.rendezvous.abort();
        comm.rendezvous.leave();
        NCCL_SUCCESS
    }

    unsafe fn ncclCommGetAsyncError(&self, comm: NcclComm, error: *mut NcclResult) -> NcclResult {
        if comm.is_null() {
            return NCCL_INVALID_ARGUMENT;
        }
        // SAFETY: a live handle per the API; valid out-pointer.
        unsafe { *error = comm_of(comm).error.load(Ordering::SeqCst) };
        NCCL_SUCCESS
    }

    unsafe fn ncclAllReduce(
        &self,
        send: *const c_void,
        recv: *mut c_void,
        count: usize,
        dtype: c_int,
        op: c_int,
        comm: NcclComm,
        stream: CUstream,
    ) -> NcclResult {
        let kind = |_: &Rendezvous| op_of(op).map(Kind::AllReduce);
        // SAFETY: per the API.
        unsafe { self.issue(comm, kind, (send, recv), count, dtype, stream) }
    }

    unsafe fn ncclBroadcast(
        &self,
        send: *const c_void,
        recv: *mut c_void,
        count: usize,
        dtype: c_int,
        root: c_int,
        comm: NcclComm,
        stream: CUstream,
    ) -> NcclResult {
        let kind = |r: &Rendezvous| rank_below(root, r.ranks).map(|root| Kind::Broadcast { root });
        // SAFETY: per the API.
        unsafe { self.issue(comm, kind, (send, recv), count, dtype, stream) }
    }

    unsafe fn ncclReduce(
        &self,
        send: *const c_void,
        recv: *mut c_void,
        count: usize,
        dtype: c_int,
        op: c_int,
        root: c_int,
        comm: NcclComm,
        stream: CUstream,
    ) -> NcclResult {
        let kind = |r: &Rendezvous| {
            let root = rank_below(root, r.ranks)?;
            Some(Kind::Reduce {
                op: op_of(op)?,
                root,
            })
        };
        // SAFETY: per the API.
        unsafe { self.issue(comm, kind, (send, recv), count, dtype, stream) }
    }

    unsafe fn ncclAllGather(
        &self,
        send: *const c_void,
        recv: *mut c_void,
        count: usize,
        dtype: c_int,
        comm: NcclComm,
        stream: CUstream,
    ) -> NcclResult {
        let kind = |_: &Rendezvous| Some(Kind::AllGather);
        // SAFETY: per the API.
        unsafe { self.issue(comm, kind, (send, recv), count, dtype, stream) }
    }

    unsafe fn ncclReduceScatter(
        &self,
        send: *const c_void,
        recv: *mut c_void,
        count: usize,
        dtype: c_int,
        op: c_int,
        comm: NcclComm,
        stream: CUstream,
    ) -> NcclResult {
        let kind = |_: &Rendezvous| op_of(op).map(Kind::ReduceScatter);
        // SAFETY: per the API.
        unsafe { self.issue(comm, kind, (send, recv), count, dtype, stream) }
    }

    unsafe fn ncclSend(
        &self,
        send: *const c_void,
        count: usize,
        dtype: c_int,
        peer: c_int,
        comm: NcclComm,
        stream: CUstream,
    ) -> NcclResult {
        let kind = |r: &Rendezvous| {
            let peer = rank_below(peer, r.ranks)?;
            let number = r.next_message(peer, true);
            Some(Kind::Send { peer, number })
        };
        let none = std::ptr::null_mut();
        // SAFETY: per the API.
        unsafe { self.issue(comm, kind, (send, none), count, dtype, stream) }
    }

    unsafe fn ncclRecv(
        &self,
        recv: *mut c_void,
        count: usize,
        dtype: c_int,
        peer: c_int,
        comm: NcclComm,
        stream: CUstream,
    ) -> NcclResult {
        let kind = |r: &Rendezvous| {
            let peer = rank_below(peer, r.ranks)?;
            let number = r.next_message(peer, false);
            Some(Kind::Recv { peer, number })
        };
        // SAFETY: per the API.
        unsafe { self.issue(comm, kind, (std::ptr::null(), recv), count, dtype, stream) }
    }

    unsafe fn ncclGroupStart(&self) -> NcclResult {
        GROUP.with_borrow_mut(|(depth, _)| *depth += 1);
        NCCL_SUCCESS
    }

    unsafe fn ncclGroupEnd(&self) -> NcclResult {
        let ended = GROUP.with_borrow_mut(|(depth, calls)| {
            if *depth == 0 {
                return Err(NCCL_INVALID_USAGE);
            }
            *depth -= 1;
            Ok(if *depth == 0 {
                std::mem::take(calls)
            } else {
                Vec::new()
            })
        });
        let calls = match ended {
            Ok(calls) => calls,
            Err(e) => return e,
        };
        // One task per stream (a group's calls normally share one).
        let mut by_stream: Vec<(usize, Vec<Call>)> = Vec::new();
        for (queue, call) in calls {
            match by_stream.iter_mut().find(|(q, _)| *q == queue) {
                Some((_, list)) => list.push(call),
                None => by_stream.push((queue, vec![call])),
            }
        }
        for (queue, calls) in by_stream {
            // SAFETY: queues live for the process (streams are never destroyed).
            let queue = unsafe { &*(queue as *const Queue) };
            queue.submit(Box::new(move || run_all(calls)));
        }
        NCCL_SUCCESS
    }

    unsafe fn ncclGetErrorString(&self, result: NcclResult) -> *const c_char {
        result_text(result).as_ptr()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_round_each_step_and_integers_wrap() {
        // float16: 2048 + 1 rounds to 2048 (ties to even), as one half-precision add does.
        let mut acc = 0x6800u16.to_le_bytes().to_vec();
        combine(
            NcclType::Float16,
            NcclOp::Sum,
            &mut acc,
            &0x3c00u16.to_le_bytes(),
        );
        assert_eq!(acc, 0x6800u16.to_le_bytes());
        let mut acc = 0x3f80u16.to_le_bytes().to_vec(); // bfloat16 1.0
        combine(
            NcclType::Bfloat16,
            NcclOp::Max,
            &mut acc,
            &0x4000u16.to_le_bytes(),
        );
        assert_eq!(acc, 0x4000u16.to_le_bytes());
        let mut acc = 127i8.to_le_bytes().to_vec();
        combine(NcclType::Int8, NcclOp::Sum, &mut acc, &1i8.to_le_bytes());
        assert_eq!(acc, (-128i8).to_le_bytes());
        let mut acc = [3i64.to_le_bytes(), (-4i64).to_le_bytes()].concat();
        let x = [5i64.to_le_bytes(), 2i64.to_le_bytes()].concat();
        combine(NcclType::Int64, NcclOp::Prod, &mut acc, &x);
        assert_eq!(acc, [15i64.to_le_bytes(), (-8i64).to_le_bytes()].concat());
    }
}
