//! Matrix products through the GEMM pattern: mm, addmm, bmm, baddbmm, addmv and dot, with
//! PyTorch's shape and dtype checks. (cuBLASLt will serve these on NVIDIA behind the same ops.)

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{Expr, GemmKernel, ReduceKernel, ReduceOp};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::run_gemm;
use crate::ops::core::layout::broadcast_strides;
use crate::ops::core::promote::Priority;
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::elementwise::complex::{product_epilogue, ComplexOperand, Number};
use crate::ops::reduce::reduce_launch::run_reduce_with;
use crate::ops::shape::copy::copy;
use crate::ops::shape::rearrange::narrow;
use crate::runtime::backend::{Gemm, MatrixView};
use smallvec::smallvec;
use std::ops::{Add, Mul};

/// `t` as a `[batch, rows, cols]` view (a matrix gets batch 1, a vector one column).
fn batched(t: &TensorRef) -> TensorRef {
    let mut v = t.clone();
    match t.sizes.len() {
        1 => {
            v.sizes = smallvec![1, t.sizes[0], 1];
            v.strides = smallvec![0, t.strides[0], 0];
        }
        2 => {
            v.sizes.insert(0, 1);
            v.strides.insert(0, 0);
        }
        _ => {}
    }
    v
}

fn as_row(t: &TensorRef) -> TensorRef {
    let mut v = t.clone();
    v.sizes = smallvec![1, 1, t.sizes[0]];
    v.strides = smallvec![0, 0, t.strides[0]];
    v
}

fn check_dtypes(a: &TensorRef, b: &TensorRef, what: &str) -> Result<()> {
    if a.dtype != b.dtype {
        return Err(Error::runtime(format!(
            "expected {what} to have the same dtype, but got: {} != {}",
            a.dtype.torch_name(),
            b.dtype.torch_name()
        )));
    }
    if a.dtype == DType::Bool {
        return Err(crate::ops::core::pointwise::not_implemented_for(
            "addmm_impl_cpu_",
            a.dtype,
        ));
    }
    Ok(())
}

fn acc_dtype(dtype: DType) -> DType {
    match dtype {
        DType::F64 => DType::F64,
        _ if dtype.is_float() => DType::F32,
        _ => DType::I64,
    }
}

/// `out = beta * c + alpha * (a @ b)` on batched views; `c` is read only when beta != 0.
pub(super) fn gemm(
    a: &TensorRef,
    b: &TensorRef,
    c: Option<&TensorRef>,
    out: &TensorRef,
    alpha: &ScalarArg,
    beta: &ScalarArg,
) -> Result<()> {
    let acc = acc_dtype(a.dtype);
    let with_c = c.is_some() && beta.to_f64() != 0.0;
    let c_view = c.filter(|_| with_c).map(|c| TensorRef {
        strides: broadcast_strides(c, &out.sizes).into(),
        sizes: out.sizes.clone(),
        ..c.clone()
    });
    if vendor_gemm(a, b, c_view.as_ref(), out, alpha, beta)? {
        return Ok(());
    }
    let mut words = alpha.words(acc);
    words.extend(beta.words(acc));
    if a.sizes[2] > GEMM_K_CHUNK {
        return gemm_split_k(a, b, c_view.as_ref(), out, acc, &words);
    }
    let kernel = GemmKernel {
        input: a.dtype,
        acc,
        output: out.dtype,
        with_c,
        direct: None,
        lanes: false,
        elements: false,
    };
    run_gemm(kernel, a, b, c_view.as_ref(), out, &words)
}

/// The inner dimension one GEMM launch walks (the portable kernel loops over it).
const GEMM_K_CHUNK: i64 = 16384;

