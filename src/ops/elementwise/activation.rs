//! nn activations and their backward ops, as pointwise expressions in the input's dtype
//! (half types compute in float32, as CUDA's opmath does).

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{complex, BinaryOp, Expr, UnaryOp};
use crate::ops::core::call::{Call, Dest, Operand};
use crate::ops::core::pointwise::{common_dtype, not_implemented_for, pointwise};
use crate::ops::core::registry::OpFn;
use std::ops::{Add, Div, Mul, Sub};

/// Runs `f` over the tensor arguments `tensors` and the Scalar arguments `scalars` (in that
/// order in `f`'s operands); the dtype is the first tensor's and must be a float.
fn activation(
    call: &mut Call,
    name: &str,
    tensors: &[usize],
    scalars: &[usize],
    out: Dest,
    f: impl FnOnce(&[Expr], DType) -> Expr,
) -> Result<()> {
    let mut operands = Vec::new();
    for &i in tensors {
        operands.push(call.operand(i)?);
    }
    for &i in scalars {
        operands.push(Operand::Scalar(call.scalar(i)?));
    }
    let dtype = common_dtype(&operands[..tensors.len()].iter().collect::<Vec<_>>())?;
    if !dtype.is_float() {
        return Err(not_implemented_for(name, dtype));
    }
    let refs: Vec<&Operand> = operands.iter().collect();
    pointwise(call, &refs, out, dtype, dtype, |e| f(e, dtype))
}

fn c(dtype: DType, v: f64) -> Expr {
    Expr::constant(dtype, v)
}

/// `log1p(exp(x))`.
fn softplus_of(x: Expr) -> Expr {
    x.exp().log1p()
}

fn gelu(x: Expr, d: DType, tanh: bool) -> Expr {
    let half_x = x.clone().mul(c(d, 0.5));
    let inner = if tanh {
        let cube = x.clone().mul(x.clone()).mul(x.clone());
        x.add(cube.mul(c(d, 0.044715)))
            .mul(c(d, (2.0 / std::f64::consts::PI).sqrt()))
            .tanh()
    } else {
        x.mul(c(d, std::f64::consts::FRAC_1_SQRT_2))
            .unary(UnaryOp::Erf)
    };
    half_x.mul(inner.with(BinaryOp::Add, 1.0))
}

fn gelu_backward(g: Expr, x: Expr, d: DType, tanh: bool) -> Expr {
    if tanh {
        let beta = c(d, (2.0 / std::f64::consts::PI).sqrt());
        let kappa = 0.044715;
        let x2 = x.clone().mul(x.clone());
        let inner = beta
            .clone()
            .mul(x.clone().add(x2.clone().mul(x.clone()).mul(c(d, kappa))));
        let t = inner.tanh();
        let left = x.mul(c(d, 0.5));
        let right = t.clone().with(BinaryOp::Add, 1.0);
        let dt = c(d, 1.0).sub(t.clone().mul(t));
        let dinner = beta.mul(x2.mul(c(d, 3.0 * kappa)).with(BinaryOp::Add, 1.0));
        g.mul(right.mul(c(d, 0.5)).add(left.mul(dt).mul(dinner)))
    } else {
        let cdf = x
            .clone()
            .mul(c(d, std::f64::consts::FRAC_1_SQRT_2))
            .unary(UnaryOp::Erf)
            .with(BinaryOp::Add, 1.0)
            .mul(c(d, 0.5));
        let pdf = x
            .clone()
            .mul(x.clone())
            .mul(c(d, -0.5))
            .exp()
            .mul(c(d, 1.0 / (2.0 * std::f64::consts::PI).sqrt()));
        g.mul(cdf.add(x.mul(pdf)))
    }
}

fn approximate(call: &Call, index: usize) -> Result<bool> {
    match call.string(index)?.as_deref() {
        None | Some("none") => Ok(false),
        Some("tanh") => Ok(true),
        Some(other) => Err(Error::runtime(format!(
            "approximate argument must be either none or tanh, got {other}"
        ))),
    }
}

