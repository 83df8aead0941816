//! Tensors as the ops layer sees them: an address, sizes, strides (in elements) and a dtype.

use crate::dtype::DType;
use crate::error::{Error, Result};

/// Sizes or strides of a tensor: inline up to six dimensions, so that reading a tensor
/// argument allocates nothing.
pub type Dims = smallvec::SmallVec<[i64; 6]>;

/// A tensor argument as the C++ glue passes it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TensorArg {
    pub data: u64,
    pub sizes: *const i64,
    pub strides: *const i64,
    pub ndim: i64,
    pub dtype: i32,
    pub device: i32,
}

impl TensorArg {
    /// A record for the glue to fill.
    pub fn empty() -> Self {
        TensorArg {
            data: 0,
            sizes: std::ptr::null(),
            strides: std::ptr::null(),
            ndim: 0,
            dtype: 0,
            device: 0,
        }
    }
}

/// A device tensor view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorRef {
    pub address: u64,
    pub sizes: Dims,
    pub strides: Dims,
    pub dtype: DType,
    pub device: usize,
}

impl TensorRef {
    /// Reads a glue tensor argument.
    ///
    /// # Safety
    /// `arg.sizes` and `arg.strides` must point to `arg.ndim` readable values (or be null when 0).
    pub unsafe fn from_arg(arg: &TensorArg) -> Result<Self> {
        let n = usize::try_from(arg.ndim).map_err(|_| Error::runtime("mojo: negative rank"))?;
        let read = |p: *const i64| {
            if n == 0 {
                Dims::new()
            } else {
                Dims::from_slice(std::slice::from_raw_parts(p, n))
            }
        };
        let device = usize::try_from(arg.device)
            .map_err(|_| Error::runtime("mojo: expected a device tensor"))?;
        let mut tensor = TensorRef {
            address: arg.data,
            sizes: read(arg.sizes),
            strides: read(arg.strides),
            dtype: DType::U8,
            device,
        };
        match crate::ops::index::element_moves::read_as(arg.dtype) {
            Some((bits, offset, factor)) => {
                tensor.dtype = bits;
                tensor.address += offset;
                tensor.strides.iter_mut().for_each(|s| *s *= factor);
            }
            None => tensor.dtype = DType::from_code(arg.dtype)?,
        }
        Ok(tensor)
    }

    /// Reads a glue tensor argument of any dtype: a complex one as its (real, imaginary)
    /// pairs, a trailing dimension of 2 added (`torch.view_as_real`), and `true`.
    ///
    /// # Safety
    /// As [`Self::from_arg`].
    pub unsafe fn from_arg_or_pairs(arg: &TensorArg) -> Result<(Self, bool)> {
        let moving = crate::ops::index::element_moves::read_as(arg.dtype).is_some();
        let Some(component) = DType::complex_component(arg.dtype).filter(|_| !moving) else {
            return Ok((Self::from_arg(arg)?, false));
        };
        let mut pairs = Self::from_arg(&TensorArg {
            dtype: component.code(),
            ..*arg
        })?;
        pairs.strides.iter_mut().for_each(|s| *s *= 2);
        pairs.sizes.push(2);
        pairs.strides.push(1);
        Ok((pairs, true))
    }

    /// One part of a pair view (0: real, 1: imaginary): the trailing dimension selected.
    pub fn part(&self, index: u64) -> TensorRef {
        let mut part = self.clone();
        part.sizes.pop();
        part.strides.pop();
        part.address += index * self.dtype.size() as u64;
        part
    }

    /// Number of elements.
    pub fn numel(&self) -> u64 {
        self.sizes.iter().map(|&s| s as u64).product()
    }

    /// True when the elements are dense in row-major order.
    pub fn is_contiguous(&self) -> bool {
        let mut expected = 1;
        for (&size, &stride) in self.sizes.iter().zip(&self.strides).rev() {
            if size != 1 && stride != expected {
                return false;
            }
            expected *= size;
        }
        true
    }

    /// The byte range `[start, end)` the view can reach (strides may be negative).
    pub fn byte_range(&self) -> (u64, u64) {
        if self.numel() == 0 {
            return (self.address, self.address);
        }
        let (mut lo, mut hi) = (0i64, 0i64);
        for (&size, &stride) in self.sizes.iter().zip(&self.strides) {
            let span = (size - 1) * stride;
            if span < 0 {
                lo += span;
            } else {
                hi += span;
            }
        }
        let element = self.dtype.size() as i64;
        (
            self.address.wrapping_add_signed(lo * element),
            self.address.wrapping_add_signed((hi + 1) * element),
        )
    }

    /// PyTorch's refusal to write into memory an input also occupies (checked, as PyTorch
    /// does, when both views are dense).
    pub fn assert_no_overlap(&self, input: &TensorRef) -> Result<()> {
        let (a0, a1) = self.byte_range();
        let (b0, b1) = input.byte_range();
        if self.is_contiguous() && input.is_contiguous() && a0 < b1 && b0 < a1 {
            return Err(Error::runtime(
                "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.",
            ));
        }
        Ok(())
    }

    /// Like [`Self::assert_no_overlap`], but allows `input` to be this very view.
    pub fn assert_no_partial_overlap(&self, input: &TensorRef) -> Result<()> {
        let same = self.address == input.address
            && self.sizes == input.sizes
            && self.strides == input.strides;
        if same {
            Ok(())
        } else {
            self.assert_no_overlap(input)
        }
    }

    /// Row-major strides for `sizes`.
    pub fn contiguous_strides(sizes: &[i64]) -> Vec<i64> {
        let mut strides = vec![1; sizes.len()];
        for d in (0..sizes.len().saturating_sub(1)).rev() {
            strides[d] = strides[d + 1] * sizes[d + 1].max(1);
        }
        strides
    }
}
