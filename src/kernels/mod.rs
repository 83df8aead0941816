//! Kernel descriptions (patterns × the scalar expression language) and their renderers.

pub mod bessel;
pub mod cache;
pub mod compile;
pub mod complex;
pub mod cuda;
pub mod divisors;
pub mod expr;
pub mod float8;
pub mod function_tables;
pub mod functions;
pub mod fused;
pub mod incomplete_gamma;
pub mod next_after;
pub mod nvrtc;
pub mod pattern;
pub mod polynomials;
pub mod printer;
pub mod special;
pub mod wgsl;

pub use expr::{BinaryOp, Expr, UnaryOp};
pub use pattern::{
    Accumulate, AccumulateKernel, AccumulateKeysKernel, Aligned16, AttentionKernel, AttentionPass,
    AttentionTensor, ConvKernel, ConvPass, DirectGemm, Distribution, Elementwise, ForeachKernel,
    GemmKernel, IndexKernel, Kernel, MapKernel, Mapping, RadixDigit, RadixKernel, RandomKernel,
    ReduceKernel, ReduceOp, Runs, ScanKernel, SortKernel, Splat,
};