fn gelu_op(call: &mut Call) -> Result<()> {
    let tanh = approximate(call, 1)?;
    activation(call, "GeluKernelImpl", &[0], &[], Dest::Arg(2), |e, d| {
        gelu(e[0].clone(), d, tanh)
    })
}

fn gelu_backward_op(call: &mut Call) -> Result<()> {
    let tanh = approximate(call, 2)?;
    activation(call, "GeluBackward", &[0, 1], &[], Dest::Arg(3), |e, d| {
        gelu_backward(e[0].clone(), e[1].clone(), d, tanh)
    })
}

fn relu(call: &mut Call, dest: Dest) -> Result<()> {
    let a = call.operand(0)?;
    let dtype = common_dtype(&[&a])?;
    if dtype == DType::Bool {
        return Err(Error::runtime("Boolean inputs not supported for relu"));
    }
    pointwise(call, &[&a], dest, dtype, dtype, |e| {
        e[0].clone().max(c(dtype, 0.0))
    })
}

fn silu(x: Expr) -> Expr {
    x.clone().mul(x.sigmoid())
}

fn silu_backward(g: Expr, x: Expr, d: DType) -> Expr {
    let s = x.clone().sigmoid();
    let one = c(d, 1.0);
    g.mul(s.clone()).mul(one.clone().add(x.mul(one.sub(s))))
}

/// `log(sigmoid(x))` as `min(x, 0) - log1p(exp(-|x|))`.
fn log_sigmoid(x: Expr, d: DType) -> Expr {
    let tail = (-x.clone().unary(UnaryOp::Abs)).exp().log1p();
    x.min(c(d, 0.0)).sub(tail)
}

/// `g * d/dx log(sigmoid(x))`, in CUDA's form.
fn log_sigmoid_backward(g: Expr, x: Expr, d: DType) -> Expr {
    let z = (-x.clone().unary(UnaryOp::Abs)).exp();
    let negative = x.lt(c(d, 0.0));
    let max_deriv = negative.clone().select(c(d, 1.0), c(d, 0.0));
    let sign = negative.select(c(d, 1.0), c(d, -1.0));
    g.mul(max_deriv.sub(sign.mul(z.clone().div(c(d, 1.0).add(z)))))
}

/// `log_sigmoid_forward(self)` (`.output` with `output`, `buffer`): the result and an empty
/// buffer, as on CUDA.
fn log_sigmoid_forward(call: &mut Call, out: Dest) -> Result<()> {
    activation(call, "log_sigmoid_forward", &[0], &[], out, |e, d| {
        log_sigmoid(e[0].clone(), d)
    })?;
    let a = call.tensor(0)?;
    let buffer = match out {
        Dest::New => Dest::New,
        Dest::Arg(i) => Dest::Arg(i + 1),
    };
    call.result(buffer, &[0], a.dtype, a.device)?;
    Ok(())
}

fn mish(x: Expr) -> Expr {
    x.clone().mul(softplus_of(x).tanh())
}

fn mish_backward(g: Expr, x: Expr, d: DType) -> Expr {
    let s = x.clone().sigmoid();
    let t = softplus_of(x.clone()).tanh();
    g.mul(t.clone().add(x.mul(s).mul(c(d, 1.0).sub(t.clone().mul(t)))))
}

fn softplus(x: Expr, beta: Expr, threshold: Expr) -> Expr {
    let scaled = x.clone().mul(beta.clone());
    scaled
        .clone()
        .gt(threshold)
        .select(x, softplus_of(scaled).div(beta))
}

fn softplus_backward(g: Expr, x: Expr, beta: Expr, threshold: Expr, d: DType) -> Expr {
    let scaled = x.mul(beta);
    let z = scaled.clone().exp();
    scaled
        .gt(threshold)
        .select(g.clone(), g.mul(z.clone()).div(z.add(c(d, 1.0))))
}

