"""Linear algebra composed from mojo's kernels (`_linalg.py`) against the CPU's LAPACK: values,
the LU's pivots and info codes, errors raised by check_errors, gradients, and a matrix of
order 96 (beyond the OpInfo samples' 5)."""

import pytest
import torch


def cpu(x):
    return [t.cpu() for t in x] if isinstance(x, (tuple, list)) else x.cpu()


@pytest.fixture
def gen():
    return torch.Generator().manual_seed(0)


def well_conditioned(gen, *shape, dtype=torch.float64):
    n = shape[-1]
    a = torch.randn(*shape, generator=gen, dtype=dtype)
    return a + n * torch.eye(n, dtype=dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("shape", [(5, 5), (3, 4, 4), (2, 3, 6, 4), (96, 96)])
def test_lu_factor_matches_lapack(device, gen, dtype, shape):
    a = torch.randn(*shape, generator=gen, dtype=dtype)
    lu, pivots, info = cpu(torch.linalg.lu_factor_ex(a.to(device)))
    want_lu, want_pivots, want_info = torch.linalg.lu_factor_ex(a)
    assert torch.equal(pivots, want_pivots) and torch.equal(info, want_info)
    tol = 1e-4 if dtype == torch.float32 else 1e-10
    torch.testing.assert_close(lu, want_lu, rtol=tol, atol=tol)


def test_singular_matrices_report_their_first_zero_pivot(device):
    a = torch.tensor([[[1.0, 2.0], [2.0, 4.0]], [[0.0, 0.0], [0.0, 1.0]], [[2.0, 1.0], [1.0, 3.0]]])
    _, _, info = torch.linalg.lu_factor_ex(a.to(device))
    assert info.cpu().tolist() == torch.linalg.lu_factor_ex(a)[2].tolist() == [2, 1, 0]
    with pytest.raises(torch.linalg.LinAlgError, match="singular"):
        torch.linalg.inv(a.to(device))
    with pytest.raises(torch.linalg.LinAlgError):
        torch.linalg.cholesky(a.to(device))


@pytest.mark.parametrize("left", [True, False])
def test_solves_inverse_and_determinants(device, gen, left):
    a = well_conditioned(gen, 2, 3, 6, 6)
    b = torch.randn(2, 3, 6, 4, generator=gen, dtype=torch.float64)
    b = b if left else b.mT
    ad, bd = a.to(device), b.to(device)
    close = torch.testing.assert_close
    close(cpu(torch.linalg.solve(ad, bd, left=left)), torch.linalg.solve(a, b, left=left))
    close(cpu(torch.linalg.inv(ad)), torch.linalg.inv(a))
    close(cpu(torch.linalg.det(ad)), torch.linalg.det(a))
    close(cpu(torch.linalg.slogdet(ad)), list(torch.linalg.slogdet(a)))
    lu, pivots = torch.linalg.lu_factor(a)
    for adjoint in (False, True):
        options = {"left": left, "adjoint": adjoint}
        got = torch.linalg.lu_solve(lu.to(device), pivots.to(device), bd, **options)
        close(cpu(got), torch.linalg.lu_solve(lu, pivots, b, **options))
    close(cpu(torch.linalg.lu(ad)), list(torch.linalg.lu(a)))


def test_cholesky_family_and_triangular_solves(device, gen):
    a = well_conditioned(gen, 3, 7, 7)
    spd = a @ a.mT
    b = torch.randn(3, 7, 2, generator=gen, dtype=torch.float64)
    close = torch.testing.assert_close
    for upper in (False, True):
        factor = torch.linalg.cholesky(spd, upper=upper)
        close(cpu(torch.linalg.cholesky(spd.to(device), upper=upper)), factor)
        close(
            cpu(torch.cholesky_inverse(factor.to(device), upper=upper)),
            torch.cholesky_inverse(factor, upper=upper),
        )
        close(
            cpu(torch.cholesky_solve(b.to(device), factor.to(device), upper=upper)),
            torch.cholesky_solve(b, factor, upper=upper),
        )
        for left in (True, False):
            rhs = b if left else b.mT
            got = torch.linalg.solve_triangular(
                factor.to(device), rhs.to(device), upper=upper, left=left
            )
            close(cpu(got), torch.linalg.solve_triangular(factor, rhs, upper=upper, left=left))


def test_matrix_exp(device, gen):
    scales = torch.tensor([0.01, 0.5, 3.0, 20.0], dtype=torch.float64)[:, None, None]
    a = torch.randn(4, 6, 6, generator=gen, dtype=torch.float64) * scales
    want = torch.linalg.matrix_exp(a)
    torch.testing.assert_close(cpu(torch.linalg.matrix_exp(a.to(device))), want)


def test_gradients_follow_pytorchs_formulas(device, gen):
    a = well_conditioned(gen, 2, 5, 5)
    b = torch.randn(2, 5, 3, generator=gen, dtype=torch.float64)
    for fn in (
        lambda x: torch.linalg.det(x).sum(),
        lambda x: torch.linalg.slogdet(x)[1].sum(),
        lambda x: torch.linalg.solve(x, b.to(x.device)).sum(),
        lambda x: torch.linalg.inv(x).pow(2).sum(),
        lambda x: torch.linalg.cholesky(x @ x.mT).sum(),
    ):
        x = a.to(device).requires_grad_()
        fn(x).backward()
        y = a.clone().requires_grad_()
        fn(y).backward()
        torch.testing.assert_close(x.grad.cpu(), y.grad)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_eigh_by_jacobi_rotations(device, gen, dtype):
    a = torch.randn(3, 9, 9, generator=gen, dtype=dtype)
    for uplo in ("L", "U"):
        values, vectors = cpu(torch.linalg.eigh(a.to(device), UPLO=uplo))
        want_values, want_vectors = torch.linalg.eigh(a, UPLO=uplo)
        tol = 1e-4 if dtype == torch.float32 else 1e-10
        torch.testing.assert_close(values, want_values, rtol=tol, atol=tol)
        # Eigenvectors are unique up to sign (the eigenvalues of random matrices are distinct).
        torch.testing.assert_close(vectors.abs(), want_vectors.abs(), rtol=tol, atol=tol)


@pytest.mark.parametrize("shape", [(4, 8, 5), (4, 5, 8), (6, 6), (40, 24)])
def test_svd_by_one_sided_jacobi(device, gen, shape):
    a = torch.randn(*shape, generator=gen, dtype=torch.float64)
    u, s, vh = cpu(torch.linalg.svd(a.to(device), full_matrices=False))
    want_u, want_s, want_vh = torch.linalg.svd(a, full_matrices=False)
    torch.testing.assert_close(s, want_s)
    torch.testing.assert_close(u.abs(), want_u.abs())
    torch.testing.assert_close(vh.abs(), want_vh.abs())
    torch.testing.assert_close(u @ torch.diag_embed(s) @ vh, a)
    # float32 keeps the small singular values' relative accuracy (no A^T A).
    s32 = torch.linalg.svdvals(a.float().to(device)).cpu()
    torch.testing.assert_close(s32, want_s.float(), rtol=2e-5, atol=1e-5)


def test_full_svd_of_a_non_square_matrix_completes_the_basis(device, gen):
    a = torch.randn(2, 7, 4, generator=gen, dtype=torch.float64)
    for x in (a, a.mT):
        u, s, vh = cpu(torch.linalg.svd(x.to(device), full_matrices=True))
        m, n = x.shape[-2:]
        assert u.shape == (2, m, m) and vh.shape == (2, n, n)
        close = torch.testing.assert_close
        close(u.mT @ u, torch.eye(m, dtype=x.dtype).expand(2, m, m))
        close(vh @ vh.mT, torch.eye(n, dtype=x.dtype).expand(2, n, n))
        k = min(m, n)
        close(u[..., :k] @ torch.diag_embed(s) @ vh[..., :k, :], x)


@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (3, 5, 5)])
def test_householder_qr_as_lapack(device, gen, shape):
    a = torch.randn(*shape, generator=gen, dtype=torch.float64)
    close = torch.testing.assert_close
    for mode in ("reduced", "complete", "r"):
        close(cpu(torch.linalg.qr(a.to(device), mode=mode)), list(torch.linalg.qr(a, mode=mode)))
    reflectors, tau = torch.geqrf(a)
    close(cpu(torch.geqrf(a.to(device))), [reflectors, tau])
    c = torch.randn(*shape[:-2], shape[-2], 3, generator=gen, dtype=torch.float64)
    for transpose in (False, True):
        got = torch.ormqr(reflectors.to(device), tau.to(device), c.to(device), transpose=transpose)
        close(got.cpu(), torch.ormqr(reflectors, tau, c, transpose=transpose))
    if shape[-2] >= shape[-1]:
        got = torch.linalg.householder_product(reflectors.to(device), tau.to(device))
        close(got.cpu(), torch.linalg.householder_product(reflectors, tau))


