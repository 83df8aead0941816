//! Advanced indexing: `nonzero`, `self[indices]` (index.Tensor) and `self[indices] = values`
//! (index_put_), with integer and bool-mask indices in PyTorch's placement rules.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::complex::truth;
use crate::kernels::{Accumulate, BinaryOp, Expr, MapKernel};
use crate::ops::core::call::{Call, Dest, Located, Operand};
use crate::ops::core::launch::run_map;
use crate::ops::core::layout::{broadcast_shapes, broadcast_strides};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::index::accumulate::run_accumulate;
use crate::ops::index::index_launch::{run_index, Fault, IndexArg};
use crate::ops::index::indexing::pair_view;
use crate::ops::index::masked_select::Selection;
use crate::ops::shape::copy::{copy, fill};
use crate::runtime::backend;
use smallvec::smallvec;

/// The coordinates of the nonzero elements of `a`, one row each, in row-major order.
fn nonzero_of(a: &TensorRef) -> Result<Scratch> {
    let rank = a.sizes.len();
    let mask = Scratch::contiguous(a.device, &a.sizes, DType::Bool)?;
    let is_set = Expr::input(0, a.dtype).cast(DType::Bool);
    let kernel = MapKernel {
        inputs: smallvec![a.dtype],
        scalars: smallvec![],
        outputs: smallvec![(DType::Bool, is_set)],
    };
    run_map(kernel, &[a, &mask.tensor], &a.sizes, &[])?;
    let selection = Selection::of(&mask.tensor, &a.sizes)?;
    let count = selection.count;
    let out = Scratch::contiguous(a.device, &[count, rank as i64], DType::I64)?;
    if count == 0 || rank == 0 {
        return Ok(out);
    }
    let linear = Scratch::contiguous(a.device, &a.sizes, DType::I64)?;
    let kernel = MapKernel {
        inputs: smallvec![],
        scalars: smallvec![],
        outputs: smallvec![(DType::I64, Expr::Index)],
    };
    run_map(kernel, &[&linear.tensor], &a.sizes, &[])?;
    let selected = Scratch::contiguous(a.device, &[count], DType::I64)?;
    selection.copy(&linear.tensor, &selected.tensor, &a.sizes)?;
    // Column d of row k is (linear[k] / stride[d]) % size[d], with sizes and row-major
    // strides as launch scalars.
    let strides = TensorRef::contiguous_strides(&a.sizes);
    let rank_const = Expr::constant(DType::I64, rank as f64);
    let column = Expr::Index.binary(BinaryOp::Rem, rank_const);
    let lin = Expr::input(0, DType::I64);
    let mut value = Expr::constant(DType::I64, 0.0);
    let mut words = Vec::new();
    for d in (0..rank).rev() {
        let (stride, size) = (
            Expr::scalar(2 * d, DType::I64),
            Expr::scalar(2 * d + 1, DType::I64),
        );
        let coordinate = (lin.clone() / stride).binary(BinaryOp::Rem, size);
        let here = column
            .clone()
            .binary(BinaryOp::Eq, Expr::constant(DType::I64, d as f64));
        value = here.select(coordinate, value);
    }
    for (&stride, &size) in strides.iter().zip(&a.sizes) {
        for v in [stride, size.max(1)] {
            words.extend([v as u32, (v >> 32) as u32]);
        }
    }
    let kernel = MapKernel {
        inputs: smallvec![DType::I64],
        scalars: smallvec![DType::I64; 2 * rank],
        outputs: smallvec![(DType::I64, value)],
    };
    let rows = TensorRef {
        sizes: smallvec![count, rank as i64],
        strides: smallvec![1, 0],
        ..selected.tensor.clone()
    };
    run_map(kernel, &[&rows, &out.tensor], &[count, rank as i64], &words)?;
    Ok(out)
}

