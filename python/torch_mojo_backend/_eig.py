"""`torch.linalg.eig` and `torch.linalg.eigvals` (`linalg_eig`, `_linalg_eigvals`) composed
from mojo's kernels, registered below autograd (PrivateUse1); PyTorch's derivative formulas
differentiate them. The steps are those of LAPACK's `geev`, which the CPU runs, so that the
eigenvalues come in the CPU's order:

1. Balancing (`gebal`): rows, then columns, that isolate an eigenvalue are permuted to the
   ends; each remaining row and column pair is then scaled by a power of two while that
   brings their norms nearer (to within 0.95 of the sum), sweep after sweep.
2. Hessenberg reduction (`gehd2`) by `_linalg`'s reflectors, and their product Q.
3. The QR algorithm (`lahqr`, which LAPACK runs below 75 rows): Francis double shifts on real
   matrices, single (Wilkinson) shifts on complex ones, LAPACK's deflation criterion (Ahues
   and Tisseur), its exceptional shifts after every 10 iterations without deflation, its
   start below two consecutive small subdiagonal entries. The eigenvalues of a real 2x2 block
   are those `lanv2` gives as it standardizes the block (of a complex pair, the one with the
   positive imaginary part first).
4. Eigenvectors: each 2x2 block of a real Schur form is made triangular by a unitary rotation,
   the complex triangular system is solved for all eigenvalues at once, row by row (a
   difference of eigenvalues below LAPACK's `smin` replaced by it, as `trevc` does), the
   solutions are transformed back by Q and the balancing, then normalised to unit length
   with their largest entry real (and positive), as `geev` normalises complex eigenvectors.
   An eigenvector is unique up to that phase; for a real eigenvalue LAPACK keeps the sign
   its substitution gives, so the CPU's may be the negative of mojo's.

Where the device has a solver library (cuSOLVER's geev on NVIDIA, `_solver_library.eig`),
finite matrices of order 32 and more go through it instead; it may give the eigenvalues in
another order (torch.linalg.eig promises none), as stock CUDA's cuSOLVER path may.

Each matrix of a batch is reduced on its own. The arithmetic runs on the device; the host
reads back only what LAPACK branches on: which subdiagonal entries are negligible and where
a sweep starts (one small read each per iteration), the zero pattern and the norms balancing
compares. Not done: LAPACK's scaling of matrices near the underflow or overflow thresholds
and its overflow guards in the substitution (`latrs`). From 75 rows the CPU's LAPACK runs
its multishift QR (`laqr0`), which may find the same eigenvalues in another order.
"""

import torch

from . import _solver_library
from ._complex import resize_out
from ._linalg import _apply_reflectors, _larfg

_EXCEPTIONAL = 10  # LAPACK's KEXSH: iterations without deflation before an exceptional shift
# From this order on, finite matrices go through the device's solver library (cuSOLVER's
# geev) where it has one: below it the steps here cost fewer host reads than a library call
# per matrix costs launches (an estimate, not yet measured on a GPU), and they keep LAPACK's
# order of the eigenvalues.
_LIBRARY_ORDER = 32


class _Limits:
    """LAPACK's machine constants for a real dtype and a matrix of order n."""

    def __init__(self, dtype, n):
        info = torch.finfo(dtype)
        self.ulp = info.eps  # dlamch('P')
        self.safmin = info.tiny  # dlamch('S')
        self.smlnum = info.tiny * (max(n, 1) / info.eps)


def _cabs1(x):
    """|re| + |im| (LAPACK's cabs1), or |x| for real x."""
    return x.real.abs() + x.imag.abs() if x.is_complex() else x.abs()


def _check(A, api):
    if A.dim() < 2:
        raise RuntimeError(f"{api}: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(
            f"{api}: A must be batches of square matrices, but they are "
            f"{A.shape[-2]} by {A.shape[-1]} matrices"
        )
    if A.dtype in (torch.float16, torch.bfloat16, torch.complex32):
        name = {torch.float16: "Half", torch.bfloat16: "BFloat16"}.get(A.dtype, "ComplexHalf")
        raise NotImplementedError(f"\"linalg_eig_out_mojo\" not implemented for '{name}'")
    if not (A.is_floating_point() or A.is_complex()):
        raise RuntimeError(
            f"{api}: Expected a floating point or complex tensor as input. Got {A.dtype}"
        )


