//! CUDA C++, a dialect of the kernel printer: source for NVRTC. Half types are stored as
//! 16-bit patterns and computed in float, as on wgpu, so no CUDA header is needed.

mod dialect;
mod expr;
mod prelude;

pub use dialect::{Cuda, ENTRY, MAX_WORDS};

use crate::kernels::printer;
use crate::kernels::Kernel;

/// The CUDA C++ source of `kernel`.
pub fn render(kernel: &Kernel) -> String {
    printer::render(kernel, &mut Cuda)
}
