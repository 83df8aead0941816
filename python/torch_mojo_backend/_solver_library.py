"""LU, Cholesky, QR and LDL factorizations, their solves (Q applied to a matrix for QR),
eigendecompositions (general and Hermitian) and SVDs through the device's solver library,
and triangular solves through its BLAS (cuSOLVER and cuBLAS on NVIDIA: `torch.ops.mojo.lu_factor`,
`lu_solve`, `cholesky`, `cholesky_solve`, `geqrf`, `ormqr`, `ldl_factor`, `ldl_solve`,
`eig`, `eigh`, `svd`, `triangular_solve`), for `_linalg`, `_ldl` and `_eig` where the device
has them.

The library takes column-major matrices and works in place, so each call hands it a
column-major copy (a contiguous tensor of the transposes) and returns a column-major view of
the result, the layout LAPACK's results have on the CPU. The library factors one matrix per
call; the portable kernels of `_linalg` factor a whole batch per column step. A batch of
many small matrices therefore stays on the portable kernels: the library serves batches of
at most `2 n` matrices of order n (about 10 launches a column for the portable kernels
against a few calls per matrix for the library; an estimate, not yet measured on a GPU),
except LU and its solves, which take a batch of any size of square matrices through the
BLAS library's batched calls.
"""

import functools
import math

import torch

from . import _C

_DTYPES = (torch.float32, torch.float64, torch.complex64, torch.complex128)
_REAL = {torch.complex64: torch.float32, torch.complex128: torch.float64}


@functools.cache
def _has_library(index):
    return _C.solver_library(index)


def _takes(a):
    return a.dtype in _DTYPES and _has_library(a.device.index or 0)


def _many(shape):
    """Whether `shape` holds more than 2 n matrices of order n (a per-matrix call each costs
    more than the batched kernels' steps)."""
    return math.prod(shape[:-2]) > 2 * max(shape[-2:])


def serves(a):
    """Whether the solver library takes the (..., m, n) matrices `a`, a call per matrix."""
    return _takes(a) and not _many(a.shape)


def serves_lu(a):
    """Whether the solver library takes the LU of the (..., m, n) matrices `a`: as `serves`,
    and square matrices of any batch, many at once through the BLAS library's batched LU
    (cuBLAS's getrfBatched and getrsBatched, as PyTorch's CUDA backend uses)."""
    return _takes(a) and (not _many(a.shape) or a.shape[-1] == a.shape[-2])


def _plain(x):
    """`x` with lazy conjugation and negation carried out (the library reads memory)."""
    return x.resolve_conj().resolve_neg()


def _column_major(a):
    """A copy of the matrices `a` as their contiguous transposes (the library's layout)."""
    return _plain(a).mT.clone(memory_format=torch.contiguous_format)


def _operands(factors, b):
    """A solve's operands in the library's layout, batch shapes broadcast: the (n, n)
    `factors` column-major (read only, so a copy only where not already so) and a
    column-major copy of the right-hand sides `b`, which the library overwrites."""
    batch = torch.broadcast_shapes(factors.shape[:-2], b.shape[:-2])
    n = factors.shape[-1]
    factors = _plain(factors).expand(*batch, n, n).mT.contiguous()
    return factors, _column_major(b.expand(*batch, *b.shape[-2:]))


def lu_factor(a, pivot=True):
    """getrf: (LU, pivots (1-based, int32), info (int32)) of the (..., m, n) matrices `a`;
    without row exchanges when not `pivot` (the pivots are then 1, 2, ...)."""
    *batch, m, n = a.shape
    steps = min(m, n)
    lu = _column_major(a)
    info = torch.zeros(batch, dtype=torch.int32, device=a.device)
    op, pivot_type = torch.ops.mojo.lu_factor, torch.int64
    if _many(a.shape):
        op, pivot_type = torch.ops.mojo.lu_factor_batched, torch.int32
    if pivot:
        pivots = torch.empty(*batch, steps, dtype=pivot_type, device=a.device)
    else:
        pivots = torch.empty(0, dtype=pivot_type, device=a.device)
    op(lu, pivots, info)
    if not pivot:
        pivots = torch.arange(1, steps + 1, device=a.device).expand(*batch, steps)
    return lu.mT, pivots.to(torch.int32), info


