"""Rescalings by a norm on mojo against the CPU: weight normalization (both parametrizations,
along the first and last dimension, forward and gradients, half precision) and
nn.Embedding's max_norm renormalization (repeated indices, other norms, half precision)."""

import pytest
import torch


@pytest.mark.parametrize("dim", [0, -1])
@pytest.mark.parametrize("shape", [(5, 3), (4, 3, 2, 2)])
def test_weight_norm_matches_cpu(device, dim, shape):
    torch.manual_seed(0)
    v = torch.randn(shape, dtype=torch.float64, requires_grad=True)
    g_shape = [1] * len(shape)
    g_shape[dim] = shape[dim]
    g = torch.rand(g_shape, dtype=torch.float64, requires_grad=True)
    w = torch._weight_norm(v, g, dim % len(shape))
    (w.sin() * torch.arange(w.numel()).view_as(w)).sum().backward()
    vm = v.detach().to(device).requires_grad_()
    gm = g.detach().to(device).requires_grad_()
    wm = torch._weight_norm(vm, gm, dim % len(shape))
    (wm.sin() * torch.arange(wm.numel(), device=device).view_as(wm)).sum().backward()
    torch.testing.assert_close(wm.cpu(), w.detach(), rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(vm.grad.cpu(), v.grad, rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(gm.grad.cpu(), g.grad, rtol=1e-10, atol=1e-12)


def test_weight_norm_modules_and_half(device):
    torch.manual_seed(1)
    conv = torch.nn.utils.parametrizations.weight_norm(torch.nn.Conv1d(4, 6, 3))
    mojo = torch.nn.utils.parametrizations.weight_norm(torch.nn.Conv1d(4, 6, 3)).to(device)
    mojo.load_state_dict(conv.state_dict())
    x = torch.randn(2, 4, 9)
    torch.testing.assert_close(mojo(x.to(device)).cpu(), conv(x), rtol=1e-5, atol=1e-6)
    _, norms = torch._weight_norm_interface(
        torch.randn(6, 4, device=device, dtype=torch.float16),
        torch.rand(6, 1, device=device, dtype=torch.float16),
        0,
    )
    assert norms.dtype == torch.float32  # as CUDA's and the CPU's
    legacy = torch.nn.utils.weight_norm(torch.nn.Linear(3, 5).to(device), dim=None)
    assert legacy(torch.randn(2, 3, device=device)).shape == (2, 5)


@pytest.mark.parametrize("norm_type", [2.0, 1.0])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_embedding_max_norm_matches_cpu(device, norm_type, dtype):
    torch.manual_seed(2)
    weight = torch.randn(30, 8) * 2
    indices = torch.tensor([[1, 2, 2, 29], [5, 1, 7, 7]])
    cpu = torch.nn.functional.embedding(indices, weight.clone(), max_norm=1.5, norm_type=norm_type)
    mojo_weight = weight.to(device, dtype)
    got = torch.nn.functional.embedding(
        indices.to(device), mojo_weight, max_norm=1.5, norm_type=norm_type
    )
    tol = 1e-6 if dtype == torch.float32 else 2e-3
    torch.testing.assert_close(got.float().cpu(), cpu, rtol=tol, atol=tol)
    # The weight is renormalized in place, rows named twice once; the others are untouched.
    expected = weight.clone()
    torch.nn.functional.embedding(indices, expected, max_norm=1.5, norm_type=norm_type)
    torch.testing.assert_close(mojo_weight.float().cpu(), expected, rtol=tol, atol=tol)
