"""torchvision's position-sensitive RoI pools on mojo (R-FCN's): ``ps_roi_align`` and
``ps_roi_pool`` with their backward ops, composed from mojo's kernels.

Bin ``(ph, pw)`` of output channel ``c`` reads input channel ``(c * PH + ph) * PW + pw`` (the
channel mapping both ops return). ``ps_roi_align`` samples as ``roi_align`` with
``aligned=True`` does (see ``_vision_ops``), except that its sample count is not raised to one
(an empty grid divides by zero, as torchvision's kernels do); the elements of every bin are
gathered from the flat input in one index_select per chunk of RoIs. ``ps_roi_pool`` averages
each bin's window, walked position by position in the CPU kernel's order, so its sums are the
CPU's bit for bit; as torchvision's kernels, the forward clips windows to ``[0, H - 1]`` and
the backward to ``[0, H]``. Backward ops add gradients with ``index_add_`` (deterministic, in
the CPU's order for ``ps_roi_pool``).

Half precision is computed in float32; bfloat16 raises, as on CUDA.
"""

from __future__ import annotations

import torch

from ._vision_ops import _align_samples, _check_rois, _chunks, _round

# ScalarType names of the dtypes the ops refuse, for their messages.
_TYPE_NAMES = {
    torch.bfloat16: "BFloat16",
    torch.complex64: "ComplexFloat",
    torch.complex128: "ComplexDouble",
    torch.int64: "Long",
    torch.int32: "Int",
    torch.int16: "Short",
    torch.int8: "Char",
    torch.uint8: "Byte",
    torch.bool: "Bool",
}


def _check_dtype(op: str, dtype: torch.dtype) -> torch.dtype:
    """The compute dtype of a floating input (float32 for float16); others raise as CUDA."""
    if dtype not in (torch.float16, torch.float32, torch.float64):
        name = _TYPE_NAMES.get(dtype, str(dtype))
        raise RuntimeError(f"\"{op}\" not implemented for '{name}'")
    return torch.float32 if dtype == torch.float16 else dtype


def _channels_out(channels: int, pooled_h: int, pooled_w: int) -> int:
    if pooled_h * pooled_w == 0 or channels % (pooled_h * pooled_w):
        raise RuntimeError("input channels must be a multiple of pooling height * pooling width")
    return channels // (pooled_h * pooled_w)


def _mapping(k: int, c_out: int, pooled_h: int, pooled_w: int, device) -> torch.Tensor:
    """Each bin's input channel, `[K, c_out, PH, PW]` int32."""
    cells = pooled_h * pooled_w
    c_in = torch.arange(c_out * cells, dtype=torch.int32, device=device)
    return c_in.view(1, c_out, pooled_h, pooled_w).expand(k, -1, -1, -1).contiguous()


def _input_gradient(op: str, grad, rois, batch_size, channels, height, width):
    """A backward op's checks, compute dtype and zeroed flat gradient of the input."""
    _check_rois(f"{op}_backward", grad, rois)
    acc = _check_dtype(f"{op}_backward_kernel", grad.dtype)
    flat = torch.zeros(batch_size * channels * height * width, dtype=acc, device=grad.device)
    return acc, flat


def _flat_index(rois, mapping, plane, channels: int, hw: int) -> torch.Tensor:
    """Where `plane` (positions in an image, broadcast against `[K, c_out, cells, ...]`)
    lies in the flat input of each RoI's image and its bin's channel (`mapping`)."""
    k, c_out = mapping.shape[:2]
    batch = rois[:, 0].long().view(k, 1, 1)
    image_channel = batch * channels + mapping.view(k, c_out, -1).long()
    extra = plane.dim() - 3
    return image_channel.view(*image_channel.shape, *([1] * extra)) * hw + plane


# ------------------------------------------------------------------------------ ps_roi_align