# 1. Balancing.


def _swap(a, j, m, rows_to, cols_from):
    """Exchanges columns j and m (rows up to rows_to) and rows j and m (columns from
    cols_from), as gebal's exchange does."""
    if j == m:
        return
    column = a[: rows_to + 1, j].clone()
    a[: rows_to + 1, j] = a[: rows_to + 1, m]
    a[: rows_to + 1, m] = column
    row = a[j, cols_from:].clone()
    a[j, cols_from:] = a[m, cols_from:]
    a[m, cols_from:] = row


def _isolate(a):
    """gebal's permutation: (low, high, moved) with a's rows and columns exchanged in place so
    that a[low:high+1, low:high+1] is the part left to reduce; moved[m] is the row exchanged
    with position m (outside that part)."""
    n = a.shape[-1]
    low, high, moved = 0, n - 1, {}
    while True:  # rows with no other nonzero in columns low..high go down
        nonzero = (a[: high + 1, : high + 1] != 0).tolist()
        row = next(
            (
                j
                for j in range(high, -1, -1)
                if not any(nonzero[j][i] for i in range(high + 1) if i != j)
            ),
            None,
        )
        if row is None:
            break
        moved[high] = row
        _swap(a, row, high, high, low)
        if high == 0:
            return 0, 0, moved
        high -= 1
    while True:  # columns with no other nonzero in rows low..high go left
        nonzero = (a[low : high + 1, low : high + 1] != 0).tolist()
        column = next(
            (
                j
                for j in range(high - low + 1)
                if not any(nonzero[i][j] for i in range(high - low + 1) if i != j)
            ),
            None,
        )
        if column is None:
            break
        moved[low] = column + low
        _swap(a, column + low, low, high, low)
        low += 1
    return low, high, moved


def _scaling(c, r, ca, ra, scale, dtype):
    """gebal's power of two for a row and column with norms r and c and largest entries ra
    and ca, or None where it would not bring them nearer."""
    sfmin1 = torch.finfo(dtype).tiny / torch.finfo(dtype).eps
    sfmax1, sfmin2 = 1 / sfmin1, sfmin1 * 2
    sfmax2 = 1 / sfmin2
    if c == 0 or r == 0:
        return None
    g, f, s = r / 2, 1.0, c + r
    while c < g and max(f, c, ca) < sfmax2 and min(r, g, ra) > sfmin2:
        f, c, ca, r, g, ra = f * 2, c * 2, ca * 2, r / 2, g / 2, ra / 2
    g = c / 2
    while g >= r and max(r, ra) < sfmax2 and min(f, c, g, ca) > sfmin2:
        f, c, g, ca, r, ra = f / 2, c / 2, g / 2, ca / 2, r * 2, ra * 2
    if c + r >= 0.95 * s:
        return None
    if f < 1 and scale < 1 and f * scale <= sfmin1:
        return None
    if f > 1 and scale > 1 and scale >= sfmax1 / f:
        return None
    return f


def _balance(a, low, high):
    """gebal's scaling of a[low:high+1, low:high+1] (in place): the factors, by row."""
    scale = [1.0] * a.shape[-1]
    dtype = a.real.dtype
    changed = True
    while changed:
        changed = False
        for i in range(low, high + 1):
            norms = torch.stack(
                [
                    a[low : high + 1, i].norm(),
                    a[i, low : high + 1].norm(),
                    a[: high + 1, i].abs().amax(),
                    a[i, low:].abs().amax(),
                ]
            )
            f = _scaling(*norms.tolist(), scale[i], dtype)
            if f is None:
                continue
            scale[i] *= f
            changed = True
            a[i, low:] *= 1 / f
            a[: high + 1, i] *= f
    return scale


# 2. Hessenberg reduction.


