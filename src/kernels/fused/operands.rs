//! Operators applied to typed operands: the dtype two operands meet in, and each operator's
//! expression.

use std::collections::HashMap;

use crate::dtype::DType;
use crate::kernels::functions::Function;
use crate::kernels::{BinaryOp, Expr, UnaryOp};

/// The dtype two operands meet in: the floating one (float32 for two different half
/// types), else the wider integer, bool the narrowest.
pub fn join(a: DType, b: DType) -> DType {
    use DType::*;
    if a == b {
        return a;
    }
    match (a.is_float(), b.is_float()) {
        (true, false) => a,
        (false, true) => b,
        (true, true) => {
            if a == F64 || b == F64 {
                F64
            } else {
                F32
            }
        }
        (false, false) => {
            if a == Bool {
                b
            } else if b == Bool {
                a
            } else if a.size() != b.size() {
                if a.size() > b.size() {
                    a
                } else {
                    b
                }
            } else if a == U8 {
                b
            } else {
                a
            }
        }
    }
}

/// `op(args)` with the operands joined to one dtype.
pub(super) fn apply(
    op: &str,
    mut args: Vec<Expr>,
    constants: &HashMap<usize, f64>,
) -> std::result::Result<Expr, String> {
    let unary = match op {
        "neg" => Some(UnaryOp::Neg),
        "abs" => Some(UnaryOp::Abs),
        "ceil" => Some(UnaryOp::Ceil),
        "floor" => Some(UnaryOp::Floor),
        "trunc" => Some(UnaryOp::Trunc),
        "round" => Some(UnaryOp::Round),
        "bitwise_not" | "logical_not" => Some(UnaryOp::Not),
        "isnan" => Some(UnaryOp::IsNan),
        "isinf" => Some(UnaryOp::IsInf),
        "sign" => Some(UnaryOp::Sign),
        "sqrt" => Some(UnaryOp::Sqrt),
        "rsqrt" => Some(UnaryOp::Rsqrt),
        "exp" => Some(UnaryOp::Exp),
        "exp2" => Some(UnaryOp::Exp2),
        "expm1" => Some(UnaryOp::Expm1),
        "log" => Some(UnaryOp::Log),
        "log2" => Some(UnaryOp::Log2),
        "log10" => Some(UnaryOp::Log10),
        "log1p" => Some(UnaryOp::Log1p),
        "sin" => Some(UnaryOp::Sin),
        "cos" => Some(UnaryOp::Cos),
        "tan" => Some(UnaryOp::Tan),
        "asin" => Some(UnaryOp::Asin),
        "acos" => Some(UnaryOp::Acos),
        "atan" => Some(UnaryOp::Atan),
        "sinh" => Some(UnaryOp::Sinh),
        "cosh" => Some(UnaryOp::Cosh),
        "tanh" => Some(UnaryOp::Tanh),
        "asinh" => Some(UnaryOp::Asinh),
        "acosh" => Some(UnaryOp::Acosh),
        "atanh" => Some(UnaryOp::Atanh),
        "erf" => Some(UnaryOp::Erf),
        "erfc" => Some(UnaryOp::Erfc),
        "erfinv" => Some(UnaryOp::Erfinv),
        _ => None,
    };
    if let Some(op) = unary {
        let [x] = <[Expr; 1]>::try_from(args).map_err(|_| "a unary op takes one operand")?;
        // Logical not reads any dtype as a truth value.
        let x = if op == UnaryOp::Not && x.dtype() != DType::Bool && !x.dtype().is_int() {
            x.cast(DType::Bool)
        } else {
            x
        };
        return Ok(x.unary(op));
    }
    if let Some(e) = special(op, &args, constants)? {
        return Ok(e);
    }
    if op == "where" {
        let [c, a, b] = <[Expr; 3]>::try_from(args).map_err(|_| "where takes three operands")?;
        let d = join(a.dtype(), b.dtype());
        return Ok(c.cast(DType::Bool).select(a.cast(d), b.cast(d)));
    }
    let binary = match op {
        "add" => BinaryOp::Add,
        "sub" => BinaryOp::Sub,
        "mul" => BinaryOp::Mul,
        "truediv" | "div" => BinaryOp::Div,
        "minimum" => BinaryOp::Min,
        "maximum" => BinaryOp::Max,
        "bitwise_and" | "logical_and" => BinaryOp::BitAnd,
        "bitwise_or" | "logical_or" => BinaryOp::BitOr,
        "bitwise_xor" | "logical_xor" => BinaryOp::BitXor,
        "bitwise_left_shift" => BinaryOp::Shl,
        "bitwise_right_shift" => BinaryOp::Shr,
        "eq" => BinaryOp::Eq,
        "ne" => BinaryOp::Ne,
        "lt" => BinaryOp::Lt,
        "le" => BinaryOp::Le,
        "gt" => BinaryOp::Gt,
        "ge" => BinaryOp::Ge,
        "pow" => BinaryOp::Pow,
        "atan2" => BinaryOp::Atan2,
        "fmod" => BinaryOp::Fmod,
        "remainder" => BinaryOp::Rem,
        "floordiv" => BinaryOp::FloorDiv,
        "copysign" => BinaryOp::CopySign,
        _ => return Err(format!("unknown op `{op}`")),
    };
    if args.len() != 2 {
        return Err(format!("`{op}` takes two operands"));
    }
    let b = args.pop().unwrap();
    let a = args.pop().unwrap();
    let d = if op.starts_with("logical_") {
        DType::Bool
    } else {
        join(a.dtype(), b.dtype())
    };
    Ok(a.cast(d).binary(binary, b.cast(d)))
}

