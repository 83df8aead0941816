//! Optimizer steps: the foreach ops, fused Adam/AdamW/SGD, GradScaler's kernels.

pub mod amp;
pub mod foreach;
pub mod fused_optim;
