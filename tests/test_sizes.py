"""Sizes on both sides of the limits of the kernels' work splitting, against stock PyTorch on the
CPU.

The software device (Mesa llvmpipe) silently stops a shader invocation after 65,535 loop
iterations, all loops of the invocation together, so a kernel whose invocations loop over whole
rows or tensors gives wrong results past some size. The limits the kernels are built around:

- reductions: 8,192 elements per workgroup, then passes over the partials (two levels above
  8,192 partials, i.e. above 8192 * 8192 elements); 64 threads x 65,535 iterations = 4,194,240;
  strided columns and short rows of many outputs: 1,024 elements per invocation, then partials
- scans (cumsum, cumprod): chunks of 2,048 elements per line, joined by a carry
- sorts: ranking up to 64 elements per line; above, radix passes over tiles of 2,048
  elements (merge passes for float64); on the software device, one pass of 9 or 10 bits
  (an accumulating scatter's keys) takes tiles of 8 keys per digit (4,096 or 8,192)
- masked_select / nonzero: through a cumsum of the mask
- accumulating kernels (index_add_, index_put_ with accumulate, scatter_reduce, embedding
  backward): at most 16,000 run positions per launch
- GEMM: k in chunks of 16,384; every kernel: grids of at most 65,535 workgroups of 64 threads
  in x (4,194,240 invocations), then rows in y (each pattern is run past that: maps,
  reductions, scans over many lines, merge passes, selection, accumulation into many outputs)

Inputs are made so that a lost element changes the result (a spike at the end of each reduced
line, integer-valued floats whose sums are exact). Exact comparisons where PyTorch is exact;
float32 sums against a float64 reference with a tolerance that grows with the size.

Bigger sizes (2^24 elements, two grid rows, 8192 * 8193, a 2^31-byte tensor) are marked `large`
and run only with `pytest -m large`.
"""

import functools
import math

import pytest
import torch
import torch.nn.functional as F
from threads import run_in_threads

from torch_mojo_backend import _C

GRID = 65535 * 64  # elements one dispatch row of 64-thread workgroups covers


def large(*values):
    """A parameter set that runs only with `-m large`."""
    return pytest.param(*values, marks=pytest.mark.large)


REDUCE_SIZES = [8191, 8192, 8193, 65535, 65536, 65537, 1_000_003, GRID, GRID + 1]
REDUCE_SIZES += [large(8192 * 8192 + 1), large(8192 * 8193), large(2**24), large(2 * GRID + 1)]
MAP_SIZES = [1, 8193, 65537, 1_000_003, GRID, GRID + 1, large(2 * GRID), large(2 * GRID + 1)]
MAP_SIZES += [large(2**24)]
SCAN_SIZES = [2047, 2048, 2049, 4095, 4096, 4097, 65535, 65536, 65537, 1_000_003, large(2**24)]
SORT_SIZES = [64, 65, 2047, 2048, 2049, 4095, 4096, 4097, 8193, 65537, large(2**20 + 1)]
SELECT_SIZES = [4097, 65535, 65536, 65537, 1_000_003, GRID + 1, large(2**24)]


def within_device_limits(test):
    """Skips, rather than fails, a test whose tensor the device refuses as too big for one
    buffer: a documented refusal, met only by `large` sizes."""

    @functools.wraps(test)
    def run(*args, **kwargs):
        try:
            return test(*args, **kwargs)
        except (NotImplementedError, torch.OutOfMemoryError) as error:
            if "device's largest" not in str(error):
                raise
            pytest.skip(str(error).splitlines()[0])

    return run


# ---------------------------------------------------------------------------------------------
# Inputs and comparisons


def gen(seed):
    return torch.Generator().manual_seed(seed)


def uniform(shape, seed=0):
    return torch.rand(shape, generator=gen(seed))


def ints(low, high, shape, seed=0, dtype=torch.int64):
    shape = (shape,) if isinstance(shape, int) else shape
    return torch.randint(low, high, shape, generator=gen(seed), dtype=dtype)


def last_along(x, dim):
    """The last element of each line along `dim` (the whole tensor's last one for None), a view."""
    if dim is None:
        return x.view(-1)[-1:]
    return x.narrow(dim, x.shape[dim] - 1, 1)


def line_length(x, dim):
    return x.numel() if dim is None else x.shape[dim]


def launches() -> dict[str, int]:
    return dict(_C.launch_counts())


def assert_same(actual, expected):
    """Same dtype, shape and values (NaN equal to NaN)."""
    torch.testing.assert_close(actual.cpu(), expected, rtol=0, atol=0, equal_nan=True)


def assert_near(actual, expected, rtol, atol=0.0):
    """Within rtol of a (possibly float64) reference, compared in the result's dtype."""
    expected = expected.to(actual.dtype)
    torch.testing.assert_close(actual.cpu(), expected, rtol=rtol, atol=atol, equal_nan=True)


def sum_rtol(n):
    """Relative tolerance for a float32 sum of n positive values against float64."""
    return 2e-6 * max(1.0, math.log2(n))


def product_rtol(n):
    """Each of n - 1 float32 products rounds once; near 1 the roundings are biased (the CPU's
    own float32 product drifts by 1.3e-4 at 4M elements, a sequential one by 1.3e-3)."""
    return 1e-5 + 5e-10 * n


# ---------------------------------------------------------------------------------------------
# Maps


def every_other_tripled(t):
    """An in-place update through a view with a step; the other elements must stay."""
    t = t.clone()
    t[1::2].mul_(3)
    return t


