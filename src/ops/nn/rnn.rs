//! The fused LSTM and GRU cells PyTorch's recurrent layers call on accelerators
//! (`_thnn_fused_lstm_cell`, `_thnn_fused_gru_cell` and their backward): elementwise maps
//! over `[batch, hidden]` chunks of the gate matrices, in float32 (float64 for float64) with
//! one rounding per result, and the workspace laid out as CUDA lays it out.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::Expr;
use crate::ops::core::call::Call;
use crate::ops::core::registry::OpFn;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::nn::batch_norm::{arg, map};
use crate::ops::reduce::reduce_launch::sum_into;
use smallvec::smallvec;
use std::ops::{Add, Mul, Sub};

pub const OPS: &[(&str, OpFn)] = &[
    ("_thnn_fused_lstm_cell", lstm_cell),
    ("_thnn_fused_lstm_cell_backward_impl", lstm_cell_backward),
    ("_thnn_fused_gru_cell", gru_cell),
    ("_thnn_fused_gru_cell_backward", gru_cell_backward),
];

/// Columns `[k * hidden, (k + 1) * hidden)` of a `[batch, n * hidden]` matrix, or of a
/// `[n * hidden]` vector broadcast over `batch` rows.
fn chunk(t: &TensorRef, k: i64, hidden: i64, batch: i64) -> TensorRef {
    let (row, col) = match t.sizes.len() {
        1 => (0, t.strides[0]),
        _ => (t.strides[0], t.strides[1]),
    };
    TensorRef {
        address: t.address + (k * hidden * col * t.dtype.size() as i64) as u64,
        sizes: smallvec![batch, hidden],
        strides: smallvec![row, col],
        ..t.clone()
    }
}

fn sigmoid(x: Expr) -> Expr {
    x.sigmoid()
}

fn one(acc: DType) -> Expr {
    Expr::constant(acc, 1.0)
}

/// `s * (1 - s)`: the derivative of a sigmoid from its value.
fn sigmoid_slope(s: Expr, acc: DType) -> Expr {
    s.clone().mul(one(acc).sub(s))
}

/// `1 - t * t`: the derivative of tanh from its value.
fn tanh_slope(t: Expr, acc: DType) -> Expr {
    one(acc).sub(t.clone().mul(t))
}

/// `a + b (+ bias_a + bias_b)` as a `[batch, width]` matrix in `acc`: the summed gates.
fn sum_gates(
    a: &TensorRef,
    b: Option<&TensorRef>,
    biases: [Option<&TensorRef>; 2],
    acc: DType,
) -> Result<Scratch> {
    let shape = a.sizes.clone();
    let out = Scratch::contiguous(a.device, &shape, acc)?;
    let mut inputs = vec![a];
    let mut value = arg(0, a, acc);
    let broadcast: Vec<TensorRef> = biases
        .iter()
        .flatten()
        .map(|v| TensorRef {
            sizes: shape.clone(),
            strides: smallvec![0, v.strides[0]],
            ..(*v).clone()
        })
        .collect();
    for t in b.into_iter().chain(broadcast.iter()) {
        value = value.add(arg(inputs.len(), t, acc));
        inputs.push(t);
    }
    map(&inputs, &[(&out.tensor, value)], &shape)?;
    Ok(out)
}

/// Checks a gate matrix `[batch, n * hidden]` against the hidden state `[batch, hidden]`.
fn check_gates(name: &str, gates: &TensorRef, state: &TensorRef, n: i64) -> Result<()> {
    if gates.sizes.len() != 2
        || state.sizes.len() != 2
        || gates.sizes[0] != state.sizes[0]
        || gates.sizes[1] != n * state.sizes[1]
    {
        return Err(Error::runtime(format!(
            "{name}: expected gates of size [batch, {n} * hidden] for a state of size [batch, hidden], got {:?} and {:?}",
            gates.sizes, state.sizes
        )));
    }
    Ok(())
}

