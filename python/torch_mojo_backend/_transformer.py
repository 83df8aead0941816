"""The Transformer inference fast path on mojo.

In eval mode under no_grad, nn.TransformerEncoderLayer, nn.TransformerEncoder and
nn.MultiheadAttention call fused ATen ops whose kernels PyTorch ships for CPU and CUDA only.
Here they are composed from mojo's kernels (linear, the fused attention, layer norm), with
the CPU kernels' semantics: masks are boolean after conversion (nonzero means masked), a
query that every key is masked from gets zeros. With a padding mask, TransformerEncoder
packs the batch into a nested tensor; its layers run on the padded batch with that mask and
repack, so padded positions come out as the CPU's do (zeros after `to_padded_tensor`).
"""

import torch
import torch.nn.functional as F

_library = None


def _keep_mask(mask, mask_type, batch, heads, queries, keys):
    """The boolean keep-mask for SDPA from a fast-path mask (nonzero: masked), broadcast to
    [batch, heads, queries, keys]: mask_type 1 is a key padding mask [batch, keys], 0 a
    [queries, keys] attention mask, 2 (or None) a mask already broadcastable."""
    if mask is None:
        return None
    masked = mask if mask.dtype == torch.bool else mask != 0
    if mask_type == 1:
        masked = masked.view(batch, 1, 1, keys)
    return masked.logical_not().expand(batch, heads, queries, keys)


def native_multi_head_attention(
    query,
    key,
    value,
    embed_dim,
    num_head,
    qkv_weight,
    qkv_bias,
    proj_weight,
    proj_bias,
    mask=None,
    need_weights=True,
    average_attn_weights=True,
    mask_type=None,
):
    batch, queries, keys = query.size(0), query.size(1), key.size(1)
    width = embed_dim // num_head
    weights = qkv_weight.chunk(3)
    biases = qkv_bias.chunk(3) if qkv_bias is not None else (None, None, None)

    def heads(x, i, length):
        projected = F.linear(x, weights[i], biases[i])
        return projected.view(batch, length, num_head, width).transpose(1, 2)

    q, k, v = heads(query, 0, queries), heads(key, 1, keys), heads(value, 2, keys)
    keep = _keep_mask(mask, mask_type, batch, num_head, queries, keys)
    attn = None
    if need_weights:
        scores = torch.matmul(q, k.transpose(-2, -1)) / width**0.5
        if keep is not None:
            scores = scores.masked_fill(keep.logical_not(), float("-inf"))
        attn = torch.softmax(scores, -1)
        if keep is not None:
            attn = attn.masked_fill(keep.logical_not().all(-1, keepdim=True), 0.0)
        out = torch.matmul(attn, v)
        if average_attn_weights:
            attn = attn.mean(1)
    else:
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
    out = out.transpose(1, 2).reshape(batch, queries, embed_dim)
    return F.linear(out, proj_weight, proj_bias), attn


def transformer_encoder_layer_fwd(
    src,
    embed_dim,
    num_heads,
    qkv_weight,
    qkv_bias,
    proj_weight,
    proj_bias,
    use_gelu,
    norm_first,
    eps,
    norm_weight_1,
    norm_bias_1,
    norm_weight_2,
    norm_bias_2,
    ffn_weight_1,
    ffn_bias_1,
    ffn_weight_2,
    ffn_bias_2,
    mask=None,
    mask_type=None,
):
    def norm(x, weight, bias):
        return F.layer_norm(x, (embed_dim,), weight, bias, eps)

    x = norm(src, norm_weight_1, norm_bias_1) if norm_first else src
    x, _ = native_multi_head_attention(
        x,
        x,
        x,
        embed_dim,
        num_heads,
        qkv_weight,
        qkv_bias,
        proj_weight,
        proj_bias,
        mask,
        False,
        True,
        mask_type,
    )
    x = x + src
    if not norm_first:
        x = norm(x, norm_weight_1, norm_bias_1)
    y = norm(x, norm_weight_2, norm_bias_2) if norm_first else x
    y = F.linear(y, ffn_weight_1, ffn_bias_1)
    y = F.gelu(y) if use_gelu else F.relu(y)
    x = x + F.linear(y, ffn_weight_2, ffn_bias_2)
    return x if norm_first else norm(x, norm_weight_2, norm_bias_2)


def _lengths(mask):
    """Per row of a [batch, length] keep-mask: how many leading entries are kept."""
    return mask.sum(1).tolist()


def nested_tensor_from_mask_left_aligned(t, mask):
    length = mask.size(1)
    positions = torch.arange(length, device=mask.device)
    aligned = positions < mask.sum(1, keepdim=True)
    return bool(torch.equal(aligned, mask))


def nested_tensor_from_mask(t, mask, mask_check=True):
    if mask_check and not nested_tensor_from_mask_left_aligned(t, mask):
        raise RuntimeError("Mask tensor must be left aligned for nested tensor conversion")
    parts = [t[i, :n] for i, n in enumerate(_lengths(mask))]
    return torch._nested_tensor_from_tensor_list(parts)


def to_padded_tensor(nested, padding, output_size=None):
    parts = nested.unbind()
    if output_size is None:
        rank = parts[0].dim() if parts else 0
        output_size = [len(parts)] + [max(p.size(d) for p in parts) for d in range(rank)]
    out = torch.full(
        list(output_size), padding, dtype=nested.dtype, device=parts[0].device if parts else None
    )
    for i, part in enumerate(parts):
        out[(i, *(slice(0, s) for s in part.shape))] = part
    return out


def nested_transformer_encoder_layer_fwd(src, *args):
    """The layer on a nested batch: padded, run with the padding as a key padding mask, and
    repacked. `args` are the dense layer's, after `src`."""
    weights, mask = args[:17], args[17] if len(args) > 17 else None
    if mask is not None:
        raise NotImplementedError(
            "aten::_transformer_encoder_layer_fwd: a nested mojo batch with a mask"
        )
    lengths = [part.size(0) for part in src.unbind()]
    padded = to_padded_tensor(src, 0.0)
    positions = torch.arange(padded.size(1), device=padded.device)
    ends = torch.tensor(lengths, device=padded.device).unsqueeze(1)
    padding = positions.unsqueeze(0) >= ends
    dense = transformer_encoder_layer_fwd(padded, *weights, padding, 1)
    return torch._nested_tensor_from_tensor_list([dense[i, :n] for i, n in enumerate(lengths)])


def register():
    """Registers the fast path's kernels for mojo tensors (PrivateUse1) and nested mojo
    tensors (NestedTensorPrivateUse1)."""
    global _library
    if _library is not None:
        return
    _library = torch.library.Library("aten", "IMPL")
    dense = {
        "_native_multi_head_attention": native_multi_head_attention,
        "_transformer_encoder_layer_fwd": transformer_encoder_layer_fwd,
        "_nested_tensor_from_mask": nested_tensor_from_mask,
        "_nested_tensor_from_mask_left_aligned": nested_tensor_from_mask_left_aligned,
    }
    for name, kernel in dense.items():
        _library.impl(name, kernel, "PrivateUse1")
    nested = {
        "_transformer_encoder_layer_fwd": nested_transformer_encoder_layer_fwd,
        "to_padded_tensor": to_padded_tensor,
    }
    for name, kernel in nested.items():
        _library.impl(name, kernel, "NestedTensorPrivateUse1")
