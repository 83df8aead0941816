//! Renders scalar expressions and dtype conversions to CUDA C++.

use crate::dtype::DType;
use crate::kernels::expr::{BinaryOp, Expr, UnaryOp};
use crate::kernels::float8;

/// The C++ type a value of `dtype` is computed in.
pub fn compute_type(dtype: DType) -> &'static str {
    match dtype {
        DType::Bool => "bool",
        DType::U8 | DType::U16 | DType::U32 => "u32",
        DType::I8 | DType::I16 | DType::I32 => "int",
        DType::I64 => "i64",
        DType::U64 => "u64",
        DType::F16 | DType::BF16 | DType::F32 | crate::float8_dtypes!() => "float",
        DType::F64 => "double",
    }
}

/// The C++ type an element of `dtype` is stored as.
pub fn storage_type(dtype: DType) -> &'static str {
    match dtype {
        DType::Bool | DType::U8 | crate::float8_dtypes!() => "unsigned char",
        DType::I8 => "signed char",
        DType::I16 => "short",
        DType::I32 => "int",
        DType::I64 => "i64",
        DType::U16 | DType::F16 | DType::BF16 => "unsigned short",
        DType::U32 => "u32",
        DType::U64 => "u64",
        DType::F32 => "float",
        DType::F64 => "double",
    }
}

/// A stored element (`x`, of the storage type) as its compute value.
pub fn from_storage(x: &str, dtype: DType) -> String {
    match dtype {
        DType::Bool => format!("({x} != 0)"),
        DType::F16 => format!("mojo_h2f({x})"),
        DType::BF16 => format!("mojo_b2f({x})"),
        _ if dtype.is_float8() => format!("{}({x})", float8::widen_name(dtype)),
        _ => format!("({})({x})", compute_type(dtype)),
    }
}

/// A compute value as the stored element.
pub fn to_storage(x: &str, dtype: DType) -> String {
    match dtype {
        DType::Bool => format!("(unsigned char)({x} ? 1 : 0)"),
        DType::F16 => format!("(unsigned short)mojo_f2h({x})"),
        DType::BF16 => format!("(unsigned short)mojo_f2b({x})"),
        _ if dtype.is_float8() => format!("(unsigned char){}({x})", float8::narrow_name(dtype)),
        _ => format!("({})({x})", storage_type(dtype)),
    }
}

/// A constant in its dtype's compute type, written through its bits so that it is exact.
pub fn constant(dtype: DType, bits: u64) -> String {
    let int = bits as i64;
    match dtype {
        DType::Bool => (int != 0).to_string(),
        DType::U8 => format!("{}u", int as u8),
        DType::U16 => format!("{}u", int as u16),
        DType::U32 => format!("{:#x}u", int as u32),
        DType::U64 => format!("((u64){bits:#x}ull)"),
        DType::I8 => format!("{}", int as i8),
        DType::I16 => format!("{}", int as i16),
        DType::I32 => format!("((int){:#x}u)", int as i32 as u32),
        DType::I64 => format!("((i64){bits:#x}ull)"),
        DType::F16 | DType::BF16 | DType::F32 | crate::float8_dtypes!() => format!(
            "__uint_as_float({:#x}u)",
            (f64::from_bits(bits) as f32).to_bits()
        ),
        DType::F64 => format!("__longlong_as_double((i64){bits:#x}ull)"),
    }
}

/// A constant of `dtype` holding `value`, exact.
pub fn lit(dtype: DType, value: f64) -> String {
    let bits = if dtype.is_float() {
        value.to_bits()
    } else {
        value as i64 as u64
    };
    constant(dtype, bits)
}

/// The floating dtypes computed as float whose values are rounded to fewer bits.
fn is_half(dtype: DType) -> bool {
    matches!(dtype, DType::F16 | DType::BF16) || dtype.is_float8()
}

