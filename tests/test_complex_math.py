"""Complex math against the CPU: unary functions (each measured against complex128 past one
launch, and the C library's special values), binary and ternary ops with complex numbers,
element moves (complex64 and complex32 as integers, complex128 as its two parts in turn),
matrix products with conjugate views, complex least squares, float32
hyperbolic functions near zero, and two threads at once."""

import threading

import pytest
import torch
import torch.nn.functional as F

UNARY = [
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "reciprocal",
    "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh",
    "atanh", "sigmoid", "sgn", "sinc", "square",
]  # fmt: skip


def function(name):
    return getattr(torch, name, None) or getattr(torch.special, name)


def sample(n, seed=0, scale=2.0):
    g = torch.Generator().manual_seed(seed)
    z = torch.randn(n, dtype=torch.complex64, generator=g) * scale
    edges = [0, 1, -1, 2, 1j, -1j, 0.5, -3, 3 + 4j, -0.25 - 0.5j, 1e-4 + 1e-4j]
    z[: len(edges)] = torch.tensor(edges, dtype=torch.complex64)
    return z


def close_to_truth(actual, z, f, bound=1e-5):
    """Relative error against the float64 value (absolute where the value is below 1)."""
    truth = f(z.to(torch.complex128))
    error = (actual.to(torch.complex128) - truth).abs() / truth.abs().clamp_min(1)
    finite = truth.isfinite()
    assert finite.float().mean() > 0.9
    return error[finite].max().item() <= bound


@pytest.mark.parametrize("n", [37, 70_001])
@pytest.mark.parametrize("name", UNARY)
def test_unary_functions_against_complex128(device, name, n):
    f = function(name)
    z = sample(n, seed=len(name))
    actual = f(z.to(device)).cpu()
    assert actual.dtype == torch.complex64
    assert close_to_truth(actual, z, f), name
    cpu = f(z)
    assert torch.equal(actual.isnan(), cpu.isnan()), name


@pytest.mark.parametrize("name", ["exp", "log", "sqrt", "tanh", "sinh", "asinh"])
def test_unary_complex128(device, name):
    f = function(name)
    z = sample(1000, seed=3).to(torch.complex128)
    torch.testing.assert_close(f(z.to(device)).cpu(), f(z), rtol=1e-12, atol=1e-12)


def test_special_values_follow_the_c_library(device):
    inf = float("inf")
    z = torch.tensor([0j, complex(-4, 0), complex(-4, -0.0), complex(2, 0), complex(-inf, 1)])
    m = z.to(device)

    def same(a, b):
        return torch.equal(torch.view_as_real(a).isnan(), torch.view_as_real(b).isnan()) and (
            torch.view_as_real(a).nan_to_num(0).equal(torch.view_as_real(b).nan_to_num(0))
        )

    assert same(torch.sqrt(m).cpu(), torch.sqrt(z))  # 0, 2j, -2j (the sign of -0), sqrt(2)
    e = torch.exp(m[3:4]).cpu()  # a real argument stays real
    assert e.imag.item() == 0 and e.real.item() == pytest.approx(torch.exp(z[3:4]).real.item())
    assert same(torch.reciprocal(m[:1]).cpu(), torch.reciprocal(z[:1]))  # inf + nan j
    assert torch.log(m[:1]).cpu().real.item() == -inf
    w = torch.tensor([0.5 + 1j, 2 + 0j, -1 + 0j])
    zeros = torch.zeros(3, dtype=torch.complex64)
    assert same(torch.pow(zeros.to(device), w.to(device)).cpu(), torch.pow(zeros, w))


def test_predicates_and_logic(device):
    inf, nan = float("inf"), float("nan")
    z = torch.tensor([0j, 1j, complex(nan, 0), complex(0, inf), complex(2, 0), complex(0, -0.0)])
    m = z.to(device)
    for f in (torch.isnan, torch.isinf, torch.isfinite, torch.logical_not):
        assert torch.equal(f(m).cpu(), f(z)), f
    w = z.flip(0)
    for f in (torch.eq, torch.ne, torch.logical_and, torch.logical_or, torch.logical_xor):
        assert torch.equal(f(m, w.to(device)).cpu(), f(z, w)), f
    assert torch.equal((m == 1j).cpu(), z == 1j)
    assert torch.equal((m != 2).cpu(), z != 2)


