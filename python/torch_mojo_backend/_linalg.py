"""Linear algebra composed from mojo's kernels, registered below autograd (PrivateUse1).

As in `_composed_kernels`, PyTorch's structured meta functions check the arguments and
allocate the outputs (in LAPACK's column-major layout, which `copy_` respects), its derivative
formulas differentiate the results, and `check_errors` raises through
`torch._linalg_check_errors` as on the CPU. The factorizations are LAPACK's unblocked
algorithms over a batch at once, one column per step (a handful of launches each), so a
matrix of order n takes O(n) launches; values agree with LAPACK's blocked ones within
rounding.

- LU with partial pivoting (`linalg_lu_factor_ex`, `linalg_lu`, `lu_unpack`): the pivot is the
  first entry of largest magnitude in the column (LAPACK's `idamax`; for complex entries
  `izamax`'s |re| + |im|); a zero pivot sets `info`
  to its 1-based column (first one only) and leaves its column unscaled, as `getrf` does;
  `pivot=False` factors without row exchanges (CUDA has it; the CPU raises).
- Solves (`linalg_lu_solve`, `_linalg_solve_ex`, `linalg_inv_ex`): row permutation, then
  forward and back substitution; right-hand solves and adjoints by conjugate transposition.
- Determinants (`_linalg_det`, `_linalg_slogdet`): the product of U's diagonal with the sign of
  the row exchanges. Like the CPU, these factor A^T when A is row-major (the LU they return
  is then A^T's, which their derivative formulas expect).
- Cholesky (`linalg_cholesky_ex`, `cholesky`, `cholesky_inverse`, `_cholesky_solve_helper`):
  the lower factor column by column from the lower triangle (A = L L^H, the diagonal's
  imaginary parts ignored as `zpotrf` does); `info` is the first column whose
  pivot is not positive (or NaN), as `potrf` reports.
- Triangular solves (`linalg_solve_triangular`, `triangular_solve`): substitution row by row.
- QR (`geqrf`, `linalg_qr`, `linalg_householder_product`, `ormqr`): Householder reflectors as
  LAPACK's `dlarfg` makes them (`zlarfg` for complex ones: a real beta, tau from the
  complex alpha; R's diagonal signs as the CPU's), applied column by column, H^H = I - conj(tau)
  v v^H where LAPACK applies adjoints.
- `_linalg_eigh`: cyclic Jacobi rotations (Brent and Luk's rounds of disjoint pairs, each
  round one rotation matrix applied as J^H A J; for Hermitian matrices each rotation carries
  its off-diagonal entry's phase), until the off-diagonal entries are within rounding of the
  largest entry; eigenvalues ascending, eigenvectors up to sign (a phase for complex ones).
- `_linalg_svd`: one-sided Jacobi (Hestenes; complex rotations carry the phase of the pair's
  inner product): column pairs rotated until orthogonal, so small
  singular values keep their relative accuracy (no A^T A); `full_matrices=True` completes the
  thin factor to a basis with the complete Q of its QR (any orthonormal complement is a
  valid one; LAPACK's may differ).
- `linalg_matrix_exp`: a degree-18 Taylor polynomial of `A / 2^s` (1-norm within the reach the
  CPU's kernel gives that degree), squared back s times, s chosen per matrix; half types in
  float32.

Where the device has a solver library (cuSOLVER on NVIDIA), LU, Cholesky and QR (`geqrf`)
factorizations, LU's and Cholesky's solves, `_linalg_eigh` and `_linalg_svd` run through it
instead, and triangular
solves through its BLAS (cuBLAS's trsm) (`_solver_library`), as on PyTorch's CUDA backend.
"""

import torch

from . import _solver_library
from ._complex import _name


def _check(info, api, a):
    torch._linalg_check_errors(info, api, is_matrix=a.dim() == 2)


def _lu(a, pivot=True):
    """LU of the (..., m, n) matrices `a`: (LU, pivots (1-based, int32), info (int32))."""
    if _solver_library.serves_lu(a):
        return _solver_library.lu_factor(a, pivot)
    lu = a.clone(memory_format=torch.contiguous_format)
    *batch, m, n = lu.shape
    steps = min(m, n)
    device = lu.device
    pivots = torch.arange(1, steps + 1, dtype=torch.int32, device=device).expand(*batch, steps)
    pivots = pivots.contiguous()
    info = torch.zeros(batch, dtype=torch.int32, device=device)
    for k in range(steps):
        if pivot:
            p = _pivot_magnitude(lu[..., k:, k]).argmax(-1) + k
            pivots[..., k] = (p + 1).to(torch.int32)
            at = p[..., None, None].expand(*batch, 1, n)
            row_k = lu[..., k : k + 1, :].clone()
            lu[..., k : k + 1, :] = lu.gather(-2, at)
            lu.scatter_(-2, at, row_k)
        head = lu[..., k, k]
        zero = head == 0
        info = torch.where(zero & (info == 0), k + 1, info).to(torch.int32)
        if k + 1 < m:
            column = lu[..., k + 1 :, k]
            safe = torch.where(zero, torch.ones_like(head), head)
            multipliers = torch.where(zero[..., None], column, column / safe[..., None])
            lu[..., k + 1 :, k] = multipliers
            if k + 1 < n:
                lu[..., k + 1 :, k + 1 :] -= multipliers[..., :, None] * lu[..., k : k + 1, k + 1 :]
    return lu, pivots, info


