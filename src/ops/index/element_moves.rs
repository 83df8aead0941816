//! Ops that only move elements (gathers, flips, pads, triangles, index copies) take a
//! complex tensor as integers of its element's size: complex32 as int32, complex64 as int64.
//! Their integer kernels then copy each element's bits whole. While such an op runs, tensors
//! of that complex dtype read as the integer dtype and tensors it creates of the integer
//! dtype are created complex (the op creates no integer results of its own). complex128 has
//! no integer of its size and is refused as before.

use std::cell::Cell;
use std::ffi::CStr;

use crate::dtype::DType;
use crate::error::Result;
use crate::ops::core::call::Call;
use crate::ops::core::registry::OpFn;

/// The ops, with the index of an `accumulate` flag that makes them add (and then not move).
const MOVES: &[(&str, Option<usize>)] = &[
    ("gather.out", None),
    ("index_select", None),
    ("index_select.out", None),
    ("index.Tensor_out", None),
    ("_index_put_impl_", Some(3)),
    ("put_", Some(3)),
    ("take", None),
    ("index_copy.out", None),
    ("scatter.src_out", None),
    ("masked_scatter_", None),
    ("masked_select", None),
    ("masked_select.out", None),
    ("flip", None),
    ("roll", None),
    ("channel_shuffle", None),
    ("tril.out", None),
    ("triu.out", None),
    ("im2col", None),
    ("im2col.out", None),
    ("reflection_pad1d", None),
    ("reflection_pad1d.out", None),
    ("reflection_pad2d", None),
    ("reflection_pad2d.out", None),
    ("reflection_pad3d", None),
    ("reflection_pad3d.out", None),
    ("replication_pad1d", None),
    ("replication_pad1d.out", None),
    ("replication_pad2d", None),
    ("replication_pad2d.out", None),
    ("replication_pad3d", None),
    ("replication_pad3d.out", None),
];

thread_local! {
    /// While a moving op runs on complex data: (integer dtype, complex dtype code).
    static MOVING: Cell<Option<(DType, i32)>> = const { Cell::new(None) };
}

/// The integer dtype a tensor of dtype `code` is read as while a moving op runs.
pub fn read_as(code: i32) -> Option<DType> {
    MOVING
        .get()
        .and_then(|(dtype, complex)| (complex == code).then_some(dtype))
}

/// The dtype code a tensor created of `dtype` gets while a moving op runs.
pub fn created_as(dtype: DType) -> i32 {
    match MOVING.get() {
        Some((bits, complex)) if bits == dtype => complex,
        _ => dtype.code(),
    }
}

/// Clears the state however the op ends.
struct Moving;

impl Drop for Moving {
    fn drop(&mut self) {
        MOVING.set(None);
    }
}

/// Runs op `name`, moving complex elements as integers where the op only moves elements.
pub fn run(name: &CStr, call: &mut Call, op: OpFn) -> Result<()> {
    let Some(code) = call.first_complex_code() else {
        return op(call);
    };
    let bits = match code {
        8 => DType::I32,
        9 => DType::I64,
        _ => return op(call),
    };
    let moves = MOVES
        .iter()
        .find(|(n, _)| n.as_bytes() == name.to_bytes())
        .is_some_and(|(_, flag)| flag.is_none_or(|i| !call.boolean(i).unwrap_or(true)));
    if !moves {
        return op(call);
    }
    let _moving = Moving;
    MOVING.set(Some((bits, code)));
    op(call)
}