def test_binary_and_ternary_ops(device):
    g = torch.Generator().manual_seed(4)
    z, w = (torch.randn(2000, dtype=torch.complex64, generator=g) for _ in range(2))
    m, v = z.to(device), w.to(device)
    cases = {
        "pow": lambda a, b: a**b,
        "pow 2": lambda a, b: a**2,
        "pow 3": lambda a, b: a**3,
        "pow complex": lambda a, b: a ** (0.5 + 1j),
        "rpow": lambda a, b: (1.5 - 0.5j) ** a,
        "rsub": lambda a, b: torch.rsub(a, b, alpha=2),
        "scalar": lambda a, b: (a + (1 + 2j)) * 1j - 3j / (b + 4),
        "where": lambda a, b: torch.where(a.real > 0, a, b),
        "lerp": lambda a, b: torch.lerp(a, b, 0.7),
        "lerp tensor": lambda a, b: torch.lerp(a, b, b),
        "addcmul": lambda a, b: torch.addcmul(a, a, b, value=2 - 1j),
        "addcdiv": lambda a, b: torch.addcdiv(a, a, b + 3, value=0.5),
        "masked_fill": lambda a, b: a.masked_fill(a.imag > 0, 2 - 1j),
        "real operand": lambda a, b: a * b.real + b.imag,
    }
    for name, f in cases.items():
        torch.testing.assert_close(f(m, v).cpu(), f(z, w), rtol=2e-5, atol=2e-5, msg=name)


def test_in_place_and_out(device):
    z = sample(300)
    m = z.to(device)
    out = torch.empty(1, dtype=torch.complex64, device=device)
    torch.exp(m, out=out)
    torch.testing.assert_close(out.cpu(), torch.exp(z))
    m.sqrt_()
    torch.testing.assert_close(m.cpu(), z.sqrt())


MOVES = {
    "gather": lambda a, i: torch.gather(a, 1, i[None, :, None].expand(4, 3, 5)),
    "index_select": lambda a, i: a.index_select(1, i),
    "getitem": lambda a, i: a[i, 1:],
    "mask": lambda a, i: a[a.real > 0],
    "flip": lambda a, i: a.flip(0, 2),
    "roll": lambda a, i: a.roll(2, 1),
    "tril": lambda a, i: a.tril(1),
    "triu": lambda a, i: a.triu(-1),
    "take": lambda a, i: a.take(i),
    "index_put": lambda a, i: a.clone().index_put_((i,), a[:3] * 2),
    "index_copy": lambda a, i: a.index_copy(1, i, a[:, :3]),
    "scatter": lambda a, i: a.scatter(1, i[None, :, None].expand(4, 3, 5), a[:, 3:]),
    "masked_scatter": lambda a, i: a.masked_scatter(a.real > 0, a * 2),
    "reflect": lambda a, i: F.pad(a, (2, 1), mode="reflect"),
    "replicate": lambda a, i: F.pad(a, (2, 1), mode="replicate"),
    "unfold": lambda a, i: F.unfold(a[None], 2),
    "channel_shuffle": lambda a, i: F.channel_shuffle(a[None], 2),
}


@pytest.mark.parametrize("name", MOVES)
def test_element_moves(device, name):
    f = MOVES[name]
    z = sample(4 * 6 * 5).reshape(4, 6, 5)
    i = torch.tensor([3, 0, 2])
    expected = f(z, i)
    actual = f(z.to(device), i.to(device)).cpu()
    assert actual.dtype == torch.complex64 and torch.equal(actual, expected)
    # complex32 moves the same bits (the CPU moves few complex32 tensors: compare parts).
    half = f(z.to(torch.complex32).to(device), i.to(device)).cpu()
    assert half.dtype == torch.complex32
    assert torch.equal(torch.view_as_real(half), torch.view_as_real(expected.to(torch.complex32)))
    # complex128 moves its real parts, then its imaginary parts (values past float32's).
    wide = z.to(torch.complex128) * (1 + 1e-12)
    actual = f(wide.to(device), i.to(device)).cpu()
    assert actual.dtype == torch.complex128 and torch.equal(actual, f(wide, i))


@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_moves_past_one_launch(device, dtype):
    z = sample(200_000).to(dtype)
    i = torch.randint(0, z.numel(), (70_001,), generator=torch.Generator().manual_seed(5))
    m = z.to(device)
    assert torch.equal(m[i.to(device)].cpu(), z[i])
    assert torch.equal(m.flip(0).cpu(), z.flip(0))


@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_moves_into_outputs_they_resize(device, dtype):
    """An `out=` of another size is resized and written whole (both parts)."""
    z = sample(4 * 5).reshape(4, 5).to(dtype)
    index = torch.tensor([[3, 0, 1, 2, 2], [1, 1, 0, 3, 2]])
    out = torch.empty(0, dtype=dtype, device=device)
    torch.gather(z.to(device), 0, index.to(device), out=out)
    assert torch.equal(out.cpu(), torch.gather(z, 0, index))
    strided = torch.zeros(4, 6, dtype=dtype, device=device)[:, ::2]
    torch.index_select(z.to(device), 1, torch.tensor([4, 0, 2], device=device), out=strided)
    assert torch.equal(strided.cpu(), z[:, [4, 0, 2]])


