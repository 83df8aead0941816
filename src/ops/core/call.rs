//! One op call as the glue hands it over: the schema's arguments in order, accessors that read
//! them with the schema's types, and the op's returns (arguments or tensors it created).

use std::ffi::{c_char, c_void, CStr};

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::ops::core::output::{take_callback_error, Output, ResizeFn};
use crate::ops::core::scalar::{ScalarArg, ScalarKind};
use crate::ops::core::tensor::{Dims, TensorArg, TensorRef};

mod complex;

/// Creates a device tensor and describes it; returns its result number or -1 on error.
/// `order` is null for a contiguous tensor, else `ndim` dimension numbers from the outermost
/// in memory to the innermost.
pub type CreateFn = unsafe extern "C" fn(
    ctx: *mut c_void,
    sizes: *const i64,
    ndim: i64,
    dtype: i32,
    device: i32,
    order: *const i64,
    out: *mut TensorArg,
) -> i32;

/// The glue's callback that hands out a generator argument's Philox (seed, offset) and
/// advances its offset.
pub type PhiloxFn = unsafe extern "C" fn(
    ctx: *mut c_void,
    index: i64,
    device: i32,
    increment: u64,
    seed: *mut u64,
    offset: *mut u64,
) -> i32;

/// The return value that stands for an undefined tensor.
pub const UNDEFINED: i32 = i32::MIN;

/// What an argument holds (mirrors `MojoValueKind` in csrc/mojo.h).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum ValueKind {
    None,
    Tensor,
    Int,
    Double,
    Bool,
    String,
    IntList,
    TensorList,
    Other,
    DoubleList,
    /// A complex number: the real part in `d`, the imaginary part's bits in `i`.
    Complex,
}

/// One argument as the glue describes it.
#[repr(C)]
pub struct ValueArg {
    pub kind: ValueKind,
    pub wrapped: i32,
    pub tensor: TensorArg,
    pub i: i64,
    pub d: f64,
    pub string: *const c_char,
    pub ints: *const i64,
    pub tensors: *const TensorArg,
    pub len: i64,
    pub doubles: *const f64,
}

/// A tensor operand that may be a host scalar (a Python number or a zero-dimensional CPU
/// tensor, which CUDA also accepts next to device tensors).
#[derive(Clone, Debug)]
pub enum Operand {
    Tensor(TensorRef),
    Scalar(ScalarArg),
}

/// An op call in progress.
pub struct Call<'a> {
    args: &'a [ValueArg],
    ctx: *mut c_void,
    resize: ResizeFn,
    create: CreateFn,
    philox: PhiloxFn,
    /// Returns: an argument index, `-1 - n` for the n-th created tensor, or [`UNDEFINED`]
    /// (for an integer return of the schema, its value).
    pub results: smallvec::SmallVec<[i32; 4]>,
}

fn bad_argument(index: usize, expected: &str) -> Error {
    Error::type_error(format!(
        "mojo: argument {index} is not {expected} as the schema says"
    ))
}

impl<'a> Call<'a> {
    /// Wraps the glue's arguments.
    pub fn new(
        args: &'a [ValueArg],
        ctx: *mut c_void,
        resize: ResizeFn,
        create: CreateFn,
        philox: PhiloxFn,
    ) -> Self {
        Call {
            args,
            ctx,
            resize,
            create,
            philox,
            results: smallvec::SmallVec::new(),
        }
    }

    fn arg(&self, index: usize) -> Result<&ValueArg> {
        self.args
            .get(index)
            .ok_or_else(|| Error::runtime(format!("mojo: op has no argument {index}")))
    }

    /// The glue's record of tensor argument `index`.
    pub fn tensor_arg(&self, index: usize) -> Result<&TensorArg> {
        let arg = self.arg(index)?;
        if arg.kind != ValueKind::Tensor {
            return Err(bad_argument(index, "a tensor"));
        }
        Ok(&arg.tensor)
    }

    /// Whether argument `index` is None (or absent).
    pub fn is_none(&self, index: usize) -> bool {
        self.args
            .get(index)
            .is_none_or(|a| a.kind == ValueKind::None)
    }

