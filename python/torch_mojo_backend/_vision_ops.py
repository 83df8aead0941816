"""torchvision's detection ops on mojo, composed from mojo's kernels: ``torchvision::nms``,
``roi_align`` and ``roi_pool`` with their backward ops, registered for PrivateUse1 once
torchvision is imported (torchvision's own autograd kernels call the backward ops), with
those of ``_position_sensitive_pools`` and ``_deform_conv``.

- ``nms``: the IoU of every pair of boxes (in blocks of rows) on the device, packed eight
  pairs a byte; the greedy pass over the boxes in descending score order (a stable sort, as
  torchvision's) then reads that mask on the host, as torchvision's CUDA kernel does.
- ``roi_align``: each bin's samples (``sampling_ratio`` per side, or the adaptive count, whose
  largest is read back) as four bilinear corners with the CPU kernel's clamping; the corners'
  rows of the input, channels innermost, are gathered in one index_select per chunk of RoIs and
  weighted. The backward adds the weighted gradients back to those rows (``index_add_``, which
  combines duplicates deterministically in index order; CUDA's atomics do not).
- ``roi_pool``: each bin's window walked position by position (the widest window is read
  back), keeping the first strictly larger value as the CPU and CUDA kernels do; the backward
  adds each gradient at its argmax.

Coordinates and weights are float32 for half-precision inputs (results in the input's dtype).
"""

from __future__ import annotations

import numpy
import torch

_library = None

# Elements a gather of RoI samples may hold at once (rows times channels).
_GATHER_ELEMENTS = 1 << 24

# Pairs of boxes whose IoU one block of nms computes at once.
_NMS_PAIRS = 1 << 24


def _check_mojo(op: str, **tensors: torch.Tensor) -> torch.device:
    device = None
    for name, t in tensors.items():
        if t.device.type != "mojo":
            raise RuntimeError(f"{op}: {name} must be a mojo tensor, got one on {t.device}")
        if device is not None and t.device != device:
            raise RuntimeError(
                f"{op}: expected all tensors on one device, got {device} and {t.device}"
            )
        device = t.device
    return device


def _compute_dtype(dtype: torch.dtype) -> torch.dtype:
    return torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype


# --------------------------------------------------------------------------------------- nms


