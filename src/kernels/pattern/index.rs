//! Gathers, scatters and the deterministic accumulating scatter.

use crate::dtype::DType;
use crate::kernels::expr::{BinaryOp, Expr};

/// Reads or writes through index tensors. With `scatter` false (gather) `dst[i] = src[at(i)]`,
/// else `dst[at(i)] = src[i]`, where `at(i)` adds each index tensor's element at `i`, wrapped
/// when negative, times that index's stride in the indexed tensor. An index outside its bound
/// touches nothing and sets the fault word (the last tensor argument, int32).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IndexKernel {
    /// The dtype `src` and `dst` move as: an integer of their width ([`DType::bits`]).
    pub dtype: DType,
    /// The dtype (int64 or int32) of each index tensor.
    pub indices: Vec<DType>,
    pub scatter: bool,
    /// Whether negative indices count from the end (else they are out of range).
    pub wrap: bool,
    /// Groups of four consecutive elements of `src` and `dst` per work item (none: one
    /// element), at one index element (rows gathered or scattered whole): the launch walks
    /// groups of `4 * fours` elements, aligned to four.
    pub fours: u32,
}

impl IndexKernel {
    /// Whether a work item moves groups of four elements.
    pub fn vector(&self) -> bool {
        self.fours > 0
    }
}

/// How an accumulate kernel combines the values that land on one element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Accumulate {
    Sum,
    Prod,
    Max,
    Min,
    /// The sum divided by the count (floor division for integers).
    Mean,
    /// The last value in index order wins.
    Assign,
}

/// Scatter with a combining reduction, deterministic and without atomics, from values sorted
/// by their target (see `AccumulateKeysKernel`): each output element finds the run of its key
/// in the sorted keys from the table of run starts (`Kernel::RunStarts`) and combines the
/// run's values in order (the sort is stable, so in index order, as CPU combines them) with
/// `self`'s element (when `include_self`) or among themselves. Elements nothing points at
/// keep `self`'s value. Tensor arguments: self, values, sorted keys and the permutation
/// (both of dtype `index`), the run starts (int32), out (and the counts of a chunked kernel).
/// `runs` says how the runs are found (see `printer::index::accumulate`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AccumulateKernel {
    pub dtype: DType,
    /// The sorted keys' and the permutation's dtype: int32 where the keys and the positions
    /// fit it (half the memory traffic of int64 in every sorting launch), else int64.
    pub index: DType,
    pub op: Accumulate,
    pub include_self: bool,
    /// Launched once per range of run positions, continuing from the previous launch
    /// through `out` and an int32 count per element (the last tensor argument).
    pub chunked: bool,
    /// Each work item takes four neighbouring free elements along the innermost output
    /// dimension (free, its size a multiple of four): the run is walked once for the four.
    pub lanes: bool,
    pub runs: Runs,
}

/// How an accumulate kernel finds the values of an output element's key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Runs {
    /// Keys sorted stably with their positions, and each key's run start.
    Sorted,
    /// The values were moved into key order by one radix pass (`sort_launch::run_presort`),
    /// whose scanned digit counts give each key's run: no keys, permutation or run starts.
    Presorted,
    /// Nothing sorted: each work item walks every position's key in index order and takes
    /// the values of its own (few keys and positions, where the sort's launches cost more).
    Scanned,
}

/// The targets of an accumulating scatter: for each value position, the flat position of the
/// output element it lands on (a key of dtype `key`, int32 or int64, its largest value where
/// an index is out of range, which also sets the fault word). Tensor arguments: the index
/// tensors, the keys, the fault word (int32).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AccumulateKeysKernel {
    pub indices: Vec<DType>,
    pub key: DType,
    /// Whether negative indices count from the end (else they are out of range).
    pub wrap: bool,
}

impl AccumulateKeysKernel {
    /// Whether a dense index vector's int32 keys are computed four at a time, from 16-byte
    /// loads, where the launch's layout allows (one int32 or int64 index tensor).
    pub fn vector(&self) -> bool {
        self.key == DType::I32 && matches!(self.indices[..], [DType::I32 | DType::I64])
    }
}

impl AccumulateKernel {
    /// One combining step of the accumulator (input 0) with the next value (input 1), rounded
    /// to the dtype as PyTorch's per-element loop rounds it.
    pub fn step(&self) -> Expr {
        let op = match self.op {
            Accumulate::Sum | Accumulate::Mean => BinaryOp::Add,
            Accumulate::Prod => BinaryOp::Mul,
            Accumulate::Max => BinaryOp::Max,
            Accumulate::Min => BinaryOp::Min,
            Accumulate::Assign => return Expr::input(1, self.dtype),
        };
        self.in_dtype(op)
    }

    /// The stored result: the accumulator (input 0) and, for the mean, the count (input 1).
    pub fn finish(&self) -> Expr {
        match self.op {
            Accumulate::Mean if self.dtype.is_float() => self.in_dtype(BinaryOp::Div),
            Accumulate::Mean => self.in_dtype(BinaryOp::FloorDiv),
            _ => Expr::input(0, self.dtype),
        }
    }

    /// `input 0 <op> input 1` computed in the compute type and rounded to the dtype.
    fn in_dtype(&self, op: BinaryOp) -> Expr {
        let wide = if matches!(self.dtype, DType::F16 | DType::BF16) {
            DType::F32
        } else {
            self.dtype
        };
        Expr::input(0, wide)
            .binary(op, Expr::input(1, wide))
            .cast(self.dtype)
    }
}
