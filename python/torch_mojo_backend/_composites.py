"""Ops composed from mojo's kernels above autograd.

Each is registered for mojo's autograd key (AutogradPrivateUse1), so autograd differentiates
the composition and no separate backward kernel exists:

- `grid_sampler_2d` (`F.grid_sample` on 4-D inputs): PyTorch's own decomposition
  (`torch._decomp`), every interpolation and padding mode; `grid_sampler_3d` (5-D inputs):
  trilinear and nearest with every padding mode, gathering the eight corners.
- `_embedding_bag` and `_embedding_bag_forward_only` (`nn.EmbeddingBag`, `F.embedding_bag`):
  sum (with per-sample weights), mean and max over bags given by offsets or rows, with
  `padding_idx` and `include_last_offset`; with `sparse=True` the weight's gradient is a
  sparse COO tensor with one entry per row used (`scale_grad_by_freq` raises
  NotImplementedError).
- Small ops: `vdot` (`dot` of the conjugate), `angle`
  (pi for negatives, NaN kept, integers as the default float dtype), `aminmax` (and its out=
  form), `glu` and `_prelu_kernel` (`nn.PReLU`); `bernoulli.out` (refusing an output that
  overlaps the probabilities, as the CPU does).
"""

import math

import torch
from torch._decomp import decomposition_table

_library = None

SUM, MEAN, MAX = 0, 1, 2


def _bags(indices, offsets, include_last_offset):
    """(flat indices, the bag of each, the number of bags)."""
    if indices.dim() == 2:
        bags, length = indices.shape
        bag_of = torch.arange(bags, device=indices.device).repeat_interleave(length)
        return indices.reshape(-1), bag_of, bags
    bags = offsets.numel() - 1 if include_last_offset else offsets.numel()
    n = indices.numel()
    starts = torch.zeros(n + 1, dtype=torch.long, device=indices.device)
    if bags > 1:
        # Each bag's start past the first marks one more bag from there on (empty bags too).
        inner = offsets[1:bags].to(torch.long).clamp(max=n)
        starts.index_add_(0, inner, torch.ones_like(inner))
    return indices, starts[:n].cumsum(0), bags


def embedding_bag(
    weight,
    indices,
    offsets,
    scale_grad_by_freq=False,
    mode=SUM,
    sparse=False,
    per_sample_weights=None,
    include_last_offset=False,
    padding_idx=-1,
):
    if scale_grad_by_freq:
        raise NotImplementedError("aten::_embedding_bag with scale_grad_by_freq on mojo")
    if per_sample_weights is not None and mode != SUM:
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            f"supported for mode='sum' (got mode='{'mean' if mode == MEAN else 'max'}'). "
            "Please open a feature request on GitHub."
        )
    flat, bag_of, bags = _bags(indices, offsets, include_last_offset)
    width = weight.size(1)
    keep = flat != padding_idx if padding_idx >= 0 else torch.ones_like(flat, dtype=torch.bool)
    kept_flat, kept_bags = flat[keep], bag_of[keep]
    # Half-precision bags are combined in float32 and rounded once, as the CPU's.
    rows = (_SparseRows.apply if sparse else torch.index_select)(weight, 0, kept_flat)
    rows = rows.to(compute_dtype(weight.dtype))
    bag_size = torch.zeros(bags, dtype=torch.long, device=weight.device)
    bag_size.index_add_(0, kept_bags, torch.ones_like(kept_bags))
    out = rows.new_zeros(bags, width)
    if mode == MAX:
        target = kept_bags.unsqueeze(1).expand(-1, width)
        filled = rows.new_full((bags, width), float("-inf"))
        out = filled.scatter_reduce(0, target, rows, "amax", include_self=True)
        empty = (bag_size == 0).unsqueeze(1)
        out = out.masked_fill(empty, 0.0)
        # The index of each bag's maximum, per element (0 for an empty bag, as the CPU's).
        hit = rows == out.index_select(0, kept_bags)
        candidates = torch.where(hit, kept_flat.unsqueeze(1), torch.iinfo(torch.long).max)
        first = torch.full((bags, width), torch.iinfo(torch.long).max, device=weight.device)
        first = first.scatter_reduce(0, target, candidates, "amin", include_self=True)
        max_indices = first.masked_fill(empty, 0)
    else:
        max_indices = bag_size.clone()
        if per_sample_weights is not None:
            rows = rows * per_sample_weights.reshape(-1)[keep].unsqueeze(1).to(rows.dtype)
        out = out.index_add(0, kept_bags, rows)
        if mode == MEAN:
            out = out / bag_size.clamp(min=1).unsqueeze(1).to(out.dtype)
    return out.to(weight.dtype), bag_of, bag_size, max_indices


