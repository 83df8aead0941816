"""Complex tensors against the CPU: storage, copies and conversions to and from every real
dtype, the views (view_as_real, view_as_complex, real, imag, conj), arithmetic with PyTorch's
type promotion (complex numbers, real tensors, complex32/64/128), in place and into out=,
division's special values, reductions past one launch, and refusals by ops that do not take
complex tensors (tests/test_threads.py runs complex ops and FFTs from several threads)."""

import warnings

import pytest
import torch

COMPLEX = [torch.complex64, torch.complex128]


def cplx(generator, *shape, dtype=torch.complex64):
    return torch.randn(*shape, dtype=dtype, generator=generator)


def same(a, b):
    """Bit-equal values (the CPU compares no complex32 tensors: compare their parts)."""
    return a.dtype == b.dtype and torch.equal(torch.view_as_real(a), torch.view_as_real(b))


@pytest.mark.parametrize("dtype", COMPLEX + [torch.complex32])
def test_round_trip_and_strided_copies(device, dtype):
    z = cplx(torch.Generator().manual_seed(0), 5, 7).to(dtype)
    m = z.to(device)
    assert same(m.cpu(), z)
    assert same(m.t().contiguous().cpu(), z.t().contiguous())
    assert same(m[1:4, ::2].cpu(), z[1:4, ::2].contiguous())
    other = torch.zeros(7, 5, dtype=dtype, device=device)
    other.copy_(m.t())
    assert same(other.cpu(), z.t().contiguous())


@pytest.mark.parametrize(
    "real", [torch.float32, torch.float64, torch.float16, torch.int64, torch.uint8, torch.bool]
)
@pytest.mark.parametrize("dtype", COMPLEX)
def test_conversions(device, real, dtype):
    g = torch.Generator().manual_seed(1)
    x = (torch.randn(6, 5, generator=g) * 4).to(real)
    assert torch.equal(x.to(device).to(dtype).cpu(), x.to(dtype))
    z = cplx(g, 6, 5, dtype=dtype) * 4
    z[0, :3] = torch.tensor([0j, 1j, 2 + 0j])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the CPU's "discards the imaginary part", once
        expected = z.to(real)
    assert torch.equal(z.to(device).to(real).cpu(), expected)


def test_complex_to_complex_and_fill(device):
    z = cplx(torch.Generator().manual_seed(2), 9)
    assert torch.equal(z.to(device).to(torch.complex128).cpu(), z.to(torch.complex128))
    assert same(z.to(device).to(torch.complex32).cpu(), z.to(torch.complex32))
    zeros = torch.zeros(4, 3, dtype=torch.complex64, device=device)
    assert torch.equal(zeros.cpu(), torch.zeros(4, 3, dtype=torch.complex64))
    ones = torch.ones(4, dtype=torch.complex128, device=device)
    assert torch.equal(ones.cpu(), torch.ones(4, dtype=torch.complex128))


def test_complex_fills_and_items(device):
    assert torch.equal(torch.full((3,), 1 + 2j, device=device).cpu(), torch.full((3,), 1 + 2j))
    z = torch.zeros(2, dtype=torch.complex128, device=device).fill_(3 - 1j)
    assert torch.equal(z.cpu(), torch.full((2,), 3 - 1j, dtype=torch.complex128))
    assert z[1].item() == 3 - 1j
    assert torch.tensor([1.5 + 2j], device=device).item() == 1.5 + 2j
    with pytest.raises(RuntimeError, match="value cannot be converted to type float"):
        torch.zeros(2, device=device).fill_(1j)
    assert torch.equal(torch.zeros(2, device=device).fill_(2 + 0j).cpu(), torch.full((2,), 2.0))