def _pivot_magnitude(x):
    """The magnitude LAPACK's pivoting compares: |x|, or |re| + |im| for complex x."""
    return x.real.abs() + x.imag.abs() if x.is_complex() else x.abs()


def _real_dtype(x):
    return x.real.dtype if x.is_complex() else x.dtype


def _permutation(pivots, m):
    """perm with row i of P A being row perm[i] of A, after the row exchanges `pivots`."""
    *batch, steps = pivots.shape
    perm = torch.arange(m, device=pivots.device).expand(*batch, m).contiguous()
    for k in range(steps):
        p = (pivots[..., k : k + 1] - 1).long()
        here = perm[..., k : k + 1].clone()
        perm[..., k : k + 1] = perm.gather(-1, p)
        perm.scatter_(-1, p, here)
    return perm


def _rows(x, perm):
    """Rows of x in the order perm (x: (..., m, k), perm: (..., m))."""
    return x.gather(-2, perm[..., None].expand(*perm.shape, x.shape[-1]))


def _unrows(x, perm):
    """The inverse of `_rows`: row i of x goes to row perm[i]."""
    out = torch.empty_like(x)
    return out.scatter_(-2, perm[..., None].expand(*perm.shape, x.shape[-1]), x)


def _triangular(t, b, lower, unit):
    """X with t X = b, t (..., n, n) triangular, b (..., n, k); batch shapes broadcast."""
    if t.dtype == b.dtype and _solver_library.serves(t):
        return _solver_library.triangular_solve(t, b, not lower, unit)
    return _substitute(t, b, lower, unit)


def _substitute(t, b, lower, unit):
    """`_triangular` by substitution, a row per step."""
    batch = torch.broadcast_shapes(t.shape[:-2], b.shape[:-2])
    t = t.expand(*batch, *t.shape[-2:])
    b = b.expand(*batch, *b.shape[-2:])
    n = t.shape[-1]
    x = torch.empty_like(b, memory_format=torch.contiguous_format)
    for i in range(n) if lower else range(n - 1, -1, -1):
        rest = slice(0, i) if lower else slice(i + 1, n)
        row = b[..., i : i + 1, :]
        if (i > 0) if lower else (i + 1 < n):
            row = row - t[..., i : i + 1, rest] @ x[..., rest, :]
        if not unit:
            row = row / t[..., i : i + 1, i : i + 1]
        x[..., i : i + 1, :] = row
    return x


def _lu_solve(lu, pivots, b, left=True, adjoint=False, factored=False):
    """X with A X = b (or A^H X = b, X A = b, X A^H = b) for A = P L U given as (lu, pivots);
    `factored` when `_lu` made the pivots (the library needs no check of them then)."""
    if not left:
        return _lu_solve(lu, pivots, b.mH, True, not adjoint, factored).mH
    batch = torch.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    lu = lu.expand(*batch, *lu.shape[-2:])
    if _solver_library.serves_lu(lu) and (factored or _solver_library.pivots_in_bounds(pivots)):
        return _solver_library.lu_solve(lu, pivots, b, adjoint)
    b = b.expand(*batch, *b.shape[-2:])
    perm = _permutation(pivots.expand(*batch, pivots.shape[-1]), lu.shape[-1])
    if not adjoint:
        y = _triangular(lu, _rows(b, perm), lower=True, unit=True)
        return _triangular(lu, y, lower=False, unit=False)
    w = _triangular(lu.mH, b, lower=True, unit=False)
    return _unrows(_triangular(lu.mH, w, lower=False, unit=True), perm)


def _into(outs, values):
    for out, value in zip(outs, values, strict=True):
        if out.numel():
            out.copy_(value)
    return tuple(outs)


def linalg_lu_factor_ex_out(A, *, pivot=True, check_errors=False, LU, pivots, info):
    lu, piv, inf = _lu(A, pivot)
    if check_errors:
        _check(inf, "torch.linalg.lu_factor_ex", A)
    return _into((LU, pivots, info), (lu, piv, inf))


def _unpack(lu, pivots, m, n):
    steps = min(m, n)
    lower = lu[..., :, :steps].tril(-1)
    lower.diagonal(dim1=-2, dim2=-1).fill_(1)
    upper = lu[..., :steps, :].triu()
    perm = _permutation(pivots, m)
    p = torch.zeros(*perm.shape, m, dtype=_real_dtype(lu), device=lu.device)
    p.scatter_(-2, perm[..., None, :], 1)
    return p.to(lu.dtype), lower, upper


def linalg_lu_out(A, *, pivot=True, P, L, U):
    lu, pivots, _ = _lu(A, pivot)
    return _into((P, L, U), _unpack(lu, pivots, *A.shape[-2:]))