def _hessenberg(a, low, high, with_q):
    """gehd2 (in place: a becomes upper Hessenberg) and, when asked, Q with A = Q H Q^H."""
    n = a.shape[-1]
    taus = []
    for i in range(low, high):
        beta, tau, scale = _larfg(a[i + 1, i], a[i + 2 : high + 1, i])
        a[i + 2 : high + 1, i] *= scale
        v = torch.cat([torch.ones_like(beta)[None], a[i + 2 : high + 1, i]])
        right = a[: high + 1, i + 1 : high + 1]
        right -= (right @ v)[:, None] * (tau * v.conj())[None, :]
        left = a[i + 1 : high + 1, i + 1 :]
        left -= (tau.conj() * v)[:, None] * (v.conj() @ left)[None, :]
        a[i + 1, i] = beta
        taus.append(tau)
    q = None
    if with_q:
        q = torch.eye(n, dtype=a.dtype, device=a.device)
        if taus:
            m = high - low
            eye = torch.eye(m, dtype=a.dtype, device=a.device)
            vectors = a[low + 1 : high + 1, low:high]
            q[low + 1 : high + 1, low + 1 : high + 1] = _apply_reflectors(
                vectors, torch.stack(taus), eye, transpose=False
            )
    rows = torch.arange(n, device=a.device)
    a.copy_(torch.where(rows[:, None] <= rows[None, :] + 1, a, 0))
    return q


# 3. The QR algorithm.


def _negligible(h, top, i, low, high, lim):
    """lahqr's search for a negligible subdiagonal entry h[k, k-1], k from i down to top+1:
    the largest such k, or top."""
    if i <= top:
        return top
    diag, sub, sup = h.diagonal(), h.diagonal(-1), h.diagonal(1)
    hk, hk1 = diag[top + 1 : i + 1], diag[top:i]  # h[k,k], h[k-1,k-1]
    below = sub[top:i]  # h[k,k-1]
    tst = _cabs1(hk1) + _cabs1(hk)
    # |h[k-1,k-2]| and |h[k+1,k]| where they lie within rows low..high, else 0.
    zero = torch.zeros_like(tst[:1])
    padded = torch.cat([zero, sub.real.abs(), zero])  # padded[j + 1] = |h[j+1, j]|
    ks = torch.arange(top + 1, i + 1, device=h.device)
    before = torch.where(ks - 2 >= low, padded[top:i], 0)
    after = torch.where(ks + 1 <= high, padded[top + 2 : i + 2], 0)
    tst = torch.where(tst == 0, tst + before + after, tst)
    size = _cabs1(below)
    ab = torch.maximum(size, _cabs1(sup[top:i]))
    ba = torch.minimum(size, _cabs1(sup[top:i]))
    gap = _cabs1(hk1 - hk)
    aa = torch.maximum(_cabs1(hk), gap)
    bb = torch.minimum(_cabs1(hk), gap)
    s = aa + ab
    small = (below.real.abs() <= lim.ulp * tst) & (
        ba * (ab / s) <= torch.clamp(lim.ulp * (bb * (aa / s)), min=lim.smlnum)
    )
    return top + 1 + _last((size <= lim.smlnum) | small, -1)


def _real_shifts(h, top, i, exceptional):
    """lahqr's double shift (rt1r, rt1i, rt2r, rt2i) as 0-d tensors."""
    if exceptional == 2:
        s = h[i, i - 1].abs() + h[i - 1, i - 2].abs()
        h11 = 0.75 * s + h[i, i]
        h12, h21, h22 = -0.4375 * s, s, h11
    elif exceptional == 1:
        s = h[top + 1, top].abs() + h[top + 2, top + 1].abs()
        h11 = 0.75 * s + h[top, top]
        h12, h21, h22 = -0.4375 * s, s, h11
    else:
        h11, h21, h12, h22 = h[i - 1, i - 1], h[i, i - 1], h[i - 1, i], h[i, i]
    s = h11.abs() + h12.abs() + h21.abs() + h22.abs()
    nonzero = s != 0
    s1 = torch.where(nonzero, s, torch.ones_like(s))
    h11, h12, h21, h22 = h11 / s1, h12 / s1, h21 / s1, h22 / s1
    tr = (h11 + h22) / 2
    det = (h11 - tr) * (h22 - tr) - h12 * h21
    rtdisc = det.abs().sqrt()
    pair = det >= 0
    first, second = tr + rtdisc, tr - rtdisc
    nearer = torch.where((first - h22).abs() <= (second - h22).abs(), first, second)
    re = torch.where(pair, tr, nearer) * s
    im = torch.where(pair, rtdisc * s, torch.zeros_like(s))
    zero = torch.zeros_like(s)
    re, im = torch.where(nonzero, re, zero), torch.where(nonzero, im, zero)
    return re, im, re, -im