@pytest.mark.parametrize("n", [7, 70_001])
def test_accumulating_scatters_add_both_parts(device, n):
    """scatter_add, index_put and put with accumulate, index_add of zero-dimensional tensors:
    both parts at once along the pair views, duplicates in index order, as on the CPU."""
    torch.manual_seed(n)
    z = sample(n * 3).reshape(n, 3)
    d = lambda t: t.to(device)  # noqa: E731
    rows = torch.randint(-n, n, (n + 5,))
    values = sample((n + 5) * 3, seed=3).reshape(n + 5, 3)
    torch.testing.assert_close(
        d(z).index_put((d(rows),), d(values), accumulate=True).cpu(),
        z.index_put((rows,), values, accumulate=True),
    )
    one = torch.tensor(1 - 2j, dtype=torch.complex64)
    torch.testing.assert_close(
        d(z).index_put((d(rows),), d(one), accumulate=True).cpu(),
        z.index_put((rows,), one, accumulate=True),
    )
    for dim in (0, -1):
        index = torch.randint(0, z.shape[dim], z.shape)
        torch.testing.assert_close(
            d(z).scatter_add(dim, d(index), d(values[:n])).cpu(),
            z.scatter_add(dim, index, values[:n]),
        )
    flat = torch.randint(-3 * n, 3 * n, (2, n))
    for target in (z, z.t()):
        torch.testing.assert_close(
            d(target).put(d(flat), d(values[:n, :2].t()), accumulate=True).cpu(),
            target.put(flat, values[:n, :2].t(), accumulate=True),
        )
    # A source of another shape is read in its own element order.
    row = sample(2 * n, seed=6)
    torch.testing.assert_close(
        d(z).put(d(flat), d(row), accumulate=True).cpu(), z.put(flat, row, accumulate=True)
    )
    scalar = torch.tensor(0.5 + 1j, dtype=torch.complex64)
    source = torch.tensor(-2 + 0.25j, dtype=torch.complex64)
    torch.testing.assert_close(
        d(scalar).index_add(0, d(torch.tensor([0])), d(source)).cpu(),
        scalar.index_add(0, torch.tensor([0]), source),
    )
    with pytest.raises(RuntimeError, match="dtypes match"):
        d(z).index_put_((d(rows),), d(values.real), accumulate=True)


def products(d, a, b, c, v):
    nan = float("nan")
    return {
        "mm": lambda: d(a) @ d(b),
        "conj": lambda: d(a).conj() @ d(b),
        "mH": lambda: d(a).mH @ d(c),
        "transposed": lambda: d(b).mT @ d(a).mT,
        "bmm": lambda: torch.bmm(d(a)[None].expand(2, -1, -1), d(b)[None].expand(2, -1, -1)),
        "addmm": lambda: torch.addmm(d(c), d(a), d(b), beta=0.5, alpha=2),
        "addmm bias": lambda: torch.addmm(d(c[0]), d(a), d(b)),
        "addmm complex scalars": lambda: torch.addmm(d(c), d(a), d(b), beta=0.5j, alpha=2 - 1j),
        "addmm complex alpha": lambda: torch.addmm(d(c[0]), d(a), d(b), alpha=1j),
        "addmm beta 0 ignores NaN": lambda: torch.addmm(d(c * nan), d(a), d(b), beta=0j, alpha=1j),
        "addmm_ in place": lambda: d(c).addmm_(d(a), d(b), beta=1 + 1j, alpha=-1j),
        "baddbmm complex scalars": lambda: torch.baddbmm(
            d(c)[None],
            d(a)[None].expand(2, -1, -1),
            d(b)[None].expand(2, -1, -1),
            beta=-1j,
            alpha=0.5 + 0.5j,
        ),
        "addmv complex scalars": lambda: torch.addmv(d(c[:, 0]), d(a), d(v), beta=2j, alpha=1j),
        "addmv": lambda: torch.addmv(d(c[:, 0]), d(a), d(v)),
        "mv": lambda: d(a) @ d(v),
        "dot": lambda: torch.dot(d(v), d(v * 2)),
        "vdot": lambda: torch.vdot(d(v), d(v * 2)),
        "linear": lambda: F.linear(d(a), d(b.mT), d(c[0])),
    }


