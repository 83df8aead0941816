//! GradScaler's device kernels: unscaling gradients while flagging non-finite values, and the
//! scale update, with no host synchronisation (the flag and the scale stay on the device).

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{BinaryOp, Expr, MapKernel, ReduceKernel, ReduceOp, UnaryOp};
use crate::ops::core::call::{Call, Operand};
use crate::ops::core::launch::{run_map, run_reduce};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::optim::foreach::scale_lists;
use smallvec::smallvec;

/// `_amp_foreach_non_finite_check_and_unscale_(self[], found_inf, inv_scale)`: sets
/// `found_inf` to 1 if any gradient holds an inf or NaN, and multiplies every gradient by
/// `inv_scale` (both one-element float32 device tensors).
fn unscale(call: &mut Call) -> Result<()> {
    let grads = call.tensors(0)?;
    let found = call.tensor(1)?;
    let inv_scale = call.tensor(2)?;
    for (t, what) in [(&found, "found_inf"), (&inv_scale, "inv_scale")] {
        if t.numel() != 1 || t.dtype != DType::F32 {
            return Err(Error::runtime(format!(
                "{what} must be a 1-element tensor of dtype float."
            )));
        }
    }
    // One flag per gradient (is any element not finite?), then their maximum into found_inf.
    let flags = Scratch::contiguous(found.device, &[grads.len().max(1) as i64], DType::F32)?;
    crate::ops::shape::copy::fill(&flags.tensor, &ScalarArg::float(0.0))?;
    for (k, g) in grads.iter().enumerate() {
        if g.numel() == 0 {
            continue;
        }
        let flag = TensorRef {
            address: flags.tensor.address + 4 * k as u64,
            sizes: smallvec![],
            strides: smallvec![],
            ..flags.tensor.clone()
        };
        let bad = Expr::input(0, g.dtype)
            .unary(UnaryOp::IsFinite)
            .unary(UnaryOp::Not)
            .cast(DType::F32);
        let kernel = ReduceKernel {
            per_output: None,
            indexed: false,
            elementwise: None,
            vector: false,
            input: g.dtype,
            scalars: vec![],
            pre: bad,
            op: ReduceOp::Max,
            acc: DType::F32,
            outputs: vec![(DType::F32, Expr::input(0, DType::F32))],
            columns: false,
        };
        run_reduce(kernel, g, &[&flag], &vec![true; g.sizes.len()], &[])?;
    }
    let any = Scratch::contiguous(found.device, &[], DType::F32)?;
    let kernel = ReduceKernel {
        per_output: None,
        indexed: false,
        elementwise: None,
        vector: false,
        input: DType::F32,
        scalars: vec![],
        pre: Expr::input(0, DType::F32),
        op: ReduceOp::Max,
        acc: DType::F32,
        outputs: vec![(DType::F32, Expr::input(0, DType::F32))],
        columns: false,
    };
    run_reduce(kernel, &flags.tensor, &[&any.tensor], &[true], &[])?;
    let flat = |t: &TensorRef| TensorRef {
        sizes: smallvec![],
        strides: smallvec![],
        ..t.clone()
    };
    let kernel = MapKernel {
        inputs: smallvec![DType::F32, DType::F32],
        scalars: smallvec![],
        outputs: smallvec![(
            DType::F32,
            Expr::input(0, DType::F32).max(Expr::input(1, DType::F32)),
        )],
    };
    run_map(
        kernel,
        &[&flat(&found), &any.tensor, &flat(&found)],
        &[],
        &[],
    )?;
    let positions = grads
        .into_iter()
        .map(|g| vec![Operand::Tensor(g), Operand::Tensor(flat(&inv_scale))])
        .collect();
    scale_lists(call, positions)
}

/// `_amp_update_scale_(self, growth_tracker, found_inf, growth_factor, backoff_factor,
/// growth_interval)`: backs the scale off after an overflow, grows it after
/// `growth_interval` clean steps (unless that overflows float32), on the device.
fn update_scale(call: &mut Call) -> Result<()> {
    let scale = call.tensor(0)?;
    let tracker = call.tensor(1)?;
    let found = call.tensor(2)?;
    let (growth, backoff) = (call.double(3)?, call.double(4)?);
    let interval = call.int(5)?;
    if scale.numel() != 1 || scale.dtype != DType::F32 {
        return Err(Error::runtime(
            "current_scale must be a 1-element tensor of dtype float.",
        ));
    }
    if tracker.numel() != 1 || tracker.dtype != DType::I32 {
        return Err(Error::runtime(
            "growth_tracker must be a 1-element tensor of dtype int.",
        ));
    }
    let f = DType::F32;
    let (s, t, inf) = (
        Expr::input(0, f),
        Expr::input(1, DType::I32),
        Expr::input(2, f),
    );
    let (growth_factor, backoff_factor, interval_e) = (
        Expr::scalar(0, f),
        Expr::scalar(1, f),
        Expr::scalar(2, DType::I32),
    );
    let overflowed = inf.binary(BinaryOp::Ne, Expr::constant(f, 0.0));
    let successful = t + Expr::constant(DType::I32, 1.0);
    let grow = successful.clone().eq(interval_e);
    let grown = s.clone() * growth_factor;
    let grown_or_kept = grown
        .clone()
        .unary(UnaryOp::IsFinite)
        .select(grown, s.clone());
    let new_scale = overflowed.clone().select(
        s.clone() * backoff_factor,
        grow.clone().select(grown_or_kept, s),
    );
    let zero = Expr::constant(DType::I32, 0.0);
    let new_tracker = overflowed.select(zero.clone(), grow.select(zero, successful));
    let kernel = MapKernel {
        inputs: smallvec![f, DType::I32, f],
        scalars: smallvec![f, f, DType::I32],
        outputs: smallvec![(f, new_scale), (DType::I32, new_tracker)],
    };
    let one = |t: &TensorRef| TensorRef {
        sizes: smallvec![],
        strides: smallvec![],
        ..t.clone()
    };
    let mut words = ScalarArg::float(growth).words(f);
    words.extend(ScalarArg::float(backoff).words(f));
    words.extend(ScalarArg::int(interval).words(DType::I32));
    let (s1, t1, f1) = (one(&scale), one(&tracker), one(&found));
    run_map(kernel, &[&s1, &t1, &f1, &s1, &t1], &[], &words)?;
    call.return_arg(0);
    Ok(())
}

pub const OPS: &[(&str, OpFn)] = &[
    ("_amp_foreach_non_finite_check_and_unscale_", unscale),
    ("_amp_update_scale_", update_scale),
];