def _real_start(h, top, i, shifts, lim):
    """lahqr's search for two consecutive small subdiagonal entries: (m, the first column
    of the double-shift polynomial, scaled)."""
    rt1r, rt1i, rt2r, rt2i = shifts
    diag, sub, sup = h.diagonal(), h.diagonal(-1), h.diagonal(1)
    hmm, hm1 = diag[top : i - 1], diag[top + 1 : i]  # h[m,m], h[m+1,m+1]
    h21s = sub[top : i - 1]
    s = (hmm - rt2r).abs() + rt2i.abs() + h21s.abs()
    h21s = h21s / s
    v = torch.stack(
        [
            h21s * sup[top : i - 1] + (hmm - rt1r) * ((hmm - rt2r) / s) - rt1i * (rt2i / s),
            h21s * (hmm + hm1 - rt1r - rt2r),
            h21s * sub[top + 1 : i],
        ]
    )
    v = v / v.abs().sum(0)
    m = top
    if i - 2 > top:
        h00 = sub[top : i - 2].abs() * (v[1, 1:].abs() + v[2, 1:].abs())
        h01 = v[0, 1:].abs() * (diag[top : i - 2].abs() + hmm[1:].abs() + hm1[1:].abs())
        m = top + 1 + _last(h00 <= lim.ulp * h01, -1)
    return m, v[:, m - top]


def _complex_shift(h, top, i, exceptional):
    """zlahqr's single shift as a 0-d tensor."""
    if exceptional == 2:
        return 0.75 * h[i, i - 1].real.abs() + h[i, i]
    if exceptional == 1:
        return 0.75 * h[top + 1, top].real.abs() + h[top, top]
    t = h[i, i]
    u = h[i - 1, i].sqrt() * h[i, i - 1].sqrt()
    s = _cabs1(u)
    x = 0.5 * (h[i - 1, i - 1] - t)
    sx = _cabs1(x)
    big = torch.maximum(s, sx)
    big = torch.where(big == 0, torch.ones_like(big), big)
    y = big * ((x / big) ** 2 + (u / big) ** 2).sqrt()
    unit = x / torch.where(sx > 0, sx, torch.ones_like(sx))
    y = torch.where((sx > 0) & (unit.real * y.real + unit.imag * y.imag < 0), -y, y)
    xy = x + y
    xy = torch.where(xy == 0, torch.ones_like(xy), xy)
    return torch.where(s != 0, t - u * (u / xy), t)


def _complex_start(h, top, i, t, lim):
    """zlahqr's search for two consecutive small subdiagonal entries: (m, (h11s, h21))."""
    diag, sub = h.diagonal(), h.diagonal(-1)
    h11, h22 = diag[top:i], diag[top + 1 : i + 1]  # h[m,m], h[m+1,m+1]
    h11s = h11 - t
    h21 = sub[top:i].real
    s = _cabs1(h11s) + h21.abs()
    h11s, h21 = h11s / s, h21 / s
    m = top
    if i - 1 > top:
        h10 = sub[top : i - 1].real
        small = h10.abs() * h21[1:].abs() <= lim.ulp * (
            _cabs1(h11s[1:]) * (_cabs1(h11[1:]) + _cabs1(h22[1:]))
        )
        m = top + 1 + _last(small, -1)
    return m, torch.stack([h11s[m - top], h21[m - top].to(h.dtype)])