/// A long inner dimension in chunks: each chunk's product into its own slice of an
/// accumulator-dtype scratch, then `alpha * sum + beta * c` by a reduction over the chunks.
fn gemm_split_k(
    a: &TensorRef,
    b: &TensorRef,
    c: Option<&TensorRef>,
    out: &TensorRef,
    acc: DType,
    alpha_beta: &[u32],
) -> Result<()> {
    let k = a.sizes[2];
    let chunks = (k + GEMM_K_CHUNK - 1) / GEMM_K_CHUNK;
    let mut shape = vec![chunks];
    shape.extend(&out.sizes);
    let partial = Scratch::contiguous(out.device, &shape, acc)?;
    let product = GemmKernel {
        input: a.dtype,
        acc,
        output: acc,
        with_c: false,
        direct: None,
        lanes: false,
        elements: false,
    };
    let mut unit = ScalarArg::float(1.0).words(acc);
    unit.extend(ScalarArg::float(0.0).words(acc));
    for i in 0..chunks {
        let (start, len) = (i * GEMM_K_CHUNK, GEMM_K_CHUNK.min(k - i * GEMM_K_CHUNK));
        let slice = TensorRef {
            sizes: out.sizes.clone(),
            strides: partial.tensor.strides[1..].to_vec().into(),
            ..narrow(&partial.tensor, 0, i, 1)
        };
        run_gemm(
            product.clone(),
            &narrow(a, 2, start, len),
            &narrow(b, 1, start, len),
            None,
            &slice,
            &unit,
        )?;
    }
    let (alpha, beta) = (Expr::scalar(0, acc), Expr::scalar(1, acc));
    let mut value = alpha.mul(Expr::input(0, acc));
    if let Some(c) = c {
        value = value.add(beta.mul(Expr::input(1, c.dtype).cast(acc)));
    }
    let kernel = ReduceKernel {
        input: acc,
        scalars: vec![acc, acc],
        pre: Expr::input(0, acc),
        op: ReduceOp::Sum,
        acc,
        outputs: vec![(out.dtype, value.cast(out.dtype))],
        per_output: c.map(|c| c.dtype),
        indexed: false,
        elementwise: None,
        vector: false,
        columns: false,
    };
    let mut reduced = vec![false; shape.len()];
    reduced[0] = true;
    run_reduce_with(kernel, &partial.tensor, c, &[out], &reduced, alpha_beta)
}

/// The batched view `t` as a vendor GEMM operand.
fn matrix(t: &TensorRef) -> MatrixView {
    MatrixView {
        address: t.address,
        batch_stride: t.strides[0],
        row_stride: t.strides[1],
        col_stride: t.strides[2],
    }
}

/// The product through the backend's GEMM library (cuBLAS), when it has one and takes these
/// operands. A bias row (`c` a broadcast vector, beta 1) goes to the library's bias epilogue
/// when it has one; otherwise `c` is first copied (broadcast) into `out`, which the library
/// scales by beta.
fn vendor_gemm(
    a: &TensorRef,
    b: &TensorRef,
    c: Option<&TensorRef>,
    out: &TensorRef,
    alpha: &ScalarArg,
    beta: &ScalarArg,
) -> Result<bool> {
    let floating = matches!(a.dtype, DType::F16 | DType::BF16 | DType::F32 | DType::F64);
    let backend = crate::runtime::backend()?;
    if !floating || out.dtype != a.dtype || !backend.has_gemm_library(out.device) {
        return Ok(false);
    }
    let (batch, m, k, n) = (a.sizes[0], a.sizes[1], a.sizes[2], b.sizes[2]);
    if batch * m * n == 0 || k == 0 {
        return Ok(false);
    }
    let mut gemm = Gemm {
        dtype: a.dtype,
        out_dtype: a.dtype,
        batch: batch as u64,
        m: m as u64,
        n: n as u64,
        k: k as u64,
        a: matrix(a),
        b: matrix(b),
        out: matrix(out),
        alpha: alpha.to_f64(),
        beta: 0.0,
        bias: None,
    };
    if let Some(c) = c {
        let row = c.strides[0] == 0 && c.strides[1] == 0 && (c.strides[2] == 1 || n == 1);
        if row && beta.to_f64() == 1.0 && c.dtype == out.dtype {
            let with_bias = Gemm {
                bias: Some(c.address),
                ..gemm
            };
            if backend.gemm(out.device, &with_bias)? {
                return Ok(true);
            }
        }
        if c.address != out.address || c.strides != out.strides {
            crate::ops::shape::copy::copy(out, c)?;
        }
        gemm.beta = beta.to_f64();
    }
    backend.gemm(out.device, &gemm)
}

pub(super) fn one() -> ScalarArg {
    ScalarArg::int(1)
}

/// The result shape of `a @ b` for batched views, with PyTorch's error when they disagree.
fn product_shape(a: &TensorRef, b: &TensorRef, rank: usize) -> Result<Vec<i64>> {
    if a.sizes[2] != b.sizes[1] || a.sizes[0] != b.sizes[0] {
        return Err(Error::runtime(format!(
            "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
            a.sizes[1], a.sizes[2], b.sizes[1], b.sizes[2]
        )));
    }
    Ok(if rank == 2 {
        vec![a.sizes[1], b.sizes[2]]
    } else {
        vec![a.sizes[0], a.sizes[1], b.sizes[2]]
    })
}

