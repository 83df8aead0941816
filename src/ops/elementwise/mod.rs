//! Elementwise math: arithmetic, comparisons, transcendental and special functions, nn
//! activations, complex arithmetic.

pub mod activation;
pub mod complex;
pub mod functions;
pub mod gamma;
pub mod math;
pub mod special;
pub mod unary;