def lu_unpack_out(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, P, L, U):
    p, lower, upper = _unpack(LU_data, LU_pivots, *LU_data.shape[-2:])
    if unpack_pivots:
        _into((P,), (p,))
    if unpack_data:
        _into((L, U), (lower, upper))
    return P, L, U


def linalg_lu_solve_out(LU, pivots, B, *, left=True, adjoint=False, out):
    return _into((out,), (_lu_solve(LU, pivots, B, left, adjoint),))[0]


def _vector_case(A, B):
    return B.dim() == 1 or (A.dim() - 1 == B.dim() and B.shape == A.shape[:-1])


def _factored(A):
    """LU of A, or of A^T when A is row-major and real: PyTorch's det and slogdet factor the
    transpose then (LAPACK wants column-major), and their derivative formulas expect it."""
    transposed = A.is_contiguous() and not A.is_complex()
    return (*_lu(A.mT if transposed else A), transposed)


def linalg_solve_ex_result(A, B, *, left=True, check_errors=False, result, LU, pivots, info):
    lu, piv, inf = _lu(A)
    if check_errors:
        _check(inf, "torch.linalg.solve_ex", A)
    vector = _vector_case(A, B)
    rhs = B.unsqueeze(-1) if vector else B
    x = _lu_solve(lu, piv, rhs, left, factored=True)
    return _into((result, LU, pivots, info), (x.squeeze(-1) if vector else x, lu, piv, inf))


def linalg_inv_ex_inverse(A, *, check_errors=False, inverse, info):
    lu, piv, inf = _lu(A)
    if check_errors:
        _check(inf, "torch.linalg.inv_ex", A)
    eye = torch.eye(A.shape[-1], dtype=A.dtype, device=A.device)
    return _into((inverse, info), (_lu_solve(lu, piv, eye.expand_as(A), factored=True), inf))


def _exchange_sign(pivots, dtype):
    steps = torch.arange(1, pivots.shape[-1] + 1, device=pivots.device)
    swaps = (pivots != steps).sum(-1)
    return 1 - 2 * (swaps % 2).to(dtype)


def linalg_det_result(A, *, result, LU, pivots):
    lu, piv, _, _ = _factored(A)
    det = lu.diagonal(dim1=-2, dim2=-1).prod(-1) * _exchange_sign(piv, A.dtype)
    return _into((result, LU, pivots), (det, lu, piv))


def linalg_slogdet_sign(A, *, sign, logabsdet, LU, pivots):
    lu, piv, _, _ = _factored(A)
    diagonal = lu.diagonal(dim1=-2, dim2=-1)
    s = diagonal.sgn().prod(-1) * _exchange_sign(piv, A.dtype)
    return _into((sign, logabsdet, LU, pivots), (s, diagonal.abs().log().sum(-1), lu, piv))


def _cholesky(a):
    """The lower factor of a's lower triangle and potrf's info."""
    if _solver_library.serves(a):
        return _solver_library.cholesky(a)
    *batch, n, _ = a.shape
    factor = torch.zeros_like(a, memory_format=torch.contiguous_format)
    info = torch.zeros(batch, dtype=torch.int32, device=a.device)
    for j in range(n):
        row = factor[..., j, :j]
        s = a[..., j, j].real - (row * row.conj()).real.sum(-1)
        bad = ~(s > 0) & (info == 0)
        info = torch.where(bad, j + 1, info).to(torch.int32)
        d = s.sqrt().to(a.dtype)
        factor[..., j, j] = d
        if j + 1 < n:
            below = a[..., j + 1 :, j : j + 1] - factor[..., j + 1 :, :j] @ row.conj()[..., :, None]
            factor[..., j + 1 :, j : j + 1] = below / d[..., None, None]
    return factor, info


def linalg_cholesky_ex_L(A, *, upper=False, check_errors=False, L, info):
    factor, inf = _cholesky(A)
    if check_errors:
        _check(inf, "torch.linalg.cholesky_ex", A)
    return _into((L, info), (factor.mH if upper else factor, inf))


def cholesky(A, upper=False):
    factor, info = _cholesky(A)
    _check(info, "torch.cholesky", A)
    return (factor.mH if upper else factor).contiguous()


def cholesky_out(A, upper=False, *, out):
    result = cholesky(A, upper)
    out.resize_(result.shape)
    return out.copy_(result)


def cholesky_inverse(A, upper=False):
    eye = torch.eye(A.shape[-1], dtype=A.dtype, device=A.device).expand_as(A)
    if _solver_library.serves(A):
        return cholesky_solve_helper(eye, A, upper)
    # A = L L^H (or U^H U): its inverse is L^-H L^-1 (or U^-1 U^-H).
    inverse = _triangular(A, eye, lower=not upper, unit=False)
    return inverse @ inverse.mH if upper else inverse.mH @ inverse


def cholesky_inverse_out(A, upper=False, *, out):
    result = cholesky_inverse(A, upper)
    out.resize_(result.shape)
    return out.copy_(result)


def cholesky_solve_helper(B, A, upper):
    factor = A.mH if upper else A
    if _solver_library.serves(factor):
        return _solver_library.cholesky_solve(factor, B)
    y = _triangular(factor, B, lower=True, unit=False)
    return _triangular(factor.mH, y, lower=False, unit=False)


