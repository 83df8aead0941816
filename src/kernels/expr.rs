//! The scalar expression language shared by every kernel pattern and renderer.

use crate::dtype::DType;
use crate::kernels::functions::Function;

/// A unary scalar operation; the result has the operand's dtype unless noted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Abs,
    Ceil,
    Floor,
    Trunc,
    /// Round half to even.
    Round,
    /// Bitwise not (logical not for bool).
    Not,
    /// Result bool.
    IsNan,
    /// Result bool.
    IsInf,
    /// Result bool.
    IsFinite,
    /// -1, 0 or 1 (NaN stays NaN).
    Sign,
    Sqrt,
    Rsqrt,
    Exp,
    Exp2,
    Expm1,
    Log,
    Log2,
    Log10,
    Log1p,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Erf,
    Erfc,
    Erfinv,
}

impl UnaryOp {
    /// The C math library's name of the op (without a precision suffix), which is also the
    /// WGSL builtin's or helper stem's where WGSL has one; None for the ops every dialect writes
    /// as operators.
    pub fn math_name(self) -> Option<&'static str> {
        use UnaryOp::*;
        Some(match self {
            Abs => "fabs",
            Ceil => "ceil",
            Floor => "floor",
            Trunc => "trunc",
            Round => "rint",
            Sqrt => "sqrt",
            Rsqrt => "rsqrt",
            Exp => "exp",
            Exp2 => "exp2",
            Expm1 => "expm1",
            Log => "log",
            Log2 => "log2",
            Log10 => "log10",
            Log1p => "log1p",
            Sin => "sin",
            Cos => "cos",
            Tan => "tan",
            Asin => "asin",
            Acos => "acos",
            Atan => "atan",
            Sinh => "sinh",
            Cosh => "cosh",
            Tanh => "tanh",
            Asinh => "asinh",
            Acosh => "acosh",
            Atanh => "atanh",
            Erf => "erf",
            Erfc => "erfc",
            Erfinv => "erfinv",
            Neg | Not | IsNan | IsInf | IsFinite | Sign => return None,
        })
    }

    /// Whether the op is defined only for floating-point operands.
    pub fn is_transcendental(self) -> bool {
        use UnaryOp::*;
        !matches!(
            self,
            Neg | Abs | Ceil | Floor | Trunc | Round | Not | IsNan | IsInf | IsFinite | Sign
        )
    }
}

/// A binary scalar operation; both operands have the same dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    /// True division for floats, truncating division for integers.
    Div,
    /// NaN-propagating minimum.
    Min,
    /// NaN-propagating maximum.
    Max,
    BitAnd,
    BitOr,
    BitXor,
    /// Left shift; shifting by the width or more gives 0.
    Shl,
    /// Arithmetic right shift; shifting by the width or more gives the sign fill.
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `a` to the power `b` (integers by repeated squaring).
    Pow,
    Atan2,
    /// C's fmod: the remainder with the sign of `a`.
    Fmod,
    /// Python's remainder: the remainder with the sign of `b`.
    Rem,
    /// Floor division.
    FloorDiv,
    /// `a` with the sign of `b`.
    CopySign,
}

impl BinaryOp {
    /// True when the result is a bool rather than the operand dtype.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        )
    }
}

impl BinaryOp {
    /// The C-family infix operator computing `self` on operands of `dtype`, when there is
    /// one, and whether an integer result must be re-wrapped to the dtype's width. Shared by
    /// the WGSL and CUDA renderers; each handles the other ops (and its own exceptions) first.
    pub fn infix(self, dtype: DType) -> Option<(&'static str, bool)> {
        let boolean = dtype == DType::Bool;
        Some(match self {
            BinaryOp::Add | BinaryOp::Max | BinaryOp::BitOr if boolean => ("|", false),
            BinaryOp::Mul | BinaryOp::Min | BinaryOp::BitAnd if boolean => ("&", false),
            BinaryOp::Add => ("+", true),
            BinaryOp::Sub => ("-", true),
            BinaryOp::Mul => ("*", true),
            BinaryOp::Div => ("/", true),
            BinaryOp::BitAnd => ("&", false),
            BinaryOp::BitOr => ("|", false),
            BinaryOp::BitXor => ("^", false),
            BinaryOp::Eq => ("==", false),
            BinaryOp::Ne => ("!=", false),
            BinaryOp::Lt => ("<", false),
            BinaryOp::Le => ("<=", false),
            BinaryOp::Gt => (">", false),
            BinaryOp::Ge => (">=", false),
            _ => return None,
        })
    }
}

