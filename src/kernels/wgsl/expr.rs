//! Renders scalar expressions to WGSL.

use super::dtype::{compute_type, convert};
use super::emulated_f64;
use super::math::Helpers;
use crate::dtype::DType;
use crate::kernels::expr::{BinaryOp, Expr, UnaryOp};

/// WGSL for `expr`; input `i` is named `x{i}` and scalar `k` is named `s{k}`. Helper
/// functions the expression calls are added to `helpers`.
pub fn render(expr: &Expr, helpers: &mut Helpers) -> String {
    match expr {
        Expr::Input { index, .. } => format!("x{index}"),
        Expr::Scalar { index, .. } => format!("s{index}"),
        Expr::Const { dtype, bits } => constant(*dtype, *bits),
        Expr::Index => "i64(i)".into(),
        Expr::Cast(to, x) if emulated(*to, helpers) && x.dtype() != DType::F64 => {
            emulated_f64::from(&render(x, helpers), x.dtype(), helpers)
        }
        Expr::Cast(to, x) if emulated(x.dtype(), helpers) && *to != DType::F64 => {
            emulated_f64::to_f32(&render(x, helpers), helpers)
        }
        Expr::Cast(to, x) => convert(&render(x, helpers), x.dtype(), *to),
        Expr::Unary(op, x) if emulated(x.dtype(), helpers) => {
            let x = render(x, helpers);
            match op {
                UnaryOp::Neg => emulated_f64::neg(&x),
                _ => emulated_f64::abs(&x),
            }
        }
        Expr::Unary(op, x) => unary(*op, &render(x, helpers), x.dtype(), helpers),
        Expr::Binary(op, a, b) => {
            let (a_src, b_src) = (render(a, helpers), render(b, helpers));
            if emulated(a.dtype(), helpers) {
                return emulated_f64::div(&a_src, &b_src, helpers);
            }
            binary(*op, &a_src, &b_src, a.dtype(), helpers)
        }
        Expr::Select(c, a, b) => format!(
            "select({}, {}, {})",
            render(b, helpers),
            render(a, helpers),
            render(c, helpers)
        ),
        Expr::Call(f, args) => {
            let args: Vec<String> = args.iter().map(|a| render(a, helpers)).collect();
            format!("{}({})", f.name(expr.dtype()), args.join(", "))
        }
        Expr::Local { index, .. } => format!("v{index}"),
    }
}

/// Whether values of `dtype` are emulated float64 (only the ops `Expr::within_emulated_f64`
/// allows reach the renderer then).
fn emulated(dtype: DType, helpers: &Helpers) -> bool {
    dtype == DType::F64 && !helpers.f64
}

/// A constant in its dtype's compute type, written through its bits so that it is exact.
fn constant(dtype: DType, bits: u64) -> String {
    let int = bits as i64;
    match dtype {
        DType::Bool => (int != 0).to_string(),
        DType::U8 => format!("{}u", int as u8),
        DType::U16 => format!("{}u", int as u16),
        DType::U32 => format!("{:#x}u", int as u32),
        // Through u32 where it fits, as int64 below.
        DType::U64 if u32::try_from(bits).is_ok() => format!("u64({bits:#x}u)"),
        DType::U64 => format!(
            "((u64({:#x}u) << 32u) | u64({:#x}u))",
            bits >> 32,
            bits as u32
        ),
        DType::I8 | DType::I16 | DType::I32 => {
            let v = match dtype {
                DType::I8 => i32::from(int as i8),
                DType::I16 => i32::from(int as i16),
                _ => int as i32,
            };
            format!("bitcast<i32>({:#x}u)", v as u32)
        }
        // Through i32 where it fits: on lavapipe, `x >= bitcast<i64>(0x2lu)` held for every
        // x (found by torch.compile's kernels), `x >= i64(bitcast<i32>(0x2u))` does not.
        DType::I64 if i32::try_from(int).is_ok() => {
            format!("i64(bitcast<i32>({:#x}u))", int as i32 as u32)
        }
        DType::I64 => format!("bitcast<i64>({:#x}lu)", bits),
        DType::F16 | DType::BF16 | DType::F32 | crate::float8_dtypes!() => {
            format!(
                "bitcast<f32>({:#x}u)",
                (f64::from_bits(bits) as f32).to_bits()
            )
        }
        DType::F64 => format!("bitcast<F64>({:#x}lu)", bits),
    }
}

