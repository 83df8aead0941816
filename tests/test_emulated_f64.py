"""Float64 on a device without shader-f64 (Apple GPUs; here the software device opened with
TORCH_MOJO_BACKEND_WITHOUT_F64=1): held as bits, with conversions, neg, abs and division
computed exactly, so that GradScaler's `scale.double().reciprocal().float()` works."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from conftest import assert_bitwise_equal, software_only

WITHOUT_F64 = os.environ.get("TORCH_MOJO_BACKEND_WITHOUT_F64") == "1"
emulating = pytest.mark.skipif(
    not WITHOUT_F64, reason="runs in the subprocess whose device lacks shader-f64"
)


@software_only
@pytest.mark.skipif(WITHOUT_F64, reason="this is the test that starts the subprocess")
def test_checks_pass_on_a_device_without_shader_f64():
    """This file's checks, the GradScaler and fused-optimizer tests and float32's accuracy
    near 0 and 1 and over the ulp sweeps (which may not borrow float64: `erf` and `tanh`
    take their float32 helpers there), on a device without float64."""
    tests = Path(__file__).parent
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            str(tests / "test_emulated_f64.py"),
            str(tests / "test_autocast.py"),
            str(tests / "test_elementwise.py"),
            str(tests / "test_math_accuracy.py"),
            "-k",
            "(emulated or scaler or fused or accurate_near or ulp_bound)"
            " and not without_shader_f64",
        ],
        env=dict(os.environ, TORCH_MOJO_BACKEND_WITHOUT_F64="1"),
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tests.parent,
    )
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "passed" in summary and "skipped" not in summary, summary


def random_f64(n: int, generator: torch.Generator) -> torch.Tensor:
    """float64 values over every exponent (subnormals, infinities and NaNs included)."""
    bits = torch.randint(-(2**63), 2**63 - 1, (n,), dtype=torch.int64, generator=generator)
    return bits.view(torch.float64)


SPECIAL = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    3.0,
    0.1,
    65536.0,
    1e-40,
    1e-45,
    -1e-45,
    3.4e38,
    1e300,
    1e-310,
    5e-324,
    float("inf"),
    float("-inf"),
    float("nan"),
]


@emulating
def test_emulated_conversions_from_floating_types_are_exact(device):
    g = torch.Generator().manual_seed(0)
    singles = torch.randint(-(2**31), 2**31 - 1, (100_000,), dtype=torch.int32, generator=g)
    singles = torch.cat([singles.view(torch.float32), torch.tensor(SPECIAL, dtype=torch.float32)])
    assert_bitwise_equal(singles.to(device).double(), singles.double())
    for dtype in (torch.float16, torch.bfloat16):
        halves = singles.to(dtype)
        assert_bitwise_equal(halves.to(device).double(), halves.double())


@emulating
def test_emulated_rounding_to_float32_is_exact(device):
    g = torch.Generator().manual_seed(1)
    doubles = torch.cat([random_f64(100_000, g), torch.tensor(SPECIAL, dtype=torch.float64)])
    # Values near float32's range and its subnormals, where rounding is hardest.
    near = torch.randn(20_000, generator=g, dtype=torch.float64) * 2.0 ** torch.randint(
        -160, 130, (20_000,), generator=g
    )
    doubles = torch.cat([doubles, near])
    assert_bitwise_equal(doubles.to(device).float(), doubles.float())


@emulating
def test_emulated_division_is_correctly_rounded(device):
    g = torch.Generator().manual_seed(2)
    a = torch.cat([random_f64(50_000, g), torch.tensor(SPECIAL, dtype=torch.float64).repeat(17)])
    b = torch.cat(
        [random_f64(50_000, g), torch.tensor(SPECIAL, dtype=torch.float64).repeat_interleave(17)]
    )
    assert_bitwise_equal(a.to(device) / b.to(device), a / b)
    # Quotients near 1 and in the subnormal range.
    c = torch.randn(20_000, generator=g, dtype=torch.float64)
    d = torch.randn(20_000, generator=g, dtype=torch.float64) * 2.0 ** torch.randint(
        -60, 1100, (20_000,), generator=g
    )
    assert_bitwise_equal(c.to(device) / d.to(device), c / d)
    assert_bitwise_equal(d.to(device).reciprocal(), d.reciprocal())


@emulating
def test_emulated_grad_scaler_inverse_scale(device):
    scales = torch.tensor([65536.0, 3.0, 0.7, 1e-30, 2.0**-140], dtype=torch.float32)
    ours = scales.to(device).double().reciprocal().float()
    assert_bitwise_equal(ours, scales.double().reciprocal().float())


@emulating
def test_emulated_neg_abs_and_factories(device):
    g = torch.Generator().manual_seed(3)
    x = random_f64(10_000, g)
    assert_bitwise_equal(-x.to(device), -x)
    assert_bitwise_equal(x.to(device).abs(), x.abs())
    assert_bitwise_equal(
        torch.full((3,), 0.1, dtype=torch.float64, device=device),
        torch.full((3,), 0.1, dtype=torch.float64),
    )
    assert_bitwise_equal(
        torch.zeros(5, dtype=torch.float64, device=device), torch.zeros(5, dtype=torch.float64)
    )


@emulating
def test_emulated_float64_refuses_other_arithmetic(device):
    x = torch.ones(3, dtype=torch.float64, device=device)
    for op in (torch.exp, lambda t: torch.add(t, t), torch.sum, lambda t: torch.mul(t, 2)):
        with pytest.raises(TypeError, match="float64"):
            op(x)
