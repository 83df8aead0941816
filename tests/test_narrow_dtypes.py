"""The float8 dtypes and the unsigned integers wider than a byte, against stock PyTorch on the
CPU, bit for bit.

Conversions to the float8 formats round to nearest even with c10's rules at every landmark:
each format's values, the midpoints between neighbours and the floats just either side of
them, the largest finite values and past them, subnormals, zeros, infinities and NaN, from
every floating and integer dtype, and back. The ops the CPU has for these dtypes give its
results at sizes past the reduction, scan and sort limits, from two threads; promotion with
other dtypes raises the CPU's RuntimeError, and a dtype the backend has no kernels for
raises NotImplementedError naming the op (never a TypeError, which Python's `==` would turn
into a silent identity comparison).
"""

import pytest
import torch
from threads import run_in_threads

FLOAT8 = [
    torch.float8_e4m3fn,
    torch.float8_e5m2,
    torch.float8_e4m3fnuz,
    torch.float8_e5m2fnuz,
    torch.float8_e8m0fnu,
]
UNSIGNED = [torch.uint16, torch.uint32, torch.uint64]


def landmarks() -> torch.Tensor:
    """float32 values at every rounding boundary of every float8 format, and specials."""
    inf = float("inf")
    parts = [
        torch.tensor([0.0, -0.0, inf, -inf, float("nan"), -float("nan"), 1e38, -1e38]).repeat(1),
        torch.tensor([1e-45, -1e-45, 1e-40, 3e-39, 2.0**-127, 2.0**-126]),
    ]
    for dtype in FLOAT8:
        values = torch.arange(256, dtype=torch.uint8).view(dtype).float()
        values = values[torch.isfinite(values)].sort().values
        mid = (values[1:] + values[:-1]) / 2
        up = torch.nextafter(mid, torch.tensor(inf))
        down = torch.nextafter(mid, torch.tensor(-inf))
        parts += [values, mid, up, down, -mid, -up, values * 1.0000001, values * 0.9999999]
    g = torch.Generator().manual_seed(0)
    for e in range(-30, 20, 3):
        parts.append(torch.randn(1000, generator=g) * 2.0**e)
    return torch.cat(parts)


@pytest.mark.parametrize("dtype", FLOAT8, ids=str)
def test_float32_to_float8_rounds_as_the_cpu(device, dtype):
    x = landmarks()
    expected = x.to(dtype).view(torch.uint8)
    for actual in run_in_threads(lambda: x.to(device).to(dtype).cpu().view(torch.uint8)):
        mismatch = (actual != expected).nonzero().flatten()[:5]
        assert mismatch.numel() == 0, [
            (x[i].item(), hex(expected[i].item()), hex(actual[i].item())) for i in mismatch
        ]


@pytest.mark.parametrize("dtype", FLOAT8, ids=str)
@pytest.mark.parametrize(
    "source", [torch.float16, torch.bfloat16, torch.float64, torch.int32, torch.int64], ids=str
)
def test_other_dtypes_to_float8(device, dtype, source):
    x = landmarks()
    if not source.is_floating_point:
        x = x[torch.isfinite(x)].clamp(-6e4, 6e4)
    x = x.to(source)
    assert torch.equal(
        x.to(device).to(dtype).cpu().view(torch.uint8), x.to(dtype).view(torch.uint8)
    )


@pytest.mark.parametrize("dtype", FLOAT8, ids=str)
@pytest.mark.parametrize(
    "target",
    [
        torch.float32,
        torch.float16,
        torch.bfloat16,
        torch.float64,
        torch.int32,
        torch.uint8,
        torch.bool,
    ],
    ids=str,
)
def test_every_float8_value_widens_as_the_cpu(device, dtype, target):
    patterns = torch.arange(256, dtype=torch.uint8).view(dtype)
    expected = patterns.to(target)
    actual = patterns.to(device).to(target).cpu()
    if target.is_floating_point:
        same = (actual == expected) | (actual.isnan() & expected.isnan())
    else:
        # Past the integer's range a float's conversion is undefined (x86 gives INT_MIN).
        values = patterns.float()
        same = (actual == expected) | ~torch.isfinite(values) | (values.abs() >= 2.0**31)
    assert same.all(), (~same).nonzero().flatten()[:5]