def _solve_triangular(A, B, upper, left, unitriangular):
    if left:
        return _triangular(A, B, lower=not upper, unit=unitriangular)
    return _triangular(A.mT, B.mT, lower=upper, unit=unitriangular).mT


def linalg_solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    return _solve_triangular(A, B, upper, left, unitriangular)


def linalg_solve_triangular_out(A, B, *, upper, left=True, unitriangular=False, out):
    result = _solve_triangular(A, B, upper, left, unitriangular)
    out.resize_(result.shape)
    return out.copy_(result)


def triangular_solve_X(B, A, upper=True, transpose=False, unitriangular=False, *, X, M):
    coefficients = A.mT if transpose else A
    x = _triangular(coefficients, B, lower=upper == transpose, unit=unitriangular)
    return _into((X, M), (x, A))


# The 1-norm up to which a degree-18 Taylor polynomial is within each precision's rounding
# (Bader, Blanes and Casas, "Computing the matrix exponential with an optimized Taylor
# polynomial approximation", 2019), as the CPU's kernel uses them.
TAYLOR_18_REACH = {torch.float64: 1.090863719290036, torch.float32: 3.010066362817634}


def linalg_matrix_exp(A):
    n = A.shape[-1]
    if A.numel() == 0 or n == 0:
        return A.clone()
    if A.dtype in (torch.float16, torch.bfloat16):
        return linalg_matrix_exp(A.float()).to(A.dtype)
    norm = A.abs().sum(-2).amax(-1)
    reach = TAYLOR_18_REACH[_real_dtype(A)]
    squarings = torch.clamp(torch.ceil(torch.log2(norm / reach)), 0, 64)
    squarings = torch.nan_to_num(squarings, nan=64.0)
    scaled = A / torch.exp2(squarings)[..., None, None]
    eye = torch.eye(n, dtype=A.dtype, device=A.device).expand_as(A)
    # Horner: I + X (I + X/2 (I + X/3 (...))).
    result = eye
    for k in range(18, 0, -1):
        result = eye + (scaled @ result) / k
    for step in range(int(squarings.max().item())):
        result = torch.where((step < squarings)[..., None, None], result @ result, result)
    return result


def _round_robin(n):
    """Rounds of disjoint index pairs covering every pair of 0..n-1 once (Brent and Luk's
    ordering): n - 1 rounds of n / 2 pairs (n rounded up to even; the odd one out rests)."""
    players = list(range(n + n % 2))
    rounds = []
    for _ in range(len(players) - 1):
        half = len(players) // 2
        pairs = [(players[i], players[-1 - i]) for i in range(half)]
        rounds.append([(min(p), max(p)) for p in pairs if max(p) < n])
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


def _magnitude_and_phase(gamma):
    """A real off-diagonal entry as it is (and no phase); a complex one as its magnitude and
    its unit complex number (1 for 0)."""
    if not gamma.is_complex():
        return gamma, None
    size = gamma.abs()
    unit = torch.where(size == 0, torch.ones_like(size), size)
    return size, torch.where(size == 0, torch.ones_like(gamma), gamma / unit)


def _rotations(alpha, beta, gamma, phase, pairs, n):
    """The (..., n, n) matrices J rotating each pair (p, q) so that the 2x2 symmetric block
    [[alpha, gamma], [gamma, beta]] becomes diagonal in J^T [...] J (c on the diagonal, s at
    (p, q), -s at (q, p)); identity elsewhere and where gamma is 0. With `phase` (the unit
    complex number of a Hermitian block's off-diagonal entry, whose magnitude gamma is) J is
    unitary, s phase at (p, q) and -s conj(phase) at (q, p), diagonalizing J^H [...] J."""
    zeta = (beta - alpha) / (2 * gamma)
    t = torch.where(zeta >= 0, 1.0, -1.0).to(alpha.dtype) / (zeta.abs() + (1 + zeta * zeta).sqrt())
    t = torch.where(gamma == 0, torch.zeros_like(t), t)
    c = (1 + t * t).rsqrt()
    s = c * t
    p = torch.tensor([a for a, _ in pairs], device=alpha.device)
    q = torch.tensor([b for _, b in pairs], device=alpha.device)
    dtype = alpha.dtype if phase is None else phase.dtype
    j = torch.eye(n, dtype=dtype, device=alpha.device).expand(*alpha.shape[:-1], n, n)
    j = j.reshape(*alpha.shape[:-1], n * n).clone()
    forward, backward = (s, -s) if phase is None else (s * phase, -s * phase.conj())
    c = c.to(dtype)
    for at, value in ((p * n + p, c), (q * n + q, c), (p * n + q, forward), (q * n + p, backward)):
        j.scatter_(-1, at.expand_as(value), value)
    return j.view(*alpha.shape[:-1], n, n), p, q


