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


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
def test_a_python_scalar_enters_half_precision_ops_unrounded(device, dtype):
    """As on CUDA (its kernels read a wrapped scalar at the op's float32 math precision), not
    as on the CPU, which first rounds the scalar to the tensor's dtype: x - m rounds once."""
    x = torch.tensor([0.044189453125, 1.0, -3.0], dtype=dtype)
    m = 0.04140983266436726
    once = (x.float() - torch.tensor(m, dtype=torch.float32)).to(dtype)
    assert_bitwise_equal(x.to(device) - m, once)
    assert_bitwise_equal(x.to(device) * m, (x.float() * torch.tensor(m)).to(dtype))


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


NAN, INF = float("nan"), float("inf")
FLOATS = [torch.float32, torch.float64, torch.float16, torch.bfloat16]


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_xlogy_and_xlog1py_edges(device, dtype):
    x = torch.tensor([0.0, 0.0, 0.0, 0.0, 2.0, -1.5, 2.0, 0.0, 3.0], dtype=dtype)
    y = torch.tensor([0.0, NAN, INF, -1.0, 0.0, 1.0, NAN, -INF, 0.5], dtype=dtype)
    for op in (torch.xlogy, torch.special.xlog1py):
        ours = op(x.to(device), y.to(device)).cpu()
        torch.testing.assert_close(ours, op(x, y), equal_nan=True)
    ours = torch.xlogy(x.to(device), y.to(device)).cpu()
    assert ours[0] == 0 and ours[2] == 0 and ours[3] == 0 and ours[7] == 0  # x = 0 wins
    assert ours[1].isnan() and ours[6].isnan()  # unless y is NaN
    assert ours[4] == -INF
    assert_bitwise_equal(ours[5], torch.tensor(-0.0, dtype=dtype))  # -1.5 * log(1)
    # A Python number on either side, and integers computed in float32.
    assert_bitwise_equal(torch.xlogy(0, y.to(device))[:2], torch.xlogy(0, y)[:2])
    ints = torch.tensor([0, 1, 2, 5])
    torch.testing.assert_close(torch.xlogy(ints.to(device), 3).cpu(), torch.xlogy(ints, 3))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16], ids=str)
def test_logaddexp_at_large_and_infinite_values(device, dtype):
    big = 1e38 if dtype != torch.float64 else 1e300
    a = torch.tensor([big, -INF, -INF, INF, INF, 0.0, 88.0, -big, NAN, -INF], dtype=dtype)
    b = torch.tensor([big, -INF, 1.0, INF, -INF, -INF, 89.0, big, 1.0, NAN], dtype=dtype)
    for op in (torch.logaddexp, torch.logaddexp2):
        ours = op(a.to(device), b.to(device)).cpu()
        torch.testing.assert_close(ours, op(a, b), equal_nan=True)
        assert ours[1] == -INF and ours[3] == INF and ours[4] == INF  # no inf - inf
        assert torch.isfinite(ours[0]) and ours[8].isnan() and ours[9].isnan()
    with pytest.raises(NotImplementedError, match="logaddexp_cpu"):
        torch.logaddexp(
            torch.ones(2, dtype=torch.int64, device=device), torch.ones(2, device=device).long()
        )


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_sinc_and_entr(device, dtype):
    x = torch.tensor([0.0, -0.0, 0.5, 1.0, -2.5, 1e-3, NAN, INF], dtype=dtype)
    ours = torch.sinc(x.to(device)).cpu()
    assert ours[0] == 1 and ours[1] == 1
    torch.testing.assert_close(ours, torch.sinc(x), equal_nan=True, atol=1e-6, rtol=1e-5)
    e = torch.tensor([0.0, -0.0, 0.5, 2.0, -1.0, NAN, INF, -INF], dtype=dtype)
    ours = torch.special.entr(e.to(device)).cpu()
    torch.testing.assert_close(ours, torch.special.entr(e), equal_nan=True)
    assert ours[0] == 0 and ours[4] == -INF and ours[5].isnan() and ours[6] == -INF


