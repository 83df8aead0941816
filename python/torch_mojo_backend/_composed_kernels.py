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
"""

import torch

_library = None


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


KERNELS = {
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
}


def register():
    global _library
    if _library is not None:
        return
    _library = torch.library.Library("aten", "IMPL")
    for name, kernel in KERNELS.items():
        _library.impl(name, kernel, "PrivateUse1")
