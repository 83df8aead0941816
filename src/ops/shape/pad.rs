//! Reflection and replication padding over 1 to 3 trailing dimensions, and their backward:
//! each output row, column (and plane) reads one input position, computed on the host, so
//! the forward is a gather and the backward the deterministic accumulate.

use crate::error::{Error, Result};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::layout::batched;
use crate::ops::core::registry::OpFn;
use crate::ops::core::tensor::TensorRef;
use crate::ops::nn::upsample::{accumulate_planes, gather_planes};

/// How positions outside the input map back into it.
#[derive(Clone, Copy)]
enum Mode {
    Reflect,
    Replicate,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Reflect => "reflection",
            Mode::Replicate => "replication",
        }
    }
}

pub const OPS: &[(&str, OpFn)] = &[
    ("reflection_pad1d", |c| {
        forward(c, 1, Mode::Reflect, Dest::New)
    }),
    ("reflection_pad1d.out", |c| {
        forward(c, 1, Mode::Reflect, Dest::Arg(2))
    }),
    ("reflection_pad2d", |c| {
        forward(c, 2, Mode::Reflect, Dest::New)
    }),
    ("reflection_pad2d.out", |c| {
        forward(c, 2, Mode::Reflect, Dest::Arg(2))
    }),
    ("reflection_pad3d", |c| {
        forward(c, 3, Mode::Reflect, Dest::New)
    }),
    ("reflection_pad3d.out", |c| {
        forward(c, 3, Mode::Reflect, Dest::Arg(2))
    }),
    ("replication_pad1d", |c| {
        forward(c, 1, Mode::Replicate, Dest::New)
    }),
    ("replication_pad1d.out", |c| {
        forward(c, 1, Mode::Replicate, Dest::Arg(2))
    }),
    ("replication_pad2d", |c| {
        forward(c, 2, Mode::Replicate, Dest::New)
    }),
    ("replication_pad2d.out", |c| {
        forward(c, 2, Mode::Replicate, Dest::Arg(2))
    }),
    ("replication_pad3d", |c| {
        forward(c, 3, Mode::Replicate, Dest::New)
    }),
    ("replication_pad3d.out", |c| {
        forward(c, 3, Mode::Replicate, Dest::Arg(2))
    }),
    ("reflection_pad1d_backward", |c| {
        backward(c, 1, Mode::Reflect, Dest::New)
    }),
    ("reflection_pad1d_backward.grad_input", |c| {
        backward(c, 1, Mode::Reflect, Dest::Arg(3))
    }),
    ("reflection_pad2d_backward", |c| {
        backward(c, 2, Mode::Reflect, Dest::New)
    }),
    ("reflection_pad2d_backward.grad_input", |c| {
        backward(c, 2, Mode::Reflect, Dest::Arg(3))
    }),
    ("reflection_pad3d_backward", |c| {
        backward(c, 3, Mode::Reflect, Dest::New)
    }),
    ("reflection_pad3d_backward.grad_input", |c| {
        backward(c, 3, Mode::Reflect, Dest::Arg(3))
    }),
    ("replication_pad1d_backward", |c| {
        backward(c, 1, Mode::Replicate, Dest::New)
    }),
    ("replication_pad1d_backward.grad_input", |c| {
        backward(c, 1, Mode::Replicate, Dest::Arg(3))
    }),
    ("replication_pad2d_backward", |c| {
        backward(c, 2, Mode::Replicate, Dest::New)
    }),
    ("replication_pad2d_backward.grad_input", |c| {
        backward(c, 2, Mode::Replicate, Dest::Arg(3))
    }),
    ("replication_pad3d_backward", |c| {
        backward(c, 3, Mode::Replicate, Dest::New)
    }),
    ("replication_pad3d_backward.grad_input", |c| {
        backward(c, 3, Mode::Replicate, Dest::Arg(3))
    }),
];

/// The input position each of the `size + before + after` output positions reads.
fn source_positions(mode: Mode, size: i64, before: i64, after: i64) -> Vec<i64> {
    (0..size + before + after)
        .map(|o| {
            let p = o - before;
            match mode {
                Mode::Replicate => p.clamp(0, size - 1),
                Mode::Reflect if p < 0 => -p,
                Mode::Reflect if p >= size => 2 * (size - 1) - p,
                Mode::Reflect => p,
            }
        })
        .collect()
}

