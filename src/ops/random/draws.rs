//! Random ops with the numbers CUDA draws for the same seed and offset: uniform_, normal_,
//! random_ (randint), bernoulli_ and native_dropout, on cuRAND's Philox4x32-10 with PyTorch's
//! CUDA grid mapping (an emulated H100/H200 grid off NVIDIA).

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Distribution, Kernel, Mapping, RandomKernel};
use crate::ops::core::call::Call;
use crate::ops::core::launch::{common_device, stride_word, submit, word};
use crate::ops::core::pointwise::{not_implemented_for, pointwise};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::{round_to, ScalarArg};
use crate::ops::core::tensor::TensorRef;

/// Threads per block of CUDA's random kernels.
const BLOCK: u64 = 256;

/// The multiprocessor count of CUDA's grid, with 2048 threads each: the device's own on NVIDIA,
/// else `TORCH_MOJO_BACKEND_RNG_SMS` or 132 (an H100/H200 SXM) emulated.
fn multiprocessors() -> u64 {
    crate::config::config()
        .rng_multiprocessors
        .or_else(|| {
            let backend = crate::runtime::backend().ok()?;
            backend
                .multiprocessors(crate::runtime::current_device())
                .map(u64::from)
        })
        .unwrap_or(132)
}

/// The number of threads (Philox subsequences) CUDA launches for `n` elements.
fn grid_threads(n: u64) -> u64 {
    let blocks = n
        .div_ceil(BLOCK)
        .min(multiprocessors() * 2048 / BLOCK)
        .max(1);
    blocks * BLOCK
}

/// The generator offset a launch over `n` elements with `unroll` draws per block consumes.
pub(crate) fn increment(n: u64, unroll: u64) -> u64 {
    4 * n.div_ceil(grid_threads(n) * unroll)
}

/// Launches `kernel` over `tensors` (walked in the output's memory order), drawing from the
/// call's generator argument `generator`.
fn launch(
    call: &Call,
    generator: usize,
    kernel: RandomKernel,
    tensors: &[&TensorRef],
    scalar_words: Vec<u32>,
    unroll: u64,
) -> Result<()> {
    let out =
        tensors[tensors.len() - 1 - usize::from(kernel.distribution == Distribution::Dropout)];
    let n = out.numel();
    if n == 0 {
        return Ok(());
    }
    let device = common_device(tensors)?;
    let inputs = call.philox(generator, device, increment(n, unroll))?;
    launch_with(device, inputs, kernel, tensors, scalar_words, out)
}

/// Launches `kernel` with the Philox `(seed, offset)` over `tensors`, walking `out` in memory
/// order.
pub(crate) fn launch_with(
    device: usize,
    (seed, offset): (u64, u64),
    kernel: RandomKernel,
    tensors: &[&TensorRef],
    scalar_words: Vec<u32>,
    out: &TensorRef,
) -> Result<()> {
    let n = out.numel();
    // The output's dimensions in memory order (largest stride first), the order CUDA's
    // TensorIterator walks a single dense output in.
    let mut dims: Vec<usize> = (0..out.sizes.len()).collect();
    dims.sort_by_key(|&d| std::cmp::Reverse(out.strides[d].abs()));
    let block = offset / 4;
    let mut words = vec![
        word(n as i64, "element count")?,
        word(grid_threads(n) as i64, "thread count")?,
        seed as u32,
        (seed >> 32) as u32,
        block as u32,
        (block >> 32) as u32,
        dims.len() as u32,
    ];
    for &d in &dims {
        words.push(word(out.sizes[d], "size")?);
    }
    let mut offset_words = Vec::new();
    for t in tensors {
        offset_words.push(words.len());
        words.push(0);
        for &d in &dims {
            words.push(stride_word(t.strides[d])?);
        }
    }
    words.extend(scalar_words);
    let addresses: Vec<u64> = tensors.iter().map(|t| t.address).collect();
    submit(
        device,
        &Kernel::Random(kernel),
        &addresses,
        words,
        &offset_words,
        n,
    )
}

