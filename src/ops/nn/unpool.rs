//! Max unpooling 2d/3d (`nn.MaxUnpool1d` reaches the 2d op): each input element is written to
//! the position of its plane that its index names, every other position is zero; where
//! indices repeat, the last in index order wins (deterministically; the CPU's choice there
//! depends on its thread schedule). The backward gathers through
//! the same indices (PyTorch's formula, with mojo's gather).

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::Accumulate;
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::registry::OpFn;
use crate::ops::nn::pool::scatter_to_indices;

pub const OPS: &[(&str, OpFn)] = &[
    ("max_unpool2d", |c| max_unpool(c, 2, Dest::New)),
    ("max_unpool2d.out", |c| max_unpool(c, 2, Dest::Arg(3))),
    ("max_unpool3d", |c| max_unpool(c, 3, Dest::New)),
    ("max_unpool3d.out", |c| max_unpool(c, 3, Dest::Arg(5))),
];

/// `max_unpool2d(self, indices, output_size)`, `max_unpool3d(self, indices, output_size,
/// stride, padding)`.
fn max_unpool(call: &mut Call, dims: usize, dest: Dest) -> Result<()> {
    let (x, indices) = (call.tensor(0)?, call.tensor(1)?);
    let output_size = call.ints(2)?;
    let name = format!("max_unpooling{dims}d");
    if indices.dtype != DType::I64 {
        return Err(Error::runtime(format!(
            "elements in indices should be type int64 but got: {}",
            indices.dtype.torch_name()
        )));
    }
    if x.sizes != indices.sizes {
        return Err(Error::runtime(format!(
            "Expected shape of indices to be same as that of the input tensor ({:?}) but got indices tensor with shape: {:?}",
            x.sizes, indices.sizes
        )));
    }
    if output_size.len() != dims {
        let what = if dims == 2 {
            "two elements (height, width)"
        } else {
            "three elements (depth, height, width)"
        };
        return Err(Error::runtime(format!(
            "There should be exactly {what} in output_size, but got {} elements.",
            output_size.len()
        )));
    }
    let rank = x.sizes.len();
    if rank != dims + 1 && rank != dims + 2 {
        return Err(Error::runtime(format!(
            "Input to {name} should be a {}d or {}d Tensor, but got a tensor with {rank} dimensions.",
            dims + 1,
            dims + 2
        )));
    }
    if x.sizes[rank - dims..].contains(&0) {
        return Err(Error::runtime(format!(
            "{name}(): Expected input to have non-zero size for non-batch dimensions, but got {:?}.",
            x.sizes
        )));
    }
    let mut sizes = x.sizes[..rank - dims].to_vec();
    sizes.extend(&output_size);
    let out = call.result(dest, &sizes, x.dtype, x.device)?;
    scatter_to_indices(&x, &indices, &out, dims, Accumulate::Assign, &name)
}
