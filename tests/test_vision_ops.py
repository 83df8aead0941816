"""torchvision's detection ops on mojo (nms, roi_align, roi_pool and their gradients) against
torchvision's CPU kernels: sizes around the packing and chunking limits, every sampling mode,
boxes past the image, ties, errors, two threads, and a detection model end to end."""

import copy

import pytest
import torch
from threads import run_in_threads

torchvision = pytest.importorskip("torchvision")
from torchvision import ops  # noqa: E402

from torch_mojo_backend import _vision_ops  # noqa: E402


def boxes(n, seed=0, size=50.0, dtype=torch.float32):
    g = torch.Generator().manual_seed(seed)
    corner = torch.rand(n, 2, generator=g) * size
    extent = torch.rand(n, 2, generator=g) * size / 2
    return torch.cat([corner, corner + extent], 1).to(dtype)


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 65, 1000, 2500])
@pytest.mark.parametrize("threshold", [0.0, 0.5, 1.0])
def test_nms_matches_cpu(device, n, threshold):
    b = boxes(n, seed=n)
    scores = torch.rand(n, generator=torch.Generator().manual_seed(1))
    expected = ops.nms(b, scores, threshold)
    got = ops.nms(b.to(device), scores.to(device), threshold)
    assert got.device.type == "mojo" and got.dtype == torch.long
    torch.testing.assert_close(got.cpu(), expected, rtol=0, atol=0)


def test_nms_ties_degenerate_boxes_and_blocks(device, monkeypatch):
    """Equal scores keep the boxes' order (a stable sort); empty boxes (0/0 IoU) suppress
    nothing; row blocks of the IoU smaller than the boxes give the same answer."""
    b = boxes(300, seed=3).double()
    b[::7, 2:] = b[::7, :2]  # zero area
    scores = (torch.arange(300) % 5).double()
    expected = ops.nms(b, scores, 0.3)
    monkeypatch.setattr(_vision_ops, "_NMS_PAIRS", 1000)
    got = ops.nms(b.to(device), scores.to(device), 0.3)
    torch.testing.assert_close(got.cpu(), expected, rtol=0, atol=0)


def test_batched_nms_matches_cpu(device):
    b = boxes(500, seed=4)
    scores = torch.rand(500, generator=torch.Generator().manual_seed(5))
    classes = torch.randint(0, 4, (500,), generator=torch.Generator().manual_seed(6))
    expected = ops.batched_nms(b, scores, classes, 0.4)
    got = ops.batched_nms(b.to(device), scores.to(device), classes.to(device), 0.4)
    torch.testing.assert_close(got.cpu(), expected, rtol=0, atol=0)


def rois(k, images=2, size=40.0, seed=0, dtype=torch.float32):
    """RoIs over `images` images, some reaching past a `size` image, one of zero size."""
    g = torch.Generator().manual_seed(seed)
    b = boxes(k, seed=seed, size=size * 1.2, dtype=torch.float64) - size * 0.1
    index = torch.randint(0, images, (k, 1), generator=g).double()
    r = torch.cat([index, b], 1)
    if k:
        r[0, 3:] = r[0, 1:3]
    return r.to(dtype)


@pytest.mark.parametrize("aligned", [False, True])
@pytest.mark.parametrize("sampling_ratio", [-1, 0, 2, 3])
@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
def test_roi_align_forward_backward_match_cpu(device, aligned, sampling_ratio, layout):
    torch.manual_seed(0)
    x = torch.randn(2, 5, 20, 24, dtype=torch.float64)
    if layout == "channels_last":
        x = x.to(memory_format=torch.channels_last)
    r = rois(17, seed=sampling_ratio + 7)
    r = r.double()
    xc = x.clone().requires_grad_()
    expected = ops.roi_align(xc, r, (3, 4), 0.5, sampling_ratio, aligned)
    expected.sin().sum().backward()
    xm = x.to(device).requires_grad_()
    got = ops.roi_align(xm, r.to(device), (3, 4), 0.5, sampling_ratio, aligned)
    got.sin().sum().backward()
    torch.testing.assert_close(got.cpu(), expected.detach(), rtol=1e-10, atol=1e-10)
    torch.testing.assert_close(xm.grad.cpu(), xc.grad, rtol=1e-10, atol=1e-10)


