//! Kernel patterns. A kernel is specialised on dtypes, expressions and which tensors share a
//! buffer; sizes, strides, offsets and scalar values are launch arguments.

use super::expr::{BinaryOp, Expr, UnaryOp};
use super::fused::FusedKernel;
use crate::dtype::DType;
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

/// The inputs of a [`Kernel::MapVector`] read one element per row (their stride along the
/// row is zero: a per-row statistic, or a scalar): bit `t` for input `t`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Splat(pub u32);

impl Splat {
    pub fn has(self, t: usize) -> bool {
        (self.0 >> t) & 1 != 0
    }
}

impl MapKernel {
    /// Elements per work item of a [`Kernel::MapVector`] with inputs `splat` read once per
    /// row: 16 bytes of its narrowest tensor along the row on a GPU (4 float32, 16 uint8), 64
    /// on a `cpu`, where an item costs more than its bytes (16M adds on the software device,
    /// 16 -> 64 bytes per item: float32 19 -> 12 ms, uint8 14 -> 7 ms).
    pub fn vector_lanes(&self, splat: Splat, cpu: bool) -> u32 {
        let along_rows = (self.inputs.iter().enumerate())
            .filter(|&(t, _)| !splat.has(t))
            .map(|(_, d)| d)
            .chain(self.outputs.iter().map(|(d, _)| d));
        let narrowest = along_rows.map(|d| d.size()).min().unwrap_or(4).clamp(1, 4);
        let bytes = if cpu { 64 } else { 16 };
        bytes / narrowest as u32
    }

    /// Whether an output runs a loop whose length depends on the values (one element per
    /// invocation then: the software device bounds each invocation's loop steps).
    pub fn loops(&self) -> bool {
        self.outputs.iter().any(|(_, e)| e.loops())
    }
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
/// With `presorted` the values come sorted and the runs from the sort's counts (see
/// `printer::index::accumulate`).
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
    /// The values were moved into key order by one radix pass (`sort_launch::run_presort`),
    /// whose scanned digit counts give each key's run: no keys, permutation or run starts.
    pub presorted: bool,
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

/// What a random kernel draws (PyTorch's CUDA transforms of cuRAND's Philox4x32-10 output).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Distribution {
    /// `from + u * range` (scalars `from`, `range`, `to`), `to` folded back to `from`.
    Uniform,
    /// Box-Muller normals, `mean + n * std` (scalars `mean`, `std`).
    Normal,
    /// `from + v % range` over 32-bit draws, or 64-bit ones when `wide` (scalars `from`,
    /// `range` as int64).
    Integer {
        wide: bool,
    },
    /// `u < p` (scalar `p`).
    Bernoulli,
    /// Dropout of input 0: a mask `u < keep` (scalars `keep`, `scale`) and `x * mask * scale`.
    Dropout,
    /// `u <= p` with `p` the element of input 0 (of dtype `p`).
    BernoulliTensor {
        p: DType,
    },
    /// `exp` of a normal (scalars `mean`, `std`).
    LogNormal,
    /// A transform of one uniform: `exponential` (scalar `lambda`), `geometric` (scalar `p`),
    /// `cauchy` (scalars `median`, `sigma`), in PyTorch's CUDA form.
    Exponential,
    Geometric,
    Cauchy,
    /// A Poisson count with the rate of input 0's element: multiplied uniforms below rate 10,
    /// Hörmann's transformed rejection (PTRS) above. Element `i` draws its own Philox
    /// subsequence `i`, block after block, as many as it needs.
    Poisson,
    /// randperm's pass over runs of equal sort keys (input 0, int64, sorted): the thread at
    /// the start of a run shuffles the run's slice of tensor 1 (int64) with Fisher-Yates,
    /// drawing 32-bit values from Philox subsequence = its index, as CUDA does.
    IslandShuffle,
}

/// Which element takes which Philox draw: CUDA's grid-stride kernel with `unroll` draws per
/// block (`Grid`), or its vectorised dropout kernel with `width` elements per thread step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mapping {
    Grid {
        unroll: u32,
    },
    Vector {
        width: u32,
    },
    /// `bernoulli_(Tensor)`: thread `i / 4` takes one block, component `i % 4`.
    Quad,
}

/// Random numbers identical to CUDA's for a seed and offset: element `i` (row-major) takes
/// subsequence, block and component from `mapping`. Tensor arguments: the dropout input, if
/// any, then the output (and the dropout mask).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RandomKernel {
    pub dtype: DType,
    pub distribution: Distribution,
    pub mapping: Mapping,
    /// Draw float64 uniforms (two per Philox block) instead of float32.
    pub double: bool,
}

