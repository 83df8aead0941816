"""torch.isin on mojo against the CPU: dtype promotion, NaN, invert, empty test sets, strided
inputs, out=, and sizes past the reduction's limits (test sets longer than one chunk, more
elements than one grid row of groups)."""

import pytest
import torch

CASES = {
    "small": (torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4])),
    "promoted": (torch.arange(12).view(3, 4).t(), torch.tensor([3.0, 5.0])),
    "nan": (torch.tensor([1.0, float("nan"), 2.5]), torch.tensor([2.5, float("nan")])),
    "empty_tests": (torch.tensor([1, 2, 3]), torch.tensor([], dtype=torch.long)),
    "long_test_set": (torch.randint(0, 1000, (30, 70)), torch.randint(0, 1000, (40_000,))),
    "many_elements": (torch.randint(0, 100, (1 << 22,)), torch.tensor([5, 17, 99])),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("invert", [False, True])
def test_isin_matches_cpu(device, name, invert):
    elements, tests = CASES[name]
    expected = torch.isin(elements, tests, invert=invert)
    actual = torch.isin(elements.to(device), tests.to(device), invert=invert)
    assert torch.equal(actual.cpu(), expected)


def test_scalar_and_out(device):
    x = torch.tensor([[1, 2], [3, 2]])
    assert torch.equal(torch.isin(x.to(device), 2).cpu(), torch.isin(x, 2))
    out = torch.empty(2, 2, dtype=torch.bool, device=device).t()
    torch.isin(x.to(device), torch.tensor([3], device=device), out=out)
    assert torch.equal(out.cpu(), torch.isin(x, torch.tensor([3])))