def _reflect_both(h, z, k, v, tau, last_row, low, high):
    """H <- P^H H P for P = I - tau v v^H acting on rows and columns k..k+len(v)-1 (columns
    of H from k on, rows of H up to last_row), and Z <- Z P (rows low..high)."""
    size = v.shape[0]
    outer = v[:, None] * _conj(v)[None, :]
    eye = torch.eye(size, dtype=h.dtype, device=h.device)
    p, p_adjoint = eye - tau * outer, eye - _conj(tau) * outer
    rows = h[k : k + size, k:]
    rows.copy_(p_adjoint @ rows)
    columns = h[: last_row + 1, k : k + size]
    columns.copy_(columns @ p)
    if z is not None:
        columns = z[low : high + 1, k : k + size]
        columns.copy_(columns @ p)


def _conj(x):
    """The conjugate, stored (a conjugate view would be resolved in every product)."""
    return torch.complex(x.real, -x.imag) if x.is_complex() else x


def _last(flags, default):
    """The index of the last true entry of the 1-D `flags` (one read), or `default`."""
    found = [n for n, flag in enumerate(flags.tolist()) if flag]
    return found[-1] if found else default


def _sweep(h, z, top, m, i, v, low, high):
    """One double-shift (real) or single-shift (complex) QR sweep from row m to row i."""
    size = 2 if h.is_complex() else 3
    for k in range(m, i):
        nr = min(size, i - k + 1)
        if k > m:
            v = h[k : k + nr, k - 1].clone()
        beta, tau, scale = _larfg(v[0], v[1:nr])
        v = torch.cat([torch.ones_like(beta)[None], v[1:nr] * scale])
        if k > m:
            h[k, k - 1] = beta
            h[k + 1 : k + nr, k - 1] = 0
        elif m > top and not h.is_complex():
            h[k, k - 1] *= 1 - tau
        _reflect_both(h, z, k, v, tau, min(k + size, i), low, high)
        if k == m and m > top and h.is_complex():
            _keep_real(h, z, m, i, tau, low, high)
    if h.is_complex():
        _real_subdiagonal(h, z, i, low, high)


def _keep_real(h, z, m, i, tau, low, high):
    """zlahqr's rescaling after a sweep started at m > top, so that h[m, m-1] stays real: a
    diagonal similarity by temp = (1 - tau) / |1 - tau| on rows and columns m..i but m+1."""
    temp = 1 - tau
    temp = temp / temp.abs()
    d = torch.ones(h.shape[-1], dtype=h.dtype, device=h.device)
    d[m : i + 1] = temp
    d[m + 1] = 1
    diagonal, left = h.diagonal().clone(), h[m, m - 1].clone()
    h *= d[:, None]
    h *= d.conj()[None, :]
    h.diagonal().copy_(diagonal)
    h[m, m - 1] = left
    if z is not None:
        z[low : high + 1] *= d.conj()[None, :]


def _real_subdiagonal(h, z, i, low, high):
    """zlahqr's last step of a sweep: h[i, i-1] made real by a unit scaling of row and
    column i."""
    entry = h[i, i - 1]
    size = entry.abs()
    temp = torch.where(
        (entry.imag != 0) & (size != 0), entry / torch.where(size == 0, 1.0, size), 1.0
    ).to(h.dtype)
    h[i, i - 1] = torch.where(entry.imag != 0, size.to(h.dtype), entry)
    h[i, i + 1 :] *= temp.conj()
    h[:i, i] *= temp
    if z is not None:
        z[low : high + 1, i] *= temp


