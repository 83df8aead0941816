//! Indexing the flattened tensor (take, put_ with and without accumulation) and embedding's
//! backward (rows of the gradient summed into the rows of the weight their indices name).

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::Accumulate;
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::index::accumulate::run_accumulate;
use crate::ops::index::index_launch::{run_index, Fault, IndexArg};
use crate::ops::index::indexing::{at_least_1d, check_index_dtype, pair_view};
use crate::ops::shape::copy::{copy, fill};
use smallvec::smallvec;

/// `take(self, index)`: `self.flatten()[index]`, shaped like `index`.
fn take(call: &mut Call, dest: Dest) -> Result<()> {
    let a = call.tensor(0)?;
    let index = call.tensor(1)?;
    if index.dtype != DType::I64 {
        return Err(Error::index(format!(
            "take(): Expected a long tensor for index, but got {}",
            index.dtype.torch_name()
        )));
    }
    let out = call.result(dest, &index.sizes, a.dtype, a.device)?;
    out.assert_no_overlap(&a)?;
    out.assert_no_overlap(&index)?;
    let dense;
    let flat = if a.is_contiguous() {
        a.clone()
    } else {
        dense = Scratch::contiguous(a.device, &a.sizes, a.dtype)?;
        copy(&dense.tensor, &a)?;
        dense.tensor.clone()
    };
    let numel = a.numel() as i64;
    let (out, index) = (at_least_1d(&out), at_least_1d(&index));
    run_index(
        false,
        &out.sizes,
        (&flat, vec![0; out.sizes.len()]),
        (&out, out.strides.to_vec()),
        &[IndexArg {
            tensor: &index,
            strides: index.strides.to_vec(),
            loop_strides: vec![],
            bound: numel,
            target: 1,
        }],
        Fault::index(format!(
            "out of range: tried to access an index out of range on a tensor of {numel} elements."
        ))
        .wrapping(),
    )
}

/// `put_(self, index, source, accumulate)`: `self.flatten()[index] = source` (or `+=`), with
/// duplicates resolved in index order. Accumulating complex tensors add both parts at once
/// along their pair views, whose pair dimension trails every view below (without
/// accumulation complex elements move whole: `element_moves`).
fn put(call: &mut Call) -> Result<()> {
    let accumulate = call.boolean(3)?;
    let complex = accumulate && call.complex_component_of(0).is_some();
    let self_name = match call.complex_component_of(0) {
        Some(component) => component.complex_torch_name(),
        None => call.tensor(0)?.dtype.torch_name(),
    };
    let mismatch = |d: DType| {
        Error::runtime(format!(
            "put_(): self and source expected to have the same dtype, but got self.dtype = \
             {self_name} and source.dtype = {}",
            d.torch_name()
        ))
    };
    let read = |i: usize| {
        if complex {
            pair_view(call, i, mismatch)
        } else {
            call.tensor(i)
        }
    };
    let (a, index, source) = (read(0)?, call.tensor(1)?, read(2)?);
    let tail: &[i64] = if complex { &[2] } else { &[] };
    if index.dtype != DType::I64 {
        return Err(Error::index(format!(
            "put_(): Expected a long tensor for index, but got {}",
            index.dtype.torch_name()
        )));
    }
    if source.dtype != a.dtype {
        return Err(mismatch(source.dtype));
    }
    let source_numel = source.numel() >> tail.len();
    if source_numel != index.numel() {
        return Err(Error::runtime(format!(
            "put_(): Expected source and index to have the same number of elements, but got source.numel() = {source_numel}, index.numel() = {}",
            index.numel()
        )));
    }
    call.return_arg(0);
    let numel = (a.numel() >> tail.len()) as i64;
    if index.numel() == 0 {
        return Ok(());
    }
    if numel == 0 {
        return Err(Error::index(
            "put_(): Tried to put elements into an empty tensor",
        ));
    }
    let contiguous = |t: &TensorRef| -> Result<(TensorRef, Option<Scratch>)> {
        if t.is_contiguous() {
            return Ok((t.clone(), None));
        }
        let dense = Scratch::contiguous(t.device, &t.sizes, t.dtype)?;
        copy(&dense.tensor, t)?;
        Ok((dense.tensor.clone(), Some(dense)))
    };
    let (flat_self, _dense_self) = contiguous(&a)?;
    let sizes = [&[numel][..], tail].concat();
    let flat = TensorRef {
        strides: TensorRef::contiguous_strides(&sizes).into(),
        sizes: sizes.into(),
        ..flat_self.clone()
    };
    // The source pairs with the index element by element: view it with the index's shape.
    let _dense_source;
    let source = if source.sizes[..source.sizes.len() - tail.len()] == index.sizes[..] {
        source
    } else {
        let (base, dense) = contiguous(&source)?;
        _dense_source = dense;
        let shaped = [&index.sizes[..], tail].concat();
        TensorRef {
            strides: TensorRef::contiguous_strides(&shaped).into(),
            sizes: shaped.into(),
            ..base
        }
    };
    let rank = index.sizes.len();
    let op = if accumulate {
        Accumulate::Sum
    } else {
        Accumulate::Assign
    };
    run_accumulate(
        op,
        true,
        (&flat, flat.strides.to_vec()),
        &flat,
        &flat.sizes,
        &index.sizes,
        (
            &source,
            [&[0][..], &source.strides[rank..]].concat(),
            source.strides[..rank].to_vec(),
        ),
        &[IndexArg {
            tensor: &index,
            strides: vec![0; flat.sizes.len()],
            loop_strides: index.strides.to_vec(),
            bound: numel,
            target: 0,
        }],
        Fault::index(format!(
            "out of range: tried to access an index out of range on a tensor of {numel} elements."
        ))
        .wrapping(),
    )?;
    if flat_self.address != a.address {
        copy(&a, &flat_self)?;
    }
    Ok(())
}

