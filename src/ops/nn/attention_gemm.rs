//! Scaled dot-product attention through the device's GEMM library (cuBLAS on NVIDIA), where the
//! fused kernels of `printer::attention` would run on the multiprocessors' scalar units while
//! the library uses their matrix units. As PyTorch's math path: scores `scale * q @ kᵀ + bias`
//! in the operands' dtype (masked when causal), a row softmax in float32 written back in the
//! dtype with each row's logsumexp (one pass per row, or a split logsumexp and a map for rows
//! longer than one reduction work item), then `p @ v`. The backward recomputes the probabilities
//! from the logsumexp and forms the gradients with four more products.
//!
//! A unit of work is one batch element, one query head of each key/value head's group
//! (grouped-query attention), a run of key/value heads and a run of query rows, so that every
//! operand is one strided batch of matrices; its score matrices take at most [`SCORE_BYTES`]
//! each (memory beyond that grows with the sequence, not its square). Without dropout only
//! (the fused kernels draw its mask). Any product the library declines sends the call back to
//! the fused kernels, which write every output anew.

use smallvec::smallvec;
use std::ops::{Mul, Sub};

use super::attention::Attention;
use crate::dtype::DType;
use crate::error::Result;
use crate::kernels::{BinaryOp, Elementwise, Expr, ReduceKernel, ReduceOp, UnaryOp};
use crate::ops::core::launch::run_map;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::linalg::library::library_product;
use crate::ops::reduce::reduce_launch::{run_reduce, run_reduce_elementwise, sum_into};
use crate::ops::shape::copy::copy;
use crate::runtime::backend::MatrixView;

/// The most bytes of one unit's score matrices (the backward holds two).
pub(crate) const SCORE_BYTES: i64 = 64 << 20;

/// The fewest scores per head that go through the GEMM library: for shorter sequences the
/// fused kernels' few launches beat a unit's products, masks and row passes.
pub(crate) const GEMM_SCORES: i64 = 128 * 128;

/// Whether attention on `a` goes through the GEMM library.
pub(super) fn serves(a: &Attention) -> Result<bool> {
    let [_, _, _, tq, tk, d, dv] = a.sizes;
    Ok(a.dropout.is_none()
        && tq * tk >= GEMM_SCORES
        && d * dv > 0
        && crate::runtime::backend()?.has_gemm_library(a.device))
}

/// A batch of matrices inside a tensor: its first element and `[batch, rows, cols]` strides.
#[derive(Clone, Copy)]
struct Batch {
    address: u64,
    strides: [i64; 3],
}

impl Batch {
    /// The transposed matrices.
    fn t(self) -> Batch {
        let [b, r, c] = self.strides;
        Batch {
            strides: [b, c, r],
            ..self
        }
    }

    fn view(self) -> MatrixView {
        MatrixView {
            address: self.address,
            batch_stride: self.strides[0],
            row_stride: self.strides[1],
            col_stride: self.strides[2],
        }
    }

    /// As a tensor of `sizes` (`[batch, rows, cols]`).
    fn tensor(self, like: &TensorRef, sizes: [i64; 3]) -> TensorRef {
        TensorRef {
            address: self.address,
            sizes: sizes.to_vec().into(),
            strides: self.strides.to_vec().into(),
            ..like.clone()
        }
    }
}

/// One unit: batch element `b`, query head `g` of each group, key/value heads
/// `[k0, k0 + heads)` and query rows `[r0, r0 + rows)`.
#[derive(Clone, Copy)]
struct Unit {
    b: i64,
    g: i64,
    k0: i64,
    heads: i64,
    r0: i64,
    rows: i64,
}

impl Unit {
    /// The unit's matrices of a `[B, heads, T, width]` tensor of key/value heads (`per_key`)
    /// or of query heads (query head `k * G + g` for key head `k`; the unit's rows).
    fn of(&self, t: &TensorRef, groups: i64, per_key: bool) -> Batch {
        let s = &t.strides;
        let (first, step, row) = if per_key {
            (self.k0, s[1], 0)
        } else {
            (self.k0 * groups + self.g, groups * s[1], self.r0)
        };
        let offset = (self.b * s[0] + first * s[1] + row * s[2]) * t.dtype.size() as i64;
        Batch {
            address: t.address.wrapping_add_signed(offset),
            strides: [step, s[2], s[3]],
        }
    }

    /// Whether the unit starts its key/value heads' gradients (later units add to them).
    fn first_for_keys(&self) -> bool {
        self.g == 0 && self.r0 == 0
    }
}

