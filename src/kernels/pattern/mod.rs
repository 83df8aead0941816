//! Kernel patterns. A kernel is specialised on dtypes, expressions and which tensors share a
//! buffer; sizes, strides, offsets and scalar values are launch arguments.

mod index;
mod map;
mod products;
mod random;
mod reduce;
mod sort;

pub use index::*;
pub use map::*;
pub use products::*;
pub use random::*;
pub use reduce::*;
pub use sort::*;

use super::fused::FusedKernel;
use crate::dtype::DType;

/// Every kernel pattern. Tensor arguments are the inputs, then the outputs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    Map(MapKernel),
    /// A map over rows (one or two dimensions) whose length is a multiple of four (or one
    /// row of any length), several elements per work item ([`MapKernel::vector_lanes`]) four
    /// at a time: 16-byte loads and stores of the float32/int32 tensors that run along the row
    /// (unit stride, 16-byte aligned rows), one load per row of the `Splat` inputs (a bias
    /// over rows, a per-row mean); the 16 bytes at a time of its tensors of under four bytes
    /// where they are [`Aligned16`].
    MapVector(MapKernel, Splat, Aligned16),
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
            Kernel::Map(k) | Kernel::MapVector(k, ..) => format!(
                "map{}({})->({})",
                match self {
                    Kernel::MapVector(_, Splat(0), _) => "4".to_string(),
                    Kernel::MapVector(_, Splat(bits), _) => format!("4_splat{bits:b}"),
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
                match k.runs {
                    Runs::Sorted => "",
                    Runs::Presorted => "_presorted",
                    Runs::Scanned => "_scanned",
                },
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
                if k.each && k.by_fours {
                    "reduction_each_fours"
                } else if k.each {
                    "reduction_each"
                } else if k.reduction {
                    "reduction"
                } else if k.by_fours {
                    "pointwise_fours"
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
            Kernel::Map(k) | Kernel::MapVector(k, ..) => k
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
            Kernel::Map(k) | Kernel::MapVector(k, ..) => k.inputs.len(),
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
