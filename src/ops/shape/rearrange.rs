//! Shape-changing and masking ops: cat, flip, roll, channel_shuffle, tril/triu,
//! masked_select, masked_fill and masked_scatter.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Expr, MapKernel, ScanKernel};
use crate::ops::core::call::{Call, Dest, Operand};
use crate::ops::core::launch::{run_map, run_scan};
use crate::ops::core::layout::broadcast_strides;
use crate::ops::core::pointwise::{pointwise, pointwise_with};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::index::index_launch::{run_index, Fault, IndexArg};
use crate::ops::reduce::reductions::wrap_dim;
use crate::ops::shape::copy::copy;
use smallvec::smallvec;

fn cat_out(call: &mut Call) -> Result<()> {
    let tensors = call.tensors_or_pairs(0)?;
    let dim = call.int(1)?;
    let (mut out, complex) = call.out_or_pairs(2)?;
    crate::ops::shape::cat::cat(&tensors, dim, &mut out, complex)?;
    call.return_arg(2);
    Ok(())
}

fn masked_select(call: &mut Call, dest: Dest) -> Result<()> {
    let (a, mask) = (call.tensor(0)?, call.tensor(1)?);
    crate::ops::index::masked_select::masked_select(call, &a, &mask, dest)
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
    crate::ops::shape::copy::copy(&out, &view)
}

