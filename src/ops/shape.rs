//! Shape-changing ops that the elementwise families need: cat and masked_select.

use super::call::{Call, Dest};
use super::registry::OpFn;
use crate::error::Result;

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

pub const OPS: &[(&str, OpFn)] = &[
    ("cat.out", cat_out),
    ("masked_select", |c| masked_select(c, Dest::New)),
    ("masked_select.out", |c| masked_select(c, Dest::Arg(2))),
];
