"""Kernels composed from mojo's kernels (`_composed_kernels.py`) past the launch limits
(65,535 groups), against the CPU; OpInfo's small samples are in the conformance sweep."""

import math

import pytest
import torch

from conftest import assert_bitwise_equal

N = 70_001


def test_cross_of_many_vectors(device):
    a, b = torch.randint(-50, 50, (2, N, 3))
    assert_bitwise_equal(torch.linalg.cross(a.to(device), b.to(device)), torch.linalg.cross(a, b))
    x, y = torch.randn(2, 3, N)
    torch.testing.assert_close(
        torch.cross(x.to(device), y.to(device), dim=0).cpu(), torch.cross(x, y, dim=0)
    )


def test_index_reduce_with_many_indices(device):
    source = torch.randn(N, 4)
    index = torch.randint(0, 1000, (N,))
    for reduce in ("prod", "mean", "amax", "amin"):
        for include_self in (True, False):
            base = torch.rand(1000, 4) + 0.5
            expected = base.index_reduce(
                0, index, source.clamp(0.9, 1.1), reduce, include_self=include_self
            )
            got = base.to(device).index_reduce(
                0,
                index.to(device),
                source.clamp(0.9, 1.1).to(device),
                reduce,
                include_self=include_self,
            )
            torch.testing.assert_close(got.cpu(), expected, rtol=1e-4, atol=1e-5)


def test_addbmm_integers_exactly(device):
    b1, b2 = torch.randint(-5, 5, (2, 40, 30, 30))
    base = torch.randint(-5, 5, (30, 30))
    assert_bitwise_equal(
        torch.addbmm(base.to(device), b1.to(device), b2.to(device), beta=2, alpha=3),
        torch.addbmm(base, b1, b2, beta=2, alpha=3),
    )


def test_nonzero_static_cuts_and_pads(device):
    x = torch.rand(N) > 0.5
    count = int(x.sum())
    for size in (0, count - 7, count, count + 9):
        expected = torch.nonzero_static(x, size=size, fill_value=-3)
        assert_bitwise_equal(torch.nonzero_static(x.to(device), size=size, fill_value=-3), expected)


def test_triangle_indices(device):
    for row, col, offset in ((400, 300, 0), (300, 400, -5), (1, 1, 3), (0, 5, 0)):
        for fn in (torch.tril_indices, torch.triu_indices):
            assert_bitwise_equal(fn(row, col, offset, device=device), fn(row, col, offset))


def test_bucketize_and_renorm(device):
    boundaries = torch.sort(torch.randn(1000))[0]
    values = torch.randn(N)
    for right in (False, True):
        assert_bitwise_equal(
            torch.bucketize(values.to(device), boundaries.to(device), right=right),
            torch.bucketize(values, boundaries, right=right),
        )
    x = torch.randn(N, 5)
    torch.testing.assert_close(
        torch.renorm(x.to(device), 2, 1, 5.0).cpu(), torch.renorm(x, 2, 1, 5.0)
    )


def test_searchsorted_in_parts_with_rows_of_boundaries(device):
    # 100 x 200 values against rows of 1,000 boundaries: 20M pairs, searched in parts.
    seq = torch.sort(torch.randn(100, 1000), dim=1)[0]
    values = torch.randn(100, 200)
    for side in ("left", "right"):
        got = torch.searchsorted(seq.to(device), values.to(device), side=side)
        assert_bitwise_equal(got, torch.searchsorted(seq, values, side=side))
    column = torch.randn(N, 1)
    got = torch.searchsorted(seq[0].to(device), column.to(device))
    assert_bitwise_equal(got, torch.searchsorted(seq[0], column))


def test_median_and_nanmedian_of_long_rows(device):
    x = torch.randn(3, N)
    x[1, 5] = float("nan")
    x[2, :] = float("nan")
    x[2, 7:11] = torch.tensor([4.0, 1.0, 3.0, 2.0])
    for fn in (torch.median, torch.nanmedian):
        value, index = fn(x.to(device), 1)
        expected = fn(x, 1)
        assert_bitwise_equal(value, expected.values)
        assert_bitwise_equal(index, expected.indices)
        assert_bitwise_equal(fn(x[0].to(device)), fn(x[0]))


def test_unique_consecutive_and_repeat_interleave_at_size(device):
    x = torch.randint(0, 3, (N,))
    for got, want in zip(
        torch.unique_consecutive(x.to(device), return_inverse=True, return_counts=True),
        torch.unique_consecutive(x, return_inverse=True, return_counts=True),
        strict=True,
    ):
        assert_bitwise_equal(got, want)
    repeats = torch.randint(0, 4, (N,))
    assert_bitwise_equal(
        torch.repeat_interleave(repeats.to(device)), torch.repeat_interleave(repeats)
    )