def _schur(h, z, low, high):
    """lahqr on h[low:high+1, low:high+1] (in place, with every transformation applied to
    the whole of h and accumulated into z): (blocks, info) where blocks are the starts of
    the real 2x2 blocks left and info is 1 + the row where it failed to converge, or 0."""
    lim = _Limits(h.real.dtype, high - low + 1)
    limit = 30 * max(10, high - low + 1)
    blocks = []
    i = high
    while i >= low:  # rows top..i are the active block; below i all has converged
        top, stalled = low, 0
        for _ in range(limit + 1):
            top = _negligible(h, top, i, low, high, lim)
            if top > low:
                h[top, top - 1] = 0
            if top >= i - (0 if h.is_complex() else 1):
                break
            stalled += 1
            exceptional = (
                2
                if stalled % (2 * _EXCEPTIONAL) == 0
                else (1 if stalled % _EXCEPTIONAL == 0 else 0)
            )
            if h.is_complex():
                t = _complex_shift(h, top, i, exceptional)
                m, v = _complex_start(h, top, i, t, lim)
            else:
                shifts = _real_shifts(h, top, i, exceptional)
                m, v = _real_start(h, top, i, shifts, lim)
            _sweep(h, z, top, m, i, v, low, high)
        else:
            return blocks, i + 1
        if top == i - 1 and not h.is_complex():
            blocks.append(top)
        i = top - 1
    return blocks, 0


def _lanv2(a, b, c, d, eps):
    """The eigenvalues (rt1, rt2) of the real 2x2 blocks [[a, b], [c, d]], as LAPACK's lanv2
    computes them while it standardizes the block (complex dtype)."""
    one = torch.ones_like(a)
    sign = lambda x: torch.where(x >= 0, one, -one)  # noqa: E731 (Fortran's SIGN(1, x))
    zero = torch.zeros_like(a)

    def pair(re, im):
        return torch.complex(re, im), torch.complex(re, -im)

    temp = a - d
    p = 0.5 * temp
    bcmax = torch.maximum(b.abs(), c.abs())
    bcmis = torch.minimum(b.abs(), c.abs()) * sign(b) * sign(c)
    scale = torch.maximum(p.abs(), bcmax)
    scale = torch.where(scale == 0, one, scale)
    z = (p / scale) * p + (bcmax / scale) * bcmis
    # Real eigenvalues, far apart.
    zr = p + sign(p) * scale.sqrt() * z.clamp(min=0).sqrt()
    zr_safe = torch.where(zr == 0, one, zr)
    apart = (torch.complex(d + zr, zero), torch.complex(d - (bcmax / zr_safe) * bcmis, zero))
    # Complex eigenvalues, or nearly equal real ones: rotated to equal diagonal entries.
    sigma = b + c
    tau = torch.hypot(sigma, temp)
    tau = torch.where(tau == 0, one, tau)
    cs = (0.5 * (1 + sigma.abs() / tau)).sqrt()
    sn = -(p / (tau * cs)) * sign(sigma)
    aa, bb = a * cs + b * sn, -a * sn + b * cs
    cc, dd = c * cs + d * sn, -c * sn + d * cs
    b2, c2 = bb * cs + dd * sn, -aa * sn + cc * cs
    mean = 0.5 * ((aa * cs + cc * sn) + (-bb * sn + dd * cs))
    root = b2.abs().sqrt() * c2.abs().sqrt()
    split = (c2 != 0) & (b2 != 0) & (sign(b2) == sign(c2))
    real_close = (
        torch.complex(mean + torch.where(split, root * sign(c2), zero), zero),
        torch.complex(mean - torch.where(split, root * sign(c2), zero), zero),
    )
    conjugate = (c2 != 0) & (b2 != 0) & ~split
    close = tuple(
        torch.where(conjugate, x, y) for x, y in zip(pair(mean, root), real_close, strict=True)
    )
    general = tuple(torch.where(z >= 4 * eps, x, y) for x, y in zip(apart, close, strict=True))
    # lanv2's first three cases: already triangular, swapped, already standard.
    standard = ((a - d) == 0) & (sign(b) != sign(c))
    cases = [
        (c == 0, (torch.complex(a, zero), torch.complex(d, zero))),
        (b == 0, (torch.complex(d, zero), torch.complex(a, zero))),
        (standard, pair(a, b.abs().sqrt() * c.abs().sqrt())),
    ]
    result = general
    for when, values in reversed(cases):
        result = tuple(torch.where(when, x, y) for x, y in zip(values, result, strict=True))
    return result