def nms(dets: torch.Tensor, scores: torch.Tensor, iou_threshold: float) -> torch.Tensor:
    _check_mojo("nms", dets=dets, scores=scores)
    if dets.dim() != 2:
        raise RuntimeError(f"boxes should be a 2d tensor, got {dets.dim()}D")
    if dets.size(1) != 4:
        raise RuntimeError(f"boxes should have 4 elements in dimension 1, got {dets.size(1)}")
    if scores.dim() != 1:
        raise RuntimeError(f"scores should be a 1d tensor, got {scores.dim()}D")
    if dets.size(0) != scores.size(0):
        raise RuntimeError(
            "boxes and scores should have same number of elements in dimension 0, got "
            f"{dets.size(0)} and {scores.size(0)}"
        )
    n = dets.size(0)
    if n == 0:
        return torch.empty(0, dtype=torch.long, device=dets.device)
    order = scores.sort(stable=True, descending=True).indices
    boxes = dets.index_select(0, order).to(_compute_dtype(dets.dtype))
    x1, y1, x2, y2 = boxes.unbind(1)
    area = (x2 - x1) * (y2 - y1)
    padded = (n + 7) // 8 * 8
    bits = torch.tensor([1 << b for b in range(8)], dtype=torch.uint8, device=dets.device)
    rows = max(1, _NMS_PAIRS // padded)
    packed = []
    for start in range(0, n, rows):
        end = min(n, start + rows)
        w = torch.minimum(x2[start:end, None], x2) - torch.maximum(x1[start:end, None], x1)
        h = torch.minimum(y2[start:end, None], y2) - torch.maximum(y1[start:end, None], y1)
        inter = w.clamp(min=0) * h.clamp(min=0)
        iou = inter / (area[start:end, None] + area - inter)
        over = torch.zeros(end - start, padded, dtype=torch.uint8, device=dets.device)
        over[:, :n] = iou > iou_threshold
        packed.append((over.view(end - start, padded // 8, 8) * bits).sum(2, dtype=torch.uint8))
    mask = torch.cat(packed).cpu().numpy()
    removed = numpy.zeros_like(mask[0])
    keep = []
    for i in range(n):
        if not (removed[i >> 3] >> (i & 7)) & 1:
            keep.append(i)
            removed |= mask[i]
    kept = torch.tensor(keep, dtype=torch.long).to(dets.device)
    return order.index_select(0, kept)


# --------------------------------------------------------------------------------- roi_align


def _check_rois(op: str, input: torch.Tensor, rois: torch.Tensor) -> None:
    _check_mojo(op, input=input, rois=rois)
    if rois.dim() != 2 or rois.size(1) != 5:
        raise RuntimeError("rois must have shape as Tensor[K, 5]")
    if input.dtype != rois.dtype:
        raise RuntimeError(
            f"{op}: expected input and rois of one dtype, got {input.dtype} and {rois.dtype}"
        )


def _axis(start, bin_size, grid, samples: int, pooled: int, size: int):
    """One axis of roi_align's samples: for each RoI, bin and sample, the two neighbouring
    pixels and their weights (0 for samples past the RoI's grid or outside [-1, size]);
    shapes `[K, pooled, samples]`."""
    device = start.device
    p = torch.arange(pooled, device=device, dtype=start.dtype)[None, :, None]
    i = torch.arange(samples, device=device)[None, None, :]
    at = start[:, None, None] + p * bin_size[:, None, None]
    at = at + (i.to(start.dtype) + 0.5) * bin_size[:, None, None] / grid[:, None, None]
    inside = (at >= -1) & (at <= size) & (i < grid[:, None, None])
    # Samples outside (NaN ones too: a grid of 0 divides by it) read pixel 0 with weight 0.
    at = torch.where(inside, at, 0).clamp(min=0)
    low = at.floor().long()
    edge = low >= size - 1
    low = torch.where(edge, size - 1, low)
    high = torch.where(edge, size - 1, low + 1)
    frac = torch.where(edge, 0.0, at - low.to(at.dtype))
    zero = torch.zeros((), dtype=at.dtype, device=device)
    return low, high, torch.where(inside, 1 - frac, zero), torch.where(inside, frac, zero)


def _align_samples(
    rois, spatial_scale, pooled_h, pooled_w, sampling_ratio, aligned, h, w, least_count=1
):
    """roi_align's samples: each bin's corner positions in the `[N * H * W]` rows of the
    input and their weights over the bin's sample count (at least `least_count`; None:
    unbounded, as ps_roi_align's, whose empty grids divide by zero), as
    `[K, pooled_h * pooled_w, S]`."""
    r = rois.to(_compute_dtype(rois.dtype))
    offset = 0.5 if aligned else 0.0
    start_w, start_h = r[:, 1] * spatial_scale - offset, r[:, 2] * spatial_scale - offset
    roi_w = r[:, 3] * spatial_scale - offset - start_w
    roi_h = r[:, 4] * spatial_scale - offset - start_h
    if not aligned:
        roi_w, roi_h = roi_w.clamp(min=1.0), roi_h.clamp(min=1.0)
    bin_w, bin_h = roi_w / pooled_w, roi_h / pooled_h
    if sampling_ratio > 0:
        grid_h = torch.full_like(roi_h, sampling_ratio)
        grid_w = grid_h
        samples_h = samples_w = sampling_ratio
    else:
        grid_h, grid_w = (roi_h / pooled_h).ceil(), (roi_w / pooled_w).ceil()
        samples_h = max(1, int(grid_h.max().item()))
        samples_w = max(1, int(grid_w.max().item()))
    count = grid_h * grid_w
    if least_count is not None:
        count = count.clamp(min=least_count)
    y_low, y_high, wy_low, wy_high = _axis(start_h, bin_h, grid_h, samples_h, pooled_h, h)
    x_low, x_high, wx_low, wx_high = _axis(start_w, bin_w, grid_w, samples_w, pooled_w, w)
    # Corners in the CPU's order: (low, low), (low, high), (high, low), (high, high).
    ys = torch.stack([y_low, y_low, y_high, y_high], -1)[:, :, None, :, None, :]
    wys = torch.stack([wy_low, wy_low, wy_high, wy_high], -1)[:, :, None, :, None, :]
    xs = torch.stack([x_low, x_high, x_low, x_high], -1)[:, None, :, None, :, :]
    wxs = torch.stack([wx_low, wx_high, wx_low, wx_high], -1)[:, None, :, None, :, :]
    batch = rois[:, 0].long()[:, None, None, None, None, None]
    k = rois.size(0)
    positions = (batch * h + ys) * w + xs
    weights = wys * wxs / count[:, None, None, None, None, None]
    cells = pooled_h * pooled_w
    return positions.reshape(k, cells, -1), weights.reshape(k, cells, -1)


def _chunks(k: int, per_roi: int):
    step = max(1, _GATHER_ELEMENTS // max(per_roi, 1))
    for start in range(0, k, step):
        yield slice(start, min(k, start + step))


def roi_align(input, rois, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned):
    _check_rois("roi_align", input, rois)
    n, c, h, w = input.shape
    k = rois.size(0)
    out_dtype = input.dtype
    if k == 0 or input.numel() == 0:
        return torch.zeros(k, c, pooled_height, pooled_width, dtype=out_dtype, device=input.device)
    positions, weights = _align_samples(
        rois, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned, h, w
    )
    rows = input.permute(0, 2, 3, 1).reshape(n * h * w, c)
    cells, samples = positions.shape[1:]
    parts = []
    for part in _chunks(k, cells * samples * c):
        gathered = rows.index_select(0, positions[part].reshape(-1))
        gathered = gathered.view(-1, cells, samples, c) * weights[part, :, :, None]
        parts.append(gathered.sum(2))
    pooled = torch.cat(parts).view(k, pooled_height, pooled_width, c)
    return pooled.permute(0, 3, 1, 2).to(out_dtype).contiguous()


def roi_align_backward(
    grad,
    rois,
    spatial_scale,
    pooled_height,
    pooled_width,
    batch_size,
    channels,
    height,
    width,
    sampling_ratio,
    aligned,
):
    _check_mojo("roi_align_backward", grad=grad, rois=rois)
    acc = _compute_dtype(grad.dtype)
    rows = torch.zeros(batch_size * height * width, channels, dtype=acc, device=grad.device)
    k = rois.size(0)
    if k and rows.numel():
        positions, weights = _align_samples(
            rois, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned, height, width
        )
        cells, samples = positions.shape[1:]
        g = grad.permute(0, 2, 3, 1).reshape(k, cells, 1, channels).to(acc)
        for part in _chunks(k, cells * samples * channels):
            values = (g[part] * weights[part, :, :, None]).reshape(-1, channels)
            rows.index_add_(0, positions[part].reshape(-1), values)
    grad_input = rows.view(batch_size, height, width, channels).permute(0, 3, 1, 2)
    return grad_input.to(grad.dtype).contiguous()


# ---------------------------------------------------------------------------------- roi_pool


def _round(x: torch.Tensor) -> torch.Tensor:
    """C's round: halves away from zero."""
    return x.sign() * (x.abs() + 0.5).floor()


def _pool_windows(rois, spatial_scale, pooled: int, size: int, first: int):
    """roi_pool's windows along one axis (`first`: the RoI column of their start): each
    bin's `[start, end)` clamped to `[0, size]`, as `[K, pooled]` int64."""
    r = rois.to(_compute_dtype(rois.dtype))
    start = _round(r[:, first] * spatial_scale)
    end = _round(r[:, first + 2] * spatial_scale)
    length = (end - start + 1).clamp(min=1)
    bin_size = length / pooled
    p = torch.arange(pooled, device=rois.device, dtype=r.dtype)[None, :]
    lo = (p * bin_size[:, None]).floor() + start[:, None]
    hi = ((p + 1) * bin_size[:, None]).ceil() + start[:, None]
    return lo.clamp(0, size).long(), hi.clamp(0, size).long()


def roi_pool(input, rois, spatial_scale, pooled_height, pooled_width):
    _check_rois("roi_pool", input, rois)
    n, c, h, w = input.shape
    k = rois.size(0)
    shape = (k, c, pooled_height, pooled_width)
    if k == 0 or input.numel() == 0:
        return (
            torch.zeros(shape, dtype=input.dtype, device=input.device),
            torch.full(shape, -1, dtype=torch.int32, device=input.device),
        )
    h_lo, h_hi = _pool_windows(rois, spatial_scale, pooled_height, h, 2)
    w_lo, w_hi = _pool_windows(rois, spatial_scale, pooled_width, w, 1)
    tallest = max(0, int((h_hi - h_lo).max().item()))
    widest = max(0, int((w_hi - w_lo).max().item()))
    rows = input.permute(0, 2, 3, 1).reshape(n * h * w, c)
    batch = rois[:, 0].long()[:, None, None]
    # The kernels start from -FLT_MAX whatever the dtype (-inf in half precision).
    lowest = torch.finfo(torch.float32).min
    best = torch.full(
        (k, pooled_height, pooled_width, c), lowest, dtype=input.dtype, device=input.device
    )
    where = torch.full(best.shape, -1, dtype=torch.long, device=input.device)
    for dy in range(tallest):
        y = (h_lo + dy)[:, :, None]
        y_in = y < h_hi[:, :, None]
        for dx in range(widest):
            x = (w_lo + dx)[:, None, :]
            inside = (y_in & (x < w_hi[:, None, :]))[..., None]
            plane = y * w + x
            values = rows.index_select(0, (batch * h * w + plane.clamp(max=h * w - 1)).reshape(-1))
            values = values.view(best.shape)
            larger = inside & (values > best)
            best = torch.where(larger, values, best)
            where = torch.where(larger, plane[..., None], where)
    empty = ((h_hi <= h_lo)[:, :, None] | (w_hi <= w_lo)[:, None, :])[..., None]
    best = torch.where(empty, torch.zeros((), dtype=best.dtype, device=best.device), best)
    return (
        best.permute(0, 3, 1, 2).contiguous(),
        where.permute(0, 3, 1, 2).to(torch.int32).contiguous(),
    )


def roi_pool_backward(
    grad,
    rois,
    argmax,
    spatial_scale,
    pooled_height,
    pooled_width,
    batch_size,
    channels,
    height,
    width,
):
    _check_mojo("roi_pool_backward", grad=grad, rois=rois, argmax=argmax)
    acc = _compute_dtype(grad.dtype)
    flat = torch.zeros(batch_size * channels * height * width, dtype=acc, device=grad.device)
    k = rois.size(0)
    if k and flat.numel():
        batch = rois[:, 0].long()[:, None, None, None]
        channel = torch.arange(channels, device=grad.device)[None, :, None, None]
        chosen = argmax.long()
        found = chosen >= 0
        index = (batch * channels + channel) * (height * width) + chosen.clamp(min=0)
        values = torch.where(found, grad.to(acc), torch.zeros((), dtype=acc, device=grad.device))
        flat.index_add_(0, index.reshape(-1), values.reshape(-1))
    return flat.view(batch_size, channels, height, width).to(grad.dtype)


KERNELS = {
    "nms": nms,
    "roi_align": roi_align,
    "_roi_align_backward": roi_align_backward,
    "roi_pool": roi_pool,
    "_roi_pool_backward": roi_pool_backward,
}


def register(_torchvision=None) -> None:
    """Registers the kernels for torchvision's ops (run once torchvision is imported)."""
    global _library
    if _library is not None or not hasattr(torch.ops.torchvision, "nms"):
        return
    from . import _deform_conv, _position_sensitive_pools

    _library = torch.library.Library("torchvision", "IMPL")
    kernels = {**KERNELS, **_position_sensitive_pools.KERNELS, **_deform_conv.KERNELS}
    for name, kernel in kernels.items():
        _library.impl(name, kernel, "PrivateUse1")
