//! Fused scaled dot-product attention: `_scaled_dot_product_fused_attention_overrideable` and
//! its backward, where PyTorch's `scaled_dot_product_attention` sends PrivateUse1 tensors when
//! the device's choice (`csrc/sdpa.cpp`) says the fused kernel serves the call. Tiled with an
//! online softmax (`printer::attention`): memory grows with the sequence, never with its
//! square. Boolean masks arrive converted to additive ones; grouped-query attention reads each
//! key/value head for its `H / Hk` query heads. Devices with a GEMM library (cuBLAS) take
//! calls without dropout through it instead (`attention_gemm`).

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::printer::{ATTENTION_BLOCK, ATTENTION_STAGE, ATTENTION_WIDTH, GROUP_SIZE};
use crate::kernels::{AttentionKernel, AttentionPass, AttentionTensor, Expr, Kernel};
use crate::ops::core::call::{Call, Located};
use crate::ops::core::launch::{common_device, stride_word, submit, word};
use crate::ops::core::registry::OpFn;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::nn::attention_gemm;
use crate::ops::nn::batch_norm::map_scaled;
use crate::runtime::backend;
use std::ops::Mul;

pub const OPS: &[(&str, OpFn)] = &[
    ("_scaled_dot_product_fused_attention_overrideable", forward),
    (
        "_scaled_dot_product_fused_attention_overrideable_backward",
        backward,
    ),
];

/// Loop iterations one invocation may spend on its chunk (the software device stops an
/// invocation after 65,535 in all; GPUs run long loops slowly).
const ITERATIONS: i64 = 40_000;

/// The checked operands and the launch geometry shared by every pass.
pub(super) struct Attention {
    pub(super) q: TensorRef,
    pub(super) k: TensorRef,
    pub(super) v: TensorRef,
    /// The additive mask broadcast to `[B, H, Tq, Tk]`.
    pub(super) bias: Option<TensorRef>,
    pub(super) causal: bool,
    pub(super) scale: f64,
    /// `B, H, Hk, Tq, Tk, D, Dv`.
    pub(super) sizes: [i64; 7],
    /// The row width rounded up to the unrolled step.
    width: i64,
    /// Rows per staged block.
    block: i64,
    pub(super) device: usize,
    pub(super) dropout: Option<Dropout>,
}

/// Dropout of the probabilities: the Philox mask of `printer::attention`.
#[derive(Clone, Copy)]
pub(super) struct Dropout {
    seed: u64,
    offset: u64,
    /// The probability of dropping.
    p: f64,
}

impl Dropout {
    /// The generator offset the mask of rows of `keys` probabilities consumes: one Philox
    /// block per four keys.
    fn increment(keys: i64) -> u64 {
        4 * (keys as u64).div_ceil(4)
    }

    /// Launch words 51..57.
    fn words(&self) -> [u32; 6] {
        let block = self.offset / 4;
        let keep = 1.0 - self.p;
        let scale = if keep > 0.0 { 1.0 / keep } else { 0.0 };
        [
            self.seed as u32,
            (self.seed >> 32) as u32,
            block as u32,
            (block >> 32) as u32,
            (keep as f32).to_bits(),
            (scale as f32).to_bits(),
        ]
    }
}

