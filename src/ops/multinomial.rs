//! `multinomial` as CUDA computes it without replacement (and for one sample with it): draw
//! `q ~ Exponential(1)` with the random kernel, take `p / q`, and pick the largest entries of
//! each row (argmax for one sample, a descending sort for several). With the same generator
//! state it draws the same exponentials as CUDA.

use super::call::{Call, Dest};
use super::copy::copy;
use super::index_launch::run_sort;
use super::launch::{reduce_to_host, run_map, run_reduce};
use super::random::{accumulation, increment, launch_with};
use super::registry::OpFn;
use super::scratch::Scratch;
use super::shape::narrow;
use super::tensor::TensorRef;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{
    BinaryOp, Distribution, Expr, MapKernel, Mapping, RandomKernel, ReduceKernel, ReduceOp,
};

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
        input: p.dtype,
        scalars: vec![],
        pre: Expr::input(0, p.dtype).cast(DType::F32),
        op: ReduceOp::Sum,
        acc: DType::F32,
        outputs: vec![(DType::F32, Expr::input(0, DType::F32))],
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
    if replacement && samples > 1 {
        return Err(Error::not_implemented(
            "mojo: multinomial with replacement and num_samples > 1 is not implemented yet",
        ));
    }
    let mut sizes = p.sizes.clone();
    *sizes.last_mut().expect("rank 1 or 2") = samples;
    let out = call.result(dest, &sizes, DType::I64, p.device)?;
    if p.numel() == 0 {
        return Ok(());
    }
    check_probabilities(&p)?;

    // q = exponential(1), drawn in the memory order of a contiguous tensor like p.
    let q = Scratch::contiguous(p.device, &p.sizes, p.dtype)?;
    let (acc, unroll) = accumulation(p.dtype);
    let philox = call.philox(3, p.device, increment(p.numel(), unroll))?;
    let kernel = RandomKernel {
        dtype: p.dtype,
        distribution: Distribution::Exponential,
        mapping: Mapping::Grid {
            unroll: unroll as u32,
        },
        double: acc == DType::F64,
    };
    let lambda = super::scalar::ScalarArg::float(1.0).words(acc);
    launch_with(p.device, philox, kernel, &[&q.tensor], lambda, &q.tensor)?;
    // q = p / q, in p's dtype.
    let ratio = MapKernel {
        inputs: vec![p.dtype, p.dtype],
        scalars: vec![],
        outputs: vec![(
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
            input: p.dtype,
            scalars: vec![],
            pre: Expr::input(0, p.dtype),
            op: ReduceOp::ArgMax,
            acc: p.dtype,
            outputs: vec![(DType::I64, Expr::input(1, DType::I64))],
        };
        let rows = TensorRef {
            sizes: p.sizes[..last].to_vec(),
            strides: out.strides[..last].to_vec(),
            ..out.clone()
        };
        return run_reduce(kernel, &q.tensor, &[&rows], &reduced, &[]);
    }
    let sorted = Scratch::contiguous(p.device, &p.sizes, p.dtype)?;
    let order = Scratch::contiguous(p.device, &p.sizes, DType::I64)?;
    run_sort(true, &q.tensor, &sorted.tensor, &order.tensor, last)?;
    copy(&out, &narrow(&order.tensor, last, 0, samples))
}

pub const OPS: &[(&str, OpFn)] = &[
    ("multinomial", |c| multinomial(c, Dest::New)),
    ("multinomial.out", |c| multinomial(c, Dest::Arg(4))),
];
