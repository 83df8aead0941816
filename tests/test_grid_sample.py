"""F.grid_sample (4-D and 5-D) on mojo against the CPU: every interpolation and padding mode,
with and without align_corners, gradients for the input and the grid, a large grid, and half
precision (computed in float32 and rounded once: closer to a float64 reference than the
CPU's, which computes coordinates in half precision)."""

import pytest
import torch
import torch.nn.functional as F


def run(device, x, grid, grad, **kwargs):
    x = x.detach().to(device).requires_grad_()
    grid = grid.detach().to(device).requires_grad_()
    out = F.grid_sample(x, grid, **kwargs)
    out.backward(grad.to(device))
    return out.cpu(), x.grad.cpu(), grid.grad.cpu()


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_matches_cpu(device, mode, padding_mode, align_corners):
    torch.manual_seed(0)
    x = torch.randn(2, 3, 7, 9)
    grid = torch.rand(2, 5, 6, 2) * 2.4 - 1.2
    kwargs = dict(mode=mode, padding_mode=padding_mode, align_corners=align_corners)
    grad = torch.randn(2, 3, 5, 6)
    expected = run("cpu", x, grid, grad, **kwargs)
    actual = run(device, x, grid, grad, **kwargs)
    for name, a, e in zip(("out", "grad input", "grad grid"), actual, expected, strict=True):
        torch.testing.assert_close(a, e, atol=1e-4, rtol=1e-4, msg=lambda m, n=name: f"{n}: {m}")


def test_large_grid(device):
    torch.manual_seed(0)
    x = torch.randn(1, 3, 256, 256)
    grid = torch.rand(1, 200, 300, 2) * 2 - 1
    grad = torch.randn(1, 3, 200, 300)
    expected = run("cpu", x, grid, grad)
    actual = run(device, x, grid, grad)
    for a, e in zip(actual, expected, strict=True):
        torch.testing.assert_close(a, e, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_precision_is_rounded_once(device, dtype):
    torch.manual_seed(0)
    x = (torch.rand(2, 3, 5, 20) * 18 - 9).to(dtype)
    grid = (torch.rand(2, 13, 10, 2) * 2.4 - 1.2).to(dtype)
    reference = F.grid_sample(x.double(), grid.double(), align_corners=False)
    ours = F.grid_sample(x.to(device), grid.to(device), align_corners=False).cpu()
    assert ours.dtype == dtype
    ulp = {torch.float16: 2**-10, torch.bfloat16: 2**-7}[dtype]
    bound = reference.abs() * ulp + ulp * 2**-4
    assert ((ours.double() - reference).abs() <= bound).all()


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_volumes_match_cpu(device, mode, padding_mode, align_corners):
    torch.manual_seed(0)
    x = torch.randn(2, 3, 4, 5, 6)
    grid = torch.rand(2, 3, 4, 5, 3) * 2.6 - 1.3
    kwargs = dict(mode=mode, padding_mode=padding_mode, align_corners=align_corners)
    grad = torch.randn(2, 3, 3, 4, 5)
    expected = run("cpu", x, grid, grad, **kwargs)
    actual = run(device, x, grid, grad, **kwargs)
    for name, a, e in zip(("out", "grad input", "grad grid"), actual, expected, strict=True):
        torch.testing.assert_close(a, e, atol=1e-4, rtol=1e-4, msg=lambda m, n=name: f"{n}: {m}")
