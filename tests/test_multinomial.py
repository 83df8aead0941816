"""multinomial: CUDA's algorithm (q ~ Exponential(1), the largest p / q per row), so a seed gives
the same samples as the exponential draws it is built from; PyTorch's checks and errors."""

import pytest
import torch


def cuda_recipe(p: torch.Tensor, samples: int) -> torch.Tensor:
    """What CUDA's multinomial computes, spelled out with public ops."""
    q = torch.empty_like(p).exponential_(1)
    ratio = p / q
    if samples == 1:
        return ratio.argmax(dim=-1, keepdim=True)
    return ratio.sort(dim=-1, descending=True, stable=True).indices[..., :samples]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.float64])
@pytest.mark.parametrize("shape,samples", [((7,), 1), ((5, 40), 1), ((5, 40), 6), ((3, 9), 9)])
def test_samples_follow_cudas_recipe(device, dtype, shape, samples):
    p = torch.rand(shape, generator=torch.Generator().manual_seed(3)).to(dtype).to(device)
    torch.manual_seed(11)
    got = torch.multinomial(p, samples)
    after = torch.rand(3, device=device)
    torch.manual_seed(11)
    want = cuda_recipe(p, samples)
    assert got.dtype == torch.int64 and got.shape == want.shape
    assert torch.equal(got.cpu(), want.cpu())
    assert torch.equal(after.cpu(), torch.rand(3, device=device).cpu())  # same offsets used


def test_frequencies_match_the_probabilities(device):
    p = torch.tensor([0.1, 0.2, 0.0, 0.7], device=device)
    draws = torch.multinomial(p.expand(20000, 4), 1, replacement=True).view(-1).cpu()
    freq = torch.bincount(draws, minlength=4).double() / draws.numel()
    assert freq[2] == 0
    torch.testing.assert_close(freq, p.cpu().double(), atol=0.02, rtol=0)


def test_without_replacement_samples_are_distinct_and_skip_zeros(device):
    p = torch.tensor([[0.0, 1.0, 2.0, 0.0, 3.0, 4.0]] * 50, device=device)
    rows = torch.multinomial(p, 4).cpu()
    for row in rows.tolist():
        assert sorted(row) == [1, 2, 4, 5]
    out = torch.empty(50, 2, dtype=torch.int64, device=device)
    assert torch.multinomial(p, 2, out=out) is out


@pytest.mark.parametrize(
    "p,samples,replacement,error,match",
    [
        ([0.5, -0.1], 1, False, RuntimeError, "element < 0"),
        ([0.5, float("nan")], 1, False, RuntimeError, "`inf`, `nan`"),
        ([[0.0, 0.0], [1.0, 1.0]], 1, False, RuntimeError, "sum of probabilities"),
        ([0.5, 0.5], 3, False, RuntimeError, "without replacement"),
        ([0.5, 0.5], 0, False, RuntimeError, "n_sample <= 0"),
    ],
)
def test_errors_are_pytorchs(device, p, samples, replacement, error, match):
    with pytest.raises(error, match=match):
        torch.multinomial(torch.tensor(p), samples, replacement)
    with pytest.raises(error, match=match):
        torch.multinomial(torch.tensor(p, device=device), samples, replacement)


def test_integer_input_is_refused(device):
    with pytest.raises(RuntimeError, match="floating-point"):
        torch.multinomial(torch.tensor([1, 2], device=device), 1)


def test_several_samples_with_replacement_follow_each_row(device):
    p = torch.tensor([[0.1, 0.0, 0.6, 0.3], [5.0, 0.0, 0.0, 5.0]], device=device)
    draws = torch.multinomial(p, 20000, replacement=True).cpu()
    assert draws.shape == (2, 20000) and draws.dtype == torch.int64
    for row, probabilities in zip(draws, p.cpu(), strict=True):
        freq = torch.bincount(row, minlength=4).double() / row.numel()
        assert freq[probabilities == 0].sum() == 0
        torch.testing.assert_close(
            freq, probabilities.double() / probabilities.sum(), atol=0.02, rtol=0
        )
    one_row = torch.multinomial(torch.tensor([0.0, 1.0, 0.0], device=device), 50, True)
    assert one_row.cpu().tolist() == [1] * 50
