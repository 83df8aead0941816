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
use smallvec::smallvec;

/// How a kernel's tensor arguments are bound: tensor `t` to slot `slots[t]` (one slot per
/// distinct buffer); slot `s` as `windows[s]` consecutive windows of `1 << window_shift`
/// bytes when its buffer exceeds the device's largest binding (else 1, the whole buffer).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bindings {
    pub slots: smallvec::SmallVec<[usize; 4]>,
    pub windows: smallvec::SmallVec<[u32; 4]>,
    pub window_shift: u32,
}

impl Bindings {
    /// Each tensor its own slot, bound whole.
    pub fn separate(tensors: usize) -> Self {
        Bindings {
            slots: (0..tensors).collect(),
            windows: smallvec![1; tensors],
            window_shift: 27,
        }
    }
}

/// What the device running a kernel offers: float64 arithmetic, and whether it is a CPU
/// (lavapipe), whose cores each run a group's invocations one SIMD batch after another.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    pub f64: bool,
    pub cpu: bool,
}

/// The WGSL source of `kernel` bound as `bindings` for `target`.
pub fn render(kernel: &Kernel, bindings: &Bindings, target: Target) -> String {
    printer::render(kernel, &mut Wgsl::new(bindings, target))
}
