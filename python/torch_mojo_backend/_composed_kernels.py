"""Kernels composed from mojo's kernels, registered below autograd (the PrivateUse1 key).

Unlike `_composites` (registered above autograd), these are the device kernels themselves:
PyTorch's own argument checks (the structured ops' meta functions), output allocation and
derivative formulas run around them, exactly as for a kernel written in Rust. Each computes
what the CPU's kernel does, in the same order of operations where the result depends on it:

- `linalg_cross.out` (`torch.cross`, `torch.linalg.cross`): `a1*b2 - a2*b1` per component.
- `addbmm` and `addbmm.out`: `beta * self + alpha * (sum of the batch's products)`, the
  products summed by one matrix product over the batch (the CPU adds them batch by batch:
  floating results agree within rounding, integers exactly).
- `index_reduce.out` (`prod`, `mean`, `amax`, `amin`, with or without `self`): the
  scatter-reduce of `source` over `index` broadcast along the other dimensions.
- `renorm.out`: the CPU's norm (in the accumulate type), factor `maxnorm / (norm + 1e-7)` where
  the norm exceeds `maxnorm`, then one product.
- `bucketize.Tensor`, `bucketize.Scalar` (and `_out`): `searchsorted` over the boundaries.
- `tril_indices`, `triu_indices`: the coordinates of a mask of the triangle, row-major.
- `nonzero_static`: `nonzero` cut or padded with `fill_value` to `size` rows.
- `trace`: the diagonal's sum (integers summed as int64).
- `logsumexp`: real tensors through the Rust kernel (`logsumexp.out`); complex ones as ATen
  composes them, the largest real part (infinite ones as zero) taken out before `exp`.
- `hash_tensor.out` (mode 0, the only one): the XOR of the elements' 64-bit patterns, floats
  converted to float64 first and integers to int64, as the CPU's kernel does; the reduced
  dimensions are moved last and folded in halves (log2(n) elementwise XORs), and the result
  written through an int64 view of the uint64 output.
- `repeat_interleave.Tensor` (the index form `Tensor.repeat_interleave` builds on): for each
  output position, the entry whose run of repeats holds it (a cumulative sum of the jumps
  where runs start: linear).
- `median`, `nanmedian`, with or without a dimension: the lower middle of the values sorted
  stably (the index of the first of equal values there, as the CPU's selection gives on
  short rows), picked on the device; a row with a NaN gives its first NaN (median), a row of
  NaNs only its first NaN (nanmedian).
- `mode`: the longest run of equal values in each row sorted stably (the smallest value among
  equally long runs; NaNs are runs of one), and the last index holding it, as on the CPU.
- `normal` with tensor means or deviations (`normal.Tensor_float`, `.float_Tensor`,
  `.Tensor_Tensor` and their out forms): standard draws from mojo's generator scaled and
  shifted in CUDA's order (`z * std + mean`), so a seed gives CUDA's numbers.
- `_cummax_helper`, `_cummin_helper` (`cummax`, `cummin`) and `_logcumsumexp`: scans by
  doubling (log2(n) elementwise passes, each combining every entry with the one 2^k
  before it). The running extreme takes the later of equal values and NaN over numbers, as
  the CPU's loop does, so values and indices are exact; the log-sum-exp adds in another
  order than the CPU's loop (within rounding).
- `frexp`: the exponent from log2 in float64, corrected next to powers of two, the scaling by
  powers of two built from their bits; exact.
- `segment_reduce` and its backward (lengths or offsets, every reduction, `initial`): a
  scatter-reduce into the segment each position falls in (found by searchsorted over the
  segments' ends), a mean dividing by the length only, gradients as the CPU's (extremes
  shared among ties, products of the others).
- `unique_consecutive` (flattened or along a dimension): the first entry of each run, the run
  of each entry and the runs' lengths; `unique_dim` (`torch.unique(dim=)`): the slices sorted
  lexicographically by stable sorts on each coordinate, last first, then their runs.
- `equal` (`torch.equal`): same sizes and every element equal (one reduction, one read);
  `fill_.Tensor`: the zero-dimensional value read, then a fill; `_copy_from_and_resize`: the
  `out=` resized as ATen's `resize_output` does (warning if it had elements), then the copy.
"""

