"""Rejection samplers on mojo (``torch.distributions``' Gamma, Beta, Dirichlet, Chi2,
StudentT and Binomial), composed from mojo's kernels below autograd (``poisson`` is a kernel
of its own, ``src/ops/random/sampling.rs``).

Each draws with ATen's per-element algorithms: Marsaglia and Tsang's method for
``_standard_gamma`` (alpha below 1 boosted by a uniform power), gamma draws normalized along
the last dimension for ``_sample_dirichlet`` (clamped into ``[tiny, 1 - eps]``), inversion
below a mean of 10 and BTRS from 10 for ``binomial``. The elements are
drawn in rounds: each round draws one proposal for every element still pending (uniforms
and normals from the generator passed, else mojo's default one) and keeps those accepted,
until none is left (a round accepts most: about 7 rounds for a million gamma draws). The
draws follow the same distributions as CPU's and CUDA's, not their streams.

``_standard_gamma_grad`` (Gamma's reparameterized gradient) evaluates ATen's three regimes
(a Taylor series below 0.8, Rice's saddle point above alpha 8, a rational approximation
between) and picks each element's; ``_dirichlet_grad`` (Beta's and Dirichlet's) likewise its
four (x near 0, x near 1, large alpha and beta, a rational correction).
"""

from __future__ import annotations

import torch

from ._histograms import _c10_name

# Rounds after which a sampler gives up (each round accepts at least about a fifth of the
# pending elements; reaching this means the inputs keep every proposal from being decided).
_MAX_ROUNDS = 10_000


def _acc(dtype: torch.dtype) -> torch.dtype:
    return torch.float64 if dtype == torch.float64 else torch.float32


def _check_floating(op: str, t: torch.Tensor) -> None:
    if not t.dtype.is_floating_point:
        raise NotImplementedError(f"\"{op}\" not implemented for '{_c10_name(t.dtype)}'")


def _uniform(n, like, generator):
    return torch.rand(n, generator=generator, device=like.device, dtype=like.dtype)


def _in_rounds(pending: torch.Tensor, propose) -> None:
    """Calls `propose(indices)` (which returns which of the flat `indices` it decided) until
    every index of `pending` is decided."""
    for _ in range(_MAX_ROUNDS):
        if pending.numel() == 0:
            return
        decided = propose(pending)
        pending = pending[~decided]
    raise RuntimeError("mojo: a rejection sampler did not finish; check its parameters")


def _gamma_flat(alpha: torch.Tensor, generator) -> torch.Tensor:
    """Standard gamma draws for a flat tensor of concentrations (in the accumulation dtype)."""
    n = alpha.numel()
    small = alpha < 1
    scale = torch.ones_like(alpha)
    if bool(small.any()):
        boost = (1 - _uniform(n, alpha, generator)).pow(1 / alpha)
        scale = torch.where(small, boost, scale)
    boosted = torch.where(small, alpha + 1, alpha)
    d = boosted - 1.0 / 3.0
    c = 1 / (9 * d).sqrt()
    result = torch.zeros_like(alpha)

    def propose(idx):
        dd, cc = d[idx], c[idx]
        x = torch.randn(idx.numel(), generator=generator, device=alpha.device, dtype=alpha.dtype)
        y = 1 + cc * x
        v = y * y * y
        u = 1 - _uniform(idx.numel(), alpha, generator)
        xx = x * x
        accept = (u < 1 - 0.0331 * xx * xx) | (u.log() < 0.5 * xx + dd * (1 - v + v.log()))
        # A NaN concentration decides at once (NaN), as the CPU's loop does.
        decided = ((y > 0) & accept) | y.isnan()
        result[idx[decided]] = (scale[idx] * dd * v)[decided]
        return decided

    _in_rounds(torch.arange(n, device=alpha.device), propose)
    return torch.where(alpha == 0, 0.0, result)


def standard_gamma(self: torch.Tensor, generator=None) -> torch.Tensor:
    _check_floating("gamma_cuda", self)
    alpha = self.to(_acc(self.dtype)).reshape(-1)
    draws = _gamma_flat(alpha, generator)
    tiny = torch.finfo(self.dtype).tiny
    return draws.clamp(min=tiny).to(self.dtype).view(self.shape)


