//! Indexing along one dimension: index_select, gather, the scatter family, index_add,
//! index_copy (index_fill_ in `index_fill`).

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Accumulate, Expr, MapKernel};
use crate::ops::core::call::{Call, Dest, Operand};
use crate::ops::core::launch::run_map;
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::elementwise::complex::ComplexOperand;
use crate::ops::index::accumulate::run_accumulate;
use crate::ops::index::index_launch::{run_index, Fault, IndexArg};
use crate::ops::reduce::reductions::wrap_dim;
use crate::ops::shape::copy::fill;
use crate::ops::shape::rearrange::narrow;
use smallvec::smallvec;

/// `t` with one dimension of size 1 when it has none (dim-based ops treat scalars so).
pub fn at_least_1d(t: &TensorRef) -> TensorRef {
    let mut t = t.clone();
    if t.sizes.is_empty() {
        t.sizes = smallvec![1];
        t.strides = smallvec![1];
    }
    t
}

/// A complex tensor's (real, imaginary) pair view whose complex dimensions are at least one,
/// as [`at_least_1d`] makes a real tensor's: a zero-dimensional one gains its unit dimension
/// in front of the pair.
pub fn pairs_at_least_1d(t: TensorRef) -> TensorRef {
    match t.sizes[..] {
        [pair] => TensorRef {
            sizes: smallvec![1, pair],
            strides: smallvec![pair, t.strides[0]],
            ..t
        },
        _ => t,
    }
}

/// Argument `i` as its (real, imaginary) pair view; `mismatch(dtype)` is the error when it is
/// not complex.
pub fn pair_view(
    call: &Call,
    i: usize,
    mismatch: impl FnOnce(DType) -> Error,
) -> Result<TensorRef> {
    // SAFETY: the glue describes a live tensor.
    let (view, pairs) = unsafe { TensorRef::from_arg_or_pairs(call.tensor_arg(i)?)? };
    if pairs {
        Ok(view)
    } else {
        Err(mismatch(view.dtype))
    }
}

/// `strides` with `dim`'s entry zeroed.
fn without(strides: &[i64], dim: usize) -> Vec<i64> {
    let mut s = strides.to_vec();
    s[dim] = 0;
    s
}

pub(crate) fn check_index_dtype(index: &TensorRef, op: &str, int32: bool) -> Result<()> {
    if index.numel() == 0 {
        return Ok(());
    }
    match index.dtype {
        DType::I64 => Ok(()),
        DType::I32 if int32 => Ok(()),
        _ if int32 => Err(Error::index(format!(
            "{op}(): Expected dtype int32 or int64 for index"
        ))),
        _ => Err(Error::runtime(format!(
            "{op}(): Expected dtype int64 for index"
        ))),
    }
}

/// A one-element tensor holding `value` as `dtype`, read with zero strides.
pub(super) fn scalar_tensor(device: usize, dtype: DType, value: &ScalarArg) -> Result<Scratch> {
    let s = Scratch::contiguous(device, &[], dtype)?;
    fill(&s.tensor, value)?;
    Ok(s)
}

