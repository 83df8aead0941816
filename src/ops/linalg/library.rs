//! Matrix products for routes built on them (attention, convolution): through the device's
//! GEMM library, or on the software device through its lanes product.

use super::products::{gemm, one};
use crate::dtype::DType;
use crate::error::Result;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::tensor::TensorRef;
use crate::runtime::backend::{Gemm, MatrixView};
use smallvec::smallvec;

/// `out = alpha * a @ b + beta * out` over `batch` matrices `m × k` by `k × n` through the
/// device's GEMM library, `a` and `b` of `dtype`, `out` of `out_dtype` (see [`Gemm`]); false
/// when there is none or it declines the layout. For routes built on the library (attention,
/// convolution).
pub(crate) fn library_product(
    device: usize,
    (dtype, out_dtype): (DType, DType),
    batch: i64,
    (m, k, n): (i64, i64, i64),
    (a, b, out): (MatrixView, MatrixView, MatrixView),
    alpha: f64,
    beta: f64,
) -> Result<bool> {
    let gemm = Gemm {
        dtype,
        out_dtype,
        batch: batch as u64,
        m: m as u64,
        n: n as u64,
        k: k as u64,
        a,
        b,
        out,
        alpha,
        beta,
        bias: None,
    };
    crate::runtime::backend()?.gemm(device, &gemm)
}

/// `out = a @ b + beta * out` as [`library_product`] takes it (alpha 1): through the
/// device's GEMM library, or else for float32 where the device's portable product shares rows
/// by subgroup broadcast (the software device), through that (see `printer::gemm_lanes`);
/// false when neither serves.
pub(crate) fn matrix_product(
    device: usize,
    dtypes: (DType, DType),
    batch: i64,
    (m, k, n): (i64, i64, i64),
    (a, b, out): (MatrixView, MatrixView, MatrixView),
    beta: f64,
) -> Result<bool> {
    let views = (a, b, out);
    if library_product(device, dtypes, batch, (m, k, n), views, 1.0, beta)? {
        return Ok(true);
    }
    if dtypes != (DType::F32, DType::F32) || !crate::runtime::backend()?.lane_broadcast(device) {
        return Ok(false);
    }
    let tensor = |v: MatrixView, rows: i64, cols: i64| TensorRef {
        address: v.address,
        sizes: smallvec![batch, rows, cols],
        strides: smallvec![v.batch_stride, v.row_stride, v.col_stride],
        dtype: DType::F32,
        device,
    };
    let (a, b, out) = (tensor(a, m, k), tensor(b, k, n), tensor(out, m, n));
    let c = (beta != 0.0).then(|| out.clone());
    gemm(&a, &b, c.as_ref(), &out, &one(), &ScalarArg::float(beta))?;
    Ok(true)
}