def sample_dirichlet(self: torch.Tensor, generator=None) -> torch.Tensor:
    _check_floating("dirichlet", self)
    acc = _acc(self.dtype)
    gamma = _gamma_flat(self.to(acc).reshape(-1), generator).view(self.shape)
    gamma = gamma.clamp(min=torch.finfo(acc).tiny)
    shares = gamma / gamma.sum(-1, keepdim=True)
    info = torch.finfo(self.dtype)
    return shares.clamp(info.tiny, 1 - info.eps).to(self.dtype)


def _stirling_tail(k: torch.Tensor) -> torch.Tensor:
    """The Stirling series' tail at k (a table below 10)."""
    table = torch.tensor(
        [
            0.0810614667953272,
            0.0413406959554092,
            0.0276779256849983,
            0.02079067210376509,
            0.0166446911898211,
            0.0138761288230707,
            0.0118967099458917,
            0.0104112652619720,
            0.00925546218271273,
            0.00833056343336287,
        ],
        dtype=k.dtype,
        device=k.device,
    )
    kp1sq = (k + 1) * (k + 1)
    series = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)
    small = table[k.clamp(0, 9).long()]
    return torch.where(k <= 9, small, series)


def binomial(count: torch.Tensor, prob: torch.Tensor, generator=None) -> torch.Tensor:
    _check_floating("binomial_cuda", count)
    acc = _acc(count.dtype)
    shape = torch.broadcast_shapes(count.shape, prob.shape)
    n = count.to(acc).expand(shape).reshape(-1)
    p = prob.to(acc).expand(shape).reshape(-1)
    flip = p > 0.5
    q = torch.where(flip, 1 - p, p)
    draws = torch.zeros_like(n)
    valid = (n > 0) & (p > 0) & (p < 1)
    inversion = (valid & (n * q < 10)).nonzero().view(-1)
    rejection = (valid & (n * q >= 10)).nonzero().view(-1)
    if inversion.numel():
        log_q = (-q).log1p()
        total = torch.zeros_like(n)

        def geometric(idx):
            u = _uniform(idx.numel(), n, generator)
            total[idx] = total[idx] + (u.log() / log_q[idx]).ceil()
            decided = total[idx] > n[idx]
            draws[idx[~decided]] += 1
            return decided

        _in_rounds(inversion, geometric)
    if rejection.numel():
        stddev = (n * q * (1 - q)).sqrt()
        b = 1.15 + 2.53 * stddev
        a = -0.0873 + 0.0248 * b + 0.01 * q
        c = n * q + 0.5
        v_r = 0.92 - 4.2 / b
        r = q / (1 - q)
        alpha = (2.83 + 5.1 / b) * stddev
        m = ((n + 1) * q).floor()

        def btrs(idx):
            u = _uniform(idx.numel(), n, generator) - 0.5
            v = _uniform(idx.numel(), n, generator)
            us = 0.5 - u.abs()
            nn, aa, bb, rr, mm = n[idx], a[idx], b[idx], r[idx], m[idx]
            k = ((2 * aa / us + bb) * u + c[idx]).floor()
            inside = (k >= 0) & (k <= nn)
            quick = inside & (us >= 0.07) & (v <= v_r[idx])
            lv = (v * alpha[idx] / (aa / (us * us) + bb)).log()
            bound = (
                (mm + 0.5) * ((mm + 1) / (rr * (nn - mm + 1))).log()
                + (nn + 1) * ((nn - mm + 1) / (nn - k + 1)).log()
                + (k + 0.5) * (rr * (nn - k + 1) / (k + 1)).log()
                + _stirling_tail(mm)
                + _stirling_tail(nn - mm)
                - _stirling_tail(k)
                - _stirling_tail(nn - k)
            )
            decided = quick | (inside & (lv <= bound))
            draws[idx[decided]] = k[decided]
            return decided

        _in_rounds(rejection, btrs)
    draws = torch.where(flip, n - draws, draws)
    draws = torch.where((n <= 0) | (p <= 0), 0.0, draws)
    draws = torch.where((p >= 1) & (n > 0), n, draws)
    draws = torch.where(p.isnan(), float("nan"), draws)
    return draws.to(count.dtype).view(shape)


