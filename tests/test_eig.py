"""torch.linalg.eig and eigvals against the CPU's LAPACK: eigenvalues in its order (balancing,
Hessenberg QR with its shifts and deflation), unit eigenvectors with their largest entry real,
matrices balancing permutes or scales, defective and special matrices, non-finite inputs,
errors, gradients, out= variants and two threads at once."""

import threading

import pytest
import torch

DTYPES = [torch.float32, torch.float64, torch.complex64, torch.complex128]


def tolerance(dtype):
    return 1e-4 if dtype in (torch.float32, torch.complex64) else 1e-10


def matrices(shape, dtype, seed=0):
    return torch.randn(shape, dtype=dtype, generator=torch.Generator().manual_seed(seed))


def check_vectors(a, values, vectors, dtype):
    """A V = V diag(w), unit columns, each column's largest entry real and positive."""
    tol = tolerance(dtype)
    scale = max(1.0, a.abs().max().item())
    residual = a.to(vectors.dtype) @ vectors - vectors * values[..., None, :]
    assert residual.abs().max().item() <= 100 * tol * scale * a.shape[-1]
    norms = torch.linalg.vector_norm(vectors, dim=-2)
    torch.testing.assert_close(norms, torch.ones_like(norms), atol=10 * tol, rtol=0)
    largest = vectors.abs().amax(-2, keepdim=True)
    top = (vectors.imag == 0) & (vectors.real >= largest * (1 - 10 * tol))
    assert top.any(-2).all()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (5, 5), (3, 12, 12), (2, 1, 7, 7)], ids=str)
def test_eigenvalues_in_the_cpu_order(device, dtype, shape):
    a = matrices(shape, dtype)
    values, vectors = torch.linalg.eig(a.to(device))
    expected_values, expected_vectors = torch.linalg.eig(a)
    tol = tolerance(dtype)
    assert values.dtype == expected_values.dtype and vectors.dtype == expected_vectors.dtype
    assert vectors.stride() == expected_vectors.stride()  # column-major, as the CPU's
    torch.testing.assert_close(values.cpu(), expected_values, atol=tol, rtol=tol)
    # Eigenvectors are unique up to a phase: their magnitudes are the CPU's.
    torch.testing.assert_close(vectors.cpu().abs(), expected_vectors.abs(), atol=10 * tol, rtol=0)
    check_vectors(a, values.cpu(), vectors.cpu(), dtype)
    torch.testing.assert_close(torch.linalg.eigvals(a.to(device)).cpu(), values.cpu())


def special():
    yield "triangular", torch.tensor([[2.0, 1, 0], [0, 3, 0], [1, 0, 5]])
    column = matrices((6, 6), torch.float64, 3)
    column[:, 2] = 0
    column[2, 2] = 3
    yield "isolated column", column
    upper = matrices((6, 6), torch.float64, 4).triu()
    yield "upper triangular", upper
    yield "lower triangular", matrices((6, 6), torch.float64, 5).tril()
    yield "scaled rows", matrices((6, 6), torch.float64, 6) * torch.logspace(-6, 6, 6)[:, None]
    yield "rotation", torch.tensor([[0.0, -1], [1, 0]])
    yield (
        "companion",
        torch.tensor([[0.0, 0, 0, -24], [1, 0, 0, 50], [0, 1, 0, -35], [0, 0, 1, 10]]),
    )
    s = matrices((6, 6), torch.float64, 7)
    yield "symmetric", s + s.T
    yield "integers", torch.randint(-3, 4, (7, 7), generator=torch.Generator().manual_seed(8))
    yield "permutation", torch.eye(5)[[2, 0, 4, 1, 3]]
    yield "zero", torch.zeros(4, 4)
    yield "identity", torch.eye(4)