/// `embedding_dense_backward(grad_output, indices, num_weights, padding_idx,
/// scale_grad_by_freq)`: row `w` of the result sums the gradient rows whose index is `w`.
fn embedding_dense_backward(call: &mut Call) -> Result<()> {
    let grad = call.tensor(0)?;
    let indices = call.tensor(1)?;
    let num_weights = call.int(2)?;
    let padding_idx = call.int(3)?;
    let by_freq = call.boolean(4)?;
    check_index_dtype(&indices, "embedding_backward", true)?;
    let rank = indices.sizes.len();
    if grad.sizes.len() != rank + 1 || grad.sizes[..rank] != indices.sizes[..] {
        return Err(Error::runtime(
            "embedding_backward: grad_output must have the indices' shape plus the embedding dimension",
        ));
    }
    let width = grad.sizes[rank];
    let out = call.create(&[num_weights, width], grad.dtype, grad.device)?;
    // Rows no index picks are zero: the sums start from a zeroed output.
    fill(&out, &ScalarArg::float(0.0))?;
    let op = if by_freq {
        Accumulate::Mean
    } else {
        Accumulate::Sum
    };
    run_accumulate(
        op,
        !by_freq,
        (&out, out.strides.to_vec()),
        &out,
        &out.sizes,
        &indices.sizes,
        (
            &grad,
            vec![0, grad.strides[rank]],
            grad.strides[..rank].to_vec(),
        ),
        &[IndexArg {
            tensor: &indices,
            strides: vec![0, 0],
            loop_strides: indices.strides.to_vec(),
            bound: num_weights,
            target: 0,
        }],
        Fault::index("index out of range in self".into()),
    )?;
    if (0..num_weights).contains(&padding_idx) {
        let row = TensorRef {
            address: out.address + (padding_idx * width) as u64 * out.dtype.size() as u64,
            sizes: smallvec![width],
            strides: smallvec![1],
            ..out.clone()
        };
        fill(&row, &ScalarArg::float(0.0))?;
    }
    Ok(())
}

pub const OPS: &[(&str, OpFn)] = &[
    ("take", |c| take(c, Dest::New)),
    ("take.out", |c| take(c, Dest::Arg(2))),
    ("put_", put),
    ("embedding_dense_backward", embedding_dense_backward),
];