@pytest.mark.parametrize("dtype", [*FLOATS, torch.int64, torch.uint8, torch.bool], ids=str)
def test_heaviside_at_zero(device, dtype):
    if dtype.is_floating_point:
        x = torch.tensor([-0.0, 0.0, -2.0, 3.0, NAN], dtype=dtype)
        v = torch.tensor([0.5, 0.25, 7.0, 7.0, 7.0], dtype=dtype)
    else:
        x = torch.tensor([0, 0, 1, 2, 0]).to(dtype)
        v = torch.tensor([0, 1, 0, 0, 1]).to(dtype)
    assert_bitwise_equal(torch.heaviside(x.to(device), v.to(device)), torch.heaviside(x, v))
    out = torch.empty(5, dtype=dtype, device=device)
    assert torch.heaviside(x.to(device), v.to(device), out=out) is out
    assert_bitwise_equal(out, torch.heaviside(x, v))
    with pytest.raises(RuntimeError, match="different dtypes"):
        torch.heaviside(
            x.to(device), v.to(device), out=torch.empty(5, dtype=torch.int32, device=device)
        )


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_signbit(device, dtype):
    if dtype.is_floating_point:
        x = torch.tensor([-0.0, 0.0, -NAN, NAN, -INF, INF, -1e-3, 2.0], dtype=dtype)
        x[2] = torch.copysign(x[3], x[0])  # a NaN with its sign bit set
    else:
        x = sample(dtype)
    ours = torch.signbit(x.to(device))
    assert_bitwise_equal(ours, torch.signbit(x))
    if dtype.is_floating_point:
        assert ours.cpu().tolist()[:3] == [True, False, True]
    with pytest.raises(RuntimeError, match="non-boolean outputs"):
        torch.signbit(x.to(device), out=torch.empty(len(x), device=device))


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_shrinks_keep_nan_and_signed_zero(device, dtype):
    x = torch.tensor([NAN, -0.2, 0.2, -0.0, 0.3, -0.7, 0.5, INF, -INF], dtype=dtype)
    F = torch.nn.functional
    for op in (F.hardshrink, F.softshrink):
        ours = op(x.to(device), 0.3).cpu()
        # CPU's own zeros inside [-lambd, lambd] take x's sign in some kernels and not others.
        torch.testing.assert_close(ours, op(x, 0.3), equal_nan=True, atol=0, rtol=0)
        assert ours[0].isnan()
    with pytest.raises(RuntimeError, match="lambda must be in range"):
        F.softshrink(x.to(device), -1.0)
    with pytest.raises(RuntimeError, match="lambda must be in range"):
        torch.ops.aten.softshrink.out(
            x.to(device), -0.5, out=torch.empty(9, dtype=dtype, device=device)
        )


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=str)
def test_log_ndtr_deep_in_the_lower_tail(device, dtype):
    x = torch.cat([torch.linspace(-60, 0, 1201), torch.tensor([-1e3, -1e10, -INF])]).to(dtype)
    ours = torch.special.log_ndtr(x.to(device)).cpu()
    expected = torch.special.log_ndtr(x.double()).to(dtype)
    rtol = 2e-6 if dtype == torch.float32 else 1e-12
    torch.testing.assert_close(ours, expected, rtol=rtol, atol=1e-30)
    with pytest.raises(NotImplementedError, match="log_ndtr_cpu"):
        torch.special.log_ndtr(x.half().to(device))


@pytest.mark.parametrize("dtype", [torch.int64, torch.uint8, torch.float32, torch.float16], ids=str)
def test_rsub(device, dtype):
    a, b = sample(dtype), sample(dtype).flip(0)
    assert_bitwise_equal(torch.rsub(a.to(device), b.to(device), alpha=2), torch.rsub(a, b, alpha=2))
    assert_bitwise_equal(torch.rsub(a.to(device), 3), torch.rsub(a, 3))


# Layouts of the four-elements-per-item map: rows a multiple of four long or not, per-row
# and per-column operands (stride zero along or across the row), a 0-dim operand, views
# offset by one element (unaligned) and with padded rows, from int32/bool operands too.
ROW_LAYOUTS = {
    "per-row operand": lambda a: (a, a[:, :1].clone()),
    "per-column operand": lambda a: (a, a[0].clone()),
    "0-dim operand": lambda a: (a, a[0, 0].clone()),
    "offset rows": lambda a: (a[:, 1:5], a[:, :1].clone()),
    "padded rows": lambda a: (a[:, :8], a[:, 8:9].clone()),
    "per-row view of the same rows": lambda a: (a[:, :8], a[:, 8:9]),
    "transposed": lambda a: (a.t(), a[:1].t().clone()),
}


