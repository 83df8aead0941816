//! Elementwise patterns: the map, its vector form and the multi-tensor (foreach) map.

use crate::dtype::DType;
use crate::kernels::expr::Expr;
use smallvec::SmallVec;

/// Elementwise map: every output element is an expression of the input elements at the same
/// index. Tensors are addressed through per-tensor strides over one shared shape.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MapKernel {
    /// Input dtypes, in argument order.
    pub inputs: SmallVec<[DType; 4]>,
    /// Scalar argument dtypes.
    pub scalars: SmallVec<[DType; 4]>,
    /// One (dtype, value) per output.
    pub outputs: SmallVec<[(DType, Expr); 2]>,
}

/// The inputs of a [`Kernel::MapVector`](super::Kernel::MapVector) read one element per row (their stride along the
/// row is zero: a per-row statistic, or a scalar): bit `t` for input `t`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Splat(pub u32);

impl Splat {
    pub fn has(self, t: usize) -> bool {
        (self.0 >> t) & 1 != 0
    }
}

/// Whether every tensor of a [`Kernel::MapVector`](super::Kernel::MapVector) of under four
/// bytes that runs along the rows has a 16-byte aligned address and row stride, and the rows
/// hold whole 16-byte words of its narrowest such tensor: an item inside a row then reads and
/// writes them 16 bytes at a time, not a word at a time (16M uint8 adds on the software
/// device: 6.0 -> 3.2 ms).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Aligned16(pub bool);

impl MapKernel {
    /// Elements per work item of a [`Kernel::MapVector`] with inputs `splat` read once per
    /// row: 16 bytes of its narrowest tensor along the row on a GPU (4 float32, 16 uint8), 64
    /// on a `cpu`, where an item costs more than its bytes (16M adds on the software device,
    /// 16 -> 64 bytes per item: float32 19 -> 12-14 ms, uint8 14 -> 7 ms); four where an output
    /// is not [`Expr::straight_line`], so that no long expression is printed many times.
    ///
    /// [`Kernel::MapVector`]: super::Kernel::MapVector
    pub fn vector_lanes(&self, splat: Splat, cpu: bool) -> u32 {
        let along_rows = (self.inputs.iter().enumerate())
            .filter(|&(t, _)| !splat.has(t))
            .map(|(_, d)| d)
            .chain(self.outputs.iter().map(|(d, _)| d));
        let narrowest = along_rows.map(|d| d.size()).min().unwrap_or(4).clamp(1, 4);
        let bytes = if cpu { 64 } else { 16 };
        if self.outputs.iter().all(|(_, e)| e.straight_line(16)) {
            bytes / narrowest as u32
        } else {
            4
        }
    }

    /// Whether an output runs a loop whose length depends on the values (one element per
    /// invocation then: the software device bounds each invocation's loop steps).
    pub fn loops(&self) -> bool {
        self.outputs.iter().any(|(_, e)| e.loops())
    }
}
/// One elementwise expression over lists of contiguous tensors, `chunk` tensors of every list
/// per launch: position `k` of the lists forms one map over that tensor's elements. A
/// `broadcast` input is one element shared by the whole map (a zero-dimensional tensor).
/// Scalars are per position. Tensor arguments are list-major: input list `l`'s tensor `k` is
/// argument `l * chunk + k`, then the output lists the same way.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ForeachKernel {
    pub inputs: Vec<(DType, bool)>,
    pub scalars: Vec<DType>,
    pub outputs: Vec<(DType, Expr)>,
    pub chunk: usize,
}

impl ForeachKernel {
    /// Whether positions whose tensors are 16-byte aligned are walked four elements at a
    /// time: every tensor that is not a broadcast input has 4-byte elements.
    pub fn vector(&self) -> bool {
        let four = |d: DType| matches!(d, DType::F32 | DType::I32);
        self.inputs
            .iter()
            .all(|&(d, broadcast)| broadcast || four(d))
            && self.outputs.iter().all(|(d, _)| four(*d))
    }
}
