//! Linear algebra on the device: matrix products, and Fourier transforms and dense
//! factorizations through the device's libraries (the portable factorizations are composed
//! in Python).

pub mod fft;
pub mod library;
pub mod products;
pub mod solver;