fn elu(x: Expr, alpha: Expr, scale: Expr, input_scale: Expr, d: DType) -> Expr {
    x.clone().le(c(d, 0.0)).select(
        x.clone()
            .mul(input_scale)
            .unary(UnaryOp::Expm1)
            .mul(alpha.mul(scale.clone())),
        x.mul(scale),
    )
}

fn elu_backward(call: &mut Call) -> Result<()> {
    let is_result = call.boolean(4)?;
    // grad_output, self_or_result, then alpha, scale, input_scale.
    activation(
        call,
        "elu_backward_cpu",
        &[0, 5],
        &[1, 2, 3],
        Dest::Arg(6),
        |e, d| {
            let (g, x) = (e[0].clone(), e[1].clone());
            let (alpha, scale, input_scale) = (e[2].clone(), e[3].clone(), e[4].clone());
            let negcoef = alpha.mul(scale.clone());
            let negative = if is_result {
                g.clone().mul(input_scale).mul(x.clone().add(negcoef))
            } else {
                g.clone()
                    .mul(input_scale.clone())
                    .mul(negcoef)
                    .mul(x.clone().mul(input_scale).exp())
            };
            x.le(c(d, 0.0)).select(negative, g.mul(scale))
        },
    )
}

fn hardsigmoid(x: Expr, d: DType) -> Expr {
    x.with(BinaryOp::Add, 3.0)
        .max(c(d, 0.0))
        .min(c(d, 6.0))
        .div(c(d, 6.0))
}

fn hardswish_backward(g: Expr, x: Expr, d: DType) -> Expr {
    x.clone().lt(c(d, -3.0)).select(
        c(d, 0.0),
        x.clone()
            .le(c(d, 3.0))
            .select(g.clone().mul(x.div(c(d, 3.0)).with(BinaryOp::Add, 0.5)), g),
    )
}

fn hardtanh_backward(g: Expr, x: Expr, lo: Expr, hi: Expr, d: DType) -> Expr {
    x.clone().le(lo).or(x.ge(hi)).select(c(d, 0.0), g)
}

/// logit computes integer inputs in float32, like CPU.
fn logit(call: &mut Call, dest: Dest) -> Result<()> {
    let eps = call.optional_double(1)?;
    let a = call.operand(0)?;
    let d = crate::ops::core::pointwise::float_dtype(common_dtype(&[&a])?);
    pointwise(call, &[&a], dest, d, d, |e| {
        let mut z = e[0].clone();
        if let Some(eps) = eps {
            z = z.max(c(d, eps)).min(c(d, 1.0 - eps));
        }
        z.clone().div(c(d, 1.0).sub(z)).unary(UnaryOp::Log)
    })
}

/// Clamping to [min_val, max_val], for every dtype but bool like CPU.
fn hardtanh(call: &mut Call, dest: Dest) -> Result<()> {
    let a = call.operand(0)?;
    let (lo, hi) = (
        Operand::Scalar(call.scalar(1)?),
        Operand::Scalar(call.scalar(2)?),
    );
    let dtype = common_dtype(&[&a])?;
    if dtype == DType::Bool {
        return Err(not_implemented_for("hardtanh", dtype));
    }
    pointwise(call, &[&a, &lo, &hi], dest, dtype, dtype, |e| {
        e[0].clone().max(e[1].clone()).min(e[2].clone())
    })
}

fn hardtanh_backward_op(call: &mut Call, dest: Dest) -> Result<()> {
    activation(call, "hardtanh_backward", &[0, 1], &[2, 3], dest, |e, d| {
        hardtanh_backward(e[0].clone(), e[1].clone(), e[2].clone(), e[3].clone(), d)
    })
}

fn hardswish(call: &mut Call, dest: Dest) -> Result<()> {
    activation(call, "hardswish", &[0], &[], dest, |e, d| {
        e[0].clone().mul(hardsigmoid(e[0].clone(), d))
    })
}