def test_views_and_conjugation(device):
    z = cplx(torch.Generator().manual_seed(3), 4, 6)
    m = z.to(device)
    pairs = torch.view_as_real(m)
    assert pairs.shape == (4, 6, 2) and pairs.stride() == (12, 2, 1)
    assert torch.equal(pairs.cpu(), torch.view_as_real(z))
    pairs[0, 0, 1] = 5.0  # a view: writes reach the complex tensor
    z[0, 0] = complex(z[0, 0].real, 5.0)
    assert torch.equal(m.cpu(), z)
    assert torch.equal(torch.view_as_complex(pairs).cpu(), z)
    assert torch.equal(m.real.cpu(), z.real) and torch.equal(m.imag.cpu(), z.imag)
    assert torch.equal(m[:, 1:].real.cpu(), z[:, 1:].real)
    assert m.conj().is_conj()
    assert torch.equal(m.conj().resolve_conj().cpu(), z.conj().resolve_conj())
    assert torch.equal(m.conj().cpu(), z.conj())
    assert torch.equal(torch.conj_physical(m).cpu(), torch.conj_physical(z))
    assert torch.equal(m.conj().imag.cpu(), z.conj().imag)  # the negative bit
    target = torch.empty(4, 6, dtype=torch.complex64, device=device)
    target.copy_(m.conj())
    assert torch.equal(target.cpu(), z.conj())
    with pytest.raises(RuntimeError, match="unresolved conjugated"):
        torch.view_as_real(m.conj())
    with pytest.raises(RuntimeError, match="last dimension of size 2"):
        torch.view_as_complex(torch.zeros(3, 3, device=device))
    with pytest.raises(RuntimeError, match="stride 1"):
        torch.view_as_complex(torch.zeros(2, 3, device=device).t())


def test_complex_and_polar(device):
    g = torch.Generator().manual_seed(4)
    a, b = torch.randn(3, 1, 5, generator=g), torch.randn(4, 5, generator=g)
    assert torch.equal(torch.complex(a.to(device), b.to(device)).cpu(), torch.complex(a, b))
    r, theta = a.abs(), b
    torch.testing.assert_close(
        torch.polar(r.to(device), theta.to(device)).cpu(), torch.polar(r, theta)
    )
    with pytest.raises(RuntimeError, match="for second argument"):
        torch.complex(a.to(device), b.double().to(device))
    with pytest.raises(RuntimeError, match="Half, Float or Double"):
        torch.complex(a.int().to(device), b.int().to(device))


def operands(g):
    z = cplx(g, 3, 4)
    return {
        "z": z,
        "w": cplx(g, 4),
        "w128": cplx(g, 4, dtype=torch.complex128),
        "x": torch.randn(3, 4, generator=g),
        "d": torch.randn(4, dtype=torch.float64, generator=g),
        "i": torch.randint(-3, 4, (3, 4), generator=g),
        "h": torch.randn(3, 4, generator=g).half(),
        "c0": torch.tensor(0.5 - 2j, dtype=torch.complex128),
    }


