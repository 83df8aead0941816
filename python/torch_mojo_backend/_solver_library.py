"""LU and Cholesky factorizations and their solves through the device's solver library
(cuSOLVER on NVIDIA: `torch.ops.mojo.lu_factor`, `lu_solve`, `cholesky`, `cholesky_solve`),
for `_linalg` where the device has one.

The library takes column-major matrices and works in place, so each call hands it a
column-major copy (a contiguous tensor of the transposes) and returns a column-major view of
the result, the layout LAPACK's results have on the CPU. The library factors one matrix per
call; the portable kernels of `_linalg` factor a whole batch per column step. A batch of
many small matrices therefore stays on the portable kernels: the library serves batches of
at most `2 n` matrices of order n (about 10 launches a column for the portable kernels
against a few calls per matrix for the library; an estimate, not yet measured on a GPU).
"""

import functools

import torch

from . import _C

_DTYPES = (torch.float32, torch.float64, torch.complex64, torch.complex128)


@functools.cache
def _has_library(index):
    return _C.solver_library(index)


def serves(a):
    """Whether the solver library takes the (..., m, n) matrices `a`."""
    if a.dtype not in _DTYPES or not _has_library(a.device.index or 0):
        return False
    batch = a.shape[:-2].numel()
    return batch <= 2 * max(a.shape[-2:])


def _plain(x):
    """`x` with lazy conjugation and negation carried out (the library reads memory)."""
    return x.resolve_conj().resolve_neg()


def _column_major(a):
    """A copy of the matrices `a` as their contiguous transposes (the library's layout)."""
    return _plain(a).mT.clone(memory_format=torch.contiguous_format)


def lu_factor(a, pivot=True):
    """getrf: (LU, pivots (1-based, int32), info (int32)) of the (..., m, n) matrices `a`;
    without row exchanges when not `pivot` (the pivots are then 1, 2, ...)."""
    *batch, m, n = a.shape
    steps = min(m, n)
    lu = _column_major(a)
    info = torch.zeros(batch, dtype=torch.int32, device=a.device)
    if pivot:
        pivots = torch.empty(*batch, steps, dtype=torch.int64, device=a.device)
    else:
        pivots = torch.empty(0, dtype=torch.int64, device=a.device)
    torch.ops.mojo.lu_factor(lu, pivots, info)
    if not pivot:
        pivots = torch.arange(1, steps + 1, device=a.device).expand(*batch, steps)
    return lu.mT, pivots.to(torch.int32), info


def lu_solve(lu, pivots, b, adjoint=False):
    """getrs: X with A X = b (or A^H X = b) for A = P L U given as getrf's (lu, pivots);
    batch shapes broadcast."""
    batch = torch.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    n = lu.shape[-1]
    factors = _plain(lu).expand(*batch, n, n).mT.contiguous()
    pivots = pivots.expand(*batch, n).to(torch.int64).contiguous()
    x = _column_major(b.expand(*batch, *b.shape[-2:]))
    torch.ops.mojo.lu_solve(factors, pivots, x, adjoint)
    return x.mT


def cholesky(a):
    """potrf: the lower factor of the lower triangles of `a` and potrf's info."""
    factor = _column_major(a)
    info = torch.zeros(a.shape[:-2], dtype=torch.int32, device=a.device)
    torch.ops.mojo.cholesky(factor, info)
    return factor.mT.tril(), info


def cholesky_solve(lower, b):
    """potrs: X with L L^H X = b for the lower factors `lower`; batch shapes broadcast."""
    batch = torch.broadcast_shapes(lower.shape[:-2], b.shape[:-2])
    n = lower.shape[-1]
    factors = _plain(lower).expand(*batch, n, n).mT.contiguous()
    x = _column_major(b.expand(*batch, *b.shape[-2:]))
    torch.ops.mojo.cholesky_solve(factors, x)
    return x.mT
