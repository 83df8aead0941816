"""Float32 math within a few ulps of float64 over dense sweeps of its arguments: a million
float32 values spread evenly over the bit patterns of each range (so every binade is
sampled as densely as its neighbours), not only the OpInfo samples. Each bound but erfc's is
at most half an ulp above CUDA's documented maximum error for the function and above what the
WGSL helpers and the CUDA emulation's host library measure (tanh: 1.5 and 2.01), so a
faster helper that loses accuracy fails here."""

import pytest
import torch

# name: (lowest, highest argument, largest error in float32 ulps of the float64 result)
BOUNDS = {
    "exp": (-87.0, 88.5, 1.5),
    "expm1": (-20.0, 20.0, 2.5),
    "tanh": (-10.0, 10.0, 2.5),
    "sigmoid": (-20.0, 20.0, 2.5),
    "erf": (-4.0, 4.0, 3.0),
    # CUDA's is 4; the WGSL helper's rational approximation, evaluated in float32, 7.4.
    "erfc": (-10.0, 10.0, 7.5),
    "sin": (-20.0, 20.0, 2.0),
    "cos": (-20.0, 20.0, 2.0),
}


def bits(value: float) -> int:
    return torch.tensor([value], dtype=torch.float32).view(torch.int32).item()


def sweep(lowest: float, highest: float, count: int = 1 << 20) -> torch.Tensor:
    """`count` float32 values spread evenly over the bit patterns from 0 to `highest` and
    from -0 to `lowest`."""
    halves = []
    for end in (highest, lowest):
        start = bits(0.0 if end > 0 else -0.0)
        step = max(1, (bits(end) - start) // (count // 2))
        halves.append(torch.arange(start, bits(end) + 1, step, dtype=torch.int64))
    return torch.cat(halves).to(torch.int32).view(torch.float32)


def ulps(values: torch.Tensor, exact: torch.Tensor) -> torch.Tensor:
    """|values - exact| in units of the float32 spacing at `exact` (subnormals: 2^-149)."""
    magnitude = exact.abs().clamp(min=2.0**-126)
    spacing = torch.pow(2.0, torch.floor(torch.log2(magnitude)) - 23)
    return (values.double() - exact).abs() / spacing


@pytest.mark.parametrize("name", list(BOUNDS))
def test_float32_math_is_within_its_ulp_bound(device, name):
    lowest, highest, bound = BOUNDS[name]
    x = sweep(lowest, highest)
    f = getattr(torch, name)
    got = f(x.to(device)).cpu()
    error = ulps(got, f(x.double()))
    worst = int(error.argmax())
    assert error[worst] <= bound, (
        f"{name}({x[worst].item()!r}) = {got[worst].item()!r}: {error[worst].item():.2f} ulps "
        f"off float64 (bound {bound})"
    )
    # The CPU's float32 result as a sanity check of the sweep and the measure.
    assert ulps(f(x), f(x.double())).max() <= bound


def test_float64_erf_is_within_a_few_ulps_of_the_cpu(device):
    """float64 erf (the WGSL helper sums its Taylor series by Horner's rule below 2.5, a
    continued fraction above) within 8 ulps of the CPU's, across the range where it is not
    yet 1 (measured: 6, near 2.5)."""
    x = torch.linspace(-6.0, 6.0, 200_001, dtype=torch.float64)
    exact = torch.erf(x)
    got = torch.erf(x.to(device)).cpu()
    spacing = torch.nextafter(exact.abs(), torch.tensor(float("inf"), dtype=torch.float64))
    error = (got - exact).abs() / (spacing - exact.abs())
    worst = int(error.argmax())
    assert error[worst] <= 8, f"erf({x[worst].item()!r}): {error[worst].item():.1f} ulps"
