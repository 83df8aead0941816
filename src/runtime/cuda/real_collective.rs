//! NCCL behind the seam, loaded at run time from `TORCH_MOJO_BACKEND_NCCL` (set by the Python
//! package from the nvidia-nccl wheel torch installs) or by its soname; each call forwards to
//! the library's function, looked up once.

#![allow(non_snake_case)]

use std::ffi::{c_char, c_int, c_void};
use std::sync::OnceLock;

use cudarc::driver::sys::CUstream;
use libloading::Library;

use super::collective_api::{CollectiveApi, NcclComm, NcclResult, NcclUniqueId, NCCL_SYSTEM_ERROR};
use super::real::Real;

/// Declares the NCCL functions the backend calls: a table of their pointers, filled from the
/// library once.
macro_rules! nccl_functions {
    ($($name:ident: fn($($arg:ty),*) $(-> $ret:ty)?;)*) => {
        #[allow(non_snake_case)]
        struct Functions {
            $($name: unsafe extern "C" fn($($arg),*) $(-> $ret)?,)*
            _library: Library,
        }

        impl Functions {
            /// # Safety
            /// `library` must be NCCL, whose functions have these signatures.
            unsafe fn load(library: Library) -> Option<Functions> {
                Some(Functions {
                    $($name: *unsafe {
                        library.get(concat!(stringify!($name), "\0").as_bytes())
                    }.ok()?,)*
                    _library: library,
                })
            }
        }
    };
}

nccl_functions! {
    ncclGetUniqueId: fn(*mut NcclUniqueId) -> NcclResult;
    ncclCommInitRank: fn(*mut NcclComm, c_int, NcclUniqueId, c_int) -> NcclResult;
    ncclCommDestroy: fn(NcclComm) -> NcclResult;
    ncclCommAbort: fn(NcclComm) -> NcclResult;
    ncclCommGetAsyncError: fn(NcclComm, *mut NcclResult) -> NcclResult;
    ncclAllReduce: fn(*const c_void, *mut c_void, usize, c_int, c_int, NcclComm, CUstream)
        -> NcclResult;
    ncclBroadcast: fn(*const c_void, *mut c_void, usize, c_int, c_int, NcclComm, CUstream)
        -> NcclResult;
    ncclReduce: fn(*const c_void, *mut c_void, usize, c_int, c_int, c_int, NcclComm, CUstream)
        -> NcclResult;
    ncclAllGather: fn(*const c_void, *mut c_void, usize, c_int, NcclComm, CUstream)
        -> NcclResult;
    ncclReduceScatter: fn(*const c_void, *mut c_void, usize, c_int, c_int, NcclComm, CUstream)
        -> NcclResult;
    ncclSend: fn(*const c_void, usize, c_int, c_int, NcclComm, CUstream) -> NcclResult;
    ncclRecv: fn(*mut c_void, usize, c_int, c_int, NcclComm, CUstream) -> NcclResult;
    ncclGroupStart: fn() -> NcclResult;
    ncclGroupEnd: fn() -> NcclResult;
    ncclGetErrorString: fn(NcclResult) -> *const c_char;
}

// SAFETY: the table holds plain function pointers and the library handle.
unsafe impl Send for Functions {}
// SAFETY: as above.
unsafe impl Sync for Functions {}

/// The loaded library, or None where it is absent or lacks a function.
fn nccl() -> Option<&'static Functions> {
    static NCCL: OnceLock<Option<Functions>> = OnceLock::new();
    NCCL.get_or_init(|| {
        let path = crate::config::config().nccl.clone();
        let name = path.map_or_else(|| "libnccl.so.2".into(), |p| p.into_os_string());
        // SAFETY: loading NCCL runs no initialisers with preconditions.
        let library = unsafe { Library::new(name) }.ok()?;
        // SAFETY: the library is NCCL.
        unsafe { Functions::load(library) }
    })
    .as_ref()
}

/// Calls NCCL's `$name` with `$args`, or fails as a system error without the library.
macro_rules! forward {
    ($name:ident($($arg:expr),*)) => {
        match nccl() {
            // SAFETY: the caller keeps the call's contract.
            Some(f) => unsafe { (f.$name)($($arg),*) },
            None => NCCL_SYSTEM_ERROR,
        }
    };
}

impl CollectiveApi for Real {
    fn nccl_present(&self) -> bool {
        nccl().is_some()
    }

    unsafe fn ncclGetUniqueId(&self, id: *mut NcclUniqueId) -> NcclResult {
        forward!(ncclGetUniqueId(id))
    }

    unsafe fn ncclCommInitRank(
        &self,
        comm: *mut NcclComm,
        ranks: c_int,
        id: NcclUniqueId,
        rank: c_int,
    ) -> NcclResult {
        forward!(ncclCommInitRank(comm, ranks, id, rank))
    }

    unsafe fn ncclCommDestroy(&self, comm: NcclComm) -> NcclResult {
        forward!(ncclCommDestroy(comm))
    }

    unsafe fn ncclCommAbort(&self, comm: NcclComm) -> NcclResult {
        forward!(ncclCommAbort(comm))
    }

    unsafe fn ncclCommGetAsyncError(&self, comm: NcclComm, error: *mut NcclResult) -> NcclResult {
        forward!(ncclCommGetAsyncError(comm, error))
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
        forward!(ncclAllReduce(send, recv, count, dtype, op, comm, stream))
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
        forward!(ncclBroadcast(send, recv, count, dtype, root, comm, stream))
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
        forward!(ncclReduce(send, recv, count, dtype, op, root, comm, stream))
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
        forward!(ncclAllGather(send, recv, count, dtype, comm, stream))
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
        forward!(ncclReduceScatter(
            send, recv, count, dtype, op, comm, stream
        ))
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
        forward!(ncclSend(send, count, dtype, peer, comm, stream))
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
        forward!(ncclRecv(recv, count, dtype, peer, comm, stream))
    }

    unsafe fn ncclGroupStart(&self) -> NcclResult {
        forward!(ncclGroupStart())
    }

    unsafe fn ncclGroupEnd(&self) -> NcclResult {
        forward!(ncclGroupEnd())
    }

    unsafe fn ncclGetErrorString(&self, result: NcclResult) -> *const c_char {
        match nccl() {
            // SAFETY: NCCL returns a static string for any code.
            Some(f) => unsafe { (f.ncclGetErrorString)(result) },
            None => std::ptr::null(),
        }
    }
}