impl RandomKernel {
    /// The scalar argument dtypes.
    pub fn scalars(&self) -> Vec<DType> {
        let acc = if self.double || self.dtype == DType::F64 {
            DType::F64
        } else {
            DType::F32
        };
        match self.distribution {
            Distribution::Uniform => vec![acc, acc, self.dtype],
            Distribution::Normal
            | Distribution::Dropout
            | Distribution::LogNormal
            | Distribution::Cauchy => vec![acc, acc],
            Distribution::Exponential | Distribution::Geometric => vec![acc],
            Distribution::BernoulliTensor { .. }
            | Distribution::Poisson
            | Distribution::IslandShuffle => vec![],
            Distribution::Integer { .. } => vec![DType::I64, DType::I64],
            Distribution::Bernoulli => vec![acc],
        }
    }
}

impl RandomKernel {
    /// Whether the transform reads the uniform's logarithm (input 1).
    pub fn uses_log(&self) -> bool {
        matches!(
            self.distribution,
            Distribution::Exponential | Distribution::Geometric
        )
    }

    /// The accumulation dtype the draws are transformed in.
    pub fn acc(&self) -> DType {
        if self.double || self.dtype == DType::F64 {
            DType::F64
        } else {
            DType::F32
        }
    }

    /// For the one-uniform transforms: the value from the uniform (input 0), its logarithm as
    /// CUDA computes it (input 1, see [`RandomKernel::uses_log`]) and the scalars.
    pub fn transform(&self) -> Option<Expr> {
        let acc = self.acc();
        let u = Expr::input(0, acc);
        let log_u = Expr::input(1, acc);
        let c = |v: f64| Expr::constant(acc, v);
        let (s0, s1) = (Expr::scalar(0, acc), Expr::scalar(1, acc));
        let epsilon = if acc == DType::F64 {
            f64::EPSILON
        } else {
            f64::from(f32::EPSILON)
        };
        Some(match self.distribution {
            Distribution::Exponential => {
                // log(u), but -eps/2 near 1 so that half results never round to 0.
                let log = u
                    .clone()
                    .ge(c(1.0 - epsilon / 2.0))
                    .select(c(-epsilon / 2.0), log_u);
                (c(-1.0) / s0) * log
            }
            Distribution::Geometric => (log_u / (-s0).unary(UnaryOp::Log1p)).unary(UnaryOp::Ceil),
            Distribution::Cauchy => {
                let clipped = if acc == DType::F64 {
                    u
                } else {
                    u.min(c(1.0 - epsilon)).max(c(epsilon))
                };
                s0 + s1 * (c(std::f64::consts::PI) * (clipped - c(0.5))).unary(UnaryOp::Tan)
            }
            _ => return None,
        })
    }
}

/// Every kernel pattern. Tensor arguments are the inputs, then the outputs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    Map(MapKernel),
    /// A map over rows (one or two dimensions) whose length is a multiple of four (or one
    /// row of any length), several elements per work item ([`MapKernel::vector_lanes`]) four
    /// at a time: 16-byte loads and stores of the float32/int32 tensors that run along the row
    /// (unit stride, 16-byte aligned rows), one load per row of the `Splat` inputs (a bias
    /// over rows, a per-row mean).
    MapVector(MapKernel, Splat),
    /// A group per output (chunk): its invocations split the reduced elements.
    Reduce(ReduceKernel),
    /// An invocation per output (chunk): for many outputs whose reduced elements are strided
    /// (neighbouring invocations read neighbouring elements) or few.
    ReduceEach(ReduceKernel),
    Scan(ScanKernel),
    Gemm(GemmKernel),
    Conv(ConvKernel),
    Attention(AttentionKernel),
    /// Copies the elements of `input` where `mask` is true, in order, to the contiguous output,
    /// each to the place its inclusive count of set mask elements (an int64 tensor) gives.
    MaskedSelect(DType),
    Index(IndexKernel),
    Accumulate(AccumulateKernel),
    AccumulateKeys(AccumulateKeysKernel),
    /// Where each key's run starts in sorted keys (int32 or int64): a table indexed by key.
    /// Tensor arguments: the sorted keys, the table (int32).
    RunStarts(DType),
    Sort(SortKernel),
    /// One merge pass over contiguous `[lines, len]` keys and int64 indices: runs of `width`
    /// sorted elements are merged pairwise, stably, each element finding its place by a
    /// binary search in the other run. Tensor arguments: keys, indices, merged keys, merged
    /// indices.
    Merge(SortKernel),
    /// The first kernel of a radix pass over contiguous `[lines, len]` keys: each
    /// invocation counts the digits of a tile of a line. Tensor arguments: keys, the lines'
    /// selection state (int32 `[lines, 2]`, only for selections), counts (int32,
    /// `[lines][digit][tile]`), the fault word (only for `RadixDigit::Target`).
    RadixCount(RadixKernel),
    /// The second: each invocation moves a tile's keys and indices to their digit's places,
    /// which the scanned counts give. Tensor arguments: keys, indices, counts, scanned
    /// counts, the selection state (only for selections), moved keys, moved indices.
    RadixScatter(RadixKernel),
    /// Selection's step between radix passes: per line, the digit whose bucket holds the
    /// line's remaining rank, from the digit counts summed over the line. Tensor arguments:
    /// the sums (int32 `[lines, 256]`), the selection state (int32 `[lines, 2]`).
    RadixPick,
    /// One round of a top-k selection over contiguous `[lines, len]` candidates (`descending`:
    /// the largest): each invocation keeps the best `k` of a tile of a line, sorted, as radix
    /// keys and indices. Tensor arguments: the input values, candidate keys and indices
    /// (int32, read after the first round), kept keys and indices (int32), and, written by
    /// the last round, the values and indices (int64) of the top `k`.
    TopTiles(SortKernel),
    Foreach(ForeachKernel),
    Random(RandomKernel),
    /// A kernel `torch.compile` generated.
    Fused(std::sync::Arc<FusedKernel>),
}

