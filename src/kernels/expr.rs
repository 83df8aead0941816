//! The scalar expression language shared by every kernel pattern and renderer.

use crate::dtype::DType;

/// A unary scalar operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Abs,
    Ceil,
    Floor,
    Trunc,
    Not,
    IsNan,
    IsInf,
    IsFinite,
}

/// A binary scalar operation; both operands have the same dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Min,
    Max,
    BitAnd,
    BitOr,
    BitXor,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
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

/// A typed scalar expression over a kernel's inputs and scalar arguments.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// The current element of input tensor `index`, of dtype `dtype`.
    Input { index: usize, dtype: DType },
    /// Scalar argument `index` (passed at launch), of dtype `dtype`.
    Scalar { index: usize, dtype: DType },
    /// A conversion with PyTorch's cast semantics.
    Cast(DType, Box<Expr>),
    /// A unary operation.
    Unary(UnaryOp, Box<Expr>),
    /// A binary operation.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
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

    /// The dtype of the value.
    pub fn dtype(&self) -> DType {
        match self {
            Expr::Input { dtype, .. } | Expr::Scalar { dtype, .. } | Expr::Cast(dtype, _) => *dtype,
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
        }
    }
}
