//! Sampling ops that CUDA composes from random draws and sorts, composed the same way:
//! - `multinomial` without replacement (and for one sample with it): `q ~ Exponential(1)`, then
//!   the largest entries of `p / q` per row (argmax for one sample, a descending sort for
//!   several); several samples with replacement invert the row's cumulative distribution;
//! - `randperm`: random keys, the stable ascending order of their low `bits` bits, then a
//!   Fisher-Yates shuffle of each run of equal keys;
//! - `poisson`: one kernel; its counts follow the rates but cannot be cuRAND's (whose Poisson
//!   algorithm is not public).
//!
//! With the same generator state they draw what CUDA draws (except multinomial's several
//! samples with replacement, whose uniforms differ from CUDA's per-thread draws).

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{
    BinaryOp, Distribution, Expr, MapKernel, Mapping, RandomKernel, ReduceKernel, ReduceOp,
    ScanKernel,
};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::{reduce_to_host, run_map, run_reduce, run_scan};
use crate::ops::core::pointwise::not_implemented_for;
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::random::draws::{grid_kernel, increment, launch_with};
use crate::ops::reduce::sort_launch::run_sort;
use crate::ops::shape::copy::copy;
use crate::ops::shape::rearrange::narrow;
use smallvec::smallvec;

/// PyTorch's checks on the distribution, which read the device (as on CUDA).
fn check_probabilities(p: &TensorRef) -> Result<()> {
    let (low, high) = (
        reduce_to_host(p, ReduceOp::Min)?,
        reduce_to_host(p, ReduceOp::Max)?,
    );
    if !(low >= 0.0 && high < f64::INFINITY) {
        return Err(Error::runtime(
            "probability tensor contains either `inf`, `nan` or element < 0",
        ));
    }
    let rows: Vec<i64> = p.sizes[..p.sizes.len() - 1].to_vec();
    let sums = Scratch::contiguous(p.device, &rows, DType::F32)?;
    let mut reduced = vec![false; p.sizes.len()];
    *reduced.last_mut().expect("rank 1 or 2") = true;
    let kernel = ReduceKernel {
        per_output: None,
        indexed: false,
        elementwise: None,
        vector: false,
        input: p.dtype,
        scalars: vec![],
        pre: Expr::input(0, p.dtype).cast(DType::F32),
        op: ReduceOp::Sum,
        acc: DType::F32,
        outputs: vec![(DType::F32, Expr::input(0, DType::F32))],
        columns: false,
    };
    run_reduce(kernel, p, &[&sums.tensor], &reduced, &[])?;
    if reduce_to_host(&sums.tensor, ReduceOp::Min)? <= 0.0 {
        return Err(Error::runtime(
            "invalid multinomial distribution (sum of probabilities <= 0)",
        ));
    }
    Ok(())
}