fn float_only(op: &str, t: &TensorRef) -> Result<()> {
    if t.dtype.is_float() {
        Ok(())
    } else {
        Err(not_implemented_for(op, t.dtype))
    }
}

/// The accumulation dtype of draws for `dtype`, and its unroll.
pub(crate) fn accumulation(dtype: DType) -> (DType, u64) {
    if dtype == DType::F64 {
        (DType::F64, 2)
    } else {
        (DType::F32, 4)
    }
}

/// The grid-stride kernel drawing `distribution` into `dtype`, with its accumulation dtype
/// and unroll.
pub(crate) fn grid_kernel(dtype: DType, distribution: Distribution) -> (RandomKernel, DType, u64) {
    let (acc, unroll) = accumulation(dtype);
    let kernel = RandomKernel {
        dtype,
        distribution,
        mapping: Mapping::Grid {
            unroll: unroll as u32,
        },
        double: acc == DType::F64,
    };
    (kernel, acc, unroll)
}

/// `uniform_(self, from, to, generator)`.
/// Argument 0 of uniform_ and normal_: a complex tensor as its pair view (both parts drawn
/// like a real tensor of twice the elements, as CPU and CUDA draw them), and whether it is.
fn drawn(call: &Call) -> Result<(TensorRef, bool)> {
    // SAFETY: the glue describes a live tensor.
    unsafe { TensorRef::from_arg_or_pairs(call.tensor_arg(0)?) }
}

fn uniform(call: &mut Call) -> Result<()> {
    let (a, _) = drawn(call)?;
    float_only("check_uniform_bounds", &a)?;
    let (from, to) = (call.double(1)?, call.double(2)?);
    if from > to {
        return Err(Error::runtime(format!(
            "uniform_ expects to return a [from, to) range, but found from={from} > to={to}"
        )));
    }
    let (kernel, acc, unroll) = grid_kernel(a.dtype, Distribution::Uniform);
    // PyTorch rounds the bounds to the tensor's dtype and takes their difference there.
    let (from_d, to_d) = (round_to(from, a.dtype), round_to(to, a.dtype));
    let range = round_to(to_d - from_d, a.dtype);
    let mut words = ScalarArg::float(from_d).words(acc);
    words.extend(ScalarArg::float(range).words(acc));
    words.extend(ScalarArg::float(to_d).words(a.dtype));
    call.return_arg(0);
    launch(call, 3, kernel, &[&a], words, unroll)
}

/// Fills argument 0 with `distribution` drawn with `parameters` (in the accumulation dtype),
/// from the generator argument `generator`, and returns it.
fn fill_with(
    call: &mut Call,
    op: &str,
    distribution: Distribution,
    parameters: &[f64],
    generator: usize,
) -> Result<()> {
    let (a, complex) = match distribution {
        Distribution::Normal => drawn(call)?,
        _ => (call.tensor(0)?, false),
    };
    // Each part of a complex normal has half the variance.
    let parameters: Vec<f64> = match parameters {
        [mean, std] if complex => vec![*mean, std / std::f64::consts::SQRT_2],
        _ => parameters.to_vec(),
    };
    // CUDA draws geometric integers too: in float, converted (`DiscreteDistributionType`).
    if distribution != Distribution::Geometric || a.dtype == DType::Bool {
        float_only(op, &a)?;
    }
    let (kernel, acc, unroll) = grid_kernel(a.dtype, distribution);
    let words = parameters
        .iter()
        .flat_map(|&v| ScalarArg::float(v).words(acc))
        .collect();
    call.return_arg(0);
    launch(call, generator, kernel, &[&a], words, unroll)
}