class _Sweeps:
    """The sweeps of a Jacobi iteration: at most 40, until the off-diagonal entries are within
    eps of the scale, or one sweep after they first came within n eps of it (rounding keeps
    them there: another sweep changes nothing)."""

    def __init__(self, n, dtype):
        self.eps, self.n, self.near = torch.finfo(dtype).eps, max(n, 1), False

    def done(self, off, scale):
        ratio = (off / torch.where(scale == 0, torch.ones_like(scale), scale)).amax()
        ratio = ratio.item()
        if ratio <= self.eps or (self.near and ratio <= self.n * self.eps):
            return True
        self.near = ratio <= self.n * self.eps
        return False


def _jacobi_eigh(a):
    """Eigenvalues (ascending) and eigenvectors (columns) of the symmetric (or Hermitian)
    matrices a, by cyclic Jacobi rotations, a round of disjoint pairs at a time."""
    n = a.shape[-1]
    v = torch.eye(n, dtype=a.dtype, device=a.device).expand_as(a).contiguous()
    scale = a.abs().amax((-2, -1))
    rounds = _round_robin(n)
    sweeps = _Sweeps(n, a.dtype)
    for _ in range(40):
        off = (a - torch.diag_embed(a.diagonal(dim1=-2, dim2=-1))).abs().amax((-2, -1))
        if sweeps.done(off, scale):
            break
        for pairs in rounds:
            if not pairs:
                continue
            p = [x for x, _ in pairs]
            q = [y for _, y in pairs]
            alpha, beta = a[..., p, p].real, a[..., q, q].real
            gamma = a[..., p, q]
            j, _, _ = _rotations(alpha, beta, *_magnitude_and_phase(gamma), pairs, n)
            a = j.mH @ a @ j
            v = v @ j
    values, order = a.diagonal(dim1=-2, dim2=-1).real.sort(dim=-1, stable=True)
    vectors = v.gather(-1, order[..., None, :].expand_as(v))
    return values, vectors


def linalg_eigh_eigenvalues(A, UPLO="L", compute_v=True, *, eigenvalues, eigenvectors):
    if A.numel() == 0:
        return eigenvalues, eigenvectors
    lower = A.tril() if UPLO.upper() == "L" else A.triu().mH
    # The diagonal's imaginary parts are ignored, as LAPACK's zheevd ignores them.
    diagonal = torch.diag_embed(lower.diagonal(dim1=-2, dim2=-1).real).to(A.dtype)
    symmetric = lower.tril(-1) + lower.tril(-1).mH + diagonal
    if _solver_library.serves(symmetric):
        values, vectors, info = _solver_library.eigh(symmetric, compute_v)
        _check(info, "torch.linalg.eigh", A)
    else:
        values, vectors = _jacobi_eigh(symmetric)
    if compute_v:
        return _into((eigenvalues, eigenvectors), (values, vectors))
    return _into((eigenvalues,), (values,))[0], eigenvectors


def _jacobi_svd(a):
    """(U, S, V) of the m x n (m >= n) matrices a by one-sided Jacobi: column pairs rotated
    until orthogonal (each rotation from the pair's 2x2 Gram block), then S the columns'
    norms in descending order."""
    n = a.shape[-1]
    w = a.contiguous()
    v = torch.eye(n, dtype=a.dtype, device=a.device).expand(*a.shape[:-2], n, n).contiguous()
    rounds = _round_robin(n)
    sweeps = _Sweeps(n, a.dtype)
    for _ in range(40):
        gram = w.mH @ w
        diagonal = gram.diagonal(dim1=-2, dim2=-1)
        coupling = (gram - torch.diag_embed(diagonal)).abs()
        norms = diagonal.real
        scale = (norms[..., :, None] * norms[..., None, :]).sqrt()
        if sweeps.done(coupling, scale):
            break
        for pairs in rounds:
            if not pairs:
                continue
            p = [x for x, _ in pairs]
            q = [y for _, y in pairs]
            wp, wq = w[..., :, p], w[..., :, q]
            alpha, beta = (wp.conj() * wp).real.sum(-2), (wq.conj() * wq).real.sum(-2)
            gamma = (wp.conj() * wq).sum(-2)
            j, _, _ = _rotations(alpha, beta, *_magnitude_and_phase(gamma), pairs, n)
            w = w @ j
            v = v @ j
    s = w.norm(dim=-2)
    s, order = s.sort(dim=-1, descending=True, stable=True)
    w = w.gather(-1, order[..., None, :].expand_as(w))
    v = v.gather(-1, order[..., None, :].expand_as(v))
    u = w / torch.where(s == 0, torch.ones_like(s), s)[..., None, :]
    return u, s, v