/// `index_select(self, dim, index)`: the slices of `self` along `dim` at `index` (1-D).
fn index_select(call: &mut Call, dest: Dest) -> Result<()> {
    let a = call.tensor(0)?;
    let dim = wrap_dim(call.int(1)?, a.sizes.len())?;
    let index = call.tensor(2)?;
    if index.sizes.len() > 1 {
        return Err(Error::index(
            "index_select(): Index is supposed to be a vector",
        ));
    }
    check_index_dtype(&index, "index_select", true)?;
    let count = index.numel() as i64;
    if a.sizes.is_empty() && count != 1 {
        return Err(Error::index(format!(
            "index_select(): Index to scalar can have only 1 value, got {count} value(s)"
        )));
    }
    let mut sizes = a.sizes.clone();
    if !sizes.is_empty() {
        sizes[dim] = count;
    }
    let out = call.result(dest, &sizes, a.dtype, a.device)?;
    if out.dtype != a.dtype {
        return Err(Error::runtime(format!(
            "index_select(): self and result must have the same scalar type, got {} and {}",
            a.dtype.torch_name(),
            out.dtype.torch_name()
        )));
    }
    out.assert_no_overlap(&a)?;
    out.assert_no_overlap(&index)?;
    let (a, out, index) = (at_least_1d(&a), at_least_1d(&out), at_least_1d(&index));
    let mut index_strides = vec![0; a.sizes.len()];
    index_strides[dim] = index.strides[0];
    run_index(
        false,
        &out.sizes,
        (&a, without(&a.strides, dim)),
        (&out, out.strides.to_vec()),
        &[IndexArg {
            tensor: &index,
            strides: index_strides,
            loop_strides: vec![],
            bound: a.sizes[dim],
            target: a.strides[dim],
        }],
        Fault::index("index out of range in self".into()),
    )
}

/// Checks gather/scatter shapes: `index` has `self`'s rank and is no larger than `self`
/// outside `dim` (and no larger than `src` anywhere, when given).
fn check_scatter_shapes(
    a: &TensorRef,
    dim: usize,
    index: &TensorRef,
    src: Option<&TensorRef>,
) -> Result<()> {
    if index.numel() == 0 {
        return Ok(());
    }
    if index.sizes.len().max(1) != a.sizes.len().max(1) {
        return Err(Error::runtime(
            "Index tensor must have the same number of dimensions as input tensor",
        ));
    }
    let (a1, i1) = (at_least_1d(a), at_least_1d(index));
    for d in 0..a1.sizes.len() {
        if d != dim && i1.sizes[d] > a1.sizes[d] {
            return Err(Error::runtime(format!(
                "Size does not match at dimension {d} expected index {:?} to be no larger than self {:?} apart from dimension {dim}",
                index.sizes, a.sizes
            )));
        }
        if let Some(src) = src {
            let s1 = at_least_1d(src);
            if s1.sizes.len() != i1.sizes.len() {
                return Err(Error::runtime(
                    "Index tensor must have the same number of dimensions as src tensor",
                ));
            }
            if i1.sizes[d] > s1.sizes[d] {
                return Err(Error::runtime(format!(
                    "Size does not match at dimension {d} expected index {:?} to be no larger than src {:?}",
                    index.sizes, src.sizes
                )));
            }
        }
    }
    Ok(())
}

/// `gather.out(self, dim, index, sparse_grad, out)`: `out[p] = self[p with p[dim] = index[p]]`.
fn gather(call: &mut Call) -> Result<()> {
    let a = call.tensor(0)?;
    let dim = wrap_dim(call.int(1)?, a.sizes.len())?;
    let index = call.tensor(2)?;
    check_index_dtype(&index, "gather", true)?;
    check_scatter_shapes(&a, dim, &index, None)?;
    let out = call.result(Dest::Arg(4), &index.sizes, a.dtype, a.device)?;
    if out.dtype != a.dtype {
        return Err(Error::runtime(
            "gather(): Expected self.dtype to be equal to src.dtype",
        ));
    }
    out.assert_no_overlap(&a)?;
    out.assert_no_partial_overlap(&index)?;
    let (a, out, index) = (at_least_1d(&a), at_least_1d(&out), at_least_1d(&index));
    run_index(
        false,
        &out.sizes,
        (&a, without(&a.strides, dim)),
        (&out, out.strides.to_vec()),
        &[IndexArg {
            tensor: &index,
            strides: index.strides.to_vec(),
            loop_strides: vec![],
            bound: a.sizes[dim],
            target: a.strides[dim],
        }],
        Fault::runtime(format!(
            "gather(): index out of bounds for dimension {dim} with size {}",
            a.sizes[dim]
        )),
    )
}