/// Re-wraps an integer result computed in a wider WGSL type to its dtype's width.
fn wrap(x: String, dtype: DType) -> String {
    match dtype {
        DType::U8 => format!("({x} & 0xffu)"),
        DType::U16 => format!("({x} & 0xffffu)"),
        DType::I8 => format!("(({x} << 24u) >> 24u)"),
        DType::I16 => format!("(({x} << 16u) >> 16u)"),
        _ => x,
    }
}

fn float_bits(x: &str, dtype: DType) -> (String, &'static str) {
    match dtype {
        DType::F64 => (
            format!("(bitcast<u64>({x}) & 0x7ffffffffffffffflu)"),
            "0x7ff0000000000000lu",
        ),
        _ => (format!("(bitcast<u32>({x}) & 0x7fffffffu)"), "0x7f800000u"),
    }
}

/// A constant of `dtype` holding `value`, exact.
pub fn lit(dtype: DType, value: f64) -> String {
    constant(
        dtype,
        if dtype.is_float() {
            value.to_bits()
        } else {
            value as i64 as u64
        },
    )
}

/// The math helper or builtin computing `op` in f32 or f64.
fn transcendental(op: UnaryOp, x: &str, f64: bool, helpers: &mut Helpers) -> String {
    use UnaryOp::*;
    let ty = if f64 { "f64" } else { "f32" };
    let c = |v: f64| lit(if f64 { DType::F64 } else { DType::F32 }, v);
    let stem = stem(op);
    let helper = |helpers: &mut Helpers, name: &str, arg: &str| {
        format!("{}({arg})", helpers.need(&format!("{name}_{ty}")))
    };
    match op {
        Sqrt => format!("sqrt({x})"),
        Rsqrt => format!("({} / sqrt({x}))", c(1.0)),
        // A rational approximation evaluated in f64 where the device has it (see math.rs).
        Erf | Tanh if !f64 && helpers.f64 => helper(helpers, &format!("{stem}_wide"), x),
        // Drivers' f32 logarithms may be several ulps off near 1; f64 keeps them within one.
        Log | Log2 | Log10 if !f64 && helpers.f64 => {
            format!(
                "f32({})",
                transcendental(op, &format!("f64({x})"), true, helpers)
            )
        }
        Expm1 | Log1p | Erf | Erfc | Erfinv => helper(helpers, stem, x),
        Tanh if !f64 => helper(helpers, stem, x),
        // Without f64, near 1 through log1p (see math.rs).
        Log | Log2 if !f64 => helper(helpers, stem, x),
        Log10 | Log2 => {
            let scale = if op == Log10 {
                std::f64::consts::LOG10_E
            } else {
                std::f64::consts::LOG2_E
            };
            format!("({} * {})", helper(helpers, "log", x), c(scale))
        }
        // lavapipe's f32 asin and acos are off by ~1e-4 (the float32 helpers below by 2e-5);
        // its atan loses tiny arguments and NaN, its asinh and acosh overflow past 1e19, its
        // sinh is 3e4 ulps off near zero and cosh 15: through f64 where the device has it.
        // (Its tanh is as far off near zero: float32 has its own helper, see math.rs.)
        Atan | Asin | Acos | Asinh | Acosh | Sinh | Cosh if !f64 && helpers.f64 => {
            format!(
                "f32({})",
                transcendental(op, &format!("f64({x})"), true, helpers)
            )
        }
        Asin | Acos => helper(helpers, stem, x),
        Exp2 if f64 => helper(
            helpers,
            "exp",
            &format!("{x} * {}", c(std::f64::consts::LN_2)),
        ),
        _ if f64 => helper(helpers, stem, x),
        Exp => helper(helpers, "exp", x),
        _ => format!("{stem}({x})"),
    }
}

