//! PyTorch's type promotion: the promotion lattice and `result_type` with its priorities.

use crate::dtype::DType;
use crate::error::{Error, Result};

/// How an operand takes part in type promotion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    /// A tensor with at least one dimension.
    Dim,
    /// A zero-dimensional tensor.
    ZeroDim,
    /// A Python number.
    Wrapped,
}

fn category(d: DType) -> u8 {
    if d == DType::Bool {
        0
    } else if d.is_float() {
        2
    } else {
        1
    }
}

/// `torch.promote_types(a, b)`: float8 dtypes promote with nothing else, and the unsigned
/// integers wider than a byte only with floating dtypes (PyTorch's refusals).
pub fn promote_types(a: DType, b: DType) -> Result<DType> {
    if a == b {
        return Ok(a);
    }
    let refuse = |family: &str| {
        Err(Error::runtime(format!(
            "Promotion for {family} is not supported, attempted to promote {} and {}",
            a.torch_name(),
            b.torch_name()
        )))
    };
    if a.is_float8() || b.is_float8() {
        return refuse("Float8 Types");
    }
    let (wide, other) = if a.is_wide_unsigned() {
        (true, b)
    } else {
        (b.is_wide_unsigned(), a)
    };
    if wide && !other.is_float() {
        return refuse("uint16, uint32, uint64 types");
    }
    Ok(promote_lattice(a, b))
}

/// The promotion of two dtypes by the lattice alone, without the refusals of
/// [`promote_types`] (complex arithmetic, whose parts are floating).
pub fn promote_lattice(a: DType, b: DType) -> DType {
    use DType::*;
    if a == b {
        return a;
    }
    match (a, b) {
        (Bool, x) | (x, Bool) => x,
        (F16, BF16) | (BF16, F16) => F32,
        _ if a.is_float() && b.is_float() => {
            if a.size() >= b.size() {
                a
            } else {
                b
            }
        }
        _ if a.is_float() => a,
        _ if b.is_float() => b,
        (U8, I8) | (I8, U8) => I16,
        (U8, x) | (x, U8) => x,
        _ => {
            if a.size() >= b.size() {
                a
            } else {
                b
            }
        }
    }
}

/// `torch.result_type` over operands; a wrapped float counts as `default_float`.
pub fn result_type(operands: &[(DType, Priority)], default_float: DType) -> Result<DType> {
    let mut state: [Option<DType>; 3] = [None; 3];
    for &(dtype, priority) in operands {
        let (slot, dtype) = match priority {
            Priority::Dim => (0, dtype),
            Priority::ZeroDim => (1, dtype),
            Priority::Wrapped => (
                2,
                if dtype.is_float() {
                    default_float
                } else {
                    dtype
                },
            ),
        };
        state[slot] = Some(match state[slot] {
            Some(s) => promote_types(s, dtype)?,
            None => dtype,
        });
    }
    let combine = |higher: Option<DType>, lower: Option<DType>| -> Result<Option<DType>> {
        Ok(match (higher, lower) {
            (Some(h), Some(l)) if category(l) > category(h) => Some(promote_types(h, l)?),
            (Some(h), _) => Some(h),
            (None, l) => l,
        })
    };
    Ok(combine(combine(state[0], state[1])?, state[2])?.unwrap_or(default_float))
}

/// `torch.can_cast(from, to)`: no cast to a lower category.
pub fn can_cast(from: DType, to: DType) -> bool {
    category(from) <= category(to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use DType::*;

    #[test]
    fn lattice_matches_pytorch() {
        assert_eq!(promote_types(U8, I8).ok(), Some(I16));
        assert_eq!(promote_types(Bool, U8).ok(), Some(U8));
        assert_eq!(promote_types(I64, F16).ok(), Some(F16));
        assert_eq!(promote_types(F16, BF16).ok(), Some(F32));
        assert_eq!(promote_types(I32, I64).ok(), Some(I64));
        assert_eq!(promote_types(F32, F64).ok(), Some(F64));
    }

    #[test]
    fn float8_and_wide_unsigned_promote_only_as_pytorch_lets_them() {
        assert_eq!(promote_types(U16, F16).ok(), Some(F16));
        assert_eq!(promote_types(U64, F32).ok(), Some(F32));
        assert!(promote_types(U16, I64).is_err());
        assert!(promote_types(U32, Bool).is_err());
        assert!(promote_types(F8E4M3, F32).is_err());
        assert!(promote_types(F8E5M2, F8E4M3).is_err());
        assert_eq!(promote_types(F8E4M3, F8E4M3).ok(), Some(F8E4M3));
        let t = |d| (d, Priority::Dim);
        assert_eq!(
            result_type(&[t(U16), (I64, Priority::Wrapped)], F32).ok(),
            Some(U16)
        );
        assert_eq!(
            result_type(&[t(U16), (F64, Priority::Wrapped)], F32).ok(),
            Some(F32)
        );
        assert_eq!(
            result_type(&[t(F8E5M2), (F64, Priority::Wrapped)], F32).ok(),
            Some(F8E5M2)
        );
    }

    #[test]
    fn scalars_and_zero_dim_tensors_rank_lower() {
        let t = |d| (d, Priority::Dim);
        assert_eq!(
            result_type(&[t(I32), (F64, Priority::Wrapped)], F32).ok(),
            Some(F32)
        );
        assert_eq!(
            result_type(&[t(F16), (F64, Priority::Wrapped)], F32).ok(),
            Some(F16)
        );
        assert_eq!(
            result_type(&[t(U8), (I64, Priority::Wrapped)], F32).ok(),
            Some(U8)
        );
        assert_eq!(
            result_type(&[t(F16), (F64, Priority::ZeroDim)], F32).ok(),
            Some(F16)
        );
        assert_eq!(
            result_type(&[t(I32), (F64, Priority::ZeroDim)], F32).ok(),
            Some(F64)
        );
        assert_eq!(
            result_type(&[t(Bool), (I64, Priority::Wrapped)], F32).ok(),
            Some(I64)
        );
    }
}
