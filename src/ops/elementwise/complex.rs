//! Complex arithmetic. A complex tensor is read as its (real, imaginary) pair view
//! ([`TensorRef::from_arg_or_pairs`]); an op with a complex operand computes both parts of
//! its result in one map kernel with two outputs, in the component's opmath type (float32
//! for complex32, as CUDA). Type promotion is PyTorch's, complex categories included.
//!
//! Ops without complex support never see complex data: reading a complex tensor or number
//! as a real operand raises NotImplementedError.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::complex::{
    add, div, magnitude, mul, pow, real, scale, sub, truth, unary as complex_unary, Parts,
};
use crate::kernels::{BinaryOp, Expr, MapKernel, UnaryOp};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::run_map;
use crate::ops::core::layout::broadcast_shapes;
use crate::ops::core::promote::{promote_types, Priority};
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use smallvec::smallvec;

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

/// The operands of a complex kernel read as parts in the compute type: their tensors (pair
/// views split), their dtypes, scalar slots and words, and the broadcast shape.
struct PartsInputs {
    tensors: Vec<TensorRef>,
    inputs: Vec<DType>,
    scalars: Vec<DType>,
    words: Vec<u32>,
    parts: Vec<Parts>,
    shape: Vec<i64>,
    device: usize,
}

fn read_parts(operands: &[&ComplexOperand], compute: DType) -> Result<PartsInputs> {
    let mut r = PartsInputs {
        tensors: vec![],
        inputs: vec![],
        scalars: vec![],
        words: vec![],
        parts: vec![],
        shape: vec![],
        device: 0,
    };
    let read = |t: TensorRef, r: &mut PartsInputs| {
        let e = Expr::input(r.tensors.len(), t.dtype).cast(compute);
        r.inputs.push(t.dtype);
        r.tensors.push(t);
        e
    };
    for operand in operands {
        let parts = match operand {
            ComplexOperand::Tensor {
                view,
                complex: true,
            } => (read(view.part(0), &mut r), read(view.part(1), &mut r)),
            ComplexOperand::Tensor { view, .. } => {
                (read(view.clone(), &mut r), Expr::constant(compute, 0.0))
            }
            ComplexOperand::Scalar { re, im, .. } => {
                let at = r.scalars.len();
                r.scalars.extend([compute, compute]);
                r.words.extend(ScalarArg::float(*re).words(compute));
                r.words.extend(ScalarArg::float(*im).words(compute));
                (Expr::scalar(at, compute), Expr::scalar(at + 1, compute))
            }
        };
        r.parts.push(parts);
    }
    let shapes: Vec<&[i64]> = operands.iter().filter_map(|o| o.shape()).collect();
    r.shape = broadcast_shapes(&shapes)?.to_vec();
    r.device = r
        .tensors
        .first()
        .map(|t| t.device)
        .ok_or_else(|| Error::runtime("mojo: a complex op needs a device tensor operand"))?;
    Ok(r)
}

/// Writes `f(operands)` (each operand as its parts in the compute type) into the complex
/// destination of type `result`.
fn complex_map(
    call: &mut Call,
    operands: &[&ComplexOperand],
    result: Number,
    dest: Dest,
    op: &str,
    f: impl FnOnce(&[Parts]) -> Parts,
) -> Result<()> {
    // A real result written into a complex `out=` converts to it.
    let component = match (complex_component(result, op), dest) {
        (Err(_), Dest::Arg(i)) if call.complex_component_of(i).is_some() && !result.complex => {
            call.complex_component_of(i).unwrap_or(DType::F32)
        }
        (found, _) => found?,
    };
    let r = read_parts(operands, component.float_acc())?;
    let out = call.complex_result(dest, &r.shape, component, r.device)?;
    let (re, im) = f(&r.parts);
    let kernel = MapKernel {
        inputs: r.inputs.into(),
        scalars: r.scalars.into(),
        outputs: smallvec![
            (component, re.cast(component)),
            (component, im.cast(component)),
        ],
    };
    let (out_re, out_im) = (out.part(0), out.part(1));
    let mut all: Vec<&TensorRef> = r.tensors.iter().collect();
    all.extend([&out_re, &out_im]);
    run_map(kernel, &all, &r.shape, &r.words)
}

