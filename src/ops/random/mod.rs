//! Random draws with CUDA's numbers, and the sampling ops composed from them.

pub mod draws;
pub mod sampling;
