"""torchvision's deformable convolution on mojo: ``torchvision::deform_conv2d`` (v1, and v2
with a mask) and its backward op, composed from mojo's kernels.

Kernel tap ``(i, j)`` of output position ``(oh, ow)`` samples its offset group's channels at
``y = oh * stride_h - pad_h + i * dilation_h + offset_y`` (and ``x`` alike), rounded once as
torchvision's kernels do, by bilinear interpolation: the four corners' rows of the input
(channels of the offset group innermost) are gathered in one index_select per chunk, corners
outside the image read as zero and samples at or past ``-1`` and the size as zero. The
columns (times the mask) then meet the weights in one batched product per weight group.

The backward computes what torchvision's kernels do: the columns' gradient from the weights,
the input's by adding each corner's share back (``index_add_``, deterministic), the offsets'
from the bilinear slopes (with each corner inside the image or zero, and no cutoff at ``-1``
and the size, as ``get_coordinate_weight``), the mask's from the samples, the weights' and
bias's by products and sums over the batch. Half precision is computed in float32.
"""

from __future__ import annotations

import torch

from ._vision_ops import _GATHER_ELEMENTS, _check_mojo, _compute_dtype


class _Shape:
    """The sizes of one deform_conv2d call, checked as torchvision's kernels check them."""

    def __init__(self, input, weight, offset, mask, args):
        stride_h, stride_w, pad_h, pad_w, dil_h, dil_w, groups, offset_groups, use_mask = args
        for name, t in (("input", input), ("offset", offset), ("weight", weight)):
            if t.dim() != 4:
                raise RuntimeError(f"deform_conv2d: {name} must be 4-dimensional, got {t.dim()}")
        if use_mask and mask.dim() != 4:
            raise RuntimeError(f"deform_conv2d: mask must be 4-dimensional, got {mask.dim()}")
        self.batch, self.channels, self.height, self.width = input.shape
        self.out_channels, _, self.kh, self.kw = weight.shape
        if self.kh <= 0 or self.kw <= 0:
            raise RuntimeError(f"weight_h: {self.kh} weight_w: {self.kw}")
        if stride_h <= 0 or stride_w <= 0:
            raise RuntimeError(f"stride_h: {stride_h} stride_w: {stride_w}")
        if pad_h < 0 or pad_w < 0:
            raise RuntimeError(f"pad_h: {pad_h} pad_w: {pad_w}")
        if dil_h <= 0 or dil_w <= 0:
            raise RuntimeError(f"dilation_h: {dil_h} dilation_w: {dil_w}")
        self.out_h = (self.height + 2 * pad_h - (dil_h * (self.kh - 1) + 1)) // stride_h + 1
        self.out_w = (self.width + 2 * pad_w - (dil_w * (self.kw - 1) + 1)) // stride_w + 1
        taps = self.kh * self.kw
        if groups <= 0 or weight.size(1) * groups != self.channels:
            raise RuntimeError(
                f"deform_conv2d: weight.shape[1] * groups ({weight.size(1)} * {groups}) must "
                f"equal the input's channels ({self.channels})"
            )
        if self.out_channels % groups:
            raise RuntimeError(
                f"deform_conv2d: the output channels ({self.out_channels}) must be a multiple "
                f"of groups ({groups})"
            )
        if offset.size(1) != offset_groups * 2 * taps:
            raise RuntimeError(
                f"offset.shape[1] is not valid: got: {offset.size(1)} expected: "
                f"{offset_groups * 2 * taps}"
            )
        if use_mask and mask.size(1) != offset_groups * taps:
            raise RuntimeError(
                f"mask.shape[1] is not valid: got: {mask.size(1)} expected: {offset_groups * taps}"
            )
        if offset_groups <= 0 or self.channels % offset_groups:
            raise RuntimeError(
                f"deform_conv2d: the input's channels ({self.channels}) must be a multiple of "
                f"offset_groups ({offset_groups})"
            )
        if offset.size(0) != self.batch:
            raise RuntimeError("invalid batch size of offset")
        if offset.shape[2:] != (self.out_h, self.out_w):
            raise RuntimeError(
                f"offset output dims: ({offset.size(2)}, {offset.size(3)}) - computed output "
                f"dims: ({self.out_h}, {self.out_w})"
            )
        if mask.size(0) != self.batch:
            raise RuntimeError("invalid batch size of mask")
        if use_mask and mask.shape[2:] != (self.out_h, self.out_w):
            raise RuntimeError(
                f"mask output dims: ({mask.size(2)}, {mask.size(3)}) - computed output dims: "
                f"({self.out_h}, {self.out_w})"
            )
        if self.out_h <= 0 or self.out_w <= 0:
            raise RuntimeError(
                f"Calculated output size too small - out_h: {self.out_h} out_w: {self.out_w}"
            )
        self.stride, self.pad, self.dilation = (stride_h, stride_w), (pad_h, pad_w), (dil_h, dil_w)
        self.groups, self.offset_groups, self.use_mask = groups, offset_groups, use_mask
        self.taps = taps

    def row_chunks(self):
        """Ranges of output rows whose samples' corners, for all channels of one image, fit
        one gather."""
        per_row = 4 * self.channels * self.taps * self.out_w
        step = max(1, _GATHER_ELEMENTS // per_row)
        for start in range(0, self.out_h, step):
            yield start, min(self.out_h, start + step)


class _Samples:
    """The samples of one image's output rows `[r0, r1)`: for each offset group, tap and
    output position, the rows of its four corners (`rows`, `[G, K, L, 4]` into the image's
    `[H * W * G, Cg]` rows), which of them lie in the image, their bilinear weights with zero
    where they do not (`weights`), the fractions `ly`, `lx` and whether the sample lies inside
    `(-1, size)` on both axes."""

    def __init__(self, shape: _Shape, offset, b: int, r0: int, r1: int, acc):
        s, device = shape, offset.device
        g, k = s.offset_groups, s.taps
        off = offset[b].reshape(g, k, 2, s.out_h, s.out_w)[:, :, :, r0:r1].to(acc)
        oh = torch.arange(r0, r1, device=device)
        ow = torch.arange(s.out_w, device=device)
        i = torch.arange(s.kh, device=device).repeat_interleave(s.kw)
        j = torch.arange(s.kw, device=device).repeat(s.kh)
        base_y = oh[None, :, None] * s.stride[0] - s.pad[0] + i[:, None, None] * s.dilation[0]
        base_x = ow[None, None, :] * s.stride[1] - s.pad[1] + j[:, None, None] * s.dilation[1]
        y = base_y.to(acc) + off[:, :, 0]  # [G, K, rows, OW]
        x = base_x.to(acc) + off[:, :, 1]
        self.inside = (y > -1) & (y < s.height) & (x > -1) & (x < s.width)
        y_low, x_low = y.floor(), x.floor()
        self.ly, self.lx = y - y_low, x - x_low
        hy, hx = 1 - self.ly, 1 - self.lx
        ys = torch.stack([y_low, y_low, y_low + 1, y_low + 1], -1)
        xs = torch.stack([x_low, x_low + 1, x_low, x_low + 1], -1)
        self.valid = (ys >= 0) & (ys < s.height) & (xs >= 0) & (xs < s.width)
        ys = torch.where(self.valid, ys, 0).long()
        xs = torch.where(self.valid, xs, 0).long()
        group = torch.arange(g, device=device).view(g, 1, 1, 1, 1)
        rows = (ys * s.width + xs) * g + group
        weights = torch.stack([hy * hx, hy * self.lx, self.ly * hx, self.ly * self.lx], -1)
        zero = torch.zeros((), dtype=acc, device=device)
        self.weights = torch.where(self.valid, weights, zero).flatten(2, 3)  # [G, K, L, 4]
        self.rows = rows.flatten(2, 3)
        self.valid = self.valid.flatten(2, 3)
        self.inside = self.inside.flatten(2, 3)
        self.ly, self.lx = self.ly.flatten(2, 3), self.lx.flatten(2, 3)

    def corners(self, image_rows):
        """The corners' values, `[G, K, L, 4, Cg]`, zero outside the image."""
        shape = (*self.rows.shape, image_rows.size(1))
        values = image_rows.index_select(0, self.rows.reshape(-1)).view(shape)
        zero = torch.zeros((), dtype=values.dtype, device=values.device)
        return torch.where(self.valid[..., None], values, zero)

    def interpolate(self, corners):
        """The samples, `[G, K, L, Cg]`: the weighted corners added in the CPU's order, zero
        outside `(-1, size)`."""
        w = self.weights[..., None]
        value = corners[..., 0, :] * w[..., 0, :] + corners[..., 1, :] * w[..., 1, :]
        value = value + corners[..., 2, :] * w[..., 2, :] + corners[..., 3, :] * w[..., 3, :]
        zero = torch.zeros((), dtype=value.dtype, device=value.device)
        return torch.where(self.inside[..., None], value, zero)


def _image_rows(input, b: int, offset_groups: int, acc):
    """Image `b` as `[H * W * G, Cg]` rows: the channels of each offset group at a pixel."""
    c, h, w = input.shape[1:]
    image = input[b].reshape(offset_groups, c // offset_groups, h, w).to(acc)
    return image.permute(2, 3, 0, 1).reshape(h * w * offset_groups, c // offset_groups)


def _columns(samples, s: _Shape):
    """`[G, K, L, Cg]` values as the columns `[groups, C / groups * K, L]` of the product."""
    g, k, length, cg = samples.shape
    columns = samples.permute(0, 3, 1, 2).reshape(s.channels * k, length)
    return columns.view(s.groups, -1, length)


def _masks(mask, s: _Shape, b: int, r0: int, r1: int, acc):
    """The mask of image `b`'s rows `[r0, r1)` as `[G, K, L, 1]`, or None without one."""
    if not s.use_mask:
        return None
    m = mask[b].reshape(s.offset_groups, s.taps, s.out_h, s.out_w)[:, :, r0:r1]
    return m.to(acc).flatten(2, 3)[..., None]


def _args(rest):
    return tuple(int(a) for a in rest[:8]) + (bool(rest[8]),)


def deform_conv2d(input, weight, offset, mask, bias, *rest):
    s = _Shape(input, weight, offset, mask, _args(rest))
    masks = {"mask": mask} if s.use_mask else {}
    _check_mojo("deform_conv2d", input=input, weight=weight, offset=offset, bias=bias, **masks)
    acc = _compute_dtype(input.dtype)
    out = torch.zeros(s.batch, s.out_channels, s.out_h * s.out_w, dtype=acc, device=input.device)
    w = weight.reshape(s.groups, s.out_channels // s.groups, -1).to(acc)
    for b in range(s.batch):
        image_rows = _image_rows(input, b, s.offset_groups, acc)
        for r0, r1 in s.row_chunks():
            samples = _Samples(s, offset, b, r0, r1, acc)
            columns = samples.interpolate(samples.corners(image_rows))
            m = _masks(mask, s, b, r0, r1, acc)
            if m is not None:
                columns = columns * m
            product = torch.matmul(w, _columns(columns, s))  # [groups, O / groups, L]
            out[b, :, r0 * s.out_w : r1 * s.out_w] = product.reshape(s.out_channels, -1)
    out = out.view(s.batch, s.out_channels, s.out_h, s.out_w) + bias.to(acc).view(1, -1, 1, 1)
    return out.to(input.dtype)


def deform_conv2d_backward(grad, input, weight, offset, mask, bias, *rest):
    s = _Shape(input, weight, offset, mask, _args(rest))
    masks = {"mask": mask} if s.use_mask else {}
    _check_mojo(
        "deform_conv2d_backward", grad=grad, input=input, weight=weight, offset=offset, **masks
    )
    acc = _compute_dtype(input.dtype)
    device = input.device
    g, k = s.offset_groups, s.taps
    cg = s.channels // g
    grad_input = torch.zeros(s.batch, s.height * s.width * g, cg, dtype=acc, device=device)
    grad_offset = torch.zeros(s.batch, g, k, 2, s.out_h * s.out_w, dtype=acc, device=device)
    grad_mask = torch.zeros(s.batch, g, k, s.out_h * s.out_w, dtype=acc, device=device)
    grad_weight = torch.zeros(
        s.groups, s.out_channels // s.groups, s.channels // s.groups * k, dtype=acc, device=device
    )
    w = weight.reshape(s.groups, s.out_channels // s.groups, -1).to(acc)
    go = grad.reshape(s.batch, s.groups, s.out_channels // s.groups, -1).to(acc)
    zero = torch.zeros((), dtype=acc, device=device)
    for b in range(s.batch):
        image_rows = _image_rows(input, b, g, acc)
        for r0, r1 in s.row_chunks():
            span = slice(r0 * s.out_w, r1 * s.out_w)
            samples = _Samples(s, offset, b, r0, r1, acc)
            corners = samples.corners(image_rows)  # [G, K, L, 4, Cg]
            values = samples.interpolate(corners)  # [G, K, L, Cg]
            m = _masks(mask, s, b, r0, r1, acc)
            columns = values if m is None else values * m
            g_out = go[b, :, :, span]
            grad_weight += torch.matmul(g_out, _columns(columns, s).transpose(1, 2))
            # The columns' gradient, as [G, K, L, Cg].
            g_col = torch.matmul(w.transpose(1, 2), g_out)
            g_col = g_col.reshape(g, cg, k, -1).permute(0, 2, 3, 1)
            if m is not None:
                grad_mask[b, :, :, span] = (g_col * values).sum(-1)
                g_col = g_col * m
            # Each corner's share of the input's gradient.
            shares = samples.weights[..., None] * g_col[:, :, :, None, :]
            shares = torch.where(samples.valid[..., None], shares, zero)
            grad_input[b].index_add_(0, samples.rows.reshape(-1), shares.reshape(-1, cg))
            # The offsets': the bilinear slopes along y and x.
            v = corners
            lx, ly = samples.lx[..., None], samples.ly[..., None]
            slope_y = lx * (v[..., 3, :] - v[..., 1, :]) + (1 - lx) * (v[..., 2, :] - v[..., 0, :])
            slope_x = ly * (v[..., 3, :] - v[..., 2, :]) + (1 - ly) * (v[..., 1, :] - v[..., 0, :])
            grad_offset[b, :, :, 0, span] = (g_col * slope_y).sum(-1)
            grad_offset[b, :, :, 1, span] = (g_col * slope_x).sum(-1)
    grad_input = grad_input.view(s.batch, s.height, s.width, g, cg).permute(0, 3, 4, 1, 2)
    grad_input = grad_input.reshape(input.shape).to(input.dtype)
    grad_offset = grad_offset.view(offset.shape).to(offset.dtype)
    if s.use_mask:
        grad_mask = grad_mask.view(mask.shape).to(mask.dtype)
    else:
        grad_mask = torch.zeros_like(mask)
    grad_weight = grad_weight.view(weight.shape).to(weight.dtype)
    grad_bias = grad.to(acc).sum((0, 2, 3)).to(bias.dtype)
    return grad_input, grad_weight, grad_offset, grad_mask, grad_bias


KERNELS = {
    "deform_conv2d": deform_conv2d,
    "_deform_conv2d_backward": deform_conv2d_backward,
}
