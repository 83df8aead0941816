//! The shared core of every op: the glue's call and its arguments, tensors as the ops layer sees
//! them, type promotion, broadcasting, scalars, outputs, scratch, device faults, the pointwise
//! core, launch arguments, the op table, and launches of compiled kernels.

pub mod call;
pub mod compiled;
pub mod faults;
pub mod launch;
pub mod layout;
pub mod output;
pub mod pointwise;
pub mod promote;
pub mod registry;
pub mod scalar;
pub mod scratch;
pub mod tensor;
