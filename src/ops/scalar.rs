//! Python scalars passed to ops, converted to a dtype's kernel words.

use crate::dtype::DType;
use crate::error::{Error, Result};

/// A scalar as the glue passes it: `kind` 0 bool, 1 integer, 2 float; `dtype` is -1 for a
/// Python number, else the dtype code of the zero-dimensional CPU tensor it came from.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ScalarArg {
    pub kind: i32,
    pub dtype: i32,
    pub i: i64,
    pub d: f64,
}

impl ScalarArg {
    /// The dtype of a zero-dimensional tensor scalar, or None for a Python number.
    pub fn tensor_dtype(&self) -> Option<DType> {
        DType::from_code(self.dtype)
            .ok()
            .filter(|_| self.dtype >= 0)
    }

    /// The dtype PyTorch gives this scalar as a wrapped number.
    pub fn dtype(&self) -> DType {
        match self.kind {
            0 => DType::Bool,
            1 => DType::I64,
            _ => DType::F64,
        }
    }

    fn as_f64(&self) -> f64 {
        if self.kind == 2 {
            self.d
        } else {
            self.i as f64
        }
    }

    /// The value converted to `dtype` as kernel words of its compute type.
    pub fn words(&self, dtype: DType) -> Vec<u32> {
        let int = if self.kind == 2 {
            self.d as i64
        } else {
            self.i
        };
        match dtype {
            DType::Bool => vec![u32::from(if self.kind == 2 {
                self.d != 0.0
            } else {
                self.i != 0
            })],
            DType::U8 => vec![(int as u32) & 0xff],
            DType::I8 => vec![i32::from(int as i8) as u32],
            DType::I16 => vec![i32::from(int as i16) as u32],
            DType::I32 => vec![int as i32 as u32],
            DType::I64 => vec![int as u32, (int >> 32) as u32],
            DType::F16 | DType::BF16 | DType::F32 => vec![(self.as_f64() as f32).to_bits()],
            DType::F64 => {
                let bits = self.as_f64().to_bits();
                vec![bits as u32, (bits >> 32) as u32]
            }
        }
    }

    /// Checks that the value fits `dtype`, as `Scalar::to<T>` does when filling.
    pub fn check_fits(&self, dtype: DType) -> Result<()> {
        let overflow = || {
            Error::runtime(format!(
                "value cannot be converted to type {} without overflow",
                dtype.name()
            ))
        };
        let v = self.as_f64();
        let (lo, hi) = match dtype {
            DType::U8 => (-255.0, 255.0),
            DType::I8 => (-128.0, 127.0),
            DType::I16 => (-32768.0, 32767.0),
            DType::I32 => (-2147483648.0, 2147483647.0),
            DType::F16 => (-65504.0, 65504.0),
            DType::BF16 | DType::F32 => (-(f32::MAX as f64), f32::MAX as f64),
            DType::I64 | DType::F64 | DType::Bool => return Ok(()),
        };
        if dtype.is_float() && !v.is_finite() {
            return Ok(());
        }
        if v.is_nan() || v < lo || v > hi {
            return Err(overflow());
        }
        Ok(())
    }
}