fn logit_backward(call: &mut Call) -> Result<()> {
    let eps = call.optional_double(2)?;
    activation(
        call,
        "logit_backward_cpu",
        &[0, 1],
        &[],
        Dest::Arg(3),
        |e, d| {
            let (g, x) = (e[0].clone(), e[1].clone());
            let (lo, hi, outside) = match eps {
                Some(eps) => (eps, 1.0 - eps, c(d, 0.0)),
                None => (0.0, 1.0, c(d, f64::NAN)),
            };
            let grad = g.div(x.clone().mul(c(d, 1.0).sub(x.clone())));
            x.clone()
                .lt(c(d, lo))
                .or(x.gt(c(d, hi)))
                .select(outside, grad)
        },
    )
}

/// `x <= threshold ? value : x`, for every dtype like CPU.
fn threshold(call: &mut Call) -> Result<()> {
    let a = call.operand(0)?;
    let (th, value) = (
        Operand::Scalar(call.scalar(1)?),
        Operand::Scalar(call.scalar(2)?),
    );
    let dtype = common_dtype(&[&a])?;
    pointwise(call, &[&a, &th, &value], Dest::Arg(3), dtype, dtype, |e| {
        e[0].clone()
            .le(e[1].clone())
            .select(e[2].clone(), e[0].clone())
    })
}

/// `self <= threshold ? 0 : grad` (relu's backward).
fn threshold_backward(call: &mut Call) -> Result<()> {
    let (g, x) = (call.operand(0)?, call.operand(1)?);
    let th = Operand::Scalar(call.scalar(2)?);
    let dtype = common_dtype(&[&g, &x])?;
    pointwise(call, &[&g, &x, &th], Dest::Arg(3), dtype, dtype, |e| {
        e[1].clone()
            .le(e[2].clone())
            .select(c(dtype, 0.0), e[0].clone())
    })
}

/// Whether `x` lies in `[-lambd, lambd]`.
fn within(x: Expr, lambd: Expr) -> Expr {
    x.clone().ge(-lambd.clone()).and(x.le(lambd))
}

/// A double as C++'s `ostream` prints it (six significant digits, like `%g`).
fn cpp_double(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return if v.is_nan() {
            "nan".into()
        } else {
            format!("{v}")
        };
    }
    let scientific = format!("{v:.5e}");
    let (mantissa, exponent) = scientific.split_once('e').expect("{:e} has an exponent");
    let exponent: i32 = exponent.parse().expect("{:e} exponents are integers");
    let trim = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if (-5..6).contains(&exponent) {
        trim(&format!("{v:.*}", (5 - exponent) as usize))
    } else {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mantissa), exponent.abs())
    }
}

/// `softshrink.out`: `x -+ lambd` outside `[-lambd, lambd]`, `x * 0` inside; CPU's check of
/// `lambd` against the dtype's range comes first.
fn softshrink(call: &mut Call) -> Result<()> {
    let dtype = call.tensor(0)?.dtype;
    if !dtype.is_float() {
        return Err(not_implemented_for("softshrink_check", dtype));
    }
    let lambd = call.scalar(1)?.to_f64();
    let max = match dtype {
        DType::F16 => 65504.0,
        DType::BF16 => f64::from(f32::from_bits(0x7f7f0000)),
        DType::F32 => f64::from(f32::MAX),
        _ => f64::MAX,
    };
    if !(0.0..=max).contains(&lambd) {
        return Err(Error::runtime(format!(
            "lambda must be in range [0, {}] for input dtype {}, but found {}",
            cpp_double(max),
            dtype.torch_name(),
            cpp_double(lambd)
        )));
    }
    // Half types compare with lambd in float32, as CPU's reduced-float kernel does. CPU's
    // `x * 0` inside is written out (NaN stays, zeros keep x's sign): shader compilers may
    // fold a product with 0.
    activation(call, "softshrink_cpu", &[0], &[1], Dest::Arg(2), |e, d| {
        let (x, l) = (e[0].clone(), e[1].clone());
        let zero = c(d, 0.0).binary(BinaryOp::CopySign, x.clone());
        let inside = x.clone().is_nan().select(x.clone(), zero);
        x.clone().gt(l.clone()).select(
            x.clone().sub(l.clone()),
            x.clone().lt(-l.clone()).select(x.add(l), inside),
        )
    })
}

