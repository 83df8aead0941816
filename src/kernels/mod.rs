//! Kernel descriptions (patterns × the scalar expression language) and their renderers.

pub mod expr;
pub mod pattern;
pub mod wgsl;

pub use expr::{BinaryOp, Expr, UnaryOp};
pub use pattern::{Kernel, MapKernel, ReduceKernel, ReduceOp, ScanKernel};