def compute_dtype(dtype):
    """float32 for float16 and bfloat16 (PyTorch's opmath type), else `dtype`."""
    return torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype


class _SparseRows(torch.autograd.Function):
    """`weight.index_select(0, index)` whose gradient for `weight` is a sparse COO tensor, one
    entry per selected row (uncoalesced), as embeddings with `sparse=True` give."""

    @staticmethod
    def forward(ctx, weight, dim, index):
        ctx.save_for_backward(index)
        ctx.shape = weight.shape
        return weight.index_select(dim, index)

    @staticmethod
    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        return torch.sparse_coo_tensor(index[None], grad, ctx.shape), None, None


class _ZeroGradient(torch.autograd.Function):
    """`out` unchanged, with a zero gradient for `source` (which `out` does not depend on
    differentiably): the CPU's nearest grid sampling gives its grid zeros, not None."""

    @staticmethod
    def forward(ctx, out, source):
        ctx.save_for_backward(source)
        return out.view_as(out)

    @staticmethod
    def backward(ctx, grad):
        (source,) = ctx.saved_tensors
        return grad, torch.zeros_like(source)


def grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners):
    """PyTorch's decomposition, computed in float32 for half-precision tensors (as the CPU's
    kernel computes) and rounded once."""
    decomposed = decomposition_table[torch.ops.aten.grid_sampler_2d.default]
    compute = compute_dtype(input.dtype)
    out = decomposed(
        input.to(compute), grid.to(compute), interpolation_mode, padding_mode, align_corners
    ).to(input.dtype)
    nearest = interpolation_mode == 1
    if nearest and grid.requires_grad and torch.is_grad_enabled():
        out = _ZeroGradient.apply(out, grid)
    return out


def _reflect(x, twice_low, twice_high):
    """`x` reflected into [twice_low / 2, twice_high / 2] (PyTorch's reflect_coordinates)."""
    if twice_low == twice_high:
        return torch.zeros_like(x)
    low = twice_low / 2
    span = (twice_high - twice_low) / 2
    x = (x - low).abs()
    extra = torch.fmod(x, span)
    even = torch.remainder(torch.floor(x / span), 2) == 0
    return torch.where(even, extra + low, span - extra + low)


def _source_index(coord, size, padding_mode, align_corners):
    """Grid coordinates in [-1, 1] to input positions, with PyTorch's padding modes
    (0 zeros, 1 border, 2 reflection)."""
    if align_corners:
        x = (coord + 1) / 2 * (size - 1)
    else:
        x = ((coord + 1) * size - 1) / 2
    if padding_mode == 1:
        x = x.clamp(0, size - 1)
    elif padding_mode == 2:
        if align_corners:
            x = _reflect(x, 0, 2 * (size - 1))
        else:
            x = _reflect(x, -1, 2 * size - 1)
        x = x.clamp(0, size - 1)
    return x


def grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners):
    """Trilinear or nearest sampling of [N, C, D, H, W] at grid [N, Do, Ho, Wo, 3] (x, y, z),
    in float32 for half precision; positions outside the input read zero."""
    if interpolation_mode == 2:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    compute = compute_dtype(input.dtype)
    values, coords = input.to(compute), grid.to(compute)
    n, _, depth, height, width = values.shape
    ix = _source_index(coords[..., 0], width, padding_mode, align_corners)
    iy = _source_index(coords[..., 1], height, padding_mode, align_corners)
    iz = _source_index(coords[..., 2], depth, padding_mode, align_corners)
    channels_last = values.permute(0, 2, 3, 4, 1)
    batch = torch.arange(n, device=input.device).view(n, 1, 1, 1)

    def read(z, y, x):
        inside = (x >= 0) & (x < width) & (y >= 0) & (y < height) & (z >= 0) & (z < depth)
        v = channels_last[
            batch, z.clamp(0, depth - 1), y.clamp(0, height - 1), x.clamp(0, width - 1)
        ]
        return torch.where(inside.unsqueeze(-1), v, torch.zeros((), dtype=v.dtype, device=v.device))

    if interpolation_mode == 1:
        out = read(*(torch.round(i).long() for i in (iz, iy, ix)))
    else:
        lows = [torch.floor(i) for i in (iz, iy, ix)]
        highs = [i - low for i, low in zip((iz, iy, ix), lows, strict=True)]
        out = 0
        for corner in range(8):
            picks = [(corner >> (2 - d)) & 1 for d in range(3)]
            weight = 1
            for d, pick in enumerate(picks):
                weight = weight * (highs[d] if pick else 1 - highs[d])
            positions = [(low + pick).long() for low, pick in zip(lows, picks, strict=True)]
            out = out + read(*positions) * weight.unsqueeze(-1)
    out = out.permute(0, 4, 1, 2, 3).to(input.dtype)
    if interpolation_mode == 1 and grid.requires_grad and torch.is_grad_enabled():
        out = _ZeroGradient.apply(out, grid)
    return out