def _pivoted_solve(op, factors, pivots, b, *flags, pivot_type=torch.int64):
    """X from the solve `op` of `factors` and their 1-based `pivots`; batch shapes broadcast."""
    factors, x = _operands(factors, b)
    pivots = pivots.expand(*x.shape[:-2], pivots.shape[-1]).to(pivot_type).contiguous()
    op(factors, pivots, x, *flags)
    return x.mT


def lu_solve(lu, pivots, b, adjoint=False):
    """getrs: X with A X = b (or A^H X = b) for A = P L U given as getrf's (lu, pivots);
    batch shapes broadcast (many at once through getrsBatched)."""
    batch = torch.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    if _many((*batch, *lu.shape[-2:])):
        op = torch.ops.mojo.lu_solve_batched
        return _pivoted_solve(op, lu, pivots, b, adjoint, pivot_type=torch.int32)
    return _pivoted_solve(torch.ops.mojo.lu_solve, lu, pivots, b, adjoint)


def ldl_factor(a):
    """sytrf (lower): (LD, pivots (1-based, int32, negative for 2x2 blocks), info (int32))
    of the symmetric matrices whose lower triangles are `a`'s."""
    work = _column_major(a)
    pivots = torch.empty(a.shape[:-1], dtype=torch.int32, device=a.device)
    info = torch.zeros(a.shape[:-2], dtype=torch.int32, device=a.device)
    torch.ops.mojo.ldl_factor(work, pivots, info)
    return work.mT.tril(), pivots, info


def pivots_in_bounds(pivots, blocks=False):
    """Whether getrs (or with `blocks`, sytrs) may take `pivots` (..., n) without reaching
    past its matrices: every pivot within 1..n in magnitude and, for sytrs, the runs of
    negative (2x2 block) pivots that open and close each row of even length (sytrs pairs a
    negative pivot with the next row going forward and with the previous one coming back)."""
    n = pivots.shape[-1]
    magnitude = pivots.abs()
    ok = ((magnitude >= 1) & (magnitude <= n)).all()
    if blocks:
        negative = (pivots < 0).to(torch.int32)
        for run in (negative.cumprod(-1), negative.flip(-1).cumprod(-1)):
            ok &= (run.sum(-1) % 2 == 0).all()
    return bool(ok)


def ldl_solve(ld, pivots, b):
    """sytrs (lower): X with A X = b for A = L D L^T given as sytrf's (ld, pivots); batch
    shapes broadcast."""
    return _pivoted_solve(torch.ops.mojo.ldl_solve, ld, pivots, b)


def apply_q(a, tau, c, adjoint=False):
    """ormqr (unmqr): Q c, or Q^H c when `adjoint`, for Q = H_0 ... H_{k-1} given as geqrf's
    reflectors `a` (..., m, n) and their factors `tau` (..., k); c is (..., m, p) with a's
    batch shape."""
    k = tau.shape[-1]
    batch = c.shape[:-2]
    a, tau = a.expand(*batch, *a.shape[-2:]), tau.expand(*batch, k)
    x = _column_major(c)
    torch.ops.mojo.ormqr(_column_major(a[..., :k]), _plain(tau).contiguous(), x, adjoint)
    return x.mT


def cholesky(a):
    """potrf: the lower factor of the lower triangles of `a` and potrf's info."""
    factor = _column_major(a)
    info = torch.zeros(a.shape[:-2], dtype=torch.int32, device=a.device)
    torch.ops.mojo.cholesky(factor, info)
    return factor.mT.tril(), info


def cholesky_solve(lower, b):
    """potrs: X with L L^H X = b for the lower factors `lower`; batch shapes broadcast."""
    factors, x = _operands(lower, b)
    torch.ops.mojo.cholesky_solve(factors, x)
    return x.mT