    /// A device tensor argument.
    pub fn tensor(&self, index: usize) -> Result<TensorRef> {
        match self.operand(index)? {
            Operand::Tensor(t) => Ok(t),
            Operand::Scalar(_) => Err(Error::runtime(
                "Expected all tensors to be on the same device, but found at least two devices, mojo:0 and cpu!",
            )),
        }
    }

    /// An optional device tensor argument.
    pub fn optional_tensor(&self, index: usize) -> Result<Option<TensorRef>> {
        if self.is_none(index) {
            Ok(None)
        } else {
            self.tensor(index).map(Some)
        }
    }

    /// A tensor argument that may be a host scalar; a CPU tensor with dimensions is refused.
    pub fn operand(&self, index: usize) -> Result<Operand> {
        let arg = self.arg(index)?;
        match arg.kind {
            ValueKind::Tensor => {
                if arg.tensor.device >= 0 {
                    // SAFETY: the glue describes a live tensor.
                    return Ok(Operand::Tensor(unsafe {
                        TensorRef::from_arg(&arg.tensor)?
                    }));
                }
                if arg.tensor.ndim != 0 {
                    return Err(Error::runtime(
                        "Expected all tensors to be on the same device, but found at least two devices, mojo:0 and cpu!",
                    ));
                }
                // SAFETY: a zero-dimensional CPU tensor's data pointer addresses one element.
                let mut s = unsafe { ScalarArg::read_host(arg.tensor.data, arg.tensor.dtype)? };
                if arg.wrapped != 0 {
                    s.dtype = -1;
                }
                Ok(Operand::Scalar(s))
            }
            ValueKind::Int | ValueKind::Double | ValueKind::Bool => {
                Ok(Operand::Scalar(self.scalar(index)?))
            }
            _ => Err(bad_argument(index, "a tensor")),
        }
    }

    /// A Scalar (Python number) argument.
    pub fn scalar(&self, index: usize) -> Result<ScalarArg> {
        let arg = self.arg(index)?;
        let (kind, i, d) = match arg.kind {
            ValueKind::Bool => (ScalarKind::Bool, arg.i, 0.0),
            ValueKind::Int => (ScalarKind::Int, arg.i, 0.0),
            ValueKind::Double => (ScalarKind::Float, 0, arg.d),
            ValueKind::Complex => {
                return Err(Error::not_implemented(
                    "mojo: complex scalars are not supported",
                ))
            }
            _ => return Err(bad_argument(index, "a number")),
        };
        Ok(ScalarArg {
            kind: kind as i32,
            dtype: -1,
            i,
            d,
        })
    }

    /// An optional Scalar argument.
    pub fn optional_scalar(&self, index: usize) -> Result<Option<ScalarArg>> {
        if self.is_none(index) {
            Ok(None)
        } else {
            self.scalar(index).map(Some)
        }
    }

    /// An int argument.
    pub fn int(&self, index: usize) -> Result<i64> {
        let arg = self.arg(index)?;
        match arg.kind {
            ValueKind::Int | ValueKind::Bool => Ok(arg.i),
            _ => Err(bad_argument(index, "an int")),
        }
    }

    /// An optional int argument.
    pub fn optional_int(&self, index: usize) -> Result<Option<i64>> {
        if self.is_none(index) {
            Ok(None)
        } else {
            self.int(index).map(Some)
        }
    }

    /// A bool argument.
    pub fn boolean(&self, index: usize) -> Result<bool> {
        Ok(self.int(index)? != 0)
    }

    /// A float argument (ints accepted).
    pub fn double(&self, index: usize) -> Result<f64> {
        let arg = self.arg(index)?;
        match arg.kind {
            ValueKind::Double => Ok(arg.d),
            ValueKind::Int | ValueKind::Bool => Ok(arg.i as f64),
            _ => Err(bad_argument(index, "a float")),
        }
    }

    /// An optional float argument.
    pub fn optional_double(&self, index: usize) -> Result<Option<f64>> {
        if self.is_none(index) {
            Ok(None)
        } else {
            self.double(index).map(Some)
        }
    }

    /// An optional string argument.
    pub fn string(&self, index: usize) -> Result<Option<String>> {
        let arg = self.arg(index)?;
        match arg.kind {
            ValueKind::None => Ok(None),
            // SAFETY: the glue passes a NUL-terminated string owned by the call's stack.
            ValueKind::String => Ok(Some(
                unsafe { CStr::from_ptr(arg.string) }
                    .to_string_lossy()
                    .into_owned(),
            )),
            _ => Err(bad_argument(index, "a string")),
        }
    }

