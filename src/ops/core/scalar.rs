//! Python scalars passed to ops, converted to a dtype's kernel words.

use crate::dtype::DType;
use crate::error::{Error, Result};

/// What a scalar holds: `MojoScalarKind` in csrc/mojo.h, the same numbers.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarKind {
    Bool = 0,
    Int = 1,
    Float = 2,
}

/// `MojoScalarKind`'s number for a complex number (see [`ScalarArg::imaginary`]).
pub const COMPLEX_KIND: i32 = 3;

/// A scalar as the glue passes it: `kind` a [`ScalarKind`] number (`i` holds a bool or an
/// integer, `d` a float); `dtype` is -1 for a Python number, else the dtype code of the
/// zero-dimensional CPU tensor it came from.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ScalarArg {
    pub kind: i32,
    pub dtype: i32,
    pub i: i64,
    pub d: f64,
}

/// A scalar's kernel words, held inline.
pub type ScalarWords = smallvec::SmallVec<[u32; 2]>;

impl ScalarArg {
    /// The dtype of a zero-dimensional tensor scalar, or None for a Python number.
    pub fn tensor_dtype(&self) -> Option<DType> {
        if self.dtype < 0 {
            return None;
        }
        DType::from_code(self.dtype).ok()
    }

    /// What the scalar holds (the glue writes only [`ScalarKind`] numbers; any other reads
    /// as a float).
    pub fn kind(&self) -> ScalarKind {
        match self.kind {
            0 => ScalarKind::Bool,
            1 => ScalarKind::Int,
            _ => ScalarKind::Float,
        }
    }

    /// The imaginary part of a complex number (the glue's `kScalarComplex`: the real part in
    /// `d`, the imaginary part's bits in `i`), or None for a real one. Only fills receive
    /// complex numbers; they read it before anything else.
    pub fn imaginary(&self) -> Option<f64> {
        (self.kind == COMPLEX_KIND).then(|| f64::from_bits(self.i as u64))
    }

    /// The dtype PyTorch gives this scalar as a wrapped number.
    pub fn dtype(&self) -> DType {
        match self.kind() {
            ScalarKind::Bool => DType::Bool,
            ScalarKind::Int => DType::I64,
            ScalarKind::Float => DType::F64,
        }
    }

    fn as_f64(&self) -> f64 {
        if self.is_float() {
            self.d
        } else {
            self.i as f64
        }
    }

    /// The value converted to `dtype` as kernel words of its compute type.
    pub fn words(&self, dtype: DType) -> Vec<u32> {
        self.inline_words(dtype).to_vec()
    }

    /// [`Self::words`] without a heap allocation (one or two words).
    pub fn inline_words(&self, dtype: DType) -> ScalarWords {
        let int = if self.is_float() {
            self.d as i64
        } else {
            self.i
        };
        match dtype {
            DType::Bool => smallvec::smallvec![u32::from(if self.is_float() {
                self.d != 0.0
            } else {
                self.i != 0
            })],
            DType::U8 => smallvec::smallvec![(int as u32) & 0xff],
            DType::U16 => smallvec::smallvec![(int as u32) & 0xffff],
            DType::U32 => smallvec::smallvec![int as u32],
            DType::I64 | DType::U64 => smallvec::smallvec![int as u32, (int >> 32) as u32],
            DType::I8 => smallvec::smallvec![i32::from(int as i8) as u32],
            DType::I16 => smallvec::smallvec![i32::from(int as i16) as u32],
            DType::I32 => smallvec::smallvec![int as i32 as u32],
            // Floats under eight bytes go as float32; kernels round them where they store.
            DType::F16 | DType::BF16 | DType::F32 | crate::float8_dtypes!() => {
                smallvec::smallvec![(self.as_f64() as f32).to_bits()]
            }
            DType::F64 => {
                let bits = self.as_f64().to_bits();
                smallvec::smallvec![bits as u32, (bits >> 32) as u32]
            }
        }
    }