@pytest.mark.parametrize("dtype", UNSIGNED, ids=str)
def test_unsigned_conversions(device, dtype):
    top = {torch.uint16: 2**16 - 1, torch.uint32: 2**32 - 1, torch.uint64: 2**64 - 1}[dtype]
    values = [0, 1, 5, 2**15, 2**16 - 1, 2**31, 2**32 - 1, 2**63, 2**64 - 1]
    u = torch.tensor([min(v, top) for v in values], dtype=torch.uint64).to(dtype)
    targets = [torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool]
    targets += [torch.float16, torch.bfloat16, torch.float32, torch.float64] + UNSIGNED
    for target in targets:
        assert torch.equal(u.to(device).to(target).cpu(), u.to(target)), target
    signed = torch.tensor([-1, -(2**31), 5, 2**31 - 1, 2**40 + 3, -(2**63)])
    for source in [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8]:
        s = signed.to(source)
        assert torch.equal(s.to(device).to(dtype).cpu(), s.to(dtype)), source
    # Floats in range (past it the conversion is undefined).
    floats = torch.tensor([0.0, 1.0, 2.5, 65535.0, 2.0**31, 4294967040.0, 2.0**63])
    floats = floats[floats <= top]
    for source in [torch.float32, torch.float64]:
        f = floats.to(source)
        assert torch.equal(f.to(device).to(dtype).cpu(), f.to(dtype)), source


# The CPU's ops for these dtypes (stock PyTorch 2.11), as (name, function of two tensors).
UNSIGNED_OPS = [
    ("eq", lambda a, b: a == b),
    ("ne", lambda a, b: a != b),
    ("mul", lambda a, b: a * b),
    ("mul_scalar", lambda a, b: a * 3),
    ("div", lambda a, b: a / b),
    ("sum", lambda a, b: a.sum()),
    ("bitwise_and", lambda a, b: a & b),
    ("sort", lambda a, b: a.sort().values),
    ("cumsum", lambda a, b: a.cumsum(0)),
    ("unique", lambda a, b: a.unique()),
    ("cat", lambda a, b: torch.cat([a, b])),
    ("index", lambda a, b: a[::7]),
    ("clone", lambda a, b: a.clone()),
    ("fill", lambda a, b: a.clone().fill_(9)),
    ("float", lambda a, b: a.float()),
    ("isnan", lambda a, b: a.isnan()),
]
FLOAT8_OPS = [
    ("eq", lambda a, b: a == b),
    ("mul", lambda a, b: a * b),
    ("abs", lambda a, b: a.abs()),
    ("cat", lambda a, b: torch.cat([a, b])),
    ("index", lambda a, b: a[::7]),
    ("clone", lambda a, b: a.clone()),
    ("fill", lambda a, b: a.clone().fill_(0.3)),
    ("float", lambda a, b: a.float()),
    ("isnan", lambda a, b: a.isnan()),
    ("zeros_like", lambda a, b: torch.zeros_like(a)),
]


def ops_cases():
    for dtype in UNSIGNED:
        for name, op in UNSIGNED_OPS:
            yield pytest.param(dtype, op, id=f"{dtype}-{name}")
    for dtype in FLOAT8:
        for name, op in FLOAT8_OPS:
            if dtype == torch.float8_e8m0fnu and name == "abs":
                continue  # the CPU has no abs for it
            yield pytest.param(dtype, op, id=f"{dtype}-{name}")


@pytest.mark.parametrize("dtype,op", list(ops_cases()))
@pytest.mark.parametrize("size", [5, 70_001])
def test_ops_match_the_cpu(device, dtype, op, size):
    g = torch.Generator().manual_seed(size)
    base = (torch.rand(size, generator=g) * 200).round() + 1
    a, b = base.to(dtype), (base.flip(0) + 1).to(dtype)
    try:
        expected = op(a, b)
    except NotImplementedError:
        # The CPU sorts these only below its parallel threshold: the same values as int64.
        expected = op(a.long(), b.long()).to(dtype)

    def run():
        return op(a.to(device), b.to(device)).cpu()

    for actual in run_in_threads(run, repeats=1):
        assert actual.dtype == expected.dtype and actual.shape == expected.shape
        if actual.dtype.is_floating_point and actual.element_size() == 1:
            actual, want = actual.view(torch.uint8), expected.view(torch.uint8)
        else:
            want = expected
        assert torch.equal(actual, want)


def test_float8_matrix_product(device):
    g = torch.Generator().manual_seed(0)
    for dtype in FLOAT8[:4]:
        a = torch.randn(33, 17, generator=g).to(dtype)
        b = torch.randn(17, 9, generator=g).to(dtype)
        # Products summed in float32, the sum rounded to float8 once.
        expected = (a.float() @ b.float()).to(dtype)
        assert torch.equal((a @ b).view(torch.uint8), expected.view(torch.uint8))
        actual = (a.to(device) @ b.to(device)).cpu()
        assert torch.equal(actual.view(torch.uint8), expected.view(torch.uint8))


