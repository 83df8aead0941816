"""Autocast with CUDA's per-op policy (the spec's Mixed precision section)."""

import pytest
import torch


def test_the_spec_autocast_example(device):
    model = torch.nn.Linear(16, 4).to(device)
    x = torch.randn(8, 16, device=device)
    target = torch.randint(0, 4, (8,), device=device)
    with torch.autocast(torch.device(device).type, dtype=torch.bfloat16):
        logits = model(x)
        loss = torch.nn.functional.cross_entropy(logits, target)
    loss.backward()
    assert (logits.dtype, loss.dtype, model.weight.grad.dtype) == (
        torch.bfloat16,
        torch.float32,
        torch.float32,
    )


def test_default_dtype_is_float16_and_policies_follow_cuda(device):
    a = torch.randn(4, 4, device=device)
    with torch.autocast("mojo"):
        assert torch.get_autocast_dtype("mojo") == torch.float16
        assert (a @ a).dtype == torch.float16  # lower precision
        assert torch.softmax(a, 0).dtype == torch.float32  # float32 policy
        assert torch.addcmul(a, a.half(), a).dtype == torch.float32  # promote
        with pytest.raises(RuntimeError, match="unsafe to autocast"):
            torch.nn.functional.binary_cross_entropy(torch.sigmoid(a), torch.rand(4, 4).to(device))
    assert torch.amp.autocast_mode.is_autocast_available("mojo")
    assert torch.float16 in torch.mojo.get_amp_supported_dtype()


def test_autocast_matches_stock_cpu_bfloat16_matmul(device):
    a, b = torch.randn(8, 16), torch.randn(16, 4)
    with torch.autocast("mojo", dtype=torch.bfloat16):
        ours = (a.to(device) @ b.to(device)).cpu()
    expected = a.bfloat16() @ b.bfloat16()
    torch.testing.assert_close(ours, expected, rtol=1.6e-2, atol=1e-2)