/// The special functions of [`crate::kernels::special`], in the operands' float dtype
/// (float32 at least).
fn special(
    op: &str,
    args: &[Expr],
    constants: &HashMap<usize, f64>,
) -> std::result::Result<Option<Expr>, String> {
    use crate::kernels::special;
    let float = |e: &Expr| {
        let d = e.dtype();
        e.clone().cast(if d == DType::F64 { d } else { DType::F32 })
    };
    // Functions of one float format (nextafter's half types need theirs) and integer ones
    // stay eager calls.
    let float_function = Function::from_stem(op).filter(|f| {
        !matches!(
            f,
            Function::Gcd
                | Function::Lcm
                | Function::NextAfter
                | Function::NextAfterHalf
                | Function::NextAfterBFloat16
        )
    });
    if let Some(f) = float_function {
        if args.len() != f.arity() {
            return Err(format!("`{op}` takes {} operands", f.arity()));
        }
        let d = args
            .iter()
            .fold(DType::F32, |d, a| join(d, float(a).dtype()));
        return Ok(Some(Expr::call(
            f,
            args.iter().map(|a| a.clone().cast(d)).collect(),
        )));
    }
    let arity = match op {
        "lgamma" | "digamma" => 1,
        "hypot" | "zeta" | "polygamma" => 2,
        _ => return Ok(None),
    };
    if args.len() != arity {
        return Err(format!("`{op}` takes {arity} operands"));
    }
    let x = float(&args[arity - 1]);
    let d = x.dtype();
    Ok(Some(match op {
        "lgamma" => special::lgamma(x, d),
        "digamma" => special::digamma(x, d),
        "hypot" => special::hypot(float(&args[0]).cast(d), x, d),
        "zeta" => special::zeta(float(&args[0]).cast(d), x, d),
        _ => {
            let n = constant(&args[0], constants)
                .filter(|n| *n >= 0.0 && n.fract() == 0.0)
                .ok_or("polygamma needs a constant order n >= 0")?;
            special::polygamma(n as u32, x, d)
        }
    }))
}

/// The value of a constant expression (through casts and constant locals).
pub(super) fn constant(e: &Expr, constants: &HashMap<usize, f64>) -> Option<f64> {
    match e {
        Expr::Const { dtype, bits } if dtype.is_float() => Some(f64::from_bits(*bits)),
        Expr::Const { bits, .. } => Some(*bits as i64 as f64),
        Expr::Cast(_, inner) => constant(inner, constants),
        Expr::Input { index, .. } => constants.get(index).copied(),
        _ => None,
    }
}
