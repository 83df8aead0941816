//! ATen semantics for every backend: broadcasting, type promotion, output sizing, then a
//! kernel launch. `registry` lists every op; `call` reads the glue's arguments.

pub mod accumulate;
pub mod activation;
pub mod advanced_index;
pub mod amp;
pub mod call;
pub mod cat;
pub mod copy;
pub mod factory;
pub mod faults;
pub mod foreach;
pub mod fused_optim;
pub mod histogram;
pub mod index_launch;
pub mod indexing;
pub mod launch;
pub mod layout;
pub mod linalg;
pub mod loss;
pub mod masked_select;
pub mod math;
pub mod nn;
pub mod output;
pub mod pointwise;
pub mod promote;
pub mod random;
pub mod reduce;
pub mod reduce_launch;
pub mod registry;
pub mod sampling;
pub mod scalar;
pub mod scratch;
pub mod shape;
pub mod sort;
pub mod special;
pub mod tensor;
