"""torch.cdist and F.pdist (`_distances.py`) against the CPU: every p the CPU special-cases,
both Euclidean routes (direct, and the matrix product past 25 rows), broadcast batches, and
gradients."""

import math

import pytest
import torch


@pytest.mark.parametrize("p", [0.0, 0.5, 1.0, 2.0, 3.0, math.inf])
@pytest.mark.parametrize(("rows1", "rows2"), [(5, 7), (40, 9)])
def test_cdist_values_and_gradients(device, p, rows1, rows2):
    g = torch.Generator().manual_seed(0)
    x1 = torch.randn(2, 1, rows1, 6, generator=g, dtype=torch.float64)
    x2 = torch.randn(3, rows2, 6, generator=g, dtype=torch.float64)
    x2[0, 0] = x1[0, 0, 0]  # a zero distance: its gradient is zero
    a = x1.to(device).requires_grad_()
    b = x2.to(device).requires_grad_()
    got = torch.cdist(a, b, p=p)
    c1, c2 = x1.clone().requires_grad_(), x2.clone().requires_grad_()
    want = torch.cdist(c1, c2, p=p)
    torch.testing.assert_close(got.cpu(), want)
    weights = torch.randn(want.shape, generator=g, dtype=torch.float64)
    (got * weights.to(device)).sum().backward()
    (want * weights).sum().backward()
    torch.testing.assert_close(a.grad.cpu(), c1.grad)
    torch.testing.assert_close(b.grad.cpu(), c2.grad)


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 2.5, math.inf])
def test_pdist_values_and_gradients(device, p):
    g = torch.Generator().manual_seed(1)
    x = torch.randn(9, 4, generator=g, dtype=torch.float64)
    a = x.to(device).requires_grad_()
    c = x.clone().requires_grad_()
    got, want = torch.nn.functional.pdist(a, p), torch.nn.functional.pdist(c, p)
    torch.testing.assert_close(got.cpu(), want)
    got.sum().backward()
    want.sum().backward()
    torch.testing.assert_close(a.grad.cpu(), c.grad)