/// Converts `x`, computed as `from`, to the compute type of `to` with PyTorch's cast semantics.
pub fn convert(x: &str, from: DType, to: DType) -> String {
    let same_width = compute_type(from) == compute_type(to);
    let narrows = to.is_int() && from.size() > to.size();
    if from == to || (same_width && !narrows && !is_half(to)) {
        return x.to_string();
    }
    if is_half(to) {
        let wide = convert(x, from, DType::F32);
        return match to {
            DType::F16 => format!("mojo_h2f(mojo_f2h({wide}))"),
            DType::BF16 => format!("mojo_b2f(mojo_f2b({wide}))"),
            _ => format!(
                "{}({}({wide}))",
                float8::widen_name(to),
                float8::narrow_name(to)
            ),
        };
    }
    if from == DType::Bool {
        return format!("({x} ? {} : {})", lit(to, 1.0), lit(to, 0.0));
    }
    // Floats go through a 64-bit integer so that wrapping matches the integer path.
    let int = if from.is_float() {
        format!("(i64)({x})")
    } else {
        x.to_string()
    };
    match to {
        DType::Bool => format!("(!({x} == {}))", lit(from, 0.0)),
        DType::U8 => format!("((u32)(unsigned char)({int}))"),
        DType::U16 => format!("((u32)(unsigned short)({int}))"),
        DType::U32 => format!("((u32)({int}))"),
        // Negative floats wrap through int64, as the CPU's conversion does on x86.
        DType::U64 if from.is_float() => format!("(({x}) < 0 ? (u64)(i64)({x}) : (u64)({x}))"),
        DType::U64 => format!("((u64)({x}))"),
        DType::I8 => format!("((int)(signed char)({int}))"),
        DType::I16 => format!("((int)(short)({int}))"),
        DType::I32 => format!("((int)({int}))"),
        _ => format!("(({})({x}))", compute_type(to)),
    }
}

/// Re-wraps an integer result computed in a wider type to its dtype's width.
fn wrap(x: String, dtype: DType) -> String {
    match dtype {
        DType::U8 => format!("({x} & 0xffu)"),
        DType::U16 => format!("({x} & 0xffffu)"),
        DType::I8 => format!("((int)(signed char)({x}))"),
        DType::I16 => format!("((int)(short)({x}))"),
        _ => x,
    }
}

/// CUDA C++ for `expr`; input `i` is named `x{i}` and scalar `k` is named `s{k}`.
pub fn render(expr: &Expr) -> String {
    match expr {
        Expr::Input { index, .. } => format!("x{index}"),
        Expr::Scalar { index, .. } => format!("s{index}"),
        Expr::Const { dtype, bits } => constant(*dtype, *bits),
        Expr::Index => "(i64)i".into(),
        Expr::Cast(to, x) => convert(&render(x), x.dtype(), *to),
        Expr::Unary(op, x) => unary(*op, &render(x), x.dtype()),
        Expr::Binary(op, a, b) => binary(*op, &render(a), &render(b), a.dtype()),
        Expr::Select(c, a, b) => format!("({} ? {} : {})", render(c), render(a), render(b)),
        Expr::Call(f, args) => {
            let args: Vec<String> = args.iter().map(render).collect();
            format!("{}({})", f.name(expr.dtype()), args.join(", "))
        }
        Expr::Local { index, .. } => format!("v{index}"),
    }
}

/// The libm name of `op` for f32 (`f` suffix) or f64.
fn libm(op: UnaryOp, x: &str, f64: bool) -> String {
    let suffix = if f64 { "" } else { "f" };
    let one = if f64 { "1.0" } else { "1.0f" };
    if op == UnaryOp::Rsqrt {
        return format!("({one} / sqrt{suffix}({x}))");
    }
    let name = op.math_name().expect("float ops have a math name");
    format!("{name}{suffix}({x})")
}

fn unary(op: UnaryOp, x: &str, dtype: DType) -> String {
    let float = dtype.is_float();
    let f64 = dtype == DType::F64;
    let zero = lit(dtype, 0.0);
    match op {
        _ if op.is_transcendental() => libm(op, x, f64),
        UnaryOp::Neg if matches!(dtype, DType::U8 | DType::U16 | DType::U32) => {
            wrap(format!("(0u - {x})"), dtype)
        }
        UnaryOp::Neg if dtype == DType::U64 => format!("(u64(0u) - {x})"),
        UnaryOp::Neg => wrap(format!("(-{x})"), dtype),
        UnaryOp::Abs if dtype == DType::Bool || dtype.is_unsigned() => x.to_string(),
        UnaryOp::Abs | UnaryOp::Ceil | UnaryOp::Floor | UnaryOp::Trunc | UnaryOp::Round
            if float =>
        {
            libm(op, x, f64)
        }
        UnaryOp::Abs if dtype == DType::I64 => format!("llabs({x})"),
        UnaryOp::Abs => wrap(format!("abs({x})"), dtype),
        UnaryOp::Ceil | UnaryOp::Floor | UnaryOp::Trunc | UnaryOp::Round => x.to_string(),
        UnaryOp::Not if dtype == DType::Bool => format!("(!{x})"),
        UnaryOp::Not => wrap(format!("(~{x})"), dtype),
        UnaryOp::Sign if dtype == DType::Bool => x.to_string(),
        UnaryOp::Sign => {
            let positive = format!("({x} > {zero} ? {} : {zero})", lit(dtype, 1.0));
            if dtype.is_unsigned() {
                positive
            } else {
                format!("({x} < {zero} ? {} : {positive})", lit(dtype, -1.0))
            }
        }
        UnaryOp::IsNan if float => format!("isnan({x})"),
        UnaryOp::IsInf if float => format!("isinf({x})"),
        UnaryOp::IsFinite if float => format!("isfinite({x})"),
        UnaryOp::IsNan | UnaryOp::IsInf => "false".into(),
        _ => "true".into(),
    }
}

