//! Matrix products, convolution and attention.

use crate::dtype::DType;

/// Batched matrix product `out = alpha * a @ b + beta * c` (c optional) in 64x64 output
/// tiles: register blocks fed through workgroup memory (any strides), or, when `direct`, fed
/// straight from memory four elements per load (see [`DirectGemm`]); or, when `lanes`, in
/// 32x32 tiles of one subgroup each (see `printer::gemm_lanes`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GemmKernel {
    /// The dtype of `a`, `b` and `c`.
    pub input: DType,
    pub acc: DType,
    pub output: DType,
    /// Whether `c` is read (beta != 0).
    pub with_c: bool,
    pub direct: Option<DirectGemm>,
    /// A group is one subgroup of `printer::GEMM_LANES` invocations, each loading rows of `a`
    /// for all of them to take by broadcast (any strides, float inputs, float32 sums).
    pub lanes: bool,
    /// One invocation per output element, no group memory (when not `direct`): for products
    /// too small or too thin to fill a group's tile.
    pub elements: bool,
}

/// The barrier-free GEMM for devices whose workgroup memory is no faster than their caches
/// (the software device, where every load is a loop over the lanes): float32 operands with a
/// unit stride along one dimension, read as 16-byte vectors along it, every other stride,
/// every offset and the inner size multiples of four elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DirectGemm {
    /// `a` is read along k (row-major) rather than along m (transposed).
    pub a_along_k: bool,
    /// `b` is read along k (transposed, as `x @ w.T` reads `w`) rather than along n.
    pub b_along_k: bool,
}

/// Which product of a convolution an implicit-GEMM kernel computes: the output rows come
/// from the dense operand, the image is gathered (see `printer::conv`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConvPass {
    /// `b[tap, position]` is the image at `position * stride - pad + offset * dilation`: the
    /// forward convolution, and the input gradient of a transposed one.
    Gather,
    /// `b[tap, position]` is the image at `(position + pad - offset * dilation) / stride`
    /// where that divides exactly: the input gradient, and the transposed convolution.
    Transposed,
    /// `b[position, tap]` as for `Gather`: the weight gradient, summed over positions.
    Weight,
}

/// A convolution product as an implicit GEMM: tensor arguments are the dense operand and
/// the image (both `input`), the bias (when `bias`, of `input`), then the output.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ConvKernel {
    pub input: DType,
    pub acc: DType,
    pub output: DType,
    pub pass: ConvPass,
    /// Whether a bias per output row (of the whole, ungrouped matrix) is added before rounding.
    pub bias: bool,
    /// One invocation per output element instead of tiles: for products with a few rows
    /// per group (depthwise convolutions), whose tiles would be mostly empty.
    pub direct: bool,
    /// A direct transposed pass with a stride other than 1, whose taps are tested for
    /// divisibility by it (with unit strides the kernel divides nothing).
    pub strided: bool,
}

/// Which part of fused attention a kernel computes (see `printer::attention`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttentionPass {
    /// Per query row and key chunk: the chunk's running maximum, sum and unnormalised output.
    Forward,
    /// Per query row: the chunks' partial results combined into the output and logsumexp.
    Combine,
    /// Per query row and key chunk: the query gradient's partial sum (and `delta`, the row's
    /// `sum(grad_out * out)`).
    Query,
    /// Per key row and query chunk: the key and value gradients' partial sums.
    KeyValue,
}

/// A tensor argument of an attention kernel; each has fixed launch words (`word`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttentionTensor {
    Query,
    Key,
    Value,
    Bias,
    GradOut,
    Out,
    Partial,
    LogSumExp,
    Delta,
    GradQuery,
    GradKey,
    GradValue,
}

impl AttentionTensor {
    /// The first launch word of this tensor: its offset, then (for `[B, H, T, D]` tensors of
    /// the attention dtype) four element strides; the float32 work tensors are contiguous.
    pub fn word(self) -> u32 {
        use AttentionTensor::*;
        match self {
            Query => 15,
            Key => 20,
            Value => 25,
            Bias => 30,
            GradOut => 35,
            Out => 40,
            Partial => 45,
            LogSumExp => 46,
            Delta => 47,
            GradQuery => 48,
            GradKey => 49,
            GradValue => 50,
        }
    }

    /// Whether the tensor is a float32 work tensor (else of the attention dtype, strided).
    pub fn is_work(self) -> bool {
        self.word() >= AttentionTensor::Partial.word()
    }
}

/// A pass of fused scaled dot-product attention over `[B, H, T, D]` tensors of `dtype`,
/// accumulating in float32; `bias` says whether an additive mask is read, `dropout` whether
/// the probabilities are dropped by a Philox mask (launch words 51..57).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AttentionKernel {
    pub dtype: DType,
    pub pass: AttentionPass,
    pub bias: bool,
    pub dropout: bool,
}

impl AttentionKernel {
    /// The tensor arguments in order, and how many of them are inputs.
    pub fn tensors(&self) -> (Vec<AttentionTensor>, usize) {
        use AttentionTensor::*;
        let qkv = |extra: &[AttentionTensor]| {
            let mut v = vec![Query, Key, Value];
            if self.bias {
                v.push(Bias);
            }
            v.extend_from_slice(extra);
            v
        };
        let (mut all, outputs): (Vec<_>, &[AttentionTensor]) = match self.pass {
            AttentionPass::Forward => (qkv(&[]), &[Partial]),
            AttentionPass::Combine => (vec![Partial], &[Out, LogSumExp]),
            AttentionPass::Query => (qkv(&[GradOut, Out, LogSumExp]), &[GradQuery, Delta]),
            AttentionPass::KeyValue => (qkv(&[GradOut, LogSumExp, Delta]), &[GradKey, GradValue]),
        };
        let inputs = all.len();
        all.extend_from_slice(outputs);
        (all, inputs)
    }
}
