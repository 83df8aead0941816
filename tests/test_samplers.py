"""torch.distributions' rejection samplers on mojo (gamma, Dirichlet, binomial) against the
CPU's: two-sample Kolmogorov-Smirnov tests on seeded draws (deterministic: a seed either
passes or fails every run), exact edge values, reproducibility from a generator, Gamma's
reparameterized gradient, half precision, errors and two threads."""

import math
import threading

import pytest
import torch

N = 200_000


def same_distribution(mojo_draws, cpu_draws):
    """Two-sample Kolmogorov-Smirnov: the largest gap between the empirical distribution
    functions (at every value either sample takes, so ties of discrete draws count) stays
    under the critical value for a significance of 1e-4."""
    a, b = mojo_draws.double().cpu().sort().values, cpu_draws.double().sort().values
    at = torch.cat([a, b]).unique()
    gap = (
        torch.searchsorted(a, at, right=True) / a.numel()
        - torch.searchsorted(b, at, right=True) / b.numel()
    )
    n, m = a.numel(), b.numel()
    critical = math.sqrt(-math.log(1e-4 / 2) / 2) * math.sqrt((n + m) / (n * m))
    assert gap.abs().max().item() < critical


@pytest.mark.parametrize("alpha", [0.01, 0.3, 1.0, 2.5, 50.0])
def test_gamma_matches_cpu(device, alpha):
    torch.manual_seed(0)
    concentration = torch.full((N,), alpha)
    draws = torch._standard_gamma(concentration.to(device))
    assert draws.device.type == "mojo" and draws.dtype == torch.float32
    assert (draws > 0).all()
    same_distribution(draws, torch._standard_gamma(concentration))


def test_gamma_edges_generator_and_half(device):
    # Draws below the smallest normal number are clamped to it (a zero concentration's too);
    # a NaN concentration draws NaN, as on CUDA (the CPU's clamp turns it into the minimum).
    alpha = torch.tensor([0.0, 1e-30, 1.0, float("nan")], device=device)
    draws = torch._standard_gamma(alpha)
    tiny = torch.finfo(torch.float32).tiny
    assert draws[0] == tiny and draws[1] == tiny and draws[2] > 0
    assert draws[3].isnan()
    pair = torch._sample_dirichlet(torch.tensor([[1e-30, 1e-30], [0.0, 1.0]], device=device))
    torch.testing.assert_close(pair.cpu(), torch.tensor([[0.5, 0.5], [tiny, 1.0]]))
    g = torch.Generator(device=device)
    g.manual_seed(7)
    first = torch.distributions.Gamma(torch.full((1000,), 3.0, device=device), 2.0)
    a = torch._standard_gamma(torch.full((1000,), 3.0, device=device), generator=g)
    g.manual_seed(7)
    b = torch._standard_gamma(torch.full((1000,), 3.0, device=device), generator=g)
    assert torch.equal(a, b)
    assert first.sample().shape == (1000,)
    half = torch._standard_gamma(torch.full((N,), 2.0, device=device, dtype=torch.float16))
    assert half.dtype == torch.float16
    same_distribution(half.float(), torch._standard_gamma(torch.full((N,), 2.0)))