    /// An optional dtype argument (`ScalarType?`).
    pub fn dtype(&self, index: usize) -> Result<Option<DType>> {
        self.optional_int(index)?
            .map(|code| DType::from_code(code as i32))
            .transpose()
    }

    /// An int list argument (a single int stands for a one-element list).
    pub fn ints(&self, index: usize) -> Result<Vec<i64>> {
        let arg = self.arg(index)?;
        match arg.kind {
            ValueKind::IntList if arg.len == 0 => Ok(Vec::new()),
            // SAFETY: the glue keeps `len` ints alive for the call.
            ValueKind::IntList => {
                Ok(unsafe { std::slice::from_raw_parts(arg.ints, arg.len as usize) }.to_vec())
            }
            ValueKind::Int => Ok(vec![arg.i]),
            ValueKind::TensorList if arg.len == 0 => Ok(Vec::new()),
            _ => Err(bad_argument(index, "an int list")),
        }
    }

    /// A float list argument (`float[]`, or `Scalar[]` as floats).
    pub fn doubles(&self, index: usize) -> Result<Vec<f64>> {
        let arg = self.arg(index)?;
        match arg.kind {
            // SAFETY: the glue keeps `len` doubles alive for the call.
            ValueKind::DoubleList if arg.len > 0 => {
                Ok(unsafe { std::slice::from_raw_parts(arg.doubles, arg.len as usize) }.to_vec())
            }
            ValueKind::DoubleList => Ok(Vec::new()),
            _ => Ok(self.ints(index)?.into_iter().map(|i| i as f64).collect()),
        }
    }

    /// An optional int list argument.
    pub fn optional_ints(&self, index: usize) -> Result<Option<Vec<i64>>> {
        if self.is_none(index) {
            Ok(None)
        } else {
            self.ints(index).map(Some)
        }
    }

    /// A list of optional tensors (`Tensor?[]`; `Tensor[]` has no None entries).
    pub fn optional_tensors(&self, index: usize) -> Result<Vec<Option<TensorRef>>> {
        self.optional_tensors_anywhere(index)?
            .into_iter()
            .map(|t| match t {
                None => Ok(None),
                Some(Located::Device(t)) => Ok(Some(t)),
                Some(Located::Host(_)) => Err(Error::runtime(
                    "Expected all tensors to be on the same device, but found at least two devices, mojo:0 and cpu!",
                )),
            })
            .collect()
    }

    /// A tensor argument that may live on the host.
    pub fn located(&self, index: usize) -> Result<Located> {
        let arg = self.arg(index)?;
        if arg.kind != ValueKind::Tensor {
            return Err(bad_argument(index, "a tensor"));
        }
        locate(&arg.tensor)
    }

    /// A `Scalar[]` argument: integers stay integers, floats are floats.
    pub fn scalar_list(&self, index: usize) -> Result<Vec<ScalarArg>> {
        let arg = self.arg(index)?;
        if arg.kind == ValueKind::DoubleList {
            return Ok(self
                .doubles(index)?
                .into_iter()
                .map(ScalarArg::float)
                .collect());
        }
        Ok(self.ints(index)?.into_iter().map(ScalarArg::int).collect())
    }

    /// The glue's records of a tensor list argument.
    fn tensor_records(&self, index: usize) -> Result<&[TensorArg]> {
        let arg = self.arg(index)?;
        if arg.kind != ValueKind::TensorList {
            return Err(bad_argument(index, "a tensor list"));
        }
        if arg.len == 0 {
            return Ok(&[]);
        }
        // SAFETY: the glue keeps `len` tensor records alive for the call.
        Ok(unsafe { std::slice::from_raw_parts(arg.tensors, arg.len as usize) })
    }

    /// A list of optional tensors that may live on the host (index lists: CUDA accepts CPU
    /// indices for device tensors); host entries carry their host address.
    pub fn optional_tensors_anywhere(&self, index: usize) -> Result<Vec<Option<Located>>> {
        self.tensor_records(index)?
            .iter()
            .map(|t| {
                if t.ndim < 0 {
                    Ok(None)
                } else {
                    locate(t).map(Some)
                }
            })
            .collect()
    }