/// mm / bmm: `(self, mat2, out)`.
fn matmul(call: &mut Call, rank: usize) -> Result<()> {
    if call.first_complex_code().is_some() {
        return complex_product(call, ComplexProduct::Mm(rank));
    }
    let (a, b) = (call.tensor(0)?, call.tensor(1)?);
    let name = if rank == 2 { "self" } else { "batch1" };
    if a.sizes.len() != rank || b.sizes.len() != rank {
        return Err(Error::runtime(format!("{name} must be a {}D tensor", rank)));
    }
    check_dtypes(&a, &b, "a and b")?;
    let (av, bv) = (batched(&a), batched(&b));
    let shape = product_shape(&av, &bv, rank)?;
    let out = call.result(Dest::Arg(2), &shape, a.dtype, a.device)?;
    gemm(&av, &bv, None, &batched(&out), &one(), &one())
}

/// addmm / baddbmm: `(self, mat1, mat2, beta, alpha, out)`.
fn add_matmul(call: &mut Call, rank: usize) -> Result<()> {
    if call.first_complex_code().is_some() {
        return complex_product(call, ComplexProduct::AddMm(rank));
    }
    let (c, a, b) = (call.tensor(0)?, call.tensor(1)?, call.tensor(2)?);
    let (beta, alpha) = (call.scalar(3)?, call.scalar(4)?);
    if a.sizes.len() != rank || b.sizes.len() != rank {
        return Err(Error::runtime(format!("mat1 must be a {rank}D tensor")));
    }
    check_dtypes(&a, &b, "mat1 and mat2")?;
    check_dtypes(&c, &a, "self and mat2")?;
    let (av, bv) = (batched(&a), batched(&b));
    let shape = product_shape(&av, &bv, rank)?;
    crate::ops::core::layout::broadcast_shapes(&[&c.sizes, &shape])?;
    let out = call.result(Dest::Arg(5), &shape, a.dtype, a.device)?;
    let out_view = batched(&out);
    let c_view = TensorRef {
        strides: broadcast_strides(&c, &shape).into(),
        sizes: shape.clone().into(),
        ..c.clone()
    };
    gemm(&av, &bv, Some(&batched(&c_view)), &out_view, &alpha, &beta)
}

/// addmv: `(self, mat, vec, beta, alpha, out)`.
fn addmv(call: &mut Call) -> Result<()> {
    if call.first_complex_code().is_some() {
        return complex_product(call, ComplexProduct::Addmv);
    }
    let (c, mat, vec) = (call.tensor(0)?, call.tensor(1)?, call.tensor(2)?);
    let (beta, alpha) = (call.scalar(3)?, call.scalar(4)?);
    if mat.sizes.len() != 2 || vec.sizes.len() != 1 || mat.sizes[1] != vec.sizes[0] {
        return Err(Error::runtime(format!(
            "size mismatch, got input ({}), mat ({}x{}), vec ({})",
            c.sizes.first().copied().unwrap_or(1),
            mat.sizes.first().copied().unwrap_or(0),
            mat.sizes.get(1).copied().unwrap_or(0),
            vec.sizes.first().copied().unwrap_or(0)
        )));
    }
    check_dtypes(&mat, &vec, "mat and vec")?;
    let shape = vec![mat.sizes[0]];
    let out = call.result(Dest::Arg(5), &shape, mat.dtype, mat.device)?;
    let c_view = TensorRef {
        strides: broadcast_strides(&c, &shape).into(),
        sizes: shape.clone().into(),
        ..c.clone()
    };
    gemm(
        &batched(&mat),
        &batched(&vec),
        Some(&batched(&c_view)),
        &batched(&out),
        &alpha,
        &beta,
    )
}