/// A typed scalar expression over a kernel's inputs and scalar arguments.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// The current element of input tensor `index`, of dtype `dtype`.
    Input { index: usize, dtype: DType },
    /// Scalar argument `index` (passed at launch), of dtype `dtype`.
    Scalar { index: usize, dtype: DType },
    /// The row-major linear index of the element a map kernel computes (int64); maps only.
    Index,
    /// A constant: the bits of an f64 for float dtypes, of an i64 otherwise.
    Const { dtype: DType, bits: u64 },
    /// A conversion with PyTorch's cast semantics.
    Cast(DType, Box<Expr>),
    /// A unary operation.
    Unary(UnaryOp, Box<Expr>),
    /// A binary operation.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `if cond { a } else { b }` (both branches may be evaluated).
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A call of a scalar function printed once per kernel as a helper (its arguments have
    /// the result's dtype).
    Call(Function, Vec<Expr>),
    /// Local `index` of a helper function's body (its parameters first).
    Local { index: usize, dtype: DType },
}

impl Expr {
    /// The element of input `index`.
    pub fn input(index: usize, dtype: DType) -> Expr {
        Expr::Input { index, dtype }
    }

    /// Scalar argument `index`.
    pub fn scalar(index: usize, dtype: DType) -> Expr {
        Expr::Scalar { index, dtype }
    }

    /// The constant `value` of `dtype` (truncated for integer dtypes).
    pub fn constant(dtype: DType, value: f64) -> Expr {
        let bits = if dtype.is_float() {
            value.to_bits()
        } else {
            value as i64 as u64
        };
        Expr::Const { dtype, bits }
    }

    /// This expression converted to `dtype` (no-op when it already has it).
    pub fn cast(self, dtype: DType) -> Expr {
        if self.dtype() == dtype {
            self
        } else {
            Expr::Cast(dtype, Box::new(self))
        }
    }

    /// `op(self)`.
    pub fn unary(self, op: UnaryOp) -> Expr {
        Expr::Unary(op, Box::new(self))
    }

    /// `op(self, rhs)`.
    pub fn binary(self, op: BinaryOp, rhs: Expr) -> Expr {
        Expr::Binary(op, Box::new(self), Box::new(rhs))
    }

    /// `op(self, constant)` with the constant in this expression's dtype.
    pub fn with(self, op: BinaryOp, value: f64) -> Expr {
        let c = Expr::constant(self.dtype(), value);
        self.binary(op, c)
    }

    /// `if self { a } else { b }`.
    pub fn select(self, a: Expr, b: Expr) -> Expr {
        Expr::Select(Box::new(self), Box::new(a), Box::new(b))
    }

    /// `f(args)`.
    pub fn call(f: Function, args: Vec<Expr>) -> Expr {
        Expr::Call(f, args)
    }

    /// How many nodes the expression has (a measure of the code it prints).
    pub fn nodes(&self) -> usize {
        1 + match self {
            Expr::Call(_, args) => args.iter().map(Expr::nodes).sum(),
            Expr::Cast(_, x) | Expr::Unary(_, x) => x.nodes(),
            Expr::Binary(_, a, b) => a.nodes() + b.nodes(),
            Expr::Select(c, a, b) => c.nodes() + a.nodes() + b.nodes(),
            _ => 0,
        }
    }

    /// Whether the expression prints as a few instructions: at most `nodes` nodes, none of
    /// them a call, a transcendental function, a power, remainder or floor division, or a
    /// float64 value (emulated on some devices), whose helpers the shader compiler inlines
    /// wherever they are printed. Kernels repeat only such expressions many times per work
    /// item (lavapipe's LLVM took minutes and gigabytes on a uint8 map of a special function
    /// printed 64 times).
    pub fn straight_line(&self, nodes: usize) -> bool {
        use BinaryOp::*;
        fn each(e: &Expr) -> bool {
            if e.dtype() == DType::F64 {
                return false;
            }
            match e {
                Expr::Call(..) => false,
                Expr::Unary(op, x) => !op.is_transcendental() && each(x),
                Expr::Cast(_, x) => each(x),
                Expr::Binary(op, a, b) => {
                    !matches!(op, Pow | Atan2 | Fmod | Rem | FloorDiv) && each(a) && each(b)
                }
                Expr::Select(c, a, b) => each(c) && each(a) && each(b),
                _ => true,
            }
        }
        self.nodes() <= nodes && each(self)
    }

