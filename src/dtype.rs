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
    U16,
    U32,
    U64,
    /// float8_e5m2: IEEE-style, infinities and NaNs.
    F8E5M2,
    /// float8_e4m3fn: no infinities, one NaN pattern per sign.
    F8E4M3,
    /// float8_e5m2fnuz: no infinities or negative zero, NaN where negative zero would be.
    F8E5M2Fnuz,
    /// float8_e4m3fnuz: as float8_e5m2fnuz.
    F8E4M3Fnuz,
    /// float8_e8m0fnu: an unsigned power of two (exponent only), NaN all ones.
    F8E8M0,
}

/// Every supported dtype, in `c10::ScalarType` order.
pub const ALL_DTYPES: [DType; 18] = [
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
    DType::F8E5M2,
    DType::F8E4M3,
    DType::F8E5M2Fnuz,
    DType::F8E4M3Fnuz,
    DType::U16,
    DType::U32,
    DType::U64,
    DType::F8E8M0,
];

/// The float8 dtypes as one pattern (`DType::F16 | float8_dtypes!() => ...`).
#[macro_export]
macro_rules! float8_dtypes {
    () => {
        $crate::dtype::DType::F8E5M2
            | $crate::dtype::DType::F8E4M3
            | $crate::dtype::DType::F8E5M2Fnuz
            | $crate::dtype::DType::F8E4M3Fnuz
            | $crate::dtype::DType::F8E8M0
    };
}

/// How a float8 dtype spends its special patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float8Specials {
    /// Exponent all ones: infinity with a zero mantissa, else NaN (float8_e5m2).
    Ieee,
    /// No infinity; exponent and mantissa all ones is NaN (float8_e4m3fn).
    Fn,
    /// No infinity or negative zero; the sign bit alone is NaN (the fnuz formats).
    Fnuz,
    /// No sign, no zero, no mantissa: all ones is NaN (float8_e8m0fnu).
    ExponentOnly,
}

/// The layout of a float8 dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Float8 {
    pub exponent_bits: u32,
    pub mantissa_bits: u32,
    pub bias: u32,
    pub specials: Float8Specials,
}

/// How an op refuses a dtype it has no kernels for (raised as NotImplementedError, never as
/// the TypeError that Python's operators would turn into `NotImplemented` and then into an
/// identity comparison); the op table puts the op's name in place of "this operation".
pub const REFUSAL: &str = "mojo: this operation does not take";

/// How an op refusing complex tensors is reported (a [`REFUSAL`]).
pub const COMPLEX_REFUSAL: &str = "mojo: this operation does not take complex tensors";

