"""Rescalings by a norm, composed from mojo's kernels below autograd:

- ``_weight_norm_interface`` and its backward (``nn.utils.weight_norm`` and
  ``parametrizations.weight_norm`` along the first or last dimension, as CUDA's fused
  kernels): ``w = v * g / ||v||`` with the norm over every other dimension, kept in float32
  for half-precision weights as CUDA keeps it; the backward's ``grad_g = sum(grad_w * v) /
  ||v||`` and ``grad_v = g / ||v|| * (grad_w - v * grad_g / ||v||)``.
- ``embedding_renorm_`` (``nn.Embedding(max_norm=...)``): each row the indices name whose
  ``norm_type`` norm exceeds ``max_norm`` is scaled by ``max_norm / (norm + 1e-7)``, once
  however often it is named.
"""

from __future__ import annotations

import torch


def _acc(dtype: torch.dtype) -> torch.dtype:
    return torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype


def _other_dims(v: torch.Tensor, dim: int) -> list[int]:
    if dim not in (0, v.dim() - 1):
        raise RuntimeError(f"mojo: _weight_norm_interface takes dim 0 or {v.dim() - 1}, got {dim}")
    return [d for d in range(v.dim()) if d != dim]


def weight_norm_interface(v: torch.Tensor, g: torch.Tensor, dim: int = 0):
    others = _other_dims(v, dim)
    acc = _acc(v.dtype)
    v32 = v.to(acc)
    norms = v32.square().sum(others, keepdim=True).sqrt() if others else v32.abs()
    w = (v32 * (g.to(acc) / norms)).to(v.dtype)
    return w, norms


def weight_norm_interface_backward(grad_w, saved_v, saved_g, saved_norms, dim):
    others = _other_dims(saved_v, dim)
    acc = _acc(saved_v.dtype)
    v, g, norms = saved_v.to(acc), saved_g.to(acc), saved_norms.to(acc)
    grad = grad_w.to(acc)
    products = grad * v
    grad_g = (products.sum(others, keepdim=True) if others else products) / norms
    grad_v = (g / norms) * (grad - v * (grad_g / norms))
    return grad_v.to(saved_v.dtype), grad_g.to(saved_g.dtype)


def embedding_renorm_(self: torch.Tensor, indices: torch.Tensor, max_norm: float, norm_type: float):
    if self.dim() != 2:
        raise RuntimeError(f"embedding_renorm_(): expected self to be 2-D, got {self.dim()}-D")
    if indices.dtype not in (torch.int32, torch.int64):
        raise RuntimeError(
            "embedding_renorm_(): Expected dtype int32 or int64 for indices; but got "
            f"{indices.dtype}"
        )
    rows = indices.reshape(-1).unique()
    if rows.numel() == 0:
        return self
    chosen = self.index_select(0, rows)
    norms = torch.linalg.vector_norm(chosen.to(_acc(self.dtype)), ord=norm_type, dim=1)
    scale = torch.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    self.index_copy_(0, rows, (chosen * scale[:, None]).to(self.dtype))
    return self


KERNELS = {
    "_weight_norm_interface": weight_norm_interface,
    "_weight_norm_interface_backward": weight_norm_interface_backward,
    "embedding_renorm_": embedding_renorm_,
}