impl Attention {
    fn new(
        q: TensorRef,
        k: TensorRef,
        v: TensorRef,
        bias: Option<TensorRef>,
        causal: bool,
        scale: Option<f64>,
    ) -> Result<Self> {
        for (name, t) in [("query", &q), ("key", &k), ("value", &v)] {
            if t.sizes.len() != 4 {
                return Err(Error::runtime(format!(
                    "mojo fused attention: expected a 4-D {name} [batch, heads, sequence, width], got {} dimensions",
                    t.sizes.len()
                )));
            }
            if t.dtype != q.dtype {
                return Err(Error::runtime(format!(
                    "Expected query, key, and value to have the same dtype, but got query.dtype: {} and {name}.dtype: {} instead.",
                    q.dtype.torch_name(),
                    t.dtype.torch_name()
                )));
            }
        }
        if !matches!(q.dtype, DType::F32 | DType::F16 | DType::BF16) {
            return Err(Error::not_implemented(format!(
                "mojo: fused attention for {}",
                q.dtype.torch_name()
            )));
        }
        let (b, h, tq, d) = (q.sizes[0], q.sizes[1], q.sizes[2], q.sizes[3]);
        let (hk, tk, dv) = (k.sizes[1], k.sizes[2], v.sizes[3]);
        if k.sizes[0] != b || v.sizes[0] != b || v.sizes[1] != hk || v.sizes[2] != tk {
            return Err(Error::runtime(format!(
                "mojo fused attention: key {:?} and value {:?} do not match query {:?}",
                k.sizes, v.sizes, q.sizes
            )));
        }
        if k.sizes[3] != d {
            return Err(Error::runtime(format!(
                "mojo fused attention: query width {d} and key width {} differ",
                k.sizes[3]
            )));
        }
        if hk == 0 || h % hk != 0 {
            return Err(Error::runtime(format!(
                "mojo fused attention: {h} query heads are not a multiple of {hk} key/value heads"
            )));
        }
        let widest = i64::from(ATTENTION_WIDTH);
        if d > widest || dv > widest {
            return Err(Error::not_implemented(format!(
                "mojo: fused attention with head widths over {widest} (got {d} and {dv})"
            )));
        }
        let bias = match bias {
            Some(t) => Some(broadcast_bias(&t, &[b, h, tq, tk], q.dtype)?),
            None => None,
        };
        let width = ((d.max(dv) + 7) / 8 * 8).max(8);
        let block = (i64::from(ATTENTION_STAGE) / width).min(i64::from(ATTENTION_BLOCK));
        let device = common_device(&[&q, &k, &v])?;
        Ok(Attention {
            scale: scale.unwrap_or(1.0 / (d as f64).sqrt()),
            q,
            k,
            v,
            bias,
            causal,
            sizes: [b, h, hk, tq, tk, d, dv],
            width,
            block,
            device,
            dropout: None,
        })
    }

    /// Blocks per chunk for a pass whose block costs `products` row products per staged row
    /// (and a Philox draw, ten rounds, with dropout).
    fn blocks_per_chunk(&self, products: i64) -> i64 {
        let draw = if self.dropout.is_some() { 10 } else { 0 };
        let cost = 32 + self.block * (products * self.width / 8 + 2 + draw);
        (ITERATIONS / cost).max(1)
    }

    /// Launches `pass` for chunk `chunk` (of `blocks` blocks) over `tiles` row tiles of
    /// `heads` heads, `threads` invocations, with the tensors of [`AttentionKernel::tensors`]
    /// besides the operands (`tensors`, by name).
    #[allow(clippy::too_many_arguments)]
    fn launch(
        &self,
        pass: AttentionPass,
        threads: i64,
        heads: i64,
        tiles: i64,
        blocks: i64,
        chunk: i64,
        tensors: &[(AttentionTensor, &TensorRef)],
    ) -> Result<()> {
        let kernel = AttentionKernel {
            dtype: self.q.dtype,
            pass,
            bias: self.bias.is_some(),
            dropout: self.dropout.is_some() && pass != AttentionPass::Combine,
        };
        let [b, h, hk, tq, tk, d, dv] = self.sizes;
        let items = b * heads * tiles;
        let mut words = Vec::with_capacity(51);
        for v in [
            b,
            h,
            hk,
            tq,
            tk,
            d,
            dv,
            self.width,
            self.block,
            blocks,
            chunk,
            i64::from(self.causal),
            tiles,
            items,
        ] {
            words.push(word(v, "size")?);
        }
        words.push((self.scale as f32).to_bits());
        words.resize(51, 0);
        if let Some(dropout) = &self.dropout {
            // Each query row's Philox subsequence is its u32 number.
            word(b * h * tq, "size")?;
            words.extend(dropout.words());
        }
        let (order, _) = kernel.tensors();
        let mut addresses = Vec::with_capacity(order.len());
        let mut offset_words = Vec::with_capacity(order.len());
        for name in order {
            let t = match name {
                AttentionTensor::Query => &self.q,
                AttentionTensor::Key => &self.k,
                AttentionTensor::Value => &self.v,
                AttentionTensor::Bias => self.bias.as_ref().expect("a bias kernel has a bias"),
                _ => {
                    tensors
                        .iter()
                        .find(|(n, _)| *n == name)
                        .expect("every tensor of the pass is given")
                        .1
                }
            };
            let at = name.word() as usize;
            if !name.is_work() {
                for (i, &s) in t.strides.iter().enumerate() {
                    words[at + 1 + i] = stride_word(s)?;
                }
            }
            addresses.push(t.address);
            offset_words.push(at);
        }
        submit(
            self.device,
            &Kernel::Attention(kernel),
            &addresses,
            words,
            &offset_words,
            threads as u64,
        )
    }

