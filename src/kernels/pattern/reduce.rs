//! Reductions and scans.

use crate::dtype::DType;
use crate::kernels::expr::Expr;

/// How a reduction combines elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    Sum,
    Prod,
    /// NaN-propagating minimum.
    Min,
    /// NaN-propagating maximum.
    Max,
    /// Minimum and the index of its first occurrence (NaN counts as the minimum).
    ArgMin,
    /// Maximum and the index of its first occurrence (NaN counts as the maximum).
    ArgMax,
    /// Sum of squared deviations from the mean (two passes); the second value is the mean.
    Variance,
    /// Sum of `exp(x - m)` with `m` the maximum (two passes); the second value is `m`.
    LogSumExp,
}

impl ReduceOp {
    /// The dtype of the second accumulated value, if the op has one.
    pub fn second(self, acc: DType) -> Option<DType> {
        match self {
            ReduceOp::ArgMin | ReduceOp::ArgMax => Some(DType::I64),
            ReduceOp::Variance | ReduceOp::LogSumExp => Some(acc),
            _ => None,
        }
    }
}

/// Reduction of one input over its reduced dimensions, a chunk of the reduced elements per
/// workgroup (one chunk covers them all unless the launch splits them). Each element is first
/// mapped by `pre` (input 0 is the element) into the accumulator dtype `acc`; each output is
/// an expression of the accumulator (input 0) and the op's second value (input 1). Scalars
/// are shared by both. Tensor arguments: the input, the candidate indices when `indexed`, the
/// per-output tensor when `per_output`, the outputs, then the per-element output when
/// `elementwise`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ReduceKernel {
    pub input: DType,
    pub scalars: Vec<DType>,
    pub pre: Expr,
    pub op: ReduceOp,
    pub acc: DType,
    pub outputs: Vec<(DType, Expr)>,
    /// A tensor read at each output's position: input 1 of `pre` and of the outputs (for a
    /// Sum, Prod, Min or Max only).
    pub per_output: Option<DType>,
    /// ArgMin/ArgMax: each element's index is read from an int64 tensor laid out like the
    /// input (partial results being combined) instead of being its position.
    pub indexed: bool,
    /// One more output with the input's shape, written after each output's whole reduction
    /// (one chunk), as softmax needs. Its tensor comes last.
    pub elementwise: Option<Elementwise>,
    /// Whether the input (float32 or int32) is read four elements per 16-byte load where a
    /// row is contiguous and aligned: the launch sets it (the tensors are then bound as
    /// 16-byte words).
    pub vector: bool,
    /// Each invocation reduces four neighbouring outputs whose elements lie side by side (a
    /// column sum of a row-major float32 matrix), reading the four as one 16-byte load per
    /// reduced position: the launch sets it where the layout allows (see
    /// `printer::reduce::columns`).
    pub columns: bool,
}

/// A reduction's per-element output: `row`, of the reduced accumulator (input 0) and the op's
/// second value (input 1), once per output; then `value` per element, of the element
/// (input 0), the row's value (input 1) and the second value (input 2).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Elementwise {
    pub dtype: DType,
    pub row: Expr,
    pub value: Expr,
    /// Where one invocation reduces a row, its last pass stores each element's mapped value
    /// in the output (whose dtype is then the accumulator's), and the per-element pass maps
    /// that stored value (input 0), with inputs 1 and 2 as for `value` and the reduced
    /// accumulator (input 3), by this instead: a softmax computes one exponential per
    /// element, not two.
    pub stashed: Option<Expr>,
}

/// Inclusive scan along one dimension: each thread walks one chunk of a line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScanKernel {
    pub input: DType,
    pub acc: DType,
    pub output: DType,
    /// Sum or Prod.
    pub op: ReduceOp,
    /// Whether a chunk after a line's first starts from a carry (tensor argument 1, of `acc`):
    /// the combined values of the chunks before it.
    pub carry: bool,
    /// Whether float32/int32 input and output lines with unit strides are read and written
    /// four elements per 16-byte access where aligned (tensors bound as 16-byte words); the
    /// launch sets it.
    pub vector: bool,
}

impl ScanKernel {
    /// The running sum of `input` accumulated and written as `acc`, without a carry (the
    /// launch adds one for long lines and chooses the vector form).
    pub fn sum(input: DType, acc: DType) -> Self {
        ScanKernel {
            input,
            acc,
            output: acc,
            op: ReduceOp::Sum,
            carry: false,
            vector: false,
        }
    }
}