@pytest.mark.parametrize("shape", [(5, 7, 3), (65, 33, 67)])
def test_matrix_products(device, shape):
    m, k, n = shape
    g = torch.Generator().manual_seed(6)
    a, b, c, v = (torch.randn(*s, dtype=torch.complex64, generator=g) for s in
                  [(m, k), (k, n), (m, n), (k,)])  # fmt: skip
    expected = products(lambda t: t, a, b, c, v)
    actual = products(lambda t: t.to(device), a, b, c, v)
    for name in expected:
        torch.testing.assert_close(actual[name]().cpu(), expected[name](), msg=name)


def test_negative_bit_on_a_real_view(device):
    # conj().imag has the negative bit set: products must read it negated.
    z = sample(20).reshape(4, 5)
    w = torch.randn(5, 3)
    expected = z.conj().imag @ w
    actual = z.to(device).conj().imag @ w.to(device)
    torch.testing.assert_close(actual.cpu(), expected)


@pytest.mark.parametrize("shape", [(2, 7, 3), (2, 3, 7), (1, 40, 40)])
def test_complex_least_squares(device, shape):
    """Overdetermined (residuals), underdetermined (the least-norm solution, through the
    conjugate transpose's QR) and square systems, every driver's outputs."""
    g = torch.Generator().manual_seed(11)
    a = torch.randn(*shape, dtype=torch.complex64, generator=g)
    b = torch.randn(*shape[:-1], 2, dtype=torch.complex64, generator=g)
    truth = torch.linalg.lstsq(a.to(torch.complex128), b.to(torch.complex128), driver="gelsd")
    for driver in ("gels", "gelsy", "gelsd", "gelss"):
        expected = torch.linalg.lstsq(a, b, driver=driver)
        actual = torch.linalg.lstsq(a.to(device), b.to(device), driver=driver)
        # Solutions and singular values against the double-precision ones, relative to the
        # largest: at order 40 float32 rounding moves both (the CPU's solution 3.5e-6, mojo's
        # 2.2e-6), and them apart 2e-5.
        for name in ("solution", "singular_values"):
            exact = getattr(truth, name)
            for x in (getattr(expected, name), getattr(actual, name).cpu()):
                if x.numel():
                    error = (x.to(exact.dtype) - exact).abs().max()
                    assert error <= 1e-5 * exact.abs().max(), (driver, name, error)
        for name in ("residuals", "rank"):
            torch.testing.assert_close(getattr(actual, name).cpu(), getattr(expected, name))


@pytest.mark.parametrize("n", [3, 33])
def test_lu_solves_determinants_and_cholesky(device, n):
    """The LU family (pivots by |re| + |im| as LAPACK's izamax), solves on either side and
    with adjoints, inverses, determinants and Cholesky on complex matrices, against the CPU
    (complex128 references), with gradients through PyTorch's formulas."""
    g = torch.Generator().manual_seed(n)
    a = torch.randn(2, n, n, dtype=torch.complex128, generator=g)
    b = torch.randn(2, n, 4, dtype=torch.complex128, generator=g)
    spd = a @ a.mH + n * torch.eye(n, dtype=torch.complex128)
    a64, b64, spd64 = (t.to(torch.complex64) for t in (a, b, spd))
    d = lambda t: t.to(device)  # noqa: E731

    def close(got, expected, tol=2e-4):
        torch.testing.assert_close(got.cpu().to(torch.complex128), expected, rtol=tol, atol=tol)

    lu, pivots = torch.linalg.lu_factor(d(a64))
    expected_lu, expected_pivots = torch.linalg.lu_factor(a64)
    assert torch.equal(pivots.cpu(), expected_pivots)
    close(lu, expected_lu.to(torch.complex128))
    for left in (True, False):
        for adjoint in (False, True):
            rhs = b if left else b.mT
            expected = torch.linalg.lu_solve(
                *torch.linalg.lu_factor(a), rhs, left=left, adjoint=adjoint
            )
            close(
                torch.linalg.lu_solve(
                    lu, pivots, d(rhs.to(torch.complex64)), left=left, adjoint=adjoint
                ),
                expected,
            )
    close(torch.linalg.solve(d(a64), d(b64)), torch.linalg.solve(a, b))
    close(torch.linalg.inv(d(a64)), torch.linalg.inv(a))
    close(torch.linalg.det(d(a64)), torch.linalg.det(a), tol=1e-3)
    sign, logabs = torch.linalg.slogdet(d(a64))
    expected_sign, expected_logabs = torch.linalg.slogdet(a)
    close(sign, expected_sign)
    torch.testing.assert_close(logabs.cpu().double(), expected_logabs, rtol=1e-4, atol=1e-4)
    factor = torch.linalg.cholesky(d(spd64))
    close(factor, torch.linalg.cholesky(spd))
    close(torch.linalg.cholesky(d(spd64), upper=True), torch.linalg.cholesky(spd, upper=True))
    close(torch.cholesky_solve(d(b64), factor), torch.cholesky_solve(b, torch.linalg.cholesky(spd)))
    leaf = d(a64).requires_grad_()
    torch.linalg.det(leaf).abs().sum().backward()
    reference = a64.clone().requires_grad_()
    torch.linalg.det(reference).abs().sum().backward()
    torch.testing.assert_close(leaf.grad.cpu(), reference.grad, rtol=1e-3, atol=1e-3)