    /// Query rows' tiles of 64 and the key chunks of the forward and query passes.
    fn query_tiles(&self, products: i64) -> (i64, i64, i64) {
        let [_, _, _, tq, tk, ..] = self.sizes;
        let tiles = (tq + 63) / 64;
        let blocks = self.blocks_per_chunk(products);
        let chunks = ((tk + blocks * self.block - 1) / (blocks * self.block)).max(1);
        (tiles, blocks, chunks)
    }
}

fn dropout_probability(p: f64) -> Result<f64> {
    if !(0.0..=1.0).contains(&p) {
        return Err(Error::runtime(format!(
            "dropout probability has to be between 0 and 1, but got {p}"
        )));
    }
    Ok(p)
}

/// The value of the forward's 0-dim int64 `philox_seed` or `philox_offset` (argument `at`).
fn philox_word(call: &Call, at: usize, name: &str) -> Result<u64> {
    let (t, on_host) = match call.located(at)? {
        Located::Device(t) => (t, false),
        Located::Host(t) => (t, true),
    };
    if t.numel() != 1 || t.dtype != DType::I64 {
        return Err(Error::runtime(format!(
            "mojo fused attention backward with dropout: {name} must be the forward's one-element int64 tensor, got {:?} of {}",
            t.sizes,
            t.dtype.torch_name()
        )));
    }
    let mut bytes = [0u8; 8];
    if on_host {
        // SAFETY: the glue passed a live host tensor with one int64 element.
        bytes = unsafe { std::ptr::read_unaligned(t.address as *const [u8; 8]) };
    } else {
        backend()?.read(t.address, &mut bytes)?;
    }
    Ok(u64::from_le_bytes(bytes))
}

/// `t` viewed as `[B, H, Tq, Tk]` by PyTorch's broadcasting rules.
fn broadcast_bias(t: &TensorRef, shape: &[i64; 4], dtype: DType) -> Result<TensorRef> {
    if t.dtype != dtype {
        return Err(Error::runtime(format!(
            "Expected attn_mask dtype to be bool or to match query dtype, but got attn_mask.dtype: {} and  query.dtype: {} instead.",
            t.dtype.torch_name(),
            dtype.torch_name()
        )));
    }
    if t.sizes.len() > 4 {
        return Err(Error::runtime(format!(
            "mojo fused attention: a {}-D attn_mask does not broadcast to {shape:?}",
            t.sizes.len()
        )));
    }
    let skip = 4 - t.sizes.len();
    let mut strides = [0i64; 4];
    for (i, (&size, &stride)) in t.sizes.iter().zip(&t.strides).enumerate() {
        let target = shape[skip + i];
        if size == target && size != 1 {
            strides[skip + i] = stride;
        } else if size != 1 {
            return Err(Error::runtime(format!(
                "The size of tensor a ({size}) must match the size of tensor b ({target}) at non-singleton dimension {}",
                skip + i
            )));
        }
    }
    Ok(TensorRef {
        sizes: shape.to_vec().into(),
        strides: strides.to_vec().into(),
        ..t.clone()
    })
}