def vdot(self, other):
    return torch.dot(self.conj(), other)


def angle(self):
    if self.is_complex():
        return torch.atan2(self.imag, self.real)
    if not self.is_floating_point():
        self = self.to(torch.get_default_dtype())
    half_turn = torch.where(self < 0, math.pi, 0.0).to(self.dtype)
    return torch.where(self.isnan(), self, half_turn)


def aminmax(self, *, dim=None, keepdim=False):
    if dim is None:
        low, high = self.amin(), self.amax()
        if keepdim:
            shape = [1] * self.dim()
            low, high = low.reshape(shape), high.reshape(shape)
        return low, high
    return self.amin(dim, keepdim), self.amax(dim, keepdim)


# The names PyTorch's out= checks give dtypes (caffe2's TypeMeta).
_TYPE_NAMES = {
    torch.float32: "float",
    torch.float64: "double",
    torch.float16: "c10::Half",
    torch.bfloat16: "c10::BFloat16",
    torch.int64: "long int",
    torch.int32: "int",
    torch.int16: "short int",
    torch.int8: "signed char",
    torch.uint8: "unsigned char",
    torch.bool: "bool",
}


def aminmax_out(self, *, dim=None, keepdim=False, min, max):
    for out in (min, max):
        if out.dtype != self.dtype:
            raise RuntimeError(
                f"Expected out tensor to have dtype {_TYPE_NAMES.get(self.dtype, self.dtype)}, "
                f"but got {_TYPE_NAMES.get(out.dtype, out.dtype)} instead"
            )
    low, high = aminmax(self, dim=dim, keepdim=keepdim)
    with torch.no_grad():
        min.resize_(low.shape).copy_(low)
        max.resize_(high.shape).copy_(high)
    return min, max


def _overlaps(a, b):
    """Whether two dense tensors share memory, as PyTorch's out= overlap check decides."""
    if not (a.is_contiguous() and b.is_contiguous()) or not a.numel() or not b.numel():
        return False
    a0, b0 = a.data_ptr(), b.data_ptr()
    return a0 < b0 + b.numel() * b.element_size() and b0 < a0 + a.numel() * a.element_size()


def bernoulli_out(self, *, generator=None, out):
    if torch._debug_has_internal_overlap(out) == 1:
        raise RuntimeError(
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation."
        )
    if _overlaps(out, self):
        raise RuntimeError(
            "unsupported operation: some elements of the input tensor and the written-to tensor "
            "refer to a single memory location. Please clone() the tensor before performing the "
            "operation."
        )
    with torch.no_grad():
        return out.resize_(self.shape).bernoulli_(self, generator=generator)


def glu(self, dim=-1):
    size = self.size(dim)
    if size % 2:
        wrapped = dim % self.dim()
        raise RuntimeError(
            f"Halving dimension must be even, but dimension {wrapped} is size {size}"
        )
    value, gate = self.chunk(2, dim)
    return value * gate.sigmoid()


def prelu_kernel(self, weight):
    return torch.where(self > 0, self, weight * self)


def register():
    """Registers the compositions for mojo's autograd key."""
    global _library
    if _library is not None:
        return
    _library = torch.library.Library("aten", "IMPL")
    _library.impl("grid_sampler_2d", grid_sampler_2d, "AutogradPrivateUse1")
    _library.impl("grid_sampler_3d", grid_sampler_3d, "AutogradPrivateUse1")
    for name in ("_embedding_bag", "_embedding_bag_forward_only"):
        _library.impl(name, embedding_bag, "AutogradPrivateUse1")
    for name, fn in (
        ("vdot", vdot),
        ("angle", angle),
        ("aminmax", aminmax),
        ("aminmax.out", aminmax_out),
        ("bernoulli.out", bernoulli_out),
        ("glu", glu),
        ("_prelu_kernel", prelu_kernel),
    ):
        _library.impl(name, fn, "AutogradPrivateUse1")
