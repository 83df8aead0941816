"""Max and average pooling on mojo against the CPU: padding, dilation, ceil_mode, strides,
divisors, channels_last, 1d/2d/3d, NaN and ties, and gradients."""

import pytest
import torch
import torch.nn.functional as F


def compare(device, fn, x, atol=1e-5, rtol=1e-4):
    cpu = x.detach().requires_grad_()
    ours = x.detach().to(device).requires_grad_()
    expected, actual = fn(cpu), fn(ours)
    if isinstance(expected, tuple):
        for e, a in zip(expected, actual, strict=True):
            torch.testing.assert_close(a.cpu(), e, atol=atol, rtol=rtol, equal_nan=True)
        expected, actual = expected[0], actual[0]
    else:
        torch.testing.assert_close(actual.cpu(), expected, atol=atol, rtol=rtol, equal_nan=True)
    grad = torch.linspace(-1, 1, expected.numel()).reshape(expected.shape)
    expected.backward(grad)
    actual.backward(grad.to(device))
    torch.testing.assert_close(ours.grad.cpu(), cpu.grad, atol=atol, rtol=rtol)


CASES = {
    "max2d": lambda x: F.max_pool2d(x, 3, 2, 1, return_indices=True),
    "max2d_dilated_ceil": lambda x: F.max_pool2d(
        x, (3, 2), (2, 3), (1, 1), dilation=(2, 1), ceil_mode=True, return_indices=True
    ),
    "max1d": lambda x: F.max_pool1d(x.flatten(2), 4, 3, 2, return_indices=True),
    "max3d": lambda x: F.max_pool3d(x.unsqueeze(2).expand(-1, -1, 3, -1, -1), 2, 1, 1),
    "avg2d": lambda x: F.avg_pool2d(x, 3, 2, 1),
    "avg2d_exclude_pad_ceil": lambda x: F.avg_pool2d(
        x, 3, 2, 1, ceil_mode=True, count_include_pad=False
    ),
    "avg2d_divisor": lambda x: F.avg_pool2d(x, (2, 3), divisor_override=5),
    "avg1d": lambda x: F.avg_pool1d(x.flatten(2), 5, 2, 2),
    "avg3d": lambda x: F.avg_pool3d(x.unsqueeze(2).expand(-1, -1, 4, -1, -1), 3, 2, 1),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("channels_last", [False, True])
def test_matches_cpu(device, name, channels_last):
    torch.manual_seed(0)
    x = torch.randn(2, 3, 11, 13)
    if channels_last:
        x = x.to(memory_format=torch.channels_last)
    compare(device, CASES[name], x)


def test_channels_last_stays_channels_last(device):
    x = torch.randn(2, 5, 8, 8).to(memory_format=torch.channels_last).to(device)
    assert F.max_pool2d(x, 2).is_contiguous(memory_format=torch.channels_last)


def test_nan_and_ties_pick_like_cpu(device):
    x = torch.zeros(1, 2, 6, 6)
    x[0, 0, 1, 1] = float("nan")
    x[0, 1, 2:4, 2:4] = 5.0
    for fn in [CASES["max2d"], lambda t: F.max_pool2d(t, 2, return_indices=True)]:
        expected = fn(x)
        actual = fn(x.to(device))
        torch.testing.assert_close(actual[0].cpu(), expected[0], equal_nan=True)
        torch.testing.assert_close(actual[1].cpu(), expected[1])


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int32, torch.int64, torch.float16])
def test_max_pool_dtypes(device, dtype):
    x = torch.randint(0, 5, (2, 3, 9, 9)).to(dtype)
    expected = F.max_pool2d(x, 3, 2, 1, return_indices=True)
    actual = F.max_pool2d(x.to(device), 3, 2, 1, return_indices=True)
    for e, a in zip(expected, actual, strict=True):
        torch.testing.assert_close(a.cpu(), e)


def test_large_planes(device):
    # 8 x 16 planes of 128 x 128: more windows than one launch row, gradients accumulate
    # from overlapping windows.
    torch.manual_seed(0)
    x = torch.randn(8, 16, 128, 128)
    compare(device, lambda t: F.max_pool2d(t, 3, 2, 1), x)
    compare(device, lambda t: F.avg_pool2d(t, 3, 2, 1), x)


def test_errors(device):
    with pytest.raises(RuntimeError, match="pad should be"):
        F.max_pool2d(torch.randn(1, 1, 5, 5, device=device), 2, padding=2)
    with pytest.raises(RuntimeError):
        F.max_pool3d(torch.randn(0, 1, 2, 10, device=device), 1)


@pytest.mark.parametrize(
    "fn",
    [
        lambda t: F.adaptive_avg_pool2d(t, (4, 5)),
        lambda t: F.adaptive_avg_pool2d(t, (7, 3)),
        lambda t: F.adaptive_avg_pool1d(t.flatten(2), 6),
        lambda t: F.adaptive_avg_pool3d(t.unsqueeze(2).expand(-1, -1, 5, -1, -1), (2, 3, 4)),
    ],
)
def test_adaptive_average_matches_cpu(device, fn):
    torch.manual_seed(0)
    compare(device, fn, torch.randn(2, 3, 11, 13))


@pytest.mark.parametrize("size", [(4, 5), (7, 3), (11, 13)])
def test_adaptive_max_matches_cpu(device, size):
    torch.manual_seed(0)
    x = torch.randn(2, 3, 11, 13)
    x[0, 0, 2, 3] = float("nan")
    x[1, 2, 4:6, 4:6] = 7.0  # ties: the first in window order wins
    compare(device, lambda t: F.adaptive_max_pool2d(t, size, return_indices=True), x)
    compare(device, lambda t: F.adaptive_max_pool1d(t.flatten(2), 6, return_indices=True), x)