LEAST_SQUARES_SHAPES = [((7, 4), (7, 2)), ((4, 7), (4, 2)), ((2, 6, 3), (2, 6))]


@pytest.mark.parametrize("driver", [None, "gels", "gelsd"])
@pytest.mark.parametrize(("shape", "rhs"), LEAST_SQUARES_SHAPES)
def test_least_squares_of_full_rank_matrices(device, gen, driver, shape, rhs):
    a = torch.randn(*shape, generator=gen, dtype=torch.float64)
    b = torch.randn(*rhs, generator=gen, dtype=torch.float64)
    got = cpu(torch.linalg.lstsq(a.to(device), b.to(device), driver=driver))
    torch.testing.assert_close(got, list(torch.linalg.lstsq(a, b, driver=driver)))
    with pytest.raises(RuntimeError, match="at least 2 dimensions"):
        torch.linalg.lstsq(b[..., 0].to(device), b.to(device))


@pytest.mark.parametrize("driver", [None, "gelsy", "gelsd", "gelss"])
@pytest.mark.parametrize("dtype", [torch.float64, torch.float32, torch.complex64])
@pytest.mark.parametrize("wide", [False, True])
def test_least_squares_of_rank_deficient_matrices(device, gen, driver, dtype, wide):
    # A batch of a matrix of rank 3 (a column the sum of two others, a zero one) and one of full
    # rank: the rank-revealing drivers give the ranks and the least-norm solution of the
    # deficient one, and no residuals unless every matrix has full rank, as LAPACK's. Compared
    # with LAPACK's SVD driver in double precision: the CPU's gelsy sometimes misses the rank
    # (2 or even 0 where the singular values are 5.7, 2.4, 1.7, 3e-16, 0) and its solution
    # leaves a larger residual than the least-norm one.
    # Multiples of 1/64, so that the sums are exact in every dtype.
    a = (torch.randn(3, 7, 5, generator=gen, dtype=torch.float64) * 64).round().div(64).to(dtype)
    a[0, :, 3] = a[0, :, 0] + a[0, :, 1]
    a[0, :, 4] = 0
    a[1, :, 2] = a[1, :, 4] * 2
    b = torch.randn(3, 7, 2, generator=gen, dtype=torch.float64).to(dtype)
    if wide:
        a, b = a.mH.contiguous(), b[:, :5]
    wide_dtype = torch.complex128 if dtype.is_complex else torch.float64
    expected = torch.linalg.lstsq(a.to(wide_dtype), b.to(wide_dtype), driver="gelsd")
    got = torch.linalg.lstsq(a.to(device), b.to(device), driver=driver)
    assert got.rank.cpu().tolist() == expected.rank.tolist() == [3, 4, 5]
    tol = {"atol": 1e-4, "rtol": 1e-4, "check_dtype": False} if dtype != torch.float64 else {}
    torch.testing.assert_close(got.solution.cpu(), expected.solution, **tol)
    if driver in ("gelsd", "gelss"):
        torch.testing.assert_close(got.singular_values.cpu(), expected.singular_values, **tol)
    else:
        assert got.singular_values.shape == (0,)
    assert got.residuals.shape == expected.residuals.shape == (0,)
    full = torch.linalg.lstsq(a[2:].to(device), b[2:].to(device), driver=driver)
    torch.testing.assert_close(
        cpu(full), list(torch.linalg.lstsq(a[2:], b[2:], driver=driver)), **tol
    )