def linalg_svd_U(A, full_matrices=False, compute_uv=True, *, driver=None, U, S, Vh):
    m, n = A.shape[-2:]
    k = min(m, n)
    if A.numel() == 0:
        # Nothing to rotate: the singular vectors of an empty matrix are identity columns.
        eye = torch.eye(max(m, n), dtype=A.dtype, device=A.device)
        u = eye[:m, : (m if full_matrices else k)].expand(*A.shape[:-2], -1, -1)
        vh = eye[: (n if full_matrices else k), :n].expand(*A.shape[:-2], -1, -1)
        s = torch.zeros(*A.shape[:-2], k, dtype=_real_dtype(A), device=A.device)
        return _into((U, S, Vh), (u, s, vh)) if compute_uv else (U, _into((S,), (s,))[0], Vh)
    if _solver_library.serves(A):
        u, s, vh, info = _solver_library.svd(A, full_matrices, compute_uv)
        _check(info, "torch.linalg.svd", A)
        if not compute_uv:
            return U, _into((S,), (s,))[0], Vh
        return _into((U, S, Vh), (u, s, vh))
    if m >= n:
        u, s, v = _jacobi_svd(A)
    else:
        v, s, u = _jacobi_svd(A.mH)
    if not compute_uv:
        return U, _into((S,), (s,))[0], Vh
    if full_matrices and m != n:
        # The thin factor's columns completed to a basis: the complete Q of its own QR.
        short = u if m > n else v
        reflectors, tau = _householder(short)
        rows = short.shape[-2]
        eye = torch.eye(rows, dtype=A.dtype, device=A.device).expand(*short.shape[:-2], rows, rows)
        basis = _apply_reflectors(reflectors, tau, eye, transpose=False)
        full = torch.cat([short, basis[..., :, k:]], -1)
        u, v = (full, v) if m > n else (u, full)
    return _into((U, S, Vh), (u, s, v.mH))


def _larfg(alpha, rest):
    """LAPACK's dlarfg (zlarfg for complex alpha) over the last dimension of `rest`:
    (beta, tau, scale) with (I - tau v v^H)^H (alpha, rest) = (beta, 0) for v = (1, rest *
    scale): beta = -sign(re alpha) * norm (real), tau = (beta - alpha) / beta, and tau = 0 (no
    reflection, beta = alpha) where there is nothing to reflect."""
    re = alpha.real
    norm = rest.norm(dim=-1) if rest.shape[-1] else torch.zeros_like(re)
    if alpha.is_complex():
        reflect = (norm != 0) | (alpha.imag != 0)
        length = torch.hypot(torch.hypot(re, alpha.imag), norm)
    else:
        reflect = norm != 0
        length = torch.hypot(alpha, norm)
    beta = -torch.where(re >= 0, 1.0, -1.0).to(length.dtype) * length
    safe_beta = torch.where(reflect, beta, torch.ones_like(beta))
    tau = torch.where(reflect, (beta - alpha) / safe_beta, torch.zeros_like(alpha))
    scale = torch.where(reflect, 1 / (alpha - safe_beta), torch.ones_like(alpha))
    return torch.where(reflect, beta.to(alpha.dtype), alpha), tau, scale


def _householder(a):
    """LAPACK's geqrf of the (..., m, n) matrices a: R on and above the diagonal, the
    reflectors' vectors below it (their first entry 1, not stored), and their factors tau
    (`_larfg`'s)."""
    if _solver_library.serves(a):
        return _solver_library.geqrf(a)
    a = a.clone(memory_format=torch.contiguous_format)
    *batch, m, n = a.shape
    steps = min(m, n)
    tau = torch.zeros(*batch, steps, dtype=a.dtype, device=a.device)
    for k in range(steps):
        below = a[..., k + 1 :, k]
        beta, t, scale = _larfg(a[..., k, k], below)
        tau[..., k] = t
        if k + 1 < m:
            a[..., k + 1 :, k] = below * scale[..., None]
        a[..., k, k] = beta
        if k + 1 < n:
            a[..., k:, k + 1 :] = _reflect(a[..., k:, k + 1 :], _reflector(a, k), t.conj())
    return a, tau


def _reflector(a, k):
    """The vector of reflector k of geqrf's a: 1, then the entries below the diagonal."""
    ones = torch.ones_like(a[..., k, k])[..., None]
    return torch.cat([ones, a[..., k + 1 :, k]], -1)


def _reflect(block, v, tau):
    """(I - tau v v^H) block."""
    return block - tau[..., None, None] * v[..., :, None] * (v.conj()[..., None, :] @ block)


def _apply_reflectors(a, tau, c, transpose):
    """Q c (or Q^H c) for Q = H_0 ... H_{k-1} given as geqrf's (a, tau); c is (..., m, p)."""
    if a.dtype == c.dtype == tau.dtype and _solver_library.serves(c):
        return _solver_library.apply_q(a, tau, c, transpose)
    steps = tau.shape[-1]
    c = c.clone(memory_format=torch.contiguous_format)
    for k in range(steps) if transpose else range(steps - 1, -1, -1):
        t = tau[..., k].conj() if transpose else tau[..., k]
        c[..., k:, :] = _reflect(c[..., k:, :], _reflector(a, k), t)
    return c


def geqrf(A):
    return _householder(A)


def geqrf_a(A, *, a, tau):
    return _into((a, tau), _householder(A))


def linalg_householder_product(A, tau):
    m, n = A.shape[-2:]
    eye = torch.eye(m, n, dtype=A.dtype, device=A.device).expand(*A.shape[:-2], m, n)
    return _apply_reflectors(A, tau, eye, transpose=False)