@pytest.mark.parametrize("dtype", [torch.float64, torch.complex128])
@pytest.mark.parametrize("name, a", list(special()), ids=[name for name, _ in special()])
def test_matrices_balancing_permutes_or_scales_and_special_ones(device, dtype, name, a):
    a = a.to(dtype)
    values, vectors = torch.linalg.eig(a.to(device))
    expected_values, expected_vectors = torch.linalg.eig(a)
    tol = 1e-8 * max(1.0, a.abs().max().item())
    torch.testing.assert_close(values.cpu(), expected_values, atol=tol, rtol=1e-8)
    if name not in ("permutation", "zero", "identity", "symmetric"):  # repeated eigenvalues
        torch.testing.assert_close(vectors.cpu().abs(), expected_vectors.abs(), atol=1e-8, rtol=0)
    check_vectors(a, values.cpu(), vectors.cpu(), torch.float64)
    if not a.is_complex():  # eigenvectors of real eigenvalues of a real matrix are real
        real = values.cpu().imag == 0
        assert (vectors.cpu().imag[:, real] == 0).all()


@pytest.mark.parametrize("dtype", [torch.float32, torch.complex64])
def test_a_defective_matrix_gives_finite_vectors(device, dtype):
    # One eigenvalue of multiplicity 4 with one eigenvector: the substitution divides by
    # LAPACK's smin and the columns are scaled before their norm (no overflow).
    a = (torch.eye(4) * 2 + torch.diag(torch.ones(3), 1)).to(dtype)
    values, vectors = torch.linalg.eig(a.to(device))
    torch.testing.assert_close(values.cpu(), torch.full((4,), 2, dtype=values.dtype))
    assert vectors.isfinite().all()
    torch.testing.assert_close(vectors.cpu().abs(), torch.linalg.eig(a)[1].abs(), atol=1e-3, rtol=0)


def test_past_lapacks_multishift_threshold(device):
    # From 75 rows LAPACK runs another QR variant: the same eigenvalues, maybe in another order.
    a = matrices((80, 80), torch.float32)
    values, vectors = torch.linalg.eig(a.to(device))
    expected = torch.linalg.eigvals(a.double())

    def ordered(v):
        return sorted(v.tolist(), key=lambda z: (round(z.real, 3), round(z.imag, 3)))

    for ours, theirs in zip(ordered(values.cpu()), ordered(expected), strict=True):
        assert abs(ours - theirs) < 1e-3
    check_vectors(a, values.cpu(), vectors.cpu(), torch.float32)


def test_non_finite_inputs(device):
    nan = float("nan")
    with pytest.raises(RuntimeError, match="should not contain infs or NaNs"):
        torch.linalg.eig(torch.tensor([[1.0, nan], [0, 1]], device=device))
    # eigvals: an eigenvalue balancing isolates is kept; NaN where the QR would run.
    for a in (torch.tensor([[1.0, nan], [0, 1]]), torch.tensor([[1.0, float("inf")], [2, 1]])):
        torch.testing.assert_close(
            torch.linalg.eigvals(a.to(device)).cpu(), torch.linalg.eigvals(a), equal_nan=True
        )


@pytest.mark.parametrize(
    "a",
    [
        torch.ones(2, 3),
        torch.ones(3),
        torch.ones(3, 3, dtype=torch.int64),
        torch.ones(3, 3, dtype=torch.float16),
    ],
    ids=["not square", "vector", "int64", "float16"],
)
def test_errors_are_the_cpus(device, a):
    for f in (torch.linalg.eig, torch.linalg.eigvals):
        with pytest.raises(Exception) as cpu:
            f(a)
        with pytest.raises(type(cpu.value)):
            f(a.to(device))


def test_empty_matrices(device):
    for shape in [(0, 0), (3, 0, 0), (0, 4, 4)]:
        values, vectors = torch.linalg.eig(torch.ones(shape, device=device))
        expected_values, expected_vectors = torch.linalg.eig(torch.ones(shape))
        assert values.shape == expected_values.shape and vectors.shape == expected_vectors.shape


@pytest.mark.parametrize("dtype", [torch.float64, torch.complex128])
def test_gradients(device, dtype):
    # A loss that does not depend on the eigenvectors' phases.
    a = matrices((2, 5, 5), dtype, 9)

    def gradient(x):
        x = x.clone().requires_grad_()
        values, vectors = torch.linalg.eig(x)
        weights = torch.arange(5.0, device=x.device)
        (values.abs().sum() + (vectors.abs() ** 2 * weights).sum()).backward()
        eigvals = x.detach().clone().requires_grad_()
        torch.linalg.eigvals(eigvals).abs().sum().backward()
        return x.grad.cpu(), eigvals.grad.cpu()

    for ours, theirs in zip(gradient(a.to(device)), gradient(a), strict=True):
        torch.testing.assert_close(ours, theirs, atol=1e-8, rtol=1e-8)


