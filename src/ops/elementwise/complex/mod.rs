//! Complex arithmetic. A complex tensor is read as its (real, imaginary) pair view
//! ([`TensorRef::from_arg_or_pairs`]); an op with a complex operand computes both parts of
//! its result in one map kernel with two outputs, in the component's opmath type (float32
//! for complex32, as CUDA). Type promotion is PyTorch's, complex categories included.
//!
//! Ops without complex support never see complex data: reading a complex tensor or number
//! as a real operand raises NotImplementedError.
//!
//! `promotion`: operands and PyTorch's type promotion over them; `maps`: the map kernels
//! over operands read as parts; `ops`: the ops' complex forms.
//!
//! [`TensorRef::from_arg_or_pairs`]: crate::ops::core::tensor::TensorRef::from_arg_or_pairs

mod maps;
mod ops;
mod promotion;

pub use maps::per_element;
pub use ops::*;
pub use promotion::{involved, result_type, ComplexOperand, Number};
