"""The special functions printed as kernel helper functions (src/kernels/functions.rs: the
Bessel family, Airy's Ai, erfcx, ndtri, the orthogonal polynomials, igamma/igammac, gcd and
lcm) against the CPU: every branch's edge values and a range past one launch (70,001
elements, one element per invocation where the helper loops), in float32 and float64; the
recurrences' step bound; half types where the CPU has them; two threads at once; and the same
functions inside a compiled kernel."""

import threading

import pytest
import torch

N = 70_001
EDGES = [0.0, -0.0, 1e-30, 1e-5, 0.5, 1.0, -1.0, 2.0, 2.09, -2.09, 5.0, -5.0, 8.0, -8.0]
EDGES += [8.3203353, 50.0, 51.0, -6.1, -26.0, 100.0, 800.0, 1e8]
SPECIAL = [float("inf"), float("-inf"), float("nan")]

UNARY = [
    "i0",
    "special.i0e",
    "special.i1",
    "special.i1e",
    "special.bessel_j0",
    "special.bessel_j1",
    "special.bessel_y0",
    "special.bessel_y1",
    "special.modified_bessel_i0",
    "special.modified_bessel_i1",
    "special.modified_bessel_k0",
    "special.modified_bessel_k1",
    "special.scaled_modified_bessel_k0",
    "special.scaled_modified_bessel_k1",
    "special.airy_ai",
    "special.spherical_bessel_j0",
    "special.erfcx",
    "special.ndtri",
]
POLYNOMIALS = sorted(name for name in dir(torch.special) if "_polynomial_" in name)
assert len(POLYNOMIALS) == 12, POLYNOMIALS
# J and Y lose relative precision next to their zeros (the CPU too): absolute tolerances.
TOLERANCES = {torch.float32: (1e-5, 1e-4), torch.float64: (1e-9, 1e-9)}


def function(name):
    f = torch
    for part in name.split("."):
        f = getattr(f, part)
    return f


def points(dtype, low=-30.0, high=60.0):
    spread = torch.linspace(low, high, N, dtype=torch.float64)
    edges = torch.tensor(EDGES + SPECIAL, dtype=torch.float64)
    return torch.cat([edges, -edges, spread]).to(dtype)


def check(actual, expected, dtype):
    rtol, atol = TOLERANCES[dtype]
    torch.testing.assert_close(actual.cpu(), expected, rtol=rtol, atol=atol, equal_nan=True)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("name", UNARY)
