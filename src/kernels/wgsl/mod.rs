//! The WGSL renderer: turns a [`Kernel`] into a compute shader. Every tensor binding is an array
//! of 32-bit words; a binding that receives sub-word stores is atomic so that neighbouring
//! elements in one word are never lost. Launch arguments live in binding 0 as u32 words.

mod access;
pub mod dtype;
mod emulated_f64;
mod expr;
mod foreach;
mod gemm;
mod indexing;
mod math;
mod patterns;
pub mod random;

pub use gemm::TILE as GEMM_TILE;
pub use indexing::MAX_INDEX_DIMS;
pub use patterns::{render, WORKGROUP_SIZE};
