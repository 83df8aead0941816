//! Linear algebra on the device: matrix products (the factorizations are composed in Python).

pub mod library;
pub mod products;
