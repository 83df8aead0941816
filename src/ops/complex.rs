//! Complex arithmetic. A complex tensor is read as its (real, imaginary) pair view
//! ([`TensorRef::from_arg_or_pairs`]); an op with a complex operand computes both parts of
//! its result in one map kernel with two outputs, in the component's opmath type (float32
//! for complex32, as CUDA). Type promotion is PyTorch's, complex categories included.
//!
//! Ops without complex support never see complex data: reading a complex tensor or number
//! as a real operand raises NotImplementedError.

use std::ops::{Add, Div, Mul, Neg, Sub};

use super::call::{Call, Dest};
use super::launch::run_map;
use super::layout::broadcast_shapes;
use super::promote::{promote_types, Priority};
use super::scalar::ScalarArg;
use super::tensor::TensorRef;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::special::hypot;
use crate::kernels::{Expr, MapKernel, UnaryOp};

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
            dtype: promote_types(self.dtype, other.dtype),
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
    fn shape(&self) -> Option<&[i64]> {
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
fn combine(higher: Option<Number>, lower: Option<Number>) -> Option<Number> {
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

/// A complex value as two expressions (real, imaginary).
type Parts = (Expr, Expr);

/// Writes `f(operands)` (each operand as its parts in the compute type) into the complex
/// destination of the operands' promoted dtype.
fn complex_map(
    call: &mut Call,
    operands: &[&ComplexOperand],
    dest: Dest,
    op: &str,
    f: impl FnOnce(&[Parts]) -> Parts,
) -> Result<()> {
    let result = result_type(operands);
    // A real result written into a complex `out=` converts to it.
    let component = match (complex_component(result, op), dest) {
        (Err(_), Dest::Arg(i)) if call.complex_component_of(i).is_some() && !result.complex => {
            call.complex_component_of(i).unwrap_or(DType::F32)
        }
        (found, _) => found?,
    };
    let compute = component.float_acc();
    let mut tensors: Vec<TensorRef> = Vec::new();
    let (mut inputs, mut scalars, mut words, mut parts) = (vec![], vec![], vec![], vec![]);
    let mut read = |t: TensorRef, tensors: &mut Vec<TensorRef>| {
        let e = Expr::input(tensors.len(), t.dtype).cast(compute);
        inputs.push(t.dtype);
        tensors.push(t);
        e
    };
    for operand in operands {
        parts.push(match operand {
            ComplexOperand::Tensor {
                view,
                complex: true,
            } => (
                read(view.part(0), &mut tensors),
                read(view.part(1), &mut tensors),
            ),
            ComplexOperand::Tensor { view, .. } => (
                read(view.clone(), &mut tensors),
                Expr::constant(compute, 0.0),
            ),
            ComplexOperand::Scalar { re, im, .. } => {
                let at = scalars.len();
                scalars.extend([compute, compute]);
                words.extend(ScalarArg::float(*re).words(compute));
                words.extend(ScalarArg::float(*im).words(compute));
                (Expr::scalar(at, compute), Expr::scalar(at + 1, compute))
            }
        });
    }
    let shapes: Vec<&[i64]> = operands.iter().filter_map(|o| o.shape()).collect();
    let shape = broadcast_shapes(&shapes)?;
    let device = tensors
        .first()
        .map(|t| t.device)
        .ok_or_else(|| Error::runtime("mojo: a complex op needs a device tensor operand"))?;
    let out = call.complex_result(dest, &shape, component, device)?;
    let (re, im) = f(&parts);
    let kernel = MapKernel {
        inputs,
        scalars,
        outputs: vec![
            (component, re.cast(component)),
            (component, im.cast(component)),
        ],
    };
    let (out_re, out_im) = (out.part(0), out.part(1));
    let mut all: Vec<&TensorRef> = tensors.iter().collect();
    all.extend([&out_re, &out_im]);
    run_map(kernel, &all, &shape, &words)
}

/// The component dtype of a complex result (complex32, complex64 and complex128 exist).
fn complex_component(result: Number, op: &str) -> Result<DType> {
    match result.dtype {
        DType::F16 | DType::F32 | DType::F64 if result.complex => Ok(result.dtype),
        _ => Err(Error::not_implemented(format!(
            "\"{op}\" not implemented for '{}'",
            result.torch_name()
        ))),
    }
}

fn mul((ar, ai): &Parts, (br, bi): &Parts) -> Parts {
    (
        ar.clone().mul(br.clone()).sub(ai.clone().mul(bi.clone())),
        ar.clone().mul(bi.clone()).add(ai.clone().mul(br.clone())),
    )
}

/// `a / b` by Smith's method, as c10::complex divides (numpy's order of operations).
fn div((a, b): &Parts, (c, d): &Parts) -> Parts {
    let abs = |e: &Expr| e.clone().unary(UnaryOp::Abs);
    let zero = Expr::constant(c.dtype(), 0.0);
    let one = Expr::constant(c.dtype(), 1.0);
    // |c| >= |d|: rat = d/c, scl = 1/(c + d*rat); else rat = c/d, scl = 1/(d + c*rat).
    let wide = abs(c).ge(abs(d));
    let rat = wide
        .clone()
        .select(d.clone().div(c.clone()), c.clone().div(d.clone()));
    let scl = one.div(wide.clone().select(
        c.clone().add(d.clone().mul(rat.clone())),
        d.clone().add(c.clone().mul(rat.clone())),
    ));
    let re = wide.clone().select(
        a.clone().add(b.clone().mul(rat.clone())),
        a.clone().mul(rat.clone()).add(b.clone()),
    );
    let im = wide.clone().select(
        b.clone().sub(a.clone().mul(rat.clone())),
        b.clone().mul(rat).sub(a.clone()),
    );
    // 0 / 0: a/|c| and b/|d|, complex infinities or NaN.
    let zeros = abs(c).eq(zero.clone()).and(abs(d).eq(zero));
    (
        zeros
            .clone()
            .select(a.clone().div(abs(c)), re.mul(scl.clone())),
        zeros.select(b.clone().div(abs(d)), im.mul(scl)),
    )
}

/// Routes an op to its complex form when any of `indices` (operands and `out=`) is complex.
pub fn route(
    call: &mut Call,
    indices: &[usize],
    complex: fn(&mut Call) -> Result<()>,
    real: fn(&mut Call) -> Result<()>,
) -> Result<()> {
    if involved(call, indices) {
        complex(call)
    } else {
        real(call)
    }
}

/// `add.out` / `sub.out` with a complex operand: `a + alpha * b` (or minus).
pub fn add_sub(call: &mut Call, subtract: bool) -> Result<()> {
    let (a, b) = (call.complex_operand(0)?, call.complex_operand(1)?);
    let alpha = call.complex_operand(2)?;
    let name = if subtract { "sub" } else { "add" };
    complex_map(call, &[&a, &b, &alpha], Dest::Arg(3), name, |e| {
        let scaled = mul(&e[2], &e[1]);
        if subtract {
            (e[0].0.clone().sub(scaled.0), e[0].1.clone().sub(scaled.1))
        } else {
            (e[0].0.clone().add(scaled.0), e[0].1.clone().add(scaled.1))
        }
    })
}

/// `mul.out` with a complex operand.
pub fn multiply(call: &mut Call) -> Result<()> {
    let (a, b) = (call.complex_operand(0)?, call.complex_operand(1)?);
    complex_map(call, &[&a, &b], Dest::Arg(2), "mul", |e| mul(&e[0], &e[1]))
}

/// `div.out` with a complex operand (rounding modes are refused as by the CPU).
pub fn divide(call: &mut Call, rounded: bool) -> Result<()> {
    let (a, b) = (call.complex_operand(0)?, call.complex_operand(1)?);
    if rounded && !call.is_none(2) {
        let mode = call.string(2)?.unwrap_or_default();
        let number = result_type(&[&a, &b]);
        return Err(Error::not_implemented(format!(
            "\"div_{mode}_cpu\" not implemented for '{}'",
            number.torch_name()
        )));
    }
    let dest = Dest::Arg(if rounded { 3 } else { 2 });
    complex_map(call, &[&a, &b], dest, "div", |e| div(&e[0], &e[1]))
}

/// `neg.out` of a complex tensor.
pub fn negate(call: &mut Call) -> Result<()> {
    let a = call.complex_operand(0)?;
    complex_map(call, &[&a], Dest::Arg(1), "neg", |e| {
        (e[0].0.clone().neg(), e[0].1.clone().neg())
    })
}

/// `abs.out` of a complex tensor: the magnitude (`hypot` of the parts), a real tensor.
pub fn absolute(call: &mut Call) -> Result<()> {
    let ComplexOperand::Tensor { view, .. } = call.complex_operand(0)? else {
        return Err(Error::runtime("mojo: abs expects a tensor"));
    };
    let component = view.dtype;
    let compute = component.float_acc();
    let (re, im) = (view.part(0), view.part(1));
    let out = call.result(Dest::Arg(1), &re.sizes, component, view.device)?;
    let kernel = MapKernel {
        inputs: vec![component, component],
        scalars: vec![],
        outputs: vec![(
            out.dtype,
            hypot(
                Expr::input(0, component).cast(compute),
                Expr::input(1, component).cast(compute),
                compute,
            )
            .cast(out.dtype),
        )],
    };
    run_map(kernel, &[&re, &im, &out], &re.sizes, &[])
}

/// `sgn.out` of a complex tensor: `z / |z|`, 0 at 0.
pub fn sign(call: &mut Call) -> Result<()> {
    let a = call.complex_operand(0)?;
    complex_map(call, &[&a], Dest::Arg(1), "sgn", |e| {
        let (re, im) = e[0].clone();
        let d = re.dtype();
        let magnitude = hypot(re.clone(), im.clone(), d);
        let zero = magnitude.clone().eq(Expr::constant(d, 0.0));
        (
            zero.clone()
                .select(Expr::constant(d, 0.0), re.div(magnitude.clone())),
            zero.select(Expr::constant(d, 0.0), im.div(magnitude)),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use DType::*;

    fn tensor(dtype: DType, complex: bool, rank: usize) -> ComplexOperand {
        ComplexOperand::Tensor {
            view: TensorRef {
                address: 0,
                sizes: vec![2; rank + usize::from(complex)],
                strides: vec![1; rank + usize::from(complex)],
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