/// Combines `values` into `out` (`self` elsewhere) along `dim` at `index`. With `full_index`
/// the index has `self`'s rank (the scatter family: position `p` goes to `p[dim] = index[p]`),
/// else it is a vector (the index_add family: slice `i` goes to slice `index[i]`). A
/// zero-dimensional `values` is broadcast.
#[allow(clippy::too_many_arguments)]
pub(super) fn scatter_along(
    op: Accumulate,
    include_self: bool,
    a: &TensorRef,
    out: &TensorRef,
    dim: usize,
    index: &TensorRef,
    values: &TensorRef,
    full_index: bool,
    fault: Fault,
) -> Result<()> {
    let (a, out, index) = (at_least_1d(a), at_least_1d(out), at_least_1d(index));
    let rank = a.sizes.len();
    let values = if values.sizes.is_empty() {
        TensorRef {
            sizes: smallvec![1; rank],
            strides: smallvec![0; rank],
            ..values.clone()
        }
    } else {
        values.clone()
    };
    let (limits, loop_size, index_strides, index_loop) = if full_index {
        let mut limits = index.sizes.clone();
        limits[dim] = a.sizes[dim];
        (
            limits,
            index.sizes[dim],
            without(&index.strides, dim),
            index.strides[dim],
        )
    } else {
        (
            a.sizes.clone(),
            index.sizes[0],
            vec![0; rank],
            index.strides[0],
        )
    };
    run_accumulate(
        op,
        include_self,
        (&a, a.strides.to_vec()),
        &out,
        &limits,
        &[loop_size],
        (
            &values,
            without(&values.strides, dim),
            vec![values.strides[dim]],
        ),
        &[IndexArg {
            tensor: &index,
            strides: index_strides,
            loop_strides: vec![index_loop],
            bound: a.sizes[dim],
            target: dim as i64,
        }],
        fault,
    )
}

/// The scatter family's `out=` overloads: `(self, dim, index, src|value[, reduce[,
/// include_self]], out)`.
fn scatter(
    call: &mut Call,
    op: Option<Accumulate>,
    reduce_at: Option<usize>,
    out_at: usize,
) -> Result<()> {
    if op == Some(Accumulate::Sum) && call.complex_component_of(0).is_some() {
        return scatter_complex(call, None);
    }
    if reduce_at.is_none() && call.complex_component_of(0).is_some() {
        if let ComplexOperand::Scalar { re, im, .. } = call.complex_operand(3)? {
            return scatter_complex(call, Some((re, im)));
        }
    }
    let a = call.tensor(0)?;
    let dim = wrap_dim(call.int(1)?, a.sizes.len())?;
    let index = call.tensor(2)?;
    check_index_dtype(&index, "scatter", true)?;
    let (op, include_self) = match reduce_at {
        None => (op.unwrap_or(Accumulate::Assign), true),
        Some(r) => {
            let name = call.string(r)?.unwrap_or_default();
            let op = match name.as_str() {
                "add" | "sum" => Accumulate::Sum,
                "multiply" | "prod" => Accumulate::Prod,
                "mean" if out_at == 6 => Accumulate::Mean,
                "amax" if out_at == 6 => Accumulate::Max,
                "amin" if out_at == 6 => Accumulate::Min,
                _ if out_at == 6 => {
                    return Err(Error::runtime(format!(
                        "reduce argument must be either sum, prod, mean, amax or amin, got {name}"
                    )))
                }
                _ => {
                    return Err(Error::runtime(format!(
                        "reduce argument must be either add or multiply, got {name}"
                    )))
                }
            };
            let include = if out_at == 6 { call.boolean(5)? } else { true };
            (op, include)
        }
    };
    let holder;
    let values = match call.operand(3)? {
        Operand::Tensor(src) => {
            if src.dtype != a.dtype {
                return Err(Error::runtime(
                    "scatter(): Expected self.dtype to be equal to src.dtype",
                ));
            }
            check_scatter_shapes(&a, dim, &index, Some(&src))?;
            src
        }
        Operand::Scalar(v) => {
            check_scatter_shapes(&a, dim, &index, None)?;
            holder = scalar_tensor(a.device, a.dtype, &v)?;
            holder.tensor.clone()
        }
    };
    let out = call.result(Dest::Arg(out_at), &a.sizes, a.dtype, a.device)?;
    let size = at_least_1d(&a).sizes[dim];
    scatter_along(
        op,
        include_self,
        &a,
        &out,
        dim,
        &index,
        &values,
        true,
        Fault::runtime(format!(
            "index out of bounds for dimension {dim} with size {size}"
        )),
    )
}

