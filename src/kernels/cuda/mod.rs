//! The CUDA C++ renderer: turns a [`Kernel`] into source for NVRTC. Tensors are byte pointers
//! (one kernel parameter each, the storage offset already applied); launch arguments are the
//! same u32 words as on wgpu, passed by value in a `Words` struct. Half types are stored as
//! 16-bit patterns and computed in float, as on wgpu, so no CUDA header is needed.

mod expr;
mod foreach;
mod gemm;
mod indexing;
mod patterns;
mod random;

pub use patterns::{render, BLOCK_SIZE, ENTRY, MAX_WORDS};