/// `normal_(self, mean, std, generator)` and `log_normal_` (its exp).
fn normal(call: &mut Call, distribution: Distribution) -> Result<()> {
    let (mean, std) = (call.double(1)?, call.double(2)?);
    if std < 0.0 || (distribution == Distribution::LogNormal && std == 0.0) {
        let bound = if distribution == Distribution::LogNormal {
            "std > 0.0"
        } else {
            "std >= 0.0"
        };
        return Err(Error::runtime(format!(
            "{} expects {bound}, but found std {std}",
            if distribution == Distribution::LogNormal {
                "log_normal_"
            } else {
                "normal"
            }
        )));
    }
    fill_with(call, "normal_kernel_cuda", distribution, &[mean, std], 3)
}

/// `exponential_(self, lambd, generator)`.
fn exponential(call: &mut Call) -> Result<()> {
    let lambda = call.double(1)?;
    if lambda <= 0.0 {
        return Err(Error::runtime(format!(
            "exponential_ expects lambda > 0.0, but found lambda={lambda}"
        )));
    }
    fill_with(
        call,
        "exponential_cuda",
        Distribution::Exponential,
        &[lambda],
        2,
    )
}

/// `geometric_(self, p, generator)`.
fn geometric(call: &mut Call) -> Result<()> {
    let p = call.double(1)?;
    if !(p > 0.0 && p < 1.0) {
        return Err(Error::runtime(format!(
            "geometric_ expects p to be in (0, 1), but got p={p}"
        )));
    }
    fill_with(call, "geometric_cuda", Distribution::Geometric, &[p], 2)
}

/// `cauchy_(self, median, sigma, generator)`.
fn cauchy(call: &mut Call) -> Result<()> {
    let (median, sigma) = (call.double(1)?, call.double(2)?);
    if sigma <= 0.0 {
        return Err(Error::runtime(format!(
            "cauchy_ expects sigma > 0.0, but found sigma={sigma}"
        )));
    }
    fill_with(
        call,
        "cauchy_cuda",
        Distribution::Cauchy,
        &[median, sigma],
        3,
    )
}

/// `random_.from(self, from, to, generator)` and `random_.to(self, to, generator)`; without
/// `to`, the dtype's whole range as `random_()` draws it.
fn random_range(call: &mut Call, from: i64, to: Option<i64>, generator: usize) -> Result<()> {
    let a = call.tensor(0)?;
    let (range, wide) = match to {
        Some(to) => {
            if from >= to {
                return Err(Error::runtime(format!(
                    "random_ expects 'from' to be less than 'to', but got from={from} >= to={to}"
                )));
            }
            let range = to.wrapping_sub(from) as u64;
            (range, range >= 1 << 28)
        }
        None => full_range(a.dtype),
    };
    random_with(call, a, from, range, wide, generator)
}

/// Fills `a` with `base + draw % range` (the whole draw when `range` is 0), drawing 64 bits per
/// element when `wide`, from the call's generator argument `generator`.
fn random_with(
    call: &mut Call,
    a: TensorRef,
    base: i64,
    range: u64,
    wide: bool,
    generator: usize,
) -> Result<()> {
    let unroll = if wide { 2 } else { 4 };
    let mut words = ScalarArg::int(base).words(DType::I64);
    words.extend(ScalarArg::int(range as i64).words(DType::I64));
    call.return_arg(0);
    let kernel = RandomKernel {
        dtype: a.dtype,
        distribution: Distribution::Integer { wide },
        mapping: Mapping::Grid { unroll },
        double: false,
    };
    launch(call, generator, kernel, &[&a], words, u64::from(unroll))
}