def _triangularize(t, z, blocks, entries, values):
    """Makes the 2x2 blocks starting at `blocks` of the complex t upper triangular, the
    block's values (rt1, rt2) on the diagonal in that order, by a unitary rotation U of each
    (t <- U^H t U, z <- z U). `entries` are the real blocks' (a, b, c, d)."""
    rt1, rt2 = values
    a, b, c, d = entries
    # An eigenvector of rt1: (b, rt1 - a) or (rt1 - d, c), the longer one.
    first, second = (b.to(rt1.dtype), rt1 - a), (rt1 - d, c.to(rt1.dtype))
    use_first = _cabs1(first[0]) + _cabs1(first[1]) >= _cabs1(second[0]) + _cabs1(second[1])
    x1 = torch.where(use_first, first[0], second[0])
    x2 = torch.where(use_first, first[1], second[1])
    length = torch.hypot(x1.abs(), x2.abs())
    none = length == 0
    length = torch.where(none, torch.ones_like(length), length)
    x1 = torch.where(none, torch.ones_like(x1), x1 / length)
    x2 = torch.where(none, torch.zeros_like(x2), x2 / length)
    rotation = torch.stack([torch.stack([x1, -x2.conj()]), torch.stack([x2, x1.conj()])])
    u = torch.eye(t.shape[-1], dtype=t.dtype, device=t.device)
    for b, j in enumerate(blocks):
        u[j : j + 2, j : j + 2] = rotation[..., b]
    t.copy_(u.mH @ t @ u)
    for b, j in enumerate(blocks):
        t[j + 1, j] = 0
        t[j, j], t[j + 1, j + 1] = rt1[b], rt2[b]
    if z is not None:
        z.copy_(z @ u)


# 4. Eigenvectors.


def _triangular_vectors(t):
    """X, upper triangular with a unit diagonal, with t X = X diag(t) for the complex upper
    triangular t: rows solved from the last up, for every eigenvalue at once."""
    n = t.shape[-1]
    lim = _Limits(t.real.dtype, n)
    x = torch.eye(n, dtype=t.dtype, device=t.device)
    values = t.diagonal()
    smin = (lim.ulp * _cabs1(values)).clamp(min=lim.smlnum)
    for j in range(n - 2, -1, -1):
        rest = values[j + 1 :]
        difference = t[j, j] - rest
        difference = torch.where(
            _cabs1(difference) < smin[j + 1 :], smin[j + 1 :].to(t.dtype), difference
        )
        x[j, j + 1 :] = -(t[j, j + 1 :] @ x[j + 1 :, j + 1 :]) / difference
    return x


def _normalized(v, real_values):
    """geev's normalisation: unit columns with their largest entry real and positive; columns
    of real eigenvalues of a real matrix exactly real."""
    v = v / _cabs1(v).amax(0, keepdim=True)  # first to 1 at most, as trevc: no overflow
    v = v / torch.linalg.vector_norm(v, dim=0, keepdim=True)
    largest = (v.real.square() + v.imag.square()).argmax(0)
    rows = torch.arange(v.shape[0], device=v.device)
    is_top = rows[:, None] == largest[None, :]
    top = torch.where(is_top, v, 0).sum(0, keepdim=True)
    v = v * (_conj(top) / top.abs())
    v = torch.where(is_top, torch.complex(v.real, torch.zeros_like(v.real)), v)  # as geev
    if real_values is not None:
        v = torch.where(real_values[None, :], torch.complex(v.real, torch.zeros_like(v.real)), v)
    return v


