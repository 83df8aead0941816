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


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_max_unpool_inverts_max_pool(device, dims):
    torch.manual_seed(0)
    pool = [F.max_pool1d, F.max_pool2d, F.max_pool3d][dims - 1]
    unpool = [F.max_unpool1d, F.max_unpool2d, F.max_unpool3d][dims - 1]
    x = torch.randn((2, 3) + (8, 9, 7)[:dims])
    y, indices = pool(x, 2, return_indices=True)
    y.requires_grad_()
    expected = unpool(y, indices, 2, output_size=x.shape[2:])
    grad = torch.randn_like(expected)
    expected.backward(grad)
    ours = y.detach().to(device).requires_grad_()
    actual = unpool(ours, indices.to(device), 2, output_size=x.shape[2:])
    actual.backward(grad.to(device))
    assert torch.equal(actual.cpu(), expected)
    assert torch.equal(ours.grad.cpu(), y.grad)


def test_max_unpool_repeated_index_keeps_the_last_and_bad_index_raises(device):
    # Where indices repeat, the CPU's result depends on its thread schedule (PyTorch documents
    # max_unpool as nondeterministic there); mojo's is the last value in index order.
    values = torch.arange(4.0).view(1, 1, 2, 2)
    repeated = torch.tensor([[[[0, 0], [0, 3]]]])
    actual = F.max_unpool2d(values.to(device), repeated.to(device), 1, output_size=(2, 2))
    assert torch.equal(actual.cpu(), torch.tensor([[[[2.0, 0.0], [0.0, 3.0]]]]))
    outside = torch.tensor([[[[0, 1], [2, 9]]]], device=device)
    with pytest.raises(IndexError, match="max_unpooling2d"):
        F.max_unpool2d(values.to(device), outside, 1, output_size=(2, 2)).cpu()


def test_max_unpool_large_plane(device):
    """A 512 x 512 plane: more positions than one grid row of groups."""
    x = torch.randn(1, 2, 512, 512)
    y, indices = F.max_pool2d(x, 2, return_indices=True)
    expected = F.max_unpool2d(y, indices, 2)
    actual = F.max_unpool2d(y.to(device), indices.to(device), 2)
    assert torch.equal(actual.cpu(), expected)


def fractional(dims):
    return F.fractional_max_pool2d if dims == 2 else F.fractional_max_pool3d


@pytest.mark.parametrize("dims", [2, 3])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16])
def test_fractional_max_pool_matches_cpu(device, dims, dtype):
    """The same random samples give the CPU's windows bit for bit (the starts are computed in
    the input's dtype), with ties (the first maximum) and NaN (the last NaN), batched and not,
    overlapping windows (their gradients sum) and an output of one."""
    cases = [((2, 3, 9, 11), (3, 2), (4, 5)), ((3, 17, 13), 2, (7, 6)), ((1, 2, 4, 4), 2, 1)]
    for shape, kernel, size in cases:
        if dims == 3:
            shape, kernel = shape + (5,), (kernel, kernel) if isinstance(kernel, int) else kernel
            kernel, size = kernel + (2,), (size, size) if isinstance(size, int) else size
            size = size + (3,)
        x = torch.randn(shape).to(dtype)
        x[..., 0] = x[..., 1]
        x.view(-1)[::17] = float("nan")
        planes = (shape[0], shape[1]) if len(shape) == dims + 2 else (1, shape[0])
        samples = torch.rand(*planes, dims, dtype=dtype)

        def pool(t, samples=samples, kernel=kernel, size=size):
            u = samples.to(t.device)
            return fractional(dims)(t, kernel, size, return_indices=True, _random_samples=u)

        compare(device, pool, x, atol=0, rtol=0)


@pytest.mark.parametrize("dims", [2, 3])
def test_fractional_max_pool_large_and_from_its_own_draw(device, dims):
    """Many planes (2-D: 4.2M outputs, past 65,535 groups of 64 invocations per tap); without
    samples, mojo draws its own (in [0, 1)): outputs are the input at the returned indices."""
    spatial = (40, 40) if dims == 2 else (6, 16, 16)
    x = torch.randn(70, 150 if dims == 2 else 66, *spatial)
    samples = torch.rand(x.shape[0], x.shape[1], dims)
    kernel, size = (2,) * dims, tuple(s // 2 for s in spatial)
    expected = fractional(dims)(x, kernel, size, return_indices=True, _random_samples=samples)
    actual = fractional(dims)(
        x.to(device), kernel, size, return_indices=True, _random_samples=samples.to(device)
    )
    assert torch.equal(actual[1].cpu(), expected[1])
    assert torch.equal(actual[0].cpu(), expected[0])
    out, indices = fractional(dims)(x.to(device), kernel, size, return_indices=True)
    out, indices = out.cpu(), indices.cpu()
    assert torch.equal(out, x.flatten(2).gather(2, indices.flatten(2)).view_as(out))
    assert out.shape == expected[0].shape


def test_fractional_max_pool_errors(device):
    x = torch.randn(1, 2, 8, 8, device=device)
    with pytest.raises(RuntimeError, match="too large relative to input height"):
        F.fractional_max_pool2d(x, 4, output_size=6)
    with pytest.raises(RuntimeError, match="same dtype as input"):
        F.fractional_max_pool2d(
            x, 2, output_size=3, _random_samples=torch.rand(1, 2, 2, device=device).double()
        )
    with pytest.raises(RuntimeError, match="equals to input channel size"):
        F.fractional_max_pool2d(x, 2, output_size=3, _random_samples=torch.rand(1, 3, 2))
    _, indices = F.fractional_max_pool2d(x, 2, output_size=3, return_indices=True)
    with pytest.raises(IndexError, match="fractional max pooling backward"):
        torch.ops.aten.fractional_max_pool2d_backward(
            torch.ones(1, 2, 3, 3, device=device), x, [2, 2], [3, 3], indices + 64
        ).cpu()