def test_roi_align_float32_chunked_and_half(device, monkeypatch):
    """Gathers split into many chunks (one RoI each at this budget) give the one-chunk answer;
    float16 computes its coordinates and sums in float32 (within half precision)."""
    torch.manual_seed(1)
    x = torch.randn(1, 3, 33, 17)
    r = rois(40, images=1, size=30.0, seed=2)
    expected = ops.roi_align(x, r, 5, 1.0, 2, True)
    monkeypatch.setattr(_vision_ops, "_GATHER_ELEMENTS", 100)
    got = ops.roi_align(x.to(device), r.to(device), 5, 1.0, 2, True)
    torch.testing.assert_close(got.cpu(), expected, rtol=1e-5, atol=1e-5)
    half = ops.roi_align(x.half().to(device), r.half().to(device), 5, 1.0, 2, True)
    assert half.dtype == torch.float16
    reference = ops.roi_align(x, r.half().float(), 5, 1.0, 2, True)
    torch.testing.assert_close(half.cpu().float(), reference, rtol=2e-3, atol=2e-3)


def test_roi_align_gradcheck(device):
    x = torch.randn(1, 2, 6, 7, dtype=torch.float64, device=device, requires_grad=True)
    r = rois(3, images=1, size=6.0, seed=9, dtype=torch.float64).to(device)
    assert torch.autograd.gradcheck(lambda t: ops.roi_align(t, r, 2, 1.0, 2, True), (x,))


@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_roi_pool_forward_backward_match_cpu(device, scale):
    torch.manual_seed(2)
    # Values on a coarse grid: ties inside a window pick the first, as on the CPU.
    x = (torch.randn(2, 4, 15, 13) * 2).round()
    r = rois(21, seed=11, size=26.0)
    xc = x.clone().requires_grad_()
    expected = ops.roi_pool(xc, r, (3, 2), scale)
    (expected * torch.arange(expected.numel()).view_as(expected)).sum().backward()
    xm = x.to(device).requires_grad_()
    got = ops.roi_pool(xm, r.to(device), (3, 2), scale)
    (got * torch.arange(got.numel(), device=device).view_as(got)).sum().backward()
    torch.testing.assert_close(got.cpu(), expected.detach(), rtol=0, atol=0)
    torch.testing.assert_close(xm.grad.cpu(), xc.grad, rtol=0, atol=0)
    _, argmax = torch.ops.torchvision.roi_pool(x.to(device), r.to(device), scale, 3, 2)
    _, cpu_argmax = torch.ops.torchvision.roi_pool(x, r, scale, 3, 2)
    assert argmax.dtype == cpu_argmax.dtype
    torch.testing.assert_close(argmax.cpu(), cpu_argmax, rtol=0, atol=0)


def test_empty_rois(device):
    x = torch.randn(1, 3, 8, 8, device=device)
    none = torch.zeros(0, 5, device=device)
    assert ops.roi_align(x, none, 2).shape == (0, 3, 2, 2)
    assert ops.roi_pool(x, none, 2).shape == (0, 3, 2, 2)


def test_errors_match_torchvision(device):
    b = boxes(4).to(device)
    with pytest.raises(RuntimeError, match="boxes should have 4 elements in dimension 1, got 3"):
        torch.ops.torchvision.nms(b[:, :3], torch.rand(4, device=device), 0.5)
    with pytest.raises(RuntimeError, match="scores should be a 1d tensor, got 2D"):
        torch.ops.torchvision.nms(b, torch.rand(4, 1, device=device), 0.5)
    with pytest.raises(RuntimeError, match="same number of elements in dimension 0, got 4 and 3"):
        torch.ops.torchvision.nms(b, torch.rand(3, device=device), 0.5)
    x = torch.randn(1, 2, 5, 5, device=device)
    with pytest.raises(RuntimeError, match=r"rois must have shape as Tensor\[K, 5\]"):
        torch.ops.torchvision.roi_align(x, torch.zeros(2, 4, device=device), 1.0, 2, 2, 2, False)
    with pytest.raises(RuntimeError, match="must be a mojo tensor"):
        torch.ops.torchvision.roi_align(x, torch.zeros(2, 5), 1.0, 2, 2, 2, False)