CASES = {
    "z + w": lambda t: t["z"] + t["w"],
    "z - x": lambda t: t["z"] - t["x"],
    "x - z": lambda t: t["x"] - t["z"],
    "z * w": lambda t: t["z"] * t["w"],
    "z * w128": lambda t: t["z"] * t["w128"],
    "z * d": lambda t: t["z"] * t["d"],
    "i * z": lambda t: t["i"] * t["z"],
    "z / w": lambda t: t["z"] / t["w"],
    "x / w": lambda t: t["x"] / t["w"],
    "z * 1j": lambda t: t["z"] * 1j,
    "x * (2-1j)": lambda t: t["x"] * (2 - 1j),
    "h * 1j": lambda t: t["h"] * 1j,
    "i + 1j": lambda t: t["i"] + 1j,
    "z * c0": lambda t: t["z"] * t["c0"],
    "x * c0": lambda t: t["x"] * t["c0"],
    "z * 3": lambda t: t["z"] * 3,
    "-z": lambda t: -t["z"],
    "z.add(w, alpha=2)": lambda t: t["z"].add(t["w"], alpha=2),
    "z.sub(x, alpha=0.5)": lambda t: t["z"].sub(t["x"], alpha=0.5),
    "abs": lambda t: t["z"].abs(),
    "sgn": lambda t: t["z"].sgn(),
    "angle": lambda t: t["z"].angle(),
    "sum": lambda t: t["z"].sum(),
    "sum(0)": lambda t: t["z"].sum(0),
    "sum(-1, keepdim)": lambda t: t["z"].sum(-1, keepdim=True),
    "sum(dtype=complex128)": lambda t: t["z"].sum(dtype=torch.complex128),
    "mean(1)": lambda t: t["z"].mean(1),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_arithmetic(device, case):
    cpu = operands(torch.Generator().manual_seed(5))
    mojo = {k: v if k == "c0" else v.to(device) for k, v in cpu.items()}
    expected, actual = CASES[case](cpu), CASES[case](mojo).cpu()
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    torch.testing.assert_close(actual, expected)


def test_in_place_and_out(device):
    g = torch.Generator().manual_seed(6)
    z, w, x = cplx(g, 5, 3), cplx(g, 3), torch.randn(5, 3, generator=g)
    m = z.to(device)
    m.mul_(w.to(device))
    m.div_(w.to(device) + 1)
    m.add_(x.to(device))
    torch.testing.assert_close(m.cpu(), (z * w) / (w + 1) + x)
    out = torch.empty(0, dtype=torch.complex64, device=device)
    torch.mul(z.to(device), x.to(device), out=out)
    torch.testing.assert_close(out.cpu(), z * x)
    real_in_complex = torch.empty(5, 3, dtype=torch.complex64, device=device)
    torch.add(x.to(device), x.to(device), out=real_in_complex)
    assert torch.equal(real_in_complex.cpu(), (x + x).to(torch.complex64))
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type Float"):
        x.to(device).mul_(w.to(device))
    with pytest.raises(NotImplementedError, match="div_floor_cpu"):
        torch.div(z.to(device), w.to(device), rounding_mode="floor")


def test_cat_and_stack(device):
    g = torch.Generator().manual_seed(9)
    a, b = cplx(g, 2, 3), cplx(g, 4, 3, dtype=torch.complex128)
    x = torch.randn(2, 3, generator=g)
    for tensors, dim in (([a, a.conj()], 0), ([a, b], 0), ([a, x], -1), ([x, a, x], 1)):
        mojo = [t.to(device) for t in tensors]
        torch.testing.assert_close(torch.cat(mojo, dim).cpu(), torch.cat(tensors, dim))
    stacked = torch.stack([a.to(device), a.to(device)], -1).cpu()
    assert torch.equal(stacked, torch.stack([a, a], -1))
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        torch.cat([a.to(device)], out=torch.empty(0, device=device))


def test_division_special_values(device):
    a = torch.tensor([1 + 1j, 0j, 1 + 0j, float("inf") + 0j, 2 - 3j, 1e30 + 1e-30j])
    for b in (
        torch.zeros(6, dtype=torch.complex64),
        torch.tensor([1e-30 + 1e30j, 3 + 4j, 1e30 + 0j, 1e-30j, 0.5 + 0j, 1e-20 - 1e20j]),
    ):
        actual = (a.to(device) / b.to(device)).cpu()
        torch.testing.assert_close(actual, a / b, equal_nan=True)


@pytest.mark.parametrize("n", [65_535, 70_001])
def test_reductions_past_one_launch(device, n):
    z = cplx(torch.Generator().manual_seed(7), n)
    m = z.to(device)
    torch.testing.assert_close(m.sum().cpu(), z.sum(), rtol=1e-5, atol=1e-3)
    torch.testing.assert_close(m.mean().cpu(), z.mean(), rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(m.abs().cpu(), z.abs())
    w = cplx(torch.Generator().manual_seed(10), n)
    torch.testing.assert_close((m * w.to(device) / (m + 1)).cpu(), z * w / (z + 1))
    grid = z[: n // 7 * 7].view(7, -1)  # a strided conversion past one launch
    torch.testing.assert_close(
        grid.to(device).t().to(torch.complex128).cpu(), grid.t().to(torch.complex128)
    )
    both = torch.cat([m, w.to(device)]).cpu()
    assert torch.equal(both, torch.cat([z, w]))


def test_ops_without_complex_support_refuse(device):
    m = torch.ones(3, dtype=torch.complex64, device=device)
    with pytest.raises(NotImplementedError, match="erf.*ComplexFloat"):
        torch.erf(m)
