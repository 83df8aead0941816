//! Shape-changing ops that the elementwise families need: cat, flip, masked_select and
//! masked_fill.

use super::call::{Call, Dest, Operand};
use super::pointwise::{pointwise, pointwise_with};
use super::reduce::wrap_dim;
use super::registry::OpFn;
use super::scalar::ScalarArg;
use crate::dtype::DType;
use crate::error::{Error, Result};

fn cat_out(call: &mut Call) -> Result<()> {
    let tensors = call.tensors(0)?;
    let dim = call.int(1)?;
    let mut out = call.out(2)?;
    super::cat::cat(&tensors, dim, &mut out)?;
    call.return_arg(2);
    Ok(())
}

fn masked_select(call: &mut Call, dest: Dest) -> Result<()> {
    let (a, mask) = (call.tensor(0)?, call.tensor(1)?);
    super::masked_select::masked_select(call, &a, &mask, dest)
}

/// `flip(self, dims)`: a copy read through a view with the flipped strides negated.
fn flip(call: &mut Call) -> Result<()> {
    let a = call.tensor(0)?;
    let dims = call.ints(1)?;
    let mut view = a.clone();
    let mut seen = vec![false; a.sizes.len()];
    for &d in &dims {
        let d = wrap_dim(d, a.sizes.len())?;
        if a.sizes.is_empty() {
            continue;
        }
        if std::mem::replace(&mut seen[d], true) {
            return Err(Error::runtime(format!(
                "dim {d} appears multiple times in the list of dims"
            )));
        }
        if a.sizes[d] > 1 {
            let span = (a.sizes[d] - 1) * a.strides[d] * a.dtype.size() as i64;
            view.address = view.address.wrapping_add_signed(span);
            view.strides[d] = -a.strides[d];
        }
    }
    let out = call.create(&a.sizes, a.dtype, a.device)?;
    super::copy::copy(&out, &view)
}

/// `self.masked_fill_(mask, value)` with a Scalar or a zero-dimensional tensor value.
fn masked_fill(call: &mut Call) -> Result<()> {
    let a = call.tensor(0)?;
    let mask = call.operand(1)?;
    let value = call.operand(2)?;
    let mask_dtype = super::pointwise::promotion_key(&mask).0;
    if mask_dtype != DType::Bool {
        return Err(Error::runtime(format!(
            "masked_fill_ only supports boolean masks, but got mask with dtype {}",
            mask_dtype.name()
        )));
    }
    if let Operand::Tensor(v) = &value {
        if !v.sizes.is_empty() {
            return Err(Error::runtime(format!(
                "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).",
                v.sizes.len()
            )));
        }
    }
    let dtype = a.dtype;
    let target = Operand::Tensor(a);
    pointwise(
        call,
        &[&target, &mask, &value],
        Dest::Arg(0),
        dtype,
        dtype,
        |e| {
            e[1].clone()
                .cast(DType::Bool)
                .select(e[2].clone(), e[0].clone())
        },
    )
}

/// `tril.out` / `triu.out(self, diagonal, *, out)`: keeps the elements on the kept side of
/// the diagonal of the last two dimensions.
fn triangle(call: &mut Call, lower: bool) -> Result<()> {
    let a = call.tensor(0)?;
    let diagonal = call.int(1)?;
    if a.sizes.len() < 2 {
        return Err(Error::runtime(format!(
            "{}: input tensor must have at least 2 dimensions",
            if lower { "tril" } else { "triu" }
        )));
    }
    let int = |i: i64| ScalarArg {
        kind: 1,
        dtype: -1,
        i,
        d: 0.0,
    };
    let extras = [
        (DType::I64, int(a.sizes[a.sizes.len() - 2].max(1))),
        (DType::I64, int(a.sizes[a.sizes.len() - 1].max(1))),
        (DType::I64, int(diagonal)),
    ];
    let dtype = a.dtype;
    let operand = Operand::Tensor(a);
    pointwise_with(
        call,
        &[&operand],
        &extras,
        Dest::Arg(2),
        dtype,
        dtype,
        |e| {
            use crate::kernels::{BinaryOp, Expr};
            let (rows, cols, diagonal) = (e[1].clone(), e[2].clone(), e[3].clone());
            let col = Expr::Index.binary(BinaryOp::Rem, cols.clone());
            let row = (Expr::Index / cols).binary(BinaryOp::Rem, rows);
            let offset = col - row;
            let keep = if lower {
                offset.le(diagonal)
            } else {
                offset.ge(diagonal)
            };
            keep.select(e[0].clone(), Expr::constant(dtype, 0.0))
        },
    )
}

pub const OPS: &[(&str, OpFn)] = &[
    ("cat.out", cat_out),
    ("masked_select", |c| masked_select(c, Dest::New)),
    ("masked_select.out", |c| masked_select(c, Dest::Arg(2))),
    ("flip", flip),
    ("masked_fill_.Scalar", masked_fill),
    ("masked_fill_.Tensor", masked_fill),
    ("tril.out", |c| triangle(c, true)),
    ("triu.out", |c| triangle(c, false)),
];
