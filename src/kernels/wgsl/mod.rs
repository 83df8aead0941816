//! WGSL, a dialect of the kernel printer: tensors are arrays of 32-bit words; a binding that
//! receives sub-word stores is atomic so that neighbouring elements in one word are never
//! lost. Launch arguments live in binding 0 as u32 words.

mod access;
mod dialect;
pub mod dtype;
mod emulated_f64;
mod expr;
mod math;

pub use dialect::Wgsl;

use crate::kernels::printer;
use crate::kernels::Kernel;

/// The WGSL source of `kernel`, with tensor argument `t` bound to buffer slot `slots[t]`;
/// `f64` says whether the device computes in f64.
pub fn render(kernel: &Kernel, slots: &[usize], f64: bool) -> String {
    printer::render(kernel, &mut Wgsl::new(slots, f64))
}