def test_unary_functions_match_the_cpu(device, name, dtype):
    x = points(dtype)
    if name == "special.ndtri":
        x = torch.cat([x, torch.linspace(0, 1, N, dtype=dtype)])
    if name == "special.airy_ai":
        # Past -1e4 Ai's phase (2/3)|x|^1.5 has no correct digits left in float32 (the CPU's
        # value there is noise too) and needs more of sin's argument reduction in float64.
        x = x[~(x < -1e4)]
    f = function(name)
    check(f(x.to(device)), f(x), dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomials_match_the_cpu(device, name, dtype):
    generator = torch.Generator().manual_seed(0)
    x = torch.cat(
        [
            torch.tensor([1.0, -1.0, 0.0, 0.5, 1.5, -2.0]),
            torch.rand(N, generator=generator) * 2.4 - 1.2,
        ]
    )
    n = torch.randint(-2, 16, (x.numel(),), generator=generator).double()
    n[:6] = torch.tensor([3.0, 4.0, 7.0, 9.0, 12.0, 1e20])
    x, n = x.to(dtype), n.to(dtype)
    f = getattr(torch.special, name)
    check(f(x.to(device), n.to(device)), f(x, n), dtype)
    # One operand a Python scalar.
    check(f(x.to(device), 5), f(x, 5), dtype)


def test_a_recurrence_runs_to_its_step_bound_and_no_further(device):
    """Legendre's polynomial has no closed form: degree 60,000 runs every step (as the CPU);
    past the bound (the software device stops an invocation after 65,535 loop steps) the result
    is NaN, never a number cut short."""
    x = torch.tensor([0.3, -0.7, 0.999], dtype=torch.float64)
    f = torch.special.legendre_polynomial_p
    n = torch.full_like(x, 60_000.0)
    torch.testing.assert_close(f(x.to(device), n.to(device)).cpu(), f(x, n), rtol=1e-6, atol=1e-9)
    assert f(x.to(device), (n + 2).to(device)).isnan().all()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("name", ["igamma", "igammac"])
def test_incomplete_gamma_matches_the_cpu(device, name, dtype):
    generator = torch.Generator().manual_seed(1)
    a = torch.cat(
        [
            torch.rand(N, generator=generator) * 13 - 1,
            torch.rand(2000, generator=generator) * 400 + 20,
        ]
    )
    x = torch.cat(
        [
            torch.rand(N, generator=generator) * 16 - 1,
            a[N:] * (0.8 + 0.4 * torch.rand(2000, generator=generator)),
        ]
    )
    edges_a = torch.tensor([0.0, 1, 0, float("inf"), float("inf"), 2, float("nan"), 3, 250])
    edges_x = torch.tensor([1.0, 0, 0, 1, float("inf"), float("inf"), 1, float("nan"), 255])
    a, x = torch.cat([edges_a, a]).to(dtype), torch.cat([edges_x, x]).to(dtype)
    f = getattr(torch, name)
    expected = f(a, x)
    actual = f(a.to(device), x.to(device)).cpu()
    if dtype in (torch.float16, torch.bfloat16):
        torch.testing.assert_close(actual, expected, equal_nan=True)
    else:
        check(actual, expected, dtype)


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8])
def test_gcd_and_lcm_are_exact(device, dtype):
    info = torch.iinfo(dtype)
    generator = torch.Generator().manual_seed(2)
    a = torch.randint(info.min, info.max, (N,), dtype=dtype, generator=generator)
    b = torch.randint(info.min, info.max, (N,), dtype=dtype, generator=generator)
    a[:10], b[5:15] = 0, 0
    for f in (torch.gcd, torch.lcm):
        assert torch.equal(f(a.to(device), b.to(device)).cpu(), f(a, b)), f.__name__


def test_errors_match_the_cpu(device):
    with pytest.raises(NotImplementedError, match="\"gcd_cpu\" not implemented for 'Float'"):
        torch.gcd(torch.ones(2, device=device), torch.ones(2, device=device))
    with pytest.raises(NotImplementedError, match="\"bessel_j0_cpu\" not implemented for 'Half'"):
        torch.special.bessel_j0(torch.ones(2, device=device, dtype=torch.float16))


def test_integers_compute_in_float32_and_half_types_where_the_cpu_has_them(device):
    n = torch.arange(-3, 12)
    for f in (torch.special.i0e, torch.special.bessel_j1, torch.special.ndtri):
        assert f(n.to(device)).dtype == f(n).dtype == torch.float32
    x = torch.linspace(-9, 9, 101, dtype=torch.bfloat16)
    out = torch.special.i1e(x.to(device))
    assert out.dtype == torch.bfloat16
    torch.testing.assert_close(out.cpu(), torch.special.i1e(x))