/// `(output, logsumexp, cum_seq_q, cum_seq_k, max_q, max_k, philox_seed, philox_offset,
/// debug_attn_mask)` of `(query, key, value, attn_bias?, dropout_p, is_causal,
/// return_debug_mask, *, scale?)`.
fn forward(call: &mut Call) -> Result<()> {
    let (q, k, v) = (call.tensor(0)?, call.tensor(1)?, call.tensor(2)?);
    let bias = call.optional_tensor(3)?;
    let p = dropout_probability(call.double(4)?)?;
    let mut a = Attention::new(q, k, v, bias, call.boolean(5)?, call.optional_double(7)?)?;
    let [b, h, _, tq, tk, _, dv] = a.sizes;
    if p > 0.0 {
        // The op takes no generator: argument 4 (dropout_p) names none, so the default one.
        let (seed, offset) = call.philox(4, a.device, Dropout::increment(tk))?;
        a.dropout = Some(Dropout { seed, offset, p });
    }
    // Laid out as the query is, as CUDA's fused kernels (and the op's meta function) do.
    let out = call.create_like(&[b, h, tq, dv], a.q.dtype, a.device, &a.q)?;
    let lse = call.create(&[b, h, tq], DType::F32, a.device)?;
    for _ in 0..2 {
        call.create(&[0], DType::I64, a.device)?;
    }
    call.return_int(tq)?;
    call.return_int(tk)?;
    // The mask's seed and offset, for the backward (0-dim int64, as CUDA's flash attention
    // returns them).
    match a.dropout {
        Some(Dropout { seed, offset, .. }) => {
            for value in [seed, offset] {
                let t = call.create(&[], DType::I64, a.device)?;
                backend()?.write(t.address, &value.to_le_bytes())?;
            }
        }
        None => {
            // 0-dim like the op's meta function's (unread without dropout).
            for _ in 0..2 {
                call.create(&[], DType::I64, a.device)?;
            }
        }
    }
    call.create(&[0], a.q.dtype, a.device)?;
    let rows = b * h * tq;
    if rows == 0 {
        return Ok(());
    }
    if attention_gemm::serves(&a)? && attention_gemm::forward(&a, &out, &lse)? {
        return Ok(());
    }
    let (tiles, blocks, chunks) = a.query_tiles(2);
    let state = Scratch::contiguous(a.device, &[rows, a.width + 2], DType::F32)?;
    let state = [(AttentionTensor::Partial, &state.tensor)];
    for chunk in 0..chunks {
        let threads = b * h * tiles * i64::from(GROUP_SIZE);
        a.launch(
            AttentionPass::Forward,
            threads,
            h,
            tiles,
            blocks,
            chunk,
            &state,
        )?;
    }
    a.launch(
        AttentionPass::Combine,
        rows * dv.max(1),
        h,
        tiles,
        blocks,
        0,
        &[
            state[0],
            (AttentionTensor::Out, &out),
            (AttentionTensor::LogSumExp, &lse),
        ],
    )
}

