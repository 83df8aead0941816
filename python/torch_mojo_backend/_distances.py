"""Pairwise distances composed from mojo's kernels, registered below autograd (PrivateUse1):
`_cdist_forward`/`_cdist_backward` (`torch.cdist`) and `_pdist_forward`/`_pdist_backward`
(`F.pdist`), in the CPU's formulas so that values agree within rounding:

- p = 0 counts the differing coordinates, p = inf takes the largest difference, other p sum
  |difference|^p and take the p-th root;
- Euclidean distances take the CPU's matrix-product route where it does (`compute_mode` 1,
  or None with more than 25 rows on either side): `-2 x1 x2^T + |x1|^2 + |x2|^2` as one
  product of padded operands, clamped at 1e-30 before the square root;
- gradients are the CPU's: zero where a distance is zero, `sign(d) |d|^(p-1) / dist^(p-1)`
  for each coordinate difference d (for p = 1 the sign, for p = inf the sign where |d| is the
  distance), summed over the other side.
"""

import math

import torch


def _norm(diff, p):
    """Distances from coordinate differences (last dimension), as the CPU's kernel."""
    a = diff.abs()
    if p == 0:
        return (a != 0).sum(-1).to(diff.dtype)
    if p == math.inf:
        return a.amax(-1) if a.shape[-1] else a.sum(-1)
    if p == 1:
        return a.sum(-1)
    if p == 2:
        return a.square().sum(-1).sqrt()
    return a.pow(p).sum(-1).pow(1.0 / p)


def _gradient(diff, dist, p):
    """d dist / d diff for each coordinate difference, zero where dist is zero."""
    dist = dist[..., None]
    if p == 0:
        return torch.zeros_like(diff)
    if p == 1:
        return diff.sign()
    if p == math.inf:
        return diff.sign() * (diff.abs() == dist)
    safe = torch.where(dist == 0, torch.ones_like(dist), dist)
    if p == 2:
        g = diff / safe
    else:
        g = diff.sign() * diff.abs().pow(p - 1) / safe.pow(p - 1)
    return torch.where(dist == 0, torch.zeros_like(g), g)


def _euclidean_by_product(x1, x2):
    """The CPU's matrix-product Euclidean distances."""
    n1 = x1.square().sum(-1, keepdim=True)
    n2 = x2.square().sum(-1, keepdim=True)
    left = torch.cat([x1 * -2, n1, torch.ones_like(n1)], -1)
    right = torch.cat([x2, torch.ones_like(n2), n2], -1)
    return (left @ right.mT).clamp_min(1e-30).sqrt()


def cdist_forward(x1, x2, p, compute_mode=None):
    batch = torch.broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
    x1 = x1.expand(*batch, *x1.shape[-2:])
    x2 = x2.expand(*batch, *x2.shape[-2:])
    rows1, rows2 = x1.shape[-2], x2.shape[-2]
    product = compute_mode == 1 or (compute_mode in (None, 0) and (rows1 > 25 or rows2 > 25))
    if p == 2 and product and x1.shape[-1] > 0:
        return _euclidean_by_product(x1, x2)
    return _norm(x1[..., :, None, :] - x2[..., None, :, :], p)


def cdist_backward(grad, x1, x2, p, cdist):
    batch = cdist.shape[:-2]
    a = x1.expand(*batch, *x1.shape[-2:])
    b = x2.expand(*batch, *x2.shape[-2:])
    diff = a[..., :, None, :] - b[..., None, :, :]
    g = grad[..., None] * _gradient(diff, cdist, p)
    result = g.sum(-2)
    # Sum over the batch dimensions x1 was broadcast along.
    while result.dim() > x1.dim():
        result = result.sum(0)
    for d in range(x1.dim() - 2):
        if x1.shape[d] == 1 and result.shape[d] != 1:
            result = result.sum(d, keepdim=True)
    return result.contiguous()


def _pairs(n, device):
    return torch.triu_indices(n, n, 1, device=device).unbind(0)


def pdist_forward(self, p=2):
    i, j = _pairs(self.shape[0], self.device)
    return _norm(self[i] - self[j], p)


def pdist_backward(grad, self, p, pdist):
    i, j = _pairs(self.shape[0], self.device)
    g = grad[:, None] * _gradient(self[i] - self[j], pdist, p)
    return torch.zeros_like(self).index_add_(0, i, g).index_add_(0, j, -g)


KERNELS = {
    "_cdist_forward": cdist_forward,
    "_cdist_backward": cdist_backward,
    "_pdist_forward": pdist_forward,
    "_pdist_backward": pdist_backward,
}