/// `_thnn_fused_lstm_cell(input_gates, hidden_gates, cx, input_bias?, hidden_bias?) -> (hy,
/// cy, workspace)`: gates in the order input, forget, cell, output; the workspace holds
/// their activations.
fn lstm_cell(call: &mut Call) -> Result<()> {
    let (ig, hg, cx) = (call.tensor(0)?, call.tensor(1)?, call.tensor(2)?);
    let (b1, b2) = (call.optional_tensor(3)?, call.optional_tensor(4)?);
    check_gates("_thnn_fused_lstm_cell", &ig, &cx, 4)?;
    let acc = ig.dtype.float_acc();
    let (batch, hidden) = (cx.sizes[0], cx.sizes[1]);
    let hy = call.create(&cx.sizes, ig.dtype, ig.device)?;
    let cy = call.create(&cx.sizes, ig.dtype, ig.device)?;
    let workspace = call.create(&ig.sizes, ig.dtype, ig.device)?;
    if batch * hidden == 0 {
        return Ok(());
    }
    let gates = sum_gates(&ig, Some(&hg), [b1.as_ref(), b2.as_ref()], acc)?;
    let g: Vec<TensorRef> = (0..4)
        .map(|k| chunk(&gates.tensor, k, hidden, batch))
        .collect();
    let w: Vec<TensorRef> = (0..4)
        .map(|k| chunk(&workspace, k, hidden, batch))
        .collect();
    let (i, f, c, o) = (
        sigmoid(arg(0, &g[0], acc)),
        sigmoid(arg(1, &g[1], acc)),
        arg(2, &g[2], acc).tanh(),
        sigmoid(arg(3, &g[3], acc)),
    );
    let c_new = f
        .clone()
        .mul(arg(4, &cx, acc))
        .add(i.clone().mul(c.clone()));
    let h_new = o.clone().mul(c_new.clone().tanh());
    map(
        &[&g[0], &g[1], &g[2], &g[3], &cx],
        &[
            (&hy, h_new),
            (&cy, c_new),
            (&w[0], i),
            (&w[1], f),
            (&w[2], c),
            (&w[3], o),
        ],
        &cx.sizes,
    )
}

/// `_thnn_fused_lstm_cell_backward_impl(grad_hy?, grad_cy?, cx, cy, workspace, has_bias) ->
/// (grad_gates, grad_cx, grad_bias)`.
fn lstm_cell_backward(call: &mut Call) -> Result<()> {
    let (ghy, gcy) = (call.optional_tensor(0)?, call.optional_tensor(1)?);
    let (cx, cy, workspace) = (call.tensor(2)?, call.tensor(3)?, call.tensor(4)?);
    let has_bias = call.boolean(5)?;
    let acc = workspace.dtype.float_acc();
    let (batch, hidden) = (cx.sizes[0], cx.sizes[1]);
    let device = workspace.device;
    let grad_gates = call.create(&workspace.sizes, workspace.dtype, device)?;
    let grad_cx = call.create(&cx.sizes, workspace.dtype, device)?;
    if batch * hidden > 0 {
        let w: Vec<TensorRef> = (0..4)
            .map(|k| chunk(&workspace, k, hidden, batch))
            .collect();
        let gg: Vec<TensorRef> = (0..4)
            .map(|k| chunk(&grad_gates, k, hidden, batch))
            .collect();
        let mut inputs: Vec<&TensorRef> = vec![&w[0], &w[1], &w[2], &w[3], &cx, &cy];
        let (i, f, c, o) = (
            arg(0, &w[0], acc),
            arg(1, &w[1], acc),
            arg(2, &w[2], acc),
            arg(3, &w[3], acc),
        );
        let (cx_v, cy_v) = (arg(4, &cx, acc), arg(5, &cy, acc));
        let dh = gradient(&ghy, inputs.len(), acc);
        inputs.extend(ghy.as_ref());
        let dc = gradient(&gcy, inputs.len(), acc);
        inputs.extend(gcy.as_ref());
        let t = cy_v.tanh();
        let d_o = dh.clone().mul(t.clone()).mul(sigmoid_slope(o.clone(), acc));
        let d_c = dh.mul(o).mul(tanh_slope(t, acc)).add(dc);
        let d_i = d_c
            .clone()
            .mul(c.clone())
            .mul(sigmoid_slope(i.clone(), acc));
        let d_f = d_c.clone().mul(cx_v).mul(sigmoid_slope(f.clone(), acc));
        let d_g = d_c.clone().mul(i).mul(tanh_slope(c, acc));
        map(
            &inputs,
            &[
                (&gg[0], d_i),
                (&gg[1], d_f),
                (&gg[2], d_g),
                (&gg[3], d_o),
                (&grad_cx, d_c.mul(f)),
            ],
            &cx.sizes,
        )?;
    }
    bias_gradients(call, has_bias, &[&grad_gates])
}

/// Map input `index` for a gradient, or zero for an undefined one.
fn gradient(t: &Option<TensorRef>, index: usize, acc: DType) -> Expr {
    match t {
        Some(t) => arg(index, t, acc),
        None => Expr::constant(acc, 0.0),
    }
}

/// The bias gradients (the gate gradients summed over the batch) when `has_bias`, else
/// undefined results.
fn bias_gradients(call: &mut Call, has_bias: bool, gates: &[&TensorRef]) -> Result<()> {
    for g in gates {
        if !has_bias {
            call.return_undefined();
            continue;
        }
        let out = call.create(&[g.sizes[1]], g.dtype, g.device)?;
        sum_into(g, &[true, false], &out)?;
    }
    Ok(())
}

