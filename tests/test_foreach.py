"""The optimizers' foreach paths run as multi-tensor kernels and match the CPU."""

import pytest
import torch

from torch_mojo_backend import _C


def train(device, name, steps=3, **options):
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)
    ).to(device)
    optimizer = getattr(torch.optim, name)(model.parameters(), lr=1e-2, foreach=True, **options)
    inputs, labels = torch.randn(8, 16).to(device), torch.randint(0, 4, (8,)).to(device)
    for _ in range(steps):
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(inputs), labels).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        torch.nn.utils.clip_grad_value_(model.parameters(), 0.05)
        optimizer.step()
    return [p.detach().cpu() for p in model.parameters()]


@pytest.mark.parametrize(
    "name, options",
    [
        ("AdamW", {}),
        ("Adam", {"amsgrad": True}),
        ("SGD", {"momentum": 0.9}),
        ("RMSprop", {}),
        ("Adagrad", {}),
    ],
)
def test_foreach_optimizers_match_cpu(device, name, options):
    for mine, reference in zip(
        train(device, name, **options), train("cpu", name, **options), strict=True
    ):
        torch.testing.assert_close(mine, reference, rtol=1e-5, atol=1e-6)


def launches():
    return dict(_C.launch_counts())


def test_one_launch_per_chunk_of_tensors(device):
    tensors = [torch.randn(n).to(device) for n in range(1, 13)]
    expected = [t.cpu() + 0.5 for t in tensors]
    before = launches()
    torch._foreach_add_(tensors, 0.5)
    after = launches()
    foreach = after.get("foreach", 0) - before.get("foreach", 0)
    maps = after.get("map", 0) - before.get("map", 0)
    assert maps == 0 and 1 <= foreach <= 2, (foreach, maps)
    for mine, reference in zip(tensors, expected, strict=True):
        assert torch.equal(mine.cpu(), reference)


def test_lists_with_strided_tensors_and_new_results(device):
    cpu = [torch.randn(6, 5).t(), torch.randn(4), torch.randn(6, 5)[:, 1]]
    ours = [t.to(device) for t in cpu]
    ours[0] = ours[0].t().contiguous().t()  # keep the transposed layout on the device
    for mine, reference in zip(
        torch._foreach_sqrt(torch._foreach_abs(ours)),
        torch._foreach_sqrt(torch._foreach_abs(cpu)),
        strict=True,
    ):
        torch.testing.assert_close(mine.cpu(), reference)
    steps = [0.5, 2.0, -1.0]
    torch._foreach_addcdiv_(ours, ours, [t.abs() + 1 for t in ours], steps)
    torch._foreach_addcdiv_(cpu, cpu, [t.abs() + 1 for t in cpu], steps)
    for mine, reference in zip(ours, cpu, strict=True):
        torch.testing.assert_close(mine.cpu(), reference)
