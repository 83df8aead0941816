"""torchvision models train on mojo: forward and backward equal to the CPU at a small input."""

import copy

import pytest
import torch

torchvision = pytest.importorskip("torchvision")


@pytest.mark.parametrize("name", ["resnet18", "mobilenet_v3_small"])
def test_forward_backward_match_cpu(device, name):
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None)
    for module in model.modules():
        if isinstance(module, torch.nn.Dropout):
            module.p = 0.0  # random masks differ between devices
    x = torch.randn(4, 3, 32, 32)
    cpu_model = copy.deepcopy(model)
    expected = cpu_model(x)
    expected.square().mean().backward()
    reference = [p.grad for p in cpu_model.parameters()]
    model.to(device)
    actual = model(x.to(device))
    actual.square().mean().backward()
    torch.testing.assert_close(actual.cpu(), expected, rtol=1e-3, atol=1e-3)
    # Gradients against the model's scale: some are exactly zero in exact arithmetic (a bias
    # before a batch norm), rounding noise on either device.
    scale = max(r.abs().max().item() for r in reference)
    for p, r in zip(model.parameters(), reference, strict=True):
        torch.testing.assert_close(p.grad.cpu(), r, rtol=1e-3, atol=1e-3 * scale)
    # The running statistics moved the same way.
    for mine, theirs in zip(model.buffers(), cpu_model.buffers(), strict=True):
        torch.testing.assert_close(mine.cpu(), theirs, rtol=1e-4, atol=1e-5)