import math

import torch

from ._complex import resize_out


def linalg_cross_out(self, other, *, dim=-1, out):
    a, b = torch.broadcast_tensors(self, other)
    dim = dim % a.dim()
    ax, ay, az = a.unbind(dim)
    bx, by, bz = b.unbind(dim)
    result = torch.stack([ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx], dim)
    return out.copy_(result)


def _addbmm(self, batch1, batch2, beta, alpha):
    if batch1.dim() != 3 or batch2.dim() != 3:
        raise RuntimeError(
            "batch1 must be a 3D tensor" if batch1.dim() != 3 else "batch2 must be a 3D tensor"
        )
    batches, n, k = batch1.shape
    m = batch2.size(2)
    # Sum over the batch as one product: (n, b*k) @ (b*k, m).
    left = batch1.permute(1, 0, 2).reshape(n, batches * k)
    right = batch2.reshape(batches * k, m)
    return torch.addmm(self, left, right, beta=beta, alpha=alpha)


def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
    return _addbmm(self, batch1, batch2, beta, alpha)


def addbmm_out(self, batch1, batch2, *, beta=1, alpha=1, out):
    result = _addbmm(self, batch1, batch2, beta, alpha)
    out.resize_(result.shape)
    return out.copy_(result)


def index_reduce_out(self, dim, index, source, reduce, *, include_self=True, out):
    if out.data_ptr() != self.data_ptr():
        out.copy_(self)
    if index.numel() == 0:
        return out
    dim = dim % max(source.dim(), 1)
    if source.dim() == 0:
        source = source.reshape(1)
    shape = [1] * source.dim()
    shape[dim] = index.numel()
    spread = index.reshape(shape).expand(source.shape)
    target = out if out.dim() > 0 else out.view(1)
    target.scatter_reduce_(dim, spread, source, reduce, include_self=include_self)
    return out


def renorm_out(self, p, dim, maxnorm, *, out):
    dims = [d for d in range(self.dim()) if d != dim % self.dim()]
    accumulate = torch.float32 if self.dtype in (torch.float16, torch.bfloat16) else self.dtype
    norm = torch.linalg.vector_norm(self, float(p), dims, keepdim=True, dtype=accumulate)
    maximum = float(maxnorm)
    factor = torch.where(norm > maximum, maximum / (norm + 1e-7), torch.ones_like(norm))
    return torch.mul(self, factor.to(self.dtype), out=out)


def _check_boundaries(boundaries):
    if boundaries.dim() != 1:
        raise RuntimeError(
            f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})"
        )


def bucketize_tensor(self, boundaries, *, out_int32=False, right=False):
    _check_boundaries(boundaries)
    return torch.searchsorted(boundaries, self, out_int32=out_int32, right=right)


def bucketize_tensor_out(self, boundaries, *, out_int32=False, right=False, out):
    _check_boundaries(boundaries)
    return torch.searchsorted(boundaries, self, out_int32=out_int32, right=right, out=out)


def bucketize_scalar(self, boundaries, *, out_int32=False, right=False):
    _check_boundaries(boundaries)
    return torch.searchsorted(boundaries, self, out_int32=out_int32, right=right)


def _triangle_indices(row, col, offset, dtype, device, lower):
    if row < 0 or col < 0:
        which = "row" if row < 0 else "col"
        raise RuntimeError(f"{which} must be non-negative, got{row if row < 0 else col}")
    rows = torch.arange(row, device=device).unsqueeze(1)
    cols = torch.arange(col, device=device).unsqueeze(0)
    mask = (cols - rows <= offset) if lower else (cols - rows >= offset)
    return torch.nonzero(mask).t().to(dtype or torch.long).contiguous()


def tril_indices(row, col, offset=0, *, dtype=None, layout=None, device=None, pin_memory=None):
    return _triangle_indices(row, col, offset, dtype, device, lower=True)


def triu_indices(row, col, offset=0, *, dtype=None, layout=None, device=None, pin_memory=None):
    return _triangle_indices(row, col, offset, dtype, device, lower=False)