/// The WGSL builtin (or helper stem) of a transcendental op.
fn stem(op: UnaryOp) -> &'static str {
    op.math_name().expect("transcendental ops have a math name")
}

fn unary(op: UnaryOp, x: &str, dtype: DType, helpers: &mut Helpers) -> String {
    let float = dtype.is_float();
    let zero = lit(dtype, 0.0);
    match op {
        _ if op.is_transcendental() => transcendental(op, x, dtype == DType::F64, helpers),
        UnaryOp::Neg if matches!(dtype, DType::U8 | DType::U16 | DType::U32) => {
            wrap(format!("(0u - {x})"), dtype)
        }
        UnaryOp::Neg if dtype == DType::U64 => format!("(u64(0u) - {x})"),
        UnaryOp::Neg => wrap(format!("(-{x})"), dtype),
        UnaryOp::Abs if dtype == DType::Bool || dtype.is_unsigned() => x.to_string(),
        UnaryOp::Abs => wrap(format!("abs({x})"), dtype),
        UnaryOp::Ceil if float => format!("ceil({x})"),
        UnaryOp::Floor if float => format!("floor({x})"),
        // lavapipe's f64 trunc loses the sign of -0.0; ceil and floor keep it.
        UnaryOp::Trunc if dtype == DType::F64 => {
            format!("select(ceil({x}), floor({x}), {x} > 0.0lf)")
        }
        UnaryOp::Trunc if float => format!("trunc({x})"),
        UnaryOp::Round if dtype == DType::F64 => format!("{}({x})", helpers.need("round_f64")),
        UnaryOp::Round if float => format!("round({x})"),
        UnaryOp::Ceil | UnaryOp::Floor | UnaryOp::Trunc | UnaryOp::Round => x.to_string(),
        UnaryOp::Not if dtype == DType::Bool => format!("(!{x})"),
        UnaryOp::Not => wrap(format!("(~{x})"), dtype),
        UnaryOp::Sign if dtype == DType::Bool => x.to_string(),
        UnaryOp::Sign => {
            let (one, minus) = (lit(dtype, 1.0), lit(dtype, -1.0));
            let positive = format!("select({zero}, {one}, {x} > {zero})");
            if dtype.is_unsigned() {
                positive
            } else {
                // NaN gives 0, like CPU.
                format!("select({positive}, {minus}, {x} < {zero})")
            }
        }
        UnaryOp::IsNan | UnaryOp::IsInf | UnaryOp::IsFinite if float => {
            let (bits, inf) = float_bits(x, dtype);
            let cmp = match op {
                UnaryOp::IsNan => ">",
                UnaryOp::IsInf => "==",
                _ => "<",
            };
            format!("({bits} {cmp} {inf})")
        }
        UnaryOp::IsNan | UnaryOp::IsInf => "false".into(),
        _ => "true".into(),
    }
}

fn shift(op: BinaryOp, a: &str, b: &str, dtype: DType) -> String {
    let width = lit(dtype, (dtype.size() * 8) as f64);
    let zero = lit(dtype, 0.0);
    let in_range = if dtype.is_unsigned() {
        format!("{b} < {width}")
    } else {
        format!("({b} >= {zero} && {b} < {width})")
    };
    if op == BinaryOp::Shl {
        let shifted = wrap(format!("({a} << u32({b}))"), dtype);
        format!("select({zero}, {shifted}, {in_range})")
    } else {
        let fill = if dtype.is_unsigned() {
            zero.clone()
        } else {
            format!("select({zero}, {}, {a} < {zero})", lit(dtype, -1.0))
        };
        format!("select({fill}, ({a} >> u32({b})), {in_range})")
    }
}