/// The units of `a`, with the scratch score matrices' head and row counts.
fn units(a: &Attention) -> (Vec<Unit>, i64, i64) {
    let [b, h, hk, tq, tk, ..] = a.sizes;
    let per_row = tk * a.q.dtype.size() as i64;
    let rows = (SCORE_BYTES / per_row).clamp(1, tq);
    let heads = if rows < tq {
        1
    } else {
        (SCORE_BYTES / (per_row * tq)).clamp(1, hk)
    };
    let mut units = Vec::new();
    for b in 0..b {
        for g in 0..h / hk {
            for k0 in (0..hk).step_by(heads as usize) {
                for r0 in (0..tq).step_by(rows as usize) {
                    units.push(Unit {
                        b,
                        g,
                        k0,
                        heads: heads.min(hk - k0),
                        r0,
                        rows: rows.min(tq - r0),
                    });
                }
            }
        }
    }
    (units, heads, rows)
}

/// `out = alpha * x @ y + beta * out` over `batch` matrices `m × k` by `k × n`; false when
/// the library declines it.
#[allow(clippy::too_many_arguments)]
fn product(
    a: &Attention,
    batch: i64,
    (m, k, n): (i64, i64, i64),
    x: Batch,
    y: Batch,
    out: Batch,
    alpha: f64,
    beta: f64,
) -> Result<bool> {
    let dtype = a.q.dtype;
    let views = (x.view(), y.view(), out.view());
    library_product(
        a.device,
        (dtype, dtype),
        batch,
        (m, k, n),
        views,
        alpha,
        beta,
    )
}

/// A contiguous `[heads, rows, cols]` scratch of the operands' dtype, and its matrices.
fn scratch(a: &Attention, heads: i64, rows: i64, cols: i64) -> Result<(Scratch, Batch)> {
    let s = Scratch::contiguous(a.device, &[heads, rows, cols], a.q.dtype)?;
    let batch = Batch {
        address: s.tensor.address,
        strides: [rows * cols, cols, 1],
    };
    Ok((s, batch))
}

/// Whether the score `(i, j)` at linear index `Index` of a unit's `[heads, rows, Tk]` scores
/// (scalars 0 to 2: `Tk`, the rows, the first row) lies after its query, causal attention's
/// mask (top-left aligned). In int32: a unit's scores number fewer than 2^31.
fn after_query() -> Expr {
    let tk = Expr::scalar(0, DType::I32);
    let (rows, first) = (Expr::scalar(1, DType::I32), Expr::scalar(2, DType::I32));
    let index = Expr::Index.cast(DType::I32);
    let j = index.clone().binary(BinaryOp::Rem, tk.clone());
    let i = (index / tk).binary(BinaryOp::Rem, rows) + first;
    j.gt(i)
}

/// The launch words of [`after_query`]'s scalars for unit `u`.
fn shape_words(a: &Attention, u: &Unit) -> Vec<u32> {
    [a.sizes[4], u.rows, u.r0]
        .into_iter()
        .flat_map(|v| ScalarArg::int(v).words(DType::I32))
        .collect()
}

/// The logsumexp or delta (`[B, H, Tq]` float32, contiguous) of unit `u`'s rows, broadcast
/// over `keys` columns when given.
fn row_values(t: &TensorRef, a: &Attention, u: &Unit, keys: Option<i64>) -> TensorRef {
    let [_, h, hk, tq, ..] = a.sizes;
    let groups = h / hk;
    let first = (u.b * h + u.k0 * groups + u.g) * tq + u.r0;
    let mut sizes = vec![u.heads, u.rows];
    let mut strides = vec![groups * tq, 1];
    if let Some(keys) = keys {
        sizes.push(keys);
        strides.push(0);
    }
    TensorRef {
        address: t.address + (first * 4) as u64,
        sizes: sizes.into(),
        strides: strides.into(),
        ..t.clone()
    }
}

/// The unit's scores `scale * q @ kᵀ + bias` into `scores`; false when the library declines.
fn scores(a: &Attention, u: &Unit, scores: Batch, like: &TensorRef) -> Result<bool> {
    let [_, h, hk, _, tk, d, _] = a.sizes;
    let groups = h / hk;
    let beta = match &a.bias {
        Some(bias) => {
            let sizes = [u.heads, u.rows, tk];
            copy(
                &scores.tensor(like, sizes),
                &u.of(bias, groups, false).tensor(bias, sizes),
            )?;
            1.0
        }
        None => 0.0,
    };
    let (q, k) = (u.of(&a.q, groups, false), u.of(&a.k, groups, true));
    product(a, u.heads, (u.rows, d, tk), q, k.t(), scores, a.scale, beta)
}

