//! Ops that move or create elements without arithmetic: rearrangements, cat, pads, sliding
//! blocks, factories, copies and fills.

pub mod cat;
pub mod copy;
pub mod factory;
pub mod pad;
pub mod rearrange;
pub mod unfold;