impl Kernel {
    /// A short human-readable name for build traces.
    pub fn name(&self) -> String {
        let names = |ds: &mut dyn Iterator<Item = DType>| -> String {
            ds.map(|d| d.name()).collect::<Vec<_>>().join(",")
        };
        match self {
            Kernel::Map(k) | Kernel::MapVector(k, _) => format!(
                "map{}({})->({})",
                match self {
                    Kernel::MapVector(_, Splat(0)) => "4".to_string(),
                    Kernel::MapVector(_, Splat(bits)) => format!("4_splat{bits:b}"),
                    _ => String::new(),
                },
                names(&mut k.inputs.iter().copied()),
                names(&mut k.outputs.iter().map(|o| o.0))
            ),
            Kernel::Reduce(k) | Kernel::ReduceEach(k) => format!(
                "reduce{}_{:?}({})->({})",
                if matches!(self, Kernel::ReduceEach(_)) {
                    "_each"
                } else {
                    ""
                },
                k.op,
                k.input.name(),
                names(
                    &mut k
                        .outputs
                        .iter()
                        .map(|o| o.0)
                        .chain(k.elementwise.as_ref().map(|e| e.dtype))
                )
            ),
            Kernel::Scan(k) => format!("scan_{:?}({})->{}", k.op, k.input.name(), k.output.name()),
            Kernel::Gemm(k) => format!(
                "gemm{}{}({})->{}",
                if k.with_c { "_c" } else { "" },
                match k.direct {
                    None if k.lanes => "_lanes".to_string(),
                    None => String::new(),
                    Some(d) => format!(
                        "_direct_{}{}{}",
                        if d.a_along_k { "k" } else { "m" },
                        if d.b_along_k { "k" } else { "n" },
                        if k.lanes { "_lanes" } else { "" },
                    ),
                },
                k.input.name(),
                k.output.name()
            ),
            Kernel::Conv(k) => format!(
                "conv_{:?}{}{}({})->{}",
                k.pass,
                if k.bias { "_bias" } else { "" },
                if k.direct { "_direct" } else { "" },
                k.input.name(),
                k.output.name()
            ),
            Kernel::Attention(k) => format!(
                "attention_{:?}{}{}({})",
                k.pass,
                if k.bias { "_bias" } else { "" },
                if k.dropout { "_dropout" } else { "" },
                k.dtype.name()
            ),
            Kernel::MaskedSelect(dtype) => format!("masked_select({})", dtype.name()),
            Kernel::Index(k) => format!(
                "{}{}({};{})",
                if k.scatter { "scatter" } else { "gather" },
                match k.fours {
                    0 => String::new(),
                    fours => (4 * fours).to_string(),
                },
                k.dtype.name(),
                names(&mut k.indices.iter().copied())
            ),
            Kernel::Accumulate(k) => format!(
                "accumulate_{:?}{}{}({})",
                k.op,
                if k.include_self { "" } else { "_fresh" },
                if k.presorted { "_presorted" } else { "" },
                k.dtype.name(),
            ),
            Kernel::AccumulateKeys(k) => {
                format!(
                    "accumulate_keys({})->{}",
                    names(&mut k.indices.iter().copied()),
                    k.key.name()
                )
            }
            Kernel::RunStarts(key) => format!("run_starts({})", key.name()),
            Kernel::Foreach(k) => format!(
                "foreach{}({})->({})",
                k.chunk,
                names(&mut k.inputs.iter().map(|i| i.0)),
                names(&mut k.outputs.iter().map(|o| o.0))
            ),
            Kernel::Random(k) => format!(
                "random_{:?}_{:?}({})",
                k.distribution,
                k.mapping,
                k.dtype.name()
            ),
            Kernel::Sort(k) => format!(
                "sort{}({})",
                if k.descending { "_descending" } else { "" },
                k.dtype.name()
            ),
            Kernel::Merge(k) => format!(
                "merge{}({})",
                if k.descending { "_descending" } else { "" },
                k.dtype.name()
            ),
            Kernel::RadixCount(k) | Kernel::RadixScatter(k) => format!(
                "radix_{}_{}{}{}({})",
                if matches!(self, Kernel::RadixCount(_)) {
                    "count"
                } else {
                    "scatter"
                },
                match k.digit {
                    RadixDigit::Target { wrap: true } => "TargetWrapped".to_string(),
                    RadixDigit::Target { wrap: false } => "Target".to_string(),
                    digit => format!("{digit:?}"),
                },
                if k.descending { "_descending" } else { "" },
                if k.keep_keys { "" } else { "_moving" },
                k.dtype.name()
            ),
            Kernel::RadixPick => "radix_pick".to_string(),
            Kernel::TopTiles(k) => format!(
                "top_tiles{}({})",
                if k.descending { "_largest" } else { "" },
                k.dtype.name()
            ),
            Kernel::Fused(k) => format!(
                "fused_{}({})",
                if k.each {
                    "reduction_each"
                } else if k.reduction {
                    "reduction"
                } else {
                    "pointwise"
                },
                names(&mut k.tensors.iter().copied())
            ),
        }
    }