def ps_roi_align(input, rois, spatial_scale, pooled_height, pooled_width, sampling_ratio):
    _check_rois("ps_roi_align", input, rois)
    acc = _check_dtype("ps_roi_align_forward_kernel", input.dtype)
    n, c, h, w = input.shape
    k = rois.size(0)
    c_out = _channels_out(c, pooled_height, pooled_width)
    mapping = _mapping(k, c_out, pooled_height, pooled_width, input.device)
    out = torch.zeros(k, c_out, pooled_height, pooled_width, dtype=input.dtype, device=input.device)
    if out.numel() == 0 or input.numel() == 0:
        return out, mapping
    positions, weights = _align_samples(
        rois, spatial_scale, pooled_height, pooled_width, sampling_ratio, True, h, w, None
    )
    # positions hold `batch * H * W + plane`; the plane alone, for the flat index.
    batch = rois[:, 0].long().view(k, 1, 1)
    plane = (positions - batch * (h * w))[:, None]
    flat_input = input.reshape(-1)
    cells, samples = positions.shape[1:]
    parts = []
    for part in _chunks(k, c_out * cells * samples):
        index = _flat_index(rois[part], mapping[part], plane[part], c, h * w)
        values = flat_input.index_select(0, index.reshape(-1)).view(index.shape).to(acc)
        parts.append((values * weights[part, None]).sum(-1))
    return torch.cat(parts).view(out.shape).to(input.dtype), mapping


def ps_roi_align_backward(
    grad,
    rois,
    channel_mapping,
    spatial_scale,
    pooled_height,
    pooled_width,
    sampling_ratio,
    batch_size,
    channels,
    height,
    width,
):
    acc, flat = _input_gradient("ps_roi_align", grad, rois, batch_size, channels, height, width)
    k = rois.size(0)
    if grad.numel() and flat.numel():
        # Empty grids add nothing (their weights stay 0 rather than 0 / 0).
        positions, weights = _align_samples(
            rois, spatial_scale, pooled_height, pooled_width, sampling_ratio, True, height, width
        )
        batch = rois[:, 0].long().view(k, 1, 1)
        plane = (positions - batch * (height * width))[:, None]
        c_out = grad.size(1)
        cells, samples = positions.shape[1:]
        g = grad.reshape(k, c_out, cells, 1).to(acc)
        for part in _chunks(k, c_out * cells * samples):
            index = _flat_index(
                rois[part], channel_mapping[part], plane[part], channels, height * width
            )
            values = g[part] * weights[part, None]
            flat.index_add_(0, index.reshape(-1), values.reshape(-1))
    return flat.view(batch_size, channels, height, width).to(grad.dtype)


# ------------------------------------------------------------------------------- ps_roi_pool


def _windows(rois, spatial_scale, pooled: int, size: int, first: int, last: int):
    """ps_roi_pool's windows along one axis (`first`: the RoI column of their start): each
    bin's `[start, end)` clipped to `[0, last]`, as `[K, pooled]` int64."""
    r = rois.to(torch.float64 if rois.dtype == torch.float64 else torch.float32)
    start = _round(r[:, first] * spatial_scale)
    end = _round(r[:, first + 2] * spatial_scale)
    length = (end - start).clamp(min=1)
    bin_size = length / pooled
    p = torch.arange(pooled, device=rois.device, dtype=r.dtype)[None, :]
    lo = (p * bin_size[:, None]).floor() + start[:, None]
    hi = ((p + 1) * bin_size[:, None]).ceil() + start[:, None]
    return lo.clamp(0, last).long(), hi.clamp(0, last).long()


def _pool_bins(rois, spatial_scale, pooled_h, pooled_w, h, w, backward: bool):
    """Each bin's rows `[y0, y1)` and columns `[x0, x1)` (`[K, PH, 1]` and `[K, 1, PW]`), its
    area (`[K, PH, PW]`, 0 where empty) and the largest window's height and width."""
    y0, y1 = _windows(rois, spatial_scale, pooled_h, h, 2, h if backward else h - 1)
    x0, x1 = _windows(rois, spatial_scale, pooled_w, w, 1, w if backward else w - 1)
    y0, y1, x0, x1 = y0[:, :, None], y1[:, :, None], x0[:, None, :], x1[:, None, :]
    area = (y1 - y0).clamp(min=0) * (x1 - x0).clamp(min=0)
    tallest = max(0, int((y1 - y0).max().item()))
    widest = max(0, int((x1 - x0).max().item()))
    return (y0, y1, x0, x1), area, tallest, widest


