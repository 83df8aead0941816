"""The Transformer inference fast path (eval mode, no_grad) on mojo against the CPU: the fused
encoder layer, the nested-tensor path a padding mask takes, and MultiheadAttention's fused op,
each checked to run (the profiler sees the fused op) and to equal the CPU."""

import pytest
import torch
from torch import nn


def fused_ops(fn) -> set:
    """The fast-path ops `fn` runs."""
    with torch.profiler.profile() as prof:
        fn()
    names = {e.key for e in prof.key_averages()}
    return {n for n in names if "_transformer_encoder_layer_fwd" in n or "native_multi_head" in n}


def run_both(device, module, *inputs, **kwargs):
    """The module's eval output on the CPU and on mojo (copied there), and the fast-path ops
    the mojo run reached."""
    module = module.eval()
    with torch.no_grad():
        expected = module(*inputs, **kwargs)
        module = module.to(device)
        moved = [x.to(device) for x in inputs]
        moved_kwargs = {k: v.to(device) for k, v in kwargs.items()}
        ops = fused_ops(lambda: module(*moved, **moved_kwargs))
        actual = module(*moved, **moved_kwargs)
    return expected, actual, ops


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_encoder_layers(device, norm_first, activation):
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(
        32, 4, 64, activation=activation, norm_first=norm_first, batch_first=True
    )
    encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
    x = torch.randn(3, 7, 32)
    expected, actual, ops = run_both(device, encoder, x)
    assert any("_transformer_encoder_layer_fwd" in op for op in ops), ops
    torch.testing.assert_close(actual.cpu(), expected, atol=2e-5, rtol=2e-5)


def test_causal_mask(device):
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(32, 4, 64, batch_first=True)
    encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
    x = torch.randn(2, 9, 32)
    mask = nn.Transformer.generate_square_subsequent_mask(9)
    expected, actual, _ = run_both(device, encoder, x, mask=mask)
    torch.testing.assert_close(actual.cpu(), expected, atol=2e-5, rtol=2e-5)


def test_padding_mask_takes_the_nested_path(device):
    """A left-aligned padding mask packs the batch into a nested tensor; padded positions come
    out as zeros, as on the CPU."""
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(32, 4, 64, batch_first=True)
    encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=True)
    x = torch.randn(3, 7, 32)
    padding = torch.zeros(3, 7, dtype=torch.bool)
    padding[1, 5:] = True
    padding[2, 3:] = True
    expected, actual, ops = run_both(device, encoder, x, src_key_padding_mask=padding)
    assert any("_transformer_encoder_layer_fwd" in op for op in ops), ops
    assert actual.cpu()[2, 3:].abs().max() == 0
    torch.testing.assert_close(actual.cpu(), expected, atol=2e-5, rtol=2e-5)


@pytest.mark.parametrize("need_weights, average", [(False, True), (True, True), (True, False)])
def test_multi_head_self_attention(device, need_weights, average):
    torch.manual_seed(0)
    mha = nn.MultiheadAttention(32, 4, batch_first=True)
    x = torch.randn(3, 6, 32)
    padding = torch.zeros(3, 6, dtype=torch.bool)
    padding[0, 4:] = True
    mha.eval()
    with torch.no_grad():
        expected = mha(
            x,
            x,
            x,
            key_padding_mask=padding,
            need_weights=need_weights,
            average_attn_weights=average,
        )
        mha.to(device)
        xm, pm = x.to(device), padding.to(device)

        def call():
            return mha(
                xm,
                xm,
                xm,
                key_padding_mask=pm,
                need_weights=need_weights,
                average_attn_weights=average,
            )

        assert fused_ops(call), "the fast path was not taken"
        actual = call()
    torch.testing.assert_close(actual[0].cpu(), expected[0], atol=2e-5, rtol=2e-5)
    if need_weights:
        torch.testing.assert_close(actual[1].cpu(), expected[1], atol=2e-5, rtol=2e-5)
    else:
        assert actual[1] is None and expected[1] is None