/// `multinomial(self, num_samples, replacement, generator)` into `dest`.
fn multinomial(call: &mut Call, dest: Dest) -> Result<()> {
    let p = call.tensor(0)?;
    let samples = call.int(1)?;
    let replacement = call.boolean(2)?;
    if !p.dtype.is_float() {
        return Err(Error::runtime(format!(
            "multinomial only supports floating-point dtypes for input, got: {}",
            p.dtype.torch_name()
        )));
    }
    if samples <= 0 {
        return Err(Error::runtime("cannot sample n_sample <= 0 samples"));
    }
    if !(1..=2).contains(&p.sizes.len()) {
        return Err(Error::runtime("prob_dist must be 1 or 2 dim"));
    }
    let categories = *p.sizes.last().expect("rank 1 or 2");
    if !replacement && samples > categories {
        return Err(Error::runtime(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement",
        ));
    }
    if categories > 1 << 24 {
        return Err(Error::runtime("number of categories cannot exceed 2^24"));
    }
    if let Dest::Arg(at) = dest {
        let given = call.tensor(at)?.dtype;
        if given != DType::I64 {
            return Err(Error::runtime(format!(
                "multinomial expects Long tensor out, got: {}",
                given.torch_name()
            )));
        }
    }
    let mut sizes = p.sizes.clone();
    *sizes.last_mut().expect("rank 1 or 2") = samples;
    let out = call.result(dest, &sizes, DType::I64, p.device)?;
    if p.numel() == 0 {
        return Ok(());
    }
    check_probabilities(&p)?;
    if replacement && samples > 1 {
        return with_replacement(call, &p, &out);
    }

    // q = exponential(1), drawn in the memory order of a contiguous tensor like p.
    let q = Scratch::contiguous(p.device, &p.sizes, p.dtype)?;
    let (kernel, acc, unroll) = grid_kernel(p.dtype, Distribution::Exponential);
    let philox = call.philox(3, p.device, increment(p.numel(), unroll))?;
    let lambda = ScalarArg::float(1.0).words(acc);
    launch_with(p.device, philox, kernel, &[&q.tensor], lambda, &q.tensor)?;
    // q = p / q, in p's dtype.
    let ratio = MapKernel {
        inputs: smallvec![p.dtype, p.dtype],
        scalars: smallvec![],
        outputs: smallvec![(
            p.dtype,
            Expr::input(0, p.dtype).binary(BinaryOp::Div, Expr::input(1, p.dtype)),
        )],
    };
    run_map(ratio, &[&p, &q.tensor, &q.tensor], &p.sizes, &[])?;

    let last = p.sizes.len() - 1;
    if samples == 1 {
        let mut reduced = vec![false; p.sizes.len()];
        reduced[last] = true;
        let kernel = ReduceKernel {
            per_output: None,
            indexed: false,
            elementwise: None,
            vector: false,
            input: p.dtype,
            scalars: vec![],
            pre: Expr::input(0, p.dtype),
            op: ReduceOp::ArgMax,
            acc: p.dtype,
            outputs: vec![(DType::I64, Expr::input(1, DType::I64))],
            columns: false,
        };
        let rows = TensorRef {
            sizes: p.sizes[..last].to_vec().into(),
            strides: out.strides[..last].to_vec().into(),
            ..out.clone()
        };
        return run_reduce(kernel, &q.tensor, &[&rows], &reduced, &[]);
    }
    let sorted = Scratch::contiguous(p.device, &p.sizes, p.dtype)?;
    let order = Scratch::contiguous(p.device, &p.sizes, DType::I64)?;
    run_sort(true, &q.tensor, &sorted.tensor, &order.tensor, last)?;
    copy(&out, &narrow(&order.tensor, last, 0, samples))
}

