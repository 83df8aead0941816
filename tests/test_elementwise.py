"""The elementwise ops, reductions and selections the foundation ships, against CPU."""

import pytest
import torch

from conftest import ALL_DTYPES, assert_bitwise_equal

FLOAT_VALUES = [0.0, -0.0, 1.5, -2.5, 3.25, float("nan"), float("inf"), -float("inf"), 1e-3, -7.0]


def sample(dtype: torch.dtype) -> torch.Tensor:
    if dtype.is_floating_point:
        return torch.tensor(FLOAT_VALUES).to(dtype)
    if dtype == torch.bool:
        return torch.tensor([True, False, True, True, False, False, True, False, True, False])
    if dtype == torch.uint8:
        return torch.tensor([0, 1, 2, 3, 250, 255, 7, 8, 9, 100], dtype=dtype)
    return torch.tensor([0, 1, -2, 3, -128, 127, 7, -8, 9, -100], dtype=dtype)


UNARY = {
    "abs": torch.abs,
    "ceil": torch.ceil,
    "floor": torch.floor,
    "trunc": torch.trunc,
    "isnan": torch.isnan,
    "isinf": torch.isinf,
    "isfinite": torch.isfinite,
}


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d != torch.bool], ids=str)
@pytest.mark.parametrize("name", list(UNARY), ids=str)
def test_unary(device, dtype, name):
    host = sample(dtype)
    assert_bitwise_equal(UNARY[name](host.to(device)), UNARY[name](host))


@pytest.mark.parametrize(
    "dtype", [d for d in ALL_DTYPES if d not in (torch.bool, torch.uint8)], ids=str
)
def test_neg(device, dtype):
    host = sample(dtype)
    assert_bitwise_equal(torch.neg(host.to(device)), torch.neg(host))


BINARY = {
    "mul": torch.mul,
    "div": torch.div,
    "maximum": torch.maximum,
    "minimum": torch.minimum,
    "eq": torch.eq,
    "ne": torch.ne,
    "lt": torch.lt,
    "le": torch.le,
    "gt": torch.gt,
    "ge": torch.ge,
}


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("name", list(BINARY), ids=str)
def test_binary_tensor_tensor(device, dtype, name):
    a = sample(dtype)
    b = a.flip(0)
    expected = BINARY[name](a, b)
    actual = BINARY[name](a.to(device), b.to(device))
    if name == "div":
        torch.testing.assert_close(actual.cpu(), expected, equal_nan=True)
    else:
        assert_bitwise_equal(actual, expected)


@pytest.mark.parametrize("other", [2, -1.5, True], ids=str)
@pytest.mark.parametrize("dtype", [torch.uint8, torch.int32, torch.float16, torch.float32], ids=str)
def test_scalar_promotion_and_broadcasting(device, dtype, other):
    a = sample(dtype).reshape(2, 5)
    col = sample(dtype)[:2].reshape(2, 1)
    for op in (torch.mul, torch.eq, torch.gt):
        assert_bitwise_equal(op(a.to(device), other), op(a, other))
        assert_bitwise_equal(op(a.to(device), col.to(device)), op(a, col))
    mixed = torch.arange(5, dtype=torch.int64)
    assert_bitwise_equal(torch.mul(a.to(device), mixed.to(device)), torch.mul(a, mixed))


@pytest.mark.parametrize("dtype", [torch.bool, torch.uint8, torch.int16, torch.int64], ids=str)
def test_bitwise(device, dtype):
    a, b = sample(dtype), sample(dtype).roll(3)
    for op in (torch.bitwise_and, torch.bitwise_or, torch.bitwise_xor):
        assert_bitwise_equal(op(a.to(device), b.to(device)), op(a, b))
    assert_bitwise_equal(torch.bitwise_not(a.to(device)), torch.bitwise_not(a))
    with pytest.raises(RuntimeError, match="not implemented for"):
        torch.bitwise_and(torch.ones(2, device=device), torch.ones(2, device=device))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_full_min_max(device, dtype):
    host = sample(dtype).reshape(2, 5)[:, 1:]
    assert_bitwise_equal(host.to(device).min(), host.min())
    assert_bitwise_equal(host.to(device).max(), host.max())
    if dtype.is_floating_point:
        finite = host[torch.isfinite(host)]
        assert_bitwise_equal(finite.to(device).max(), finite.max())
    with pytest.raises(RuntimeError, match="Expected reduction dim"):
        torch.empty(0, dtype=dtype, device=device).max()


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_masked_select(device, dtype):
    host = torch.arange(24).reshape(4, 6).to(dtype)
    mask = torch.arange(24).reshape(4, 6) % 3 == 1
    assert_bitwise_equal(
        torch.masked_select(host.to(device), mask.to(device)), torch.masked_select(host, mask)
    )
    row = torch.tensor([True, False, False, True, True, False])
    assert_bitwise_equal(host.to(device).masked_select(row.to(device)), host.masked_select(row))
    nothing = torch.zeros(4, 6, dtype=torch.bool)
    assert torch.masked_select(host.to(device), nothing.to(device)).numel() == 0


@pytest.mark.parametrize("name", ["log1p", "expm1", "log", "log2", "log10"])
def test_float32_logs_and_exponentials_are_accurate_near_zero_and_one(device, name):
    """Relative error within a few ulps where the result is tiny (float32's `log` builtin
    is only absolutely accurate there on some drivers)."""
    tiny = torch.logspace(-30, -0.4, 2000)
    x = torch.cat([tiny, -tiny, torch.tensor([0.0, -0.0])])
    if name.startswith("log") and name != "log1p":
        x = 1 + torch.cat([x[abs(x) < 0.5], torch.linspace(-0.4, 0.4, 1001)])
    ours = getattr(torch, name)(x.to(device)).cpu()
    expected = getattr(torch, name)(x.double()).float()
    torch.testing.assert_close(ours, expected, rtol=4 * 2**-23, atol=1e-45)
    assert_bitwise_equal(ours[expected == 0].sign(), expected[expected == 0].sign())


def test_cat(device):
    parts = [torch.arange(6).reshape(2, 3), torch.arange(3).reshape(1, 3).to(torch.int16)]
    assert_bitwise_equal(torch.cat([p.to(device) for p in parts]), torch.cat(parts))
    cols = [torch.ones(2, 2, dtype=torch.float16), torch.zeros(2, 1, dtype=torch.float32)]
    assert_bitwise_equal(torch.cat([c.to(device) for c in cols], dim=1), torch.cat(cols, dim=1))
    with pytest.raises(RuntimeError, match="Sizes of tensors must match"):
        torch.cat([torch.ones(2, 2, device=device), torch.ones(3, 3, device=device)])