fn nonzero(call: &mut Call, dest: Dest) -> Result<()> {
    let truths = crate::ops::elementwise::complex::per_element(call, 0, Some(DType::Bool), truth)?;
    let a = match &truths {
        Some(t) => t.tensor.clone(),
        None => call.tensor(0)?,
    };
    let coordinates = nonzero_of(&a)?;
    let out = call.result(dest, &coordinates.tensor.sizes, DType::I64, a.device)?;
    if out.dtype != DType::I64 {
        return Err(Error::runtime(format!(
            "nonzero: Expected out tensor to have scalar type Long but got scalar type{}",
            out.dtype.torch_name()
        )));
    }
    copy(&out, &coordinates.tensor)
}

/// The indices of an advanced-indexing call after masks become integer indices: one optional
/// index per dimension of `self`, all broadcast to `shape`.
struct Plan {
    per_dim: Vec<Option<TensorRef>>,
    shape: Vec<i64>,
    /// Whether the indexed dimensions are adjacent (the broadcast dimensions then replace
    /// them in place; otherwise they lead the result).
    adjacent: bool,
    first: usize,
    /// Keeps the coordinates of mask indices alive.
    _masks: Vec<Scratch>,
}

impl Plan {
    fn new(a: &TensorRef, indices: Vec<Option<TensorRef>>) -> Result<Self> {
        let mut per_dim = Vec::new();
        let mut masks = Vec::new();
        for index in indices {
            let Some(index) = index else {
                per_dim.push(None);
                continue;
            };
            match index.dtype {
                DType::I64 | DType::I32 => per_dim.push(Some(index)),
                DType::Bool | DType::U8 => {
                    let at = per_dim.len();
                    for (m, &size) in index.sizes.iter().enumerate() {
                        if a.sizes.get(at + m) != Some(&size) {
                            return Err(Error::index(format!(
                                "The shape of the mask {:?} at index {m} does not match the shape of the indexed tensor {:?} at index {}",
                                index.sizes, a.sizes, at + m
                            )));
                        }
                    }
                    let coordinates = nonzero_of(&index)?;
                    let (count, rank) = (coordinates.tensor.sizes[0], index.sizes.len());
                    for m in 0..rank {
                        per_dim.push(Some(TensorRef {
                            address: coordinates.tensor.address + 8 * m as u64,
                            sizes: smallvec![count],
                            strides: smallvec![rank as i64],
                            ..coordinates.tensor.clone()
                        }));
                    }
                    masks.push(coordinates);
                }
                _ => {
                    return Err(Error::index(
                        "tensors used as indices must be long, int, byte or bool tensors",
                    ))
                }
            }
        }
        if per_dim.len() > a.sizes.len() {
            return Err(Error::index(format!(
                "too many indices for tensor of dimension {}",
                a.sizes.len()
            )));
        }
        per_dim.resize(a.sizes.len(), None);
        let shapes: Vec<&[i64]> = per_dim.iter().flatten().map(|t| &t.sizes[..]).collect();
        let shape = broadcast_shapes(&shapes).map_err(|_| {
            Error::index(format!(
                "shape mismatch: indexing tensors could not be broadcast together with shapes {}",
                shapes
                    .iter()
                    .map(|s| format!("{s:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        let used: Vec<usize> = (0..per_dim.len())
            .filter(|&d| per_dim[d].is_some())
            .collect();
        let first = used.first().copied().unwrap_or(0);
        let adjacent = used.windows(2).all(|w| w[1] == w[0] + 1);
        Ok(Plan {
            per_dim,
            shape: shape.to_vec(),
            adjacent,
            first,
            _masks: masks,
        })
    }

    /// The shape of `self[indices]` and, per result dimension, the `self` dimension it walks
    /// (None for the broadcast index dimensions).
    fn result(&self, a: &TensorRef) -> (Vec<i64>, Vec<Option<usize>>) {
        let rest: Vec<usize> = (0..a.sizes.len())
            .filter(|&d| self.per_dim[d].is_none())
            .collect();
        let broadcast = vec![None; self.shape.len()];
        let dims: Vec<Option<usize>> = if self.adjacent {
            let (before, after): (Vec<usize>, Vec<usize>) =
                rest.iter().partition(|&&d| d < self.first);
            before
                .into_iter()
                .map(Some)
                .chain(broadcast)
                .chain(after.into_iter().map(Some))
                .collect()
        } else {
            broadcast
                .into_iter()
                .chain(rest.into_iter().map(Some))
                .collect()
        };
        let mut b = self.shape.iter();
        let sizes = dims
            .iter()
            .map(|d| d.map_or_else(|| *b.next().expect("broadcast dims"), |d| a.sizes[d]))
            .collect();
        (sizes, dims)
    }

    /// `a`'s strides over the result dimensions (zero along the broadcast ones).
    fn walk(a: &TensorRef, dims: &[Option<usize>]) -> Vec<i64> {
        dims.iter().map(|d| d.map_or(0, |d| a.strides[d])).collect()
    }

    /// Strides of `t` (broadcast to the index shape) placed at the broadcast result dimensions.
    fn spread(&self, t: &TensorRef, dims: &[Option<usize>]) -> Vec<i64> {
        let mut inner = broadcast_strides(t, &self.shape).into_iter();
        dims.iter()
            .map(|d| {
                if d.is_none() {
                    inner.next().unwrap_or(0)
                } else {
                    0
                }
            })
            .collect()
    }
}

fn out_of_bounds(a: &TensorRef, plan: &Plan) -> Fault {
    let described: Vec<String> = plan
        .per_dim
        .iter()
        .enumerate()
        .filter(|(_, t)| t.is_some())
        .map(|(d, _)| format!("dimension {d} with size {}", a.sizes[d]))
        .collect();
    Fault::index(format!(
        "index is out of bounds for {}",
        described.join(" or ")
    ))
    .wrapping()
}

/// The index list of argument `at`, with host index tensors copied to `device` (kept alive
/// by the returned scratch tensors).
fn index_list(
    call: &Call,
    at: usize,
    device: usize,
) -> Result<(Vec<Option<TensorRef>>, Vec<Scratch>)> {
    let mut uploads = Vec::new();
    let mut list = Vec::new();
    for entry in call.optional_tensors_anywhere(at)? {
        list.push(match entry {
            None => None,
            Some(Located::Device(t)) => Some(t),
            Some(Located::Host(t)) => {
                let upload = Scratch::contiguous(device, &t.sizes, t.dtype)?;
                let size = t.dtype.size();
                let mut bytes = Vec::with_capacity(t.numel() as usize * size);
                for i in 0..t.numel() as i64 {
                    let (mut r, mut offset) = (i, 0i64);
                    for (&n, &stride) in t.sizes.iter().zip(&t.strides).rev() {
                        offset += (r % n) * stride;
                        r /= n;
                    }
                    let at = t.address.wrapping_add_signed(offset * size as i64) as *const u8;
                    // SAFETY: the glue passed a live host tensor whose elements are readable.
                    bytes.extend_from_slice(unsafe { std::slice::from_raw_parts(at, size) });
                }
                backend()?.write(upload.tensor.address, &bytes)?;
                let t = upload.tensor.clone();
                uploads.push(upload);
                Some(t)
            }
        });
    }
    Ok((list, uploads))
}

/// `index.Tensor_out(self, indices, out)`.
fn index(call: &mut Call) -> Result<()> {
    let a = call.tensor(0)?;
    let (indices, _uploads) = index_list(call, 1, a.device)?;
    let plan = Plan::new(&a, indices)?;
    let (sizes, dims) = plan.result(&a);
    let out = call.result(Dest::Arg(2), &sizes, a.dtype, a.device)?;
    if plan.per_dim.iter().all(Option::is_none) {
        return copy(&out, &a);
    }
    let args: Vec<IndexArg> = plan
        .per_dim
        .iter()
        .enumerate()
        .filter_map(|(d, t)| t.as_ref().map(|t| (d, t)))
        .map(|(d, t)| IndexArg {
            tensor: t,
            strides: plan.spread(t, &dims),
            loop_strides: vec![],
            bound: a.sizes[d],
            target: a.strides[d],
        })
        .collect();
    run_index(
        false,
        &sizes,
        (&a, Plan::walk(&a, &dims)),
        (&out, out.strides.to_vec()),
        &args,
        out_of_bounds(&a, &plan),
    )
}

/// `_index_put_impl_(self, indices, values, accumulate, unsafe)`: `self[indices] = values`,
/// or `+=` with accumulate (duplicates add up, in index order).
fn index_put(call: &mut Call) -> Result<()> {
    let accumulate = call.boolean(3)?;
    // Accumulating complex tensors add both parts at once along their pair views (without
    // accumulation complex elements move whole: `element_moves`).
    let complex = accumulate && call.complex_component_of(0).is_some();
    let component = call.complex_component_of(0).unwrap_or(DType::F32);
    let mismatch = |d: DType| {
        Error::runtime(format!(
            "Index put requires the source and destination dtypes match, got {} for the \
             destination and {} for the source.",
            component.complex_torch_name(),
            d.torch_name()
        ))
    };
    let a = if complex {
        pair_view(call, 0, mismatch)?
    } else {
        call.tensor(0)?
    };
    let (indices, _uploads) = index_list(call, 1, a.device)?;
    let rank = a.sizes.len() - usize::from(complex);
    if complex && indices.len() > rank {
        return Err(Error::index(format!(
            "too many indices for tensor of dimension {rank}"
        )));
    }
    let plan = Plan::new(&a, indices)?;
    let holder;
    let values = if complex {
        pair_view(call, 2, mismatch)?
    } else {
        match call.operand(2)? {
            Operand::Tensor(v) => v,
            Operand::Scalar(s) => {
                holder = Scratch::contiguous(a.device, &[], a.dtype)?;
                fill(&holder.tensor, &s)?;
                holder.tensor.clone()
            }
        }
    };
    if values.dtype != a.dtype {
        return Err(Error::runtime(format!(
            "Index put requires the source and destination dtypes match, got {} for the destination and {} for the source.",
            a.dtype.torch_name(),
            values.dtype.torch_name()
        )));
    }
    call.return_arg(0);
    let (sizes, dims) = plan.result(&a);
    if broadcast_shapes(&[&values.sizes, &sizes]).ok().as_deref() != Some(&sizes[..]) {
        return Err(Error::runtime(format!(
            "shape mismatch: value tensor of shape {:?} cannot be broadcast to indexing result of shape {:?}",
            values.sizes, sizes
        )));
    }
    let value_strides = broadcast_strides(&values, &sizes);
    let used: Vec<(usize, &TensorRef)> = plan
        .per_dim
        .iter()
        .enumerate()
        .filter_map(|(d, t)| t.as_ref().map(|t| (d, t)))
        .collect();
    if used.is_empty() {
        return copy(&a, &values);
    }
    let fault = out_of_bounds(&a, &plan);
    if !accumulate {
        let args: Vec<IndexArg> = used
            .iter()
            .map(|&(d, t)| IndexArg {
                tensor: t,
                strides: plan.spread(t, &dims),
                loop_strides: vec![],
                bound: a.sizes[d],
                target: a.strides[d],
            })
            .collect();
        return run_index(
            true,
            &sizes,
            (&values, value_strides),
            (&a, Plan::walk(&a, &dims)),
            &args,
            fault,
        );
    }
    // Accumulate: every element of `self` walks the broadcast index positions.
    let mut over_self = vec![0; a.sizes.len()];
    let mut over_loop = Vec::new();
    for (r, d) in dims.iter().enumerate() {
        match d {
            Some(d) => over_self[*d] = value_strides[r],
            None => over_loop.push(value_strides[r]),
        }
    }
    let args: Vec<IndexArg> = used
        .iter()
        .map(|&(d, t)| IndexArg {
            tensor: t,
            strides: vec![0; a.sizes.len()],
            loop_strides: broadcast_strides(t, &plan.shape),
            bound: a.sizes[d],
            target: d as i64,
        })
        .collect();
    run_accumulate(
        Accumulate::Sum,
        true,
        (&a, a.strides.to_vec()),
        &a,
        &a.sizes,
        &plan.shape,
        (&values, over_self, over_loop),
        &args,
        fault,
    )
}

pub const OPS: &[(&str, OpFn)] = &[
    ("nonzero", |c| nonzero(c, Dest::New)),
    ("nonzero.out", |c| nonzero(c, Dest::Arg(1))),
    ("index.Tensor_out", index),
    ("_index_put_impl_", index_put),
];