/// `_thnn_fused_gru_cell(input_gates, hidden_gates, hx, input_bias?, hidden_bias?) -> (hy,
/// workspace)`: gates in the order reset, update, new; the workspace holds the reset, update
/// and new activations, `hx` and the hidden part of the new gate (with its bias).
fn gru_cell(call: &mut Call) -> Result<()> {
    let (ig, hg, hx) = (call.tensor(0)?, call.tensor(1)?, call.tensor(2)?);
    let (b1, b2) = (call.optional_tensor(3)?, call.optional_tensor(4)?);
    check_gates("_thnn_fused_gru_cell", &ig, &hx, 3)?;
    let acc = ig.dtype.float_acc();
    let (batch, hidden) = (hx.sizes[0], hx.sizes[1]);
    let hy = call.create(&hx.sizes, ig.dtype, ig.device)?;
    let workspace = call.create(&[batch, 5 * hidden], ig.dtype, ig.device)?;
    if batch * hidden == 0 {
        return Ok(());
    }
    let input = sum_gates(&ig, None, [b1.as_ref(), None], acc)?;
    let hidden_part = sum_gates(&hg, None, [b2.as_ref(), None], acc)?;
    let x: Vec<TensorRef> = (0..3)
        .map(|k| chunk(&input.tensor, k, hidden, batch))
        .collect();
    let h: Vec<TensorRef> = (0..3)
        .map(|k| chunk(&hidden_part.tensor, k, hidden, batch))
        .collect();
    let w: Vec<TensorRef> = (0..5)
        .map(|k| chunk(&workspace, k, hidden, batch))
        .collect();
    let r = sigmoid(arg(0, &x[0], acc).add(arg(3, &h[0], acc)));
    let z = sigmoid(arg(1, &x[1], acc).add(arg(4, &h[1], acc)));
    let hn = arg(5, &h[2], acc);
    let n = arg(2, &x[2], acc).add(r.clone().mul(hn.clone())).tanh();
    let hx_v = arg(6, &hx, acc);
    let h_new = n.clone().add(z.clone().mul(hx_v.clone().sub(n.clone())));
    map(
        &[&x[0], &x[1], &x[2], &h[0], &h[1], &h[2], &hx],
        &[
            (&hy, h_new),
            (&w[0], r),
            (&w[1], z),
            (&w[2], n),
            (&w[3], hx_v),
            (&w[4], hn),
        ],
        &hx.sizes,
    )
}

/// `_thnn_fused_gru_cell_backward(grad_hy, workspace, has_bias) -> (grad_input_gates,
/// grad_hidden_gates, grad_hx, grad_input_bias, grad_hidden_bias)`.
fn gru_cell_backward(call: &mut Call) -> Result<()> {
    let (ghy, workspace) = (call.tensor(0)?, call.tensor(1)?);
    let has_bias = call.boolean(2)?;
    let acc = workspace.dtype.float_acc();
    let (batch, hidden) = (ghy.sizes[0], ghy.sizes[1]);
    let device = workspace.device;
    let gates = [batch, 3 * hidden];
    let grad_input = call.create(&gates, workspace.dtype, device)?;
    let grad_hidden = call.create(&gates, workspace.dtype, device)?;
    let grad_hx = call.create(&ghy.sizes, workspace.dtype, device)?;
    if batch * hidden > 0 {
        let w: Vec<TensorRef> = (0..5)
            .map(|k| chunk(&workspace, k, hidden, batch))
            .collect();
        let gi: Vec<TensorRef> = (0..3)
            .map(|k| chunk(&grad_input, k, hidden, batch))
            .collect();
        let gh: Vec<TensorRef> = (0..3)
            .map(|k| chunk(&grad_hidden, k, hidden, batch))
            .collect();
        let (r, z, n, hx, hn) = (
            arg(0, &w[0], acc),
            arg(1, &w[1], acc),
            arg(2, &w[2], acc),
            arg(3, &w[3], acc),
            arg(4, &w[4], acc),
        );
        let dh = arg(5, &ghy, acc);
        let d_z = dh
            .clone()
            .mul(hx.sub(n.clone()))
            .mul(sigmoid_slope(z.clone(), acc));
        let d_n = dh
            .clone()
            .mul(one(acc).sub(z.clone()))
            .mul(tanh_slope(n, acc));
        let d_r = d_n.clone().mul(hn).mul(sigmoid_slope(r.clone(), acc));
        map(
            &[&w[0], &w[1], &w[2], &w[3], &w[4], &ghy],
            &[
                (&gi[0], d_r.clone()),
                (&gi[1], d_z.clone()),
                (&gi[2], d_n.clone()),
                (&gh[0], d_r),
                (&gh[1], d_z),
                (&gh[2], d_n.mul(r)),
                (&grad_hx, dh.mul(z)),
            ],
            &ghy.sizes,
        )?;
    }
    bias_gradients(call, has_bias, &[&grad_input, &grad_hidden])
}
