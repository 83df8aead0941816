"""`torch.histogram` and `torch.histogramdd` composed from mojo's kernels, registered below
autograd (PrivateUse1; histograms have no gradient), as the CPU computes them:

- outer edges from `range`, else the data's minimum and maximum per dimension (read with one
  synchronisation; (0, 1) for empty input; an empty range widened by 1/2 each side), the
  edges between them by `linspace` in the input's dtype;
- each value's bin is the last edge not above it (`searchsorted`), the rightmost edge
  belonging to the last bin; values outside the edges (NaN too) count nowhere;
- counts (or weights) are added in element order by `index_add`, so sums round as the CPU's;
- `density` divides by the total, then by each dimension's bin widths.
"""

import builtins
import math

import torch


def _check(input, bin_count, weight):
    if not input.is_floating_point():
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{_c10_name(input.dtype)}'")
    if input.dim() < 2:
        raise RuntimeError(
            "torch.histogramdd: input tensor should have at least 2 dimensions, but got "
            f"{input.dim()}"
        )
    dims = input.size(-1)
    if bin_count != dims:
        raise RuntimeError(
            f"torch.histogramdd: expected {dims} sequences of bin edges for a {dims}-dimensional "
            f"histogram but got {bin_count}"
        )
    if weight is not None and list(weight.shape) != list(input.shape[:-1]):
        raise RuntimeError(
            "torch.histogramdd: if weight tensor is provided it should have the same shape as "
            "the input tensor excluding its innermost dimension, but got input with shape "
            f"{list(input.shape)} and weight with shape {list(weight.shape)}"
        )
    return input.reshape(-1, dims)


def _c10_name(dtype):
    names = {torch.int64: "Long", torch.int32: "Int", torch.int16: "Short", torch.int8: "Char"}
    return names.get(dtype, {torch.uint8: "Byte", torch.bool: "Bool"}.get(dtype, str(dtype)))


def _outer_edges(x, range):
    dims = x.size(1)
    if range is not None:
        if len(range) != 2 * dims:
            raise RuntimeError(
                f"torch.histogramdd: for a {dims}-dimensional histogram range should have "
                f"{2 * dims} elements, but got {len(range)}"
            )
        low, high = list(range[0::2]), list(range[1::2])
    elif x.numel():
        low, high = x.amin(0).tolist(), x.amax(0).tolist()
    else:
        low, high = [0.0] * dims, [1.0] * dims
    for dim in builtins.range(dims):
        if not (math.isfinite(low[dim]) and math.isfinite(high[dim])):
            raise RuntimeError(
                f"torch.histogramdd: dimension {dim}'s range [{_number(low[dim])}, "
                f"{_number(high[dim])}] is not finite"
            )
        if low[dim] > high[dim]:
            raise RuntimeError(
                f"torch.histogramdd: min should not exceed max, but got min {_number(low[dim])} "
                f"max {_number(high[dim])} for dimension {dim}"
            )
        if low[dim] == high[dim]:
            low[dim] -= 0.5
            high[dim] += 0.5
    return low, high


def _number(v):
    return f"{v:g}"


def _edges(x, bins, range):
    for dim, count in enumerate(bins):
        if count <= 0:
            raise RuntimeError(
                f"torch.histogram(): bins must be > 0, but got {count} for dimension {dim}"
            )
    low, high = _outer_edges(x, range)
    return [
        torch.linspace(low[d], high[d], bins[d] + 1, dtype=x.dtype, device=x.device)
        for d in builtins.range(len(bins))
    ]


def _count(x, edges, weight, density):
    """The histogram of the rows of `x` over `edges` (one sorted tensor per column)."""
    counts = [e.numel() - 1 for e in edges]
    inside = torch.ones(x.size(0), dtype=torch.bool, device=x.device)
    flat = torch.zeros(x.size(0), dtype=torch.long, device=x.device)
    for dim, e in enumerate(edges):
        v = x[:, dim].contiguous()
        inside &= (v >= e[0]) & (v <= e[-1])
        position = torch.searchsorted(e.contiguous(), v, right=True) - 1
        flat = flat * counts[dim] + position.clamp(0, max(counts[dim] - 1, 0))
    values = torch.ones_like(x[:, 0]) if weight is None else weight.reshape(-1).to(x.dtype)
    values = torch.where(inside, values, 0)
    size = math.prod(counts)
    hist = torch.zeros(size, dtype=x.dtype, device=x.device)
    if size and x.size(0):
        hist.index_add_(0, flat, values)
    hist = hist.reshape(counts)
    if density:
        hist = hist / hist.sum()
        for dim, e in enumerate(edges):
            shape = [1] * len(edges)
            shape[dim] = counts[dim]
            hist = hist / e.diff().reshape(shape)
    return hist


def histogramdd_bin_edges(input, bins, *, range=None, weight=None, density=False):
    x = _check(input, len(bins), weight)
    return _edges(x, bins, range)


def histogramdd_from_bin_cts(input, bins, *, range=None, weight=None, density=False):
    x = _check(input, len(bins), weight)
    return _count(x, _edges(x, bins, range), weight, density)


def histogramdd_from_bin_tensors(input, bins, *, weight=None, density=False):
    x = _check(input, len(bins), weight)
    for b in bins:
        if b.dtype != input.dtype:
            raise RuntimeError(
                "torch.histogramdd: input tensor and bins tensors should have the same dtype, "
                f"but got input with dtype {input.dtype} and bins with dtype {b.dtype}"
            )
        if b.dim() != 1:
            raise RuntimeError(
                f"torch.histogramdd: bins tensor should have one dimension, but got {b.dim()} "
                "dimensions in the bins tensor"
            )
        if b.numel() == 0:
            raise RuntimeError(
                "torch.histogramdd: bins tensor should have at least 1 element, but got 0 elements"
            )
    return _count(x, list(bins), weight, density)


def histogram_bin_ct(input, bins=100, *, range=None, weight=None, density=False):
    x = _check(input.reshape(-1, 1), 1, None if weight is None else weight.reshape(-1))
    edges = _edges(x, [bins], range)
    weights = None if weight is None else weight.reshape(-1)
    return _count(x, edges, weights, density), edges[0]


def histogram_bins_tensor(input, bins, *, weight=None, density=False):
    x = input.reshape(-1, 1)
    weights = None if weight is None else weight.reshape(-1)
    hist = histogramdd_from_bin_tensors(x, [bins], weight=weights, density=density)
    return hist, bins.clone()


KERNELS = {
    "histogram.bin_ct": histogram_bin_ct,
    "histogram.bins_tensor": histogram_bins_tensor,
    "_histogramdd_bin_edges": histogramdd_bin_edges,
    "_histogramdd_from_bin_cts": histogramdd_from_bin_cts,
    "_histogramdd_from_bin_tensors": histogramdd_from_bin_tensors,
}