/// `self.masked_fill_(mask, value)` with a Scalar or a zero-dimensional tensor value.
fn masked_fill(call: &mut Call) -> Result<()> {
    let mask = call.operand(1)?;
    let mask_dtype = crate::ops::core::pointwise::promotion_key(&mask).0;
    if mask_dtype != DType::Bool {
        return Err(Error::runtime(format!(
            "masked_fill_ only supports boolean masks, but got mask with dtype {}",
            mask_dtype.name()
        )));
    }
    if call.complex_component_of(0).is_some() {
        return crate::ops::elementwise::complex::select(call, Dest::Arg(0), true);
    }
    let a = call.tensor(0)?;
    if call.is_complex_arg(2) {
        return Err(Error::runtime(format!(
            "value cannot be converted to type {} without overflow",
            a.dtype.name()
        )));
    }
    let value = call.operand(2)?;
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
    let extras = [
        (
            DType::I64,
            ScalarArg::int(a.sizes[a.sizes.len() - 2].max(1)),
        ),
        (
            DType::I64,
            ScalarArg::int(a.sizes[a.sizes.len() - 1].max(1)),
        ),
        (DType::I64, ScalarArg::int(diagonal)),
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

/// `t` narrowed to `[start, start + len)` along `dim`.
pub fn narrow(t: &TensorRef, dim: usize, start: i64, len: i64) -> TensorRef {
    let mut view = t.clone();
    view.address = view
        .address
        .wrapping_add_signed(start * t.strides[dim] * t.dtype.size() as i64);
    view.sizes[dim] = len;
    view
}

/// Copies `src` into `dst` rotated by `shift` along `dim` (two slice copies).
fn roll_into(dst: &TensorRef, src: &TensorRef, dim: usize, shift: i64) -> Result<()> {
    let n = src.sizes[dim];
    let s = if n == 0 { 0 } else { shift.rem_euclid(n) };
    copy(&narrow(dst, dim, s, n - s), &narrow(src, dim, 0, n - s))?;
    copy(&narrow(dst, dim, 0, s), &narrow(src, dim, n - s, s))
}

/// `roll(self, shifts, dims)`: each dim rotated by its shift; without dims, the flattened
/// tensor rotated and reshaped back.
fn roll(call: &mut Call) -> Result<()> {
    let a = call.tensor(0)?;
    let shifts = call.ints(1)?;
    let dims = call.ints(2)?;
    if dims.is_empty() && shifts.len() != 1 || !dims.is_empty() && shifts.len() != dims.len() {
        return Err(Error::runtime(format!(
            "shifts and dimensions must align. shifts: {}, dims:{}",
            shifts.len(),
            dims.len()
        )));
    }
    if a.sizes.is_empty() && !dims.is_empty() {
        return Err(Error::index(format!(
            "Dimension specified as {} but tensor has no dimensions",
            dims[0]
        )));
    }
    let out = call.create(&a.sizes, a.dtype, a.device)?;
    if dims.is_empty() {
        let dense = Scratch::contiguous(a.device, &a.sizes, a.dtype)?;
        copy(&dense.tensor, &a)?;
        let flat = |t: &TensorRef| TensorRef {
            sizes: smallvec![t.numel() as i64],
            strides: smallvec![1],
            ..t.clone()
        };
        return roll_into(&flat(&out), &flat(&dense.tensor), 0, shifts[0]);
    }
    let mut current = a.clone();
    let mut temps = Vec::new();
    for (k, (&dim, &shift)) in dims.iter().zip(&shifts).enumerate() {
        let dim = wrap_dim(dim, a.sizes.len())?;
        let target = if k + 1 == dims.len() {
            out.clone()
        } else {
            let temp = Scratch::contiguous(a.device, &a.sizes, a.dtype)?;
            let t = temp.tensor.clone();
            temps.push(temp);
            t
        };
        roll_into(&target, &current, dim, shift)?;
        current = target;
    }
    Ok(())
}

/// `masked_scatter_(self, mask, source)`: the masked positions of `self`, in row-major order,
/// take the leading elements of `source`.
fn masked_scatter(call: &mut Call) -> Result<()> {
    let a = call.tensor(0)?;
    let mask = call.tensor(1)?;
    let source = call.tensor(2)?;
    if mask.dtype != DType::Bool {
        return Err(Error::runtime(format!(
            "masked_scatter_ only supports boolean masks, but got mask with dtype {}",
            mask.dtype.name()
        )));
    }
    if source.dtype != a.dtype {
        return Err(Error::runtime(format!(
            "masked_scatter_: expected self and source to have same dtypes but got {} and {}",
            a.dtype.torch_name(),
            source.dtype.torch_name()
        )));
    }
    call.return_arg(0);
    let n = a.numel() as i64;
    if n == 0 {
        return Ok(());
    }
    // Position of each element among the masked ones: the running count of the mask.
    let wide_mask = TensorRef {
        strides: broadcast_strides(&mask, &a.sizes).into(),
        sizes: a.sizes.clone(),
        ..mask.clone()
    };
    let flags = Scratch::contiguous(a.device, &a.sizes, DType::I64)?;
    copy(&flags.tensor, &wide_mask)?;
    let flat = |t: &TensorRef| TensorRef {
        sizes: smallvec![n],
        strides: smallvec![1],
        ..t.clone()
    };
    let rank = Scratch::contiguous(a.device, &[n], DType::I64)?;
    let scan = ScanKernel::sum(DType::I64, DType::I64);
    run_scan(scan, &flat(&flags.tensor), &rank.tensor, 0)?;
    if source.numel() == 0 {
        // Nothing to read: fine only if nothing is masked (the count, read back).
        let mut bytes = [0u8; 8];
        crate::runtime::backend()?.read(rank.tensor.address + 8 * (n as u64 - 1), &mut bytes)?;
        if i64::from_le_bytes(bytes) > 0 {
            return Err(Error::runtime(
                "masked_scatter: Number of elements of source < number of ones in mask",
            ));
        }
        return Ok(());
    }
    // Unmasked positions read source element 0 (then discard it); masked ones rank - 1.
    let index = Expr::input(0, DType::I64).cast(DType::Bool).select(
        Expr::input(1, DType::I64) - Expr::constant(DType::I64, 1.0),
        Expr::constant(DType::I64, 0.0),
    );
    let kernel = MapKernel {
        inputs: smallvec![DType::I64, DType::I64],
        scalars: smallvec![],
        outputs: smallvec![(DType::I64, index)],
    };
    run_map(
        kernel,
        &[&flat(&flags.tensor), &rank.tensor, &rank.tensor],
        &[n],
        &[],
    )?;
    let dense_source = Scratch::contiguous(a.device, &source.sizes, a.dtype)?;
    copy(&dense_source.tensor, &source)?;
    let picked = Scratch::contiguous(a.device, &a.sizes, a.dtype)?;
    run_index(
        false,
        &[n],
        (&flat(&dense_source.tensor), vec![0]),
        (&flat(&picked.tensor), vec![1]),
        &[IndexArg {
            tensor: &rank.tensor,
            strides: vec![1],
            loop_strides: vec![],
            bound: source.numel() as i64,
            target: 1,
        }],
        Fault::runtime(
            "masked_scatter: Number of elements of source < number of ones in mask".into(),
        ),
    )?;
    let dtype = a.dtype;
    let kernel = MapKernel {
        inputs: smallvec![DType::I64, dtype, dtype],
        scalars: smallvec![],
        outputs: smallvec![(
            dtype,
            Expr::input(0, DType::I64)
                .cast(DType::Bool)
                .select(Expr::input(1, dtype), Expr::input(2, dtype)),
        )],
    };
    run_map(
        kernel,
        &[&flags.tensor, &picked.tensor, &a, &a],
        &a.sizes,
        &[],
    )
}

/// `channel_shuffle(self, groups)`: channels `[groups, C / groups]` transposed, as a copy
/// in the input's memory format.
fn channel_shuffle(call: &mut Call) -> Result<()> {
    let a = call.tensor(0)?;
    let groups = call.int(1)?;
    if a.sizes.len() <= 2 {
        return Err(Error::runtime(format!(
            "channel_shuffle expects input with > 2 dims, but got input with sizes {:?}",
            a.sizes
        )));
    }
    let channels = a.sizes[1];
    if groups <= 0 {
        return Err(Error::runtime(format!(
            "Number of groups to divide channels in must be positive. Value of groups:{groups}"
        )));
    }
    if channels % groups != 0 {
        return Err(Error::runtime(format!(
            "Number of channels must be divisible by groups. Got {channels} channels and {groups} groups."
        )));
    }
    let channels_last = (a.sizes.len() == 4 || a.sizes.len() == 5)
        && a.strides[1] == 1
        && channels > 1
        && !a.is_contiguous();
    let out = call.create_in(&a.sizes, a.dtype, a.device, channels_last)?;
    if out.numel() == 0 {
        return Ok(());
    }
    // Both as [N, C / groups, groups, *rest]: output channel `i * groups + g` is input
    // channel `g * (C / groups) + i`.
    let per_group = channels / groups;
    let split = |t: &TensorRef, outer: i64, inner: i64| {
        let mut sizes = vec![t.sizes[0], per_group, groups];
        sizes.extend(&t.sizes[2..]);
        let mut strides = vec![t.strides[0], outer * t.strides[1], inner * t.strides[1]];
        strides.extend(&t.strides[2..]);
        TensorRef {
            sizes: sizes.into(),
            strides: strides.into(),
            ..t.clone()
        }
    };
    copy(&split(&out, groups, 1), &split(&a, 1, per_group))
}

pub const OPS: &[(&str, OpFn)] = &[
    ("channel_shuffle", channel_shuffle),
    ("roll", roll),
    ("masked_scatter_", masked_scatter),
    ("cat.out", cat_out),
    ("masked_select", |c| masked_select(c, Dest::New)),
    ("masked_select.out", |c| masked_select(c, Dest::Arg(2))),
    ("flip", flip),
    ("masked_fill_.Scalar", masked_fill),
    ("masked_fill_.Tensor", masked_fill),
    ("tril.out", |c| triangle(c, true)),
    ("triu.out", |c| triangle(c, false)),
];
