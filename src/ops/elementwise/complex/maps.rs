//! Map kernels over complex operands read as their (real, imaginary) parts.

use super::promotion::{complex_component, ComplexOperand, Number};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::complex::Parts;
use crate::kernels::{Expr, MapKernel};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::run_map;
use crate::ops::core::layout::broadcast_shapes;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use smallvec::smallvec;

/// The operands of a complex kernel read as parts in the compute type: their tensors (pair
/// views split), their dtypes, scalar slots and words, and the broadcast shape.
pub(super) struct PartsInputs {
    tensors: Vec<TensorRef>,
    inputs: Vec<DType>,
    scalars: Vec<DType>,
    words: Vec<u32>,
    parts: Vec<Parts>,
    shape: Vec<i64>,
    device: usize,
}

pub(super) fn read_parts(operands: &[&ComplexOperand], compute: DType) -> Result<PartsInputs> {
    let mut r = PartsInputs {
        tensors: vec![],
        inputs: vec![],
        scalars: vec![],
        words: vec![],
        parts: vec![],
        shape: vec![],
        device: 0,
    };
    let read = |t: TensorRef, r: &mut PartsInputs| {
        let e = Expr::input(r.tensors.len(), t.dtype).cast(compute);
        r.inputs.push(t.dtype);
        r.tensors.push(t);
        e
    };
    for operand in operands {
        let parts = match operand {
            ComplexOperand::Tensor {
                view,
                complex: true,
            } => (read(view.part(0), &mut r), read(view.part(1), &mut r)),
            ComplexOperand::Tensor { view, .. } => {
                (read(view.clone(), &mut r), Expr::constant(compute, 0.0))
            }
            ComplexOperand::Scalar { re, im, .. } => {
                let at = r.scalars.len();
                r.scalars.extend([compute, compute]);
                r.words.extend(ScalarArg::float(*re).words(compute));
                r.words.extend(ScalarArg::float(*im).words(compute));
                (Expr::scalar(at, compute), Expr::scalar(at + 1, compute))
            }
        };
        r.parts.push(parts);
    }
    let shapes: Vec<&[i64]> = operands.iter().filter_map(|o| o.shape()).collect();
    r.shape = broadcast_shapes(&shapes)?.to_vec();
    r.device = r
        .tensors
        .first()
        .map(|t| t.device)
        .ok_or_else(|| Error::runtime("mojo: a complex op needs a device tensor operand"))?;
    Ok(r)
}

/// Writes `f(operands)` (each operand as its parts in the compute type) into the complex
/// destination of type `result`.
pub(super) fn complex_map(
    call: &mut Call,
    operands: &[&ComplexOperand],
    result: Number,
    dest: Dest,
    op: &str,
    f: impl FnOnce(&[Parts]) -> Parts,
) -> Result<()> {
    // A real result written into a complex `out=` converts to it.
    let component = match (complex_component(result, op), dest) {
        (Err(_), Dest::Arg(i)) if call.complex_component_of(i).is_some() && !result.complex => {
            call.complex_component_of(i).unwrap_or(DType::F32)
        }
        (found, _) => found?,
    };
    let r = read_parts(operands, component.float_acc())?;
    let out = call.complex_result(dest, &r.shape, component, r.device)?;
    let (re, im) = f(&r.parts);
    let kernel = MapKernel {
        inputs: r.inputs.into(),
        scalars: r.scalars.into(),
        outputs: smallvec![
            (component, re.cast(component)),
            (component, im.cast(component)),
        ],
    };
    let (out_re, out_im) = (out.part(0), out.part(1));
    let mut all: Vec<&TensorRef> = r.tensors.iter().collect();
    all.extend([&out_re, &out_im]);
    run_map(kernel, &all, &r.shape, &r.words)
}

/// Writes the real `f(operands)` into a destination of dtype `dtype` (or into `out=`, which
/// must be able to hold it), computing in the component type of `compute`'s complex form.
pub(super) fn real_map(
    call: &mut Call,
    operands: &[&ComplexOperand],
    compute: Number,
    dest: Dest,
    dtype: DType,
    f: impl FnOnce(&[Parts]) -> Expr,
) -> Result<()> {
    let r = read_parts(operands, compute.dtype.float_acc())?;
    let out = call.result(dest, &r.shape, dtype, r.device)?;
    let kernel = MapKernel {
        inputs: r.inputs.into(),
        scalars: r.scalars.into(),
        outputs: smallvec![(out.dtype, f(&r.parts).cast(out.dtype))],
    };
    let mut all: Vec<&TensorRef> = r.tensors.iter().collect();
    all.push(&out);
    run_map(kernel, &all, &r.shape, &r.words)
}

/// A complex tensor argument mapped to one real value per element (`f` of its parts, of
/// `dtype`, the component dtype when none) in a scratch tensor, for reductions that read one
/// real value per element; none for a real argument.
pub fn per_element(
    call: &Call,
    index: usize,
    dtype: Option<DType>,
    f: fn(&Parts) -> Expr,
) -> Result<Option<Scratch>> {
    let ComplexOperand::Tensor {
        view,
        complex: true,
    } = call.complex_operand(index)?
    else {
        return Ok(None);
    };
    let component = view.dtype;
    let compute = component.float_acc();
    let sizes = &view.sizes[..view.sizes.len() - 1];
    let dtype = dtype.unwrap_or(component);
    let values = Scratch::contiguous(view.device, sizes, dtype)?;
    let parts = (
        Expr::input(0, component).cast(compute),
        Expr::input(1, component).cast(compute),
    );
    let kernel = MapKernel {
        inputs: smallvec![component, component],
        scalars: smallvec![],
        outputs: smallvec![(dtype, f(&parts).cast(dtype))],
    };
    let (re, im) = (view.part(0), view.part(1));
    run_map(kernel, &[&re, &im, &values.tensor], sizes, &[])?;
    Ok(Some(values))
}
