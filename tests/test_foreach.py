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


@pytest.mark.parametrize("offset", [0, 1, 2, 3])
def test_fours_around_alignment_tails_and_grid_limits(device, offset):
    """Foreach positions read four elements per work item where their tensors are 16-byte
    aligned, one by one elsewhere: views starting 0-3 elements into their storage, lengths
    around multiples of four and around 2^16, and one longer than 65,535 groups of 64 walk
    in one launch: a short expression (lerp) bit for bit as mojo's per-tensor op and within
    rounding of the CPU (whose lerp fuses its multiply-add), and a long one (addcdiv with a
    tensor of scalars, which takes the element loop) within rounding of the CPU."""
    torch.manual_seed(offset)
    sizes = [1, 3, 4, 5, 7, 65_535, 65_536, 65_539, 65_535 * 64 + 5]
    base = [torch.randn(n + offset) for n in sizes]
    other = [torch.randn(n) for n in sizes]
    cpu = [b[offset:].clone() for b in base]
    mojo = [b.to(device)[offset:] for b in base]
    single = [m.clone() for m in mojo]
    torch._foreach_lerp_(cpu, other, 0.3)
    torch._foreach_lerp_(mojo, [o.to(device) for o in other], 0.3)
    for a, s, o, b in zip(mojo, single, other, cpu, strict=True):
        assert torch.equal(a.cpu(), s.lerp_(o.to(device), 0.3).cpu())
        torch.testing.assert_close(a.cpu(), b)
    scalars = torch.rand(len(sizes)) + 0.5
    torch._foreach_addcdiv_(cpu, other, [o.abs() + 1 for o in other], scalars)
    torch._foreach_addcdiv_(
        mojo, [o.to(device) for o in other], [(o.abs() + 1).to(device) for o in other], scalars
    )
    for a, b in zip(mojo, cpu, strict=True):
        torch.testing.assert_close(a.cpu(), b)
