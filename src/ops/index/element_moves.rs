//! Ops that only move elements (gathers, flips, pads, triangles, index copies) take a
//! complex tensor as integers of its element's size: complex32 as int32, complex64 as int64.
//! Their integer kernels then copy each element's bits whole. While such an op runs, tensors
//! of that complex dtype read as the integer dtype and tensors it creates of the integer
//! dtype are created complex (the op creates no integer results of its own). complex128 has
//! no integer of its size: the op runs twice, on the real parts and then on the imaginary
//! parts, each read as int64 (strides doubled, the second 8 bytes on), and its second run
//! is handed the tensors its first run created.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::ffi::CStr;

use crate::dtype::DType;
use crate::error::Result;
use crate::ops::core::call::Call;
use crate::ops::core::registry::OpFn;
use crate::ops::core::tensor::TensorArg;

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

/// A moving op's view of its complex tensors.
#[derive(Clone, Copy)]
struct State {
    /// The integer dtype complex elements (or their parts) are read as.
    bits: DType,
    /// The complex dtype code so read.
    complex: i32,
    /// For complex128, the part this run moves (0: real, 1: imaginary).
    part: Option<u64>,
}

thread_local! {
    /// While a moving op runs on complex data.
    static MOVING: Cell<Option<State>> = const { Cell::new(None) };
    /// The tensors a complex128 move created in its first run (record, result number).
    static CREATED: RefCell<VecDeque<(TensorArg, i32)>> = const { RefCell::new(VecDeque::new()) };
}

/// How a tensor of dtype `code` is read while a moving op runs: (integer dtype, byte offset,
/// stride factor).
pub fn read_as(code: i32) -> Option<(DType, u64, i64)> {
    let state = MOVING.get().filter(|s| s.complex == code)?;
    Some(match state.part {
        Some(part) => (state.bits, part * state.bits.size() as u64, 2),
        None => (state.bits, 0, 1),
    })
}

/// The dtype code a tensor created of `dtype` gets while a moving op runs.
pub fn created_as(dtype: DType) -> i32 {
    match MOVING.get() {
        Some(state) if state.bits == dtype => state.complex,
        _ => dtype.code(),
    }
}

/// In the second run of a complex128 move, the next tensor the first run created.
pub fn created_before() -> Option<(TensorArg, i32)> {
    if MOVING.get()?.part? == 0 {
        return None;
    }
    CREATED.with_borrow_mut(|created| created.pop_front())
}

/// Notes a tensor the first run of a complex128 move created.
pub fn note_created(record: TensorArg, result: i32) {
    if MOVING.get().and_then(|s| s.part) == Some(0) {
        CREATED.with_borrow_mut(|created| created.push_back((record, result)));
    }
}

/// Clears the state however the op ends.
struct Moving;

impl Drop for Moving {
    fn drop(&mut self) {
        MOVING.set(None);
        CREATED.with_borrow_mut(VecDeque::clear);
    }
}

/// Runs op `name`, moving complex elements as integers where the op only moves elements.
pub fn run(name: &CStr, call: &mut Call, op: OpFn) -> Result<()> {
    let Some(complex) = call.first_complex_code() else {
        return op(call);
    };
    let bits = match complex {
        8 => DType::I32,
        9 | 10 => DType::I64,
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
    if complex != 10 {
        MOVING.set(Some(State {
            bits,
            complex,
            part: None,
        }));
        return op(call);
    }
    for part in 0..2 {
        MOVING.set(Some(State {
            bits,
            complex,
            part: Some(part),
        }));
        call.results.clear();
        op(call)?;
    }
    Ok(())
}