def standard_gamma_grad(self: torch.Tensor, output: torch.Tensor) -> torch.Tensor:
    _check_floating("_standard_gamma_grad_cuda", self)
    acc = _acc(self.dtype)
    alpha, x = torch.broadcast_tensors(self.to(acc), output.to(acc))
    # Small x: a Taylor series of the incomplete gamma function.
    numer = torch.ones_like(x)
    denom = alpha.clone()
    series1 = numer / denom
    series2 = numer / (denom * denom)
    for i in range(1, 6):
        numer = numer * (-x / i)
        denom = denom + 1
        series1 = series1 + numer / denom
        series2 = series2 + numer / (denom * denom)
    pow_x_alpha = x.pow(alpha)
    pdf = x.pow(alpha - 1) * (-x).exp()
    cdf = pow_x_alpha * series1
    cdf_alpha = (x.log() - alpha.digamma()) * cdf - pow_x_alpha * series2
    taylor = -cdf_alpha / pdf
    taylor = torch.where(taylor.isnan(), 0.0, taylor)
    # Large alpha: Rice's saddle point expansion, near the mean and away from it.
    near = (1 + 24 * alpha * (1 + 12 * alpha)) * (
        1440 * (alpha * alpha)
        + 6 * x * (53 - 120 * x)
        - 65 * x * x / alpha
        + alpha * (107 + 3600 * x)
    )
    near = near / (1244160 * (alpha * alpha) * (alpha * alpha))
    root = (8 * alpha).sqrt()
    term2 = root / (alpha - x)
    term3 = (x - alpha - alpha * (x / alpha).log()).pow(-1.5)
    term23 = torch.where(x < alpha, term2 - term3, term2 + term3)
    term1 = (x / alpha).log() * term23 - (2 / alpha).sqrt() * (alpha + x) / (
        (alpha - x) * (alpha - x)
    )
    stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
    far = -stirling * (x * term1) / root
    saddle = torch.where((0.9 * alpha <= x) & (x <= 1.1 * alpha), near, far)
    # Otherwise a bivariate rational approximation.
    u, v = (x / alpha).log(), alpha.log()
    coef = (
        (0.16009398, -0.094634809, 0.025146376, -0.0030648343,
         1, 0.32668115, 0.10406089, 0.0014179084),
        (0.53487893, 0.1298071, 0.065735949, -0.0015649758,
         0.16639465, 0.020070113, -0.0035938915, -0.00058392623),
        (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777,
         0.017050642, -0.0021309326, 0.00085092367, -1.5247877e-07),
    )  # fmt: skip
    cv = [coef[0][i] + u * (coef[1][i] + u * coef[2][i]) for i in range(8)]
    p = cv[0] + v * (cv[1] + v * (cv[2] + v * cv[3]))
    q = cv[4] + v * (cv[5] + v * (cv[6] + v * cv[7]))
    rational = (p / q).exp()
    grad = torch.where(x < 0.8, taylor, torch.where(alpha > 8, saddle, rational))
    return grad.to(self.dtype)


def _zero_nan(t: torch.Tensor) -> torch.Tensor:
    return torch.where(t.isnan(), 0.0, t)


def _beta_grad_alpha_small(x, alpha, beta):
    """Beta's reparameterized gradient in alpha near x = 0 (a Taylor series)."""
    factor = alpha.digamma() - (alpha + beta).digamma() - x.log()
    numer = torch.ones_like(x)
    series = numer / alpha * (factor + 1 / alpha)
    for i in range(1, 11):
        numer = numer * ((i - beta) * x / i)
        denom = alpha + i
        series = series + numer / denom * (factor + 1 / denom)
    return _zero_nan(x * (1 - x).pow(-beta) * series)


def _beta_grad_beta_small(x, alpha, beta):
    """Beta's reparameterized gradient in beta near x = 0 (a Taylor series)."""
    factor = (alpha + beta).digamma() - beta.digamma()
    numer, betas, dbetas = torch.ones_like(x), torch.ones_like(x), torch.zeros_like(x)
    series = factor / alpha
    for i in range(1, 9):
        numer = numer * (-x / i)
        dbetas = dbetas * (beta - i) + betas
        betas = betas * (beta - i)
        series = series + numer / (alpha + i) * (dbetas + factor * betas)
    return _zero_nan(-(1 - x).pow(1 - beta) * series)


