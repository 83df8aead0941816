"""LDL factorizations of symmetric and Hermitian matrices, as LAPACK's Bunch-Kaufman
factorization (`?sytf2`, `?hetf2`, lower) makes them, and the solves with their factors
(`?sytrs`, `?hetrs`).

- `linalg_ldl_factor_ex.out`: each matrix is factored step by step on the device. A step
  chooses a 1x1 or 2x2 pivot and an interchange from the magnitudes of the current column
  (and, when needed, of the row it would swap in), read back to the host: LAPACK's choice
  (alpha = (1 + sqrt(17)) / 8; magnitudes |re| + |im| for complex entries, the real part of
  a Hermitian diagonal). The trailing matrix is kept whole (both triangles), so an
  interchange is a swap of two rows and two columns and an update a rank-1 or rank-2
  product; its lower triangle is LAPACK's working array. `LD` holds L below the diagonal and
  D's blocks, `pivots` LAPACK's 1-based interchanges (negative for 2x2 blocks), `info` the
  first exactly zero pivot.
- `linalg_ldl_solve.out`: `A X = B` through the factors, applying each step's interchange
  and block in LAPACK's order, for any `LD` and `pivots` (they need not come from a
  factorization).

Pivot decisions read the device (one or two small reads per step): fine for the small and
batched matrices these serve, slow for large ones. Where the device has a solver library
(cuSOLVER's sytrf and sytrs), symmetric matrices go through it instead.
"""

import math

import torch

from . import _solver_library

ALPHA = (1 + math.sqrt(17)) / 8


def _cabs1(x: torch.Tensor) -> torch.Tensor:
    """LAPACK's pivoting magnitude: |re| + |im| for complex entries, |x| for real ones."""
    return x.real.abs() + x.imag.abs() if x.is_complex() else x.abs()


def _first_max(values: list[float]) -> tuple[int, float]:
    """The first position of the largest value (`i?amax`; NaN counts as nothing)."""
    best, at = -1.0, 0
    for i, v in enumerate(values):
        if v > best:
            best, at = v, i
    return at, max(best, 0.0)


def _swap(s: torch.Tensor, k: int, a: int, b: int) -> None:
    """Swaps rows and columns `a` and `b` of the trailing matrix `s[k:, k:]`."""
    s[[a, b], k:] = s[[b, a], k:]
    s[k:, [a, b]] = s[k:, [b, a]]


def _factor_one(s: torch.Tensor, hermitian: bool) -> tuple[list[int], int]:
    """Factors the whole symmetric (Hermitian) matrix `s` in place; its lower triangle then
    holds LD. Returns the pivots and info."""
    n = s.shape[-1]
    conj = hermitian and s.is_complex()

    def diagonal_magnitude(i: int) -> float:
        d = s[i, i]
        return float(d.real.abs() if conj else _cabs1(d))

    pivots = [0] * n
    info = 0
    k = 0
    while k < n:
        kstep = 1
        below = _cabs1(s[k + 1 :, k]).tolist() if k < n - 1 else []
        absakk = diagonal_magnitude(k)
        imax, colmax = _first_max(below)
        imax += k + 1
        if max(absakk, colmax) == 0 or math.isnan(absakk):
            info = info or k + 1
            pivots[k] = k + 1
            k += 1
            continue
        kp = k
        if absakk < ALPHA * colmax:
            row = _cabs1(s[imax, k:]).tolist()
            row[imax - k] = -1.0
            rowmax = _first_max(row)[1]
            if absakk >= ALPHA * colmax * (colmax / rowmax):
                kp = k
            elif diagonal_magnitude(imax) >= ALPHA * rowmax:
                kp = imax
            else:
                kp, kstep = imax, 2
        kk = k + kstep - 1
        if kp != kk:
            _swap(s, k, kk, kp)
        if kstep == 1:
            _eliminate_1x1(s, k, conj)
            pivots[k] = kp + 1
        else:
            _eliminate_2x2(s, k, conj)
            pivots[k] = pivots[k + 1] = -(kp + 1)
        k += kstep
    return pivots, info


