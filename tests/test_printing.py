"""print(t) and t.tolist() for every dtype give what CPU tensors give."""

import re

import pytest
import torch

from conftest import ALL_DTYPES

SAMPLES = {
    "small": lambda dtype: (torch.arange(-6, 6) * 3).to(dtype),
    "fraction": lambda dtype: torch.tensor([0.5, -1.25, 3.0, 1e-5, 12345.678]).to(dtype),
    "nonfinite": lambda dtype: torch.tensor(
        [1.0, float("nan"), float("inf"), -float("inf"), 0.0]
    ).to(dtype),
    "matrix": lambda dtype: torch.arange(12).reshape(3, 4).to(dtype),
    "scalar": lambda dtype: torch.tensor(7).to(dtype),
    "empty": lambda dtype: torch.empty(0, 3).to(dtype),
    "summarized": lambda dtype: (torch.arange(3000) % 97).reshape(30, 100).to(dtype),
}


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("sample", list(SAMPLES), ids=str)
def test_print_matches_cpu(device, dtype, sample):
    host = SAMPLES[sample](dtype)
    dev = host.to(device)
    expected = str(host)
    got = str(dev)
    # The device suffix is the only difference from the CPU text.
    assert f"device='{device}:0'" in got
    stripped = re.sub(rf",\s*device='{device}:0'", "", got)
    assert " ".join(stripped.split()) == " ".join(expected.split())


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_tolist_matches_cpu(device, dtype):
    host = SAMPLES["matrix"](dtype)
    assert host.to(device).tolist() == host.tolist()
    assert host.to(device)[1, 2].item() == host[1, 2].item()