/// Forward into `out` (`[B, H, Tq, Dv]`) and `lse` (`[B, H, Tq]` float32, contiguous); false
/// when the library declines a product.
pub(super) fn forward(a: &Attention, out: &TensorRef, lse: &TensorRef) -> Result<bool> {
    let [_, h, hk, tq, tk, _, dv] = a.sizes;
    let groups = h / hk;
    let dtype = a.q.dtype;
    let (units, heads, rows) = units(a);
    let (s, s_batch) = scratch(a, heads, rows, tk)?;
    // `out`'s heads may interleave (laid out as the query): the library writes separate
    // matrices, so such units go through a contiguous scratch.
    let apart = heads == 1 || groups * out.strides[1] >= tq * dv;
    let staged = if apart {
        None
    } else {
        Some(scratch(a, heads, rows, dv)?)
    };
    // The reduction's sum of `exp(x - shift)` is zero for a row without keys (all scores
    // -inf): its probabilities are zeros and its logsumexp +inf (so its gradients are zero).
    let (sum, shift) = (Expr::input(0, DType::F32), Expr::input(1, DType::F32));
    let inf = |sign: f64| Expr::constant(DType::F32, sign * f64::INFINITY);
    let softmax = ReduceKernel {
        per_output: None,
        indexed: false,
        elementwise: Some(Elementwise {
            dtype,
            row: sum.clone().unary(UnaryOp::Log),
            // Of the element, the row's log-sum and the shift.
            value: Expr::input(1, DType::F32)
                .eq(inf(-1.0))
                .select(
                    Expr::constant(DType::F32, 0.0),
                    Expr::input(0, dtype)
                        .cast(DType::F32)
                        .sub(Expr::input(2, DType::F32))
                        .sub(Expr::input(1, DType::F32))
                        .exp(),
                )
                .cast(dtype),
            stashed: None,
        }),
        vector: false,
        input: dtype,
        scalars: vec![],
        pre: Expr::input(0, dtype).cast(DType::F32),
        op: ReduceOp::LogSumExp,
        acc: DType::F32,
        outputs: vec![(
            DType::F32,
            sum.clone()
                .eq(Expr::constant(DType::F32, 0.0))
                .select(inf(1.0), shift + sum.unary(UnaryOp::Log)),
        )],
        columns: false,
    };
    let mask = crate::kernels::MapKernel {
        inputs: smallvec![dtype],
        scalars: smallvec![DType::I32; 3],
        outputs: smallvec![(
            dtype,
            after_query().select(
                Expr::constant(dtype, f64::NEG_INFINITY),
                Expr::input(0, dtype),
            ),
        )],
    };
    // The probabilities of a score row from its logsumexp (+inf: a row without keys, zeros).
    let lse_of_row = Expr::input(1, DType::F32);
    let from_logsumexp = crate::kernels::MapKernel {
        inputs: smallvec![dtype, DType::F32],
        scalars: smallvec![],
        outputs: smallvec![(
            dtype,
            lse_of_row
                .clone()
                .eq(inf(1.0))
                .select(
                    Expr::constant(DType::F32, 0.0),
                    Expr::input(0, dtype).cast(DType::F32).sub(lse_of_row).exp(),
                )
                .cast(dtype),
        )],
    };
    for u in &units {
        let sizes = [u.heads, u.rows, tk];
        let s_view = s_batch.tensor(&s.tensor, sizes);
        if !scores(a, u, s_batch, &s.tensor)? {
            return Ok(false);
        }
        if a.causal {
            run_map(
                mask.clone(),
                &[&s_view, &s_view],
                &sizes,
                &shape_words(a, u),
            )?;
        }
        let (rows_lse, reduced) = (row_values(lse, a, u, None), [false, false, true]);
        let one_pass = run_reduce_elementwise(
            softmax.clone(),
            &s_view,
            &[&rows_lse],
            &reduced,
            &s_view,
            &[],
        )?;
        if !one_pass {
            // Rows longer than one work item: the logsumexp by a split reduction, then the
            // probabilities from it.
            let logsumexp = ReduceKernel {
                elementwise: None,
                ..softmax.clone()
            };
            run_reduce(logsumexp, &s_view, &[&rows_lse], &reduced, &[])?;
            let lse_view = row_values(lse, a, u, Some(tk));
            run_map(
                from_logsumexp.clone(),
                &[&s_view, &lse_view, &s_view],
                &sizes,
                &[],
            )?;
        }
        let v = u.of(&a.v, groups, true);
        let o = u.of(out, groups, false);
        let target = staged.as_ref().map_or(o, |(_, b)| *b);
        if !product(a, u.heads, (u.rows, tk, dv), s_batch, v, target, 1.0, 0.0)? {
            return Ok(false);
        }
        if let Some((staged, b)) = &staged {
            let sizes = [u.heads, u.rows, dv];
            copy(&o.tensor(out, sizes), &b.tensor(&staged.tensor, sizes))?;
        }
    }
    Ok(true)
}

