//! ATen semantics for every backend: broadcasting, type promotion, output sizing, then a
//! kernel launch.

pub mod cat;
pub mod copy;
pub mod elementwise;
pub mod launch;
pub mod layout;
pub mod masked_select;
pub mod output;
pub mod promote;
pub mod reduce;
pub mod scalar;
pub mod scratch;
pub mod tensor;
