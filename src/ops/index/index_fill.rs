//! index_fill_: a value written along one dimension at the indexed places, as a scatter of
//! one broadcast element (complex tensors: each part along its own view of the pair view).

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::Accumulate;
use crate::ops::core::call::{Call, Operand};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::elementwise::complex::ComplexOperand;
use crate::ops::index::index_launch::Fault;
use crate::ops::index::indexing::{pair_view, pairs_at_least_1d, scalar_tensor, scatter_along};
use crate::ops::reduce::reductions::wrap_dim;
use crate::ops::shape::copy::{copy, fill};

/// `index_fill_(self, dim, index, value)` with a Scalar or zero-dimensional tensor value.
fn index_fill(call: &mut Call) -> Result<()> {
    if call.complex_component_of(0).is_some() {
        return index_fill_complex(call);
    }
    let a = call.tensor(0)?;
    let dim = wrap_dim(call.int(1)?, a.sizes.len())?;
    let index = call.tensor(2)?;
    if index.sizes.len() > 1 {
        return Err(Error::index(
            "index_fill_(): Index is supposed to be a vector",
        ));
    }
    if index.dtype != DType::I64 {
        return Err(Error::index(
            "index_fill_(): Expected dtype int64 for index.",
        ));
    }
    let holder = match call.operand(3)? {
        Operand::Scalar(v) => scalar_tensor(a.device, a.dtype, &v)?,
        Operand::Tensor(v) => {
            if !v.sizes.is_empty() {
                return Err(Error::runtime(format!(
                    "index_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).",
                    v.sizes.len()
                )));
            }
            let s = Scratch::contiguous(a.device, &[], a.dtype)?;
            copy(&s.tensor, &v)?;
            s
        }
    };
    call.return_arg(0);
    scatter_along(
        Accumulate::Assign,
        true,
        &a,
        &a,
        dim,
        &index,
        &holder.tensor,
        false,
        Fault::index("index out of range in self".into()),
    )
}

/// `index_fill_` of a complex tensor: each part filled along its own view of the pair view.
fn index_fill_complex(call: &mut Call) -> Result<()> {
    let a = pair_view(call, 0, |_| {
        Error::runtime("index_fill_(): expected a complex tensor")
    })?;
    let dim = wrap_dim(call.int(1)?, a.sizes.len() - 1)?;
    let index = call.tensor(2)?;
    if index.sizes.len() > 1 {
        return Err(Error::index(
            "index_fill_(): Index is supposed to be a vector",
        ));
    }
    if index.dtype != DType::I64 {
        return Err(Error::index(
            "index_fill_(): Expected dtype int64 for index.",
        ));
    }
    let value = Scratch::contiguous(a.device, &[2], a.dtype)?;
    match call.complex_operand(3)? {
        ComplexOperand::Scalar { re, im, .. } => {
            fill(&value.tensor.part(0), &ScalarArg::float(re))?;
            fill(&value.tensor.part(1), &ScalarArg::float(im))?;
        }
        ComplexOperand::Tensor { view, complex } => {
            let rank = view.sizes.len() - usize::from(complex);
            if rank != 0 {
                return Err(Error::runtime(format!(
                    "index_fill_ only supports a 0-dimensional value tensor, but got tensor with {rank} dimension(s)."
                )));
            }
            if complex {
                copy(&value.tensor, &view)?;
            } else {
                copy(&value.tensor.part(0), &view)?;
                fill(&value.tensor.part(1), &ScalarArg::float(0.0))?;
            }
        }
    }
    call.return_arg(0);
    for part in 0..2 {
        let target = pairs_at_least_1d(a.clone()).part(part);
        scatter_along(
            Accumulate::Assign,
            true,
            &target,
            &target,
            dim,
            &index,
            &value.tensor.part(part),
            false,
            Fault::index("index out of range in self".into()),
        )?;
    }
    Ok(())
}

pub const OPS: &[(&str, OpFn)] = &[
    ("index_fill_.int_Scalar", index_fill),
    ("index_fill_.int_Tensor", index_fill),
];