    /// Every pattern's name, in the order of [`Kernel::pattern`].
    pub const PATTERNS: [&'static str; 22] = [
        "map",
        "reduce",
        "scan",
        "gemm",
        "masked_select",
        "index",
        "accumulate",
        "sort",
        "foreach",
        "random",
        "merge",
        "accumulate_keys",
        "reduce_each",
        "map_vector",
        "conv",
        "attention",
        "radix_count",
        "radix_scatter",
        "run_starts",
        "radix_pick",
        "fused",
        "top_tiles",
    ];

    /// The pattern's number in [`Kernel::PATTERNS`].
    pub fn pattern(&self) -> usize {
        match self {
            Kernel::Map(_) => 0,
            Kernel::Reduce(_) => 1,
            Kernel::Scan(_) => 2,
            Kernel::Gemm(_) => 3,
            Kernel::MaskedSelect(_) => 4,
            Kernel::Index(_) => 5,
            Kernel::Accumulate(_) => 6,
            Kernel::Sort(_) => 7,
            Kernel::Foreach(_) => 8,
            Kernel::Random(_) => 9,
            Kernel::Merge(_) => 10,
            Kernel::AccumulateKeys(_) => 11,
            Kernel::ReduceEach(_) => 12,
            Kernel::MapVector(..) => 13,
            Kernel::Conv(_) => 14,
            Kernel::Attention(_) => 15,
            Kernel::RadixCount(_) => 16,
            Kernel::RadixScatter(_) => 17,
            Kernel::RunStarts(_) => 18,
            Kernel::RadixPick => 19,
            Kernel::Fused(_) => 20,
            Kernel::TopTiles(_) => 21,
        }
    }

