//! Tensor element types, numbered as `c10::ScalarType`.

use crate::error::{Error, Result};

/// An element type the backend stores and computes with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    U8,
    I8,
    I16,
    I32,
    I64,
    F16,
    F32,
    F64,
    Bool,
    BF16,
}

/// Every supported dtype, in `c10::ScalarType` order.
pub const ALL_DTYPES: [DType; 10] = [
    DType::U8,
    DType::I8,
    DType::I16,
    DType::I32,
    DType::I64,
    DType::F16,
    DType::F32,
    DType::F64,
    DType::Bool,
    DType::BF16,
];

/// How an op refusing complex tensors is reported; the op table puts the op's name in place
/// of "this operation".
pub const COMPLEX_REFUSAL: &str = "mojo: this operation does not take complex tensors";

impl DType {
    /// Maps a `c10::ScalarType` code to a dtype, or an error naming the unsupported type.
    pub fn from_code(code: i32) -> Result<Self> {
        Ok(match code {
            0 => DType::U8,
            1 => DType::I8,
            2 => DType::I16,
            3 => DType::I32,
            4 => DType::I64,
            5 => DType::F16,
            6 => DType::F32,
            7 => DType::F64,
            11 => DType::Bool,
            15 => DType::BF16,
            8..=10 => {
                return Err(Error::not_implemented(format!(
                    "{COMPLEX_REFUSAL} ({}) yet",
                    ["ComplexHalf", "ComplexFloat", "ComplexDouble"][code as usize - 8]
                )))
            }
            _ => {
                return Err(Error::type_error(format!(
                    "mojo: dtype with c10::ScalarType code {code} is not supported"
                )))
            }
        })
    }

    /// The component dtype of a complex `c10::ScalarType` code (ComplexHalf, ComplexFloat,
    /// ComplexDouble): such elements are stored as (real, imaginary) pairs of it.
    pub fn complex_component(code: i32) -> Option<Self> {
        match code {
            8 => Some(DType::F16),
            9 => Some(DType::F32),
            10 => Some(DType::F64),
            _ => None,
        }
    }

    /// PyTorch's name of the complex dtype with parts of this dtype (`ComplexFloat`).
    pub fn complex_torch_name(self) -> &'static str {
        match self {
            DType::F16 => "ComplexHalf",
            DType::F64 => "ComplexDouble",
            _ => "ComplexFloat",
        }
    }

    /// The `c10::ScalarType` code of the complex dtype with parts of this dtype.
    pub fn complex_code(self) -> Option<i32> {
        match self {
            DType::F16 => Some(8),
            DType::F32 => Some(9),
            DType::F64 => Some(10),
            _ => None,
        }
    }

    /// The `c10::ScalarType` code.
    pub fn code(self) -> i32 {
        match self {
            DType::U8 => 0,
            DType::I8 => 1,
            DType::I16 => 2,
            DType::I32 => 3,
            DType::I64 => 4,
            DType::F16 => 5,
            DType::F32 => 6,
            DType::F64 => 7,
            DType::Bool => 11,
            DType::BF16 => 15,
        }
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            DType::U8 | DType::I8 | DType::Bool => 1,
            DType::I16 | DType::F16 | DType::BF16 => 2,
            DType::I32 | DType::F32 => 4,
            DType::I64 | DType::F64 => 8,
        }
    }

    /// The integer dtype of the same width: elements moved as it keep their bits (NaN
    /// payloads and signs, a bool's byte), where a move through the compute type need not.
    pub fn bits(self) -> DType {
        match self.size() {
            1 => DType::U8,
            2 => DType::I16,
            4 => DType::I32,
            _ => DType::I64,
        }
    }

    /// True for the floating-point dtypes.
    pub fn is_float(self) -> bool {
        matches!(self, DType::F16 | DType::BF16 | DType::F32 | DType::F64)
    }

    /// The type floating-point math on this dtype accumulates in: float64 for float64, else
    /// float32 (CUDA's opmath for the half types).
    pub fn float_acc(self) -> DType {
        if self == DType::F64 {
            DType::F64
        } else {
            DType::F32
        }
    }

    /// True for the integer dtypes (bool excluded).
    pub fn is_int(self) -> bool {
        matches!(
            self,
            DType::U8 | DType::I8 | DType::I16 | DType::I32 | DType::I64
        )
    }

    /// The name PyTorch prints (`torch.float32` without the prefix).
    pub fn name(self) -> &'static str {
        match self {
            DType::U8 => "uint8",
            DType::I8 => "int8",
            DType::I16 => "int16",
            DType::I32 => "int32",
            DType::I64 => "int64",
            DType::F16 => "float16",
            DType::F32 => "float32",
            DType::F64 => "float64",
            DType::Bool => "bool",
            DType::BF16 => "bfloat16",
        }
    }

    /// The C++ type name some PyTorch messages print (`float`, `int64_t`, ...).
    pub fn cpp_name(self) -> &'static str {
        match self {
            DType::U8 => "uint8_t",
            DType::I8 => "int8_t",
            DType::I16 => "int16_t",
            DType::I32 => "int",
            DType::I64 => "int64_t",
            DType::F16 => "c10::Half",
            DType::F32 => "float",
            DType::F64 => "double",
            DType::Bool => "bool",
            DType::BF16 => "c10::BFloat16",
        }
    }

    /// The name c10 prints in error messages (`Float`, `Long`, ...).
    pub fn torch_name(self) -> &'static str {
        match self {
            DType::U8 => "Byte",
            DType::I8 => "Char",
            DType::I16 => "Short",
            DType::I32 => "Int",
            DType::I64 => "Long",
            DType::F16 => "Half",
            DType::F32 => "Float",
            DType::F64 => "Double",
            DType::Bool => "Bool",
            DType::BF16 => "BFloat16",
        }
    }
}