/// `random_(from, None)`: `[from, the dtype's largest integer]` (for floats, the largest
/// integer before which every integer is exact), or all 64-bit values for `from` = int64 min.
fn random_from(call: &mut Call, from: i64) -> Result<()> {
    let a = call.tensor(0)?;
    // random_()'s modulus is the largest such integer plus one.
    let largest = (full_range(a.dtype).0 - 1) as i64;
    if from == i64::MIN {
        // All 2^64 values: the 64-bit draw taken whole (range 0), as CUDA's full-range kernel.
        if !matches!(a.dtype, DType::I64 | DType::F64 | DType::F32 | DType::BF16) {
            return Err(Error::runtime(
                "random_full_64_bits_range_kernel_cuda handles only int64, double, float and bfloat16",
            ));
        }
        return random_with(call, a, 0, 0, true, 3);
    }
    if a.dtype.is_float() && from >= largest {
        return Err(Error::runtime(format!(
            "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to dtype, but got from={from} > to_inc={largest}"
        )));
    }
    let lowest = match a.dtype {
        DType::Bool | DType::U8 => 0,
        DType::I8 => i8::MIN.into(),
        DType::I16 => i16::MIN.into(),
        DType::I32 => i32::MIN.into(),
        _ => i64::MIN,
    };
    if from < lowest || from > largest {
        return Err(Error::runtime(format!(
            "from is out of bounds for {}",
            a.dtype.torch_name()
        )));
    }
    let range = (largest as u64).wrapping_sub(from as u64).wrapping_add(1);
    random_with(call, a, from, range, range >= 1 << 28, 3)
}

/// `random_()`'s modulus for `dtype` (its largest integer plus one, or for floats every
/// integer they represent exactly, plus one) and whether CUDA draws 64 bits for it.
fn full_range(dtype: DType) -> (u64, bool) {
    match dtype {
        DType::Bool => (2, false),
        DType::U8 => (1 << 8, false),
        DType::I8 => (1 << 7, false),
        DType::I16 => (1 << 15, false),
        DType::I32 => (1 << 31, false),
        DType::I64 => (1 << 63, true),
        DType::U16 => (1 << 16, false),
        DType::U32 => (1 << 32, true),
        // The range of int64, as CUDA's generator draws for 64-bit unsigned.
        DType::U64 => (1 << 63, true),
        // Every integer up to 2^(mantissa + 1) and one more, as for the other floats.
        crate::float8_dtypes!() => {
            let m = dtype.float8().map_or(0, |f| f.mantissa_bits);
            ((1 << (m + 1)) + 1, false)
        }
        DType::F16 => ((1 << 11) + 1, false),
        DType::BF16 => ((1 << 8) + 1, false),
        DType::F32 => ((1 << 24) + 1, false),
        DType::F64 => ((1 << 53) + 1, true),
    }
}

/// `bernoulli_.float(self, p, generator)`.
fn bernoulli(call: &mut Call) -> Result<()> {
    let p = call.double(1)?;
    if !(0.0..=1.0).contains(&p) {
        return Err(Error::runtime(format!(
            "bernoulli_ expects p to be in [0, 1], but got p={p}"
        )));
    }
    let a = call.tensor(0)?;
    let (acc, unroll) = accumulation(a.dtype);
    call.return_arg(0);
    let kernel = RandomKernel {
        dtype: a.dtype,
        distribution: Distribution::Bernoulli,
        mapping: Mapping::Grid {
            unroll: unroll as u32,
        },
        double: acc == DType::F64,
    };
    launch(
        call,
        2,
        kernel,
        &[&a],
        ScalarArg::float(p).words(acc),
        unroll,
    )
}

/// `bernoulli_.Tensor(self, p, generator)`: `u <= p` per element, `p` broadcast to `self`;
/// CUDA's launch takes one Philox block per four elements and advances the offset by 12.
fn bernoulli_tensor(call: &mut Call) -> Result<()> {
    let a = call.tensor(0)?;
    let p = call.tensor(1)?;
    if !p.dtype.is_float() {
        return Err(not_implemented_for("bernoulli_tensor_cuda_p_", p.dtype));
    }
    let p = TensorRef {
        strides: crate::ops::core::layout::broadcast_strides(&p, &a.sizes).into(),
        sizes: a.sizes.clone(),
        ..p
    };
    call.return_arg(0);
    let n = a.numel();
    if n == 0 {
        return Ok(());
    }
    let device = common_device(&[&a, &p])?;
    let (seed, offset) = call.philox(2, device, 10)?;
    let kernel = RandomKernel {
        dtype: a.dtype,
        distribution: Distribution::BernoulliTensor { p: p.dtype },
        mapping: Mapping::Quad,
        double: false,
    };
    launch_with(device, (seed, offset), kernel, &[&p, &a], Vec::new(), &a)
}

