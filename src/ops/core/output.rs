//! Output tensors that the ops layer may resize through a callback into the glue.

use std::ffi::c_void;

use crate::error::{Error, Result};
use crate::ops::core::tensor::{TensorArg, TensorRef};

/// Resizes argument `index` of the glue's call to `sizes` and writes its new description into
/// `out`; returns 0, or nonzero after reporting the error with `mojo_callback_error`.
pub type ResizeFn = unsafe extern "C" fn(
    ctx: *mut c_void,
    index: i64,
    sizes: *const i64,
    ndim: i64,
    out: *mut TensorArg,
) -> i32;

/// An op's `out=` tensor: its current view and how to resize it.
pub struct Output {
    pub tensor: TensorRef,
    resize: ResizeFn,
    ctx: *mut c_void,
    index: i64,
    /// Whether `tensor` is a complex tensor's pair view (a trailing dimension of 2).
    pairs: bool,
}

thread_local! {
    static CALLBACK_ERROR: std::cell::RefCell<Option<Error>> = const { std::cell::RefCell::new(None) };
}

/// Records the error a glue callback hit, to be returned by the op that called it.
pub fn set_callback_error(error: Error) {
    CALLBACK_ERROR.with(|e| *e.borrow_mut() = Some(error));
}

/// The error the last failed glue callback reported.
pub fn take_callback_error() -> Option<Error> {
    CALLBACK_ERROR.with(|e| e.borrow_mut().take())
}

impl Output {
    /// Wraps argument `index` of a call, resized through `resize(ctx, index, ..)`.
    pub fn new(tensor: TensorRef, resize: ResizeFn, ctx: *mut c_void, index: i64) -> Self {
        Output {
            tensor,
            resize,
            ctx,
            index,
            pairs: false,
        }
    }

    /// [`Output::new`] for a complex tensor given as its pair view.
    pub fn new_pairs(tensor: TensorRef, resize: ResizeFn, ctx: *mut c_void, index: i64) -> Self {
        Output {
            pairs: true,
            ..Self::new(tensor, resize, ctx, index)
        }
    }

    /// Makes the output `sizes` (a no-op when it already is) and returns its view.
    pub fn resize_to(&mut self, sizes: &[i64]) -> Result<&TensorRef> {
        let current = &self.tensor.sizes[..self.tensor.sizes.len() - usize::from(self.pairs)];
        if current != sizes {
            let mut arg = TensorArg::empty();
            // SAFETY: the glue promises `resize` accepts `ctx`; `arg` outlives the call.
            let rc = unsafe {
                (self.resize)(
                    self.ctx,
                    self.index,
                    sizes.as_ptr(),
                    sizes.len() as i64,
                    &mut arg,
                )
            };
            if rc != 0 {
                return Err(take_callback_error()
                    .unwrap_or_else(|| Error::runtime("mojo: resizing the output failed")));
            }
            // SAFETY: the glue filled `arg` from the resized tensor, which is still alive.
            self.tensor = unsafe { TensorRef::from_arg_or_pairs(&arg)?.0 };
        }
        Ok(&self.tensor)
    }
}