def test_promotion_with_other_dtypes_is_refused_as_on_the_cpu(device):
    u = torch.tensor([1, 2], dtype=torch.uint16)
    f8 = torch.tensor([1.0, 2.0]).to(torch.float8_e4m3fn)
    for a, b in [(u, torch.tensor([1, 2])), (u, torch.tensor([1, 2], dtype=torch.uint8))]:
        with pytest.raises(RuntimeError, match="Promotion for uint16, uint32, uint64 types"):
            a.to(device) + b.to(device)
    with pytest.raises(RuntimeError, match="Promotion for Float8 Types is not supported"):
        f8.to(device) * torch.tensor([1.0, 2.0], device=device)
    # With floats and Python numbers they promote.
    assert torch.equal(
        (u.to(device) * torch.tensor([0.5, 1.0], device=device)).cpu(), u * torch.tensor([0.5, 1.0])
    )
    assert torch.equal((u.to(device) * 3).cpu(), u * 3)


def test_float8_e8m0_has_no_zero_so_masks_are_refused(device):
    a = torch.tensor([1.0, 4.0]).to(torch.float8_e8m0fnu).to(device)
    mask = torch.tensor([True, False], device=device)
    with pytest.raises(NotImplementedError, match="masked_fill"):
        a.masked_fill(mask, 1.0)


def test_a_dtype_without_kernels_raises_not_implemented(device):
    a = torch.zeros(4, dtype=torch.float4_e2m1fn_x2).to(device)
    with pytest.raises(NotImplementedError, match="Float4_e2m1fn_x2"):
        a == a  # noqa: B015 (a TypeError here would make Python compare identities)
    with pytest.raises(NotImplementedError, match="Float4_e2m1fn_x2"):
        torch.cat([a, a])


def scaled_mm_operands(m, k, n, dtype, rowwise, seed=0):
    g = torch.Generator().manual_seed(seed)
    a = torch.randint(-8, 9, (m, k), generator=g).float().to(dtype)
    # `b` column-major, as CUDA's kernels want it.
    b = torch.randint(-8, 9, (n, k), generator=g).float().to(dtype).t()
    if rowwise:
        scale_a = 2.0 ** torch.randint(-3, 4, (m, 1), generator=g).float()
        scale_b = 2.0 ** torch.randint(-3, 4, (1, n), generator=g).float()
    else:
        scale_a, scale_b = torch.tensor(0.5), torch.tensor(4.0)
    return a, b, scale_a, scale_b


@pytest.mark.parametrize("rowwise", [False, True], ids=["tensorwise", "rowwise"])
@pytest.mark.parametrize(
    "out_dtype", [torch.bfloat16, torch.float32, torch.float16, torch.float8_e4m3fn], ids=str
)
def test_scaled_mm_matches_the_cpu(device, rowwise, out_dtype):
    a, b, scale_a, scale_b = scaled_mm_operands(37, 64, 24, torch.float8_e4m3fn, rowwise)
    bias = torch.randn(24).to(torch.bfloat16) if out_dtype != torch.float8_e4m3fn else None
    scale_result = torch.tensor(8.0) if out_dtype == torch.float8_e4m3fn else None
    args = (a, b, scale_a, scale_b, bias, scale_result, out_dtype)
    # The CPU's emulation: operands widened and scaled, one float32 product (exact here),
    # the bias, the result scale for a float8 output, one rounding.
    product = (a.float() * scale_a) @ (b.float() * scale_b)
    if bias is not None:
        product += bias
    if scale_result is not None:
        product *= torch.reciprocal(scale_result)
    expected = product.to(out_dtype)
    if not rowwise:  # the CPU's oneDNN path, where it takes it, takes tensor-wise scales only
        assert torch.equal(torch._scaled_mm(*args).view(torch.uint8), expected.view(torch.uint8))
    on_device = [t.to(device) if isinstance(t, torch.Tensor) else t for t in args]
    for actual in run_in_threads(lambda: torch._scaled_mm(*on_device).cpu(), repeats=1):
        assert actual.dtype == expected.dtype and actual.shape == expected.shape
        assert torch.equal(actual.view(torch.uint8), expected.view(torch.uint8))
    out = torch.empty(0, dtype=out_dtype, device=device)
    torch._scaled_mm(*on_device, out=out)
    assert torch.equal(out.cpu().view(torch.uint8), expected.view(torch.uint8))