fn shift(op: BinaryOp, a: &str, b: &str, dtype: DType) -> String {
    let width = lit(dtype, (dtype.size() * 8) as f64);
    let zero = lit(dtype, 0.0);
    let in_range = if dtype.is_unsigned() {
        format!("({b} < {width})")
    } else {
        format!("({b} >= {zero} && {b} < {width})")
    };
    let ty = compute_type(dtype);
    let unsigned = if dtype == DType::I64 { "u64" } else { "u32" };
    if op == BinaryOp::Shl {
        let shifted = wrap(format!("(({ty})(({unsigned})({a}) << {b}))"), dtype);
        format!("({in_range} ? {shifted} : {zero})")
    } else {
        let fill = if dtype.is_unsigned() {
            zero
        } else {
            format!("({a} < {zero} ? {} : {zero})", lit(dtype, -1.0))
        };
        format!("({in_range} ? ({a} >> {b}) : {fill})")
    }
}

fn binary(op: BinaryOp, a: &str, b: &str, dtype: DType) -> String {
    let float = dtype.is_float();
    let suffix = if dtype == DType::F64 { "" } else { "f" };
    let infix = |sym: &str| format!("({a} {sym} {b})");
    let zero = lit(dtype, 0.0);
    if let Some((sym, wraps)) = op.infix(dtype) {
        return if wraps {
            wrap(infix(sym), dtype)
        } else {
            infix(sym)
        };
    }
    match op {
        BinaryOp::Min | BinaryOp::Max if float => {
            let f = if op == BinaryOp::Min { "fmin" } else { "fmax" };
            format!("(isnan({a}) ? {a} : isnan({b}) ? {b} : {f}{suffix}({a}, {b}))")
        }
        BinaryOp::Min => format!("min({a}, {b})"),
        BinaryOp::Max => format!("max({a}, {b})"),
        BinaryOp::Shl | BinaryOp::Shr => shift(op, a, b, dtype),
        BinaryOp::Pow if float => format!("pow{suffix}({a}, {b})"),
        BinaryOp::Atan2 => format!("atan2{suffix}({a}, {b})"),
        BinaryOp::CopySign => format!("copysign{suffix}({a}, {b})"),
        BinaryOp::Fmod if float => format!("fmod{suffix}({a}, {b})"),
        BinaryOp::Rem if float => format!("mojo_rem({a}, {b})"),
        BinaryOp::FloorDiv if float => format!("mojo_floordiv({a}, {b})"),
        BinaryOp::Pow => wrap(format!("mojo_ipow({a}, {b})"), dtype),
        BinaryOp::Fmod => infix("%"),
        BinaryOp::Rem if dtype.is_unsigned() => infix("%"),
        BinaryOp::Rem => format!(
            "(({a} % {b} != {zero} && (({a} % {b} < {zero}) != ({b} < {zero}))) ? {a} % {b} + {b} : {a} % {b})"
        ),
        BinaryOp::FloorDiv if dtype.is_unsigned() => infix("/"),
        BinaryOp::FloorDiv => wrap(
            format!(
                "(({a} % {b} != {zero} && (({a} < {zero}) != ({b} < {zero}))) ? {a} / {b} - {} : {a} / {b})",
                lit(dtype, 1.0)
            ),
            dtype,
        ),
        _ => unreachable!("{op:?} has an infix operator"),
    }
}