@pytest.mark.parametrize("hermitian", [False, True])
@pytest.mark.parametrize("dtype", [torch.float64, torch.complex64])
@pytest.mark.parametrize("shape", [(6, 6), (3, 9, 9), (40, 40)])
def test_ldl_factor_and_solve_match_lapack(device, gen, dtype, shape, hermitian):
    """Indefinite matrices (zero diagonals force 2x2 pivots and interchanges), batched and of
    order 40: LD and LAPACK's pivots, then solves with them."""
    a = torch.randn(*shape, generator=gen, dtype=dtype)
    a = a + (a.mH if hermitian else a.mT)
    a.diagonal(dim1=-2, dim2=-1)[..., ::3] = 0
    b = torch.randn(*shape[:-1], 3, generator=gen, dtype=dtype)
    ld, pivots, info = torch.linalg.ldl_factor_ex(a, hermitian=hermitian)
    ours = torch.linalg.ldl_factor_ex(a.to(device), hermitian=hermitian)
    assert torch.equal(ours.pivots.cpu(), pivots) and torch.equal(ours.info.cpu(), info)
    assert (pivots < 0).any(), "no 2x2 pivot exercised"
    x = torch.linalg.ldl_solve(ld, pivots, b, hermitian=hermitian)
    ours_x = torch.linalg.ldl_solve(
        ld.to(device), pivots.to(device), b.to(device), hermitian=hermitian
    )
    if dtype == torch.float64:
        torch.testing.assert_close(ours.LD.cpu(), ld)
        torch.testing.assert_close(ours_x.cpu(), x)
        return
    # complex64: against the complex128 factorization (the same pivots) and solve, relative
    # to the largest entry; float32 rounding moves the CPU's LD by up to 1.5e-6 at order 40,
    # mojo's (rank updates in another order) by 2e-6, and them apart more than the default.
    double = torch.linalg.ldl_factor_ex(a.to(torch.complex128), hermitian=hermitian)
    assert torch.equal(double.pivots, pivots)
    exact_x = torch.linalg.ldl_solve(double.LD, pivots, b.to(torch.complex128), hermitian=hermitian)
    for found in (ld, ours.LD.cpu()):
        error = (found.to(double.LD.dtype) - double.LD).abs().max()
        assert error <= 1e-5 * double.LD.abs().max(), error

    # Solves with the CPU's factors: the matrix's conditioning amplifies rounding (the CPU's
    # solution is 1.1e-5 off at order 40), so mojo's must be no further off than the CPU's.
    def off(found):
        return (found.to(exact_x.dtype) - exact_x).abs().max()

    assert off(ours_x.cpu()) <= 2 * off(x) + 1e-6 * exact_x.abs().max(), (off(ours_x.cpu()), off(x))


