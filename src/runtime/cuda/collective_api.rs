//! The collective library's part of the seam (`api::Driver`): every NCCL call the backend
//! makes, by C name and signature, with NCCL's types and codes. The real library
//! (`real_collective`) and the CPU emulation (`emulated::collective`, several processes
//! meeting through files) implement it.

#![allow(non_snake_case, clippy::too_many_arguments)]

use std::ffi::{c_char, c_int, c_void, CStr};

use cudarc::driver::sys::CUstream;

/// `ncclComm_t`.
pub type NcclComm = *mut c_void;

/// `ncclResult_t`: 0 is success (the others name their cause, see [`result_text`]).
pub type NcclResult = c_int;

pub const NCCL_SUCCESS: NcclResult = 0;
pub const NCCL_SYSTEM_ERROR: NcclResult = 2;
pub const NCCL_INVALID_ARGUMENT: NcclResult = 4;
pub const NCCL_INVALID_USAGE: NcclResult = 5;
pub const NCCL_REMOTE_ERROR: NcclResult = 6;

/// `ncclUniqueId`: what rank 0 makes and every rank passes to `ncclCommInitRank`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct NcclUniqueId {
    pub internal: [c_char; 128],
}

/// `ncclDataType_t`.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NcclType {
    Int8 = 0,
    Uint8 = 1,
    Int32 = 2,
    Uint32 = 3,
    Int64 = 4,
    Uint64 = 5,
    Float16 = 6,
    Float32 = 7,
    Float64 = 8,
    Bfloat16 = 9,
}

impl NcclType {
    /// The bytes of one element.
    pub fn size(self) -> usize {
        match self {
            NcclType::Int8 | NcclType::Uint8 => 1,
            NcclType::Float16 | NcclType::Bfloat16 => 2,
            NcclType::Int32 | NcclType::Uint32 | NcclType::Float32 => 4,
            NcclType::Int64 | NcclType::Uint64 | NcclType::Float64 => 8,
        }
    }

    /// The type of NCCL code `code`.
    pub fn of(code: c_int) -> Option<NcclType> {
        use NcclType::*;
        [
            Int8, Uint8, Int32, Uint32, Int64, Uint64, Float16, Float32, Float64, Bfloat16,
        ]
        .into_iter()
        .find(|t| *t as c_int == code)
    }
}

/// `ncclRedOp_t` (the built-in ones the backend uses).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NcclOp {
    Sum = 0,
    Prod = 1,
    Max = 2,
    Min = 3,
}

impl NcclOp {
    pub fn of(code: c_int) -> Option<NcclOp> {
        use NcclOp::*;
        [Sum, Prod, Max, Min]
            .into_iter()
            .find(|o| *o as c_int == code)
    }
}

/// What NCCL's `ncclGetErrorString` says of `result`, for the results it documents (the
/// emulation's own text, and the message where the library gives none).
pub fn result_text(result: NcclResult) -> &'static CStr {
    match result {
        0 => c"no error",
        1 => c"unhandled cuda error",
        2 => c"unhandled system error (a peer may have died, or a network or file failed)",
        3 => c"internal error",
        4 => c"invalid argument",
        5 => c"invalid usage",
        6 => c"remote process exited or there was a network error",
        7 => c"operation in progress",
        _ => c"unknown result code",
    }
}

/// The NCCL calls of the CUDA backend, returning NCCL's results.
pub trait CollectiveApi {
    /// Whether NCCL can be used.
    fn nccl_present(&self) -> bool;
    unsafe fn ncclGetUniqueId(&self, id: *mut NcclUniqueId) -> NcclResult;
    /// Joins the communicator of `id` as `rank` of `ranks`, on the current context's device;
    /// blocks until every rank has joined.
    unsafe fn ncclCommInitRank(
        &self,
        comm: *mut NcclComm,
        ranks: c_int,
        id: NcclUniqueId,
        rank: c_int,
    ) -> NcclResult;
    unsafe fn ncclCommDestroy(&self, comm: NcclComm) -> NcclResult;
    unsafe fn ncclCommAbort(&self, comm: NcclComm) -> NcclResult;
    unsafe fn ncclCommGetAsyncError(&self, comm: NcclComm, error: *mut NcclResult) -> NcclResult;
    unsafe fn ncclAllReduce(
        &self,
        send: *const c_void,
        recv: *mut c_void,
        count: usize,
        dtype: c_int,
        op: c_int,
        comm: NcclComm,
        stream: CUstream,
    ) -> NcclResult;
    unsafe fn ncclBroadcast(
        &self,
        send: *const c_void,
        recv: *mut c_void,
        count: usize,
        dtype: c_int,
        root: c_int,
        comm: NcclComm,
        stream: CUstream,
    ) -> NcclResult;
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
    ) -> NcclResult;
    /// `count` elements from each rank, into `recv` in rank order.
    unsafe fn ncclAllGather(
        &self,
        send: *const c_void,
        recv: *mut c_void,
        count: usize,
        dtype: c_int,
        comm: NcclComm,
        stream: CUstream,
    ) -> NcclResult;
    /// `recv` (`count` elements) takes the reduction of every rank's block `rank` of `send`.
    unsafe fn ncclReduceScatter(
        &self,
        send: *const c_void,
        recv: *mut c_void,
        count: usize,
        dtype: c_int,
        op: c_int,
        comm: NcclComm,
        stream: CUstream,
    ) -> NcclResult;
    unsafe fn ncclSend(
        &self,
        send: *const c_void,
        count: usize,
        dtype: c_int,
        peer: c_int,
        comm: NcclComm,
        stream: CUstream,
    ) -> NcclResult;
    unsafe fn ncclRecv(
        &self,
        recv: *mut c_void,
        count: usize,
        dtype: c_int,
        peer: c_int,
        comm: NcclComm,
        stream: CUstream,
    ) -> NcclResult;
    /// Calls between `ncclGroupStart` and `ncclGroupEnd` (on one thread) are issued together.
    unsafe fn ncclGroupStart(&self) -> NcclResult;
    unsafe fn ncclGroupEnd(&self) -> NcclResult;
    /// NCCL's own text for `result`.
    unsafe fn ncclGetErrorString(&self, result: NcclResult) -> *const c_char;
}