/// `native_dropout(input, p, train)`: `(input * mask / (1 - p), mask)` with CUDA's mask.
fn native_dropout(call: &mut Call) -> Result<()> {
    let x = call.tensor(0)?;
    let p = call.double(1)?;
    let train = call.optional_int(2)?.is_none_or(|t| t != 0);
    float_only("fused_dropout", &x)?;
    let out = call.create(&x.sizes, x.dtype, x.device)?;
    let mask = call.create(&x.sizes, DType::Bool, x.device)?;
    if !train || p == 1.0 {
        let keep = if train { 0.0 } else { 1.0 };
        crate::ops::shape::copy::fill(&mask, &ScalarArg::float(keep))?;
        return if train {
            crate::ops::shape::copy::fill(&out, &ScalarArg::float(0.0))
        } else {
            crate::ops::shape::copy::copy(&out, &x)
        };
    }
    let (acc, _) = accumulation(x.dtype);
    // As CUDA: keep = 1 - p rounded to the accumulation type, scale = 1 / keep.
    let keep = if acc == DType::F64 {
        1.0 - p
    } else {
        f64::from((1.0 - p) as f32)
    };
    let scale = 1.0 / keep;
    let mut words = ScalarArg::float(keep).words(acc);
    words.extend(ScalarArg::float(scale).words(acc));
    let n = x.numel();
    let width = if x.is_contiguous() {
        let mut width = 16 / x.dtype.size() as u64;
        while width > 1 && (x.address % (width * x.dtype.size() as u64) != 0 || n % width != 0) {
            width /= 2;
        }
        width
    } else {
        1
    };
    let mapping = if width == 1 {
        Mapping::Grid { unroll: 4 }
    } else {
        Mapping::Vector {
            width: width as u32,
        }
    };
    let kernel = RandomKernel {
        dtype: x.dtype,
        distribution: Distribution::Dropout,
        mapping,
        double: false,
    };
    launch(call, 0, kernel, &[&x, &out, &mask], words, 4)
}

/// `native_dropout_backward(grad_output, mask, scale)`.
fn native_dropout_backward(call: &mut Call) -> Result<()> {
    let (g, mask) = (call.operand(0)?, call.operand(1)?);
    let scale = crate::ops::core::call::Operand::Scalar(ScalarArg::float(call.double(2)?));
    // An integer or bool gradient promotes with the float scale, as on the CPU.
    let dtype = crate::ops::core::pointwise::common_dtype(&[&g, &scale])?;
    pointwise(
        call,
        &[&g, &mask, &scale],
        crate::ops::core::call::Dest::New,
        dtype,
        dtype,
        |e| e[0].clone() * e[1].clone() * e[2].clone(),
    )
}

pub const OPS: &[(&str, OpFn)] = &[
    ("uniform_", uniform),
    ("normal_", |c| normal(c, Distribution::Normal)),
    ("log_normal_", |c| normal(c, Distribution::LogNormal)),
    ("exponential_", exponential),
    ("geometric_", geometric),
    ("cauchy_", cauchy),
    ("random_.from", |c| {
        let from = c.int(1)?;
        match c.optional_int(2)? {
            Some(to) => random_range(c, from, Some(to), 3),
            None => random_from(c, from),
        }
    }),
    ("random_", |c| random_range(c, 0, None, 1)),
    ("random_.to", |c| {
        let to = c.int(1)?;
        random_range(c, 0, Some(to), 2)
    }),
    ("bernoulli_.float", bernoulli),
    ("bernoulli_.Tensor", bernoulli_tensor),
    ("native_dropout", native_dropout),
    ("native_dropout_backward", native_dropout_backward),
];
