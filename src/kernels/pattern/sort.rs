//! Radix passes, rank sorts and merges.

use crate::dtype::DType;
use crate::kernels::expr::{Expr, UnaryOp};

/// How a radix pass takes each key's digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RadixDigit {
    /// Eight bits of the key from the pass's shift: the sort's passes.
    Bits,
    /// The same, counted only for keys whose higher bits are their line's chosen prefix:
    /// selection narrowing down to the bucket of the k-th key.
    Narrowed,
    /// 0, 1 or 2 as the key is below, equal to or above its line's chosen key: selection's
    /// final stable partition.
    Partition,
    /// The key is an index (int32 or int64) into `bound` targets (a launch word; negative
    /// ones count from the end when `wrap`), its digit the target, all in one pass: an
    /// accumulating scatter's values sorted by the index itself, without computed keys. An
    /// index out of range takes the last digit (the digits outnumber the targets) and the
    /// count reports it to the fault word (a third tensor argument).
    Target { wrap: bool },
}

/// A radix pass over keys of `dtype` (see `Kernel::RadixCount`), ascending or descending.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RadixKernel {
    pub dtype: DType,
    pub descending: bool,
    pub digit: RadixDigit,
    /// The dtype of the positions moved with the keys (int64 for sorts, int32 where an
    /// accumulating scatter's positions fit it), or of the values moved in their place.
    pub positions: DType,
    /// Whether the scatter writes the moved keys (not where only what moves with them is
    /// wanted).
    pub keep_keys: bool,
}

impl RadixKernel {
    /// Whether the kernel reads the lines' selection state.
    pub fn selects(&self) -> bool {
        matches!(self.digit, RadixDigit::Narrowed | RadixDigit::Partition)
    }

    /// Whether the keys are indices into targets (`RadixDigit::Target`).
    pub fn targets(&self) -> bool {
        matches!(self.digit, RadixDigit::Target { .. })
    }

    /// Whether the keys are read four at a time where a tile's start is 16-byte aligned
    /// (int32 and float32 keys, and int64 indices).
    pub fn vector(&self) -> bool {
        matches!(self.dtype, DType::I32 | DType::F32) || self.targets() && self.dtype == DType::I64
    }
}

/// Stable sort along one dimension by ranking: each invocation counts the elements of its line
/// that sort before its own (NaN sorts as the largest value) and writes its value and index at
/// that rank. Quadratic in the line length, so for short lines; tensor arguments: input,
/// values, indices (int64). As `Kernel::Merge` it is one pass of a merge sort instead.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SortKernel {
    pub dtype: DType,
    pub descending: bool,
}

impl SortKernel {
    /// Whether the element `x0` of another position sorts before this position's `x1` (the
    /// positions tie when neither does and `equal` holds).
    pub fn before(&self) -> Expr {
        let key = if self.dtype == DType::Bool {
            DType::U8
        } else {
            self.dtype
        };
        let (a, b) = (
            Expr::input(0, self.dtype).cast(key),
            Expr::input(1, self.dtype).cast(key),
        );
        let (first, second) = if self.descending { (b, a) } else { (a, b) };
        // first < second, or only `second` is NaN.
        let nan_last = first
            .clone()
            .is_nan()
            .unary(UnaryOp::Not)
            .and(second.clone().is_nan());
        first.lt(second).or(nan_last)
    }

    /// Whether `x0` and `x1` tie (NaNs tie with each other).
    pub fn equal(&self) -> Expr {
        let (a, b) = (Expr::input(0, self.dtype), Expr::input(1, self.dtype));
        a.clone().eq(b.clone()).or(a.is_nan().and(b.is_nan()))
    }
}