/// `(grad_query, grad_key, grad_value, grad_attn_bias)` of `(grad_out, query, key, value,
/// attn_bias, grad_input_mask, out, logsumexp, cum_seq_q, cum_seq_k, max_q, max_k, dropout_p,
/// is_causal, philox_seed, philox_offset, *, scale?)`.
fn backward(call: &mut Call) -> Result<()> {
    let grad_out = call.tensor(0)?;
    let (q, k, v) = (call.tensor(1)?, call.tensor(2)?, call.tensor(3)?);
    let bias = call.optional_tensor(4)?;
    let (out, lse) = (call.tensor(6)?, call.tensor(7)?);
    if lse.dtype != DType::F32 || !lse.is_contiguous() {
        return Err(Error::runtime(
            "mojo fused attention backward: logsumexp must be the forward's contiguous float32 tensor",
        ));
    }
    let p = dropout_probability(call.double(12)?)?;
    let mut a = Attention::new(q, k, v, bias, call.boolean(13)?, call.optional_double(16)?)?;
    if p > 0.0 {
        a.dropout = Some(Dropout {
            seed: philox_word(call, 14, "philox_seed")?,
            offset: philox_word(call, 15, "philox_offset")?,
            p,
        });
    }
    let [b, h, hk, tq, tk, d, dv] = a.sizes;
    if grad_out.sizes != [b, h, tq, dv].into() || out.sizes != grad_out.sizes {
        return Err(Error::runtime(format!(
            "mojo fused attention backward: grad_out {:?} and out {:?} should be {:?}",
            grad_out.sizes,
            out.sizes,
            [b, h, tq, dv]
        )));
    }
    let dtype = a.q.dtype;
    let dq = call.create(&[b, h, tq, d], dtype, a.device)?;
    let dk = call.create(&[b, hk, tk, d], dtype, a.device)?;
    let dv_t = call.create(&[b, hk, tk, dv], dtype, a.device)?;
    call.return_undefined();
    let zero = crate::ops::core::scalar::ScalarArg::float(0.0);
    if b * h * tq == 0 || tk == 0 {
        for t in [&dq, &dk, &dv_t] {
            crate::ops::shape::copy::fill(t, &zero)?;
        }
        return Ok(());
    }
    if attention_gemm::serves(&a)?
        && attention_gemm::backward(&a, (&grad_out, &out, &lse), (&dq, &dk, &dv_t))?
    {
        return Ok(());
    }
    // Query rows: the query gradient and each row's delta.
    let (tiles, blocks, chunks) = a.query_tiles(3);
    let rows = b * h * tq;
    let state_q = Scratch::contiguous(a.device, &[b, h, tq, d], DType::F32)?;
    let delta = Scratch::contiguous(a.device, &[rows], DType::F32)?;
    for chunk in 0..chunks {
        a.launch(
            AttentionPass::Query,
            b * h * tiles * i64::from(GROUP_SIZE),
            h,
            tiles,
            blocks,
            chunk,
            &[
                (AttentionTensor::GradOut, &grad_out),
                (AttentionTensor::Out, &out),
                (AttentionTensor::LogSumExp, &lse),
                (AttentionTensor::GradQuery, &state_q.tensor),
                (AttentionTensor::Delta, &delta.tensor),
            ],
        )?;
    }
    // Key rows: chunks of the query blocks of the key's query heads.
    let tiles = (tk + 63) / 64;
    let blocks = a.blocks_per_chunk(4);
    let query_blocks = h / hk * ((tq + a.block - 1) / a.block);
    let chunks = ((query_blocks + blocks - 1) / blocks).max(1);
    let state_k = Scratch::contiguous(a.device, &[b, hk, tk, d], DType::F32)?;
    let state_v = Scratch::contiguous(a.device, &[b, hk, tk, dv], DType::F32)?;
    for chunk in 0..chunks {
        a.launch(
            AttentionPass::KeyValue,
            b * hk * tiles * i64::from(GROUP_SIZE),
            hk,
            tiles,
            blocks,
            chunk,
            &[
                (AttentionTensor::GradOut, &grad_out),
                (AttentionTensor::LogSumExp, &lse),
                (AttentionTensor::Delta, &delta.tensor),
                (AttentionTensor::GradKey, &state_k.tensor),
                (AttentionTensor::GradValue, &state_v.tensor),
            ],
        )?;
    }
    // The states, scaled where the score scale applies, in the operands' dtype.
    let scaled = |state: &TensorRef, grad: &TensorRef, scale: f64| {
        let value = Expr::input(0, DType::F32).mul(Expr::scalar(0, DType::F32));
        map_scaled(
            &[state],
            &[(grad, value)],
            &grad.sizes,
            DType::F32,
            &[scale],
        )
    };
    scaled(&state_q.tensor, &dq, a.scale)?;
    scaled(&state_k.tensor, &dk, a.scale)?;
    scaled(&state_v.tensor, &dv_t, 1.0)
}
