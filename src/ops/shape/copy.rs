//! Device-to-device copies with broadcasting and dtype conversion, and fills. Complex tensors
//! arrive as (real, imaginary) pair views ([`TensorRef::from_arg_or_pairs`]) and convert as
//! PyTorch converts them: a real value gains a zero imaginary part, a complex one keeps its
//! real part (or, to bool, whether either part is nonzero).

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Expr, MapKernel};
use crate::ops::core::launch::run_map;
use crate::ops::core::layout::broadcast_shapes;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::runtime::backend;
use smallvec::smallvec;

/// `dst.copy_(src)` for two tensors on the same device.
pub fn copy(dst: &TensorRef, src: &TensorRef) -> Result<()> {
    broadcast_shapes(&[&dst.sizes, &src.sizes])?;
    if dst.numel() == 0 {
        return Ok(());
    }
    if overlaps(dst, src) {
        let temp = Scratch::contiguous(src.device, &src.sizes, src.dtype)?;
        copy(&temp.tensor, src)?;
        return copy(dst, &temp.tensor);
    }
    if fast_copy(dst, src)? {
        return Ok(());
    }
    if src.dtype == dst.dtype && src.dtype.bits() != src.dtype {
        // Same dtype: the bits move unchanged, as the CPU's copy moves them.
        let as_bits = |t: &TensorRef| TensorRef {
            dtype: t.dtype.bits(),
            ..t.clone()
        };
        return copy(&as_bits(dst), &as_bits(src));
    }
    let kernel = MapKernel {
        inputs: smallvec![src.dtype],
        scalars: smallvec![],
        outputs: smallvec![(dst.dtype, Expr::input(0, src.dtype).cast(dst.dtype))],
    };
    run_map(kernel, &[src, dst], &dst.sizes, &[])
}

/// `dst.copy_(src)` where either side may be a complex tensor's pair view (`true`).
pub fn copy_any(
    (dst, dst_complex): (TensorRef, bool),
    (src, src_complex): (TensorRef, bool),
) -> Result<()> {
    match (dst_complex, src_complex) {
        (false, false) | (true, true) => copy(&dst, &src),
        (true, false) => {
            copy(&dst.part(0), &src)?;
            fill(&dst.part(1), &ScalarArg::int(0))
        }
        (false, true) if dst.dtype == DType::Bool => {
            broadcast_shapes(&[&dst.sizes, &src.sizes[..src.sizes.len() - 1]])?;
            let part = |i| Expr::input(i, src.dtype).cast(DType::Bool);
            let kernel = MapKernel {
                inputs: smallvec![src.dtype, src.dtype],
                scalars: smallvec![],
                outputs: smallvec![(DType::Bool, part(0).or(part(1)))],
            };
            run_map(kernel, &[&src.part(0), &src.part(1), &dst], &dst.sizes, &[])
        }
        (false, true) => copy(&dst, &src.part(0)),
    }
}

/// A plain buffer copy when both sides are dense, of one dtype and word-aligned.
fn fast_copy(dst: &TensorRef, src: &TensorRef) -> Result<bool> {
    let bytes = dst.numel() * dst.dtype.size() as u64;
    let usable = dst.dtype == src.dtype
        && dst.sizes == src.sizes
        && dst.is_contiguous()
        && src.is_contiguous()
        && (dst.address | src.address | bytes).is_multiple_of(4)
        && dst.device == src.device;
    if !usable {
        return Ok(false);
    }
    let b = backend()?;
    Ok(b.copy(dst.address, src.address, bytes).is_ok())
}

/// Whether the byte ranges the two views can reach intersect.
fn overlaps(a: &TensorRef, b: &TensorRef) -> bool {
    let (a0, a1) = a.byte_range();
    let (b0, b1) = b.byte_range();
    a0 < b1 && b0 < a1
}

/// `dst.fill_(value)` where `dst` may be a complex tensor's pair view (`true`).
pub fn fill_any((dst, complex): (TensorRef, bool), value: &ScalarArg) -> Result<()> {
    let (real, imaginary) = match value.imaginary() {
        Some(im) => (ScalarArg::float(value.d), im),
        None => (*value, 0.0),
    };
    if complex {
        fill(&dst.part(0), &real)?;
        fill(&dst.part(1), &ScalarArg::float(imaginary))
    } else if imaginary != 0.0 {
        Err(Error::runtime(format!(
            "value cannot be converted to type {} without overflow",
            dst.dtype.cpp_name()
        )))
    } else {
        fill(&dst, &real)
    }
}

/// `dst.fill_(value)`.
pub fn fill(dst: &TensorRef, value: &ScalarArg) -> Result<()> {
    value.check_fits(dst.dtype)?;
    let kernel = MapKernel {
        inputs: smallvec![],
        scalars: smallvec![dst.dtype],
        outputs: smallvec![(dst.dtype, Expr::scalar(0, dst.dtype))],
    };
    run_map(kernel, &[dst], &dst.sizes, &value.words(dst.dtype))
}
