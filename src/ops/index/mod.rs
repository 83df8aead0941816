//! Indexing: gathers and scatters along a dimension, advanced indexing, accumulating scatters,
//! masked selection, membership tests, counting.

pub mod accumulate;
pub mod advanced_index;
pub mod element_moves;
pub mod histogram;
pub mod index_fill;
pub mod index_launch;
pub mod indexing;
pub mod masked_select;
pub mod membership;
pub mod take_put;