def eigh(a, vectors=True):
    """syevd: the eigenvalues (ascending) of the Hermitian matrices `a` (their lower
    triangles), with `vectors` their eigenvectors as columns (else None), and info."""
    work = _column_major(a)
    values = torch.empty(a.shape[:-1], dtype=_REAL.get(a.dtype, a.dtype), device=a.device)
    info = torch.zeros(a.shape[:-2], dtype=torch.int32, device=a.device)
    torch.ops.mojo.eigh(work, values, info, vectors)
    return values, work.mT if vectors else None, info


def eig(a, vectors=True):
    """geev: the eigenvalues of the general matrices `a` (complex), with `vectors` their right
    eigenvectors as columns (complex; else None), and info. A real matrix's come from the
    real routine: its complex eigenvalues in conjugate pairs, the positive imaginary part
    first, whose eigenvectors are unpacked from the real and imaginary parts geev stores in
    the pair's two columns."""
    *batch, n, _ = a.shape
    work = _column_major(a)
    # A real matrix's eigenvalues as 2 n reals: real parts, then imaginary parts.
    w = torch.empty(*batch, n if a.is_complex() else 2 * n, dtype=a.dtype, device=a.device)
    shape = (*batch, n, n) if vectors else (0,)
    vr = torch.empty(shape, dtype=a.dtype, device=a.device)
    info = torch.zeros(batch, dtype=torch.int32, device=a.device)
    torch.ops.mojo.eig(work, w, vr, info, vectors)
    if a.is_complex():
        return w, vr.mT if vectors else None, info
    values = torch.complex(w[..., :n], w[..., n:])
    if not vectors:
        return values, None, info
    packed = vr.mT
    imaginary = w[..., None, n:]
    first, second = imaginary > 0, imaginary < 0
    real = torch.where(second, packed.roll(1, -1), packed)
    zero = torch.zeros((), dtype=a.dtype, device=a.device)
    imag = torch.where(first, packed.roll(-1, -1), torch.where(second, -packed, zero))
    return values, torch.complex(real, imag), info


def svd(a, full_matrices=False, compute_uv=True):
    """gesvd: (U, S, V^H, info) of the (..., m, n) matrices `a` (U and V^H None without
    `compute_uv`); a wide matrix through its adjoint's, as gesvd takes m >= n."""
    *batch, m, n = a.shape
    if m < n:
        u, s, vh, info = svd(a.mH, full_matrices, compute_uv)
        return (vh.mH, s, u.mH, info) if compute_uv else (None, s, None, info)
    work = _column_major(a)
    s = torch.empty(*batch, n, dtype=_REAL.get(a.dtype, a.dtype), device=a.device)
    info = torch.zeros(batch, dtype=torch.int32, device=a.device)
    if compute_uv:
        # Column-major U (m x m or m x n) and V^H (n x n), as the transposes' contiguous rows.
        u = torch.empty(*batch, m if full_matrices else n, m, dtype=a.dtype, device=a.device)
        vh = torch.empty(*batch, n, n, dtype=a.dtype, device=a.device)
    else:
        u = vh = torch.empty(0, dtype=a.dtype, device=a.device)
    torch.ops.mojo.svd(work, s, u, vh, info, compute_uv, full_matrices)
    return (u.mT, s, vh.mT, info) if compute_uv else (None, s, None, info)


def triangular_solve(t, b, upper, unit=False):
    """trsm: X with T X = b for T the lower (or `upper`) triangles of `t`, their diagonals
    taken as ones when `unit`; batch shapes broadcast."""
    factors, x = _operands(t, b)
    torch.ops.mojo.triangular_solve(factors, x, upper, unit)
    return x.mT


def geqrf(a):
    """geqrf: R and the Householder reflectors of the (..., m, n) matrices `a` in LAPACK's
    layout, and their factors tau."""
    *batch, m, n = a.shape
    work = _column_major(a)
    tau = torch.empty(*batch, min(m, n), dtype=a.dtype, device=a.device)
    info = torch.zeros(batch, dtype=torch.int32, device=a.device)
    torch.ops.mojo.geqrf(work, tau, info)
    return work.mT, tau