def _eig_one(a, with_vectors):
    """(eigenvalues, eigenvectors or None, info) of one square matrix."""
    n = a.shape[-1]
    complex_dtype = a.dtype if a.is_complex() else a.dtype.to_complex()
    a = a.clone()
    low, high, moved = _isolate(a)
    values = torch.empty(n, dtype=complex_dtype, device=a.device)
    active = a[low : high + 1, low : high + 1]
    if not bool(active.isfinite().all()):
        values.copy_(a.diagonal())
        values[low : high + 1] = complex("nan+nanj")
        return values, None, 0
    scale = _balance(a, low, high)
    z = _hessenberg(a, low, high, with_vectors)
    blocks, info = _schur(a, z, low, high)
    if info:
        return values, None, info
    diagonal = a.diagonal().to(complex_dtype)
    values.copy_(diagonal)
    t = a.to(complex_dtype)
    if z is not None:
        z = z.to(complex_dtype)
    if blocks:
        at = torch.tensor(blocks, device=a.device)
        entries = a[at, at], a[at, at + 1], a[at + 1, at], a[at + 1, at + 1]
        pair = _lanv2(*entries, torch.finfo(a.dtype).eps)
        for b, j in enumerate(blocks):
            values[j], values[j + 1] = pair[0][b], pair[1][b]
        if z is not None:
            _triangularize(t, z, blocks, entries, pair)
    if z is None:
        return values, None, 0
    vectors = z @ _triangular_vectors(t)
    vectors *= torch.tensor(scale, dtype=vectors.real.dtype, device=a.device)[:, None]
    for ii in range(n):  # gebak: the exchanges undone, outside in
        if low <= ii <= high:
            continue
        i = low - 1 - ii if ii < low else ii
        k = moved[i]
        if k != i:
            row = vectors[i].clone()
            vectors[i] = vectors[k]
            vectors[k] = row
    real = None if a.is_complex() else values.imag == 0
    return values, _normalized(vectors, real), 0


def _eig(A, with_vectors, api):
    _check(A, api)
    *batch, n, _ = A.shape
    library = n >= _LIBRARY_ORDER and _solver_library.serves(A)
    # One read, only where its answer is used (eigvals on the portable path checks each
    # matrix's active block itself).
    finite = bool(A.isfinite().all()) if with_vectors or library else True
    if with_vectors and not finite:
        raise RuntimeError(f"torch.{api}: input tensor should not contain infs or NaNs.")
    complex_dtype = A.dtype if A.is_complex() else A.dtype.to_complex()
    values = torch.empty(*batch, n, dtype=complex_dtype, device=A.device)
    vectors = torch.empty(*batch, n, n, dtype=complex_dtype, device=A.device)
    info = torch.zeros(batch, dtype=torch.int32)
    if values.numel() == 0:
        return values, vectors.mT.contiguous().mT
    if library and finite:
        values, found, info = _solver_library.eig(A, with_vectors)
        torch._linalg_check_errors(info, f"torch.{api}", is_matrix=A.dim() == 2)
        return values, (vectors if found is None else found.mT.contiguous().mT)
    flat_values, flat_vectors = values.view(-1, n), vectors.view(-1, n, n)
    for b, matrix in enumerate(A.reshape(-1, n, n)):
        w, v, failed = _eig_one(matrix, with_vectors)
        info.view(-1)[b] = failed
        flat_values[b] = w
        if v is not None:
            flat_vectors[b] = v
    torch._linalg_check_errors(info, f"torch.{api}", is_matrix=A.dim() == 2)
    # The CPU's layout: column-major eigenvectors.
    return values, vectors.mT.contiguous().mT


def linalg_eig(A):
    return _eig(A, True, "linalg.eig")


def linalg_eig_out(A, *, eigenvalues, eigenvectors):
    values, vectors = linalg_eig(A)
    for out, value in ((eigenvalues, values), (eigenvectors, vectors)):
        resize_out(out, value.shape).copy_(value)
    return eigenvalues, eigenvectors


def linalg_eigvals(A):
    return _eig(A, False, "linalg.eigvals")[0]


def linalg_eigvals_out(A, *, out):
    values = linalg_eigvals(A)
    return resize_out(out, values.shape).copy_(values)


KERNELS = {
    "linalg_eig": linalg_eig,
    "linalg_eig.out": linalg_eig_out,
    "_linalg_eigvals": linalg_eigvals,
    "linalg_eigvals.out": linalg_eigvals_out,
}