def nonzero_static(self, *, size, fill_value=-1):
    if size < 0:
        raise RuntimeError(
            f"nonzero_static: 'size' must be an non-negative integer, but got {size}"
        )
    found = torch.nonzero(self)
    if found.size(0) >= size:
        return found[:size].contiguous()
    padding = found.new_full((size - found.size(0), found.size(1)), fill_value)
    return torch.cat([found, padding])


def trace(self):
    if self.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {self.dim()}")
    return self.diagonal().sum()


def logsumexp(self, dim, keepdim=False):
    """Real tensors go to the Rust kernel (`logsumexp.out`); complex ones are composed as ATen
    composes them: the largest real part (infinite ones as zero) taken out before exp."""
    if not self.is_complex():
        dtype = self.dtype if self.is_floating_point() else torch.get_default_dtype()
        out = torch.empty(0, dtype=dtype, device=self.device)
        return torch.ops.aten.logsumexp.out(self, dim, keepdim, out=out)
    maxes = torch.amax(self.real, dim, keepdim=True)
    maxes = maxes.masked_fill(maxes.abs() == float("inf"), 0)
    summed = torch.sum(torch.exp(self - maxes), dim, keepdim)
    return torch.log(summed) + maxes.reshape(summed.shape)


def hash_tensor_out(self, dim=(), *, keepdim=False, mode=0, out):
    if mode != 0:
        raise RuntimeError(f"Unknown hash_tensor mode: {mode}")
    if self.is_floating_point():
        bits = self.to(torch.float64).view(torch.int64)
    else:
        bits = self.to(torch.int64)
    bits = bits.reshape(1) if self.dim() == 0 else bits
    rank = bits.dim()
    reduced = sorted({d % rank for d in dim}) if len(dim) else list(range(rank))
    kept = [d for d in range(rank) if d not in reduced]
    rows = bits.permute(*kept, *reduced).reshape(*(bits.shape[d] for d in kept), -1)
    while rows.shape[-1] > 1:
        n = rows.shape[-1]
        half = n // 2
        rows = torch.cat([rows[..., :half] ^ rows[..., n - half :], rows[..., half : n - half]], -1)
    result = (
        rows[..., 0]
        if rows.shape[-1]
        else torch.zeros(rows.shape[:-1], dtype=torch.int64, device=self.device)
    )
    out.view(torch.int64).copy_(result.reshape(out.shape))
    return out


def repeat_interleave_indices(repeats, *, output_size=None):
    if repeats.dim() != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if repeats.dtype not in (torch.int32, torch.int64):
        raise RuntimeError("repeats has to be Long or Int tensor")
    if repeats.numel() and bool((repeats < 0).any()):
        raise RuntimeError("repeats can not be negative")
    counts = repeats.to(torch.long)
    ends = counts.cumsum(0)
    total = int(ends[-1]) if output_size is None and repeats.numel() else (output_size or 0)
    # Each entry with repeats starts a run: there the running entry number jumps from the
    # previous such entry to it; a cumulative sum of the jumps numbers every position.
    present = (counts > 0).nonzero().reshape(-1)
    jumps = torch.zeros(total, dtype=torch.long, device=repeats.device)
    if present.numel():
        steps = torch.diff(present, prepend=present.new_zeros(1))
        jumps.scatter_(0, (ends - counts).index_select(0, present), steps)
    return jumps.cumsum(0).to(repeats.dtype)


