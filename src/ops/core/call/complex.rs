//! The accessors of a call's complex arguments (read as their (real, imaginary) pair views)
//! and complex results.

use super::{Call, Dest, Operand, ValueKind};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::ops::core::output::Output;
use crate::ops::core::promote::Priority;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::tensor::TensorRef;
use crate::ops::elementwise::complex::{ComplexOperand, Number};

impl Call<'_> {
    /// The dtype code of the first complex tensor among the arguments (lists included).
    pub fn first_complex_code(&self) -> Option<i32> {
        self.args.iter().find_map(|a| match a.kind {
            ValueKind::Tensor => DType::complex_component(a.tensor.dtype).map(|_| a.tensor.dtype),
            ValueKind::TensorList if a.len > 0 => {
                // SAFETY: the glue describes `len` tensor records.
                let list = unsafe { std::slice::from_raw_parts(a.tensors, a.len as usize) };
                list.iter()
                    .find(|t| DType::complex_component(t.dtype).is_some())
                    .map(|t| t.dtype)
            }
            _ => None,
        })
    }

    /// Whether argument `index` is a complex number.
    pub fn is_complex(&self, index: usize) -> bool {
        self.args
            .get(index)
            .is_some_and(|a| a.kind == ValueKind::Complex)
    }

    /// Whether argument `index` is a complex tensor (on the device or a host number) or a
    /// complex number.
    pub fn is_complex_arg(&self, index: usize) -> bool {
        self.complex_component_of(index).is_some() || self.is_complex(index)
    }

    /// The component dtype of argument `index` when it is a complex tensor.
    pub fn complex_component_of(&self, index: usize) -> Option<DType> {
        self.args
            .get(index)
            .filter(|a| a.kind == ValueKind::Tensor)
            .and_then(|a| DType::complex_component(a.tensor.dtype))
    }

    /// A tensor or number argument of complex arithmetic ([`ComplexOperand`]).
    pub fn complex_operand(&self, index: usize) -> Result<ComplexOperand> {
        let arg = self.arg(index)?;
        if arg.kind == ValueKind::Tensor {
            if arg.tensor.device >= 0 {
                // SAFETY: the glue describes a live tensor.
                let (view, complex) = unsafe { TensorRef::from_arg_or_pairs(&arg.tensor)? };
                return Ok(ComplexOperand::Tensor { view, complex });
            }
            if let Some(component) = DType::complex_component(arg.tensor.dtype) {
                if arg.tensor.ndim != 0 {
                    return Err(Error::runtime(
                        "Expected all tensors to be on the same device, but found at least two devices, mojo:0 and cpu!",
                    ));
                }
                let size = component.size() as u64;
                // SAFETY: a zero-dimensional complex CPU tensor addresses its two parts.
                let (re, im) = unsafe {
                    (
                        ScalarArg::read_host(arg.tensor.data, component.code())?.to_f64(),
                        ScalarArg::read_host(arg.tensor.data + size, component.code())?.to_f64(),
                    )
                };
                let priority = if arg.wrapped != 0 {
                    Priority::Wrapped
                } else {
                    Priority::ZeroDim
                };
                let number = Number {
                    dtype: component,
                    complex: true,
                };
                return Ok(ComplexOperand::Scalar {
                    re,
                    im,
                    number,
                    priority,
                });
            }
        }
        if arg.kind == ValueKind::Complex {
            return Ok(ComplexOperand::Scalar {
                re: arg.d,
                im: f64::from_bits(arg.i as u64),
                number: Number {
                    dtype: DType::F64,
                    complex: true,
                },
                priority: Priority::Wrapped,
            });
        }
        Ok(match self.operand(index)? {
            Operand::Tensor(view) => ComplexOperand::Tensor {
                view,
                complex: false,
            },
            Operand::Scalar(s) => {
                let (dtype, priority) =
                    crate::ops::core::pointwise::promotion_key(&Operand::Scalar(s));
                ComplexOperand::Scalar {
                    re: s.to_f64(),
                    im: 0.0,
                    number: Number {
                        dtype,
                        complex: false,
                    },
                    priority,
                }
            }
        })
    }

    /// The destination of a complex result of `sizes` with parts of dtype `component`, as
    /// its pair view: an `out=` argument must be complex (PyTorch's casting rule refuses a
    /// real one), a new tensor is complex.
    pub fn complex_result(
        &mut self,
        dest: Dest,
        sizes: &[i64],
        component: DType,
        device: usize,
    ) -> Result<TensorRef> {
        let code = component
            .complex_code()
            .ok_or_else(|| Error::runtime("mojo: no complex dtype has these parts"))?;
        match dest {
            Dest::New => {
                let arg = self.create_record(sizes, code, device, None)?;
                // SAFETY: the glue described the tensor it keeps alive for the call.
                Ok(unsafe { TensorRef::from_arg_or_pairs(&arg) }?.0)
            }
            Dest::Arg(index) => {
                let arg = self.arg(index)?;
                if DType::complex_component(arg.tensor.dtype).is_none() {
                    let to = DType::from_code(arg.tensor.dtype)?;
                    return Err(Error::runtime(format!(
                        "result type Complex{} can't be cast to the desired output type {}",
                        component.torch_name(),
                        to.torch_name()
                    )));
                }
                // SAFETY: the glue describes a live tensor.
                let (view, _) = unsafe { TensorRef::from_arg_or_pairs(&arg.tensor)? };
                let mut out = Output::new_pairs(view, self.resize, self.ctx, index as i64);
                let t = out.resize_to(sizes)?.clone();
                self.return_arg(index);
                Ok(t)
            }
        }
    }
}