def test_ldl_factor_reports_a_zero_pivot(device):
    a = torch.tensor([[1.0, 2.0, 0.0], [2.0, 4.0, 0.0], [0.0, 0.0, 0.0]], dtype=torch.float64)
    expected = torch.linalg.ldl_factor_ex(a)
    ours = torch.linalg.ldl_factor_ex(a.to(device))
    assert ours.info.item() == expected.info.item() > 0
    assert torch.equal(ours.pivots.cpu(), expected.pivots)
    # The CPU's check and message (an internal assert for this code, as on the CPU).
    with pytest.raises(RuntimeError, match="Unknown error code: 2"):
        torch.linalg.ldl_factor_ex(a.to(device), check_errors=True)


def count_calls(monkeypatch, functions):
    """A dict that counts, by name, the calls of each (module, name) in `functions`."""
    calls = {}
    for module, name in functions:
        original = getattr(module, name)

        def counted(*args, name=name, original=original):
            calls[name] = calls.get(name, 0) + 1
            return original(*args)

        monkeypatch.setattr(module, name, counted)
    return calls


def test_the_solver_library_serves_the_cuda_backend(device, gen, monkeypatch):
    """On the CUDA backend (the emulation of cuSOLVER here, cuSOLVER on a GPU) LU, Cholesky and
    QR factorizations, the solves, eigh and svd go through the solver library, never the
    portable column steps, substitutions or Jacobi rounds (triangular solves through cuBLAS),
    for every dtype, broadcast batches, adjoint and right-hand solves, no pivoting, tall,
    wide and rank-deficient SVDs, a matrix of order 200 and a singular one; many small square
    matrices go through the BLAS library's batched LU, many non-square ones stay on the
    portable kernels, with the same results. Elsewhere there is no library."""
    from torch_mojo_backend import _C, _linalg, _solver_library

    has_library = _C.solver_library(device.index or 0)
    assert has_library == (_C.backend_name() == "cuda")
    if not has_library:
        pytest.skip("the device has no solver library")
    portable_steps = ("_permutation", "_substitute", "_pivot_magnitude", "_larfg")
    steps = [(_linalg, name) for name in (*portable_steps, "_jacobi_eigh", "_jacobi_svd")]
    portable = count_calls(monkeypatch, steps)
    for dtype in (torch.float32, torch.float64, torch.complex64, torch.complex128):
        tol = {"rtol": 1e-4, "atol": 1e-4} if dtype.itemsize <= 8 else {}
        a = torch.randn(3, 6, 6, generator=gen, dtype=dtype)
        b = torch.randn(2, 1, 6, 4, generator=gen, dtype=dtype)
        m, mb = a.to(device), b.to(device)
        lu, pivots = torch.linalg.lu_factor(m)
        want_lu, want_pivots = torch.linalg.lu_factor(a)
        assert torch.equal(pivots.cpu(), want_pivots)
        torch.testing.assert_close(lu.cpu(), want_lu, **tol)
        for adjoint in (False, True):
            got = torch.linalg.lu_solve(lu, pivots, mb, adjoint=adjoint)
            want = torch.linalg.lu_solve(want_lu, want_pivots, b, adjoint=adjoint)
            torch.testing.assert_close(got.cpu(), want, **tol)
        got = torch.linalg.solve(m, mb.mT, left=False)
        torch.testing.assert_close(got.cpu(), torch.linalg.solve(a, b.mT, left=False), **tol)
        torch.testing.assert_close(torch.linalg.inv(m).cpu(), torch.linalg.inv(a), **tol)
        torch.testing.assert_close(torch.linalg.det(m).cpu(), torch.linalg.det(a), **tol)
        no_pivots, _ = torch.linalg.lu_factor(m + 10 * torch.eye(6, device=device), pivot=False)
        lower = no_pivots.tril(-1) + torch.eye(6, dtype=dtype, device=device)
        torch.testing.assert_close((lower @ no_pivots.triu()).cpu(), a + 10 * torch.eye(6), **tol)
        spd = a @ a.mH + torch.eye(6)
        for upper in (False, True):
            factor = torch.linalg.cholesky(spd.to(device), upper=upper)
            want = torch.linalg.cholesky(spd, upper=upper)
            torch.testing.assert_close(factor.cpu(), want, **tol)
            got = torch.cholesky_solve(mb, factor, upper=upper)
            torch.testing.assert_close(got.cpu(), torch.cholesky_solve(b, want, upper=upper), **tol)
            got = torch.cholesky_inverse(factor[0], upper=upper).cpu()
            torch.testing.assert_close(got, torch.cholesky_inverse(want[0], upper=upper), **tol)
        info = torch.linalg.cholesky_ex(-spd.to(device)).info
        assert info.cpu().tolist() == [1, 1, 1]
        for upper, left, unit in ((False, True, False), (True, False, True), (True, True, False)):
            kwargs = {"upper": upper, "left": left, "unitriangular": unit}
            rhs = b if left else b.mT
            got = torch.linalg.solve_triangular(m, rhs.to(device), **kwargs)
            want = torch.linalg.solve_triangular(a, rhs, **kwargs)
            torch.testing.assert_close(got.cpu(), want, **tol)
        for shape in ((2, 7, 4), (3, 5)):
            x = torch.randn(shape, generator=gen, dtype=dtype)
            for got, want in zip(torch.geqrf(x.to(device)), torch.geqrf(x), strict=True):
                torch.testing.assert_close(got.cpu(), want, **tol)
            for got, want in zip(torch.linalg.qr(x.to(device)), torch.linalg.qr(x), strict=True):
                torch.testing.assert_close(got.cpu(), want, **tol)
        values, vectors = torch.linalg.eigh(spd.to(device), UPLO="U")
        torch.testing.assert_close(values.cpu(), torch.linalg.eigvalsh(spd, UPLO="U"), **tol)
        product = vectors @ torch.diag_embed(values).to(dtype) @ vectors.mH
        torch.testing.assert_close(product.cpu(), spd, **tol)
        for shape, full in (((2, 7, 4), True), ((4, 6), False), ((3, 4, 7), True)):
            x = torch.randn(shape, generator=gen, dtype=dtype)
            u, s, vh = torch.linalg.svd(x.to(device), full_matrices=full)
            want = torch.linalg.svd(x, full_matrices=full)
            assert (u.shape, s.shape, vh.shape) == (want.U.shape, want.S.shape, want.Vh.shape)
            torch.testing.assert_close(s.cpu(), want.S, **tol)
            k = min(shape[-2:])
            product = (u[..., :k] * s[..., None, :].to(dtype)) @ vh[..., :k, :]
            torch.testing.assert_close(product.cpu(), x, **tol)
            for q in (u, vh.mH):
                eye = torch.eye(q.shape[-1], dtype=dtype)
                torch.testing.assert_close((q.mH @ q).cpu(), eye.expand_as(q.mH @ q), **tol)
    assert portable == {}
    # A rank-2 matrix: U stays orthonormal where the singular values are rounding noise.
    low_rank = torch.randn(6, 2, generator=gen, dtype=torch.float64) @ torch.randn(
        2, 5, generator=gen, dtype=torch.float64
    )
    u, s, vh = torch.linalg.svd(low_rank.to(device))
    torch.testing.assert_close((u.mH @ u).cpu(), torch.eye(6, dtype=torch.float64))
    torch.testing.assert_close(((u[:, :5] * s) @ vh).cpu(), low_rank)
    assert torch.linalg.matrix_rank(low_rank.to(device)).item() == 2
    big = well_conditioned(gen, 200, 200)
    got = torch.linalg.solve(big.to(device), big[:, :3].to(device))
    torch.testing.assert_close(got.cpu(), torch.linalg.solve(big, big[:, :3]))
    singular = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
    info = torch.linalg.lu_factor_ex(singular.to(device)).info
    assert info.item() == torch.linalg.lu_factor_ex(singular).info.item() == 3
    assert portable == {}
    # Many small square matrices: LU and its solves through the BLAS library's batched calls
    # (cuBLAS's getrfBatched and getrsBatched), in every dtype, with and without pivoting.
    for dtype in (torch.float32, torch.float64, torch.complex64, torch.complex128):
        tol = {"rtol": 1e-4, "atol": 1e-4} if dtype.itemsize <= 8 else {}
        many = torch.randn(50, 3, 3, generator=gen, dtype=dtype)
        rhs = torch.randn(50, 3, 2, generator=gen, dtype=dtype)
        assert not _solver_library.serves(many.to(device))
        assert _solver_library.serves_lu(many.to(device))
        got = torch.linalg.lu_factor_ex(many.to(device))
        want = torch.linalg.lu_factor_ex(many)
        assert torch.equal(got.pivots.cpu(), want.pivots)
        assert torch.equal(got.info.cpu(), want.info)
        torch.testing.assert_close(got.LU.cpu(), want.LU, **tol)
        for adjoint in (False, True):
            x = torch.linalg.lu_solve(got.LU, got.pivots, rhs.to(device), adjoint=adjoint)
            torch.testing.assert_close(
                x.cpu(), torch.linalg.lu_solve(want.LU, want.pivots, rhs, adjoint=adjoint), **tol
            )
        torch.testing.assert_close(
            torch.linalg.inv(many.to(device)).cpu(), torch.linalg.inv(many), **tol
        )
        torch.testing.assert_close(
            torch.linalg.det(many.to(device)).cpu(), torch.linalg.det(many), **tol
        )
        spread = many + 10 * torch.eye(3, dtype=dtype)
        plain, _ = torch.linalg.lu_factor(spread.to(device), pivot=False)
        lower = plain.tril(-1) + torch.eye(3, dtype=dtype, device=device)
        torch.testing.assert_close((lower @ plain.triu()).cpu(), spread, **tol)
    singular = torch.zeros(40, 3, 3)
    singular[:, 0, 0] = 1
    info = torch.linalg.lu_factor_ex(singular.to(device)).info.cpu()
    assert torch.equal(info, torch.linalg.lu_factor_ex(singular).info) and info[0] == 2
    assert portable == {}
    # Many non-square matrices stay on the portable column steps.
    tall = torch.randn(50, 3, 2, generator=gen, dtype=torch.float64)
    got = torch.linalg.lu_factor_ex(tall.to(device))
    want = torch.linalg.lu_factor_ex(tall)
    assert torch.equal(got.pivots.cpu(), want.pivots)
    torch.testing.assert_close(got.LU.cpu(), want.LU)
    assert portable["_pivot_magnitude"] > 0