def test_two_threads_compute_at_once(device):
    x = points(torch.float32)
    expected = {name: function(name)(x) for name in UNARY[:6]}
    errors = []

    def run(names):
        try:
            for name in names:
                check(function(name)(x.to(device)), expected[name], torch.float32)
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(names,)) for names in (UNARY[:3], UNARY[3:6])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_compiled_kernels_call_the_same_functions(device):
    def f(x, n):
        return torch.special.bessel_j0(x) * torch.special.chebyshev_polynomial_t(
            x, n
        ) + torch.special.i1e(x)

    x = torch.linspace(-2, 2, 4099)
    n = torch.arange(4099.0) % 11
    compiled = torch.compile(f, backend="inductor")
    torch.testing.assert_close(
        compiled(x.to(device), n.to(device)).cpu(), f(x, n), rtol=1e-5, atol=1e-5
    )


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64])
def test_nextafter_steps_to_the_neighbour_in_each_format(device, dtype):
    """Bit-exact against the CPU, powers of two, infinities, NaN and values near the
    subnormals included (where the step itself is subnormal)."""
    generator = torch.Generator().manual_seed(4)
    x = torch.randn(N, generator=generator) * torch.exp(torch.randn(N, generator=generator) * 20)
    y = torch.randn(N, generator=generator)
    edges_x = [
        1.0,
        -1.0,
        2.0,
        -2.0,
        0.5,
        3.0,
        65504.0,
        3e38,
        float("inf"),
        float("-inf"),
        float("nan"),
    ]
    edges_y = [2.0, 0.0, 0.0, -5.0, 1.0, 3.0, 1e9, 1e39, 0.0, 0.0, 0.0]
    x = torch.cat([torch.tensor(edges_x), x]).to(dtype)
    y = torch.cat([torch.tensor(edges_y), y]).to(dtype)
    expected = torch.nextafter(x, y)
    actual = torch.nextafter(x.to(device), y.to(device)).cpu()
    assert torch.equal(actual.isnan(), expected.isnan())
    assert torch.equal(actual[~expected.isnan()], expected[~expected.isnan()])
    if dtype != torch.float64:  # lavapipe flushes float64 subnormal results to zero
        zero = torch.zeros(2, dtype=dtype)
        towards = torch.tensor([1.0, -1.0], dtype=dtype)
        assert torch.equal(
            torch.nextafter(zero.to(device), towards.to(device)).cpu(),
            torch.nextafter(zero, towards),
        )


def test_compiled_nextafter_steps_through_half_types_own_format(device):
    """Inductor would compute nextafter in float32; on mojo it stays the eager kernel."""
    x = torch.linspace(-3, 3, 1001, dtype=torch.float16)
    y = torch.full_like(x, 10.0)
    compiled = torch.compile(torch.nextafter)
    actual = compiled(x.to(device), y.to(device)).cpu()
    assert torch.equal(actual, torch.nextafter(x, y))
    assert (actual != x).all()


def test_compiled_recurrences_take_one_element_per_invocation(device):
    """A compiled kernel calling a looping helper gives each invocation one element, as the
    eager kernel does: 256 elements of a degree-1000 Legendre recurrence each would pass the
    software device's 65,535 loop steps per invocation and stop short (found so)."""
    x = torch.linspace(-0.99, 0.99, 70_001)
    n = torch.full_like(x, 1000.0)

    def f(x, n):
        return torch.special.legendre_polynomial_p(x, n) * 2

    torch.testing.assert_close(
        torch.compile(f)(x.to(device), n.to(device)).cpu(), f(x, n), rtol=1e-5, atol=1e-6
    )


def test_compiled_reduction_over_a_looping_function_is_refused(device):
    """A reduction whose invocations would each walk several recurrences raises instead of
    stopping short."""
    x = torch.linspace(-0.99, 0.99, 4096).reshape(4, 1024)

    def f(x):
        return torch.special.legendre_polynomial_p(x, 500.0).sum(1)

    with pytest.raises(Exception, match="looping special function") as raised:
        torch.compile(f)(x.to(device)).cpu()
    chain = [raised.value, raised.value.__cause__, raised.value.__context__]
    assert any(isinstance(e, NotImplementedError) for e in chain), chain


def test_a_looping_kernel_past_65535_groups(device):
    """One element per invocation: 4,194,241 elements need more than 65,535 groups of 64
    (a two-dimensional grid)."""
    n = 65_535 * 64 + 1
    x = torch.linspace(-3, 3, n)
    degree = torch.full_like(x, 3.0)
    actual = torch.special.hermite_polynomial_h(x.to(device), degree.to(device)).cpu()
    torch.testing.assert_close(actual, torch.special.hermite_polynomial_h(x, degree))