def _eliminate_1x1(s: torch.Tensor, k: int, conj: bool) -> None:
    if conj:
        s[k, k] = s[k, k].real
    if k == s.shape[-1] - 1:
        return
    x = s[k + 1 :, k].clone()
    r1 = 1 / (s[k, k].real if conj else s[k, k])
    scaled = r1 * (x.conj() if conj else x)
    s[k + 1 :, k + 1 :] -= torch.outer(x, scaled)
    s[k + 1 :, k] = r1 * x
    if conj:
        s[k + 1 :, k + 1 :].diagonal().imag.zero_()


def _eliminate_2x2(s: torch.Tensor, k: int, conj: bool) -> None:
    n = s.shape[-1]
    if conj:
        s[k, k], s[k + 1, k + 1] = s[k, k].real, s[k + 1, k + 1].real
    if k < n - 2:
        x = s[k + 2 :, k : k + 2].clone()
        d21 = s[k + 1, k]
        if conj:
            d = d21.abs()
            d11, d22 = s[k + 1, k + 1].real / d, s[k, k].real / d
            unit = d21 / d
            scale = 1 / (d11 * d22 - 1) / d
            wk = scale * (d11 * x[:, 0] - unit * x[:, 1])
            wkp1 = scale * (d22 * x[:, 1] - unit.conj() * x[:, 0])
        else:
            d11, d22 = s[k + 1, k + 1] / d21, s[k, k] / d21
            scale = 1 / (d11 * d22 - 1) / d21
            wk = scale * (d11 * x[:, 0] - x[:, 1])
            wkp1 = scale * (d22 * x[:, 1] - x[:, 0])
        w = torch.stack([wk, wkp1], -1)
        s[k + 2 :, k + 2 :] -= x @ (w.mH if conj else w.mT)
        s[k + 2 :, k : k + 2] = w
        if conj:
            s[k + 2 :, k + 2 :].diagonal().imag.zero_()


def _whole(a: torch.Tensor, hermitian: bool) -> torch.Tensor:
    """The symmetric (Hermitian) matrix whose lower triangle is `a`'s."""
    lower = a.tril(-1)
    whole = a.tril() + (lower.mH if hermitian and a.is_complex() else lower.mT)
    if hermitian and a.is_complex():
        whole.diagonal(dim1=-2, dim2=-1).imag.zero_()
    return whole


def _library_takes(a: torch.Tensor, hermitian: bool) -> bool:
    """Whether the solver library factors (or solves with) `a`: its sytrf and sytrs take
    symmetric matrices, not Hermitian complex ones."""
    return not (hermitian and a.is_complex()) and _solver_library.serves(a)


def linalg_ldl_factor_ex_out(self, *, hermitian=False, check_errors=False, LD, pivots, info):
    n = self.shape[-1]
    batch = self.shape[:-2]
    shape = (*batch, n)
    if _library_takes(self, hermitian):
        found = _solver_library.ldl_factor(self)
        for out, value in zip((LD, pivots, info), found, strict=True):
            out.resize_(value.shape).copy_(value)
    else:
        count = math.prod(batch)
        work = _whole(self, hermitian).reshape(count, n, n).clone()
        found_pivots, found_info = [], []
        for m in work:
            p, i = _factor_one(m, hermitian)
            found_pivots.append(p)
            found_info.append(i)
        LD.resize_(self.shape).copy_(work.reshape(self.shape).tril())
        pivots.resize_(shape).copy_(torch.tensor(found_pivots, dtype=torch.int32).reshape(shape))
        info.resize_(batch).copy_(torch.tensor(found_info, dtype=torch.int32).reshape(batch))
    if check_errors:
        # The CPU's check, and its message, for info codes.
        torch._linalg_check_errors(info, "torch.linalg.ldl_factor_ex", is_matrix=self.dim() == 2)
    return LD, pivots, info