def test_scaled_mm_refuses_as_the_cpu(device):
    a, b, scale_a, scale_b = scaled_mm_operands(4, 8, 4, torch.float8_e5m2, False)
    on = [t.to(device) for t in (a, b, scale_a, scale_b)]
    with pytest.raises(ValueError, match="Invalid scaling configuration"):
        torch._scaled_mm(on[0], on[1], on[2].double(), on[3])
    with pytest.raises(RuntimeError, match="Expected mat1 to be Float8 matrix got Float"):
        torch._scaled_mm(on[0].float(), on[1].float(), on[2], on[3])
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        torch._scaled_mm(on[0], on[1][:4], on[2], on[3])


@pytest.mark.parametrize("dtype", FLOAT8[:4], ids=str)
def test_compiled_kernels_cast_to_and_from_float8(device, dtype):
    def quantize(x, scale):
        return (x * scale).clamp(-200, 200).to(dtype)

    def dequantize(q, scale):
        return q.float() / scale + 1

    x = landmarks()
    x = x[torch.isfinite(x)]
    scale = torch.tensor(0.37)
    q = quantize(x, scale)
    actual = torch.compile(quantize)(x.to(device), scale.to(device)).cpu()
    assert torch.equal(actual.view(torch.uint8), q.view(torch.uint8))
    back = torch.compile(dequantize)(q.to(device), scale.to(device)).cpu()
    assert torch.equal(back, dequantize(q, scale))


@pytest.mark.parametrize("dtype", UNSIGNED, ids=str)
def test_full_range_unsigned_sorts_and_reductions(device, dtype):
    """Keys with the top bit set (where a signed key would order them first), past the
    sort's tiles and the reductions' workgroups, against numpy."""
    np = pytest.importorskip("numpy")
    np_dtype = {torch.uint16: np.uint16, torch.uint32: np.uint32, torch.uint64: np.uint64}[dtype]
    top = np.iinfo(np_dtype).max
    values = np.random.default_rng(1).integers(0, top, size=70_001, dtype=np_dtype, endpoint=True)
    values[:4] = [0, top, top - 1, (top >> 1) + 1]
    signed = {2: torch.int16, 4: torch.int32, 8: torch.int64}[values.itemsize]
    x = torch.from_numpy(values.view(f"int{8 * values.itemsize}")).view(dtype)

    def as_numpy(t):
        return t.cpu().view(signed).numpy().view(np_dtype)

    def run():
        on = x.to(device)
        s = on.sort()
        return s.values, s.indices, on.sort(descending=True).values, on.unique(), on.argmax()

    for ascending, indices, descending, unique, argmax in run_in_threads(run, repeats=1):
        assert np.array_equal(as_numpy(ascending), np.sort(values))
        assert np.array_equal(indices.cpu().numpy(), np.argsort(values, kind="stable"))
        assert np.array_equal(as_numpy(descending), np.sort(values)[::-1])
        assert np.array_equal(as_numpy(unique), np.unique(values))
        assert argmax.item() == int(values.argmax())


def test_float8_scalars_read_from_host_tensors(device):
    """A zero-dimensional CPU float8 tensor used as a fill value is read on the host."""
    patterns = torch.arange(256, dtype=torch.uint8)
    for dtype in FLOAT8:
        values = patterns.view(dtype)
        out = torch.empty(256, device=device)
        for i in range(256):
            out[i : i + 1].fill_(values[i])
        actual, expected = out.cpu(), values.float()
        assert ((actual == expected) | (actual.isnan() & expected.isnan())).all(), dtype


def test_float8_conversion_past_one_grid_row(device):
    """More elements than one dispatch row of 65,535 workgroups of 64 invocations covers,
    with a tail that is not a multiple of four bytes."""
    n = 65535 * 64 * 4 + 7
    x = torch.randn(n, generator=torch.Generator().manual_seed(3)) * 300
    expected = x.to(torch.float8_e4m3fn)
    actual = x.to(device).to(torch.float8_e4m3fn)
    assert torch.equal(actual.cpu().view(torch.uint8), expected.view(torch.uint8))
    # Past 464 the format's NaN; equal NaN positions.
    widened, wanted = actual.float().cpu(), expected.float()
    assert wanted.isnan().any()
    assert torch.equal(widened.isnan(), wanted.isnan())
    assert torch.equal(widened.nan_to_num(0.0), wanted.nan_to_num(0.0))
