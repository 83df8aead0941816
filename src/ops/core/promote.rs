//! PyTorch's type promotion: the promotion lattice and `result_type` with its priorities.

use crate::dtype::DType;

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

/// `torch.promote_types(a, b)`.
pub fn promote_types(a: DType, b: DType) -> DType {
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
pub fn result_type(operands: &[(DType, Priority)], default_float: DType) -> DType {
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
        state[slot] = Some(state[slot].map_or(dtype, |s| promote_types(s, dtype)));
    }
    let combine = |higher: Option<DType>, lower: Option<DType>| match (higher, lower) {
        (Some(h), Some(l)) if category(l) > category(h) => Some(promote_types(h, l)),
        (Some(h), _) => Some(h),
        (None, l) => l,
    };
    combine(combine(state[0], state[1]), state[2]).unwrap_or(default_float)
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
        assert_eq!(promote_types(U8, I8), I16);
        assert_eq!(promote_types(Bool, U8), U8);
        assert_eq!(promote_types(I64, F16), F16);
        assert_eq!(promote_types(F16, BF16), F32);
        assert_eq!(promote_types(I32, I64), I64);
        assert_eq!(promote_types(F32, F64), F64);
    }

    #[test]
    fn scalars_and_zero_dim_tensors_rank_lower() {
        let t = |d| (d, Priority::Dim);
        assert_eq!(result_type(&[t(I32), (F64, Priority::Wrapped)], F32), F32);
        assert_eq!(result_type(&[t(F16), (F64, Priority::Wrapped)], F32), F16);
        assert_eq!(result_type(&[t(U8), (I64, Priority::Wrapped)], F32), U8);
        assert_eq!(result_type(&[t(F16), (F64, Priority::ZeroDim)], F32), F16);
        assert_eq!(result_type(&[t(I32), (F64, Priority::ZeroDim)], F32), F64);
        assert_eq!(result_type(&[t(Bool), (I64, Priority::Wrapped)], F32), I64);
    }
}