def _solve_one(a: torch.Tensor, pivots: list[int], b: torch.Tensor, hermitian: bool) -> None:
    """Solves with the factors in `a` (lower LD) and `pivots`, overwriting `b` (n, k)."""
    n = a.shape[-1]
    conj = hermitian and a.is_complex()

    def swap(i: int, j: int) -> None:
        if i != j:
            b[[i, j]] = b[[j, i]]

    # L D X = B.
    k = 0
    while k < n:
        if pivots[k] > 0:
            swap(k, pivots[k] - 1)
            if k < n - 1:
                b[k + 1 :] -= torch.outer(a[k + 1 :, k], b[k])
            b[k] = b[k] / (a[k, k].real if conj else a[k, k])
            k += 1
        else:
            swap(k + 1, -pivots[k] - 1)
            if k < n - 2:
                b[k + 2 :] -= torch.outer(a[k + 2 :, k], b[k])
                b[k + 2 :] -= torch.outer(a[k + 2 :, k + 1], b[k + 1])
            akm1k = a[k + 1, k]
            first = akm1k.conj() if conj else akm1k
            akm1 = a[k, k] / first
            ak = a[k + 1, k + 1] / akm1k
            denom = akm1 * ak - 1
            bkm1, bk = b[k] / first, b[k + 1] / akm1k
            b[k], b[k + 1] = (ak * bkm1 - bk) / denom, (akm1 * bk - bkm1) / denom
            k += 2
    # L^T X = B (L^H for Hermitian factors).
    k = n - 1
    while k >= 0:
        if pivots[k] > 0:
            if k < n - 1:
                column = a[k + 1 :, k]
                b[k] -= (column.conj() if conj else column) @ b[k + 1 :]
            swap(k, pivots[k] - 1)
            k -= 1
        else:
            if k < n - 1:
                for j in (k, k - 1):
                    column = a[k + 1 :, j]
                    b[j] -= (column.conj() if conj else column) @ b[k + 1 :]
            swap(k, -pivots[k] - 1)
            k -= 2


def linalg_ldl_solve_out(LD, pivots, B, *, hermitian=False, out):
    checks = [
        (LD.dim() >= 2, "LD must have at least 2 dimensions."),
        (B.dim() >= 2, "B must have at least 2 dimensions."),
        (LD.shape[-1] == LD.shape[-2], "LD must be batches of square matrices"),
        (pivots.shape == LD.shape[:-1], "Expected LD.shape[:-1] and pivots.shape to be the same"),
        (LD.dtype == B.dtype, "LD dtype does not match B dtype"),
        (pivots.dtype == torch.int32, "pivots dtype should be int32"),
    ]
    for ok, message in checks:
        if not ok:
            raise RuntimeError(f"torch.linalg.ldl_solve: {message}")
    n = LD.shape[-1]
    batch = torch.broadcast_shapes(LD.shape[:-2], B.shape[:-2])
    every = LD.expand(*batch, n, n)
    if _library_takes(every, hermitian) and _solver_library.pivots_in_bounds(pivots, blocks=True):
        x = _solver_library.ldl_solve(LD, pivots, B)
        return out.resize_(x.shape).copy_(x)
    count = math.prod(batch)
    lds = LD.expand(*batch, n, n).reshape(count, n, n)
    every_pivot = pivots.expand(*batch, n).reshape(count, n).tolist()
    x = B.expand(*batch, *B.shape[-2:]).reshape(count, *B.shape[-2:]).clone()
    for a, p, b in zip(lds, every_pivot, x, strict=True):
        _solve_one(a, p, b, hermitian)
    return out.resize_(x.reshape(*batch, *B.shape[-2:]).shape).copy_(x.reshape(out.shape))


KERNELS = {
    "linalg_ldl_factor_ex.out": linalg_ldl_factor_ex_out,
    "linalg_ldl_solve.out": linalg_ldl_solve_out,
}