def test_two_threads(device):
    b = boxes(400, seed=12)
    scores = torch.rand(400, generator=torch.Generator().manual_seed(13))
    x = torch.randn(1, 4, 16, 16)
    r = rois(30, images=1, size=16.0, seed=14)
    expected = (ops.nms(b, scores, 0.5), ops.roi_align(x, r, 3, 1.0, 2, False))

    def work():
        return (
            ops.nms(b.to(device), scores.to(device), 0.5).cpu(),
            ops.roi_align(x.to(device), r.to(device), 3, 1.0, 2, False).cpu(),
        )

    results = run_in_threads(work)
    for keep, pooled in results:
        torch.testing.assert_close(keep, expected[0], rtol=0, atol=0)
        torch.testing.assert_close(pooled, expected[1], rtol=1e-5, atol=1e-5)


def test_faster_rcnn_detects_like_cpu_and_trains(device):
    """A Faster R-CNN (nms in its region proposals and post-processing, roi_align in its box
    head) finds the CPU's boxes, and trains: finite losses and gradients. (Training samples
    proposals with randperm on the device, whose draws follow CUDA's, not the CPU's.)"""
    torch.manual_seed(0)
    model = torchvision.models.detection.fasterrcnn_mobilenet_v3_large_320_fpn(
        weights=None, weights_backbone=None, num_classes=3, min_size=96, max_size=128
    ).eval()
    images = [torch.rand(3, 96, 128)]
    mojo_model = copy.deepcopy(model).to(device)
    with torch.no_grad():
        expected = model(images)[0]
        got = mojo_model([i.to(device) for i in images])[0]
    assert got["boxes"].shape == expected["boxes"].shape
    torch.testing.assert_close(got["boxes"].cpu(), expected["boxes"], rtol=1e-3, atol=1e-2)
    torch.testing.assert_close(got["labels"].cpu(), expected["labels"], rtol=0, atol=0)
    mojo_model.train()
    targets = [{"boxes": torch.tensor([[10.0, 12.0, 60.0, 70.0]]), "labels": torch.tensor([1])}]
    losses = mojo_model(
        [i.to(device) for i in images],
        [{k: v.to(device) for k, v in t.items()} for t in targets],
    )
    assert set(losses) == {"loss_classifier", "loss_box_reg", "loss_objectness", "loss_rpn_box_reg"}
    sum(losses.values()).backward()
    assert all(torch.isfinite(loss).item() for loss in losses.values())
    grad = mojo_model.roi_heads.box_head.fc6.weight.grad
    assert torch.isfinite(grad).all() and grad.abs().sum() > 0
    backbone = next(mojo_model.backbone.parameters()).grad
    assert backbone is not None and torch.isfinite(backbone).all()


def test_registered_after_a_probe_of_torchvision():
    """A library probing for torchvision (`importlib.util.find_spec`, as transformers does)
    before importing it leaves the registration for the import itself (the probe took it once,
    and the whole suite's nms then raised NotImplementedError)."""
    import os
    import subprocess
    import sys

    script = (
        "import importlib.util, torch, torch_mojo_backend\n"
        "torch_mojo_backend.register_mojo_devices()\n"
        "assert importlib.util.find_spec('torchvision') is not None\n"
        "import torchvision\n"
        "b = torch.tensor([[0.0, 0, 2, 2], [0, 0, 2, 2.1]], device='mojo')\n"
        "print(torchvision.ops.nms(b, torch.tensor([1.0, 2.0], device='mojo'), 0.5).tolist())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=dict(os.environ)
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[1]"