/// Several samples with replacement: each is the first category whose share of the row's
/// cumulative sum exceeds a uniform draw `u`, counted as the categories at or below `u`
/// (`cdf[last]` is exactly 1 and `u < 1`, so a zero-probability category is never picked).
/// The draws are float32 uniforms from the call's generator, not CUDA's per-thread states.
fn with_replacement(call: &mut Call, p: &TensorRef, out: &TensorRef) -> Result<()> {
    let last = p.sizes.len() - 1;
    let categories = p.sizes[last];
    let cumulative = Scratch::contiguous(p.device, &p.sizes, DType::F32)?;
    let scan = ScanKernel::sum(p.dtype, DType::F32);
    run_scan(scan, p, &cumulative.tensor, last)?;
    let total = narrow(&cumulative.tensor, last, categories - 1, 1);
    let cdf = Scratch::contiguous(p.device, &p.sizes, DType::F32)?;
    let share = MapKernel {
        inputs: smallvec![DType::F32, DType::F32],
        scalars: smallvec![],
        outputs: smallvec![(
            DType::F32,
            Expr::input(0, DType::F32).binary(BinaryOp::Div, Expr::input(1, DType::F32)),
        )],
    };
    run_map(
        share,
        &[&cumulative.tensor, &total, &cdf.tensor],
        &p.sizes,
        &[],
    )?;

    let u = Scratch::contiguous(p.device, &out.sizes, DType::F32)?;
    let n = u.tensor.numel();
    let (draw, _, unroll) = grid_kernel(DType::F32, Distribution::Uniform);
    let philox = call.philox(3, p.device, increment(n, unroll))?;
    let mut words = ScalarArg::float(0.0).words(DType::F32);
    words.extend(ScalarArg::float(1.0).words(DType::F32));
    words.extend(ScalarArg::float(1.0).words(DType::F32));
    launch_with(p.device, philox, draw, &[&u.tensor], words, &u.tensor)?;

    // below[.., s, j] = cdf[.., j] <= u[.., s]; the sample is the count over j.
    let mut shape = out.sizes.clone();
    shape.push(categories);
    let rank = out.sizes.len();
    let mut cdf_strides = vec![0; rank + 1];
    cdf_strides[rank] = cdf.tensor.strides[last];
    if last > 0 {
        cdf_strides[0] = cdf.tensor.strides[0];
    }
    let mut u_strides = u.tensor.strides.clone();
    u_strides.push(0);
    let view = |t: &TensorRef, strides: Vec<i64>| TensorRef {
        sizes: shape.clone(),
        strides: strides.into(),
        ..t.clone()
    };
    // One byte per comparison: rows × samples × categories of them.
    let below = Scratch::contiguous(p.device, &shape, DType::Bool)?;
    let compare = MapKernel {
        inputs: smallvec![DType::F32, DType::F32],
        scalars: smallvec![],
        outputs: smallvec![(
            DType::Bool,
            Expr::input(0, DType::F32).le(Expr::input(1, DType::F32)),
        )],
    };
    run_map(
        compare,
        &[
            &view(&cdf.tensor, cdf_strides),
            &view(&u.tensor, u_strides.to_vec()),
            &below.tensor,
        ],
        &shape,
        &[],
    )?;
    let count = ReduceKernel {
        per_output: None,
        indexed: false,
        elementwise: None,
        vector: false,
        input: DType::Bool,
        scalars: vec![],
        pre: Expr::input(0, DType::Bool).cast(DType::I64),
        op: ReduceOp::Sum,
        acc: DType::I64,
        outputs: vec![(DType::I64, Expr::input(0, DType::I64))],
        columns: false,
    };
    let mut reduced = vec![false; rank];
    reduced.push(true);
    run_reduce(count, &below.tensor, &[out], &reduced, &[])
}

/// The number of key bits CUDA sorts `n` elements by: enough that all keys differ with
/// probability 0.9 or more.
fn randperm_bits(n: i64) -> u32 {
    let threshold = 0.9f64.ln() * 12.0;
    let nd = n as f64;
    let bits = (nd - (6.0 * nd * nd + 1.0) / threshold).log2().ceil();
    bits.min(64.0) as u32
}

/// PyTorch's refusals of `n` for outputs that cannot hold every index.
fn check_randperm_dtype(n: i64, dtype: DType) -> Result<()> {
    let (limit, what) = match dtype {
        DType::F16 => (2049, "2049 for Half type."),
        DType::F32 => ((1 << 24) + 1, "2^24+1 for Float type."),
        DType::F64 => ((1 << 53) + 1, "2^53+1 for Double type."),
        // arange(n) must hold n itself, as `Scalar::to<T>` checks.
        DType::I8 | DType::U8 | DType::I16 => return ScalarArg::int(n).check_fits(dtype),
        DType::Bool => return Err(not_implemented_for("arange_cuda", dtype)),
        _ => return Ok(()),
    };
    if n > limit {
        return Err(Error::runtime(format!("n cannot be greater than {what}")));
    }
    Ok(())
}