/// Checks an index_add/index_copy source against `self` and a vector index.
fn check_index_source(
    op: &str,
    a: &TensorRef,
    dim: usize,
    index: &TensorRef,
    source: &TensorRef,
) -> Result<()> {
    if index.sizes.len() > 1 {
        return Err(Error::index(format!(
            "{op}(): Index is supposed to be a vector"
        )));
    }
    check_index_dtype(index, op, true)?;
    if source.dtype != a.dtype {
        return Err(Error::runtime(format!(
            "{op}(): self ({}) and source ({}) must have the same scalar type",
            a.dtype.torch_name(),
            source.dtype.torch_name()
        )));
    }
    let (a1, s1) = (at_least_1d(a), at_least_1d(source));
    let count = index.numel() as i64;
    let fits = a1.sizes.len() == s1.sizes.len()
        && s1.sizes[dim] == count
        && (0..a1.sizes.len()).all(|d| d == dim || a1.sizes[d] == s1.sizes[d]);
    if !(fits || source.sizes.is_empty() && count == 1) {
        return Err(Error::index(format!(
            "{op}(): Source/destination tensor must have same slice shapes. Destination slice shape: {:?} at dimension {dim} and source slice shape: {:?} at dimension 0.",
            a.sizes, source.sizes
        )));
    }
    Ok(())
}

/// `index_add.out(self, dim, index, source, alpha, out)` (`Sum`) and `index_copy.out(self,
/// dim, index, source, out)` (`Assign`): slice `i` of `source` along `dim` goes to slice
/// `index[i]` of `self`.
fn index_into(call: &mut Call, op: Accumulate) -> Result<()> {
    let name = if op == Accumulate::Sum {
        "index_add"
    } else {
        "index_copy"
    };
    // index_add of complex tensors adds both parts along their pair views (index_copy moves
    // complex elements whole: `element_moves`).
    let complex = op == Accumulate::Sum && call.complex_component_of(0).is_some();
    let read = |i: usize| -> Result<TensorRef> {
        if complex {
            pair_view(call, i, |d| {
                Error::runtime(format!(
                    "{name}_(): self (ComplexFloat) and source ({}) must have the same scalar type",
                    d.torch_name()
                ))
            })
        } else {
            call.tensor(i)
        }
    };
    let lift = |t: TensorRef| if complex { pairs_at_least_1d(t) } else { t };
    let (a, source) = (read(0)?, read(3)?);
    let rank = a.sizes.len() - usize::from(complex);
    let (a, source) = (lift(a), lift(source));
    let dim = wrap_dim(call.int(1)?, rank)?;
    let index = call.tensor(2)?;
    check_index_source(name, &a, dim, &index, &source)?;
    let out_at = if op == Accumulate::Sum { 5 } else { 4 };
    let scaled;
    let source = match op {
        Accumulate::Sum if call.scalar(4)?.to_f64() != 1.0 => {
            let alpha = call.scalar(4)?;
            scaled = Scratch::contiguous(a.device, &source.sizes, a.dtype)?;
            let dtype = a.dtype;
            let kernel = MapKernel {
                inputs: smallvec![dtype],
                scalars: smallvec![dtype],
                outputs: smallvec![(dtype, Expr::input(0, dtype) * Expr::scalar(0, dtype))],
            };
            run_map(
                kernel,
                &[&source, &scaled.tensor],
                &source.sizes,
                &alpha.words(dtype),
            )?;
            scaled.tensor.clone()
        }
        _ => source,
    };
    let out = if complex {
        lift(call.complex_result(Dest::Arg(out_at), &a.sizes[..rank], a.dtype, a.device)?)
    } else {
        call.result(Dest::Arg(out_at), &a.sizes, a.dtype, a.device)?
    };
    scatter_along(
        op,
        true,
        &a,
        &out,
        dim,
        &index,
        &source,
        false,
        Fault::index(format!("{name}(): index out of range in self")),
    )
}