@pytest.mark.parametrize("cols", [4, 12, 13], ids=lambda c: f"cols{c}")
@pytest.mark.parametrize("layout", list(ROW_LAYOUTS), ids=str)
def test_row_broadcast_maps(device, layout, cols):
    host = torch.randn(37, cols + 12)  # rows 16, 24 or 25 apart: aligned or not
    if layout == "transposed":
        host = host[:, :cols].contiguous()
    x, y = ROW_LAYOUTS[layout](host)
    on = ROW_LAYOUTS[layout](host.to(device))
    assert_bitwise_equal((on[0] - on[1]) * 3, (x - y) * 3)
    assert_bitwise_equal(torch.where(on[1] > 0, on[0], on[1]), torch.where(y > 0, x, y))
    ints = [t.mul(100).int() for t in on]
    assert_bitwise_equal(ints[0] + ints[1], (x * 100).int() + (y * 100).int())
    out = torch.empty_like(on[0])
    torch.mul(on[0], on[1], out=out)
    assert_bitwise_equal(out, x * y)


SUB_WORD = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.float16, torch.bfloat16]


def sub_word_values(shape, dtype):
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, dtype=torch.bool)
    if dtype.is_floating_point:
        return (torch.randn(shape) * 40).to(dtype)
    info = torch.iinfo(dtype)
    return torch.randint(info.min, info.max + 1, shape, dtype=dtype)


def changed(x):
    """A value of x's dtype that differs from x (wrapping for integers)."""
    return (
        x.logical_not()
        if x.dtype == torch.bool
        else x.bitwise_not()
        if not x.is_floating_point()
        else -x
    )


@pytest.mark.parametrize("dtype", SUB_WORD, ids=str)
def test_sub_word_maps_keep_their_neighbours(device, dtype):
    # Four elements of under four bytes are whole words, stored 16 or 64 bytes per work
    # item, and moved 16 bytes at a time where rows start at 16-byte boundaries: every start
    # in a word and in 16 bytes, tails of 0-3 elements and of part of an item, rows of a
    # wider buffer shorter than an item and in-place stores must leave the neighbouring
    # elements of the buffer untouched.
    torch.manual_seed(SUB_WORD.index(dtype))
    wide = torch.int32 if dtype == torch.bool else dtype
    for n in [1, 3, 4, 5, 8, 17, 63, 64, 65, 130, 1027]:
        for start in [0, 1, 2, 3, 4, 8, 16]:
            buf = sub_word_values([n + 8], dtype)
            mojo = buf.to(device)
            a, b = buf[start : start + n], buf.flip(0)[start : start + n]
            ma, mb = mojo[start : start + n], mojo.flip(0)[start : start + n]
            assert_bitwise_equal(torch.maximum(ma, mb), torch.maximum(a, b))
            assert_bitwise_equal(ma.to(wide) > 0, a.to(wide) > 0)
            assert_bitwise_equal(ma.float().to(dtype), a.float().to(dtype))
            ma.copy_(changed(mb))  # into a slice of the buffer itself
            a.copy_(changed(b))
            assert_bitwise_equal(mojo, buf)
    # Rows of a wider buffer: rows 12 elements apart, 8 of each taken.
    host = sub_word_values([9, 12], dtype)
    mojo = host.to(device)
    mojo[:, :8] = changed(mojo[:, :8].flip(1))
    host[:, :8] = changed(host[:, :8].flip(1))
    mojo[:, 4:8] = torch.where(mojo[:, :4] == mojo[:, 4:8], mojo[:, 8:], mojo[:, :4])
    host[:, 4:8] = torch.where(host[:, :4] == host[:, 4:8], host[:, 8:], host[:, :4])
    assert_bitwise_equal(mojo, host)
    # Rows of 64 and 48 elements, 80 apart, from a 16-byte boundary or not.
    host = sub_word_values([9, 80], dtype)
    mojo = host.to(device)
    for cols in [slice(0, 64), slice(16, 80), slice(4, 68), slice(16, 64), slice(8, 56)]:
        mojo[:, cols] = changed(mojo[:, cols].flip(0))
        host[:, cols] = changed(host[:, cols].flip(0))
        assert_bitwise_equal(mojo, host)
        last = slice(80 - (cols.stop - cols.start), 80)
        assert_bitwise_equal(
            torch.maximum(mojo[:, cols], mojo[:, last]), torch.maximum(host[:, cols], host[:, last])
        )


