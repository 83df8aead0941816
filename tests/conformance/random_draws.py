"""Ops that draw random masks or slopes in training mode (dropout, rrelu): mojo's values
cannot be the CPU's, so they are checked by what every draw must satisfy instead.

Dropout: Each output element is the input's
element kept (`x / (1 - p)`; alpha dropout `a x + alpha a p`) or dropped (0; alpha dropout
`alpha a (p - 1)`), with `a = 1 / sqrt((alpha^2 p + 1)(1 - p))` as PyTorch defines it, and
of 24 elements or more some are kept and some dropped; the feature variants drop whole
channels, so within a channel no element is kept while another is dropped; each input
gradient element is the output gradient's scaled as kept or 0 (`a g` for alpha dropout). The
fraction dropped is checked by tests/test_random.py's distributions.

rrelu: an element above zero passes unchanged (its gradient too); one at or below zero is
scaled by a slope in `[lower, upper]`, and so is its gradient; of 24 negative elements or
more the slopes are not all equal.
"""

import math

import torch

# op name -> (alpha dropout, whole channels, training by default)
DROPOUTS = {
    "nn.functional.dropout": (False, False, True),
    "nn.functional.dropout2d": (False, True, True),
    "nn.functional.dropout3d": (False, True, True),
    "nn.functional.alpha_dropout": (True, False, False),
    "nn.functional.feature_alpha_dropout.with_train": (True, True, False),
}
ALPHA = 1.7580993408473766


def _options(op_name, sample):
    alpha, channels, training = DROPOUTS[op_name]
    p = float(sample.kwargs.get("p", sample.args[0] if sample.args else 0.5))
    return alpha, channels, bool(sample.kwargs.get("training", training)), p


RRELU = "nn.functional.rrelu"


def _rrelu_options(sample):
    lower = float(sample.kwargs.get("lower", 1 / 8))
    upper = float(sample.kwargs.get("upper", 1 / 3))
    return lower, upper, bool(sample.kwargs.get("training", False))


def applies(op_name, sample) -> bool:
    """Whether the sample draws a mask (dropout in training mode with 0 < p) or slopes
    (rrelu in training mode)."""
    if op_name == RRELU:
        return _rrelu_options(sample)[2]
    if op_name not in DROPOUTS:
        return False
    _, _, training, p = _options(op_name, sample)
    return training and p > 0


def _values(op_name, sample, x):
    """(kept, dropped) values of each element, the magnitude of a kept one's terms, and the
    gradient scale of a kept one."""
    alpha, _, _, p = _options(op_name, sample)
    zeros = torch.zeros_like(x)
    if p >= 1:
        return zeros, zeros, zeros, 0.0
    if not alpha:
        return x / (1 - p), zeros, (x / (1 - p)).abs(), 1 / (1 - p)
    a = 1 / math.sqrt((ALPHA * ALPHA * p + 1) * (1 - p))
    kept = a * x + ALPHA * a * p
    return kept, torch.full_like(x, ALPHA * a * (p - 1)), (a * x).abs() + ALPHA * a * p, a


def _which(actual, kept, dropped, tolerance, scale=None):
    """Which elements are kept and which dropped; `scale` bounds the rounding of each kept
    value (the magnitude of its terms, where they cancel)."""
    atol, rtol = tolerance
    scale = kept.abs() if scale is None else scale
    near_kept = ((actual - kept).abs() <= atol + rtol * scale) | (actual.isnan() & kept.isnan())
    near_dropped = torch.isclose(actual, dropped, rtol=rtol, atol=atol)
    bad = ~(near_kept | near_dropped)
    assert not bad.any(), (
        f"{int(bad.sum())} elements neither kept nor dropped, e.g. {actual[bad][:3].tolist()} "
        f"(kept {kept[bad][:3].tolist()}, dropped {dropped[bad][:3].tolist()})"
    )
    return near_kept & ~near_dropped, near_dropped & ~near_kept


def _check_slopes(x, actual, lower, upper, tolerance, passed):
    """`actual` is `passed` where x > 0 and x times a slope in [lower, upper] elsewhere."""
    atol, rtol = tolerance
    positive = x > 0
    assert torch.allclose(actual[positive], passed[positive], rtol=rtol, atol=atol), "x > 0 changed"
    base, value = passed[~positive], actual[~positive]
    low, high = torch.minimum(base * lower, base * upper), torch.maximum(base * lower, base * upper)
    slack = atol + rtol * base.abs()
    inside = (value >= low - slack) & (value <= high + slack)
    assert inside.all(), f"slopes outside [{lower}, {upper}]: {value[~inside][:3].tolist()}"
    return base, value


def check_output(op_name, sample, actual, tolerance) -> None:
    if op_name == RRELU:
        lower, upper, _ = _rrelu_options(sample)
        x = sample.input.detach().double()
        base, value = _check_slopes(x, actual.detach().cpu().double(), lower, upper, tolerance, x)
        slopes = value[base != 0] / base[base != 0]
        if slopes.numel() >= 24 and upper - lower > 1e-3:
            assert slopes.max() - slopes.min() > 1e-6, "every slope equal: not drawn"
        return
    if actual.dtype in (torch.float16, torch.bfloat16):
        # PyTorch rounds alpha dropout's scale and shift to the half type first.
        tolerance = (tolerance[0], max(tolerance[1], 1e-2))
    x = sample.input.detach().double()
    kept, dropped, scale, _ = _values(op_name, sample, x)
    actual = actual.detach().cpu().double()
    only_kept, only_dropped = _which(actual, kept, dropped, tolerance, scale)
    _, channels, _, p = _options(op_name, sample)
    if not channels and p < 1 and int((kept != dropped).sum()) >= 24:
        # All kept or all dropped has odds below 1e-7 here: a mask, not a constant.
        assert only_kept.any() and only_dropped.any(), "every element kept, or every one dropped"
    if channels and x.dim() >= 2:
        # Channels are the slices over the dimensions after the first two (or the first).
        lead = 2 if x.dim() > 2 else 1
        k, d = only_kept.flatten(lead).any(-1), only_dropped.flatten(lead).any(-1)
        assert not (k & d).any(), "a channel has kept and dropped elements"


def check_gradient(op_name, sample, grad_output, actual) -> None:
    if op_name == RRELU:
        lower, upper, _ = _rrelu_options(sample)
        x, g = sample.input.detach().double(), grad_output.double()
        _check_slopes(x, actual.detach().cpu().double(), lower, upper, (1e-2, 1e-2), g)
        return
    _, _, _, scale = _values(op_name, sample, sample.input.detach().double())
    g = grad_output.double()
    _which(actual.detach().cpu().double(), g * scale, torch.zeros_like(g), (1e-2, 1e-2))
