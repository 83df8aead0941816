"""lgamma, digamma, polygamma and Hurwitz's zeta (src/ops/elementwise/gamma.rs) against the
CPU: edge values (poles, zeros of lgamma, infinities, NaN, the reflection range) and a range
past one launch, in float32 and float64 (half types compute in float32)."""

import pytest
import torch

N = 70_001
EDGES = [
    0.0,
    -0.0,
    1.0,
    2.0,
    -1.0,
    -2.5,
    -0.5,
    0.5,
    1e-30,
    1e-3,
    9.99,
    10.0,
    10.01,
    30.0,
    1e6,
    1e20,
]
SPECIAL = [float("inf"), float("-inf"), float("nan")]


def points(dtype):
    spread = torch.linspace(-30, 60, N, dtype=torch.float64)
    return torch.cat([torch.tensor(EDGES + SPECIAL, dtype=torch.float64), spread]).to(dtype)


def close(actual, expected, rtol, atol):
    torch.testing.assert_close(actual.cpu(), expected, rtol=rtol, atol=atol, equal_nan=True)


TOLERANCES = {torch.float32: (2e-5, 1e-4), torch.float64: (1e-10, 1e-9)}


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("fn", [torch.lgamma, torch.digamma], ids=["lgamma", "digamma"])
def test_lgamma_and_digamma_across_their_range(device, dtype, fn):
    x = points(dtype)
    close(fn(x.to(device)), fn(x), *TOLERANCES[dtype])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_polygamma_away_from_poles(device, dtype, n):
    # Relative comparison: polygamma grows like n!/x^(n+1) near the poles.
    x = torch.linspace(-10.5, 40, N, dtype=dtype)
    x = x[(x - x.round()).abs() > 0.05]
    expected = torch.polygamma(n, x)
    rtol = 1e-4 if dtype == torch.float32 else 1e-9
    close(torch.polygamma(n, x.to(device)), expected, rtol, 1e-6)


def test_zeta_of_two_tensors(device):
    s = torch.tensor([1.0, 0.5, 2.0, 3.0, 4.0, 2.0, 3.0, 7.5])
    q = torch.tensor([1.0, 2.0, 0.0, -2.0, -2.5, 1e-3, 50.0, 3.25])
    close(torch.special.zeta(s.to(device), q.to(device)), torch.special.zeta(s, q), 1e-5, 1e-6)


def test_half_types_round_once(device):
    x = torch.linspace(0.1, 20, 1000)
    for dtype in (torch.float16, torch.bfloat16):
        close(torch.lgamma(x.to(dtype).to(device)), torch.lgamma(x.to(dtype)), 1e-2, 1e-2)


def test_negative_order_raises_as_on_the_cpu(device):
    with pytest.raises(RuntimeError, match="does not support negative n"):
        torch.polygamma(-1, torch.ones(2, device=device))
