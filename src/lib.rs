//! Rust core of the mojo PyTorch accelerator backend: runtimes, kernels, ATen op semantics and
//! the C ABI the C++ glue calls.

pub mod config;
pub mod dtype;
pub mod error;
pub mod ffi;
pub mod kernels;
pub mod ops;
mod python;
pub mod runtime;