/// The gradients `dq` (`[B, H, Tq, D]`), `dk` and `dv` (`[B, Hk, Tk, D|Dv]`, contiguous)
/// from `grad_out`, the forward's `out` and `lse`; false when the library declines a product.
pub(super) fn backward(
    a: &Attention,
    (grad_out, out, lse): (&TensorRef, &TensorRef, &TensorRef),
    (dq, dk, dv_t): (&TensorRef, &TensorRef, &TensorRef),
) -> Result<bool> {
    let [b, h, hk, tq, tk, d, dv] = a.sizes;
    let groups = h / hk;
    let dtype = a.q.dtype;
    // Each query row's delta: the sum of grad_out * out (float32).
    let product_rows = Scratch::contiguous(a.device, &[b, h, tq, dv], DType::F32)?;
    let kernel = crate::kernels::MapKernel {
        inputs: smallvec![dtype, dtype],
        scalars: smallvec![],
        outputs: smallvec![(
            DType::F32,
            Expr::input(0, dtype)
                .cast(DType::F32)
                .mul(Expr::input(1, dtype).cast(DType::F32)),
        )],
    };
    run_map(
        kernel,
        &[grad_out, out, &product_rows.tensor],
        &[b, h, tq, dv],
        &[],
    )?;
    let delta = Scratch::contiguous(a.device, &[b, h, tq], DType::F32)?;
    sum_into(
        &product_rows.tensor,
        &[false, false, false, true],
        &delta.tensor,
    )?;
    drop(product_rows);

    let (units, heads, rows) = units(a);
    let (p, p_batch) = scratch(a, heads, rows, tk)?;
    let (ds, ds_batch) = scratch(a, heads, rows, tk)?;
    // Probabilities from the logsumexp (zero after the query when causal), and the scores'
    // gradient `p * (dp - delta)`, both rounded to the dtype as the math path's.
    let (s, dp) = (Expr::input(0, dtype), Expr::input(1, dtype));
    let (row_lse, row_delta) = (Expr::input(2, DType::F32), Expr::input(3, DType::F32));
    let mut prob = s.cast(DType::F32).sub(row_lse).exp();
    if a.causal {
        prob = after_query().select(Expr::constant(DType::F32, 0.0), prob);
    }
    let prob = prob.cast(dtype);
    let grad = prob
        .clone()
        .cast(DType::F32)
        .mul(dp.cast(DType::F32).sub(row_delta))
        .cast(dtype);
    let probabilities = crate::kernels::MapKernel {
        inputs: smallvec![dtype, dtype, DType::F32, DType::F32],
        scalars: if a.causal {
            smallvec![DType::I32; 3]
        } else {
            smallvec![]
        },
        outputs: smallvec![(dtype, prob), (dtype, grad)],
    };
    for u in &units {
        let sizes = [u.heads, u.rows, tk];
        if !scores(a, u, p_batch, &p.tensor)? {
            return Ok(false);
        }
        let d_out = u.of(grad_out, groups, false);
        let v = u.of(&a.v, groups, true);
        if !product(
            a,
            u.heads,
            (u.rows, dv, tk),
            d_out,
            v.t(),
            ds_batch,
            1.0,
            0.0,
        )? {
            return Ok(false);
        }
        let (p_view, ds_view) = (
            p_batch.tensor(&p.tensor, sizes),
            ds_batch.tensor(&ds.tensor, sizes),
        );
        let words = if a.causal { shape_words(a, u) } else { vec![] };
        run_map(
            probabilities.clone(),
            &[
                &p_view,
                &ds_view,
                &row_values(lse, a, u, Some(tk)),
                &row_values(&delta.tensor, a, u, Some(tk)),
                &p_view,
                &ds_view,
            ],
            &sizes,
            &words,
        )?;
        // Key/value heads gather the products of each of their query heads and rows.
        let beta = if u.first_for_keys() { 0.0 } else { 1.0 };
        let (q, k) = (u.of(&a.q, groups, false), u.of(&a.k, groups, true));
        let steps = [
            // dv = pᵀ @ grad_out
            (
                (tk, u.rows, dv),
                p_batch.t(),
                d_out,
                u.of(dv_t, groups, true),
                1.0,
                beta,
            ),
            // dq = scale * ds @ k
            (
                (u.rows, tk, d),
                ds_batch,
                k,
                u.of(dq, groups, false),
                a.scale,
                0.0,
            ),
            // dk = scale * dsᵀ @ q
            (
                (tk, u.rows, d),
                ds_batch.t(),
                q,
                u.of(dk, groups, true),
                a.scale,
                beta,
            ),
        ];
        for (sizes, x, y, target, alpha, beta) in steps {
            if !product(a, u.heads, sizes, x, y, target, alpha, beta)? {
                return Ok(false);
            }
        }
    }
    Ok(true)
}
