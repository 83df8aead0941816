"""torch.histogram and torch.histogramdd (python/torch_mojo_backend/_histograms.py) against
the CPU: bins counted or given, range, weights, density, several dimensions, values on the
edges and outside them, a tensor past one launch, and the CPU's errors."""

import pytest
import torch

N = 70_001


def data(generator, *shape):
    x = torch.randn(*shape, generator=generator)
    flat = x.view(-1)
    flat[:4] = torch.tensor([3.0, -3.0, 10.0, -10.0])
    return x


@pytest.mark.parametrize(
    "options",
    [
        {"bins": 10},
        {"bins": 7, "range": (-2.0, 2.0)},
        {"bins": 9, "density": True},
        {"bins": torch.tensor([-1.0, 0.0, 0.5, 3.0])},
        {"bins": torch.tensor([-1.0, 0.0, 0.5, 3.0]), "density": True},
    ],
    ids=["count", "range", "density", "edges", "edges-density"],
)
def test_histogram(device, options):
    x = data(torch.Generator().manual_seed(0), N)
    expected = torch.histogram(x, **options)
    mojo = {k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in options.items()}
    actual = torch.histogram(x.to(device), **mojo)
    torch.testing.assert_close(actual.hist.cpu(), expected.hist)
    assert torch.equal(actual.bin_edges.cpu(), expected.bin_edges)


def test_weighted_histogram(device):
    generator = torch.Generator().manual_seed(1)
    x, w = data(generator, 5000), torch.rand(5000, generator=generator)
    expected = torch.histogram(x, bins=6, weight=w)
    actual = torch.histogram(x.to(device), bins=6, weight=w.to(device))
    torch.testing.assert_close(actual.hist.cpu(), expected.hist, rtol=1e-5, atol=1e-4)


def test_histogramdd(device):
    y = torch.rand(5000, 3, generator=torch.Generator().manual_seed(2))
    for options in (
        {"bins": [3, 4, 5]},
        {"bins": [2, 2, 2], "range": [0.0, 0.5] * 3, "density": True},
    ):
        expected = torch.histogramdd(y, **options)
        actual = torch.histogramdd(y.to(device), **options)
        torch.testing.assert_close(actual.hist.cpu(), expected.hist)
        for a, e in zip(actual.bin_edges, expected.bin_edges, strict=True):
            assert torch.equal(a.cpu(), e)


def test_edge_cases(device):
    # A single value widens its empty range by 1/2 each way; empty input takes (0, 1).
    for x in (torch.tensor([2.0, 2.0]), torch.tensor([])):
        expected = torch.histogram(x, bins=2)
        actual = torch.histogram(x.to(device), bins=2)
        assert torch.equal(actual.hist.cpu(), expected.hist)
        assert torch.equal(actual.bin_edges.cpu(), expected.bin_edges)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda d: torch.histogram(torch.arange(3, device=d), bins=3), NotImplementedError, "Long"),
        (
            lambda d: torch.histogram(torch.ones(3, device=d), bins=0),
            RuntimeError,
            "bins must be > 0",
        ),
        (
            lambda d: torch.histogram(torch.ones(3, device=d), bins=3, range=(2.0, 1.0)),
            RuntimeError,
            "min should not exceed max",
        ),
        (
            lambda d: torch.histogram(torch.tensor([1.0, float("nan")], device=d), bins=3),
            RuntimeError,
            "is not finite",
        ),
    ],
)
def test_errors_match_the_cpu(device, call, error, message):
    with pytest.raises(error, match=message):
        call("cpu")
    with pytest.raises(error, match=message):
        call(device)
