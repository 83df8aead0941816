"""nn.Unfold / nn.Fold (im2col / col2im) on mojo against the CPU: geometries with padding,
dilation and stride, unbatched inputs, channels_last and strided inputs, gradients (each op
is the other's backward), a large input, and the CPU's errors."""

import pytest
import torch
import torch.nn.functional as F

GEOMETRIES = [
    ((2, 3, 9, 10), (3, 2), (1, 1), (1, 0), (1, 1)),
    ((1, 2, 11, 7), (2, 3), (2, 1), (2, 1), (3, 2)),
    ((3, 8, 8), (3, 3), (1, 1), (4, 4), (2, 2)),
    ((2, 1, 5, 5), (5, 5), (1, 1), (0, 0), (1, 1)),
]


@pytest.mark.parametrize("shape, kernel, dilation, padding, stride", GEOMETRIES)
def test_unfold_and_fold_match_cpu(device, shape, kernel, dilation, padding, stride):
    torch.manual_seed(0)
    x = torch.randn(shape, requires_grad=True)
    y = F.unfold(x, kernel, dilation, padding, stride)
    grad = torch.randn_like(y)
    y.backward(grad)
    ours = x.detach().to(device).requires_grad_()
    actual = F.unfold(ours, kernel, dilation, padding, stride)
    actual.backward(grad.to(device))
    assert torch.equal(actual.cpu(), y)
    torch.testing.assert_close(ours.grad.cpu(), x.grad)
    folded = F.fold(y.detach(), shape[-2:], kernel, dilation, padding, stride)
    ours_folded = F.fold(actual.detach(), shape[-2:], kernel, dilation, padding, stride)
    torch.testing.assert_close(ours_folded.cpu(), folded)


def test_strided_and_channels_last_inputs(device):
    x = torch.randn(2, 4, 12, 9)
    for view in (x.to(memory_format=torch.channels_last), x[:, ::2, 1:, ::2]):
        expected = F.unfold(view, 3, padding=1, stride=2)
        actual = F.unfold(view.to(device), 3, padding=1, stride=2)
        assert torch.equal(actual.cpu(), expected)


def test_large_input(device):
    """9.4 million columns elements: more than one launch's grid."""
    x = torch.randn(1, 64, 128, 128)
    expected = F.unfold(x, 3, padding=1)
    actual = F.unfold(x.to(device), 3, padding=1)
    assert torch.equal(actual.cpu(), expected)
    torch.testing.assert_close(
        F.fold(actual, (128, 128), 3, padding=1).cpu(), F.fold(expected, (128, 128), 3, padding=1)
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda t: F.unfold(t, 20),
        lambda t: F.fold(t.flatten(1), (3, 3), 2),
        lambda t: F.fold(t.reshape(1, 8, 4), (9, 9), 2),
    ],
)
def test_errors_match_cpu(device, call):
    x = torch.randn(1, 2, 4, 4)
    with pytest.raises(RuntimeError) as expected:
        call(x)
    with pytest.raises(RuntimeError) as actual:
        call(x.to(device))
    assert str(actual.value) == str(expected.value)


@pytest.mark.parametrize("size, step", [(3, 1), (4, 4), (5, 2), (1, 3)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_tensor_unfold_gradient_sums_overlapping_windows(device, size, step, dtype):
    """`Tensor.unfold`'s backward (`unfold_backward`) over a middle dimension, windows
    overlapping or not, in the CPU's summation order (bit for bit in float16 too); 5M
    elements, past 65,535 groups of 64."""
    torch.manual_seed(0)
    x = torch.randn(40, 1000, 128).to(dtype)
    grad = torch.randn(x.unfold(1, size, step).shape).to(dtype)
    expected = torch.ops.aten.unfold_backward(grad, list(x.shape), 1, size, step)
    actual = torch.ops.aten.unfold_backward(grad.to(device), list(x.shape), 1, size, step)
    assert torch.equal(actual.cpu(), expected)
    ours = x.to(device).requires_grad_()
    ours.unfold(-1, size, step).sum().backward()
    reference = x.clone().requires_grad_()
    reference.unfold(-1, size, step).sum().backward()
    assert torch.equal(ours.grad.cpu(), reference.grad)


def test_channel_shuffle_keeps_the_memory_format(device):
    x = torch.randn(2, 12, 5, 7).to(memory_format=torch.channels_last)
    expected = F.channel_shuffle(x, 3)
    actual = F.channel_shuffle(x.to(device), 3)
    assert actual.is_contiguous(memory_format=torch.channels_last)
    assert torch.equal(actual.cpu(), expected)
    with pytest.raises(RuntimeError, match="divisible by groups"):
        F.channel_shuffle(x.to(device), 5)
