//! Linear algebra on the device: matrix products and Fourier transforms through the device's
//! libraries (the factorizations are composed in Python).

pub mod fft;
pub mod library;
pub mod products;