def test_float32_hyperbolic_functions_near_zero(device):
    x = torch.cat([torch.logspace(-30, 1, 2000), -torch.logspace(-30, 1, 2000)])
    for f in (torch.sinh, torch.cosh, torch.tanh):
        actual = f(x.to(device)).cpu().double()
        truth = f(x.double())
        ulps = (actual - truth).abs() / (truth.abs() * torch.finfo(torch.float32).eps)
        assert ulps.max() <= 2, f


def test_two_threads(device):
    z = sample(50_000, seed=7)
    m = z.to(device)

    def work():
        return [f(m).cpu() for f in (torch.exp, torch.asinh, torch.sigmoid)] + [
            (m.reshape(250, 200) @ m.reshape(200, 250)).cpu(),
            m.flip(0).cpu(),
        ]

    alone = work()
    results = [None, None]

    def run(k):
        results[k] = work()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for result in results:
        for a, b in zip(result, alone, strict=True):
            assert torch.equal(a, b)


@pytest.mark.parametrize("n", [37, 70_001])
def test_reductions_and_scans(device, n):
    z = sample(n, seed=8)
    z[3:6] = 0
    m = z.to(device)
    for ord in (2, 1, float("inf"), 0, 3):
        expected = torch.linalg.vector_norm(z, ord)
        actual = torch.linalg.vector_norm(m, ord).cpu()
        torch.testing.assert_close(actual, expected, rtol=1e-5, atol=1e-5)
    assert torch.equal(m.any().cpu(), z.any()) and torch.equal(m.all().cpu(), z.all())
    assert torch.equal(torch.count_nonzero(m).cpu(), torch.count_nonzero(z))
    assert torch.equal(torch.nonzero(m).cpu(), torch.nonzero(z))
    torch.testing.assert_close(m.cumsum(0).cpu(), z.cumsum(0), rtol=1e-4, atol=1e-3)
    grid = z[: (n // 7) * 7].reshape(7, -1)
    torch.testing.assert_close(grid.to(device).cumsum(1).cpu(), grid.cumsum(1),
                               rtol=1e-4, atol=1e-3)  # fmt: skip
    torch.testing.assert_close(
        grid.to(device).norm(dim=1).cpu(), grid.norm(dim=1), rtol=1e-5, atol=0
    )
    g = grid.to(device)
    for f in (torch.var, torch.std):
        torch.testing.assert_close(f(g, 1).cpu(), f(grid, 1), rtol=1e-5, atol=1e-6)
        torch.testing.assert_close(f(m).cpu(), f(z), rtol=1e-5, atol=1e-6)
    for f in (torch.var_mean, torch.std_mean):
        for actual, expected in zip(f(g, 0, correction=0), f(grid, 0, correction=0), strict=True):
            torch.testing.assert_close(actual.cpu(), expected, rtol=1e-5, atol=1e-6)


def test_factories_and_draws(device):
    for dtype in (torch.complex64, torch.complex128):
        assert torch.equal(torch.eye(3, 4, dtype=dtype, device=device).cpu(),
                           torch.eye(3, 4, dtype=dtype))  # fmt: skip
    g = torch.Generator(device=device).manual_seed(9)
    z = torch.randn(200_000, dtype=torch.complex64, device=device, generator=g).cpu()
    # Each part has variance 1/2.
    for part in (z.real, z.imag):
        assert abs(part.mean().item()) < 0.01 and abs(part.var().item() - 0.5) < 0.01
    u = torch.empty(100_000, dtype=torch.complex64, device=device).uniform_(2, 3).cpu()
    for part in (u.real, u.imag):
        assert part.min() >= 2 and part.max() < 3 and abs(part.mean().item() - 2.5) < 0.01


@pytest.mark.parametrize("steps", [0, 1, 2, 7, 70_001])
def test_spaced_values(device, steps):
    for start, end in [(1 + 2j, -3 + 0.5j), (-2, 4j), (0.25j, 0.25j)]:
        expected = torch.linspace(start, end, steps, dtype=torch.complex64)
        actual = torch.linspace(start, end, steps, dtype=torch.complex64, device=device)
        torch.testing.assert_close(actual.cpu(), expected)
        expected = torch.logspace(start, end, steps, base=2.0, dtype=torch.complex64)
        actual = torch.logspace(start, end, steps, base=2.0, dtype=torch.complex64, device=device)
        torch.testing.assert_close(actual.cpu(), expected)


def near_truth(actual, expected, truth, bound):
    """`actual` within `bound` of the double-precision `truth` (relative; absolute below 1),
    a bound the CPU's `expected` meets too (float32 rounding, not a loosened comparison);
    non-finite entries equal the CPU's."""
    finite = truth.isfinite() & expected.isfinite()

    def error(x):
        relative = (x.to(truth.dtype) - truth).abs() / truth.abs().clamp_min(1)
        return relative[finite].max().item() if finite.any() else 0.0

    assert error(expected) <= bound, f"the CPU is {error(expected)} off"
    assert error(actual) <= bound, f"mojo is {error(actual)} off"
    torch.testing.assert_close(actual[~finite], expected[~finite], equal_nan=True)


def test_log_sums_norms_and_scattered_numbers(device):
    inf, nan = float("inf"), float("nan")
    special = [0, 1j, inf, -inf, inf + 1j, -inf + 2j, nan, complex(1, nan), 3 - 4j, -1e4 + 1j]
    a = torch.tensor([x for x in special for _ in special], dtype=torch.complex64)
    b = torch.tensor(special * len(special), dtype=torch.complex64)
    expected = torch.logaddexp(a, b)
    actual = torch.logaddexp(a.to(device), b.to(device)).cpu()
    torch.testing.assert_close(actual, expected, equal_nan=True)
    z = sample(70_007, seed=3)
    w = sample(70_007, seed=4)
    double = z.to(torch.complex128)
    for y in [w, torch.tensor(2.0 - 1j)]:
        dy = y if y.dim() == 0 else y.to(device)  # a zero-dimensional CPU tensor stays
        actual = torch.logaddexp(z.to(device), dy).cpu()
        truth = torch.logaddexp(double, y.to(torch.complex128))
        near_truth(actual, torch.logaddexp(z, y), truth, 4e-6)
    for ord in (1, 2, 3.5, inf, -inf, 0):
        for dtype in (None, torch.complex64, torch.complex128):
            expected = torch.linalg.vector_norm(z.view(7, -1), ord, 1, dtype=dtype)
            actual = torch.linalg.vector_norm(z.view(7, -1).to(device), ord, 1, dtype=dtype)
            truth = torch.linalg.vector_norm(double.view(7, -1), ord, 1)
            near_truth(actual.cpu(), expected, truth, 1e-5)
    with pytest.raises(RuntimeError, match="dtype should be complex for complex inputs"):
        torch.linalg.vector_norm(z.to(device), dtype=torch.float32)
    with pytest.raises(RuntimeError, match="dtype should be real for real inputs"):
        torch.linalg.vector_norm(z.real.to(device), dtype=torch.complex64)
    z2 = z.view(-1, 7).clone()
    z2[5, 1], z2[7, 2] = complex(inf, 1), complex(-inf, 0)
    for dims, keepdim in [([0], False), ([1], True), ([0, 1], False)]:
        expected = torch.logsumexp(z2, dims, keepdim)
        actual = torch.logsumexp(z2.to(device), dims, keepdim).cpu()
        truth = torch.logsumexp(z2.to(torch.complex128), dims, keepdim)
        near_truth(actual, expected, truth, 4e-6)
    index = torch.randint(0, 7, (4, 10_001))
    expected = z.view(7, -1).scatter(0, index, 2 - 0.5j)
    actual = z.view(7, -1).to(device).scatter(0, index.to(device), 2 - 0.5j)
    assert torch.equal(actual.cpu(), expected)
    with pytest.raises(RuntimeError, match="index out of bounds"):
        z.view(7, -1).to(device).scatter(0, (index + 7).to(device), 1j).cpu()


def test_accumulation_and_gradients(device):
    z = sample(6 * 5).reshape(6, 5)
    source = sample(4 * 5, seed=10).reshape(4, 5)
    index = torch.tensor([1, 1, 0, 5])
    expected = z.index_add(0, index, source, alpha=2)
    actual = z.to(device).index_add(0, index.to(device), source.to(device), alpha=2)
    torch.testing.assert_close(actual.cpu(), expected)
    columns = index[:2].to(device)  # a negative dim counts complex dimensions
    torch.testing.assert_close(
        z.to(device).index_add(-1, columns, z[:, :2].to(device)).cpu(),
        z.index_add(-1, index[:2], z[:, :2]),
    )
    torch.testing.assert_close(
        z.to(device).cumsum(1, dtype=torch.complex128).cpu(), z.cumsum(1, dtype=torch.complex128)
    )
    for f in (torch.tanh, torch.sigmoid, torch.exp, torch.sqrt, lambda t: t.abs()):
        leaf = z.clone().requires_grad_()
        (f(leaf) * source[:1].conj()).sum().real.backward()
        mojo = z.to(device).requires_grad_()
        (f(mojo) * source[:1].conj().to(device)).sum().real.backward()
        torch.testing.assert_close(mojo.grad.cpu(), leaf.grad, rtol=1e-5, atol=1e-5, equal_nan=True)


@pytest.mark.parametrize("n", [9, 70_001])
def test_gradients_that_add_overlaps_and_fills(device, n):
    """Pad, unfold and fold gradients add each part along its own view; index_fill fills
    both parts (a complex number, a complex or real zero-dimensional tensor)."""
    z = sample(2 * n).reshape(2, 1, n)
    weights = sample(2 * (n + 5), seed=7).reshape(2, 1, n + 5)

    def gradient(f, x, w):
        leaf = x.clone().requires_grad_()
        (f(leaf) * w.conj()).sum().real.backward()
        return leaf.grad

    d = lambda t: t.to(device)  # noqa: E731
    for mode in ("reflect", "replicate"):
        pad = lambda t, mode=mode: torch.nn.functional.pad(t, (2, 3), mode=mode)  # noqa: E731
        torch.testing.assert_close(gradient(pad, d(z), d(weights)).cpu(), gradient(pad, z, weights))
    windows = lambda t: t.unfold(-1, 4, 3)  # noqa: E731
    w = sample(2 * ((n - 4) // 3 + 1) * 4, seed=8).reshape(2, 1, -1, 4)
    torch.testing.assert_close(gradient(windows, d(z), d(w)).cpu(), gradient(windows, z, w))
    image = sample(2 * 3 * 5 * 7, seed=9).reshape(2, 3, 5, 7)
    blocks = lambda t: torch.nn.functional.unfold(t, (2, 3), padding=1, stride=(1, 2))  # noqa: E731
    cols = sample(blocks(image).numel(), seed=10).reshape(blocks(image).shape)
    torch.testing.assert_close(
        gradient(blocks, d(image), d(cols)).cpu(), gradient(blocks, image, cols)
    )
    rows = torch.tensor([0, 1, 1])
    for value in (2 - 3j, torch.tensor(-1 + 0.5j), torch.tensor(4.0)):
        on_mojo = value.to(device) if isinstance(value, torch.Tensor) else value
        torch.testing.assert_close(
            d(z[0]).index_fill(-1, d(rows), on_mojo).cpu(), z[0].index_fill(-1, rows, value)
        )


@pytest.mark.parametrize("n", [37, 70_001])
def test_products_and_running_products(device, n):
    """prod and cumprod multiply pairwise in log2(n) passes: against complex128 over values
    of magnitude near one (so that long products stay finite), every dimension, keepdim,
    empty rows, a complex128 dtype=."""
    g = torch.Generator().manual_seed(n)
    angles = torch.rand(3, n, generator=g, dtype=torch.float64) * 6.3
    sizes = 1 + (torch.rand(3, n, generator=g, dtype=torch.float64) - 0.5) / n
    z = torch.polar(sizes, angles)
    z64, m = z.to(torch.complex64), z.to(torch.complex64).to(device)
    exact = z64.to(torch.complex128)
    for dim in (0, 1, -1):
        for keepdim in (False, True):
            got = m.prod(dim, keepdim=keepdim).cpu()
            assert got.dtype == torch.complex64
            torch.testing.assert_close(
                got.to(torch.complex128), exact.prod(dim, keepdim=keepdim), rtol=1e-4, atol=1e-5
            )
        torch.testing.assert_close(
            m.cumprod(dim).cpu().to(torch.complex128), exact.cumprod(dim), rtol=1e-4, atol=1e-5
        )
    torch.testing.assert_close(
        m.prod().cpu().to(torch.complex128), exact.prod(), rtol=1e-4, atol=1e-5
    )
    wide = m.prod(1, dtype=torch.complex128).cpu()
    assert wide.dtype == torch.complex128
    torch.testing.assert_close(wide, exact.prod(1), rtol=1e-9, atol=1e-12)
    empty = torch.ones(2, 0, dtype=torch.complex64, device=device)
    assert torch.equal(empty.prod(1).cpu(), torch.ones(2, dtype=torch.complex64))


@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (33, 20)])
def test_householder_qr(device, shape):
    """QR by zlarfg's reflectors (a real beta on R's diagonal, signs as the CPU's), the
    reflectors' product, Q^H and right-hand products (ormqr), against complex128 on the CPU."""
    g = torch.Generator().manual_seed(shape[0])
    a = torch.randn(2, *shape, dtype=torch.complex128, generator=g)
    c = torch.randn(2, shape[0], 4, dtype=torch.complex128, generator=g)
    a64 = a.to(torch.complex64)

    def close(got, expected):
        torch.testing.assert_close(got.cpu().to(torch.complex128), expected, rtol=2e-4, atol=2e-4)

    for mode in ("reduced", "complete"):
        q, r = torch.linalg.qr(a64.to(device), mode=mode)
        expected_q, expected_r = torch.linalg.qr(a, mode=mode)
        close(q, expected_q)
        close(r, expected_r)
    reflectors, tau = torch.geqrf(a64.to(device))
    expected_reflectors, expected_tau = torch.geqrf(a)
    close(reflectors, expected_reflectors)
    close(tau, expected_tau)
    if shape[0] >= shape[1]:
        close(
            torch.linalg.householder_product(reflectors, tau),
            torch.linalg.householder_product(expected_reflectors, expected_tau),
        )
    for transpose in (False, True):
        close(
            torch.ormqr(reflectors, tau, c.to(torch.complex64).to(device), transpose=transpose),
            torch.ormqr(expected_reflectors, expected_tau, c, transpose=transpose),
        )
        close(
            torch.ormqr(
                reflectors,
                tau,
                c.mT.to(torch.complex64).to(device),
                left=False,
                transpose=transpose,
            ),
            torch.ormqr(expected_reflectors, expected_tau, c.mT, left=False, transpose=transpose),
        )


@pytest.mark.parametrize("n", [4, 17])
def test_hermitian_eigenvalues_and_vectors(device, n):
    """Jacobi rotations carrying their entries' phases: eigenvalues against complex128 on the
    CPU, eigenvectors that diagonalize (A V = V diag(w), V^H V = I), either triangle read, the
    diagonal's imaginary parts ignored as LAPACK does."""
    g = torch.Generator().manual_seed(n)
    x = torch.randn(3, n, n, dtype=torch.complex128, generator=g)
    hermitian = x + x.mH
    a = hermitian.to(torch.complex64)
    skewed = a + 1j * torch.eye(n)  # an imaginary diagonal the factorization must ignore
    for uplo in ("L", "U"):
        values, vectors = torch.linalg.eigh(skewed.to(device), UPLO=uplo)
        torch.testing.assert_close(
            values.cpu().double(), torch.linalg.eigvalsh(hermitian), rtol=1e-4, atol=1e-4
        )
        v, w = vectors.cpu().to(torch.complex128), values.cpu().double()
        eye = torch.eye(n, dtype=torch.complex128).expand(3, n, n)
        torch.testing.assert_close(v.mH @ v, eye, rtol=1e-4, atol=1e-4)
        torch.testing.assert_close(hermitian @ v, v * w[..., None, :], rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (20, 17)])
def test_complex_singular_values_and_vectors(device, shape):
    """One-sided Jacobi with complex rotations: singular values against the CPU, factors
    that rebuild A with orthonormal columns, wide matrices through A^H, the complete basis."""
    g = torch.Generator().manual_seed(shape[0] * shape[1])
    a = torch.randn(2, *shape, dtype=torch.complex128, generator=g)
    m = a.to(torch.complex64).to(device)
    k = min(shape)
    torch.testing.assert_close(
        torch.linalg.svdvals(m).cpu().double(), torch.linalg.svdvals(a), rtol=1e-4, atol=1e-4
    )
    u, s, vh = (t.cpu().to(torch.complex128) for t in torch.linalg.svd(m, full_matrices=False))
    torch.testing.assert_close(u * s[..., None, :] @ vh, a, rtol=1e-4, atol=1e-4)
    eye = torch.eye(k, dtype=torch.complex128).expand(2, k, k)
    torch.testing.assert_close(u.mH @ u, eye, rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(vh @ vh.mH, eye, rtol=1e-4, atol=1e-4)
    full_u, _, full_vh = torch.linalg.svd(m, full_matrices=True)
    for q in (full_u.cpu().to(torch.complex128), full_vh.cpu().to(torch.complex128)):
        n = q.shape[-1]
        torch.testing.assert_close(
            q.mH @ q, torch.eye(n, dtype=torch.complex128).expand(2, n, n), rtol=1e-4, atol=1e-4
        )
