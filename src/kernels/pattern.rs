//! Kernel patterns. A kernel is specialised on dtypes, expressions and which tensors share a
//! buffer; sizes, strides, offsets and scalar values are launch arguments.

use super::expr::Expr;
use crate::dtype::DType;

/// Elementwise map: every output element is an expression of the input elements at the same
/// index. Tensors are addressed through per-tensor strides over one shared shape.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MapKernel {
    /// Input dtypes, in argument order.
    pub inputs: Vec<DType>,
    /// Scalar argument dtypes.
    pub scalars: Vec<DType>,
    /// One (dtype, value) per output.
    pub outputs: Vec<(DType, Expr)>,
}

/// A reduction's combining operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    Sum,
    Min,
    Max,
}

/// Reduction of one input over its reduced dimensions into one output (one element per kept
/// index). NaN propagates through min and max as in PyTorch.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ReduceKernel {
    pub input: DType,
    pub output: DType,
    pub op: ReduceOp,
}

/// Every kernel pattern. Tensor arguments are the inputs, then the outputs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    Map(MapKernel),
    Reduce(ReduceKernel),
    /// Copies the elements of `input` where `mask` is true, in order, to the contiguous output;
    /// one invocation walks the tensor (a correctness kernel, replaced by a scan later).
    MaskedSelect(DType),
}

impl Kernel {
    /// A short human-readable name for build traces.
    pub fn name(&self) -> String {
        match self {
            Kernel::Map(kernel) => {
                let ins: Vec<&str> = kernel.inputs.iter().map(|d| d.name()).collect();
                let outs: Vec<&str> = kernel.outputs.iter().map(|(d, _)| d.name()).collect();
                format!("map({})->({})", ins.join(","), outs.join(","))
            }
            Kernel::Reduce(kernel) => {
                format!(
                    "reduce_{:?}({})->{}",
                    kernel.op,
                    kernel.input.name(),
                    kernel.output.name()
                )
            }
            Kernel::MaskedSelect(dtype) => format!("masked_select({})", dtype.name()),
        }
    }

    /// The dtypes of the tensor arguments, in argument order.
    pub fn tensor_dtypes(&self) -> Vec<DType> {
        match self {
            Kernel::Map(kernel) => kernel
                .inputs
                .iter()
                .copied()
                .chain(kernel.outputs.iter().map(|(d, _)| *d))
                .collect(),
            Kernel::Reduce(kernel) => vec![kernel.input, kernel.output],
            Kernel::MaskedSelect(dtype) => vec![*dtype, DType::Bool, *dtype],
        }
    }

    /// Number of leading tensor arguments that are only read.
    pub fn input_count(&self) -> usize {
        match self {
            Kernel::Map(kernel) => kernel.inputs.len(),
            Kernel::Reduce { .. } => 1,
            Kernel::MaskedSelect { .. } => 2,
        }
    }
}