def test_row_broadcast_maps_past_the_grid(device):
    # More rows than the bounded grid covers in one pass, rows of 1,028 elements.
    host = torch.randn(4099, 1028)
    scale = torch.randn(4099, 1)
    bias = torch.randn(1028)
    got = host.to(device) * scale.to(device) + bias.to(device)
    assert_bitwise_equal(got, host * scale + bias)


@pytest.mark.parametrize("rank", [6, 7, 9])
def test_tensors_past_six_dimensions(device, rank):
    # Sizes and strides are held inline up to six dimensions and spill to the heap past them.
    torch.manual_seed(rank)
    shape = [2, 3, 1, 2, 3, 2, 2, 1, 3][:rank]
    a = torch.randn(shape)
    b = torch.randn(shape[:3])
    order = list(reversed(range(rank)))
    got = (a.to(device).permute(order) + 1) * b.to(device).permute(2, 1, 0)
    want = (a.permute(order) + 1) * b.permute(2, 1, 0)
    assert_bitwise_equal(got, want)
    torch.testing.assert_close(got.sum(dim=(0, rank - 1)).cpu(), want.sum(dim=(0, rank - 1)))
    assert torch.equal(a.to(device).flip(1).cpu(), a.flip(1))


LAYOUTS = {
    "contiguous": lambda b: (b, b * 2),
    "transposed": lambda b: (b.transpose(1, 3), b.transpose(1, 3) * 2),
    "channels_last": lambda b: (b.contiguous(memory_format=torch.channels_last),) * 2,
    "channels_last_first": lambda b: (b.contiguous(memory_format=torch.channels_last), b),
    "channels_last_second": lambda b: (b, b.contiguous(memory_format=torch.channels_last)),
    "broadcast_row": lambda b: (b.transpose(2, 3), b[0, 0, 0, :4]),
    "broadcast_column": lambda b: (
        b[:, :, :1, :1],
        b.contiguous(memory_format=torch.channels_last),
    ),
    "size_one": lambda b: (b[0, :, :1].transpose(0, 2), b[1, :, :1].permute(2, 1, 0)),
    "sliced": lambda b: (b[:, ::2], b[:, 1::2]),
    "expanded": lambda b: (b[0, 0, :, :1].expand(4, 5), b[0, 0].t().contiguous().t()),
    "number": lambda b: (b.transpose(0, 1), 2.5),
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(
    "op", [torch.add, torch.sub, torch.mul, torch.div], ids=lambda f: f.__name__
)
def test_results_are_laid_out_as_on_the_cpu(device, layout, op):
    """add, sub, mul and div give their results the strides PyTorch's TensorIterator gives
    on the CPU (mojo registers their functional forms and lays results out itself)."""
    base = torch.randn(2, 3, 4, 5, generator=torch.Generator().manual_seed(1))
    expected = op(*LAYOUTS[layout](base))
    actual = op(*LAYOUTS[layout](base.to(device)))
    assert actual.stride() == expected.stride()
    torch.testing.assert_close(actual.cpu(), expected)


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "channels_last", "sliced"])
@pytest.mark.parametrize(
    "op",
    [torch.exp, torch.log, torch.sqrt, torch.rsqrt, torch.sin, torch.cos, torch.tanh],
    ids=lambda f: f.__name__,
)
def test_unary_results_are_laid_out_as_on_the_cpu(device, layout, op):
    base = torch.rand(2, 3, 4, 5, generator=torch.Generator().manual_seed(2)) + 0.5
    x = LAYOUTS[layout](base)[0]
    expected = op(x)
    actual = op(LAYOUTS[layout](base.to(device))[0])
    assert actual.stride() == expected.stride()
    torch.testing.assert_close(actual.cpu(), expected)


def test_functional_forms_take_complex_and_integer_inputs(device):
    z = torch.randn(6, dtype=torch.complex64, generator=torch.Generator().manual_seed(3))
    i = torch.arange(1, 7)
    for op in (torch.exp, torch.log, torch.sqrt, torch.tanh):
        for x in (z, i):
            expected = op(x)
            actual = op(x.to(device))
            assert actual.dtype == expected.dtype
            torch.testing.assert_close(actual.cpu(), expected)
    for op in (torch.add, torch.sub, torch.mul, torch.div):
        for x, y in ((z, i), (i, 2), (i, i), (z, 1.5)):
            expected = op(x, y)
            actual = op(x.to(device), y.to(device) if isinstance(y, torch.Tensor) else y)
            assert actual.dtype == expected.dtype
            torch.testing.assert_close(actual.cpu(), expected)


