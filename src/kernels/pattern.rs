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

/// Reduction of one input over its reduced dimensions. Each element is first mapped by `pre`
/// (input 0 is the element) into the accumulator dtype `acc`; each output is an expression of
/// the accumulator (input 0) and the op's second value (input 1). Scalars are shared by both.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ReduceKernel {
    pub input: DType,
    pub scalars: Vec<DType>,
    pub pre: Expr,
    pub op: ReduceOp,
    pub acc: DType,
    pub outputs: Vec<(DType, Expr)>,
}

/// Inclusive scan along one dimension: each thread walks one line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScanKernel {
    pub input: DType,
    pub acc: DType,
    pub output: DType,
    /// Sum or Prod.
    pub op: ReduceOp,
}

/// Batched matrix product `out = alpha * a @ b + beta * c` (c optional), in 8x8 output tiles
/// that stage 8-wide slices of `a` and `b` through workgroup memory. Any strides.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GemmKernel {
    /// The dtype of `a`, `b` and `c`.
    pub input: DType,
    pub acc: DType,
    pub output: DType,
    /// Whether `c` is read (beta != 0).
    pub with_c: bool,
}

/// Every kernel pattern. Tensor arguments are the inputs, then the outputs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    Map(MapKernel),
    Reduce(ReduceKernel),
    Scan(ScanKernel),
    Gemm(GemmKernel),
    /// Copies the elements of `input` where `mask` is true, in order, to the contiguous output;
    /// one invocation walks the tensor (a correctness kernel, replaced by a scan later).
    MaskedSelect(DType),
}

impl Kernel {
    /// A short human-readable name for build traces.
    pub fn name(&self) -> String {
        let names = |ds: &mut dyn Iterator<Item = DType>| -> String {
            ds.map(|d| d.name()).collect::<Vec<_>>().join(",")
        };
        match self {
            Kernel::Map(k) => format!(
                "map({})->({})",
                names(&mut k.inputs.iter().copied()),
                names(&mut k.outputs.iter().map(|o| o.0))
            ),
            Kernel::Reduce(k) => format!(
                "reduce_{:?}({})->({})",
                k.op,
                k.input.name(),
                names(&mut k.outputs.iter().map(|o| o.0))
            ),
            Kernel::Scan(k) => format!("scan_{:?}({})->{}", k.op, k.input.name(), k.output.name()),
            Kernel::Gemm(k) => format!(
                "gemm{}({})->{}",
                if k.with_c { "_c" } else { "" },
                k.input.name(),
                k.output.name()
            ),
            Kernel::MaskedSelect(dtype) => format!("masked_select({})", dtype.name()),
        }
    }

    /// The dtypes of the tensor arguments, in argument order.
    pub fn tensor_dtypes(&self) -> Vec<DType> {
        match self {
            Kernel::Map(k) => k
                .inputs
                .iter()
                .copied()
                .chain(k.outputs.iter().map(|(d, _)| *d))
                .collect(),
            Kernel::Reduce(k) => std::iter::once(k.input)
                .chain(k.outputs.iter().map(|(d, _)| *d))
                .collect(),
            Kernel::Scan(k) => vec![k.input, k.output],
            Kernel::Gemm(k) => {
                let inputs = if k.with_c { 3 } else { 2 };
                let mut dtypes = vec![k.input; inputs];
                dtypes.push(k.output);
                dtypes
            }
            Kernel::MaskedSelect(dtype) => vec![*dtype, DType::Bool, *dtype],
        }
    }

    /// Number of leading tensor arguments that are only read.
    pub fn input_count(&self) -> usize {
        match self {
            Kernel::Map(k) => k.inputs.len(),
            Kernel::Reduce(_) | Kernel::Scan(_) => 1,
            Kernel::MaskedSelect(_) => 2,
            Kernel::Gemm(k) => 2 + usize::from(k.with_c),
        }
    }
}