def test_out_variants(device):
    a = matrices((2, 4, 4), torch.float32, 10)
    values = torch.empty(0, dtype=torch.complex64, device=device)
    vectors = torch.empty(0, dtype=torch.complex64, device=device)
    torch.linalg.eig(a.to(device), out=(values, vectors))
    expected_values, expected_vectors = torch.linalg.eig(a)
    torch.testing.assert_close(values.cpu(), expected_values, atol=1e-4, rtol=1e-4)
    torch.testing.assert_close(vectors.cpu().abs(), expected_vectors.abs(), atol=1e-4, rtol=0)
    out = torch.empty(7, dtype=torch.complex64, device=device)
    with pytest.warns(UserWarning, match="resized"):
        torch.linalg.eigvals(a.to(device), out=out)
    torch.testing.assert_close(out.cpu(), expected_values, atol=1e-4, rtol=1e-4)


def test_two_threads(device):
    inputs = [matrices((6, 6), torch.float64, 20 + i) for i in range(2)]
    results = [None, None]

    def work(i):
        for _ in range(3):
            values, vectors = torch.linalg.eig(inputs[i].to(device))
            results[i] = values.cpu(), vectors.cpu()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for a, (values, vectors) in zip(inputs, results, strict=True):
        expected_values, expected_vectors = torch.linalg.eig(a)
        torch.testing.assert_close(values, expected_values, atol=1e-10, rtol=1e-10)
        torch.testing.assert_close(vectors.abs(), expected_vectors.abs(), atol=1e-10, rtol=0)


def test_the_solver_library_serves_large_matrices(device, monkeypatch):
    """On the CUDA backend (cuSOLVER's geev, emulated here) finite matrices of order 32 and
    more go through the solver library: the CPU's eigenvalues (as a set: geev promises no
    order), a real matrix's in exact conjugate pairs with exactly real ones elsewhere,
    eigenvectors as check_vectors wants them, eigvals alike, and gradients of an order- and
    phase-free loss; smaller matrices keep the portable steps."""
    from torch_mojo_backend import _C, _eig

    if not _C.solver_library(device.index or 0):
        pytest.skip("the device has no solver library")
    portable = []
    original = _eig._eig_one
    monkeypatch.setattr(_eig, "_eig_one", lambda *args: portable.append(1) or original(*args))

    def ordered(v):
        return sorted(v.tolist(), key=lambda z: (round(z.real, 6), round(z.imag, 6)))

    for dtype in DTYPES:
        tol = tolerance(dtype)
        a = matrices((2, 40, 40), dtype, seed=3)
        values, vectors = torch.linalg.eig(a.to(device))
        values, vectors = values.cpu(), vectors.cpu()
        for ours, cpu in zip(values, torch.linalg.eigvals(a), strict=True):
            for x, y in zip(ordered(ours), ordered(cpu), strict=True):
                assert abs(x - y) <= 10 * tol  # measured on the emulation: 2.3e-5, 5e-14
        check_vectors(a, values, vectors, dtype)
        assert torch.equal(torch.linalg.eigvals(a.to(device)).cpu(), values)
        if not dtype.is_complex:
            imag = values.imag
            paired = imag > 0
            assert torch.equal(imag.roll(-1, -1)[paired], -imag[paired])
            assert torch.equal(values.roll(-1, -1)[paired], values[paired].conj())
            symmetric = a + a.mT
            assert (torch.linalg.eigvals(symmetric.to(device)).imag == 0).all()
    assert portable == []
    x = matrices((33, 33), torch.float64, seed=4)
    grads = []
    for where in ("cpu", device):
        leaf = x.clone().to(where).requires_grad_()
        w, v = torch.linalg.eig(leaf)
        (w.abs().square().sum() + v.abs().sum()).backward()
        grads.append(leaf.grad.cpu())
    torch.testing.assert_close(grads[1], grads[0], atol=1e-8, rtol=1e-6)
    small = matrices((31, 31), torch.float64)
    torch.testing.assert_close(
        torch.linalg.eigvals(small.to(device)).cpu(), torch.linalg.eigvals(small)
    )
    assert portable == [1]