def linalg_householder_product_out(A, tau, *, out):
    return _into((out,), (linalg_householder_product(A, tau),))[0]


def _check_ormqr(A, tau, C, left):
    """The CPU's argument checks, as RuntimeErrors with its messages."""
    side = -2 if left else -1
    for ok, message in [
        (A.dim() >= 2, "input must have at least 2 dimensions."),
        (C.dim() >= 2, "other must have at least 2 dimensions."),
    ]:
        if not ok:
            raise RuntimeError(f"torch.ormqr: {message}")
    if C.size(side) == A.size(-2) and tau.dim() == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    for ok, message in [
        (C.size(side) == A.size(-2), f"other.shape[{side}] must be equal to input.shape[-2]"),
        (
            tau.size(-1) == min(C.size(side), A.size(-1)),
            f"tau.shape[-1] must be equal to min(other.shape[{side}], input.shape[-1])",
        ),
        (
            A.dim() - tau.dim() == 1,
            "Expected tau to have one dimension less than input, but got tau.ndim equal to "
            f"{tau.dim()} and input.ndim is equal to {A.dim()}",
        ),
        (
            A.dim() == C.dim(),
            "Expected other to have the same number of dimensions as input, but got "
            f"other.ndim equal to {C.dim()} and input.ndim is equal to {A.dim()}",
        ),
        (
            tau.shape[:-1] == A.shape[:-2],
            "Expected batch dimensions of tau to be equal to input.shape[:-2], but got "
            f"{list(tau.shape[:-1])}",
        ),
        (
            C.shape[:-2] == A.shape[:-2],
            "Expected batch dimensions of other to be equal to input.shape[:-2], but got "
            f"{list(C.shape[:-2])}",
        ),
        (
            A.dtype == tau.dtype,
            "Expected input and tau to have the same dtype, but input has dtype"
            f"{_name(A.dtype)} and tau has dtype {_name(tau.dtype)}",
        ),
        (
            A.dtype == C.dtype,
            "Expected input and other to have the same dtype, but input has dtype"
            f"{_name(A.dtype)} and other has dtype {_name(C.dtype)}",
        ),
    ]:
        if not ok:
            raise RuntimeError(f"torch.ormqr: {message}")


def ormqr(A, tau, C, left=True, transpose=False):
    _check_ormqr(A, tau, C, left)
    if left:
        return _apply_reflectors(A, tau, C, transpose)
    # C Q = (Q^H C^H)^H.
    return _apply_reflectors(A, tau, C.mH, not transpose).mH


def ormqr_out(A, tau, C, left=True, transpose=False, *, out):
    return _into((out,), (ormqr(A, tau, C, left, transpose),))[0]


def linalg_qr_out(A, mode="reduced", *, Q, R):
    m, n = A.shape[-2:]
    k = min(m, n)
    a, tau = _householder(A)
    rows = m if mode == "complete" else k
    r = a[..., :rows, :].triu()
    if mode == "r":
        return Q, _into((R,), (r,))[0]
    columns = m if mode == "complete" else k
    eye = torch.eye(m, columns, dtype=A.dtype, device=A.device).expand(*A.shape[:-2], m, columns)
    return _into((Q, R), (_apply_reflectors(a, tau, eye, transpose=False), r))


def linalg_lstsq_out(A, B, rcond=None, *, driver=None, solution, residuals, rank, singular_values):
    """Least squares as the CPU's drivers give it. `gels` (CUDA's only driver) assumes full
    rank: A = QR gives x = R^-1 Q^H b (m >= n); A^H = QR the least-norm x = Q R^-H b (H the
    conjugate transpose). The rank-revealing drivers (`gelsy`, the default, `gelsd`, `gelss`)
    also take the SVD: the rank counts singular values above rcond times the largest (rcond
    eps * max(m, n) by default), and a rank-deficient matrix gets the least-norm solution
    V S^+ U^H b, as LAPACK's give it; one of full rank keeps the QR solution."""
    checks = [
        (A.dim() >= 2, "input must have at least 2 dimensions."),
        (B.dim() >= 1, "other must have at least 1 dimension."),
        (
            A.dtype == B.dtype,
            f"Expected input and other to have the same dtype, but got input's dtype {A.dtype} "
            f"and other's dtype {B.dtype}",
        ),
    ]
    for ok, message in checks:
        if not ok:
            raise RuntimeError(f"torch.linalg.lstsq: {message}")
    m, n = A.shape[-2:]
    vector = B.dim() == A.dim() - 1
    if B.size(-1 if vector else -2) != m:
        raise RuntimeError(
            f"torch.linalg.lstsq: input.size(-2) should match other.size(-{1 if vector else 2})"
        )
    rhs = B.unsqueeze(-1) if vector else B
    batch = torch.broadcast_shapes(A.shape[:-2], rhs.shape[:-2])
    a = A.expand(*batch, m, n)
    rhs = rhs.expand(*batch, *rhs.shape[-2:])
    if m >= n:
        reflectors, tau = _householder(a)
        qtb = _apply_reflectors(reflectors, tau, rhs, transpose=True)[..., :n, :]
        x = _triangular(reflectors[..., :n, :n].triu(), qtb, lower=False, unit=False)
    else:
        reflectors, tau = _householder(a.mH)
        y = _triangular(reflectors[..., :m, :m].triu().mH, rhs, lower=True, unit=False)
        padded = torch.cat([y, y.new_zeros(*batch, n - m, y.shape[-1])], -2)
        x = _apply_reflectors(reflectors, tau, padded, transpose=False)
    # What the CPU's drivers return besides the solution (gelsy when none is named).
    driver = driver or "gelsy"
    full_rank = True
    if driver != "gels":
        k = min(m, n)
        r = reflectors[..., :k, :k].triu()
        x, ranks, sigma = _rank_revealing_solution(a, rhs, x, rcond, r, driver == "gelsy")
        full_rank = bool((ranks == k).all())
    results = [(solution, x.squeeze(-1) if vector else x)]
    if m > n and driver != "gelsy" and (driver == "gels" or full_rank):
        results.append((residuals, (a @ x - rhs).abs().square().sum(-2)))
    if driver != "gels":
        results.append((rank, ranks))
    if driver in ("gelsd", "gelss"):
        results.append((singular_values, sigma))
    for out, value in results:
        out.resize_(value.shape).copy_(value)
    return solution, residuals, rank, singular_values