    /// A list of device tensors that may be complex, each as [`TensorRef::from_arg_or_pairs`]
    /// reads it.
    pub fn tensors_or_pairs(&self, index: usize) -> Result<Vec<(TensorRef, bool)>> {
        self.tensor_records(index)?
            .iter()
            .map(|t| {
                if t.ndim < 0 || t.device < 0 {
                    return Err(Error::runtime(
                        "Expected all tensors to be on the same device, but found at least two devices, mojo:0 and cpu!",
                    ));
                }
                // SAFETY: the glue describes live tensors.
                unsafe { TensorRef::from_arg_or_pairs(t) }
            })
            .collect()
    }

    /// An `out=` tensor that may be complex (then read as its pair view: `true`).
    pub fn out_or_pairs(&self, index: usize) -> Result<(Output, bool)> {
        if self.complex_component_of(index).is_none() {
            return Ok((self.out(index)?, false));
        }
        let arg = self.arg(index)?;
        // SAFETY: the glue describes a live tensor.
        let (view, _) = unsafe { TensorRef::from_arg_or_pairs(&arg.tensor)? };
        let out = Output::new_pairs(view, self.resize, self.ctx, index as i64);
        Ok((out, true))
    }

    /// A tensor list argument.
    pub fn tensors(&self, index: usize) -> Result<Vec<TensorRef>> {
        self.optional_tensors(index)?
            .into_iter()
            .map(|t| t.ok_or_else(|| bad_argument(index, "a list of tensors")))
            .collect()
    }

    /// An `out=` tensor argument that the op may resize; like PyTorch, refuses one whose
    /// elements share memory (a broadcast view; an empty tensor has no elements to share).
    pub fn out(&self, index: usize) -> Result<Output> {
        let tensor = self.tensor(index)?;
        let shared = tensor
            .sizes
            .iter()
            .zip(&tensor.strides)
            .any(|(&size, &stride)| size > 1 && stride == 0);
        if shared && tensor.numel() > 0 {
            return Err(Error::runtime(
                "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.",
            ));
        }
        Ok(Output::new(tensor, self.resize, self.ctx, index as i64))
    }

    /// Returns argument `index` (an `out=` tensor or `self` of an in-place op).
    pub fn return_arg(&mut self, index: usize) {
        self.results.push(index as i32);
    }

    /// Returns an undefined tensor (an optional output the caller did not ask for).
    pub fn return_undefined(&mut self) {
        self.results.push(UNDEFINED);
    }

    /// Returns an integer (an `int` or `SymInt` return of the schema: the glue reads the
    /// value itself from the result slot).
    pub fn return_int(&mut self, value: i64) -> Result<()> {
        let value = i32::try_from(value)
            .ok()
            .filter(|&v| v >= 0)
            .ok_or_else(|| Error::runtime(format!("mojo: integer result {value} out of range")))?;
        self.results.push(value);
        Ok(())
    }

    /// The Philox (seed, offset) for a launch on `device` that consumes `increment` offsets,
    /// from the generator argument `index` (None: the device's default generator).
    pub fn philox(&self, index: usize, device: usize, increment: u64) -> Result<(u64, u64)> {
        let (mut seed, mut offset) = (0u64, 0u64);
        // SAFETY: the glue promises `philox` accepts `ctx`; the outputs are local.
        let status = unsafe {
            (self.philox)(
                self.ctx,
                index as i64,
                device as i32,
                increment,
                &mut seed,
                &mut offset,
            )
        };
        if status != 0 {
            return Err(take_callback_error()
                .unwrap_or_else(|| Error::runtime("mojo: reading the generator failed")));
        }
        Ok((seed, offset))
    }

    /// Creates a new device tensor and returns it from the op.
    pub fn create(&mut self, sizes: &[i64], dtype: DType, device: usize) -> Result<TensorRef> {
        self.create_in(sizes, dtype, device, false)
    }

    /// [`Call::create`] in the channels-last memory format when `channels_last` (and the
    /// tensor has 4 or 5 dimensions).
    pub fn create_in(
        &mut self,
        sizes: &[i64],
        dtype: DType,
        device: usize,
        channels_last: bool,
    ) -> Result<TensorRef> {
        match sizes.len() {
            4 if channels_last => self.create_ordered(sizes, dtype, device, Some(&[0, 2, 3, 1])),
            5 if channels_last => self.create_ordered(sizes, dtype, device, Some(&[0, 2, 3, 4, 1])),
            _ => self.create_ordered(sizes, dtype, device, None),
        }
    }

