"""Fractional max pooling (`F.fractional_max_pool2d`/`3d`), composed from mojo's kernels below
autograd (registered for PrivateUse1, so PyTorch's derivative calls the backward kernel,
`fractional_max_pool{2,3}d_backward` in `src/ops/nn/pool.rs`).

Each plane's window starts follow from its random samples exactly as the CPU's kernel
computes them, in the input's dtype: for output `i < out - 1`, `int((i + u) * alpha) -
int(u * alpha)` with `alpha = (in - pool) / (out - 1)`, and `in - pool` for the last. Every
window is then scanned as the CPU's kernel scans it, one tap at a time over all windows at
once: a value replaces the maximum when greater, or when NaN.
"""

import itertools
import math

import torch

_library = None


def _check_samples(x, samples, dims):
    """The CPU kernel's checks of `_random_samples` against the input."""
    name = "_random_samples"
    if samples.dtype != x.dtype:
        raise RuntimeError(f"Expect {name} to have the same dtype as input")
    if samples.dim() != 3:
        raise RuntimeError(f"Expect {name} to have 3 dimensions, got {samples.dim()}")
    batched = x.dim() == dims + 2
    batch, channels = (x.shape[0], x.shape[1]) if batched else (1, x.shape[0])
    if samples.shape[0] < batch:
        raise RuntimeError(f"Expect {name}.size(0) no less then input batch size.")
    if samples.shape[1] != channels:
        raise RuntimeError(f"Expect {name}.size(1) equals to input channel size.")
    if samples.shape[2] != dims:
        raise RuntimeError(f"Expect {name}.size(2) equals to {dims}; got {samples.shape[2]}.")


def _starts(samples, in_size, out_size, pool):
    """`[planes, out_size]` window starts along one dimension, from one sample per plane."""
    planes, device = samples.shape[0], samples.device
    last = torch.full((planes, 1), in_size - pool, dtype=torch.long, device=device)
    if out_size <= 1:
        return last[:, :out_size]
    dtype = samples.dtype
    alpha = torch.tensor(in_size - pool, dtype=dtype, device=device) / torch.tensor(
        out_size - 1, dtype=dtype, device=device
    )
    u = samples.unsqueeze(1)
    steps = torch.arange(out_size - 1, device=device).to(dtype)
    inner = ((steps + u) * alpha).to(torch.long) - (u * alpha).to(torch.long)
    return torch.cat([inner, last], dim=1)


def _fractional_max_pool(x, kernel_size, output_size, samples, dims):
    op = getattr(torch.ops.aten, f"fractional_max_pool{dims}d")
    # PyTorch's own argument checks and output sizes: its meta kernel.
    meta_out, _ = op(
        torch.empty_like(x, device="meta"),
        kernel_size,
        output_size,
        torch.empty_like(samples, device="meta"),
    )
    _check_samples(x, samples, dims)
    batched = x.dim() == dims + 2
    xb = x if batched else x.unsqueeze(0)
    n, c, in_sizes = xb.shape[0], xb.shape[1], xb.shape[2:]
    out_sizes = list(meta_out.shape[-dims:])
    out = x.new_empty(meta_out.shape)
    indices = torch.empty(meta_out.shape, dtype=torch.long, device=x.device)
    if out.numel() == 0:
        return out, indices
    planes = samples[:n].reshape(n * c, dims)
    # The samples name the dimensions (W, H) for 2-D pooling and (T, H, W) for 3-D.
    column = [1, 0] if dims == 2 else [0, 1, 2]
    strides = [math.prod(in_sizes[d + 1 :]) for d in range(dims)]
    first = None  # [planes, *out_sizes]: each window's first position in its plane
    for d in range(dims):
        starts = _starts(planes[:, column[d]], in_sizes[d], out_sizes[d], kernel_size[d])
        shape = [n * c] + [1] * dims
        shape[1 + d] = out_sizes[d]
        along = (starts * strides[d]).reshape(shape)
        first = along if first is None else first + along
    first = first.reshape(n * c, -1)
    image = xb.reshape(n * c, -1)
    # The CPU's scan, one tap at a time over every window: a value replaces the maximum
    # when greater, or when NaN.
    best = torch.full(first.shape, float("-inf"), dtype=x.dtype, device=x.device)
    where = first
    for tap in itertools.product(*(range(k) for k in kernel_size)):
        position = first + sum(t * stride for t, stride in zip(tap, strides, strict=True))
        value = image.gather(1, position)
        take = (value > best) | value.isnan()
        best = torch.where(take, value, best)
        where = torch.where(take, position, where)
    out.copy_(best.reshape(out.shape))
    indices.copy_(where.reshape(out.shape))
    return out, indices


def fractional_max_pool2d(x, kernel_size, output_size, random_samples):
    return _fractional_max_pool(x, kernel_size, output_size, random_samples, 2)


def fractional_max_pool3d(x, kernel_size, output_size, random_samples):
    return _fractional_max_pool(x, kernel_size, output_size, random_samples, 3)


def register():
    """Registers the forward ops for mojo tensors."""
    global _library
    if _library is not None:
        return
    _library = torch.library.Library("aten", "IMPL")
    _library.impl("fractional_max_pool2d", fractional_max_pool2d, "PrivateUse1")
    _library.impl("fractional_max_pool3d", fractional_max_pool3d, "PrivateUse1")