def _rank_revealing_solution(a, rhs, x, rcond, r, certificate_enough):
    """(solution, ranks, singular values) of min |a x - rhs| by the SVD a = U S V^H: `x` (the
    QR solution) where a has full rank, the least-norm V S^+ U^H rhs where it has not. With
    `certificate_enough` (no singular values wanted), the SVD is skipped when QR's triangle
    `r` proves full rank: 1/|r^-1|_F <= s_min and |r|_F >= s_max, so their ratio over rcond
    bounds s_min / s_max from below (one triangular solve, where the SVD takes sweeps)."""
    m, n = a.shape[-2:]
    k = min(m, n)
    if k == 0:
        ranks = torch.zeros(a.shape[:-2], dtype=torch.int64, device=a.device)
        return x, ranks, torch.zeros(*a.shape[:-2], 0, dtype=_real_dtype(a), device=a.device)
    if rcond is None:
        rcond = torch.finfo(_real_dtype(a)).eps * max(m, n)
    if certificate_enough:
        eye = torch.eye(k, dtype=r.dtype, device=r.device).expand_as(r)
        inverse = _triangular(r, eye, lower=False, unit=False)
        smallest = 1 / inverse.norm(dim=(-2, -1))
        if bool((smallest > rcond * r.norm(dim=(-2, -1))).all()):
            full = torch.full(a.shape[:-2], k, dtype=torch.int64, device=a.device)
            return x, full, torch.zeros(*a.shape[:-2], 0, dtype=_real_dtype(a), device=a.device)
    if m >= n:
        u, sigma, v = _jacobi_svd(a)
    else:
        v, sigma, u = _jacobi_svd(a.mH)
    kept = sigma > rcond * sigma[..., :1]
    ranks = kept.sum(-1)
    if bool((ranks == min(m, n)).all()):
        return x, ranks, sigma
    inverse = torch.where(kept, 1 / torch.where(kept, sigma, 1), 0).to(a.dtype)
    least_norm = v @ (inverse[..., :, None] * (u.mH @ rhs))
    full = (ranks == min(m, n))[..., None, None]
    return torch.where(full, x, least_norm), ranks, sigma


KERNELS = {
    "linalg_lu_factor_ex.out": linalg_lu_factor_ex_out,
    "linalg_lu.out": linalg_lu_out,
    "lu_unpack.out": lu_unpack_out,
    "linalg_lu_solve.out": linalg_lu_solve_out,
    "_linalg_solve_ex.result": linalg_solve_ex_result,
    "linalg_inv_ex.inverse": linalg_inv_ex_inverse,
    "_linalg_det.result": linalg_det_result,
    "_linalg_slogdet.sign": linalg_slogdet_sign,
    "linalg_cholesky_ex.L": linalg_cholesky_ex_L,
    "cholesky": cholesky,
    "cholesky.out": cholesky_out,
    "cholesky_inverse": cholesky_inverse,
    "cholesky_inverse.out": cholesky_inverse_out,
    "_cholesky_solve_helper": cholesky_solve_helper,
    "linalg_solve_triangular": linalg_solve_triangular,
    "linalg_solve_triangular.out": linalg_solve_triangular_out,
    "triangular_solve.X": triangular_solve_X,
    "linalg_matrix_exp": linalg_matrix_exp,
    "_linalg_eigh.eigenvalues": linalg_eigh_eigenvalues,
    "_linalg_svd.U": linalg_svd_U,
    "geqrf": geqrf,
    "geqrf.a": geqrf_a,
    "linalg_householder_product": linalg_householder_product,
    "linalg_householder_product.out": linalg_householder_product_out,
    "ormqr": ormqr,
    "ormqr.out": ormqr_out,
    "linalg_qr.out": linalg_qr_out,
    "linalg_lstsq.out": linalg_lstsq_out,
}