    /// Whether every input the expression reads is one that `known` accepts.
    pub fn inputs_all(&self, known: &impl Fn(usize) -> bool) -> bool {
        match self {
            Expr::Input { index, .. } => known(*index),
            Expr::Index => false,
            Expr::Call(_, args) => args.iter().all(|a| a.inputs_all(known)),
            Expr::Cast(_, x) | Expr::Unary(_, x) => x.inputs_all(known),
            Expr::Binary(_, a, b) => a.inputs_all(known) && b.inputs_all(known),
            Expr::Select(c, a, b) => {
                c.inputs_all(known) && a.inputs_all(known) && b.inputs_all(known)
            }
            Expr::Scalar { .. } | Expr::Const { .. } | Expr::Local { .. } => true,
        }
    }

    /// Whether evaluating the expression runs a loop whose length depends on the values.
    pub fn loops(&self) -> bool {
        match self {
            Expr::Call(f, args) => f.loops() || args.iter().any(Expr::loops),
            Expr::Cast(_, x) | Expr::Unary(_, x) => x.loops(),
            Expr::Binary(_, a, b) => a.loops() || b.loops(),
            Expr::Select(c, a, b) => c.loops() || a.loops() || b.loops(),
            _ => false,
        }
    }

    /// At most how many loop iterations the dialects' helper functions take to evaluate the
    /// expression once: series and Newton steps (WGSL's logarithms, float64 functions),
    /// the float remainder's doubling, integer powers. The software device counts every
    /// loop iteration of an invocation against one budget, so kernels that walk many
    /// elements per invocation weigh each element by this (bounds, not measurements).
    pub fn helper_steps(&self) -> u64 {
        use UnaryOp::*;
        let own = match self {
            Expr::Call(f, _) if f.loops() => u64::from(u32::MAX),
            Expr::Unary(op, x) => match op {
                Neg | Abs | Ceil | Floor | Trunc | Round | Not | IsNan | IsInf | IsFinite
                | Sign | Sqrt | Rsqrt => 0,
                _ if x.dtype() == DType::F64 => 100,
                Log | Log2 | Log10 | Log1p | Asinh | Acosh | Atanh => 16,
                Erfinv => 64,
                _ => 0,
            },
            Expr::Binary(op, a, _) => match op {
                BinaryOp::Fmod | BinaryOp::Rem | BinaryOp::FloorDiv if a.dtype().is_float() => 300,
                BinaryOp::Pow => 100,
                BinaryOp::Atan2 if a.dtype() == DType::F64 => 100,
                _ => 0,
            },
            _ => 0,
        };
        let children: u64 = match self {
            Expr::Call(_, args) => args.iter().map(Expr::helper_steps).sum(),
            Expr::Cast(_, x) | Expr::Unary(_, x) => x.helper_steps(),
            Expr::Binary(_, a, b) => a.helper_steps() + b.helper_steps(),
            Expr::Select(c, a, b) => c.helper_steps() + a.helper_steps() + b.helper_steps(),
            _ => 0,
        };
        own.saturating_add(children)
    }

    /// The dtype of the value.
    pub fn dtype(&self) -> DType {
        match self {
            Expr::Input { dtype, .. }
            | Expr::Scalar { dtype, .. }
            | Expr::Const { dtype, .. }
            | Expr::Cast(dtype, _) => *dtype,
            Expr::Unary(op, x) => match op {
                UnaryOp::IsNan | UnaryOp::IsInf | UnaryOp::IsFinite => DType::Bool,
                _ => x.dtype(),
            },
            Expr::Binary(op, a, _) => {
                if op.is_comparison() {
                    DType::Bool
                } else {
                    a.dtype()
                }
            }
            Expr::Select(_, a, _) => a.dtype(),
            Expr::Call(_, args) => args[0].dtype(),
            Expr::Local { dtype, .. } => *dtype,
            Expr::Index => DType::I64,
        }
    }
}