def test_float32_exp_over_its_whole_normal_range(device):
    """float32 exp (its argument reduced by multiples of ln 2 on wgpu, the scale built from
    exponent bits) within 4 units in the last place of float64's over (-87, 88.72], where the
    reduction applies, including large arguments, where exp2(x log2 e) loses |x| ulp (at
    -87 and below the driver's exp is taken: 28 ulp there); infinities and NaN as on the CPU."""
    x = torch.cat([torch.linspace(-86.99, 88.72, 1_000_003), torch.tensor([-86.99, 50.0, 88.72])])
    got = torch.exp(x.to(device)).cpu().double()
    exact = torch.exp(x.double())
    rounded = exact.float()
    ulp = (torch.nextafter(rounded, torch.tensor(float("inf"))) - rounded).double()
    assert ((got - exact).abs() / ulp).max() <= 4
    special = torch.tensor([float("nan"), float("inf"), -float("inf"), 89.0, -110.0, 0.0])
    torch.testing.assert_close(
        torch.exp(special.to(device)).cpu(), torch.exp(special), equal_nan=True
    )


def test_float64_round_and_trigonometry_of_large_arguments(device):
    """float64 round (half to even, the sign of zero kept) and sin/cos/tan past 2^24 and up to
    1e15, where lavapipe's own f64 round drifted (off past 2^24 on AVX2 hosts) and took the
    trigonometric reduction with it (sin(1e8) was 1.0). The wgpu devices' reduction is exact
    below 2^56 only (no Payne-Hanek yet), so 1e300 is rounded but not taken a sine of."""
    g = torch.Generator().manual_seed(7)
    magnitudes = 10 ** (torch.rand(20_000, generator=g, dtype=torch.float64) * 15)
    signs = torch.randn(20_000, generator=g, dtype=torch.float64).sign()
    edges = [2.5, -2.5, 0.5, -0.5, -0.3, 0.0, -0.0, 2.0**40 + 0.5, 2.0**52 - 0.5, 1e300]
    edges += [float("inf"), float("-inf"), float("nan"), 1e8, 3.2e7, 2.0**27]
    x = torch.cat([torch.tensor(edges, dtype=torch.float64), magnitudes * signs])
    moved = x.to(device)
    for decimals in (0, 2, -3):
        expected = torch.round(x, decimals=decimals)
        actual = torch.round(moved, decimals=decimals).cpu()
        torch.testing.assert_close(actual, expected, rtol=0, atol=0, equal_nan=True)
        assert torch.equal(actual.signbit(), expected.signbit())
    within = x.abs() < 2.0**56
    for op in (torch.sin, torch.cos, torch.tan):
        torch.testing.assert_close(
            op(moved[within.to(device)]).cpu(),
            op(x[within]),
            rtol=1e-12,
            atol=1e-15,
            equal_nan=True,
        )


def test_large_sub_word_maps_and_sums_past_the_grid(device):
    # 2^24 + 37 uint8 (262,145 work items of 64, the bounded grid's items many times over, on
    # the software device's wide twin), from a 16-byte boundary and from one byte past it;
    # bfloat16 rows of 4,112 (16-byte chunks) and 4,111 (none) summed, and a sum of 2^24.
    g = torch.Generator().manual_seed(7)
    u = torch.randint(0, 256, (2**24 + 38,), generator=g, dtype=torch.uint8)
    mu = u.to(device)
    for start in (0, 1):
        a, b = u[start : start + 2**24 + 37], u.flip(0)[start : start + 2**24 + 37]
        ma, mb = mu[start : start + 2**24 + 37], mu.flip(0)[start : start + 2**24 + 37]
        assert_bitwise_equal(ma + mb, a + b)
        assert torch.equal(ma.sum().cpu(), a.sum())
    rows = torch.randint(-3, 4, (4099, 4112), generator=g).to(torch.bfloat16)
    on = rows.to(device)
    for r, m in ((rows, on), (rows[:, 1:], on[:, 1:])):
        # Small integers: every order of addition is exact in float32.
        assert_bitwise_equal(m.sum(1, dtype=torch.float32), r.sum(1, dtype=torch.float32))
    flat = torch.randint(-3, 4, (2**24,), generator=g).to(torch.bfloat16)
    assert_bitwise_equal(flat.to(device).sum(dtype=torch.float32), flat.sum(dtype=torch.float32))
