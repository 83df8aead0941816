//! ATen semantics for every backend: broadcasting, type promotion, output sizing, then a
//! kernel launch, one folder per family of ops. `core::registry` lists every op;
//! `core::call` reads the glue's arguments.

pub mod core;
pub mod distributed;
pub mod elementwise;
pub mod index;
pub mod linalg;
pub mod nn;
pub mod optim;
pub mod random;
pub mod reduce;
pub mod shape;
