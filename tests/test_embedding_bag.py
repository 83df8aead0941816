"""nn.EmbeddingBag / F.embedding_bag on mojo against the CPU: sum (with per-sample weights),
mean and max, bags from offsets (empty bags, include_last_offset) or from rows, padding_idx,
gradients (dense, and sparse ones trained by SGD), a training step, and a large bag set."""

import pytest
import torch
import torch.nn.functional as F

INDICES = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
CASES = {
    "sum": dict(input=INDICES, offsets=torch.tensor([0, 4]), mode="sum"),
    "mean_empty_bags": dict(input=INDICES, offsets=torch.tensor([0, 0, 4, 8]), mode="mean"),
    "max_last_offset": dict(
        input=INDICES, offsets=torch.tensor([0, 3, 3, 8]), mode="max", include_last_offset=True
    ),
    "mean_rows_padding": dict(
        input=torch.tensor([[1, 2, 0], [4, 0, 0]]), mode="mean", padding_idx=0
    ),
    "max_rows_padding": dict(input=torch.tensor([[1, 2, 0], [0, 0, 0]]), mode="max", padding_idx=0),
    "weighted_sum": dict(input=INDICES, offsets=torch.tensor([0, 4]), mode="sum", weighted=True),
}


def run(device, weight, case, grad, sample_weights):
    weight = weight.detach().to(device).requires_grad_()
    kwargs = {k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in case.items()}
    weights = None
    if kwargs.pop("weighted", False):
        weights = sample_weights.detach().to(device).requires_grad_()
    out = F.embedding_bag(weight=weight, per_sample_weights=weights, **kwargs)
    out.backward(grad.to(device))
    extra = [weights.grad.cpu()] if weights is not None else []
    return [out.cpu(), weight.grad.cpu(), *extra]


@pytest.mark.parametrize("name", list(CASES))
def test_matches_cpu(device, name):
    torch.manual_seed(0)
    weight = torch.randn(20, 5)
    sample_weights = torch.rand(INDICES.numel())
    expected_out = F.embedding_bag(
        weight=weight,
        per_sample_weights=sample_weights if CASES[name].get("weighted") else None,
        **{k: v for k, v in CASES[name].items() if k != "weighted"},
    )
    grad = torch.randn_like(expected_out)
    expected = run("cpu", weight, CASES[name], grad, sample_weights)
    actual = run(device, weight, CASES[name], grad, sample_weights)
    for a, e in zip(actual, expected, strict=True):
        torch.testing.assert_close(a, e, atol=1e-6, rtol=1e-5)


def test_module_trains_like_cpu(device):
    def train(device):
        torch.manual_seed(0)
        bag = torch.nn.EmbeddingBag(50, 8, mode="mean").to(device)
        optimizer = torch.optim.SGD(bag.parameters(), lr=0.5)
        indices = torch.randint(0, 50, (40,), generator=torch.Generator().manual_seed(1))
        offsets = torch.tensor([0, 7, 7, 20, 33])
        losses = []
        for _ in range(5):
            loss = bag(indices.to(device), offsets.to(device)).pow(2).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        return losses, bag.weight.detach().cpu()

    (ours, our_weight), (theirs, their_weight) = train(device), train("cpu")
    assert ours == pytest.approx(theirs, rel=1e-5)
    torch.testing.assert_close(our_weight, their_weight)


def test_many_bags(device):
    torch.manual_seed(0)
    weight = torch.randn(1000, 16)
    indices = torch.randint(0, 1000, (100_000,))
    offsets = torch.arange(0, 100_000, 7)
    for mode in ("sum", "mean", "max"):
        expected = F.embedding_bag(indices, weight, offsets, mode=mode)
        actual = F.embedding_bag(
            indices.to(device), weight.to(device), offsets.to(device), mode=mode
        )
        torch.testing.assert_close(actual.cpu(), expected, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("mode", ["sum", "mean"])  # PyTorch refuses max with sparse=True
def test_sparse_gradients(device, mode):
    """sparse=True: a sparse COO gradient for the weight, equal to the CPU's once densified,
    and SGD steps with it."""
    torch.manual_seed(0)
    expected = torch.nn.EmbeddingBag(10, 3, mode=mode, sparse=True)
    actual = torch.nn.EmbeddingBag(10, 3, mode=mode, sparse=True).to(device)
    actual.load_state_dict(expected.state_dict())
    sgd = [torch.optim.SGD(m.parameters(), lr=0.5) for m in (expected, actual)]
    indices, offsets = INDICES, torch.tensor([0, 3, 3, 5])
    for _ in range(3):
        for module, optimizer, dev in zip((expected, actual), sgd, ("cpu", device), strict=True):
            optimizer.zero_grad()
            module(indices.to(dev), offsets.to(dev)).square().sum().backward()
        grad = actual.weight.grad
        assert grad.layout == torch.sparse_coo and grad.device.type == "mojo"
        torch.testing.assert_close(grad.cpu().to_dense(), expected.weight.grad.to_dense())
        for optimizer in sgd:
            optimizer.step()
    torch.testing.assert_close(actual.weight.detach().cpu(), expected.weight.detach())