def _beta_grad_alpha_mid(x, alpha, beta):
    """Beta's reparameterized gradient in alpha for large alpha and beta (Rice's saddle
    point expansion; a polynomial within a tenth of a deviation of the mean)."""
    total = alpha + beta
    mean = alpha / total
    std = (alpha * beta / (total + 1)).sqrt() / total
    a, b = alpha, beta
    poly = 47 * x * (b * b) * (b * b) + a * (
        (43 + 20 * (16 + 27 * b) * x) * (b * b) * b
        + a
        * (
            3 * (59 + 180 * b - 90 * x) * (b * b)
            + a * ((453 + 1620 * b * (1 - x) - 455 * x) * b + a * (8 * (1 - x) * (135 * b - 11)))
        )
    )
    prefactor_num = (1 + 12 * a) * (1 + 12 * b) / (total * total)
    prefactor_den = 12960 * a * a * a * b * b * (1 + 12 * total)
    near = prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / (2 * a * b / total).sqrt()
    stirling = (
        (1 + 1 / (12 * a) + 1 / (288 * a * a))
        * (1 + 1 / (12 * b) + 1 / (288 * b * b))
        / (1 + 1 / (12 * total) + 1 / (288 * total * total))
    )
    term1_num = 2 * (a * a) * (x - 1) + a * b * (x - 1) - x * (b * b)
    axbx = a * (x - 1) + b * x
    term1 = term1_num / ((2 * a / b).sqrt() * total.pow(1.5) * axbx * axbx)
    term2 = 0.5 * (a / (total * x)).log()
    term3 = (8 * a * b / total).sqrt() / (b * x + a * (x - 1))
    term4 = (b * (b / (total * (1 - x))).log() + a * (a / (total * x)).log()).pow(-1.5)
    far = stirling * prefactor * (term1 + term2 * (term3 + torch.where(x < mean, term4, -term4)))
    return torch.where((mean - 0.1 * std <= x) & (x <= mean + 0.1 * std), near, far)


# The rational correction's coefficients: [numerator, denominator][power of u][power of a]
# [power of b].
_DIRICHLET_COEFFICIENTS = (
    (
        ((1.003668233, -0.01061107488, -0.0657888334, 0.01201642863),
         (0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033),
         (-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013)),
        ((0.221950385, -0.3187676331, 0.01799915743, 0.01074823814),
         (-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057),
         (0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05)),
        ((-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565),
         (0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181),
         (0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05)),
    ),
    (
        ((1, -0.02924021934, -0.04438342661, 0.007285809825),
         (0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521),
         (-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149)),
        ((0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273),
         (0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956),
         (-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05)),
        ((0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05),
         (0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05),
         (-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06)),
    ),
)  # fmt: skip


def dirichlet_grad(x: torch.Tensor, alpha: torch.Tensor, total: torch.Tensor) -> torch.Tensor:
    """Dirichlet's (and Beta's) reparameterized gradient, in terms of Betas: ATen's four
    regimes (x near 0, x near 1, large alpha and beta, a rational correction), each
    element's picked."""
    _check_floating("_dirichlet_grad_cuda", x)
    dtype, acc = x.dtype, _acc(x.dtype)
    x, alpha, total = (t.to(acc) for t in torch.broadcast_tensors(x, alpha, total))
    beta = total - alpha
    boundary = total * x * (1 - x)
    small_alpha = _beta_grad_alpha_small(x, alpha, beta)
    small_beta = -_beta_grad_beta_small(1 - x, beta, alpha)
    mid = _beta_grad_alpha_mid(x, alpha, beta)
    u = x.log()
    a = alpha.log() - u
    b = total.log() - a
    sums = []
    for part in _DIRICHLET_COEFFICIENTS:
        acc_sum = torch.zeros_like(x)
        for i, u_power in enumerate((1, u, u * u)):
            for j, a_power in enumerate((1, a, a * a)):
                c = part[i][j]
                acc_sum = acc_sum + u_power * a_power * (c[0] + b * (c[1] + b * (c[2] + b * c[3])))
        sums.append(acc_sum)
    approx = x * (total.digamma() - alpha.digamma()) / beta
    rational = sums[0] / sums[1] * approx
    grad = torch.where(
        (x <= 0.5) & (boundary < 2.5),
        small_alpha,
        torch.where(
            (x >= 0.5) & (boundary < 0.75),
            small_beta,
            torch.where((alpha > 6) & (beta > 6), mid, rational),
        ),
    )
    return grad.to(dtype)


KERNELS = {
    "_standard_gamma": standard_gamma,
    "_sample_dirichlet": sample_dirichlet,
    "binomial": binomial,
    "_standard_gamma_grad": standard_gamma_grad,
    "_dirichlet_grad": dirichlet_grad,
}
