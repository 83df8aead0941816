"""Batch, instance and group normalization on mojo against the CPU: training with running
statistics, evaluation, channels_last, and per-channel counts past one reduction chunk."""

import pytest
import torch


def run(module_fn, x, device, train=True, steps=2):
    """Forward and backward through a fresh module on `device`; the outputs, the input and
    parameter gradients and the module's buffers."""
    torch.manual_seed(0)
    module = module_fn().to(device)
    module.train(train)
    xs = x.detach().to(device).requires_grad_()
    results = []
    for _ in range(steps):
        out = module(xs)
        grad = torch.linspace(-1, 1, out.numel()).reshape(out.shape).to(device)
        out.backward(grad)
        results.append(out.detach().cpu())
    results.append(xs.grad.cpu())
    results += [p.grad.cpu() for p in module.parameters()]
    results += [b.cpu() for b in module.buffers()]
    return results


CASES = {
    "batch_norm_2d": (lambda: torch.nn.BatchNorm2d(4), (3, 4, 5, 6)),
    "batch_norm_1d": (lambda: torch.nn.BatchNorm1d(5), (7, 5)),
    "batch_norm_1d_sequence": (lambda: torch.nn.BatchNorm1d(5, momentum=None), (3, 5, 4)),
    "batch_norm_3d_no_affine": (lambda: torch.nn.BatchNorm3d(2, affine=False), (2, 2, 3, 4, 5)),
    "instance_norm": (lambda: torch.nn.InstanceNorm2d(3, affine=True), (2, 3, 5, 5)),
    "group_norm": (lambda: torch.nn.GroupNorm(2, 6), (3, 6, 4, 5)),
    "group_norm_per_channel": (lambda: torch.nn.GroupNorm(6, 6, affine=False), (2, 6, 7)),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("train", [True, False])
def test_matches_cpu(device, name, train):
    module_fn, shape = CASES[name]
    x = torch.randn(shape) * 3 + 1
    ours = run(module_fn, x, device, train)
    theirs = run(module_fn, x, "cpu", train)
    for mine, reference in zip(ours, theirs, strict=True):
        torch.testing.assert_close(mine, reference, rtol=1e-4, atol=1e-5)


def test_channels_last(device):
    x = torch.randn(2, 8, 5, 6).to(memory_format=torch.channels_last)
    out = torch.nn.BatchNorm2d(8).to(device)(x.to(device))
    assert out.is_contiguous(memory_format=torch.channels_last)
    ours = run(lambda: torch.nn.BatchNorm2d(8), x, device)
    theirs = run(lambda: torch.nn.BatchNorm2d(8), x, "cpu")
    for mine, reference in zip(ours, theirs, strict=True):
        torch.testing.assert_close(mine, reference, rtol=1e-4, atol=1e-5)


def test_many_values_per_channel(device):
    # 4 x 48 x 48 = 9,216 values per channel: the statistics run in stages. The parameter
    # gradients (results 3 and 4) sum 9,216 upstream values per channel whose float32 partial
    # sums reach about 3,000 (one ulp: 2.4e-4), and the middle channel's bias gradient cancels
    # to exactly 0 in the CPU's float64 accumulation: they are compared to within a few ulps
    # of those partials.
    x = torch.randn(4, 3, 48, 48) + 5
    for module_fn in [lambda: torch.nn.BatchNorm2d(3), lambda: torch.nn.GroupNorm(1, 3)]:
        ours = run(module_fn, x, device)
        theirs = run(module_fn, x, "cpu")
        for i, (mine, reference) in enumerate(zip(ours, theirs, strict=True)):
            atol = 2e-3 if i in (3, 4) else 1e-4
            torch.testing.assert_close(mine, reference, rtol=1e-4, atol=atol)


def test_eval_without_running_stats_errors(device):
    x = torch.randn(2, 3, 4, device=device)
    with pytest.raises(RuntimeError, match="running_mean"):
        torch.native_batch_norm(x, None, None, None, None, False, 0.1, 1e-5)


def test_resnet_block_trains_like_cpu(device):
    def train(where):
        torch.manual_seed(0)
        model = torch.nn.Sequential(
            torch.nn.Conv2d(3, 8, 3, padding=1, bias=False),
            torch.nn.BatchNorm2d(8),
            torch.nn.ReLU(),
            torch.nn.Conv2d(8, 8, 3, padding=1, bias=False),
            torch.nn.GroupNorm(2, 8),
            torch.nn.SiLU(),
            torch.nn.AdaptiveAvgPool2d(1),
            torch.nn.Flatten(),
            torch.nn.Linear(8, 10),
        ).to(where)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        x = torch.randn(16, 3, 8, 8).to(where)
        labels = torch.randint(0, 10, (16,)).to(where)
        losses = []
        for _ in range(20):
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x), labels)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        model.eval()
        with torch.no_grad():
            losses.append(torch.nn.functional.cross_entropy(model(x), labels).item())
        return losses, [t.detach().cpu() for t in model.state_dict().values()]

    ours, our_state = train(device)
    theirs, their_state = train("cpu")
    assert ours == pytest.approx(theirs, rel=1e-3, abs=1e-4)
    for mine, reference in zip(our_state, their_state, strict=True):
        torch.testing.assert_close(mine, reference, rtol=1e-3, atol=1e-3)
