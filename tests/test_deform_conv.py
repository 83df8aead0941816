"""torchvision's deformable convolution on mojo (deform_conv2d v1 and v2, and its gradients
for the input, offsets, mask, weight and bias) against torchvision's CPU kernels: offsets at
whole pixels and at the image's edges, groups of both kinds, strides, padding, dilation,
chunked gathers, half precision, errors, two threads and a model that trains."""

import pytest
import torch
from threads import run_in_threads

torchvision = pytest.importorskip("torchvision")
from torchvision import ops  # noqa: E402

from torch_mojo_backend import _deform_conv  # noqa: E402


def case(
    dtype=torch.float64,
    batch=2,
    channels=4,
    size=(7, 8),
    out_channels=6,
    kernel=(3, 3),
    stride=(1, 1),
    padding=(1, 1),
    dilation=(1, 1),
    groups=1,
    offset_groups=1,
    mask=True,
    offsets="random",
    seed=0,
):
    """The inputs of one call, as (tensors, keyword arguments)."""
    g = torch.Generator().manual_seed(seed)

    def randn(*shape):
        return torch.randn(*shape, generator=g, dtype=torch.float64).to(dtype)

    h, w = size
    oh = (h + 2 * padding[0] - (dilation[0] * (kernel[0] - 1) + 1)) // stride[0] + 1
    ow = (w + 2 * padding[1] - (dilation[1] * (kernel[1] - 1) + 1)) // stride[1] + 1
    taps = kernel[0] * kernel[1]
    offset_shape = (batch, offset_groups * 2 * taps, oh, ow)
    if offsets == "zero":  # every sample on a whole pixel
        offset = torch.zeros(offset_shape, dtype=dtype)
    elif offsets == "edges":  # whole and half pixels, out to past the image's edges
        offset = (torch.randint(-2 * max(h, w), 2 * max(h, w), offset_shape, generator=g) / 2).to(
            dtype
        )
    else:
        offset = randn(*offset_shape) * 2
    tensors = {
        "input": randn(batch, channels, h, w),
        "offset": offset,
        "weight": randn(out_channels, channels // groups, *kernel),
        "bias": randn(out_channels),
    }
    if mask:
        tensors["mask"] = torch.rand(batch, offset_groups * taps, oh, ow, generator=g).to(dtype)
    return tensors, {"stride": stride, "padding": padding, "dilation": dilation}


def run(tensors, kwargs, device):
    """The output and every input's gradient, on the CPU."""
    leaves = {k: t.detach().clone().to(device).requires_grad_() for k, t in tensors.items()}
    out = ops.deform_conv2d(**leaves, **kwargs)
    g = torch.Generator().manual_seed(99)
    grad = torch.randn(out.shape, generator=g, dtype=torch.float64).to(out.dtype)
    out.backward(grad.to(device))
    return {"out": out.detach().cpu(), **{k: t.grad.cpu() for k, t in leaves.items()}}


def assert_matches_cpu(tensors, kwargs, device, tol):
    expected = run(tensors, kwargs, "cpu")
    got = run(tensors, kwargs, device)
    for name, value in expected.items():
        torch.testing.assert_close(got[name], value, rtol=tol, atol=tol, msg=name)


CASES = {
    "plain": {},
    "whole pixels": {"offsets": "zero"},
    "edges": {"offsets": "edges"},
    "no mask": {"mask": False},
    "groups": {"channels": 6, "out_channels": 4, "groups": 2, "offset_groups": 3},
    "strided": {"stride": (2, 1), "dilation": (1, 2), "padding": (2, 0), "kernel": (2, 3)},
    "one by one": {"kernel": (1, 1), "padding": (0, 0), "size": (5, 3)},
}


@pytest.mark.parametrize("name", list(CASES))
def test_matches_cpu_float64(device, name):
    assert_matches_cpu(*case(**CASES[name]), device, 1e-10)


@pytest.mark.parametrize("name", ["plain", "edges", "groups"])
def test_matches_cpu_float32(device, name):
    assert_matches_cpu(*case(torch.float32, **CASES[name]), device, 1e-4)


def test_chunked_gathers(device, monkeypatch):
    """Output rows in chunks of one give the one-chunk answer."""
    tensors, kwargs = case(torch.float32, batch=3, size=(9, 5), seed=4)
    expected = run(tensors, kwargs, device)
    monkeypatch.setattr(_deform_conv, "_GATHER_ELEMENTS", 10)
    got = run(tensors, kwargs, device)
    for name, value in expected.items():
        torch.testing.assert_close(got[name], value, rtol=1e-6, atol=1e-6, msg=name)


def test_half_computes_in_float32(device):
    tensors, kwargs = case(torch.float16, seed=5)
    got = ops.deform_conv2d(**{k: t.to(device) for k, t in tensors.items()}, **kwargs)
    assert got.dtype == torch.float16
    reference = ops.deform_conv2d(**{k: t.float() for k, t in tensors.items()}, **kwargs)
    torch.testing.assert_close(got.cpu().float(), reference, rtol=2e-3, atol=1e-2)


def test_gradcheck(device):
    tensors, kwargs = case(batch=1, channels=2, size=(4, 5), out_channels=2, seed=6)
    names = list(tensors)
    leaves = [tensors[n].to(device).requires_grad_() for n in names]
    # Away from whole pixels, where the slopes jump.
    leaves[names.index("offset")] = (tensors["offset"].round() + 0.37).to(device).requires_grad_()

    def f(*values):
        return ops.deform_conv2d(**dict(zip(names, values, strict=True)), **kwargs)

    assert torch.autograd.gradcheck(f, leaves)


def test_empty_batch_and_errors(device):
    tensors, kwargs = case(torch.float32, batch=0)
    on = {k: t.to(device) for k, t in tensors.items()}
    out = ops.deform_conv2d(**on, **kwargs)
    assert out.shape == (0, 6, 7, 8)
    tensors, kwargs = case(torch.float32)
    on = {k: t.to(device) for k, t in tensors.items()}
    with pytest.raises(RuntimeError, match="offset.shape\\[1\\] is not valid: got: 17"):
        torch.ops.torchvision.deform_conv2d(
            on["input"], on["weight"], on["offset"][:, :17], on["mask"], on["bias"],
            1, 1, 1, 1, 1, 1, 1, 1, True,
        )  # fmt: skip
    with pytest.raises(RuntimeError, match="mask.shape\\[1\\] is not valid: got: 4"):
        torch.ops.torchvision.deform_conv2d(
            on["input"], on["weight"], on["offset"], on["mask"][:, :4], on["bias"],
            1, 1, 1, 1, 1, 1, 1, 1, True,
        )  # fmt: skip
    with pytest.raises(RuntimeError, match="mask must be a mojo tensor"):
        ops.deform_conv2d(**{**on, "mask": tensors["mask"]}, **kwargs)
    with pytest.raises(RuntimeError, match="computed output dims"):
        ops.deform_conv2d(**on, stride=2, padding=1)


def test_two_threads(device):
    tensors, kwargs = case(torch.float32, seed=7)
    expected = run(tensors, kwargs, device)

    for result in run_in_threads(lambda: run(tensors, kwargs, device)):
        for name, value in expected.items():
            torch.testing.assert_close(result[name], value, rtol=0, atol=0, msg=name)


class DeformableBlock(torch.nn.Module):
    """A modulated deformable convolution whose offsets and mask come from a convolution."""

    def __init__(self):
        super().__init__()
        self.predict = torch.nn.Conv2d(3, 3 * 9, 3, padding=1)
        self.deform = ops.DeformConv2d(3, 8, 3, padding=1)
        self.head = torch.nn.Linear(8, 2)

    def forward(self, x):
        offset, mask = self.predict(x).split([18, 9], dim=1)
        y = self.deform(x, offset, mask.sigmoid()).relu()
        return self.head(y.mean((2, 3)))


def test_a_deformable_block_trains_as_on_the_cpu(device):
    torch.manual_seed(8)
    model = DeformableBlock().double()
    x = torch.randn(4, 3, 12, 12, dtype=torch.float64)
    y = torch.randint(0, 2, (4,))
    losses = {}
    for where in ("cpu", device):
        m = DeformableBlock().double()
        m.load_state_dict(model.state_dict())
        m.to(where)
        opt = torch.optim.SGD(m.parameters(), lr=0.5)
        losses[where] = []
        for _ in range(4):
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(m(x.to(where)), y.to(where))
            loss.backward()
            opt.step()
            losses[where].append(loss.item())
    torch.testing.assert_close(losses[device], losses["cpu"], rtol=1e-9, atol=1e-9)
    assert losses["cpu"][-1] < losses["cpu"][0]


def test_compiled_deformable_convolution_matches_eager(device):
    # Inductor calls the op as an extern kernel between its own fused kernels.
    tensors, kwargs = case(torch.float32, seed=9)
    on = {k: t.to(device) for k, t in tensors.items()}

    def f(**t):
        return ops.deform_conv2d(**t, **kwargs).relu() * 2

    expected = f(**on)
    got = torch.compile(f)(**on)
    torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-5)
