//! `masked_select`: the selected elements in row-major order, as a 1-D tensor.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::ScanKernel;
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::{run_masked_select, run_scan};
use crate::ops::core::layout::{broadcast_shapes, broadcast_strides};
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::shape::copy::copy;
use crate::runtime::backend;
use smallvec::smallvec;

/// `a[mask]`, with `a` and `mask` broadcast together.
pub fn masked_select(call: &mut Call, a: &TensorRef, mask: &TensorRef, dest: Dest) -> Result<()> {
    if mask.dtype != DType::Bool {
        return Err(Error::runtime(format!(
            "masked_select: expected BoolTensor for mask, got {}",
            mask.dtype.name()
        )));
    }
    if let Dest::Arg(i) = dest {
        let out = call.tensor(i)?;
        if out.dtype != a.dtype {
            return Err(Error::runtime(format!(
                "masked_select(): self and result must have the same scalar type, got {} and {}",
                a.dtype.torch_name(),
                out.dtype.torch_name()
            )));
        }
        out.assert_no_overlap(a)?;
        out.assert_no_overlap(mask)?;
    }
    let shape = broadcast_shapes(&[&a.sizes, &mask.sizes])?;
    let selection = Selection::of(mask, &shape)?;
    let out = call.result(dest, &[selection.count], a.dtype, a.device)?;
    selection.copy(a, &out, &shape)
}

/// Where the set elements of a mask go in a selection: the mask made contiguous, the
/// inclusive count of set elements at each of its elements (a scan), and their number (its
/// last element, read back to the host: a synchronising call, as on CUDA).
pub struct Selection {
    mask: TensorRef,
    positions: Scratch,
    pub count: i64,
    _dense_copy: Option<Scratch>,
}

impl Selection {
    /// The selection of the bool `mask` broadcast to `shape`.
    pub fn of(mask: &TensorRef, shape: &[i64]) -> Result<Self> {
        let n: i64 = shape.iter().product();
        let view = TensorRef {
            sizes: shape.to_vec().into(),
            strides: broadcast_strides(mask, shape).into(),
            ..mask.clone()
        };
        let dense_copy = if view.is_contiguous() {
            None
        } else {
            let dense = Scratch::contiguous(mask.device, shape, DType::Bool)?;
            copy(&dense.tensor, &view)?;
            Some(dense)
        };
        let mask = dense_copy.as_ref().map_or(view, |d| d.tensor.clone());
        let positions = Scratch::contiguous(mask.device, &[n], DType::I64)?;
        let mut count = 0;
        if n > 0 {
            let running = ScanKernel::sum(DType::Bool, DType::I64);
            let flat = TensorRef {
                sizes: smallvec![n],
                strides: smallvec![1],
                ..mask.clone()
            };
            run_scan(running, &flat, &positions.tensor, 0)?;
            let mut bytes = [0u8; 8];
            backend()?.read(positions.tensor.address + 8 * (n as u64 - 1), &mut bytes)?;
            count = i64::from_le_bytes(bytes);
        }
        Ok(Selection {
            mask,
            positions,
            count,
            _dense_copy: dense_copy,
        })
    }

    /// Copies the selected elements of `input` (viewed with `shape`) into the contiguous
    /// `output` of `count` elements.
    pub fn copy(&self, input: &TensorRef, output: &TensorRef, shape: &[i64]) -> Result<()> {
        run_masked_select(input, &self.mask, &self.positions.tensor, output, shape)
    }
}