impl Expr {
    /// Whether the expression needs only what emulated float64 offers (devices without
    /// shader-f64 hold float64 as its bits): conversions from and to floating types through
    /// float32, negation, magnitude and division. Other dtypes compute as usual.
    pub fn within_emulated_f64(&self) -> bool {
        use DType::{BF16, F16, F32, F64};
        let f64_operand = |x: &Expr| x.dtype() == F64;
        match self {
            Expr::Input { .. } | Expr::Scalar { .. } | Expr::Const { .. } | Expr::Index => true,
            Expr::Local { dtype, .. } => *dtype != F64,
            Expr::Call(_, args) => args
                .iter()
                .all(|a| !f64_operand(a) && a.within_emulated_f64()),
            Expr::Cast(to, x) => {
                let allowed = match (x.dtype(), *to) {
                    (F16 | BF16 | F32, F64) | (F64, F32) => true,
                    (from, to) => from == to || (from != F64 && to != F64),
                };
                allowed && x.within_emulated_f64()
            }
            Expr::Unary(op, x) => {
                (!f64_operand(x) || matches!(op, UnaryOp::Neg | UnaryOp::Abs))
                    && x.within_emulated_f64()
            }
            Expr::Binary(op, a, b) => {
                (!f64_operand(a) || *op == BinaryOp::Div)
                    && a.within_emulated_f64()
                    && b.within_emulated_f64()
            }
            Expr::Select(c, a, b) => {
                !f64_operand(a)
                    && c.within_emulated_f64()
                    && a.within_emulated_f64()
                    && b.within_emulated_f64()
            }
        }
    }
}

/// Builders for the ops whose expression is a composition of the primitives.
impl Expr {
    pub fn lt(self, rhs: Expr) -> Expr {
        self.binary(BinaryOp::Lt, rhs)
    }
    pub fn gt(self, rhs: Expr) -> Expr {
        self.binary(BinaryOp::Gt, rhs)
    }
    pub fn le(self, rhs: Expr) -> Expr {
        self.binary(BinaryOp::Le, rhs)
    }
    pub fn ge(self, rhs: Expr) -> Expr {
        self.binary(BinaryOp::Ge, rhs)
    }
    pub fn eq(self, rhs: Expr) -> Expr {
        self.binary(BinaryOp::Eq, rhs)
    }
    pub fn min(self, rhs: Expr) -> Expr {
        self.binary(BinaryOp::Min, rhs)
    }
    pub fn max(self, rhs: Expr) -> Expr {
        self.binary(BinaryOp::Max, rhs)
    }
    pub fn is_nan(self) -> Expr {
        self.unary(UnaryOp::IsNan)
    }
    pub fn exp(self) -> Expr {
        self.unary(UnaryOp::Exp)
    }
    pub fn log1p(self) -> Expr {
        self.unary(UnaryOp::Log1p)
    }
    pub fn tanh(self) -> Expr {
        self.unary(UnaryOp::Tanh)
    }
    /// `1 / (1 + exp(-x))`.
    pub fn sigmoid(self) -> Expr {
        let d = self.dtype();
        Expr::constant(d, 1.0) / (-self).exp().with(BinaryOp::Add, 1.0)
    }
    /// Boolean and, for bool operands.
    pub fn and(self, rhs: Expr) -> Expr {
        self.binary(BinaryOp::BitAnd, rhs)
    }
    /// Boolean or, for bool operands.
    pub fn or(self, rhs: Expr) -> Expr {
        self.binary(BinaryOp::BitOr, rhs)
    }
}

macro_rules! arithmetic {
    ($trait:ident, $method:ident, $op:ident) => {
        impl std::ops::$trait for Expr {
            type Output = Expr;
            fn $method(self, rhs: Expr) -> Expr {
                self.binary(BinaryOp::$op, rhs)
            }
        }
    };
}

arithmetic!(Add, add, Add);
arithmetic!(Sub, sub, Sub);
arithmetic!(Mul, mul, Mul);
arithmetic!(Div, div, Div);

impl std::ops::Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        self.unary(UnaryOp::Neg)
    }
}