def test_the_solver_library_applies_q_and_factors_ldl(device, gen, monkeypatch):
    """On the CUDA backend Q of a QR factorization is formed and applied by the solver
    library's ormqr (linalg.qr, householder_product, ormqr from either side, transposed or
    not), and symmetric LDL factorizations and their solves go through its sytrf and sytrs,
    with LAPACK's pivots and info, never the portable reflections or pivot steps. Hermitian
    complex LDL stays portable (sytrf is symmetric only), and so do solves with pivots
    that would take sytrs past its matrices."""
    from torch_mojo_backend import _C, _ldl, _linalg, _solver_library

    if not _C.solver_library(device.index or 0):
        pytest.skip("the device has no solver library")
    steps = ((_linalg, "_reflect"), (_ldl, "_factor_one"), (_ldl, "_solve_one"))
    portable = count_calls(monkeypatch, steps)
    for dtype in (torch.float32, torch.float64, torch.complex64, torch.complex128):
        tol = {"rtol": 1e-4, "atol": 1e-4} if dtype.itemsize <= 8 else {}
        for shape in ((2, 7, 4), (3, 5), (6, 6)):
            x = torch.randn(shape, generator=gen, dtype=dtype)
            for mode in ("reduced", "complete"):
                got = torch.linalg.qr(x.to(device), mode=mode)
                for g, w in zip(got, torch.linalg.qr(x, mode=mode), strict=True):
                    torch.testing.assert_close(g.cpu(), w, **tol)
        reflectors = torch.randn(3, 6, 4, generator=gen, dtype=dtype)
        tau = torch.randn(3, 4, generator=gen, dtype=dtype)
        got = torch.linalg.householder_product(reflectors.to(device), tau[:, :3].to(device))
        want = torch.linalg.householder_product(reflectors, tau[:, :3])
        torch.testing.assert_close(got.cpu(), want, **tol)
        for left, other in ((True, (3, 6, 5)), (False, (3, 5, 6))):
            c = torch.randn(other, generator=gen, dtype=dtype)
            for transpose in (False, True):
                args = (reflectors, tau, c, left, transpose)
                got = torch.ormqr(*(t.to(device) if torch.is_tensor(t) else t for t in args))
                torch.testing.assert_close(got.cpu(), torch.ormqr(*args), **tol)
        for n in (2, 5, 9):
            s = torch.randn(4, n, n, generator=gen, dtype=dtype)
            s = s + s.mT
            s[1, :, 0] = s[1, 0, :] = 0  # a zero first column: info 1 for that matrix
            s[2].diagonal().mul_(1e-3)  # small diagonals: 2x2 blocks
            hermitian = not dtype.is_complex
            got = torch.linalg.ldl_factor_ex(s.to(device), hermitian=hermitian)
            want = torch.linalg.ldl_factor_ex(s, hermitian=hermitian)
            assert torch.equal(got.pivots.cpu(), want.pivots)
            assert torch.equal(got.info.cpu(), want.info)
            torch.testing.assert_close(got.LD.cpu(), want.LD, **tol)
            b = torch.randn(4, n, 3, generator=gen, dtype=dtype)
            x = torch.linalg.ldl_solve(got.LD, got.pivots, b.to(device)).cpu()
            solved = want.info == 0
            torch.testing.assert_close((s @ x)[solved], b[solved], **tol)
    assert portable == {}
    h = torch.randn(5, 5, generator=gen, dtype=torch.complex128)
    h = h + h.mH
    got = torch.linalg.ldl_factor(h.to(device), hermitian=True)
    want = torch.linalg.ldl_factor(h, hermitian=True)
    assert torch.equal(got.pivots.cpu(), want.pivots)
    torch.testing.assert_close(got.LD.cpu(), want.LD)
    assert portable.pop("_factor_one") == 1
    in_bounds = _solver_library.pivots_in_bounds
    for pivots, ok in (
        ([1, 2, 3], True),
        ([-2, -2, 3], True),
        ([1, -3, -3], True),
        ([-1, -1, -3], False),
        ([-3, 2, 3], False),
        ([0, 2, 3], False),
        ([1, 4, 3], False),
        ([-1, -1, -1, -1], True),
    ):
        assert in_bounds(torch.tensor([pivots], device=device), blocks=True) == ok, pivots
    assert in_bounds(torch.tensor([[3, 3, 3]], device=device))
    assert not in_bounds(torch.tensor([[3, 0, 3]], device=device))