/// Checks the input and padding; returns the output sizes and each padded dimension's
/// source positions (outermost first).
fn plan(x: &TensorRef, pad: &[i64], dims: usize, mode: Mode) -> Result<(Vec<i64>, Vec<Vec<i64>>)> {
    let name = format!("{}_pad{dims}d", mode.name());
    let rank = x.sizes.len();
    if pad.len() != 2 * dims {
        return Err(Error::runtime(format!(
            "{name}: padding size is expected to be {}, but got: {}",
            2 * dims,
            pad.len()
        )));
    }
    if rank != dims + 1 && rank != dims + 2 {
        return Err(Error::runtime(format!(
            "{name}: Expected {}D or {}D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: {:?}",
            dims + 1,
            dims + 2,
            x.sizes
        )));
    }
    let mut sizes = x.sizes.clone();
    let mut positions = Vec::new();
    for d in 0..dims {
        // `pad` lists the last dimension first.
        let (before, after) = (pad[2 * (dims - 1 - d)], pad[2 * (dims - 1 - d) + 1]);
        let axis = rank - dims + d;
        let size = x.sizes[axis];
        if matches!(mode, Mode::Reflect) && (before >= size || after >= size) {
            return Err(Error::runtime(format!(
                "Argument #4: Padding size should be less than the corresponding input dimension, but got: padding ({before}, {after}) at dimension {axis} of input {:?}",
                x.sizes
            )));
        }
        let out = size + before + after;
        if size == 0 || out < 1 {
            return Err(Error::runtime(format!(
                "{name}: input of size {:?} padded by {pad:?} gives an empty or negative dimension {axis}",
                x.sizes
            )));
        }
        sizes[axis] = out;
        positions.push(source_positions(mode, size, before, after));
    }
    Ok((sizes.to_vec(), positions))
}

/// `{reflection,replication}_pad{1,2,3}d(self, padding)`.
fn forward(call: &mut Call, dims: usize, mode: Mode, dest: Dest) -> Result<()> {
    let x = call.tensor(0)?;
    let (sizes, positions) = plan(&x, &call.ints(1)?, dims, mode)?;
    let out = call.result(dest, &sizes, x.dtype, x.device)?;
    gather_planes(&batched(&x, dims), &batched(&out, dims), &positions)
}

/// `{reflection,replication}_pad{1,2,3}d_backward(grad_output, self, padding)`.
fn check_grad(grad: &TensorRef, sizes: &[i64], dims: usize, mode: Mode) -> Result<()> {
    if grad.sizes[..] != *sizes {
        return Err(Error::runtime(format!(
            "{}_pad{dims}d_backward: grad_output of size {:?} does not match the padded size {sizes:?}",
            mode.name(),
            grad.sizes
        )));
    }
    Ok(())
}

/// Complex gradients accumulate each part along its own view of the pair views.
fn backward(call: &mut Call, dims: usize, mode: Mode, dest: Dest) -> Result<()> {
    if call.complex_component_of(0).is_some() {
        let [grad, x] = [0, 1].map(|i| {
            // SAFETY: the glue describes live tensors.
            unsafe { TensorRef::from_arg_or_pairs(call.tensor_arg(i)?) }
        });
        let ((grad, true), (x, true)) = (grad?, x?) else {
            return Err(Error::runtime(format!(
                "{}_pad{dims}d_backward: grad_output and self must both be complex",
                mode.name()
            )));
        };
        let (sizes, positions) = plan(&x.part(0), &call.ints(2)?, dims, mode)?;
        check_grad(&grad.part(0), &sizes, dims, mode)?;
        let gx = call.complex_result(dest, &x.part(0).sizes, x.dtype, x.device)?;
        for part in 0..2 {
            let (g, out) = (
                batched(&grad.part(part), dims),
                batched(&gx.part(part), dims),
            );
            accumulate_planes(&g, &out, &positions)?;
        }
        return Ok(());
    }
    let (grad, x) = (call.tensor(0)?, call.tensor(1)?);
    let (sizes, positions) = plan(&x, &call.ints(2)?, dims, mode)?;
    check_grad(&grad, &sizes, dims, mode)?;
    let gx = call.result(dest, &x.sizes, x.dtype, x.device)?;
    accumulate_planes(&batched(&grad, dims), &batched(&gx, dims), &positions)
}

#[cfg(test)]
mod tests {
    use super::{source_positions, Mode};

    #[test]
    fn positions() {
        assert_eq!(
            source_positions(Mode::Reflect, 3, 2, 2),
            [2, 1, 0, 1, 2, 1, 0]
        );
        assert_eq!(
            source_positions(Mode::Replicate, 3, 2, 1),
            [0, 0, 0, 1, 2, 2]
        );
        assert_eq!(source_positions(Mode::Replicate, 4, -1, 0), [1, 2, 3]);
    }
}