/// c10's names of the `c10::ScalarType` codes the backend has no dtype for, by code.
fn unsupported_name(code: i32) -> Option<&'static str> {
    const NAMES: [&str; 46] = [
        "Byte",
        "Char",
        "Short",
        "Int",
        "Long",
        "Half",
        "Float",
        "Double",
        "ComplexHalf",
        "ComplexFloat",
        "ComplexDouble",
        "Bool",
        "QInt8",
        "QUInt8",
        "QInt32",
        "BFloat16",
        "QUInt4x2",
        "QUInt2x4",
        "Bits1x8",
        "Bits2x4",
        "Bits4x2",
        "Bits8",
        "Bits16",
        "Float8_e5m2",
        "Float8_e4m3fn",
        "Float8_e5m2fnuz",
        "Float8_e4m3fnuz",
        "UInt16",
        "UInt32",
        "UInt64",
        "UInt1",
        "UInt2",
        "UInt3",
        "UInt4",
        "UInt5",
        "UInt6",
        "UInt7",
        "Int1",
        "Int2",
        "Int3",
        "Int4",
        "Int5",
        "Int6",
        "Int7",
        "Float8_e8m0fnu",
        "Float4_e2m1fn_x2",
    ];
    usize::try_from(code)
        .ok()
        .and_then(|i| NAMES.get(i).copied())
}

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
            23 => DType::F8E5M2,
            24 => DType::F8E4M3,
            25 => DType::F8E5M2Fnuz,
            26 => DType::F8E4M3Fnuz,
            27 => DType::U16,
            28 => DType::U32,
            29 => DType::U64,
            44 => DType::F8E8M0,
            8..=10 => {
                return Err(Error::not_implemented(format!(
                    "{COMPLEX_REFUSAL} ({}) yet",
                    ["ComplexHalf", "ComplexFloat", "ComplexDouble"][code as usize - 8]
                )))
            }
            _ => {
                return Err(Error::not_implemented(match unsupported_name(code) {
                    Some(name) => format!("{REFUSAL} {name} tensors"),
                    None => format!("{REFUSAL} tensors of c10::ScalarType code {code}"),
                }))
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
            DType::F8E5M2 => 23,
            DType::F8E4M3 => 24,
            DType::F8E5M2Fnuz => 25,
            DType::F8E4M3Fnuz => 26,
            DType::U16 => 27,
            DType::U32 => 28,
            DType::U64 => 29,
            DType::F8E8M0 => 44,
        }
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            DType::U8 | DType::I8 | DType::Bool => 1,
            DType::F8E5M2 | DType::F8E4M3 | DType::F8E5M2Fnuz | DType::F8E4M3Fnuz => 1,
            DType::F8E8M0 => 1,
            DType::I16 | DType::U16 | DType::F16 | DType::BF16 => 2,
            DType::I32 | DType::U32 | DType::F32 => 4,
            DType::I64 | DType::U64 | DType::F64 => 8,
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
        matches!(self, DType::F16 | DType::BF16 | DType::F32 | DType::F64) || self.is_float8()
    }

    /// True for the float8 dtypes, which are computed as float32.
    pub fn is_float8(self) -> bool {
        self.float8().is_some()
    }

    /// True for the unsigned integers.
    pub fn is_unsigned(self) -> bool {
        matches!(self, DType::U8 | DType::U16 | DType::U32 | DType::U64)
    }

    /// True for the unsigned integers of more than a byte, which PyTorch promotes only with
    /// themselves and floating types ("barebones" unsigned types).
    pub fn is_wide_unsigned(self) -> bool {
        matches!(self, DType::U16 | DType::U32 | DType::U64)
    }

    /// The layout of a float8 dtype.
    pub fn float8(self) -> Option<Float8> {
        let (exponent_bits, bias, specials) = match self {
            DType::F8E5M2 => (5, 15, Float8Specials::Ieee),
            DType::F8E4M3 => (4, 7, Float8Specials::Fn),
            DType::F8E5M2Fnuz => (5, 16, Float8Specials::Fnuz),
            DType::F8E4M3Fnuz => (4, 8, Float8Specials::Fnuz),
            DType::F8E8M0 => (8, 127, Float8Specials::ExponentOnly),
            _ => return None,
        };
        Some(Float8 {
            exponent_bits,
            mantissa_bits: 7 - exponent_bits.min(7),
            bias,
            specials,
        })
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
        ) || self.is_wide_unsigned()
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
            DType::U16 => "uint16",
            DType::U32 => "uint32",
            DType::U64 => "uint64",
            DType::F8E5M2 => "float8_e5m2",
            DType::F8E4M3 => "float8_e4m3fn",
            DType::F8E5M2Fnuz => "float8_e5m2fnuz",
            DType::F8E4M3Fnuz => "float8_e4m3fnuz",
            DType::F8E8M0 => "float8_e8m0fnu",
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
            DType::U16 => "uint16_t",
            DType::U32 => "uint32_t",
            DType::U64 => "uint64_t",
            DType::F8E5M2 => "c10::Float8_e5m2",
            DType::F8E4M3 => "c10::Float8_e4m3fn",
            DType::F8E5M2Fnuz => "c10::Float8_e5m2fnuz",
            DType::F8E4M3Fnuz => "c10::Float8_e4m3fnuz",
            DType::F8E8M0 => "c10::Float8_e8m0fnu",
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
            DType::U16 => "UInt16",
            DType::U32 => "UInt32",
            DType::U64 => "UInt64",
            DType::F8E5M2 => "Float8_e5m2",
            DType::F8E4M3 => "Float8_e4m3fn",
            DType::F8E5M2Fnuz => "Float8_e5m2fnuz",
            DType::F8E4M3Fnuz => "Float8_e4m3fnuz",
            DType::F8E8M0 => "Float8_e8m0fnu",
        }
    }
}
