"""Randomized leaky ReLU (python/torch_mojo_backend/_rrelu.py): in evaluation the CPU's
leaky ReLU with the mean slope; in training slopes drawn in [lower, upper] for the elements
at or below zero (written to `noise`), the gradient scaled by the same slopes, reproducible
from the generator's seed, and the in-place form alike."""

import torch
import torch.nn.functional as F

N = 70_001


def test_evaluation_is_the_mean_slope(device):
    x = torch.randn(N)
    torch.testing.assert_close(F.rrelu(x.to(device), 0.1, 0.3).cpu(), F.rrelu(x, 0.1, 0.3))


def test_training_draws_slopes_in_range_and_differentiates_through_them(device):
    x = torch.randn(N, device=device, requires_grad=True)
    y = F.rrelu(x, 0.1, 0.3, training=True)
    g = torch.randn(N, device=device)
    (grad,) = torch.autograd.grad(y, x, g)
    x, y, g, grad = (t.detach().cpu() for t in (x, y, g, grad))
    positive = x > 0
    assert torch.equal(y[positive], x[positive])
    assert torch.equal(grad[positive], g[positive])
    slopes = y[~positive] / x[~positive]
    assert slopes.min() >= 0.1 - 1e-6 and slopes.max() <= 0.3 + 1e-6
    assert 0.19 < slopes.mean() < 0.21, slopes.mean()
    torch.testing.assert_close(grad[~positive], g[~positive] * slopes)


def test_noise_holds_the_slopes_and_the_seed_reproduces_them(device):
    x = torch.randn(1000, device=device)
    runs = []
    for _ in range(2):
        torch.manual_seed(7)
        noise = torch.empty_like(x)
        runs.append((torch.ops.aten.rrelu_with_noise(x, noise, 0.1, 0.3, True), noise))
    (y, noise), (y2, _) = runs
    assert torch.equal(y.cpu(), y2.cpu())
    torch.testing.assert_close(y.cpu(), (x * noise).cpu())
    assert (noise.cpu()[(x > 0).cpu()] == 1).all()


def test_in_place_and_module(device):
    x = torch.randn(500)
    inplace = x.to(device)
    torch.manual_seed(3)
    F.rrelu(inplace, 0.1, 0.3, training=True, inplace=True)
    torch.manual_seed(3)
    assert torch.equal(inplace.cpu(), F.rrelu(x.to(device), 0.1, 0.3, training=True).cpu())
    module = torch.nn.RReLU(0.1, 0.3).to(device).eval()
    torch.testing.assert_close(module(x.to(device)).cpu(), torch.nn.RReLU(0.1, 0.3).eval()(x))