/// Writes the real `f(operands)` into a destination of dtype `dtype` (or into `out=`, which
/// must be able to hold it), computing in the component type of `compute`'s complex form.
fn real_map(
    call: &mut Call,
    operands: &[&ComplexOperand],
    compute: Number,
    dest: Dest,
    dtype: DType,
    f: impl FnOnce(&[Parts]) -> Expr,
) -> Result<()> {
    let r = read_parts(operands, compute.dtype.float_acc())?;
    let out = call.result(dest, &r.shape, dtype, r.device)?;
    let kernel = MapKernel {
        inputs: r.inputs.into(),
        scalars: r.scalars.into(),
        outputs: smallvec![(out.dtype, f(&r.parts).cast(out.dtype))],
    };
    let mut all: Vec<&TensorRef> = r.tensors.iter().collect();
    all.push(&out);
    run_map(kernel, &all, &r.shape, &r.words)
}

/// A complex tensor argument mapped to one real value per element (`f` of its parts, of
/// `dtype`, the component dtype when none) in a scratch tensor, for reductions that read one
/// real value per element; none for a real argument.
pub fn per_element(
    call: &Call,
    index: usize,
    dtype: Option<DType>,
    f: fn(&Parts) -> Expr,
) -> Result<Option<Scratch>> {
    let ComplexOperand::Tensor {
        view,
        complex: true,
    } = call.complex_operand(index)?
    else {
        return Ok(None);
    };
    let component = view.dtype;
    let compute = component.float_acc();
    let sizes = &view.sizes[..view.sizes.len() - 1];
    let dtype = dtype.unwrap_or(component);
    let values = Scratch::contiguous(view.device, sizes, dtype)?;
    let parts = (
        Expr::input(0, component).cast(compute),
        Expr::input(1, component).cast(compute),
    );
    let kernel = MapKernel {
        inputs: smallvec![component, component],
        scalars: smallvec![],
        outputs: smallvec![(dtype, f(&parts).cast(dtype))],
    };
    let (re, im) = (view.part(0), view.part(1));
    run_map(kernel, &[&re, &im, &values.tensor], sizes, &[])?;
    Ok(Some(values))
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
pub fn add_sub(call: &mut Call, subtract: bool, dest: Dest) -> Result<()> {
    let (a, b) = (call.complex_operand(0)?, call.complex_operand(1)?);
    let alpha = call.complex_operand(2)?;
    let name = if subtract { "sub" } else { "add" };
    let result = result_type(&[&a, &b, &alpha]);
    complex_map(call, &[&a, &b, &alpha], result, dest, name, |e| {
        let scaled = mul(&e[2], &e[1]);
        if subtract {
            sub(&e[0], &scaled)
        } else {
            add(&e[0], &scaled)
        }
    })
}

/// `rsub.Tensor` with a complex operand: `other - alpha * self`, a new tensor.
pub fn reverse_subtract(call: &mut Call) -> Result<()> {
    let (a, b) = (call.complex_operand(0)?, call.complex_operand(1)?);
    let alpha = call.complex_operand(2)?;
    let result = result_type(&[&a, &b, &alpha]);
    complex_map(call, &[&b, &a, &alpha], result, Dest::New, "rsub", |e| {
        sub(&e[0], &mul(&e[2], &e[1]))
    })
}

/// `mul.out` with a complex operand.
pub fn multiply(call: &mut Call, dest: Dest) -> Result<()> {
    let (a, b) = (call.complex_operand(0)?, call.complex_operand(1)?);
    let result = result_type(&[&a, &b]);
    complex_map(call, &[&a, &b], result, dest, "mul", |e| mul(&e[0], &e[1]))
}

/// `div.out` with a complex operand (rounding modes are refused as by the CPU).
pub fn divide(call: &mut Call, rounded: bool, dest: Dest) -> Result<()> {
    let (a, b) = (call.complex_operand(0)?, call.complex_operand(1)?);
    let result = result_type(&[&a, &b]);
    if rounded && !call.is_none(2) {
        let mode = call.string(2)?.unwrap_or_default();
        return Err(Error::not_implemented(format!(
            "\"div_{mode}_cpu\" not implemented for '{}'",
            result.torch_name()
        )));
    }
    complex_map(call, &[&a, &b], result, dest, "div", |e| div(&e[0], &e[1]))
}

/// `pow.Tensor_Tensor_out`, `pow.Tensor_Scalar_out`, `pow.Scalar_out` with a complex
/// operand: squares and cubes by products, as the CPU.
pub fn power(call: &mut Call) -> Result<()> {
    let (a, b) = (call.complex_operand(0)?, call.complex_operand(1)?);
    let result = result_type(&[&a, &b]);
    let small = match b {
        ComplexOperand::Scalar { re, im: 0.0, .. } if re == 2.0 || re == 3.0 => Some(re),
        _ => None,
    };
    complex_map(
        call,
        &[&a, &b],
        result,
        Dest::Arg(2),
        "pow",
        |e| match small {
            Some(2.0) => mul(&e[0], &e[0]),
            Some(_) => mul(&mul(&e[0], &e[0]), &e[0]),
            None => pow(&e[0], &e[1]),
        },
    )
}

/// A unary function of a complex tensor into `out=` (argument 1); `name` for the CPU's
/// error where the function has no complex form.
pub fn unary(call: &mut Call, name: &str, f: Option<fn(&Parts) -> Parts>) -> Result<()> {
    unary_to(call, name, f, Dest::Arg(1))
}

/// [`unary`] into `dest`.
pub fn unary_to(
    call: &mut Call,
    name: &str,
    f: Option<fn(&Parts) -> Parts>,
    dest: Dest,
) -> Result<()> {
    let a = call.complex_operand(0)?;
    let result = result_type(&[&a]);
    let f = f.ok_or_else(|| {
        Error::not_implemented(format!(
            "\"{name}\" not implemented for '{}'",
            result.torch_name()
        ))
    })?;
    complex_map(call, &[&a], result, dest, name, |e| f(&e[0]))
}

/// A function of two complex tensors into `out=` (argument 2), as the gradients of the
/// complex functions (`tanh_backward(grad, output)`, ...).
pub fn binary(call: &mut Call, name: &str, f: fn(&Parts, &Parts) -> Parts) -> Result<()> {
    let (a, b) = (call.complex_operand(0)?, call.complex_operand(1)?);
    let result = result_type(&[&a, &b]);
    complex_map(call, &[&a, &b], result, Dest::Arg(2), name, |e| {
        f(&e[0], &e[1])
    })
}

/// `neg.out` of a complex tensor.
pub fn negate(call: &mut Call) -> Result<()> {
    unary(call, "neg", complex_unary(UnaryOp::Neg))
}

/// `abs.out` of a complex tensor: the magnitude (`hypot` of the parts), a real tensor.
pub fn absolute(call: &mut Call) -> Result<()> {
    let a = call.complex_operand(0)?;
    let number = result_type(&[&a]);
    real_map(call, &[&a], number, Dest::Arg(1), number.dtype, |e| {
        magnitude(&e[0])
    })
}

/// `sgn.out` of a complex tensor: `z / |z|`, 0 at 0.
pub fn sign(call: &mut Call) -> Result<()> {
    unary(
        call,
        "sgn",
        Some(|z: &Parts| {
            let m = magnitude(z);
            let zero = m.clone().eq(Expr::constant(m.dtype(), 0.0));
            let (re, im) = scale(z, &(Expr::constant(m.dtype(), 1.0) / m));
            let z0 = Expr::constant(re.dtype(), 0.0);
            (zero.clone().select(z0.clone(), re), zero.select(z0, im))
        }),
    )
}

/// `isnan` / `isinf` (either part) and `isfinite` (both parts) of a complex tensor.
pub fn predicate(call: &mut Call, op: UnaryOp) -> Result<()> {
    let a = call.complex_operand(0)?;
    let number = result_type(&[&a]);
    real_map(call, &[&a], number, Dest::New, DType::Bool, |e| {
        let (x, y) = e[0].clone();
        match op {
            UnaryOp::IsFinite => x.unary(op).and(y.unary(op)),
            _ => x.unary(op).or(y.unary(op)),
        }
    })
}

/// `eq` / `ne` with a complex operand (into `out=`, argument 2).
pub fn equality(call: &mut Call, equal: bool) -> Result<()> {
    let (a, b) = (call.complex_operand(0)?, call.complex_operand(1)?);
    let number = result_type(&[&a, &b]);
    real_map(call, &[&a, &b], number, Dest::Arg(2), DType::Bool, |e| {
        let same = (e[0].0.clone().eq(e[1].0.clone())).and(e[0].1.clone().eq(e[1].1.clone()));
        if equal {
            same
        } else {
            same.unary(UnaryOp::Not)
        }
    })
}

/// `logical_and/or/xor.out` (`op` of the operands' truth) and `logical_not.out` (`op` none).
pub fn logical(call: &mut Call, op: Option<BinaryOp>) -> Result<()> {
    let a = call.complex_operand(0)?;
    let Some(op) = op else {
        let number = result_type(&[&a]);
        return real_map(call, &[&a], number, Dest::Arg(1), DType::Bool, |e| {
            truth(&e[0]).unary(UnaryOp::Not)
        });
    };
    let b = call.complex_operand(1)?;
    let number = result_type(&[&a, &b]);
    real_map(call, &[&a, &b], number, Dest::Arg(2), DType::Bool, |e| {
        truth(&e[0]).binary(op, truth(&e[1]))
    })
}

/// `where(condition, a, b)` with a complex `a` or `b`; also `masked_fill_(self, mask,
/// value)` as `where(mask, value, self)` into self (`fill`).
pub fn select(call: &mut Call, dest: Dest, fill: bool) -> Result<()> {
    let (first, second) = (call.complex_operand(0)?, call.complex_operand(1)?);
    let third = call.complex_operand(2)?;
    let (condition, a, b) = if fill {
        (second, third, first)
    } else {
        (first, second, third)
    };
    let result = if fill {
        result_type(&[&b])
    } else {
        result_type(&[&a, &b])
    };
    complex_map(call, &[&condition, &a, &b], result, dest, "where", |e| {
        let chosen = e[0]
            .0
            .clone()
            .binary(BinaryOp::Ne, Expr::constant(e[0].0.dtype(), 0.0));
        (
            chosen.clone().select(e[1].0.clone(), e[2].0.clone()),
            chosen.select(e[1].1.clone(), e[2].1.clone()),
        )
    })
}

/// `addcmul.out` / `addcdiv.out` with a complex operand: `self + value * t1 * t2` (or `/`).
pub fn add_product(call: &mut Call, divide: bool) -> Result<()> {
    let (a, t1, t2) = (
        call.complex_operand(0)?,
        call.complex_operand(1)?,
        call.complex_operand(2)?,
    );
    let value = call.complex_operand(3)?;
    let result = result_type(&[&a, &t1, &t2]);
    complex_map(
        call,
        &[&a, &t1, &t2, &value],
        result,
        Dest::Arg(4),
        "addc",
        |e| {
            let term = if divide {
                div(&e[1], &e[2])
            } else {
                mul(&e[1], &e[2])
            };
            add(&e[0], &mul(&e[3], &term))
        },
    )
}

/// The epilogue of a complex product with complex `alpha` or `beta`: `beta * c + alpha *
/// product` (`product` a complex pair view) into argument `dest`; `c` is ignored when `beta`
/// is zero, as PyTorch ignores it (its NaNs included).
pub fn product_epilogue(
    call: &mut Call,
    c: &ComplexOperand,
    product: &TensorRef,
    alpha: &ComplexOperand,
    beta: &ComplexOperand,
    dest: usize,
) -> Result<()> {
    let product = ComplexOperand::Tensor {
        view: product.clone(),
        complex: true,
    };
    let result = result_type(&[c, &product]);
    let ignore_c =
        matches!(beta, ComplexOperand::Scalar { re, im, .. } if *re == 0.0 && *im == 0.0);
    if ignore_c {
        return complex_map(
            call,
            &[&product, alpha],
            result,
            Dest::Arg(dest),
            "addmm",
            |e| mul(&e[1], &e[0]),
        );
    }
    let operands = [c, &product, alpha, beta];
    complex_map(call, &operands, result, Dest::Arg(dest), "addmm", |e| {
        add(&mul(&e[3], &e[0]), &mul(&e[2], &e[1]))
    })
}

/// `lerp.Scalar_out` / `lerp.Tensor_out` with a complex operand, in PyTorch's form exact at
/// both ends (`|w| < 0.5` picks the start).
pub fn lerp(call: &mut Call) -> Result<()> {
    let (a, b, w) = (
        call.complex_operand(0)?,
        call.complex_operand(1)?,
        call.complex_operand(2)?,
    );
    let result = result_type(&[&a, &b]);
    complex_map(call, &[&a, &b, &w], result, Dest::Arg(3), "lerp", |e| {
        let (x, y, w) = (&e[0], &e[1], &e[2]);
        let diff = sub(y, x);
        let small = magnitude(w).lt(Expr::constant(w.0.dtype(), 0.5));
        let one = real(Expr::constant(w.0.dtype(), 1.0));
        let near = add(x, &mul(w, &diff));
        let far = sub(y, &mul(&diff, &sub(&one, w)));
        (
            small.clone().select(near.0, far.0),
            small.select(near.1, far.1),
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