/// dot: `(self, tensor)`, both 1-D.
fn dot(call: &mut Call) -> Result<()> {
    if call.first_complex_code().is_some() {
        return complex_product(call, ComplexProduct::Dot);
    }
    let (a, b) = (call.tensor(0)?, call.tensor(1)?);
    if a.sizes.len() != 1 || b.sizes.len() != 1 {
        return Err(Error::runtime(format!(
            "1D tensors expected, but got {}D and {}D tensors",
            a.sizes.len(),
            b.sizes.len()
        )));
    }
    if a.sizes[0] != b.sizes[0] {
        return Err(Error::runtime(format!(
            "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of elements, but got {} and {} elements respectively",
            a.sizes[0], b.sizes[0], a.sizes[0], b.sizes[0]
        )));
    }
    if a.dtype != b.dtype {
        return Err(Error::runtime(format!(
            "dot : expected both vectors to have same dtype, but found {} and {}",
            a.dtype.torch_name(),
            b.dtype.torch_name()
        )));
    }
    let out = call.create(&[], a.dtype, a.device)?;
    let mut out_view = out.clone();
    out_view.sizes = smallvec![1, 1, 1];
    out_view.strides = smallvec![0, 0, 0];
    gemm(&as_row(&a), &batched(&b), None, &out_view, &one(), &one())
}

/// A complex matrix operand as its (real, imaginary) parts, each a batched view; a real
/// one is refused with the dtype mismatch PyTorch reports.
fn complex_parts(call: &Call, index: usize, what: &str) -> Result<[TensorRef; 2]> {
    let arg = call.tensor_arg(index)?;
    // SAFETY: the glue describes a live tensor.
    let (view, complex) = unsafe { TensorRef::from_arg_or_pairs(arg)? };
    if !complex {
        return Err(Error::runtime(format!(
            "expected {what} to have the same dtype, but got: a complex and a real ({}) tensor",
            view.dtype.torch_name()
        )));
    }
    Ok([batched(&view.part(0)), batched(&view.part(1))])
}

/// `out = beta * c + alpha * (a @ b)` over complex parts, `alpha` and `beta` real: four real
/// products, the second of each part accumulated onto the first's result.
fn complex_gemm(
    a: &[TensorRef; 2],
    b: &[TensorRef; 2],
    c: Option<&[TensorRef; 2]>,
    out: &[TensorRef; 2],
    alpha: f64,
    beta: f64,
) -> Result<()> {
    let s = ScalarArg::float;
    let (_a_copy, a) = dense_parts(a)?;
    let (_b_copy, b) = dense_parts(b)?;
    // real: ar br - ai bi; imaginary: ar bi + ai br.
    for (o, (i, j), (k, l), sign) in [(0, (0, 0), (1, 1), -1.0), (1, (0, 1), (1, 0), 1.0)] {
        let c = c.map(|c| &c[o]);
        gemm(&a[i], &b[j], c, &out[o], &s(alpha), &s(beta))?;
        gemm(
            &a[k],
            &b[l],
            Some(&out[o]),
            &out[o],
            &s(sign * alpha),
            &s(1.0),
        )?;
    }
    Ok(())
}

/// The two parts of a complex operand copied into one dense scratch: the pair views' stride of
/// 2 keeps GEMMs from their 16-byte loads (and vendor libraries), which cost more than the
/// copies (a complex64 40x40 product: 2.0 -> 0.3 ms on the software device).
fn dense_parts(parts: &[TensorRef; 2]) -> Result<(Scratch, [TensorRef; 2])> {
    let [first, _] = parts;
    let mut shape = vec![2];
    shape.extend(&first.sizes);
    let scratch = Scratch::contiguous(first.device, &shape, first.dtype)?;
    let part = |i: usize| TensorRef {
        sizes: first.sizes.clone(),
        strides: scratch.tensor.strides[1..].to_vec().into(),
        ..narrow(&scratch.tensor, 0, i as i64, 1)
    };
    let dense = [part(0), part(1)];
    for (to, from) in dense.iter().zip(parts) {
        copy(to, from)?;
    }
    Ok((scratch, dense))
}

/// The complex forms of the products: mm/bmm (`rank`, no `c`), addmm/baddbmm/addmv (with
/// `c`), dot.
#[derive(Clone, Copy)]
enum ComplexProduct {
    Mm(usize),
    AddMm(usize),
    Addmv,
    Dot,
}

