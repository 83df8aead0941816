//! Temporary device tensors owned by an op, freed when dropped.

use crate::dtype::DType;
use crate::error::Result;
use crate::ops::core::tensor::TensorRef;
use crate::runtime::backend;

/// A contiguous device tensor that lives for the duration of an op.
pub struct Scratch {
    pub tensor: TensorRef,
}

impl Scratch {
    /// Allocates a contiguous tensor of `sizes` and `dtype` on `device`.
    pub fn contiguous(device: usize, sizes: &[i64], dtype: DType) -> Result<Self> {
        let numel: i64 = sizes.iter().product();
        let address = backend()?.allocate(device, (numel.max(1) as u64) * dtype.size() as u64)?;
        Ok(Scratch {
            tensor: TensorRef {
                address,
                sizes: sizes.to_vec().into(),
                strides: TensorRef::contiguous_strides(sizes).into(),
                dtype,
                device,
            },
        })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Ok(b) = backend() {
            let _ = b.free(self.tensor.address);
        }
    }
}