def test_running_extremes_and_log_cumsum_exp_past_one_launch(device):
    x = torch.randint(-20, 20, (2, N)).float()
    x[0, 1000] = float("nan")
    for fn in (torch.cummax, torch.cummin):
        got, expected = fn(x.to(device), 1), fn(x, 1)
        assert_bitwise_equal(got.values, expected.values)
        assert_bitwise_equal(got.indices, expected.indices)
    y = torch.randn(3, N)
    torch.testing.assert_close(torch.logcumsumexp(y.to(device), 1).cpu(), torch.logcumsumexp(y, 1))


def test_mode_of_rows_with_distinct_winners(device):
    # Each row's mode is unique and so is its last index (the CPU's index among equal values
    # is unspecified on long rows).
    x = torch.randn(40, 3000)
    x[:, 100:105] = torch.arange(40.0).unsqueeze(1)
    got, expected = torch.mode(x.to(device), 1), torch.mode(x, 1)
    assert_bitwise_equal(got.values, expected.values)
    # The index is the last one holding the mode (the CPU's pick among them is unspecified).
    last = [
        int((row == value).nonzero().max()) for row, value in zip(x, expected.values, strict=True)
    ]
    assert_bitwise_equal(got.indices, torch.tensor(last))


def test_unique_along_a_dimension(device):
    """Distinct rows (and columns) in lexicographic order, with the inverse and the counts,
    over 70,000 rows with many repeats."""
    g = torch.Generator().manual_seed(3)
    rows = torch.randint(0, 4, (70_000, 3), generator=g)
    for x, dim in ((rows, 0), (rows.t().float(), 1)):
        got = torch.unique(x.to(device), dim=dim, return_inverse=True, return_counts=True)
        want = torch.unique(x, dim=dim, return_inverse=True, return_counts=True)
        for a, b in zip(got, want, strict=True):
            assert_bitwise_equal(a, b)


def test_segment_reduce_with_lengths_and_offsets(device):
    """Every reduction, with and without `initial`, empty segments and positions past the
    last segment, values and gradients against the CPU (float64, 2-D, along both axes)."""
    g = torch.Generator().manual_seed(4)
    x = torch.randn(12, 5, generator=g, dtype=torch.float64)
    x[2, 1] = 0.0
    lengths = torch.tensor([2, 0, 4, 5])
    for reduce in ("sum", "mean", "max", "min", "prod"):
        for initial in (None, 0.5):
            for axis, data in ((0, x), (1, x.t().contiguous())):
                lens = lengths if axis == 0 else lengths.expand(5, 4).contiguous()
                options = {"axis": axis, "unsafe": True, "initial": initial}
                a = data.clone().requires_grad_()
                b = data.to(device).requires_grad_()
                want = torch.segment_reduce(a, reduce, lengths=lens, **options)
                got = torch.segment_reduce(b, reduce, lengths=lens.to(device), **options)
                torch.testing.assert_close(got.cpu(), want, equal_nan=True)
                weights = torch.randn(want.shape, generator=g, dtype=torch.float64)
                finite = want.isfinite()
                (want * weights).where(finite, 0).sum().backward()
                (got * weights.to(device)).where(finite.to(device), 0).sum().backward()
                torch.testing.assert_close(b.grad.cpu(), a.grad)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16])
def test_frexp_is_exact_across_the_exponent_range(device, dtype):
    """Mantissas and exponents bit-equal to the CPU's over the whole range (subnormals,
    values next to powers of two, zeros, infinities, NaN)."""
    g = torch.Generator().manual_seed(5)
    scales = torch.exp2(torch.randint(-1080, 1020, (100_000,), generator=g).double())
    special = [0.0, -0.0, 1.0, 0.5, 2.0, math.inf, -math.inf, math.nan, 1e-40, 65504.0]
    wide = torch.randn(100_000, generator=g, dtype=torch.float64) * scales
    x = torch.cat([wide, torch.tensor(special, dtype=torch.float64)]).to(dtype)
    mantissa, exponent = torch.frexp(x.to(device))
    want_mantissa, want_exponent = torch.frexp(x)
    assert_bitwise_equal(mantissa, want_mantissa)
    assert_bitwise_equal(exponent, want_exponent)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int32, torch.bool])
def test_hash_tensor_of_many_elements(device, dtype):
    """The XOR of the elements' 64-bit patterns (floats as float64), bit for bit, over every
    element, over some dimensions with and without keepdim, and over an odd length."""
    x = (torch.randn(N, 3) * 100).to(dtype)
    m = x.to(device)
    for dims, keepdim in (((), False), ((0,), False), ((1,), True), ((0, 1), True)):
        expected = torch.hash_tensor(x, dims, keepdim=keepdim)
        got = torch.hash_tensor(m, dims, keepdim=keepdim)
        assert got.dtype == torch.uint64 and got.shape == expected.shape
        assert torch.equal(got.cpu(), expected)
    # A uint64 result reads back as a Python int (.item() of unsigned dtypes).
    assert torch.hash_tensor(m).item() == torch.hash_tensor(x).item()
    with pytest.raises(RuntimeError, match="Unknown hash_tensor mode"):
        torch.hash_tensor(m, mode=1)
