"""torchvision's position-sensitive RoI pools on mojo (ps_roi_align, ps_roi_pool and their
gradients) against torchvision's CPU kernels: every sampling mode, RoIs past the image and
reversed, empty grids, chunked gathers, half precision, errors and two threads."""

import pytest
import torch
from threads import run_in_threads

torchvision = pytest.importorskip("torchvision")
from torchvision import ops  # noqa: E402

from torch_mojo_backend import _vision_ops  # noqa: E402

# Reversed (x2 < x1), zero-size, past every edge, and ordinary RoIs, on two images.
ROIS = [
    [0, 1.2, 0.5, 8.3, 7.9],
    [1, -3, -2, 4, 5],
    [1, 5, 5, 5.2, 5.1],
    [0, 0, 0, 11.9, 9.9],
    [1, 9, 8, 3, 2],
    [0, -20, -20, 30, 30],
    [1, 4, 4, 4, 4],
    [0, 2.5, 6.5, 10.5, 9.5],
]


def inputs(dtype=torch.float64, channels=2 * 9, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(2, channels, 10, 12, generator=g, dtype=torch.float64).to(dtype)
    return x, torch.tensor(ROIS, dtype=dtype)


def forward_backward(op, x, rois, *args):
    x = x.clone().requires_grad_()
    out = op(x, rois, *args)
    # The same gradient on both devices (sines of the CPU's).
    weights = torch.arange(out.numel(), dtype=out.dtype).view(out.shape).sin()
    out.backward(weights.to(out.device))
    return out.detach().cpu(), x.grad.cpu()


@pytest.mark.parametrize("sampling_ratio", [-1, 0, 1, 2])
@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_ps_roi_align_matches_cpu(device, sampling_ratio, scale):
    x, r = inputs()
    expected = forward_backward(ops.ps_roi_align, x, r, (3, 3), scale, sampling_ratio)
    got = forward_backward(
        ops.ps_roi_align, x.to(device), r.to(device), (3, 3), scale, sampling_ratio
    )
    # Grids of zero samples divide zero by zero: NaN where the CPU has it.
    torch.testing.assert_close(got[0], expected[0], rtol=1e-12, atol=1e-12, equal_nan=True)
    torch.testing.assert_close(got[1], expected[1], rtol=1e-12, atol=1e-12)
    _, mapping = torch.ops.torchvision.ps_roi_align(x.to(device), r.to(device), scale, 3, 3, 2)
    _, cpu_mapping = torch.ops.torchvision.ps_roi_align(x, r, scale, 3, 3, 2)
    assert mapping.dtype == cpu_mapping.dtype == torch.int32
    assert torch.equal(mapping.cpu(), cpu_mapping)


@pytest.mark.parametrize("scale", [1.0, 0.5, 0.3])
@pytest.mark.parametrize("pooled", [(3, 3), (2, 4), (1, 1)])
def test_ps_roi_pool_matches_cpu_bit_for_bit(device, scale, pooled):
    # Windows are summed in the CPU's order, and gradients added in it: equal bits.
    for dtype in (torch.float32, torch.float64):
        x, r = inputs(dtype, channels=3 * pooled[0] * pooled[1])
        expected = forward_backward(ops.ps_roi_pool, x, r, pooled, scale)
        got = forward_backward(ops.ps_roi_pool, x.to(device), r.to(device), pooled, scale)
        torch.testing.assert_close(got[0], expected[0], rtol=0, atol=0)
        torch.testing.assert_close(got[1], expected[1], rtol=0, atol=0)


def test_chunked_gathers_and_half(device, monkeypatch):
    """Gathers split into one RoI per chunk give the one-chunk answer; float16 computes in
    float32 and rounds once (within half precision of the float32 result)."""
    x, r = inputs(torch.float32, seed=3)
    expected = forward_backward(ops.ps_roi_align, x, r, 3, 0.7, 2)
    monkeypatch.setattr(_vision_ops, "_GATHER_ELEMENTS", 50)
    got = forward_backward(ops.ps_roi_align, x.to(device), r.to(device), 3, 0.7, 2)
    torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-5)
    pooled = forward_backward(ops.ps_roi_pool, x.to(device), r.to(device), 3, 0.7)
    torch.testing.assert_close(pooled, forward_backward(ops.ps_roi_pool, x, r, 3, 0.7))
    monkeypatch.undo()
    for op in (ops.ps_roi_align, ops.ps_roi_pool):
        half = op(x.half().to(device), r.half().to(device), 3, 0.7)
        assert half.dtype == torch.float16
        reference = op(x.half().float(), r.half().float(), 3, 0.7)
        torch.testing.assert_close(
            half.cpu().float(), reference, rtol=2e-3, atol=2e-3, equal_nan=True
        )


def test_gradcheck(device):
    x, r = inputs()
    x = x[:, :, :6, :7].contiguous().to(device).requires_grad_()
    r = r.to(device) * 0.5
    assert torch.autograd.gradcheck(lambda t: ops.ps_roi_align(t, r, 3, 1.0, 2), (x,))


def test_empty_and_errors(device):
    x, r = inputs(torch.float32)
    x, r = x.to(device), r.to(device)
    assert ops.ps_roi_align(x, r[:0], 3).shape == (0, 2, 3, 3)
    assert ops.ps_roi_pool(x, r[:0], 3).shape == (0, 2, 3, 3)
    with pytest.raises(RuntimeError, match="multiple of pooling height \\* pooling width"):
        ops.ps_roi_align(x, r, 4)
    with pytest.raises(RuntimeError, match="multiple of pooling height \\* pooling width"):
        ops.ps_roi_pool(x, r, (2, 2))
    with pytest.raises(RuntimeError, match=r"rois must have shape as Tensor\[K, 5\]"):
        torch.ops.torchvision.ps_roi_pool(x, r[:, :4], 1.0, 3, 3)
    # As on CUDA, whose kernels take float16, float32 and float64.
    with pytest.raises(RuntimeError, match="not implemented for 'BFloat16'"):
        ops.ps_roi_align(x.bfloat16(), r.bfloat16(), 3)


def test_two_threads(device):
    x, r = inputs(torch.float32, seed=5)
    expected = (ops.ps_roi_align(x, r, 3, 0.5, 2), ops.ps_roi_pool(x, r, 3, 0.5))

    def work():
        xm, rm = x.to(device), r.to(device)
        return (
            ops.ps_roi_align(xm, rm, 3, 0.5, 2).cpu(),
            ops.ps_roi_pool(xm, rm, 3, 0.5).cpu(),
        )

    results = run_in_threads(work)
    for aligned, pooled in results:
        torch.testing.assert_close(aligned, expected[0], rtol=1e-5, atol=1e-5)
        torch.testing.assert_close(pooled, expected[1], rtol=0, atol=0)
