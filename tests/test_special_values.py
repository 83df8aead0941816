"""Math at special values (infinities, NaN, signed zeros, tiny and huge arguments) equals the
CPU's. Shader compilers may fold `x - x` to 0 and `(1 + x) - 1` to `x`, and drivers' float32
builtins lose tiny or huge arguments; these inputs are where that shows."""

import math

import pytest
import torch

VALUES = [0.0, -0.0, 1e-300, 9.36e-14, -5.9e-17, 1e-10, 0.2, 0.3, -0.3, 1.0, -1.0, -0.999999]
VALUES += [2.5, 1e10, 1e30, 1e300, math.inf, -math.inf, math.nan]

UNARY = ["log", "log1p", "log2", "log10", "expm1", "exp", "atan", "asin", "acos", "sinh"]
UNARY += ["cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc", "erfinv", "sqrt", "rsqrt"]

BINARY = ["pow", "atan2", "fmod", "remainder", "hypot"]
# (Not 1e-300: CPU's vectorised fmod of 1e30 by it is NaN, its scalar fmod and CUDA's exact.)
SECOND = [2.0, math.inf, -math.inf, 0.5, -3.0, math.nan, 1e-5, -0.0]


def tolerance(dtype):
    return (
        {"rtol": 1e-5, "atol": 1e-6} if dtype == torch.float32 else {"rtol": 1e-12, "atol": 1e-15}
    )


def supported(device, dtype):
    try:
        torch.ones(1, dtype=dtype, device=device).log()
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
@pytest.mark.parametrize("name", UNARY)
def test_unary_special_values(device, name, dtype):
    if not supported(device, dtype):
        pytest.skip("the device lacks float64")
    x = torch.tensor(VALUES, dtype=dtype)
    fn = getattr(torch, name)
    actual = fn(x.to(device)).cpu()
    torch.testing.assert_close(actual, fn(x), equal_nan=True, **tolerance(dtype))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
@pytest.mark.parametrize("name", BINARY)
def test_binary_special_values(device, name, dtype):
    if not supported(device, dtype):
        pytest.skip("the device lacks float64")
    a, b = torch.meshgrid(
        torch.tensor(VALUES, dtype=dtype), torch.tensor(SECOND, dtype=dtype), indexing="ij"
    )
    fn = getattr(torch, name)
    actual = fn(a.to(device), b.to(device)).cpu()
    torch.testing.assert_close(actual, fn(a, b), equal_nan=True, **tolerance(dtype))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
@pytest.mark.parametrize("name", ["sin", "cos", "tan"])
def test_trigonometry_up_to_a_million(device, name, dtype):
    """Exact to the last bits up to 1e6 radians (past that the argument reduction of the
    software device's float64 helpers, and drivers' float32 builtins, lose accuracy)."""
    if not supported(device, dtype):
        pytest.skip("the device lacks float64")
    x = torch.linspace(-1e6, 1e6, 20001, dtype=dtype)
    fn = getattr(torch, name)
    tol = {"rtol": 1e-4, "atol": 1e-6} if dtype == torch.float32 else {"rtol": 1e-9, "atol": 1e-12}
    torch.testing.assert_close(fn(x.to(device)).cpu(), fn(x), **tol)