/// hardshrink and softshrink's backward: `grad` outside `[-lambd, lambd]`, 0 inside.
fn shrink_backward(call: &mut Call) -> Result<()> {
    activation(
        call,
        "shrink_backward_cpu",
        &[0, 1],
        &[2],
        Dest::Arg(3),
        |e, d| {
            // CPU reads lambd in the input dtype.
            let lambd = crate::ops::elementwise::math::round_to(e[2].clone(), d);
            within(e[1].clone(), lambd).select(c(d, 0.0), e[0].clone())
        },
    )
}

pub const OPS: &[(&str, OpFn)] = &[
    ("hardshrink.out", |c| {
        activation(c, "hardshrink_cpu", &[0], &[1], Dest::Arg(2), |e, d| {
            // CPU reads lambd in the input dtype.
            let lambd = crate::ops::elementwise::math::round_to(e[1].clone(), d);
            within(e[0].clone(), lambd).select(Expr::constant(d, 0.0), e[0].clone())
        })
    }),
    ("hardshrink_backward.grad_input", shrink_backward),
    ("softshrink.out", softshrink),
    ("softshrink_backward.grad_input", shrink_backward),
    ("relu", |c| relu(c, Dest::New)),
    ("relu_", |c| relu(c, Dest::Arg(0))),
    ("gelu.out", gelu_op),
    ("gelu_backward.grad_input", gelu_backward_op),
    ("log_sigmoid_forward", |c| log_sigmoid_forward(c, Dest::New)),
    ("log_sigmoid_forward.output", |c| {
        log_sigmoid_forward(c, Dest::Arg(1))
    }),
    ("log_sigmoid_backward", |c| {
        activation(
            c,
            "log_sigmoid_backward",
            &[0, 1],
            &[],
            Dest::New,
            |e, d| log_sigmoid_backward(e[0].clone(), e[1].clone(), d),
        )
    }),
    ("log_sigmoid_backward.grad_input", |c| {
        activation(
            c,
            "log_sigmoid_backward",
            &[0, 1],
            &[],
            Dest::Arg(3),
            |e, d| log_sigmoid_backward(e[0].clone(), e[1].clone(), d),
        )
    }),
    ("silu.out", |c| {
        if c.is_complex_arg(0) {
            return crate::ops::elementwise::complex::unary(c, "silu", Some(complex::silu));
        }
        activation(c, "silu", &[0], &[], Dest::Arg(1), |e, _| {
            silu(e[0].clone())
        })
    }),
    ("silu_backward.grad_input", |c| {
        activation(c, "silu_backward", &[0, 1], &[], Dest::Arg(2), |e, d| {
            silu_backward(e[0].clone(), e[1].clone(), d)
        })
    }),
    ("mish.out", |c| {
        activation(c, "mish", &[0], &[], Dest::Arg(1), |e, _| {
            mish(e[0].clone())
        })
    }),
    ("mish_backward", |c| {
        activation(c, "mish_backward", &[0, 1], &[], Dest::New, |e, d| {
            mish_backward(e[0].clone(), e[1].clone(), d)
        })
    }),
    ("softplus.out", |c| {
        activation(c, "softplus", &[0], &[1, 2], Dest::Arg(3), |e, _| {
            softplus(e[0].clone(), e[1].clone(), e[2].clone())
        })
    }),
    ("softplus_backward.grad_input", |c| {
        activation(
            c,
            "softplus_backward",
            &[0, 1],
            &[2, 3],
            Dest::Arg(4),
            |e, d| softplus_backward(e[0].clone(), e[1].clone(), e[2].clone(), e[3].clone(), d),
        )
    }),
    ("elu.out", |c| {
        activation(c, "elu", &[0], &[1, 2, 3], Dest::Arg(4), |e, d| {
            elu(e[0].clone(), e[1].clone(), e[2].clone(), e[3].clone(), d)
        })
    }),
    ("elu_backward.grad_input", elu_backward),
    ("leaky_relu.out", |c| {
        activation(c, "leaky_relu", &[0], &[1], Dest::Arg(2), |e, d| {
            let x = e[0].clone();
            x.clone()
                .gt(Expr::constant(d, 0.0))
                .select(x.clone(), x.mul(e[1].clone()))
        })
    }),
    ("leaky_relu_backward.grad_input", |c| {
        activation(
            c,
            "leaky_relu_backward",
            &[0, 1],
            &[2],
            Dest::Arg(4),
            |e, d| {
                let (g, x) = (e[0].clone(), e[1].clone());
                x.gt(Expr::constant(d, 0.0))
                    .select(g.clone(), g.mul(e[2].clone()))
            },
        )
    }),
    ("hardtanh.out", |c| hardtanh(c, Dest::Arg(3))),
    ("hardtanh", |c| hardtanh(c, Dest::New)),
    ("hardtanh_", |c| hardtanh(c, Dest::Arg(0))),
    ("hardtanh_backward.grad_input", |c| {
        hardtanh_backward_op(c, Dest::Arg(4))
    }),
    ("hardtanh_backward", |c| hardtanh_backward_op(c, Dest::New)),
    ("hardswish.out", |c| hardswish(c, Dest::Arg(1))),
    ("hardswish", |c| hardswish(c, Dest::New)),
    ("hardswish_", |c| hardswish(c, Dest::Arg(0))),
    ("hardswish_backward", |c| {
        activation(c, "hardswish_backward", &[0, 1], &[], Dest::New, |e, d| {
            hardswish_backward(e[0].clone(), e[1].clone(), d)
        })
    }),
    ("hardsigmoid.out", |c| {
        activation(c, "hardsigmoid", &[0], &[], Dest::Arg(1), |e, d| {
            hardsigmoid(e[0].clone(), d)
        })
    }),
    ("hardsigmoid_backward.grad_input", |c| {
        activation(
            c,
            "hardsigmoid_backward",
            &[0, 1],
            &[],
            Dest::Arg(2),
            |e, d| {
                let x = e[1].clone();
                x.clone()
                    .gt(Expr::constant(d, -3.0))
                    .and(x.lt(Expr::constant(d, 3.0)))
                    .select(
                        e[0].clone().div(Expr::constant(d, 6.0)),
                        Expr::constant(d, 0.0),
                    )
            },
        )
    }),
    ("sigmoid_backward.grad_input", |c| {
        if crate::ops::elementwise::complex::involved(c, &[0, 1]) {
            return crate::ops::elementwise::complex::binary(
                c,
                "sigmoid_backward",
                complex::sigmoid_backward,
            );
        }
        activation(c, "sigmoid_backward", &[0, 1], &[], Dest::Arg(2), |e, d| {
            let y = e[1].clone();
            e[0].clone()
                .mul(Expr::constant(d, 1.0).sub(y.clone()))
                .mul(y)
        })
    }),
    ("tanh_backward.grad_input", |c| {
        if crate::ops::elementwise::complex::involved(c, &[0, 1]) {
            return crate::ops::elementwise::complex::binary(
                c,
                "tanh_backward",
                complex::tanh_backward,
            );
        }
        activation(c, "tanh_backward", &[0, 1], &[], Dest::Arg(2), |e, d| {
            let y = e[1].clone();
            e[0].clone()
                .mul(Expr::constant(d, 1.0).sub(y.clone().mul(y)))
        })
    }),
    ("logit.out", |c| logit(c, Dest::Arg(2))),
    ("logit", |c| logit(c, Dest::New)),
    ("logit_", |c| logit(c, Dest::Arg(0))),
    ("logit_backward.grad_input", logit_backward),
    ("threshold.out", threshold),
    ("threshold_backward.grad_input", threshold_backward),
];
