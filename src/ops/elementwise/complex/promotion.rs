//! Operands of complex arithmetic and PyTorch's type promotion over them.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::ops::core::call::Call;
use crate::ops::core::promote::{promote_lattice, Priority};
use crate::ops::core::tensor::TensorRef;

/// A dtype as type promotion sees it: the real dtype, or the component of a complex one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Number {
    pub dtype: DType,
    pub complex: bool,
}

impl Number {
    fn real(dtype: DType) -> Self {
        Number {
            dtype,
            complex: false,
        }
    }

    /// PyTorch's name for error messages (`ComplexFloat`, `Float`, ...).
    pub fn torch_name(self) -> String {
        if self.complex {
            format!("Complex{}", self.dtype.torch_name())
        } else {
            self.dtype.torch_name().to_string()
        }
    }

    fn promote(self, other: Number) -> Number {
        Number {
            dtype: promote_lattice(self.dtype, other.dtype),
            complex: self.complex || other.complex,
        }
    }
}

/// An operand of complex arithmetic.
#[derive(Clone, Debug)]
pub enum ComplexOperand {
    /// A device tensor: a complex one as its pair view (`complex`), a real one as it is.
    Tensor { view: TensorRef, complex: bool },
    /// A host number (a Python number or a zero-dimensional CPU tensor of `dtype`).
    Scalar {
        re: f64,
        im: f64,
        number: Number,
        priority: Priority,
    },
}

impl ComplexOperand {
    fn key(&self) -> (Number, Priority) {
        match self {
            ComplexOperand::Tensor { view, complex } => {
                let rank = view.sizes.len() - usize::from(*complex);
                let number = Number {
                    dtype: view.dtype,
                    complex: *complex,
                };
                let priority = if rank == 0 {
                    Priority::ZeroDim
                } else {
                    Priority::Dim
                };
                (number, priority)
            }
            ComplexOperand::Scalar {
                number, priority, ..
            } => (*number, *priority),
        }
    }

    /// The sizes of the (complex) tensor, or none for a number.
    pub(super) fn shape(&self) -> Option<&[i64]> {
        match self {
            ComplexOperand::Tensor { view, complex } => {
                Some(&view.sizes[..view.sizes.len() - usize::from(*complex)])
            }
            ComplexOperand::Scalar { .. } => None,
        }
    }
}

/// PyTorch's `combine_categories`: a complex lower-priority result keeps a float
/// higher-priority one's precision.
pub(super) fn combine(higher: Option<Number>, lower: Option<Number>) -> Option<Number> {
    let (h, l) = match (higher, lower) {
        (Some(h), Some(l)) => (h, l),
        (h, l) => return h.or(l),
    };
    Some(if h.complex {
        h
    } else if l.complex {
        if h.dtype.is_float() {
            Number {
                dtype: h.dtype,
                complex: true,
            }
        } else {
            l
        }
    } else if h.dtype.is_float() {
        h
    } else if h.dtype == DType::Bool || l.dtype.is_float() {
        h.promote(l)
    } else {
        h
    })
}

/// `torch.result_type` over operands that may be complex (a Python float counts as float32,
/// a Python complex as complex64).
pub fn result_type(operands: &[&ComplexOperand]) -> Number {
    let mut slots: [Option<Number>; 3] = [None; 3];
    for operand in operands {
        let (mut number, priority) = operand.key();
        let slot = match priority {
            Priority::Dim => 0,
            Priority::ZeroDim => 1,
            Priority::Wrapped => {
                if number.dtype.is_float() {
                    number.dtype = DType::F32;
                }
                2
            }
        };
        slots[slot] = Some(slots[slot].map_or(number, |s| s.promote(number)));
    }
    combine(combine(slots[0], slots[1]), slots[2]).unwrap_or(Number::real(DType::F32))
}

/// Whether any of the arguments is a complex tensor or number.
pub fn involved(call: &Call, indices: &[usize]) -> bool {
    indices.iter().any(|&i| call.is_complex_arg(i))
}

/// The component dtype of a complex result (complex32, complex64 and complex128 exist).
pub(super) fn complex_component(result: Number, op: &str) -> Result<DType> {
    match result.dtype {
        DType::F16 | DType::F32 | DType::F64 if result.complex => Ok(result.dtype),
        _ => Err(Error::not_implemented(format!(
            "\"{op}\" not implemented for '{}'",
            result.torch_name()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smallvec::smallvec;
    use DType::*;

    fn tensor(dtype: DType, complex: bool, rank: usize) -> ComplexOperand {
        ComplexOperand::Tensor {
            view: TensorRef {
                address: 0,
                sizes: smallvec![2; rank + usize::from(complex)],
                strides: smallvec![1; rank + usize::from(complex)],
                dtype,
                device: 0,
            },
            complex,
        }
    }

    fn number(dtype: DType, complex: bool, priority: Priority) -> ComplexOperand {
        ComplexOperand::Scalar {
            re: 0.0,
            im: 1.0,
            number: Number { dtype, complex },
            priority,
        }
    }

    fn promoted(operands: &[ComplexOperand]) -> (DType, bool) {
        let r = result_type(&operands.iter().collect::<Vec<_>>());
        (r.dtype, r.complex)
    }

    #[test]
    fn promotion_matches_pytorch() {
        use Priority::Wrapped;
        // (operands, torch.result_type on the CPU)
        let cases = [
            ([tensor(F32, true, 1), tensor(F64, false, 1)], (F64, true)),
            ([tensor(F32, true, 1), tensor(F64, false, 0)], (F32, true)),
            ([tensor(F32, false, 1), tensor(F64, true, 0)], (F32, true)),
            ([tensor(I64, false, 1), tensor(F64, true, 0)], (F64, true)),
            (
                [tensor(F16, false, 1), number(F64, true, Wrapped)],
                (F16, true),
            ),
            (
                [tensor(I32, false, 1), number(F64, true, Wrapped)],
                (F32, true),
            ),
            ([tensor(F16, true, 1), tensor(BF16, false, 1)], (F32, true)),
            (
                [tensor(F16, true, 1), number(F64, false, Wrapped)],
                (F16, true),
            ),
        ];
        for (operands, expected) in cases {
            assert_eq!(promoted(&operands), expected, "{operands:?}");
        }
    }
}
