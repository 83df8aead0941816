//! Reductions: full min and max, and the counting sum masked_select needs.

use super::launch::run_reduce;
use super::tensor::TensorRef;
use crate::error::{Error, Result};
use crate::kernels::{ReduceKernel, ReduceOp};

/// `out = op(a)` over every element (`torch.min(a)`, `torch.max(a)`); `out` is zero-dimensional.
pub fn reduce_all(op: ReduceOp, a: &TensorRef, out: &TensorRef) -> Result<()> {
    if a.numel() == 0 && op != ReduceOp::Sum {
        let name = if op == ReduceOp::Min { "min" } else { "max" };
        return Err(Error::runtime(format!(
            "{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."
        )));
    }
    let kernel = ReduceKernel {
        input: a.dtype,
        output: out.dtype,
        op,
    };
    run_reduce(kernel, a, out, &vec![true; a.sizes.len()])
}
