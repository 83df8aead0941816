//! `mojo::collective`: one collective of the `mojo` c10d backend through the device's
//! collective library (NCCL), on the current stream, for
//! `python/torch_mojo_backend/distributed/_nccl.py`. The op checks that the buffers hold what
//! the collective reads and writes, since the library trusts its counts.

use crate::error::{Error, Result};
use crate::ops::core::call::Call;
use crate::ops::core::launch::common_device;
use crate::ops::core::registry::OpFn;
use crate::ops::core::tensor::TensorRef;
use crate::runtime::backend;
use crate::runtime::communication::{Collective, CollectiveKind, ReduceOp};

pub const OPS: &[(&str, OpFn)] = &[("mojo::collective", collective)];

/// The schemas of this file's `mojo::` ops, defined by `csrc/dispatch.cpp`.
pub const SCHEMAS: &[&str] =
    &["collective(Tensor send, Tensor(a!) recv, int comm, int kind, int op, int peer) -> ()"];

/// The kind of code `kind` (0 all-reduce, 1 broadcast, 2 reduce, 3 all-gather, 4 reduce
/// scatter, 5 send, 6 receive) with c10d's reduce op `op` and root or peer `peer`.
fn kind_of(kind: i64, op: i64, peer: i64) -> Result<CollectiveKind> {
    let op = || {
        ReduceOp::from_c10d(op)
            .ok_or_else(|| Error::value(format!("mojo: NCCL has no reduce op of c10d code {op}")))
    };
    let peer =
        u32::try_from(peer).map_err(|_| Error::value(format!("mojo: rank {peer} is not a rank")));
    Ok(match kind {
        0 => CollectiveKind::AllReduce(op()?),
        1 => CollectiveKind::Broadcast { root: peer? },
        2 => CollectiveKind::Reduce {
            op: op()?,
            root: peer?,
        },
        3 => CollectiveKind::AllGather,
        4 => CollectiveKind::ReduceScatter(op()?),
        5 => CollectiveKind::Send { peer: peer? },
        6 => CollectiveKind::Recv { peer: peer? },
        other => {
            return Err(Error::value(format!(
                "mojo: {other} is not a collective's code"
            )))
        }
    })
}

/// `collective(Tensor send, Tensor(a!) recv, int comm, int kind, int op, int peer)`: the
/// collective `kind` on communicator `comm` from `send` into `recv` (contiguous, one dtype;
/// a send reads `send` alone, a receive writes `recv` alone, a broadcast may pass one tensor
/// twice).
fn collective(call: &mut Call) -> Result<()> {
    let (send, recv) = (call.tensor(0)?, call.tensor(1)?);
    let comm = u64::try_from(call.int(2)?)
        .map_err(|_| Error::value("mojo: a communicator handle is not negative"))?;
    let kind = kind_of(call.int(3)?, call.int(4)?, call.int(5)?)?;
    let device = common_device(&[&send, &recv])?;
    if send.dtype != recv.dtype {
        return Err(Error::type_error(format!(
            "mojo: a collective's tensors share a dtype, got {} and {}",
            send.dtype.torch_name(),
            recv.dtype.torch_name()
        )));
    }
    if !send.is_contiguous() || !recv.is_contiguous() {
        return Err(Error::value(
            "mojo: a collective's tensors must be contiguous",
        ));
    }
    let library = backend()?.communication(device).ok_or_else(|| {
        Error::runtime(format!("mojo: device {device} has no collective library"))
    })?;
    let ranks = u64::from(library.ranks(comm)?);
    let (n_send, n_recv) = (send.numel(), recv.numel());
    let count = match kind {
        CollectiveKind::AllGather => expect(n_recv == n_send * ranks, n_send, &recv)?,
        CollectiveKind::ReduceScatter(_) => expect(n_send == n_recv * ranks, n_recv, &send)?,
        CollectiveKind::Send { .. } => n_send,
        CollectiveKind::Recv { .. } => n_recv,
        _ => expect(n_recv == n_send, n_send, &recv)?,
    };
    let root = match kind {
        CollectiveKind::Broadcast { root } | CollectiveKind::Reduce { root, .. } => Some(root),
        CollectiveKind::Send { peer } | CollectiveKind::Recv { peer } => Some(peer),
        _ => None,
    };
    if root.is_some_and(|r| u64::from(r) >= ranks) {
        return Err(Error::value(format!(
            "mojo: rank {} is not one of the communicator's {ranks}",
            root.unwrap_or_default()
        )));
    }
    let address = |t: &TensorRef| if t.numel() == 0 { 0 } else { t.address };
    library.run(
        comm,
        &Collective {
            kind,
            dtype: send.dtype,
            count,
            send: address(&send),
            recv: address(&recv),
        },
    )
}

/// `count` when `fits`, else the error that `tensor` has the wrong number of elements.
fn expect(fits: bool, count: u64, tensor: &TensorRef) -> Result<u64> {
    if fits {
        Ok(count)
    } else {
        Err(Error::value(format!(
            "mojo: a collective's output has {} elements, which does not fit its input",
            tensor.numel()
        )))
    }
}