    /// The dtypes of the tensor arguments, in argument order.
    pub fn tensor_dtypes(&self) -> Vec<DType> {
        match self {
            Kernel::Map(k) | Kernel::MapVector(k, _) => k
                .inputs
                .iter()
                .copied()
                .chain(k.outputs.iter().map(|(d, _)| *d))
                .collect(),
            Kernel::Reduce(k) | Kernel::ReduceEach(k) => std::iter::once(k.input)
                .chain(k.indexed.then_some(DType::I64))
                .chain(k.per_output)
                .chain(k.outputs.iter().map(|(d, _)| *d))
                .chain(k.elementwise.as_ref().map(|e| e.dtype))
                .collect(),
            Kernel::Scan(k) => std::iter::once(k.input)
                .chain(k.carry.then_some(k.acc))
                .chain([k.output])
                .collect(),
            Kernel::Gemm(k) => {
                let inputs = if k.with_c { 3 } else { 2 };
                let mut dtypes = vec![k.input; inputs];
                dtypes.push(k.output);
                dtypes
            }
            Kernel::Conv(k) => {
                let inputs = if k.bias { 3 } else { 2 };
                let mut dtypes = vec![k.input; inputs];
                dtypes.push(k.output);
                dtypes
            }
            Kernel::Attention(k) => k
                .tensors()
                .0
                .iter()
                .map(|t| if t.is_work() { DType::F32 } else { k.dtype })
                .collect(),
            Kernel::MaskedSelect(dtype) => vec![*dtype, DType::Bool, DType::I64, *dtype],
            Kernel::Index(k) => std::iter::once(k.dtype)
                .chain(k.indices.iter().copied())
                .chain([k.dtype, DType::I32])
                .collect(),
            Kernel::Accumulate(k) => [k.dtype, k.dtype, k.index, k.index, DType::I32, k.dtype]
                .into_iter()
                .chain(k.chunked.then_some(DType::I32))
                .collect(),
            Kernel::AccumulateKeys(k) => k
                .indices
                .iter()
                .copied()
                .chain([k.key, DType::I32])
                .collect(),
            Kernel::Sort(k) => vec![k.dtype, k.dtype, DType::I64],
            Kernel::Merge(k) => vec![k.dtype, DType::I64, k.dtype, DType::I64],
            Kernel::RadixCount(k) => std::iter::once(k.dtype)
                .chain(k.selects().then_some(DType::I32))
                .chain([DType::I32])
                .chain(k.targets().then_some(DType::I32))
                .collect(),
            Kernel::RunStarts(key) => vec![*key, DType::I32],
            Kernel::RadixPick => vec![DType::I32, DType::I32],
            Kernel::TopTiles(k) => vec![
                k.dtype,
                DType::I32,
                DType::I32,
                DType::I32,
                DType::I32,
                k.dtype,
                DType::I64,
            ],
            Kernel::RadixScatter(k) => [k.dtype, k.positions, DType::I32, DType::I32]
                .into_iter()
                .chain(k.selects().then_some(DType::I32))
                .chain([k.dtype, k.positions])
                .collect(),
            Kernel::Random(k) if k.distribution == Distribution::Dropout => {
                vec![k.dtype, k.dtype, DType::Bool]
            }
            Kernel::Random(RandomKernel {
                distribution: Distribution::BernoulliTensor { p },
                dtype,
                ..
            }) => vec![*p, *dtype],
            Kernel::Random(k)
                if matches!(
                    k.distribution,
                    Distribution::Poisson | Distribution::IslandShuffle
                ) =>
            {
                vec![k.dtype, k.dtype]
            }
            Kernel::Random(k) => vec![k.dtype],
            Kernel::Fused(k) => {
                let fault = (!k.checks.is_empty()).then_some(DType::I32);
                k.tensors.iter().copied().chain(fault).collect()
            }
            Kernel::Foreach(k) => k
                .inputs
                .iter()
                .map(|i| i.0)
                .chain(k.outputs.iter().map(|o| o.0))
                .flat_map(|d| std::iter::repeat_n(d, k.chunk))
                .collect(),
        }
    }

    /// Number of leading tensor arguments that are only read.
    pub fn input_count(&self) -> usize {
        match self {
            Kernel::Map(k) | Kernel::MapVector(k, _) => k.inputs.len(),
            Kernel::Reduce(k) | Kernel::ReduceEach(k) => {
                1 + usize::from(k.indexed) + usize::from(k.per_output.is_some())
            }
            Kernel::Scan(k) => 1 + usize::from(k.carry),
            Kernel::MaskedSelect(_) => 3,
            Kernel::Merge(_) => 2,
            Kernel::Gemm(k) => 2 + usize::from(k.with_c),
            Kernel::Conv(k) => 2 + usize::from(k.bias),
            Kernel::Attention(k) => k.tensors().1,
            Kernel::Index(k) => 1 + k.indices.len(),
            Kernel::Accumulate(_) => 5,
            Kernel::RunStarts(_) => 1,
            Kernel::AccumulateKeys(k) => k.indices.len(),
            Kernel::Sort(_) | Kernel::RadixPick => 1,
            Kernel::TopTiles(_) => 3,
            Kernel::RadixCount(k) => 1 + usize::from(k.selects()),
            Kernel::RadixScatter(k) => 3 + usize::from(k.selects()),
            Kernel::Foreach(k) => k.inputs.len() * k.chunk,
            Kernel::Fused(k) => k.inputs,
            Kernel::Random(k) => usize::from(matches!(
                k.distribution,
                Distribution::Dropout
                    | Distribution::BernoulliTensor { .. }
                    | Distribution::Poisson
            )),
        }
    }
}