fn complex_product(call: &mut Call, kind: ComplexProduct) -> Result<()> {
    use ComplexProduct::*;
    let (first, with_c) = match kind {
        Mm(_) | Dot => (0, false),
        AddMm(_) | Addmv => (1, true),
    };
    let a = complex_parts(call, first, "mat1 and mat2")?;
    let b = complex_parts(call, first + 1, "mat1 and mat2")?;
    let component = a[0].dtype;
    if b[0].dtype != component {
        return Err(Error::runtime(format!(
            "expected mat1 and mat2 to have the same dtype, but got: Complex{} != Complex{}",
            component.torch_name(),
            b[0].dtype.torch_name()
        )));
    }
    let (a, rank) = match kind {
        Mm(rank) | AddMm(rank) => (a, rank),
        Addmv => (a, 1),
        // a row times a column.
        Dot => {
            let row = |t: &TensorRef| TensorRef {
                sizes: smallvec![1, 1, t.sizes[1]],
                strides: smallvec![0, 0, t.strides[1]],
                ..t.clone()
            };
            (a.clone().map(|t| row(&t)), 0)
        }
    };
    let shape = match kind {
        Mm(_) | AddMm(_) => product_shape(&a[0], &b[0], rank)?,
        Addmv => vec![a[0].sizes[1]],
        Dot => vec![],
    };
    if a[0].sizes[2] != b[0].sizes[1] {
        return Err(Error::runtime(format!(
            "size mismatch: inner dimensions {} and {}",
            a[0].sizes[2], b[0].sizes[1]
        )));
    }
    let (alpha, beta) = if with_c {
        (call.complex_operand(4)?, call.complex_operand(3)?)
    } else {
        (real_scalar(1.0), real_scalar(0.0))
    };
    let (alpha, beta) = match (real_part(&alpha), real_part(&beta)) {
        (Some(alpha), Some(beta)) => (alpha, beta),
        _ => return product_with_complex_scalars(call, &a, &b, &shape, &alpha, &beta),
    };
    let c = if with_c {
        let arg = call.tensor_arg(0)?;
        // SAFETY: the glue describes a live tensor.
        let (view, complex) = unsafe { TensorRef::from_arg_or_pairs(arg)? };
        if !complex || view.dtype != component {
            return Err(Error::runtime(
                "expected self and mat2 to have the same dtype",
            ));
        }
        let part = |i: u64| {
            let p = view.part(i);
            batched(&TensorRef {
                strides: broadcast_strides(&p, &shape).into(),
                sizes: shape.clone().into(),
                ..p
            })
        };
        Some([part(0), part(1)])
    } else {
        None
    };
    let dest = match kind {
        Mm(_) => Dest::Arg(2),
        AddMm(_) | Addmv => Dest::Arg(5),
        Dot => Dest::New,
    };
    let out = call.complex_result(dest, &shape, component, a[0].device)?;
    let mut out = [out.part(0), out.part(1)];
    if matches!(kind, Dot) {
        for o in &mut out {
            o.sizes = smallvec![1, 1, 1];
            o.strides = smallvec![0, 0, 0];
        }
    } else {
        out = out.map(|o| batched(&o));
    }
    complex_gemm(&a, &b, c.as_ref(), &out, alpha, beta)
}

/// A real scalar as a complex operand.
fn real_scalar(value: f64) -> ComplexOperand {
    ComplexOperand::Scalar {
        re: value,
        im: 0.0,
        number: Number {
            dtype: DType::F64,
            complex: false,
        },
        priority: Priority::Wrapped,
    }
}

/// The value of a number without an imaginary part; none for a tensor or a complex number.
fn real_part(operand: &ComplexOperand) -> Option<f64> {
    match operand {
        ComplexOperand::Scalar { re, im, .. } if *im == 0.0 => Some(*re),
        _ => None,
    }
}

/// addmm/baddbmm/addmv with a complex `alpha` or `beta`: the product into a scratch pair
/// view, then `beta * c + alpha * product` elementwise (which also serves `out` aliasing `c`).
fn product_with_complex_scalars(
    call: &mut Call,
    a: &[TensorRef; 2],
    b: &[TensorRef; 2],
    shape: &[i64],
    alpha: &ComplexOperand,
    beta: &ComplexOperand,
) -> Result<()> {
    let component = a[0].dtype;
    let mut pair_shape = shape.to_vec();
    pair_shape.push(2);
    let product = Scratch::contiguous(a[0].device, &pair_shape, component)?;
    let parts = [0, 1].map(|i| batched(&product.tensor.part(i)));
    complex_gemm(a, b, None, &parts, 1.0, 0.0)?;
    let c = call.complex_operand(0)?;
    product_epilogue(call, &c, &product.tensor, alpha, beta, 5)
}

pub const OPS: &[(&str, OpFn)] = &[
    ("mm.out", |c| matmul(c, 2)),
    ("bmm.out", |c| matmul(c, 3)),
    ("addmm.out", |c| add_matmul(c, 2)),
    ("baddbmm.out", |c| add_matmul(c, 3)),
    ("addmv.out", addmv),
    ("dot", dot),
];