def test_dirichlet_and_beta_match_cpu(device):
    torch.manual_seed(1)
    alpha = torch.tensor([0.5, 2.0, 7.0])
    draws = torch._sample_dirichlet(alpha.expand(N // 4, 3).to(device))
    expected = torch._sample_dirichlet(alpha.expand(N // 4, 3).contiguous())
    torch.testing.assert_close(draws.sum(-1).cpu(), torch.ones(N // 4), atol=1e-5, rtol=0)
    for i in range(3):
        same_distribution(draws[:, i], expected[:, i])
    beta = torch.distributions.Beta(
        torch.tensor(2.0, device=device), torch.tensor(5.0, device=device)
    )
    same_distribution(beta.sample((N // 4,)), torch.distributions.Beta(2.0, 5.0).sample((N // 4,)))


@pytest.mark.parametrize(
    "count,prob", [(1, 0.5), (5, 0.01), (40, 0.2), (100, 0.3), (100, 0.93), (10_000, 0.5)]
)
def test_binomial_matches_cpu(device, count, prob):
    torch.manual_seed(2)
    n, p = torch.full((N // 2,), float(count)), torch.full((N // 2,), prob)
    draws = torch.binomial(n.to(device), p.to(device))
    assert ((draws >= 0) & (draws <= count) & (draws == draws.round())).all()
    same_distribution(draws, torch.binomial(n, p))


def test_binomial_edges(device):
    count = torch.tensor([0.0, 5.0, 5.0, 7.0, 3.0], device=device)
    prob = torch.tensor([0.5, 0.0, 1.0, float("nan"), 0.5], device=device)
    draws = torch.binomial(count, prob)
    assert draws[:3].tolist() == [0.0, 0.0, 5.0]
    assert draws[3].isnan() and 0 <= draws[4] <= 3


def test_gamma_gradient_matches_cpu(device):
    """Gamma's reparameterized gradient in each of ATen's regimes (x below 0.8, alpha above 8
    near and away from its mean, the rational approximation between)."""
    alpha = torch.tensor([0.5, 0.5, 2.0, 3.0, 9.0, 20.0, 20.0, 50.0, 1.5], dtype=torch.float64)
    x = torch.tensor([0.1, 0.7, 0.3, 2.5, 9.5, 19.0, 35.0, 30.0, 1e-3], dtype=torch.float64)
    expected = torch._standard_gamma_grad(alpha, x)
    got = torch._standard_gamma_grad(alpha.to(device), x.to(device))
    torch.testing.assert_close(got.cpu(), expected, rtol=1e-9, atol=1e-12)
    got32 = torch._standard_gamma_grad(alpha.float().to(device), x.float().to(device))
    torch.testing.assert_close(got32.cpu(), expected.float(), rtol=1e-4, atol=1e-6)
    # rsample differentiates through it.
    concentration = torch.full((5,), 2.0, device=device, requires_grad=True)
    torch.distributions.Gamma(concentration, 1.0).rsample().sum().backward()
    assert torch.isfinite(concentration.grad).all()


def test_integer_inputs_refused(device):
    with pytest.raises(NotImplementedError, match="\"gamma_cuda\" not implemented for 'Long'"):
        torch._standard_gamma(torch.ones(3, dtype=torch.long, device=device))
    with pytest.raises(NotImplementedError, match="not implemented for 'Long'"):
        torch.binomial(
            torch.ones(3, dtype=torch.long, device=device),
            torch.ones(3, dtype=torch.long, device=device),
        )


def test_two_threads(device):
    results, errors = [], []

    def work(seed):
        try:
            g = torch.Generator(device=device)
            g.manual_seed(seed)
            alpha = torch.full((5000,), 1.5, device=device)
            results.append((seed, torch._standard_gamma(alpha, generator=g).cpu()))
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in (3, 3, 4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    by_seed = {}
    for seed, draws in results:
        by_seed.setdefault(seed, []).append(draws)
    assert torch.equal(by_seed[3][0], by_seed[3][1])
    assert not torch.equal(by_seed[3][0], by_seed[4][0])


def test_dirichlet_gradient_matches_cpu(device):
    """Beta's and Dirichlet's reparameterized gradient in each of ATen's regimes: x near 0
    and near 1, alpha and beta both above 6 (near the mean and away), the rational
    correction between."""
    x = torch.tensor([0.01, 0.2, 0.97, 0.999, 0.45, 0.52, 0.3, 0.6, 0.5], dtype=torch.float64)
    alpha = torch.tensor([0.5, 1.0, 3.0, 2.0, 9.0, 10.0, 7.0, 1.5, 2.0], dtype=torch.float64)
    total = torch.tensor([1.5, 2.0, 3.5, 2.2, 20.0, 19.0, 30.0, 4.0, 5.0], dtype=torch.float64)
    expected = torch._dirichlet_grad(x, alpha, total)
    got = torch._dirichlet_grad(x.to(device), alpha.to(device), total.to(device))
    torch.testing.assert_close(got.cpu(), expected, rtol=1e-9, atol=1e-12)
    got32 = torch._dirichlet_grad(*(t.float().to(device) for t in (x, alpha, total)))
    torch.testing.assert_close(got32.cpu(), expected.float(), rtol=2e-4, atol=1e-6)
    concentration = torch.tensor([2.0, 3.0], device=device, requires_grad=True)
    beta = torch.distributions.Beta(concentration[0], concentration[1])
    beta.rsample((100,)).sum().backward()
    assert torch.isfinite(concentration.grad).all()