    /// Checks that the value fits `dtype`, as `Scalar::to<T>` does when filling.
    pub fn check_fits(&self, dtype: DType) -> Result<()> {
        let overflow = || {
            Error::runtime(format!(
                "value cannot be converted to type {} without overflow",
                dtype.cpp_name()
            ))
        };
        let v = self.as_f64();
        let (lo, hi) = match dtype {
            DType::U8 => (-255.0, 255.0),
            DType::U16 => (0.0, 65535.0),
            DType::U32 => (0.0, 4294967295.0),
            DType::U64 => (0.0, 18446744073709551615.0),
            DType::I8 => (-128.0, 127.0),
            DType::I16 => (-32768.0, 32767.0),
            DType::I32 => (-2147483648.0, 2147483647.0),
            DType::F16 => (-65504.0, 65504.0),
            DType::BF16 | DType::F32 => (-(f32::MAX as f64), f32::MAX as f64),
            // c10 checks no float8 value.
            DType::I64 | DType::F64 | DType::Bool => return Ok(()),
            crate::float8_dtypes!() => return Ok(()),
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

/// The value of an IEEE half-precision number.
pub fn f16_to_f64(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((bits >> 10) & 0x1f);
    let man = f64::from(bits & 0x3ff);
    sign * match exp {
        0 => man * 2f64.powi(-24),
        31 if man == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + man / 1024.0) * 2f64.powi(exp - 15),
    }
}

impl ScalarArg {
    /// Reads the element of a zero-dimensional host tensor of dtype `code`.
    ///
    /// # Safety
    /// `data` must address one readable element of that dtype.
    pub unsafe fn read_host(data: u64, code: i32) -> Result<ScalarArg> {
        if let Some(component) = DType::complex_component(code) {
            // A complex number where a real one is read: PyTorch's refusal when the
            // imaginary part is not zero (ops that take complex numbers read them apart).
            let size = component.size() as u64;
            if Self::read_host(data + size, component.code())?.to_f64() != 0.0 {
                return Err(Error::runtime(
                    "value cannot be converted to type of a real tensor without overflow",
                ));
            }
        }
        let dtype = DType::from_code(code)?;
        let p = data as *const u8;
        let int = |i: i64| (ScalarKind::Int, i, 0.0);
        let float = |d: f64| (ScalarKind::Float, 0, d);
        let (kind, i, d) = match dtype {
            DType::Bool => (ScalarKind::Bool, i64::from(*p != 0), 0.0),
            DType::U8 => int(i64::from(*p)),
            DType::U16 => int(i64::from((p as *const u16).read_unaligned())),
            DType::U32 => int(i64::from((p as *const u32).read_unaligned())),
            DType::U64 => int((p as *const u64).read_unaligned() as i64),
            crate::float8_dtypes!() => float(f64::from(crate::kernels::float8::to_f32(*p, dtype))),
            DType::I8 => int(i64::from(*(p as *const i8))),
            DType::I16 => int(i64::from((p as *const i16).read_unaligned())),
            DType::I32 => int(i64::from((p as *const i32).read_unaligned())),
            DType::I64 => int((p as *const i64).read_unaligned()),
            DType::F16 => float(f16_to_f64((p as *const u16).read_unaligned())),
            DType::BF16 => float(f64::from(f32::from_bits(
                u32::from((p as *const u16).read_unaligned()) << 16,
            ))),
            DType::F32 => float(f64::from((p as *const f32).read_unaligned())),
            DType::F64 => float((p as *const f64).read_unaligned()),
        };
        Ok(ScalarArg {
            kind: kind as i32,
            dtype: code,
            i,
            d,
        })
    }

    /// The value as a float.
    pub fn to_f64(&self) -> f64 {
        self.as_f64()
    }

    /// Whether the value is a float (rather than an integer or bool).
    pub fn is_float(&self) -> bool {
        self.kind() == ScalarKind::Float
    }
}

impl ScalarArg {
    /// A Python float.
    pub fn float(d: f64) -> ScalarArg {
        ScalarArg {
            kind: ScalarKind::Float as i32,
            dtype: -1,
            i: 0,
            d,
        }
    }

    /// A Python int.
    pub fn int(i: i64) -> ScalarArg {
        ScalarArg {
            kind: ScalarKind::Int as i32,
            dtype: -1,
            i,
            d: 0.0,
        }
    }
}

/// `value` rounded to `dtype`'s precision (float16 and bfloat16 through float32; integers
/// truncated, as `Scalar::to` converts).
pub fn round_to(value: f64, dtype: DType) -> f64 {
    let single = value as f32;
    match dtype {
        DType::F64 => value,
        _ if !dtype.is_float() => value.trunc(),
        DType::F16 => f64::from(half_round(single, 10, 15)),
        DType::BF16 => {
            let bits = single.to_bits();
            let rounded = (bits + 0x7fff + ((bits >> 16) & 1)) & 0xffff_0000;
            f64::from(f32::from_bits(rounded))
        }
        _ => f64::from(single),
    }
}

/// `x` rounded to a binary float with `mantissa` bits and exponent bias `bias` (normal range).
fn half_round(x: f32, mantissa: i32, bias: i32) -> f32 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let exponent = x.abs().log2().floor() as i32;
    let quantum = 2f64.powi(exponent.max(1 - bias) - mantissa);
    let q = f64::from(x) / quantum;
    let r = q.round();
    let r = if (q - q.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
        r - q.signum()
    } else {
        r
    };
    (r * quantum) as f32
}
