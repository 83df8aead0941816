//! Renders scalar expressions to WGSL.

use super::dtype::convert;
use crate::dtype::DType;
use crate::kernels::expr::{BinaryOp, Expr, UnaryOp};

/// WGSL for `expr`; input `i` is named `x{i}` and scalar `k` is named `s{k}`.
pub fn render(expr: &Expr) -> String {
    match expr {
        Expr::Input { index, .. } => format!("x{index}"),
        Expr::Scalar { index, .. } => format!("s{index}"),
        Expr::Cast(to, x) => convert(&render(x), x.dtype(), *to),
        Expr::Unary(op, x) => unary(*op, &render(x), x.dtype()),
        Expr::Binary(op, a, b) => binary(*op, &render(a), &render(b), a.dtype()),
    }
}

/// Re-wraps an integer result computed in a wider WGSL type to its dtype's width.
fn wrap(x: String, dtype: DType) -> String {
    match dtype {
        DType::U8 => format!("({x} & 0xffu)"),
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

fn unary(op: UnaryOp, x: &str, dtype: DType) -> String {
    let float = dtype.is_float();
    match op {
        UnaryOp::Neg if dtype == DType::U8 => wrap(format!("(0u - {x})"), dtype),
        UnaryOp::Neg => wrap(format!("(-{x})"), dtype),
        UnaryOp::Abs if dtype == DType::Bool || dtype == DType::U8 => x.to_string(),
        UnaryOp::Abs => wrap(format!("abs({x})"), dtype),
        UnaryOp::Ceil if float => format!("ceil({x})"),
        UnaryOp::Floor if float => format!("floor({x})"),
        // lavapipe's f64 trunc loses the sign of -0.0; ceil and floor keep it.
        UnaryOp::Trunc if dtype == DType::F64 => {
            format!("select(ceil({x}), floor({x}), {x} > 0.0lf)")
        }
        UnaryOp::Trunc if float => format!("trunc({x})"),
        UnaryOp::Ceil | UnaryOp::Floor | UnaryOp::Trunc => x.to_string(),
        UnaryOp::Not if dtype == DType::Bool => format!("(!{x})"),
        UnaryOp::Not => wrap(format!("(~{x})"), dtype),
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
        UnaryOp::IsFinite => "true".into(),
    }
}

fn binary(op: BinaryOp, a: &str, b: &str, dtype: DType) -> String {
    let float = dtype.is_float();
    let boolean = dtype == DType::Bool;
    let infix = |sym: &str| format!("({a} {sym} {b})");
    match op {
        BinaryOp::Add if boolean => infix("|"),
        BinaryOp::Mul if boolean => infix("&"),
        BinaryOp::Add => wrap(infix("+"), dtype),
        BinaryOp::Sub => wrap(infix("-"), dtype),
        BinaryOp::Mul => wrap(infix("*"), dtype),
        BinaryOp::Div => wrap(infix("/"), dtype),
        BinaryOp::Min | BinaryOp::Max if float => {
            let f = if op == BinaryOp::Min { "min" } else { "max" };
            format!("select(select({f}({a}, {b}), {b}, !({b} == {b})), {a}, !({a} == {a}))")
        }
        BinaryOp::Min if boolean => infix("&"),
        BinaryOp::Max if boolean => infix("|"),
        BinaryOp::Min => format!("min({a}, {b})"),
        BinaryOp::Max => format!("max({a}, {b})"),
        BinaryOp::BitAnd => infix("&"),
        BinaryOp::BitOr => infix("|"),
        BinaryOp::BitXor if boolean => infix("!="),
        BinaryOp::BitXor => infix("^"),
        BinaryOp::Eq => infix("=="),
        // Ordered comparisons are false for NaN, so float `!=` is written as `!(a == b)`.
        BinaryOp::Ne if float => format!("(!({a} == {b}))"),
        BinaryOp::Ne => infix("!="),
        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
            let sym = match op {
                BinaryOp::Lt => "<",
                BinaryOp::Le => "<=",
                BinaryOp::Gt => ">",
                _ => ">=",
            };
            if boolean {
                format!("(select(0u, 1u, {a}) {sym} select(0u, 1u, {b}))")
            } else {
                infix(sym)
            }
        }
    }
}
