"""Nearest and linear resampling and reflection/replication/circular padding on mojo against
the CPU (sizes, scale factors, nearest-exact, 1d/2d/3d, channels_last) with gradients."""

import pytest
import torch
import torch.nn.functional as F

CASES = {
    "double": dict(scale_factor=2),
    "size": dict(size=(7, 5)),
    "downsample": dict(size=(3, 4)),
    "scale": dict(scale_factor=(2.5, 1.5)),
    "exact": dict(size=(7, 5), mode="nearest-exact"),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("channels_last", [False, True])
def test_2d_matches_cpu(device, name, channels_last):
    torch.manual_seed(0)
    x = torch.randn(2, 3, 5, 6)
    if channels_last:
        x = x.to(memory_format=torch.channels_last)
    kwargs = dict(mode="nearest") | CASES[name]
    cpu = x.detach().requires_grad_()
    ours = x.detach().to(device).requires_grad_()
    expected, actual = F.interpolate(cpu, **kwargs), F.interpolate(ours, **kwargs)
    torch.testing.assert_close(actual.cpu(), expected, rtol=0, atol=0)
    grad = torch.randn_like(expected)
    expected.backward(grad)
    actual.backward(grad.to(device))
    torch.testing.assert_close(ours.grad.cpu(), cpu.grad)


@pytest.mark.parametrize("shape", [(2, 3, 9), (1, 2, 3, 4, 5)])
def test_1d_3d(device, shape):
    x = torch.randn(shape)
    for mode in ["nearest", "nearest-exact"]:
        expected = F.interpolate(x, scale_factor=3, mode=mode)
        actual = F.interpolate(x.to(device), scale_factor=3, mode=mode)
        torch.testing.assert_close(actual.cpu(), expected, rtol=0, atol=0)


def test_integers_and_large(device):
    x = torch.randint(0, 100, (2, 4, 64, 80), dtype=torch.uint8)
    expected = F.interpolate(x, scale_factor=4)
    actual = F.interpolate(x.to(device), scale_factor=4)
    torch.testing.assert_close(actual.cpu(), expected, rtol=0, atol=0)


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
@pytest.mark.parametrize(
    "shape,pad",
    [
        ((2, 3, 7), (2, 3)),
        ((2, 3, 5, 6), (1, 2, 3, 4)),
        ((3, 4, 5, 6), (2, 1, 0, 3)),
        ((1, 2, 3, 4, 5), (1, 1, 2, 0, 2, 1)),
    ],
)
def test_padding_matches_cpu(device, mode, shape, pad):
    torch.manual_seed(0)
    x = torch.randn(shape)
    cpu = x.detach().requires_grad_()
    ours = x.detach().to(device).requires_grad_()
    expected, actual = F.pad(cpu, pad, mode=mode), F.pad(ours, pad, mode=mode)
    torch.testing.assert_close(actual.cpu(), expected, rtol=0, atol=0)
    grad = torch.randn_like(expected)
    expected.backward(grad)
    actual.backward(grad.to(device))
    torch.testing.assert_close(ours.grad.cpu(), cpu.grad)


def test_reflection_padding_too_large_errors(device):
    with pytest.raises(RuntimeError, match="Padding size should be less than"):
        F.pad(torch.randn(1, 2, 3, device=device), (3, 0), mode="reflect")


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize(
    "mode,shape,kwargs",
    [
        ("linear", (2, 3, 9), dict(scale_factor=2.5)),
        ("bilinear", (2, 3, 5, 6), dict(size=(11, 4))),
        ("bilinear", (2, 3, 5, 6), dict(scale_factor=(0.5, 1.7))),
        ("trilinear", (1, 2, 3, 4, 5), dict(scale_factor=2)),
        ("bicubic", (2, 3, 5, 7), dict(size=(9, 4))),
        ("bicubic", (1, 2, 8, 8), dict(scale_factor=1.7)),
        ("bicubic", (1, 1, 1, 1), dict(size=(3, 2))),
        ("bicubic", (1, 3, 300, 200), dict(size=(97, 411))),
    ],
)
def test_linear_interpolation_matches_cpu(device, mode, shape, kwargs, align_corners):
    torch.manual_seed(0)
    x = torch.randn(shape)
    kwargs = dict(mode=mode, align_corners=align_corners) | kwargs
    cpu = x.detach().requires_grad_()
    ours = x.detach().to(device).requires_grad_()
    expected, actual = F.interpolate(cpu, **kwargs), F.interpolate(ours, **kwargs)
    # Bicubic weights and their sums round differently from the CPU's (both are 9e-5 off a
    # float64 computation at the largest case; they differ from each other by 1.4e-5), and
    # each input gradient sums many of them.
    tolerance = dict(atol=5e-5, rtol=1e-4) if mode == "bicubic" else {}
    torch.testing.assert_close(actual.cpu(), expected, **tolerance)
    grad = torch.randn_like(expected)
    expected.backward(grad)
    actual.backward(grad.to(device))
    torch.testing.assert_close(ours.grad.cpu(), cpu.grad, **tolerance)


def test_unet_block_trains_like_cpu(device):
    def train(where):
        torch.manual_seed(0)
        down = torch.nn.Sequential(
            torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.GroupNorm(2, 8), torch.nn.SiLU()
        ).to(where)
        up = torch.nn.Sequential(
            torch.nn.Conv2d(16, 8, 3, padding=1, padding_mode="reflect"),
            torch.nn.SiLU(),
            torch.nn.ConvTranspose2d(8, 3, 2, stride=2),
        ).to(where)
        params = list(down.parameters()) + list(up.parameters())
        optimizer = torch.optim.AdamW(params, lr=1e-2)
        x = torch.randn(4, 3, 16, 16).to(where)
        losses = []
        for _ in range(10):
            optimizer.zero_grad()
            skip = down(x)
            low = F.max_pool2d(skip, 2)
            back = F.interpolate(low, scale_factor=2, mode="bilinear")
            out = up(torch.cat([back, skip], dim=1))
            loss = F.mse_loss(out, torch.zeros_like(out))
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        return losses

    assert train(device) == pytest.approx(train("cpu"), rel=1e-3)


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize(
    "shape, size, align_corners",
    [
        ((2, 3, 32, 40), (13, 57), False),
        ((1, 2, 64, 64), (16, 16), False),
        ((1, 1, 9, 7), (20, 3), False),
        ((1, 2, 30, 30), (7, 11), True),
        ((2, 3, 500, 375), (224, 168), False),
    ],
)
def test_antialiased_resampling_matches_cpu(device, mode, shape, size, align_corners):
    """antialias=True (torchvision's Resize on tensors): the filter stretched over every
    input position under each output position, forward and backward."""
    torch.manual_seed(0)
    x = torch.randn(shape)
    kwargs = dict(size=size, mode=mode, antialias=True, align_corners=align_corners)
    cpu = x.detach().requires_grad_()
    ours = x.detach().to(device).requires_grad_()
    expected, actual = F.interpolate(cpu, **kwargs), F.interpolate(ours, **kwargs)
    torch.testing.assert_close(actual.cpu(), expected, atol=1e-5, rtol=1e-5)
    grad = torch.randn_like(expected)
    expected.backward(grad)
    actual.backward(grad.to(device))
    torch.testing.assert_close(ours.grad.cpu(), cpu.grad, atol=1e-5, rtol=1e-5)