    /// [`Call::create`] with its dimensions laid out in memory in `order` (outermost first),
    /// as `like`'s are (ties keep the dimensions' order).
    pub fn create_like(
        &mut self,
        sizes: &[i64],
        dtype: DType,
        device: usize,
        like: &TensorRef,
    ) -> Result<TensorRef> {
        let mut order: Vec<i64> = (0..sizes.len() as i64).collect();
        order.sort_by_key(|&d| std::cmp::Reverse(like.strides[d as usize]));
        self.create_ordered(sizes, dtype, device, Some(&order))
    }

    /// [`Call::create`] laid out in memory in `order` (outermost first; None: row-major).
    pub fn create_in_order(
        &mut self,
        sizes: &[i64],
        dtype: DType,
        device: usize,
        order: Option<Dims>,
    ) -> Result<TensorRef> {
        self.create_ordered(sizes, dtype, device, order.as_deref())
    }

    fn create_ordered(
        &mut self,
        sizes: &[i64],
        dtype: DType,
        device: usize,
        order: Option<&[i64]>,
    ) -> Result<TensorRef> {
        let code = crate::ops::index::element_moves::created_as(dtype);
        let arg = self.create_record(sizes, code, device, order)?;
        // SAFETY: the glue described the tensor it keeps alive for the call.
        unsafe { TensorRef::from_arg(&arg) }
    }

    /// Creates a result tensor of dtype `code` through the glue and returns its record.
    fn create_record(
        &mut self,
        sizes: &[i64],
        code: i32,
        device: usize,
        order: Option<&[i64]>,
    ) -> Result<TensorArg> {
        if let Some((arg, n)) = crate::ops::index::element_moves::created_before() {
            self.results.push(-1 - n);
            return Ok(arg);
        }
        let mut arg = TensorArg::empty();
        // SAFETY: the glue promises `create` accepts `ctx`; `arg` outlives the call.
        let n = unsafe {
            (self.create)(
                self.ctx,
                sizes.as_ptr(),
                sizes.len() as i64,
                code,
                device as i32,
                order.map_or(std::ptr::null(), |o| o.as_ptr()),
                &mut arg,
            )
        };
        if n < 0 {
            return Err(take_callback_error()
                .unwrap_or_else(|| Error::runtime("mojo: creating a tensor failed")));
        }
        self.results.push(-1 - n);
        crate::ops::index::element_moves::note_created(arg, n);
        Ok(arg)
    }
}

/// Reads a glue tensor record that may describe a host tensor.
fn locate(record: &TensorArg) -> Result<Located> {
    let host = record.device < 0;
    let mut record = *record;
    record.device = record.device.max(0);
    // SAFETY: the glue describes a live tensor.
    let tensor = unsafe { TensorRef::from_arg(&record) }?;
    Ok(if host {
        Located::Host(tensor)
    } else {
        Located::Device(tensor)
    })
}

/// A tensor on the device, or on the host (its address then a host pointer).
pub enum Located {
    Device(TensorRef),
    Host(TensorRef),
}

/// Where an op's result goes: an `out=` argument (resized to fit) or a tensor it creates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    Arg(usize),
    New,
}

impl Call<'_> {
    /// The destination tensor of `sizes` for a result of dtype `result`: an `out=` argument
    /// must be able to hold it (PyTorch's casting rule), a new tensor has that dtype.
    pub fn result(
        &mut self,
        dest: Dest,
        sizes: &[i64],
        result: DType,
        device: usize,
    ) -> Result<TensorRef> {
        match dest {
            Dest::New => self.create(sizes, result, device),
            Dest::Arg(index) => {
                let mut out = self.out(index)?;
                if !crate::ops::core::promote::can_cast(result, out.tensor.dtype) {
                    return Err(Error::runtime(format!(
                        "result type {} can't be cast to the desired output type {}",
                        result.name(),
                        out.tensor.dtype.name()
                    )));
                }
                let t = out.resize_to(sizes)?.clone();
                self.return_arg(index);
                Ok(t)
            }
        }
    }
}
