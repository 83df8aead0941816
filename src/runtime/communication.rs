//! Communication between processes through a device's collective library (NCCL on NVIDIA):
//! communicators, and the collectives the `mojo` c10d backend issues on a device's current
//! stream. Devices without such a library have none (their process groups stage through
//! host memory).

use crate::dtype::DType;
use crate::error::Result;

/// How a reduction combines the ranks' elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceOp {
    Sum,
    Product,
    Max,
    Min,
}

impl ReduceOp {
    /// The op of code `code` (c10d's `ReduceOp` numbering: 0 sum, 1 average, 2 product,
    /// 3 min, 4 max), or None for the ones the library does not take as such.
    pub fn from_c10d(code: i64) -> Option<ReduceOp> {
        match code {
            0 => Some(ReduceOp::Sum),
            2 => Some(ReduceOp::Product),
            3 => Some(ReduceOp::Min),
            4 => Some(ReduceOp::Max),
            _ => None,
        }
    }
}

/// What a collective does. Counts are elements per rank: see [`Collective::count`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CollectiveKind {
    /// Every rank's `recv` takes the reduction of every rank's `send`.
    AllReduce(ReduceOp),
    /// Every rank's `recv` takes `root`'s `send`.
    Broadcast {
        root: u32,
    },
    /// `root`'s `recv` takes the reduction of every rank's `send`.
    Reduce {
        op: ReduceOp,
        root: u32,
    },
    /// `recv` takes every rank's `send`, in rank order.
    AllGather,
    /// `recv` takes the reduction of every rank's block `rank` of `send`.
    ReduceScatter(ReduceOp),
    Send {
        peer: u32,
    },
    Recv {
        peer: u32,
    },
}

impl CollectiveKind {
    /// Whether elements are only moved (then any dtype goes, as bytes).
    pub fn moves_only(self) -> bool {
        matches!(
            self,
            CollectiveKind::Broadcast { .. }
                | CollectiveKind::AllGather
                | CollectiveKind::Send { .. }
                | CollectiveKind::Recv { .. }
        )
    }
}

/// One collective of `count` elements of `dtype` per rank (`recv`'s count for a reduce
/// scatter, `send`'s otherwise) between device addresses `send` and `recv` (0 where the kind
/// has none).
#[derive(Clone, Copy, Debug)]
pub struct Collective {
    pub kind: CollectiveKind,
    pub dtype: DType,
    pub count: u64,
    pub send: u64,
    pub recv: u64,
}

/// A device's collective library.
pub trait Communication: Send + Sync {
    /// A new communicator's id (made by one rank, handed to the others).
    fn unique_id(&self) -> Result<Vec<u8>>;
    /// Joins the communicator `id` as `rank` of `ranks` (blocks until all have joined); its
    /// handle.
    fn open(&self, id: &[u8], ranks: u32, rank: u32) -> Result<u64>;
    /// The number of ranks of communicator `comm`.
    fn ranks(&self, comm: u64) -> Result<u32>;
    /// Releases a communicator; `abort` first stops its pending calls.
    fn close(&self, comm: u64, abort: bool) -> Result<()>;
    /// The error a communicator's pending calls met, if any.
    fn error(&self, comm: u64) -> Result<Option<String>>;
    /// Opens (`start`) or closes a group of calls issued together.
    fn group(&self, start: bool) -> Result<()>;
    /// Issues `call` on the device's current stream.
    fn run(&self, comm: u64, call: &Collective) -> Result<()>;
}