/// `scatter_add.out(self, dim, index, src, out)` (`number` none) and `scatter.value_out` of
/// a complex number into complex tensors: both parts at once along their pair views, the
/// index repeated along the pair dimension; a number is held in a scratch pair that every
/// scattered element reads.
fn scatter_complex(call: &mut Call, number: Option<(f64, f64)>) -> Result<()> {
    let mismatch = |_| Error::runtime("scatter(): Expected self.dtype to be equal to src.dtype");
    let a = pair_view(call, 0, mismatch)?;
    let sizes = a.sizes[..a.sizes.len() - 1].to_vec();
    let dim = wrap_dim(call.int(1)?, sizes.len())?;
    let index = call.tensor(2)?;
    check_index_dtype(&index, "scatter", true)?;
    let index = TensorRef {
        sizes: [&index.sizes[..], &[2]].concat().into(),
        strides: [&index.strides[..], &[0]].concat().into(),
        ..index
    };
    let (a, index) = (pairs_at_least_1d(a), pairs_at_least_1d(index));
    let held;
    let (op, src) = match number {
        None => {
            let src = pairs_at_least_1d(pair_view(call, 3, mismatch)?);
            check_scatter_shapes(&a, dim, &index, Some(&src))?;
            (Accumulate::Sum, src)
        }
        Some((re, im)) => {
            check_scatter_shapes(&a, dim, &index, None)?;
            held = Scratch::contiguous(a.device, &[2], a.dtype)?;
            for (part, value) in [re, im].into_iter().enumerate() {
                let element = narrow(&held.tensor, 0, part as i64, 1);
                fill(&element, &ScalarArg::float(value))?;
            }
            let rank = a.sizes.len();
            let src = TensorRef {
                sizes: [vec![1; rank - 1], vec![2]].concat().into(),
                strides: [vec![0; rank - 1], vec![1]].concat().into(),
                ..held.tensor.clone()
            };
            (Accumulate::Assign, src)
        }
    };
    let out = call.complex_result(Dest::Arg(4), &sizes, a.dtype, a.device)?;
    let size = a.sizes[dim];
    scatter_along(
        op,
        true,
        &a,
        &pairs_at_least_1d(out),
        dim,
        &index,
        &src,
        true,
        Fault::runtime(format!(
            "index out of bounds for dimension {dim} with size {size}"
        )),
    )
}

pub const OPS: &[(&str, OpFn)] = &[
    ("index_select", |c| index_select(c, Dest::New)),
    ("index_select.out", |c| index_select(c, Dest::Arg(3))),
    ("gather.out", gather),
    ("scatter.src_out", |c| scatter(c, None, None, 4)),
    ("scatter.value_out", |c| scatter(c, None, None, 4)),
    ("scatter.reduce_out", |c| scatter(c, None, Some(4), 5)),
    ("scatter.value_reduce_out", |c| scatter(c, None, Some(4), 5)),
    ("scatter_add.out", |c| {
        scatter(c, Some(Accumulate::Sum), None, 4)
    }),
    ("scatter_reduce.two_out", |c| scatter(c, None, Some(4), 6)),
    ("index_add.out", |c| index_into(c, Accumulate::Sum)),
    ("index_copy.out", |c| index_into(c, Accumulate::Assign)),
];
