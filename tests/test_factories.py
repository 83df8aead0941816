"""Tensors made on the device from their index: arange, linspace, logspace, eye, tril, triu."""

import pytest
import torch

EXACT = {
    "arange": lambda d: torch.arange(10, device=d),
    "arange_float_step": lambda d: torch.arange(0, 1, 0.1, device=d),
    "arange_negative_step": lambda d: torch.arange(5, -7, -3, device=d),
    "arange_float16": lambda d: torch.arange(-3, 7.5, 0.25, dtype=torch.float16, device=d),
    "arange_int32": lambda d: torch.arange(3, 100, 7, dtype=torch.int32, device=d),
    "linspace_one_step": lambda d: torch.linspace(-2, 3, 1, device=d),
    "linspace_int64": lambda d: torch.linspace(0, 10, 7, dtype=torch.int64, device=d),
    "eye": lambda d: torch.eye(4, 6, device=d),
    "eye_bool": lambda d: torch.eye(3, dtype=torch.bool, device=d),
    "full": lambda d: torch.full((2, 3), 7.5, device=d),
}

CLOSE = {
    "linspace": lambda d: torch.linspace(-5, 3.3, 77, device=d),
    "linspace_float64": lambda d: torch.linspace(-5, 3.3, 77, dtype=torch.float64, device=d),
    "logspace": lambda d: torch.logspace(-1, 2, 7, base=2, device=d),
}


@pytest.mark.parametrize("name", list(EXACT))
def test_exact(device, name):
    expected, actual = EXACT[name]("cpu"), EXACT[name](device)
    assert actual.device.type == device.type
    torch.testing.assert_close(actual.cpu(), expected, rtol=0, atol=0)


@pytest.mark.parametrize("name", list(CLOSE))
def test_close(device, name):
    torch.testing.assert_close(CLOSE[name](device).cpu(), CLOSE[name]("cpu"))


@pytest.mark.parametrize("diagonal", [-2, 0, 1, 3])
def test_tril_triu(device, diagonal):
    x = torch.randn(2, 4, 5)
    for op in (torch.tril, torch.triu):
        torch.testing.assert_close(
            op(x.to(device), diagonal).cpu(), op(x, diagonal), rtol=0, atol=0
        )


def test_arange_errors(device):
    with pytest.raises(RuntimeError, match="step must be nonzero"):
        torch.arange(0, 10, 0, device=device)
    with pytest.raises(RuntimeError, match="inconsistent with step sign"):
        torch.arange(0, 10, -1, device=device)