/// Float helpers written inline as WGSL functions of `a` and `b`.
fn float_binary(op: BinaryOp, a: &str, b: &str, dtype: DType, helpers: &mut Helpers) -> String {
    let f64 = dtype == DType::F64;
    let ty = if f64 { "f64" } else { "f32" };
    match op {
        // f32's exp(b * log(a)) loses ~|b log a| ulps; the f64 path keeps pow within 1 ulp.
        BinaryOp::Pow if !f64 && helpers.f64 => {
            format!("f32({}(f64({a}), f64({b})))", helpers.need("pow_f64"))
        }
        BinaryOp::Pow => format!("{}({a}, {b})", helpers.need(&format!("pow_{ty}"))),
        // lavapipe's f32 atan loses tiny quotients (2e-5 relative at 1e-13).
        BinaryOp::Atan2 if !f64 && helpers.f64 => {
            format!("f32({}(f64({a}), f64({b})))", helpers.need("atan2_f64"))
        }
        BinaryOp::Atan2 => format!("{}({a}, {b})", helpers.need(&format!("atan2_{ty}"))),
        BinaryOp::CopySign if f64 => format!(
            "bitcast<f64>((bitcast<u64>({a}) & 0x7ffffffffffffffflu) | (bitcast<u64>({b}) & 0x8000000000000000lu))"
        ),
        BinaryOp::CopySign => format!(
            "bitcast<f32>((bitcast<u32>({a}) & 0x7fffffffu) | (bitcast<u32>({b}) & 0x80000000u))"
        ),
        BinaryOp::Fmod => format!("{}({a}, {b})", helpers.need(&format!("fmod_{ty}"))),
        BinaryOp::Rem => format!("{}({a}, {b})", helpers.need(&format!("rem_{ty}"))),
        _ => format!("{}({a}, {b})", helpers.need(&format!("floordiv_{ty}"))),
    }
}

fn binary(op: BinaryOp, a: &str, b: &str, dtype: DType, helpers: &mut Helpers) -> String {
    let float = dtype.is_float();
    let boolean = dtype == DType::Bool;
    let infix = |sym: &str| format!("({a} {sym} {b})");
    let zero = lit(dtype, 0.0);
    match op {
        BinaryOp::Min | BinaryOp::Max if float => {
            let f = if op == BinaryOp::Min { "min" } else { "max" };
            return format!(
                "select(select({f}({a}, {b}), {b}, !({b} == {b})), {a}, !({a} == {a}))"
            );
        }
        BinaryOp::BitXor if boolean => return infix("!="),
        // Ordered comparisons are false for NaN, so float `!=` is written as `!(a == b)`.
        BinaryOp::Ne if float => return format!("(!({a} == {b}))"),
        // WGSL orders no bools.
        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge if boolean => {
            let (sym, _) = op.infix(dtype).expect("comparisons are infix");
            return format!("(select(0u, 1u, {a}) {sym} select(0u, 1u, {b}))");
        }
        _ => {}
    }
    if let Some((sym, wraps)) = op.infix(dtype) {
        return if wraps {
            wrap(infix(sym), dtype)
        } else {
            infix(sym)
        };
    }
    match op {
        BinaryOp::Min => format!("min({a}, {b})"),
        BinaryOp::Max => format!("max({a}, {b})"),
        BinaryOp::Shl | BinaryOp::Shr => shift(op, a, b, dtype),
        _ if float => float_binary(op, a, b, dtype, helpers),
        BinaryOp::Pow => {
            let ty = compute_type(dtype);
            wrap(
                format!("{}({a}, {b})", helpers.need(&format!("ipow_{ty}"))),
                dtype,
            )
        }
        BinaryOp::Fmod => infix("%"),
        BinaryOp::Rem if dtype.is_unsigned() => infix("%"),
        BinaryOp::Rem => format!(
            "select({a} % {b}, {a} % {b} + {b}, !({a} % {b} == {zero}) && (({a} % {b} < {zero}) != ({b} < {zero})))"
        ),
        BinaryOp::FloorDiv if dtype.is_unsigned() => infix("/"),
        BinaryOp::FloorDiv => wrap(
            format!(
                "select({a} / {b}, {a} / {b} - {}, !({a} % {b} == {zero}) && (({a} < {zero}) != ({b} < {zero})))",
                lit(dtype, 1.0)
            ),
            dtype,
        ),
        _ => unreachable!("{op:?} takes floating-point operands or has an infix operator"),
    }
}