def _middle(sorted_values, count):
    """The lower middle of the first `count` (a device scalar) of `sorted_values`."""
    k = ((count - 1).clamp(min=0) // 2).reshape(1)
    return sorted_values.index_select(0, k).reshape(())


def median(self):
    flat = self.reshape(-1)
    if flat.numel() == 0:
        return torch.full((), float("nan"), dtype=self.dtype, device=self.device)
    ordered = flat.sort().values
    value = _middle(ordered, torch.tensor(flat.numel(), device=self.device))
    if self.is_floating_point():
        value = torch.where(flat.isnan().any(), torch.full_like(value, float("nan")), value)
    return value


def nanmedian(self):
    if not self.is_floating_point():
        return median(self)
    flat = self.reshape(-1)
    if flat.numel() == 0:
        return torch.full((), float("nan"), dtype=self.dtype, device=self.device)
    # NaNs sort last: the middle of the numbers before them (all NaN: the first NaN).
    count = (~flat.isnan()).sum()
    return _middle(flat.sort().values, count)


def _median_along(self, dim, keepdim, values, indices, skip_nan):
    if self.dim() == 0:
        return _into(values, self.clone()), _into(indices, torch.zeros_like(self, dtype=torch.long))
    dim = dim % self.dim()
    n = self.size(dim)
    if n == 0:
        raise IndexError(f"median(): Expected reduction dim {dim} to have non-zero size.")
    ordered, order = torch.sort(self, dim=dim, stable=True)
    if self.is_floating_point():
        nans = self.isnan().sum(dim, keepdim=True)
        if skip_nan:
            position = ((n - nans - 1).clamp(min=0)) // 2
        else:
            position = torch.where(nans > 0, n - nans, torch.full_like(nans, (n - 1) // 2))
    else:
        shape = list(self.shape)
        shape[dim] = 1
        position = torch.full(shape, (n - 1) // 2, dtype=torch.long, device=self.device)
    value, index = ordered.gather(dim, position), order.gather(dim, position)
    if not keepdim:
        value, index = value.squeeze(dim), index.squeeze(dim)
    return _into(values, value), _into(indices, index)


def median_dim_values(self, dim, keepdim=False, *, values, indices):
    return _median_along(self, dim, keepdim, values, indices, skip_nan=False)


def nanmedian_dim_values(self, dim, keepdim=False, *, values, indices):
    return _median_along(self, dim, keepdim, values, indices, skip_nan=True)


def mode(self, dim=-1, keepdim=False):
    if self.dim() == 0:
        return self.clone(), torch.zeros_like(self, dtype=torch.long)
    dim = _wrap_dim(dim, self.dim())
    n = self.size(dim)
    if n == 0:
        raise IndexError(f"mode(): Expected reduction dim {dim} to have non-zero size.")
    rows = self.movedim(dim, -1)
    shape = rows.shape[:-1]
    rows = rows.reshape(-1, n)
    ordered, order = torch.sort(rows, dim=1, stable=True)
    starts = torch.ones_like(ordered, dtype=torch.bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    position = torch.arange(n, device=self.device).expand_as(ordered)
    run_start = torch.where(starts, position, torch.zeros_like(position)).cummax(1).values
    last = torch.ones_like(starts)
    last[:, :-1] = starts[:, 1:]
    # At each run's last entry, its length; argmax takes the first (smallest) longest run.
    length = torch.where(last, position - run_start + 1, torch.zeros_like(position))
    best = length.argmax(1, keepdim=True)
    values = ordered.gather(1, best).reshape(shape)
    indices = order.gather(1, best).reshape(shape)
    if keepdim:
        values, indices = values.unsqueeze(dim), indices.unsqueeze(dim)
    return values, indices


def _check_std(std):
    if isinstance(std, torch.Tensor):
        if std.numel() and not bool((std >= 0).all()):
            raise RuntimeError("normal expects all elements of std >= 0.0")
    elif std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")


def normal_tensor_float(mean, std=1.0, *, generator=None):
    _check_std(std)
    out = torch.empty_like(mean, memory_format=torch.contiguous_format)
    return out.normal_(0, std, generator=generator).add_(mean)


def normal_float_tensor(mean, std, *, generator=None):
    _check_std(std)
    out = torch.empty_like(std, memory_format=torch.contiguous_format)
    return out.normal_(0, 1, generator=generator).mul_(std).add_(mean)


def normal_tensor_tensor(mean, std, *, generator=None):
    _check_std(std)
    shape = torch.broadcast_shapes(mean.shape, std.shape)
    out = torch.empty(shape, dtype=mean.dtype, device=mean.device)
    return out.normal_(0, 1, generator=generator).mul_(std).add_(mean)


def _into(out, result):
    out.resize_(result.shape)
    return out.copy_(result)


def _shifted(t, dim, k, fill):
    """`t` moved k places later along `dim`, the first k places `fill`."""
    head = torch.full_like(t.narrow(dim, 0, k), fill)
    return torch.cat([head, t.narrow(dim, 0, t.size(dim) - k)], dim)


def _running_extreme(self, values, indices, dim, larger):
    if self.dim() == 0:
        values.copy_(self)
        indices.zero_()
        return
    dim = dim % self.dim()
    n = self.size(dim)
    shape = [1] * self.dim()
    shape[dim] = n
    best = self.clone()
    where = torch.arange(n, device=self.device).reshape(shape).expand(self.shape).contiguous()
    if self.dtype == torch.bool:
        edge = not larger
    elif self.is_floating_point():
        edge = float("-inf") if larger else float("inf")
    else:
        info = torch.iinfo(self.dtype)
        edge = info.min if larger else info.max
    k = 1
    while k < n:
        before, before_at = _shifted(best, dim, k, edge), _shifted(where, dim, k, -1)
        keep = before > best if larger else before < best
        if self.is_floating_point():
            keep = keep | (before.isnan() & ~best.isnan())
        best = torch.where(keep, before, best)
        where = torch.where(keep, before_at, where)
        k *= 2
    values.copy_(best)
    indices.copy_(where)


def cummax_helper(self, values, indices, dim):
    _running_extreme(self, values, indices, dim, larger=True)


def cummin_helper(self, values, indices, dim):
    _running_extreme(self, values, indices, dim, larger=False)


def _wrap_dim(dim, rank):
    low, high = -max(rank, 1), max(rank, 1) - 1
    if not low <= dim <= high:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})"
        )
    return dim % max(rank, 1)


def logcumsumexp(self, dim):
    dim = _wrap_dim(dim, self.dim())
    if self.dim() == 0:
        return self.clone()
    total = self.clone()
    k = 1
    while k < self.size(dim):
        total = torch.logaddexp(_shifted(total, dim, k, float("-inf")), total)
        k *= 2
    return total


def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
    if dim is None:
        values = self.reshape(-1)
        along = 0
    else:
        along = dim % max(self.dim(), 1)
        values = self if self.dim() else self.reshape(1)
    length = values.size(along) if values.dim() else 0
    if values.numel() == 0:
        empty = self.new_empty((0,) if dim is None else values.shape)
        inverse = torch.zeros(
            self.shape if dim is None else (length,), dtype=torch.long, device=self.device
        )
        return empty, inverse, torch.zeros(0, dtype=torch.long, device=self.device)
    here = values.narrow(along, 1, length - 1)
    before = values.narrow(along, 0, length - 1)
    differs = here != before
    if differs.dim() > 1:
        differs = differs.movedim(along, 0).flatten(1).any(1)
    starts = torch.cat([torch.ones(1, dtype=torch.bool, device=self.device), differs])
    first = starts.nonzero().reshape(-1)
    output = values.index_select(along, first)
    inverse = starts.to(torch.long).cumsum(0) - 1
    if dim is None:
        inverse = inverse.reshape(self.shape)
    ends = torch.cat([first[1:], torch.full((1,), length, dtype=torch.long, device=self.device)])
    return output, inverse, ends - first


def unique_dim(self, dim, sorted=True, return_inverse=False, return_counts=False):
    """The distinct slices along `dim` in ascending lexicographic order (always sorted, as
    on the CPU): the slices ordered by stable sorts on each coordinate from the last to the
    first, then their runs of equal slices."""
    along = dim % max(self.dim(), 1)
    slices = self.movedim(along, 0) if self.dim() else self.reshape(1)
    flat = slices.reshape(slices.size(0), math.prod(slices.shape[1:]))
    order = torch.arange(slices.size(0), device=self.device)
    for column in range(flat.size(1) - 1, -1, -1):
        order = order[flat[order, column].argsort(stable=True)]
    output, inverse, counts = unique_consecutive(slices.index_select(0, order), dim=0)
    inverse = torch.empty_like(inverse).scatter_(0, order, inverse)
    return output.movedim(0, along) if self.dim() else output, inverse, counts


def _power_of_two(k):
    """2^k in float64 for int64 k in [-1022, 1023], built from its bits (exact)."""
    return ((k + 1023) * (1 << 52)).view(torch.float64)


def _scale_by_power_of_two(x, k):
    """x * 2^k exactly, in two steps so that k may reach +-1074 (subnormals)."""
    half = torch.div(k, 2, rounding_mode="floor")
    return x * _power_of_two(half) * _power_of_two(k - half)


def frexp_out(self, *, mantissa, exponent):
    """x = mantissa * 2^exponent with 0.5 <= |mantissa| < 1, as C's frexp: zeros, infinities
    and NaNs keep their value with exponent 0. The exponent is guessed from log2 in float64
    and corrected by one where the guess landed next to a power of two; the scaling is by
    powers of two built from their bits, so exact."""
    wide = self.double()
    regular = torch.isfinite(wide) & (wide != 0)
    magnitude = torch.where(regular, wide.abs(), torch.ones_like(wide))
    e = (torch.floor(torch.log2(magnitude)) + 1).long()
    m = _scale_by_power_of_two(magnitude, -e)
    e = torch.where(m >= 1, e + 1, torch.where(m < 0.5, e - 1, e))
    m = _scale_by_power_of_two(wide, -e)
    mantissa.copy_(torch.where(regular, m, wide))
    exponent.copy_(torch.where(regular, e, torch.zeros_like(e)))
    return mantissa, exponent


_EMPTY_SEGMENT = {"sum": 0.0, "mean": math.nan, "max": -math.inf, "min": math.inf, "prod": 1.0}
_SCATTER_REDUCE = {"sum": "sum", "mean": "sum", "max": "amax", "min": "amin", "prod": "prod"}


def _segments(data, lengths, offsets, axis):
    """(segment of each position along `axis` broadcast to data's shape, with positions past
    the last segment in an extra one; the segments' lengths)."""
    if offsets is None:
        offsets = torch.nn.functional.pad(lengths.cumsum(-1), (1, 0))
    counts = offsets[..., 1:] - offsets[..., :-1]
    span = data.size(axis)
    positions = torch.arange(span, device=data.device).expand(*offsets.shape[:-1], span)
    ends = offsets[..., 1:].contiguous()
    segment = torch.searchsorted(ends, positions.contiguous(), right=True)
    segment = segment.reshape(*segment.shape, *([1] * (data.dim() - axis - 1)))
    return segment.expand(data.shape), counts


def _segment_shape(data, counts, axis, extra):
    return (*data.shape[:axis], counts.size(-1) + extra, *data.shape[axis + 1 :])


def segment_reduce(
    data, reduce, *, lengths=None, indices=None, offsets=None, axis=0, unsafe=False, initial=None
):
    """The CPU's segment reduction: each segment reduced from `initial` when given (a mean
    then divides by the segment's length only), else from the empty segment's value."""
    axis = axis % data.dim()
    segment, counts = _segments(data, lengths, offsets, axis)
    start = _EMPTY_SEGMENT[reduce] if initial is None else float(initial)
    shape = _segment_shape(data, counts, axis, 1)
    out = torch.full(shape, start, dtype=data.dtype, device=data.device)
    if reduce == "mean" and initial is None:
        out.zero_()
    out.scatter_reduce_(axis, segment, data, _SCATTER_REDUCE[reduce], include_self=True)
    out = out.narrow(axis, 0, counts.size(-1))
    if reduce == "mean":
        length = counts.reshape(*counts.shape, *([1] * (data.dim() - axis - 1))).to(data.dtype)
        empty = torch.full_like(out, start)
        out = torch.where(length > 0, out / length.clamp_min(1), empty)
    return out


def segment_reduce_backward(
    grad, output, data, reduce, *, lengths=None, offsets=None, axis=0, initial=None
):
    """The CPU's gradients: sums pass it on, means divide it by the length, extremes share it
    among the elements equal to the result, products give each element the product of the
    others."""
    axis = axis % data.dim()
    segment, counts = _segments(data, lengths, offsets, axis)

    def spread(per_segment):
        padded = torch.cat([per_segment, torch.zeros_like(per_segment.narrow(axis, 0, 1))], axis)
        return padded.gather(axis, segment)

    g = spread(grad)
    if reduce == "sum":
        return g
    if reduce == "mean":
        length = counts.reshape(*counts.shape, *([1] * (data.dim() - axis - 1))).to(grad.dtype)
        return spread(grad / length.clamp_min(1).expand_as(grad))
    shape = _segment_shape(data, counts, axis, 1)
    if reduce in ("max", "min"):
        hit = (data == spread(output)).to(data.dtype)
        ties = torch.zeros(shape, dtype=data.dtype, device=data.device)
        ties.scatter_add_(axis, segment, hit)
        return g * hit / spread(ties.narrow(axis, 0, counts.size(-1))).clamp_min(1)
    zero = data == 0
    nonzero = torch.ones(shape, dtype=data.dtype, device=data.device)
    nonzero.scatter_reduce_(axis, segment, torch.where(zero, 1.0, data), "prod")
    zeros = torch.zeros(shape, dtype=data.dtype, device=data.device)
    zeros.scatter_add_(axis, segment, zero.to(data.dtype))
    start = 1.0 if initial is None else float(initial)
    others_nonzero = spread(nonzero.narrow(axis, 0, counts.size(-1))) * start
    zeros = spread(zeros.narrow(axis, 0, counts.size(-1)))
    safe = torch.where(zero, 1.0, data)
    product_of_others = torch.where(
        zero,
        torch.where(zeros == 1, others_nonzero, torch.zeros_like(data)),
        torch.where(zeros == 0, others_nonzero / safe, torch.zeros_like(data)),
    )
    return g * product_of_others


def equal(self, other):
    return self.shape == other.shape and bool(torch.eq(self, other).all())


def fill_tensor(self, value):
    if value.dim() != 0:
        raise RuntimeError(
            "fill_ only supports 0-dimension value tensor but got tensor with "
            f"{value.dim()} dimensions."
        )
    return self.fill_(value.item())


def copy_from_and_resize(self, dst):
    resize_out(dst, self.shape)
    return torch.ops.aten._copy_from(self, dst)


KERNELS = {
    "equal": equal,
    "fill_.Tensor": fill_tensor,
    "_copy_from_and_resize": copy_from_and_resize,
    "frexp.Tensor_out": frexp_out,
    "segment_reduce": segment_reduce,
    "_segment_reduce_backward": segment_reduce_backward,
    "unique_dim": unique_dim,
    "linalg_cross.out": linalg_cross_out,
    "addbmm": addbmm,
    "addbmm.out": addbmm_out,
    "index_reduce.out": index_reduce_out,
    "renorm.out": renorm_out,
    "bucketize.Tensor": bucketize_tensor,
    "bucketize.Tensor_out": bucketize_tensor_out,
    "bucketize.Scalar": bucketize_scalar,
    "tril_indices": tril_indices,
    "triu_indices": triu_indices,
    "nonzero_static": nonzero_static,
    "trace": trace,
    "logsumexp": logsumexp,
    "hash_tensor.out": hash_tensor_out,
    "repeat_interleave.Tensor": repeat_interleave_indices,
    "median": median,
    "nanmedian": nanmedian,
    "median.dim_values": median_dim_values,
    "nanmedian.dim_values": nanmedian_dim_values,
    "normal.Tensor_float": normal_tensor_float,
    "normal.float_Tensor": normal_float_tensor,
    "normal.Tensor_Tensor": normal_tensor_tensor,
    "normal.Tensor_float_out": lambda mean, std=1.0, *, generator=None, out: _into(
        out, normal_tensor_float(mean, std, generator=generator)
    ),
    "normal.float_Tensor_out": lambda mean, std, *, generator=None, out: _into(
        out, normal_float_tensor(mean, std, generator=generator)
    ),
    "normal.Tensor_Tensor_out": lambda mean, std, *, generator=None, out: _into(
        out, normal_tensor_tensor(mean, std, generator=generator)
    ),
    "unique_consecutive": unique_consecutive,
    "mode": mode,
    "_cummax_helper": cummax_helper,
    "_cummin_helper": cummin_helper,
    "_logcumsumexp": logcumsumexp,
}