# name: (make an input of about n elements, op)
STRIDED_MAPS = {
    "transposed": (lambda n: uniform((3, n // 3 + 1)), lambda t: t.t() * 2 + 1),
    "step": (lambda n: uniform(3 * n), lambda t: t[1::3] - t[::3]),
    "expanded": (
        lambda n: uniform((1, n // 4 + 1)),
        lambda t: t.expand(4, -1) + torch.arange(4, device=t.device).view(4, 1),
    ),
    "strided_out": (lambda n: uniform(2 * n), every_other_tripled),
    # Three dimensions after coalescing, inner sizes below and above a grid stride's steps:
    # each invocation's coordinates carry from the column into the middle and the plane.
    "permuted_3d": (lambda n: uniform((n // 35 + 1, 5, 7)), lambda t: t.permute(2, 0, 1) - 1),
    "planes_3d": (lambda n: uniform((2, n // 600 + 1, 300)), lambda t: t.transpose(0, 1) * 3),
}


@pytest.mark.parametrize("n", MAP_SIZES)
def test_contiguous_maps(device, n):
    a, b, i = uniform(n, 1), uniform(n, 2), ints(-1000, 1000, n, 3)
    ours_a, ours_b = a.to(device), b.to(device)
    assert_same(ours_a + ours_b, a + b)
    assert_same(torch.where(ours_a > 0.5, ours_a, -ours_b), torch.where(a > 0.5, a, -b))
    assert_same(i.to(device) * 3 - 7, i * 3 - 7)


@pytest.mark.parametrize("n", MAP_SIZES)
def test_contiguous_narrow_maps(device, n):
    # Four elements under four bytes are one or two whole words per work item.
    a, b = ints(0, 256, n, 1, dtype=torch.uint8), uniform(n, 2)
    ours_a, ours_b = a.to(device), b.to(device)
    assert_same(ours_a + ours_a.flip(0), a + a.flip(0))
    assert_same(ours_b > 0.5, b > 0.5)
    assert_same(ours_b.half() * ours_a, b.half() * a)


@pytest.mark.parametrize("n", MAP_SIZES[1:])
@pytest.mark.parametrize("layout", STRIDED_MAPS)
@within_device_limits
def test_strided_maps(device, n, layout):
    make, op = STRIDED_MAPS[layout]
    x = make(n)
    assert_same(op(x.to(device)), op(x))


# ---------------------------------------------------------------------------------------------
# Reductions: full (dim None) and along one dim


def over(x, dim):
    return tuple(range(x.ndim)) if dim is None else dim


def prod_exact(shape, dim=None, seed=0, dtype=torch.float32):
    """Mostly ones and minus ones, with about 30 twos (and halves for floats) per tensor and a
    two at the end of each line along `dim`, so that every product, prefix products too, is
    exact and far from overflowing."""
    x = torch.where(uniform(shape, seed) < 0.01, -1, 1).to(dtype)
    flat = x.view(-1)
    stride = max(1, flat.numel() // 30)
    flat[stride - 1 :: stride] = 2
    if dtype.is_floating_point:
        flat[stride // 2 :: stride] = 0.5
    last_along(x, dim).fill_(2)
    return x


def exact_sum_ints(shape, dim=None):
    """Integers 0..3 as floats, thinned out on big tensors so that every partial sum, in any
    order, stays below 2^24 and is exact in float32."""
    x = ints(0, 4, shape, dtype=torch.float32)
    n = x.numel()
    if n > 2**22:
        x *= uniform(shape, 1) < 2**22 / n
    return x


def near_one(shape, dim):
    """Values within 1/1024 of 1 (products stay in range), 1.5 at the end of every line."""
    x = uniform(shape).sub_(0.5).mul_(2**-9).add_(1)
    last_along(x, dim).fill_(1.5)
    return x


def spiked(shape, dim, value, seed=0):
    """Uniform values with `value` at the end of every reduced line."""
    x = uniform(shape, seed)
    last_along(x, dim).fill_(value)
    return x


def with_ties(shape, dim, value):
    """Uniform values with `value` at three places of every line, the first of them past the
    first workgroup's chunk and in the second half when the line is long."""
    x = uniform(shape)
    m = line_length(x, dim)
    for at in (m // 2 + 1, (3 * m) // 4, m - 1):
        if dim is None:
            x.view(-1)[at] = value
        else:
            x.select(dim, at).fill_(value)
    return x


def prod(x, dim):
    return x.prod() if dim is None else x.prod(dim)


# name: (make input, op, how to compare: "exact", or the rtol against float64 for line length m)
REDUCTIONS = {
    "sum_exact": (exact_sum_ints, lambda x, d: x.sum(over(x, d)), "exact"),
    "sum_int64": (lambda s, d: ints(-1000, 1000, s), lambda x, d: x.sum(over(x, d)), "exact"),
    "sum": (lambda s, d: uniform(s), lambda x, d: x.sum(over(x, d)), sum_rtol),
    "mean": (lambda s, d: spiked(s, d, 1e6), lambda x, d: x.mean(over(x, d)), sum_rtol),
    "prod": (near_one, prod, product_rtol),
    "prod_exact": (prod_exact, prod, "exact"),
    "amax": (lambda s, d: spiked(s, d, 2.0), lambda x, d: x.amax(over(x, d)), "exact"),
    "amin": (lambda s, d: spiked(s, d, -1.0), lambda x, d: x.amin(over(x, d)), "exact"),
    "amax_nan": (lambda s, d: spiked(s, d, math.nan), lambda x, d: x.amax(over(x, d)), "exact"),
    "argmax": (lambda s, d: spiked(s, d, 2.0), torch.argmax, "exact"),
    "argmin": (lambda s, d: spiked(s, d, -1.0), torch.argmin, "exact"),
    "argmax_ties": (lambda s, d: with_ties(s, d, 2.0), torch.argmax, "exact"),
    "argmin_ties": (lambda s, d: with_ties(s, d, -1.0), torch.argmin, "exact"),
    "argmax_nan": (lambda s, d: spiked(s, d, math.nan), torch.argmax, "exact"),
    "argmin_nan": (lambda s, d: spiked(s, d, math.nan), torch.argmin, "exact"),
    "var": (lambda s, d: spiked(s, d, 1e3), lambda x, d: x.var(over(x, d)), sum_rtol),
    "std": (lambda s, d: spiked(s, d, 1e3), lambda x, d: x.std(over(x, d)), sum_rtol),
    "var_mean": (
        lambda s, d: spiked(s, d, 1e3),
        lambda x, d: torch.stack(torch.var_mean(x, over(x, d))),
        sum_rtol,
    ),
    "logsumexp": (
        lambda s, d: spiked(s, d, 2.5).mul_(10),  # exp(25): as much as the rest, or more
        lambda x, d: x.logsumexp(over(x, d)),
        sum_rtol,
    ),
    "norm": (lambda s, d: spiked(s, d, 1e4), lambda x, d: x.norm(dim=over(x, d)), sum_rtol),
    "any": (lambda s, d: spiked(s, d, 2.0).gt(1.0), lambda x, d: x.any(over(x, d)), "exact"),
    "all": (lambda s, d: spiked(s, d, -1.0).ge(0.0), lambda x, d: x.all(over(x, d)), "exact"),
    "count_nonzero": (
        lambda s, d: ints(0, 2, s, dtype=torch.float32),
        lambda x, d: x.count_nonzero(d),
        "exact",
    ),
}

# (shape, dim): short and long rows, columns, few long rows
DIM_CASES = [((3, 8193), 1), ((3, 70000), -1), ((70000, 3), 0), ((4, 300_000), 1)]
# Columns of many outputs (an invocation per output and chunk of 1,024: one chunk, two, and
# several), short rows of many outputs, and a middle dimension.
DIM_CASES += [((1024, 300), 0), ((1025, 300), 0), ((1000, 130), 0), ((3000, 257), 0)]
DIM_CASES += [((300, 32), 1), ((300, 33), 1), ((60, 40, 70), 1)]
# Rows summed 16 elements a step from 16-byte loads: whole steps and a tail of four.
DIM_CASES += [((64, 52), 1)]
# Float32 column sums of 32 neighbouring outputs per invocation: a last span of one four and
# of seven, three chunks, and a single four.
DIM_CASES += [((3000, 260), 0), ((1100, 284), 0), ((2050, 4), 0)]
# On the software device a row's chunk grows from 1,024 to 4,096 elements while 2,048 work
# items remain, and reductions of at most 65,536 elements with rows up to 4,096 take one
# launch: both sides of that bound, and chunks of exactly 4,096 with a last chunk of one
# (2,049 rows of 4,097 are costly: a few reductions only).
DIM_CASES += [((16, 4096), 1), ((16, 4097), 1), ((17, 3900), 1)]
# Many short rows (70,000 outputs, ~1 s a test on 2 cores) and two rows past one grid row: a few
# of the reductions only.
COSTLY_DIM_CASES = [((70000, 5), 1), ((5, 70000), 0), ((2, GRID + 1), 1)]
COSTLY_DIM_CASES += [((2048, 4096), 1), ((2049, 4097), 1)]
SOME_REDUCTIONS = ["sum_exact", "amax_nan", "argmax_ties", "var_mean", "logsumexp", "all"]
DIM_PARAMS = [(name, *case) for name in REDUCTIONS for case in DIM_CASES]
DIM_PARAMS += [(name, *case) for name in SOME_REDUCTIONS for case in COSTLY_DIM_CASES]
# Short rows past one grid row of outputs (an invocation each: more than 65,535 groups).
DIM_PARAMS += [large(name, (GRID + 1, 3), 1) for name in SOME_REDUCTIONS]
# Column sums of 32 outputs per invocation over a tensor past the software device's 128 MiB
# binding (bound in windows), and past one grid row of 32s (65,536 groups: 1 GiB, large only).
DIM_PARAMS += [("sum_exact", (2, 4 * GRID + 4), 0), large("sum_exact", (2, 32 * GRID + 32), 0)]


def check_reduction(device, name, shape, dim):
    make, op, rule = REDUCTIONS[name]
    x = make(shape, dim)
    actual = op(x.to(device), dim)
    if rule == "exact":
        assert_same(actual, op(x, dim))
    else:
        assert_near(actual, op(x.double(), dim), rtol=rule(line_length(x, dim)))


@pytest.mark.parametrize("n", REDUCE_SIZES)
@pytest.mark.parametrize("name", REDUCTIONS)
@within_device_limits
def test_full_reduction(device, name, n):
    check_reduction(device, name, n, None)


@pytest.mark.parametrize("name, shape, dim", DIM_PARAMS, ids=str)
def test_dim_reduction(device, name, shape, dim):
    check_reduction(device, name, shape, dim)


@pytest.mark.parametrize("offset", range(4))
@pytest.mark.parametrize("width", [300, 301])
def test_column_sums_of_views(device, offset, width):
    # A view whose rows start 16 bytes aligned (offset 0, even width) takes four columns per
    # invocation; the others one: both sum as the CPU does in float64, within float32's error.
    base = torch.randn(1100 * width + offset)
    x = base[offset:].view(1100, width)[:, :296]
    expected = x.double().sum(0)
    actual = base.to(device)[offset:].view(1100, width)[:, :296].sum(0)
    assert_near(actual, expected, rtol=1e-5, atol=1e-3)


# Above 8192 * 8192 elements the partials need a second pass of their own. Bytes keep such a
# tensor small.
BYTE_REDUCTIONS = {
    "sum": lambda x: x.sum(),
    "amax": lambda x: x.amax(),
    "argmax": lambda x: x.argmax(),
    "argmin": lambda x: x.argmin(),
    "count_nonzero": lambda x: x.count_nonzero(),
    "any": lambda x: x.bool().any(),
    "all": lambda x: x.bool().all(),
}


@pytest.mark.large
@pytest.mark.parametrize("n", [8192 * 8192 + 1, 8192 * 8193])
@pytest.mark.parametrize("name", BYTE_REDUCTIONS)
def test_two_level_reduction_of_bytes(device, name, n):
    x = ints(1, 200, n, dtype=torch.uint8)
    x[n // 2] = 0  # all() and argmin() see it
    x[-1] = 255  # amax() and argmax() see it
    op = BYTE_REDUCTIONS[name]
    assert_same(op(x.to(device)), op(x))


# ---------------------------------------------------------------------------------------------
# Scans


# name: (make input of a shape, op along a dim, rule as for reductions)
SCANS = {
    "cumsum_float_exact": (lambda s: ints(-3, 4, s, dtype=torch.float32), torch.cumsum, "exact"),
    "cumsum_int64": (lambda s: ints(-1000, 1000, s), torch.cumsum, "exact"),
    "cumsum_float": (uniform, torch.cumsum, lambda m: 1e-5 + 1e-7 * math.sqrt(m)),
    "cumprod_float": (prod_exact, torch.cumprod, "exact"),
    "cumprod_int64": (lambda s: prod_exact(s, dtype=torch.int64), torch.cumprod, "exact"),
}

SCAN_SHAPES = [((70000, 3), 0), ((3, 70000), 1), ((70000, 5), 1), ((5, 70000), 0), ((4097, 2), 0)]
SCAN_SHAPES += [((GRID + 1, 1), 1)]  # more lines than one grid row of invocations


def check_scan(device, name, shape, dim):
    make, op, rule = SCANS[name]
    x = make(shape)
    actual = op(x.to(device), dim)
    if rule == "exact":
        assert_same(actual, op(x, dim))
    else:
        assert_near(actual, op(x.double(), dim), rtol=rule(x.shape[dim]), atol=1e-5)


@pytest.mark.parametrize("n", SCAN_SIZES)
@pytest.mark.parametrize("name", SCANS)
def test_scan_one_line(device, name, n):
    check_scan(device, name, n, 0)


@pytest.mark.parametrize("shape, dim", SCAN_SHAPES, ids=str)
@pytest.mark.parametrize("name", SCANS)
def test_scan_lines(device, name, shape, dim):
    check_scan(device, name, shape, dim)


@pytest.mark.parametrize("offset", [0, 1, 2, 3])
def test_cumsum_at_every_alignment(device, offset):
    """Float32 lines are scanned four elements per 16-byte access where a chunk starts
    aligned, one by one where not: views starting 0-3 elements into their storage, lines of
    4,099 (each line's start aligned differently), exact integer-valued sums."""
    x = ints(-3, 4, (3, 4100), dtype=torch.float32)
    ours = x.to(device)
    for view, theirs in [
        (ours.view(-1)[offset:], x.view(-1)[offset:]),
        (ours[:, offset:], x[:, offset:]),
    ]:
        assert_same(view.cumsum(-1), theirs.cumsum(-1))
    lines = x.view(-1)[offset : offset + 3 * 4099].view(3, 4099)
    assert_same(lines.to(device).cumsum(1), lines.cumsum(1))


def test_ones_cumsum_reaches_the_length(device):
    assert torch.ones(65535, device=device).cumsum(0)[-1].item() == 65535


# ---------------------------------------------------------------------------------------------
# Sorting and selection by rank


def with_duplicates_and_nan(shape, seed=0):
    """Integers 0..99 as floats (many duplicates) with NaN at about one place in 50."""
    x = ints(0, 100, shape, seed, dtype=torch.float32)
    return x.masked_fill_(uniform(shape, seed + 1) < 0.02, math.nan)


@pytest.mark.parametrize("n", SORT_SIZES)
@pytest.mark.parametrize("descending", [False, True], ids=["ascending", "descending"])
def test_stable_sort(device, n, descending):
    x = with_duplicates_and_nan(n)
    values, indices = x.to(device).sort(stable=True, descending=descending)
    expected = x.sort(stable=True, descending=descending)
    assert_same(values, expected.values)
    assert_same(indices, expected.indices)


def edge_values(dtype):
    """The values whose radix keys are special for `dtype`: its extremes, both zeros, the
    smallest subnormals, infinities and NaN of both signs, small integers."""
    if dtype == torch.bool:
        return torch.tensor([False, True])
    if dtype.is_floating_point:
        info = torch.finfo(dtype)
        specials = [-math.inf, info.min, -1.5, -1.0, -info.tiny, -0.0, 0.0, info.tiny, 1.0]
        specials += [info.max, math.inf, math.nan, -math.nan, 2.5, -2.5, info.eps]
        subnormal = torch.tensor(info.tiny, dtype=dtype) / 4
        return torch.cat(
            [torch.tensor(specials, dtype=dtype), subnormal.view(1), -subnormal.view(1)]
        )
    info = torch.iinfo(dtype)
    values = [info.min, info.min + 1, -1, 0, 1, 2, info.max - 1, info.max]
    if dtype == torch.int64:
        values += [2**32, -(2**32), 2**32 - 1, 2**40 + 7, -(2**40) - 7]
    return torch.tensor([v for v in values if info.min <= v <= info.max], dtype=dtype)


RADIX_DTYPES = [
    torch.float32,
    torch.float16,
    torch.bfloat16,
    torch.int64,
    torch.int32,
    torch.int16,
    torch.int8,
    torch.uint8,
    torch.bool,
]


@pytest.mark.parametrize("dtype", RADIX_DTYPES, ids=str)
@pytest.mark.parametrize("descending", [False, True], ids=["ascending", "descending"])
def test_radix_sort_keys(device, dtype, descending):
    """Every dtype's radix key orders its edge values as the CPU's stable sort, ties (-0 and
    +0, NaNs of either sign) kept in order, over two lines of a few tiles each."""
    edges = edge_values(dtype)
    x = edges[ints(0, len(edges), (2, 5000))]
    values, indices = x.to(device).sort(dim=1, stable=True, descending=descending)
    expected = x.sort(dim=1, stable=True, descending=descending)
    assert_same(values, expected.values)
    assert_same(indices, expected.indices)


@pytest.mark.parametrize("dtype", [d for d in RADIX_DTYPES if d != torch.bool], ids=str)
@pytest.mark.parametrize("largest", [True, False], ids=["largest", "smallest"])
def test_radix_select(device, dtype, largest):
    """topk and kthvalue of lines of 1,024 or more select by radix passes: the values of
    the CPU's topk/kthvalue, and among equal keys (ties, -0 and +0, NaNs) the indices of a
    stable sort's first k, along the last dimension and along the first."""
    edges = edge_values(dtype)
    x = edges[ints(0, len(edges), (3, 3000))]
    for data, dim in [(x, 1), (x.t().contiguous(), 0), (x[:, :1024], 1)]:
        order = data.sort(dim=dim, stable=True, descending=largest)
        for k in [1, 7, 1000, data.shape[dim]]:
            values, indices = data.to(device).topk(k, dim=dim, largest=largest)
            assert_same(values, data.topk(k, dim=dim, largest=largest).values)
            assert_same(indices, order.indices.narrow(dim, 0, k))
        if largest:
            continue
        for k in [1, 500, data.shape[dim]]:
            values, indices = data.to(device).kthvalue(k, dim=dim, keepdim=dim == 0)
            expected = data.kthvalue(k, dim=dim, keepdim=dim == 0)
            assert_same(values, expected.values)
            kth = order.indices.narrow(dim, k - 1, 1)
            assert_same(indices, kth if dim == 0 else kth.squeeze(dim))


# (2, GRID // 2 + 1): lines of a thousand radix tiles (5 s).
SORT_LINES = [((3, 4097), 1), ((4097, 3), 0), ((70000, 8), 1), ((2, GRID // 2 + 1), 1)]


@pytest.mark.parametrize("shape, dim", SORT_LINES, ids=str)
def test_sort_lines(device, shape, dim):
    x = with_duplicates_and_nan(shape)
    values, indices = x.to(device).sort(dim=dim, stable=True)
    expected = x.sort(dim=dim, stable=True)
    assert_same(values, expected.values)
    assert_same(indices, expected.indices)


# On the software device a radix pass has groups of 8 invocations, one tile each: 524,289
# lines of one tile are 65,537 groups, past one grid row (uint8 keys keep it at 34 MB; the
# int64 indices go through binding windows). 4 s.
@pytest.mark.large
def test_radix_tiles_past_one_grid_row_of_small_groups(device):
    x = ints(0, 5, (524_289, 65), dtype=torch.uint8)
    values, indices = x.to(device).sort(dim=1, stable=True)
    expected = x.sort(dim=1, stable=True)
    assert_same(values, expected.values)
    assert_same(indices, expected.indices)


@pytest.mark.parametrize("n", [65, 4097, 65537])
def test_float64_sort_by_merging(device, n):
    x = with_duplicates_and_nan(n).double()
    values, indices = x.to(device).sort(stable=True, descending=True)
    expected = x.sort(stable=True, descending=True)
    assert_same(values, expected.values)
    assert_same(indices, expected.indices)


@pytest.mark.parametrize("n", SORT_SIZES)
def test_argsort_int64_descending(device, n):
    x = ints(-50, 50, n)
    assert_same(
        x.to(device).argsort(stable=True, descending=True), x.argsort(stable=True, descending=True)
    )


@pytest.mark.parametrize("dtype", [d for d in RADIX_DTYPES if d != torch.bool], ids=str)
@pytest.mark.parametrize("largest", [True, False], ids=["largest", "smallest"])
def test_top_tiles(device, dtype, largest):
    """topk with k up to 64 keeps the best k of tiles of 4,096 elements in rounds, lines
    longer than a tile first bounded by a sample: ties, -0 and +0 and NaNs take a stable
    sort's indices, along either dimension, in lines of several tiles."""
    edges = edge_values(dtype)
    x = edges[ints(0, len(edges), (3, 9001))]
    # Lines of 9,001 and 9,000 (three tiles), 4,097 (bounded, two tiles) and 4,096 (one).
    lines = [(x, 1), (x.t().contiguous(), 0), (x[:, 1:], 1), (x[:, :4097], 1), (x[:, :4096], 1)]
    for data, dim in lines:
        order = data.sort(dim=dim, stable=True, descending=largest)
        for k in [1, 8, 64]:
            values, indices = data.to(device).topk(k, dim=dim, largest=largest)
            assert_same(values, data.topk(k, dim=dim, largest=largest).values)
            assert_same(indices, order.indices.narrow(dim, 0, k))


# Rising and falling lines (the sample bounds the best least), and a line of a million
# elements (three rounds of tiles).
@pytest.mark.parametrize("n", [300_000, 1_000_003])
@pytest.mark.parametrize("order", ["rising", "falling", "random"])
def test_top_tiles_long_lines(device, n, order):
    x = torch.arange(n, dtype=torch.float32)
    x = {"rising": x, "falling": x.flip(0), "random": x[torch.randperm(n, generator=gen(0))]}[order]
    for largest in [True, False]:
        values, indices = x.to(device).topk(64, largest=largest)
        expected = x.topk(64, largest=largest)
        assert_same(values, expected.values)
        assert_same(indices, expected.indices)


@pytest.mark.parametrize("k, largest", [(5, True), (1000, True), (1000, False)], ids=str)
def test_topk(device, k, largest):
    x = torch.randperm(300_000, generator=gen(0)).float()  # distinct: indices are determined
    values, indices = x.to(device).topk(k, largest=largest)
    expected = x.topk(k, largest=largest)
    assert_same(values, expected.values)
    assert_same(indices, expected.indices)


@pytest.mark.parametrize("n", [4097, 65537])
def test_kthvalue(device, n):
    x = torch.randperm(n, generator=gen(0)).float()
    try:
        values, indices = x.to(device).kthvalue(n // 3)
    except NotImplementedError as error:
        pytest.skip(str(error).splitlines()[0])
    expected = x.kthvalue(n // 3)
    assert_same(values, expected.values)
    assert_same(indices, expected.indices)


@pytest.mark.parametrize("n", SORT_SIZES)
def test_unique(device, n):
    x = ints(0, n // 3, n)
    actual = torch.unique(x.to(device), sorted=True, return_inverse=True, return_counts=True)
    expected = torch.unique(x, sorted=True, return_inverse=True, return_counts=True)
    for ours, theirs in zip(actual, expected, strict=True):
        assert_same(ours, theirs)


# ---------------------------------------------------------------------------------------------
# Masks


def random_mask(shape, seed=0):
    """About half set, with the very last element set."""
    mask = uniform(shape, seed) < 0.5
    mask.view(-1)[-1] = True
    return mask


@pytest.mark.parametrize("n", SELECT_SIZES)
def test_nonzero_and_masked_select(device, n):
    x, mask = uniform(n), random_mask(n)
    assert_same(mask.to(device).nonzero(), mask.nonzero())
    assert_same(x.to(device).masked_select(mask.to(device)), x.masked_select(mask))
    assert_same(x.to(device)[mask.to(device)], x[mask])


@pytest.mark.parametrize("shape", [(3, 70000), (70000, 3)], ids=str)
def test_nonzero_2d(device, shape):
    mask = random_mask(shape)
    assert_same(mask.to(device).nonzero(), mask.nonzero())
    assert_same(mask.float().to(device).count_nonzero(), mask.float().count_nonzero())


@pytest.mark.parametrize("n", SELECT_SIZES)
def test_masked_scatter(device, n):
    x, mask, source = uniform(n), random_mask(n), uniform(n, 5)
    assert_same(
        x.to(device).masked_scatter_(mask.to(device), source.to(device)),
        x.clone().masked_scatter_(mask, source),
    )


def test_masked_scatter_from_an_empty_source(device):
    """An empty source fills nothing: fine while nothing is masked (combinations' gradient of
    a single element), the CPU's error otherwise."""
    x = uniform(70000)
    nothing = torch.zeros(70000, dtype=torch.bool)
    empty = torch.empty(0)
    assert_same(x.to(device).masked_scatter(nothing.to(device), empty.to(device)), x)
    nothing[-1] = True
    with pytest.raises(RuntimeError, match="Number of elements of source < number of ones"):
        x.to(device).masked_scatter(nothing.to(device), empty.to(device))


# ---------------------------------------------------------------------------------------------
# Gather, scatter and accumulation


@pytest.mark.parametrize("n", [65537, 1_000_003, GRID + 1])
def test_gather_and_index_select(device, n):
    src = uniform((70000, 2))
    rows = ints(0, 70000, n)
    assert_same(src.to(device).index_select(0, rows.to(device)), src.index_select(0, rows))
    index = rows.view(-1, 1).expand(-1, 2)
    assert_same(src.to(device).gather(0, index.to(device)), src.gather(0, index))


@pytest.mark.parametrize("n", [65537, GRID + 1])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.uint8], ids=str)
def test_rows_of_four_gathered_and_scattered(device, n, dtype):
    # Rows of four move four elements per work item: more rows than one grid row covers.
    src = uniform((70000, 4)).mul(100).to(dtype)
    rows = ints(0, 70000, n)
    assert_same(src.to(device).index_select(0, rows.to(device)), src.index_select(0, rows))
    out, targets = torch.zeros(n + 3, 4, dtype=dtype), torch.randperm(n + 3, generator=gen(2))[:n]
    ours = out.to(device)
    ours[targets.to(device)] = src[rows].to(device)
    out[targets] = src[rows]
    assert_same(ours, out)


@pytest.mark.parametrize("n", REDUCE_SIZES)
def test_reductions_read_four_at_a_time(device, n):
    # Inputs read four elements a load where a row's chunk starts aligned; small integers sum
    # exactly (float32 accumulation, one rounding into half precision). Rows of 8,193 split
    # into chunks that start inside a 16-byte word (once read from the word's start).
    x = ints(0, 3, n, 4).to(torch.bfloat16)
    ours = x.to(device)
    assert_same(ours.sum(), x.sum())
    assert_same(ours.amax(), x.amax())
    assert_same(ours.count_nonzero(), x.count_nonzero())
    if n > 8193:  # rows longer than one group's chunk of 8,192
        rows = x[: n // 8193 * 8193].view(-1, 8193)
        for dtype in [torch.float32, torch.float16]:
            assert_same(rows.to(dtype).to(device).sum(1), rows.to(dtype).sum(1))


# Each output of today's scatter_ looks at every value: O(n^2), 70 s at 70,000 on 2 cores.
@pytest.mark.parametrize("n", [4097, 8193, large(70000)])
def test_scatter_to_distinct_targets(device, n):
    target, values = torch.randperm(n, generator=gen(1)), uniform(n, 2)
    assert_same(
        torch.zeros(n, device=device).scatter_(0, target.to(device), values.to(device)),
        torch.zeros(n).scatter_(0, target, values),
    )
    assert_same(
        torch.zeros(n, device=device).index_put_((target.to(device),), values.to(device)),
        torch.zeros(n).index_put_((target,), values),
    )


# (number of targets, number of values): everything into one, few into many. The values are
# sorted by target (rank sort up to 64, radix passes above) and each target combines its run,
# at most 16,000 values per launch (5,333 when two dimensions are sorted, as in
# scatter_add_rows): runs of 16,000 and 16,001, and of 70,000 (5 launches; 14 for rows).
ACCUMULATE_CASES = [(1, 16000), (1, 16001), (1, 70000), (100, 70000), (1000, 4097)]


def accumulate_inputs(targets, count, dtype):
    index = ints(0, targets, count)
    index[-1] = targets - 1  # the last value lands too
    values = ints(-3, 4, (count, 2), seed=1, dtype=dtype)  # integer values: exact sums
    return index, values


ACCUMULATE_PARAMS = [
    (how, dtype, *case)
    for how in ["index_add_", "index_put_", "scatter_add_", "scatter_add_rows"]
    for dtype in [torch.float32, torch.int64]
    for case in ACCUMULATE_CASES
] + [("index_add_", torch.float32, 1000, 70000), ("index_add_", torch.float32, 200_003, 100_000)]
# Keys of up to 10 bits sort in one radix pass of that many bits, 11 in two of 8; keys far
# fewer than the values find their runs by binary search.
ACCUMULATE_PARAMS += [("index_add_", torch.float32, t, 300_000) for t in (2, 1024, 1025)]
# On the software device those passes take tiles of 8 keys per digit: 4,096 for 9 bits, 8,192
# for 10; values on both sides of one and of several tiles.
ACCUMULATE_PARAMS += [
    ("index_add_", torch.float32, t, c)
    for t, c in [(512, 4097), (512, 12289), (1000, 8191), (1000, 8192), (1000, 8193), (1000, 24577)]
]


@pytest.mark.parametrize("how, dtype, targets, count", ACCUMULATE_PARAMS, ids=str)
def test_accumulate(device, how, dtype, targets, count):
    index, values = accumulate_inputs(targets, count, dtype)

    def run(dev):
        out, i, v = torch.zeros(targets, 2, dtype=dtype, device=dev), index.to(dev), values.to(dev)
        if how == "index_add_":
            return out.index_add_(0, i, v, alpha=2)
        if how == "index_put_":
            return out.index_put_((i,), v, accumulate=True)
        if how == "scatter_add_rows":
            # An index that differs along the other dimension: that dimension is sorted too.
            return out.scatter_add_(0, torch.stack([i, i.flip(0)], 1), v)
        return out.scatter_add_(0, i.view(-1, 1).expand(-1, 2), v)

    assert_same(run(device), run("cpu"))


@pytest.mark.parametrize("targets", [7, 1000, 1024])
def test_accumulate_floats_in_index_order(device, targets):
    # Each target adds its values in index order, as the CPU does: the same bits, not
    # merely close ones, for float values into few targets.
    index = ints(0, targets, 200_000)
    values = uniform(200_000, 3)
    expected = torch.zeros(targets).index_add_(0, index, values)
    actual = torch.zeros(targets, device=device).index_add_(0, index.to(device), values.to(device))
    assert_same(actual, expected)


# On the software device each invocation of a radix pass counts its tile's keys in 16-bit
# halves of group memory, two digits a word: a tile of 8,192 keys all of one digit fills its
# half to 8,192 without touching its neighbour, low half (digit 0) or high (digit 999).
@pytest.mark.parametrize("target", [0, 999, 998])
def test_accumulate_tiles_of_one_target(device, target):
    index = torch.full((24_577,), target)
    index[::4096] = 1
    values = uniform(24_577, 5)

    def run(dev):
        out = torch.zeros(1000, device=dev)
        return out.index_add_(0, index.to(dev), values.to(dev))

    expected = run("cpu")
    for actual in run_in_threads(lambda: run(device)):
        assert_same(actual, expected)


# Values that land one each (no free dimension), dense and of 4 or 8 bytes, move themselves
# through one radix pass of up to 10 bits (up to 1,023 targets: the digit also holds indices
# out of range), keyed by the index itself, and each target reads its run from the pass's
# counts; 1,024 targets take two passes of computed keys and a permutation. Int32 and int64
# indices are read four at a time where they are aligned (not from the second element on),
# the last few one by one.
VECTOR_CASES = [(2, 70001), (512, 65), (512, 4097), (1000, 8193), (1023, 300_003), (1024, 70000)]


@pytest.mark.parametrize("targets, count", VECTOR_CASES, ids=str)
@pytest.mark.parametrize("dtype", [torch.float32, torch.int32, torch.int64], ids=str)
@pytest.mark.parametrize(
    "how", ["index_add_", "index_add_int32_index", "index_put_wrapped", "scatter_add_", "unaligned"]
)
def test_accumulate_vectors(device, how, dtype, targets, count):
    index = ints(0, targets, count)
    index[-1] = targets - 1
    values = ints(-3, 4, count, seed=1, dtype=dtype)
    if dtype == torch.float32 and how != "index_put_wrapped":
        # Added in index order, as the CPU adds them (its index_put_ does not: integers there).
        values = values + uniform(count, 2)

    def run(dev):
        out, i, v = torch.ones(targets, dtype=dtype, device=dev), index.to(dev), values.to(dev)
        if how == "index_add_":
            return out.index_add_(0, i, v, alpha=2)
        if how == "index_add_int32_index":
            return out.index_add_(0, i.int(), v)
        if how == "index_put_wrapped":
            wrapped = torch.where(i % 3 == 0, i - targets, i)  # every third from the end
            return out.index_put_((wrapped,), v, accumulate=True)
        if how == "scatter_add_":
            return out.scatter_add_(0, i, v)
        return out.index_add_(0, i[1:], v[1:])

    assert_same(run(device), run("cpu"))


@pytest.mark.parametrize("side, count", [(31, 70001), (32, 4099)], ids=str)
def test_accumulate_vectors_by_two_indices(device, side, count):
    """Two index tensors make one computed key per value (31² = 961 targets move the values
    in one pass, 32² = 1,024 sort keys in two), negative ones from the end."""
    rows, cols = ints(-side, side, count), ints(-side, side, count, seed=2)
    values = ints(-3, 4, count, seed=1, dtype=torch.float32)

    def run(dev):
        out = torch.ones(side, side, device=dev)
        return out.index_put_((rows.to(dev), cols.to(dev)), values.to(dev), accumulate=True)

    assert_same(run(device), run("cpu"))


@pytest.mark.parametrize("targets, count", [(2, 70001), (1000, 8193)], ids=str)
@pytest.mark.parametrize("reduce", ["sum", "amax", "mean", "amin", "prod"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_vectors(device, targets, count, reduce, include_self):
    index = ints(0, targets, count)
    values = prod_exact(count) if reduce == "prod" else uniform(count, 1)
    start = torch.full((targets,), 0.5)

    def run(dev):
        x = start.to(dev)
        return x.scatter_reduce(0, index.to(dev), values.to(dev), reduce, include_self=include_self)

    expected = run("cpu")
    if reduce == "mean":  # a division by the count: rounding as the CPU's
        assert_near(run(device), expected, rtol=1e-6)
    else:
        assert_same(run(device), expected)


def test_out_of_range_index_in_a_long_vector_lands_nothing(device):
    """The out-of-range mark sorts past every target, also where the targets fill the digit
    but one (511 targets: 9 bits; 512: the mark's digit 1,023 is past them too)."""
    for targets in (511, 512):
        index = ints(0, targets, 70001)
        index[5] = targets  # out of range
        values = torch.ones(70001)
        out = torch.zeros(targets).to(device)
        out.index_add_(0, index.to(device), values.to(device))
        with pytest.raises(IndexError):
            out.cpu()
        assert out.sum().item() == 70000.0  # the other values landed


# Rows of a multiple of four elements are combined four per work item: rows of 4 and 12,
# rows strided (a transposed output), a mean and a maximum without self, over every run length.
@pytest.mark.parametrize("targets, count", ACCUMULATE_CASES, ids=str)
@pytest.mark.parametrize("how", ["index_add_", "index_put_", "mean", "amax", "transposed"])
@pytest.mark.parametrize("width", [4, 12], ids=lambda w: f"width{w}")
def test_accumulate_rows_four_elements_at_a_time(device, how, width, targets, count):
    index = ints(0, targets, count)
    index[-1] = targets - 1
    dtype = torch.int64 if how == "index_put_" else torch.float32
    values = ints(-3, 4, (count, width), seed=1, dtype=dtype)

    def run(dev):
        out, i, v = (
            torch.ones(targets, width, dtype=dtype, device=dev),
            index.to(dev),
            values.to(dev),
        )
        if how == "index_add_":
            return out.index_add_(0, i, v, alpha=2)
        if how == "index_put_":
            return out.index_put_((i,), v, accumulate=True)
        if how == "transposed":
            return torch.ones(width, targets, device=dev).t().index_add_(0, i, v)
        return out.index_reduce_(0, i, v, how, include_self=False)

    expected = run("cpu")
    if how == "mean":  # a division by the count: rounding as the CPU's
        assert_near(run(device), expected, rtol=1e-6)
    else:
        assert_same(run(device), expected)


def test_accumulate_into_more_outputs_than_one_grid_row(device):
    # One invocation per output element: GRID + 1 of them, duplicates at both ends.
    index = torch.tensor([0, GRID, 7, GRID, 0])
    values = ints(-3, 4, (5,), dtype=torch.float32)
    out = torch.zeros(GRID + 1)
    actual = out.to(device).index_add_(0, index.to(device), values.to(device))
    assert_same(actual, out.index_add_(0, index, values))


@pytest.mark.parametrize("targets, count", [(100, 65), (100, 101)], ids=["by_runs", "by_keys"])
def test_accumulate_work_items_past_one_grid_row(device, targets, count):
    """Each run start (fewer values than targets) or each target (fewer targets than values)
    times the 65,536 free elements of a row: more work items than one grid row takes."""
    index = ints(0, targets, count)
    values = ints(-3, 4, (count, 65536), seed=1, dtype=torch.float32)
    out = torch.zeros(targets, 65536)
    actual = out.to(device).index_add_(0, index.to(device), values.to(device))
    assert_same(actual, out.index_add_(0, index, values))


# Few values into few targets skip the sort: each work item scans every value's key, in index
# order, for its target's (at most 1,024 values and 2^17 key comparisons: targets x values x
# work items per target, where a work item takes four elements of rows a multiple of four
# long). Cases on both sides of each bound.
SCAN_CASES = [
    (1, 1, 1),
    (7, 5, 3),
    (64, 128, 32),
    (64, 1024, 2),
    (64, 1025, 1),
    (128, 1024, 1),
    (129, 1024, 1),
    (128, 1024, 4),
    (128, 1024, 8),
    (1000, 131, 1),
    (1000, 132, 1),
]


def scans(targets, count, width):
    items = width // 4 if width % 4 == 0 else width
    return count <= 1024 and targets * count * items <= 1 << 17


@pytest.mark.parametrize("targets, count, width", SCAN_CASES, ids=str)
@pytest.mark.parametrize("how", ["index_put_wrapped", "index_add_", "amax", "mean", "prod"])
def test_accumulate_by_scanning_keys(device, how, targets, count, width):
    low = -targets if how == "index_put_wrapped" else 0  # negative: from the end
    index = ints(low, targets, count)
    index[-1] = targets - 1
    values = ints(-3, 4, (count, width), seed=1, dtype=torch.float32)
    if how == "prod":
        values = prod_exact((count, width))
    elif how != "index_put_wrapped":
        # Added in index order, as the CPU adds them (its index_put_ does not always: integers
        # there, exact in any order).
        values = values + uniform((count, width))

    def run(dev):
        out, i, v = torch.ones(targets, width, device=dev), index.to(dev), values.to(dev)
        if how == "index_put_wrapped":
            return out.index_put_((i,), v, accumulate=True)
        if how == "index_add_":
            return out.index_add_(0, i, v, alpha=2)
        return out.index_reduce_(0, i, v, how, include_self=False)

    expected = run("cpu")
    before = launches()
    actual = run(device)
    taken = {k for k, n in launches().items() if n != before.get(k, 0)}
    assert ("radix_count" not in taken and "run_starts" not in taken) == scans(
        targets, count, width
    ), taken
    if how == "mean":  # a division by the count: rounding as the CPU's
        assert_near(actual, expected, rtol=1e-6)
    else:
        assert_same(actual, expected)


def test_accumulate_by_scanning_keys_from_threads(device):
    index, values = ints(-64, 64, 128), uniform((128, 32))

    def run(dev):
        out = torch.zeros(64, 32, device=dev)
        return out.index_put_((index.to(dev),), values.to(dev), accumulate=True)

    expected = run("cpu")
    for actual in run_in_threads(lambda: run(device)):
        assert_same(actual, expected)


def test_accumulate_by_scanning_keys_out_of_range(device):
    index = torch.tensor([0, 3, 4, 1])
    out = torch.zeros(4, 4).to(device)
    out.index_put_((index.to(device),), torch.ones(4, 4).to(device), accumulate=True)
    with pytest.raises(IndexError):
        out.cpu()
    assert out.sum().item() == 12.0  # the other values landed


@pytest.mark.parametrize("targets, count", ACCUMULATE_CASES, ids=str)
@pytest.mark.parametrize("reduce", ["sum", "amax", "mean", "amin", "prod"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce(device, targets, count, reduce, include_self):
    index, values = accumulate_inputs(targets, count, torch.float32)
    if reduce == "prod":
        values = prod_exact(values.shape)
    start = torch.full((targets, 2), 0.5)
    index = index.view(-1, 1).expand(-1, 2)

    def run(dev):
        x = start.to(dev)
        return x.scatter_reduce(0, index.to(dev), values.to(dev), reduce, include_self=include_self)

    expected = run("cpu")
    if reduce == "mean":  # a division by the count: rounding as the CPU's
        assert_near(run(device), expected, rtol=1e-6)
    else:
        assert_same(run(device), expected)


@pytest.mark.parametrize("rows, count", [(1, 70000), (100, 70000), (1000, 4097)], ids=str)
def test_embedding_forward_and_backward(device, rows, count):
    index, grad = accumulate_inputs(rows, count, torch.float32)
    weight = uniform((rows, 2))

    def run(dev):
        w = weight.to(dev).requires_grad_()
        out = F.embedding(index.to(dev), w)
        out.backward(grad.to(dev))
        return out.detach(), w.grad

    (out, w_grad), (expected_out, expected_grad) = run(device), run("cpu")
    assert_same(out, expected_out)
    assert_same(w_grad, expected_grad)


# ---------------------------------------------------------------------------------------------
# Softmax, normalisation, losses, matrix products, foreach


@pytest.mark.parametrize(
    "shape, dim",
    [
        ((1, 2**20), 1),
        ((2, 70000), 1),
        ((70000, 5), 1),
        ((5, 70000), 0),
        # Around the chunk one launch reduces and rewrites: a group's 8,192 elements, an
        # invocation's 1,024 (strided rows) and on the software device 4,096, short rows of 32.
        ((3, 4096), 1),
        ((3, 4097), 1),
        ((3, 8192), 1),
        ((3, 8193), 1),
        ((1024, 130), 0),
        ((1025, 130), 0),
        ((200, 32), 1),
        ((200, 33), 1),
    ],
    ids=str,
)
@pytest.mark.parametrize("fn", [F.softmax, F.log_softmax], ids=["softmax", "log_softmax"])
def test_softmax(device, shape, dim, fn):
    x = uniform(shape).mul_(20)
    last_along(x, dim).fill_(30.0)  # the largest: the row's maximum must see it
    assert_near(fn(x.to(device), dim), fn(x.double(), dim), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("width", [5, 300, 4097])
@pytest.mark.parametrize("fn", [F.softmax, F.log_softmax], ids=["softmax", "log_softmax"])
def test_softmax_of_special_rows(device, width, fn):
    # A softmax row keeps exp(x - max) as it sums it, then scales it: a row holding +inf is NaN
    # throughout (exp(inf - inf)), as are rows of -inf and rows holding NaN, as on the CPU.
    # Rows of one launch (5, 300) and of composed launches (4,097 on the software device).
    x = uniform((6, width)).mul_(20)
    x[1, 2] = float("inf")
    x[2] = float("-inf")
    x[3, 1] = float("nan")
    x[4, :2] = float("-inf")
    expected = fn(x, 1)
    assert_same(fn(x.to(device), 1).isnan(), expected.isnan())
    torch.testing.assert_close(fn(x.to(device), 1).cpu(), expected, equal_nan=True)


@pytest.mark.parametrize("rows", [3, 300])
def test_softmax_into_its_input_and_strided_outputs(device, rows):
    # The stored exponentials go to the output: in place over the input, and through an
    # output's strides (a transposed one).
    x = uniform((rows, 257)).mul_(20)
    expected = F.softmax(x, 1)
    own = x.to(device)
    torch.ops.aten._softmax.out(own, 1, False, out=own)
    torch.testing.assert_close(own.cpu(), expected)
    out = torch.empty(257, rows, device=device).t()
    torch.ops.aten._softmax.out(x.to(device), 1, False, out=out)
    torch.testing.assert_close(out.cpu(), expected)


@pytest.mark.parametrize("shape", [(2, 70000), (2, 2**20), (70000, 16)], ids=str)
def test_layer_norm(device, shape):
    x = spiked(shape, -1, 50.0)
    w, b = uniform(shape[-1], 1), uniform(shape[-1], 2)
    actual = F.layer_norm(x.to(device), shape[-1:], w.to(device), b.to(device))
    expected = F.layer_norm(x.double(), shape[-1:], w.double(), b.double())
    assert_near(actual, expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("rows, classes", [(4, 70000), (70000, 10), (2, 2**20)], ids=str)
def test_cross_entropy(device, rows, classes):
    logits = uniform((rows, classes)).mul_(10)
    target = ints(0, classes, rows)
    target[-1] = classes - 1
    logits[-1, -1] = 40.0
    actual = F.cross_entropy(logits.to(device), target.to(device))
    expected = F.cross_entropy(logits.double(), target)
    assert_near(actual, expected, rtol=1e-5, atol=1e-3)


@pytest.mark.parametrize(
    "m, k, n",
    [(2, 70000, 3), (3, 65537, 1), (2048, 16, 2049), (1, 4097, 4097), (40, 20001, 36)],
    ids=str,
)
def test_matmul(device, m, k, n):
    # Integer values: every partial sum is exact whatever the order.
    a, b = ints(-3, 4, (m, k), dtype=torch.float32), ints(-3, 4, (k, n), 1, dtype=torch.float32)
    assert_same(a.to(device) @ b.to(device), a @ b)
    a, b = uniform((m, k)), uniform((k, n), 1)
    assert_near(a.to(device) @ b.to(device), a.double() @ b.double(), rtol=sum_rtol(k))


def operands(device, rows, cols, along_rows, seed, offset=0, pad=0):
    """An integer-valued float32 [rows, cols] matrix on the CPU and the same view of a copy of
    its storage on `device`: unit stride along its rows (row-major) or down its columns,
    `offset` elements into the storage, each line `pad` elements longer than it."""
    lines, length = (rows, cols) if along_rows else (cols, rows)
    flat = ints(-3, 4, offset + lines * (length + pad), seed, dtype=torch.float32)

    def view(x):
        x = x[offset:].view(lines, length + pad)[:, :length]
        return x if along_rows else x.t()

    return view(flat), view(flat.to(device))


@pytest.mark.parametrize(
    "a_rows, b_rows", [(True, True), (True, False), (False, True), (False, False)]
)
@pytest.mark.parametrize(
    "m, k, n, offset, pad",
    [
        (1, 4, 1, 0, 0),
        (3, 12, 5, 0, 0),
        (6, 12, 10, 0, 2),
        (60, 16, 68, 0, 0),
        (63, 68, 65, 4, 1),
        (130, 8, 64, 4, 2),
        (9, 6, 7, 0, 0),
        (8, 8, 8, 1, 0),
    ],
    ids=str,
)
def test_matmul_layouts(device, a_rows, b_rows, m, k, n, offset, pad):
    # Each operand read along either dimension, sizes across the blocks and tiles of the
    # products (8-wide blocks, 64-wide tiles, the software device's 32x32 tiles), aligned
    # and unaligned offsets, line lengths and inner sizes (the software device reads aligned
    # operands 16 bytes at a time); integer values, so every order sums exactly.
    a, a_dev = operands(device, m, k, a_rows, 0, offset, pad)
    b, b_dev = operands(device, k, n, b_rows, 1, offset, pad)
    assert a_dev.stride() == a.stride() and b_dev.stride() == b.stride()
    assert_same(a_dev @ b_dev, a @ b)
    c = ints(-3, 4, (n,), 2, dtype=torch.float32)
    expected = torch.addmm(c, a, b, beta=2, alpha=3)
    assert_same(torch.addmm(c.to(device), a_dev, b_dev, beta=2, alpha=3), expected)
    assert_same(
        torch.bmm(a_dev.expand(3, m, k), b_dev.expand(3, k, n)),
        torch.bmm(a.expand(3, m, k), b.expand(3, k, n)),
    )


@pytest.mark.parametrize("dtype", [torch.float64, torch.int64, torch.float16])
@pytest.mark.parametrize(
    "m, k, n", [(32, 9, 32), (32, 9, 33), (7, 5, 300), (300, 5, 8), (3, 20000, 2)], ids=str
)
def test_products_around_the_per_element_limit(device, dtype, m, k, n):
    # At most 32x32 outputs, or fewer than 8 rows or columns: one invocation per output (the
    # last case also in chunks of k); otherwise tiles. Integer values: exact in any order.
    a, b = ints(-3, 4, (2, m, k), dtype=dtype), ints(-3, 4, (k, n), 1, dtype=dtype)
    c = ints(-3, 4, (n,), 2, dtype=dtype)
    assert_same(a.to(device) @ b.to(device), a @ b)
    expected = torch.addmm(c, a[0], b, beta=2, alpha=3)
    assert_same(torch.addmm(c.to(device), a[0].to(device), b.to(device), beta=2, alpha=3), expected)


def test_batched_matmul_past_one_grid_row(device):
    # 300,000 products of 4x4 outputs, one invocation each: 4.8M invocations, 75,000 groups,
    # the last ones in the grid's second row. (A tile per product would need 33x33 outputs
    # each: too large a test; tiles and elements share the launch's grid.)
    a = ints(-3, 4, (300_000, 4, 2), dtype=torch.float32)
    b = ints(-3, 4, (300_000, 2, 4), 1, dtype=torch.float32)
    assert_same(torch.bmm(a.to(device), b.to(device)), torch.bmm(a, b))


def test_batched_tiles_past_one_grid_row(device):
    # 16,400 products of 33x33 outputs, four 32x32 tiles each on the software device (one
    # group of 8 lanes per tile): 65,600 groups, the last ones in the grid's second row.
    a = ints(-3, 4, (16_400, 33, 5), dtype=torch.float32)
    b = ints(-3, 4, (16_400, 5, 33), 1, dtype=torch.float32)
    assert_same(torch.bmm(a.to(device), b.to(device)), torch.bmm(a, b))


def test_foreach_with_long_tensors(device):
    sizes = [5, 70000, 1, 8193, GRID + 1]
    xs = [uniform(n, i) for i, n in enumerate(sizes)]
    ys = [uniform(n, 10 + i) for i, n in enumerate(sizes)]
    ours = [x.to(device) for x in xs]
    torch._foreach_add_(ours, [y.to(device) for y in ys], alpha=2)
    torch._foreach_add_(xs, ys, alpha=2)
    for actual, expected in zip(ours, xs, strict=True):
        assert_same(actual, expected)
    products = torch._foreach_mul(ours, 3.0)
    for actual, expected in zip(products, torch._foreach_mul(xs, 3.0), strict=True):
        assert_same(actual, expected)


# ---------------------------------------------------------------------------------------------
# Random numbers: statistics, ranges, and no repeated stretches


def draw(device, fn, seed=7):
    return fn(torch.Generator(device=device).manual_seed(seed)).cpu()


def assert_halves_differ(x):
    """Grid rows and chunks draw their own numbers: no part repeats another."""
    half = x.numel() // 2
    assert not torch.equal(x[:half], x[half : 2 * half])
    if x.numel() > GRID:  # the second row of the dispatch grid against the first
        tail = x.numel() - GRID
        assert not torch.equal(x[:tail], x[GRID:])


def assert_moment(value, expected, sigma):
    """Within six standard errors (seeded: a failure is a real change, not bad luck)."""
    assert abs(value - expected) < 6 * sigma, (value, expected, sigma)


@pytest.mark.parametrize("n", [2**20 + 1, GRID + 4097, large(2 * GRID + 1)])
def test_random_statistics(device, n):
    x = draw(device, lambda g: torch.rand(n, device=device, generator=g)).double()
    assert ((x >= 0) & (x < 1)).all()
    assert_moment(x.mean().item(), 0.5, math.sqrt(1 / 12 / n))
    assert_moment(x.var().item(), 1 / 12, math.sqrt((1 / 80 - 1 / 144) / n))
    assert_halves_differ(x)

    x = draw(device, lambda g: torch.randn(n, device=device, generator=g)).double()
    assert x.isfinite().all()
    assert_moment(x.mean().item(), 0.0, math.sqrt(1 / n))
    assert_moment(x.var().item(), 1.0, math.sqrt(2 / n))
    assert_halves_differ(x)

    p = torch.full((n,), 0.3, device=device)
    x = draw(device, lambda g: torch.bernoulli(p, generator=g)).double()
    assert ((x == 0) | (x == 1)).all()
    assert_moment(x.mean().item(), 0.3, math.sqrt(0.21 / n))
    assert_halves_differ(x)

    x = draw(device, lambda g: torch.randint(-5, 7, (n,), device=device, generator=g))
    assert x.min().item() == -5 and x.max().item() == 6
    assert_moment(x.double().mean().item(), 0.5, math.sqrt((12**2 - 1) / 12 / n))
    assert_halves_differ(x)


# ---------------------------------------------------------------------------------------------
# A tensor of 2^31 bytes


@pytest.mark.large
@within_device_limits
def test_two_gigabyte_tensor(device):
    n = 2**29  # float32: 2^31 bytes
    x = torch.ones(n, device=device)
    x[-1] = 8193.0
    assert x.sum().item() == n + 8192  # exact: multiples of 8,192 below 2^37 are
    y = x + x
    assert y[-1].item() == 2 * 8193 and y[0].item() == 2.0 and y[n // 2].item() == 2.0
    assert y.sum().item() == 2 * (n + 8192)


@pytest.mark.parametrize(
    "shape, dims",
    [
        ((3, 5, 7, 130), (0, 2, 3)),
        ((3, 5, 7, 130), (0, 3)),
        ((3, 5, 7, 130), (0, 1, 3)),
        ((3, 5, 7, 130), (1, 3)),
        ((3, 4, 9000), (0, 2)),
        ((2, 70_000, 64), (0, 2)),
    ],
    ids=str,
)
def test_reductions_of_contiguous_runs_first(device, shape, dims):
    # The innermost reduced dimensions form a contiguous run of at least 64 elements that is
    # not all of the reduced ones (a batch norm's per-channel sums): reduced run by run first,
    # then over the rest; runs longer than a chunk (9,000), and 140,000 runs. Integers
    # exactly, floats within the sums' tolerance.
    x = uniform(shape)
    for op in ("sum", "mean", "amax", "amin"):
        expected = getattr(x.double(), op)(dim=dims)
        assert_near(getattr(x.to(device), op)(dim=dims), expected, rtol=1e-5, atol=1e-5)
    i = ints(-1000, 1000, shape)
    assert_same(i.to(device).sum(dim=dims), i.sum(dim=dims))
    assert_same(i.to(device).amax(dim=dims), i.amax(dim=dims))


@pytest.mark.parametrize(
    "dtype",
    [torch.float16, torch.bfloat16, torch.uint8, torch.int8, torch.int16, torch.bool],
    ids=str,
)
def test_sub_word_reductions_at_every_alignment(device, dtype):
    # Elements under four bytes are read four at a time where a row starts aligned to four
    # of them (16 bytes a load from the row's first 16-byte boundary, where a step of the
    # loop is whole 16-byte words), one by one elsewhere. Small integers sum exactly in any
    # order.
    torch.manual_seed(0)
    for n in [1, 3, 4, 5, 63, 64, 65, 130, 4099]:
        for offset in [0, 1, 2, 3, 4, 8, 12, 16]:
            base = torch.randint(0, 3, (3 * n + 16,)).to(dtype)
            x = base[offset : offset + 3 * n].view(3, n)
            mojo = base.to(device)[offset : offset + 3 * n].view(3, n)
            for op in [torch.sum, torch.amax, torch.amin, torch.count_nonzero]:
                assert_same(op(mojo, 1), op(x, 1))
                if n > 1:  # rows that end inside a word
                    assert_same(op(mojo[:, : n - 1], 1), op(x[:, : n - 1], 1))
            assert_same(mojo.sum(), x.sum())
            if dtype == torch.bool:
                assert_same(mojo.any(1), x.any(1))
                assert_same(mojo.all(1), x.all(1))