/// `randperm.generator_out(n, generator, out)`. Keys are drawn as CUDA's
/// `random_(min, max)` over int32 (or int64 past 32 bits) and ordered by their low `bits`
/// bits with a stable sort; then runs of equal keys (at most a 10% chance per call) are
/// shuffled as CUDA's duplicate-key kernel does.
fn randperm(call: &mut Call) -> Result<()> {
    let n = call.int(0)?;
    if n < 0 {
        return Err(Error::runtime(format!("n must be non-negative, got{n}")));
    }
    let target = call.out(2)?.tensor;
    check_randperm_dtype(n, target.dtype)?;
    let out = call.result(Dest::Arg(2), &[n], target.dtype, target.device)?;
    if n == 0 {
        return Ok(());
    }
    let device = out.device;
    let bits = randperm_bits(n);
    let (key_dtype, lowest, highest) = if bits <= 32 {
        (DType::I32, i64::from(i32::MIN), i64::from(i32::MAX))
    } else {
        (DType::I64, i64::MIN, i64::MAX)
    };
    let keys = Scratch::contiguous(device, &[n], key_dtype)?;
    let philox = call.philox(1, device, increment(n as u64, 2))?;
    let draw = RandomKernel {
        dtype: key_dtype,
        distribution: Distribution::Integer { wide: true },
        mapping: Mapping::Grid { unroll: 2 },
        double: false,
    };
    let mut words = ScalarArg::int(lowest).words(DType::I64);
    words.extend(ScalarArg::int(highest.wrapping_sub(lowest)).words(DType::I64));
    launch_with(device, philox, draw, &[&keys.tensor], words, &keys.tensor)?;
    // The sort key: the low `bits` bits, or the whole signed key when every bit counts.
    let full = bits == key_dtype.size() as u32 * 8;
    let mask = if full { -1 } else { (1i64 << bits) - 1 };
    let masked = Scratch::contiguous(device, &[n], DType::I64)?;
    let keep = MapKernel {
        inputs: smallvec![key_dtype],
        scalars: smallvec![DType::I64],
        outputs: smallvec![(
            DType::I64,
            Expr::input(0, key_dtype)
                .cast(DType::I64)
                .binary(BinaryOp::BitAnd, Expr::scalar(0, DType::I64)),
        )],
    };
    let mask_words = ScalarArg::int(mask).words(DType::I64);
    run_map(keep, &[&keys.tensor, &masked.tensor], &[n], &mask_words)?;
    let sorted = Scratch::contiguous(device, &[n], DType::I64)?;
    let order = Scratch::contiguous(device, &[n], DType::I64)?;
    run_sort(false, &masked.tensor, &sorted.tensor, &order.tensor, 0)?;
    // Runs of equal keys are shuffled as CUDA does, with n offsets (rounded up to 4).
    let philox = call.philox(1, device, (n as u64).div_ceil(4) * 4)?;
    let shuffle = RandomKernel {
        dtype: DType::I64,
        distribution: Distribution::IslandShuffle,
        mapping: Mapping::Grid { unroll: 1 },
        double: false,
    };
    let (keys, values) = (&sorted.tensor, &order.tensor);
    launch_with(device, philox, shuffle, &[keys, values], vec![], values)?;
    copy(&out, &order.tensor)
}

/// `poisson(self, generator)`: counts drawn with each element's rate. The generator advances
/// by 20, as CUDA's; cuRAND's own Poisson algorithm is not public, so the counts have the right
/// distribution but are not CUDA's values.
fn poisson(call: &mut Call) -> Result<()> {
    let rates = call.tensor(0)?;
    if !rates.dtype.is_float() {
        return Err(not_implemented_for("poisson_cuda", rates.dtype));
    }
    let out = call.result(Dest::New, &rates.sizes, rates.dtype, rates.device)?;
    if rates.numel() == 0 {
        return Ok(());
    }
    let lowest = reduce_to_host(&rates, ReduceOp::Min)?;
    if lowest.is_nan() || lowest < 0.0 {
        return Err(Error::runtime(
            "invalid Poisson rate, expected rate to be non-negative",
        ));
    }
    let philox = call.philox(1, rates.device, 20)?;
    let kernel = RandomKernel {
        dtype: rates.dtype,
        distribution: Distribution::Poisson,
        mapping: Mapping::Grid { unroll: 1 },
        double: false,
    };
    launch_with(rates.device, philox, kernel, &[&rates, &out], vec![], &out)
}

pub const OPS: &[(&str, OpFn)] = &[
    ("poisson", poisson),
    ("randperm.generator_out", randperm),
    ("multinomial", |c| multinomial(c, Dest::New)),
    ("multinomial.out", |c| multinomial(c, Dest::Arg(4))),
];