def ps_roi_pool(input, rois, spatial_scale, pooled_height, pooled_width):
    _check_rois("ps_roi_pool", input, rois)
    acc = _check_dtype("ps_roi_pool_forward_kernel", input.dtype)
    n, c, h, w = input.shape
    k = rois.size(0)
    c_out = _channels_out(c, pooled_height, pooled_width)
    mapping = _mapping(k, c_out, pooled_height, pooled_width, input.device)
    shape = (k, c_out, pooled_height, pooled_width)
    if k == 0 or input.numel() == 0:
        return torch.zeros(shape, dtype=input.dtype, device=input.device), mapping
    (y0, y1, x0, x1), area, tallest, widest = _pool_bins(
        rois, spatial_scale, pooled_height, pooled_width, h, w, backward=False
    )
    flat_input = input.reshape(-1)
    zero = torch.zeros((), dtype=acc, device=input.device)
    total = torch.zeros(k, c_out, pooled_height * pooled_width, dtype=acc, device=input.device)
    # Row by row, then column by column within a row: the CPU's order of additions.
    for dy in range(tallest):
        y = y0 + dy
        for dx in range(widest):
            x = x0 + dx
            inside = ((y < y1) & (x < x1)).view(k, 1, -1)
            plane = (y.clamp(max=h - 1) * w + x.clamp(max=w - 1)).view(k, 1, -1)
            index = _flat_index(rois, mapping, plane, c, h * w)
            values = flat_input.index_select(0, index.reshape(-1)).view(index.shape).to(acc)
            total += torch.where(inside, values, zero)
    area = area.view(k, 1, -1).to(acc)
    out = torch.where(area > 0, total / area, zero)
    return out.view(shape).to(input.dtype), mapping


def ps_roi_pool_backward(
    grad,
    rois,
    channel_mapping,
    spatial_scale,
    pooled_height,
    pooled_width,
    batch_size,
    channels,
    height,
    width,
):
    acc, flat = _input_gradient("ps_roi_pool", grad, rois, batch_size, channels, height, width)
    k = rois.size(0)
    if k == 0 or grad.numel() == 0 or flat.numel() == 0:
        return flat.view(batch_size, channels, height, width).to(grad.dtype)
    (y0, y1, x0, x1), area, tallest, widest = _pool_bins(
        rois, spatial_scale, pooled_height, pooled_width, height, width, backward=True
    )
    c_out, cells = grad.size(1), pooled_height * pooled_width
    zero = torch.zeros((), dtype=acc, device=grad.device)
    area = area.view(k, 1, cells).to(acc)
    share = torch.where(area > 0, grad.reshape(k, c_out, cells).to(acc) / area, zero)
    # Every bin's window as `[K, cells, c_out, window]`: the CPU's order of additions.
    dy = torch.arange(tallest, device=grad.device).view(1, 1, -1, 1)
    dx = torch.arange(widest, device=grad.device).view(1, 1, 1, -1)
    y = y0.expand(k, pooled_height, pooled_width).reshape(k, cells, 1, 1) + dy
    x = x0.expand(k, pooled_height, pooled_width).reshape(k, cells, 1, 1) + dx
    y_end = y1.expand(k, pooled_height, pooled_width).reshape(k, cells, 1, 1)
    x_end = x1.expand(k, pooled_height, pooled_width).reshape(k, cells, 1, 1)
    inside = ((y < y_end) & (x < x_end)).view(k, cells, 1, -1)
    plane = (y.clamp(max=height - 1) * width + x.clamp(max=width - 1)).view(k, cells, 1, -1)
    by_cell = channel_mapping.reshape(k, c_out, cells).transpose(1, 2)  # [K, cells, c_out]
    batch = rois[:, 0].long().view(k, 1, 1, 1)
    window = tallest * widest
    for part in _chunks(k, cells * c_out * window):
        image_channel = batch[part] * channels + by_cell[part, :, :, None].long()
        index = image_channel * (height * width) + plane[part]
        values = torch.where(inside[part], share[part].transpose(1, 2)[..., None], zero)
        flat.index_add_(0, index.reshape(-1), values.expand(index.shape).reshape(-1))
    return flat.view(batch_size, channels, height, width).to(grad.dtype)


KERNELS = {
    "ps_roi_align": ps_roi_align,
    "_ps_roi_align_backward": ps_roi_align_backward,
    "ps_roi_pool": ps_roi_pool,
    "_ps_roi_pool_backward": ps_roi_pool_backward,
}
