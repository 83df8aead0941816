"""A small MLP trained on mojo follows the CPU's losses step by step."""

import pytest
import torch


def train(device, steps=6, optimizer_name="AdamW"):
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10)
    ).to(device)
    optimizer = getattr(torch.optim, optimizer_name)(model.parameters(), lr=1e-2)
    inputs = torch.randn(32, 64).to(device)
    labels = torch.randint(0, 10, (32,)).to(device)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(inputs), labels)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses, [p.detach().cpu() for p in model.parameters()]


@pytest.mark.parametrize("optimizer_name", ["AdamW", "SGD"])
def test_mlp_losses_match_cpu(device, optimizer_name):
    ours, our_params = train(device, optimizer_name=optimizer_name)
    theirs, their_params = train("cpu", optimizer_name=optimizer_name)
    assert ours == pytest.approx(theirs, rel=1e-4)
    for mine, reference in zip(our_params, their_params, strict=True):
        torch.testing.assert_close(mine, reference, rtol=1e-4, atol=1e-5)


def load_example(name):
    """The module of examples/<name>.py."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parent.parent / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_transformer_language_model_matches_cpu(device):
    """The README's demo: a 2-layer causal TransformerEncoder LM, 20 AdamW steps."""
    example = load_example("transformer_lm")
    ours = example.train(torch.device(device))
    theirs = example.train(torch.device("cpu"))
    assert len(ours) == example.STEPS
    assert ours == pytest.approx(theirs, rel=1e-4)
    assert ours[-1] < ours[0] * 0.8, "the model should learn"


def test_cnn_example_matches_cpu(device):
    """examples/cnn.py: a residual CNN (channels_last) with batch/group norm and pooling."""
    example = load_example("cnn")
    ours = example.train(torch.device(device))
    theirs = example.train(torch.device("cpu"))
    assert len(ours) == example.STEPS
    assert ours == pytest.approx(theirs, rel=1e-3)
    assert ours[-1] < ours[0] * 0.8, "the model should learn"


def test_the_spec_training_loop_runs_unchanged():
    """examples/training_loop.py is the spec's loop (bfloat16 autocast) and prints its lines."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).parent.parent / "examples" / "training_loop.py"
    env = dict(os.environ, TORCH_MOJO_BACKEND_SOFTWARE="1")
    result = subprocess.run(
        [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "mojo: 1 device(s), current index 0"
    assert lines[-1].startswith("loss ") and 0.0 < float(lines[-1].split()[1]) < 3.0


@pytest.mark.parametrize("options", [{}, {"reduction": "none"}, {"label_smoothing": 0.1}])
def test_cross_entropy_over_spatial_targets_matches_cpu(device, options):
    """Segmentation-style [N, C, H, W] logits go through nll_loss2d."""
    torch.manual_seed(0)
    logits, target = torch.randn(2, 5, 3, 4), torch.randint(0, 5, (2, 3, 4))
    target[0, 1, 1] = -100
    results = []
    for dev in (device, "cpu"):
        x = logits.to(dev).requires_grad_()
        loss = torch.nn.functional.cross_entropy(x, target.to(dev), **options)
        loss.sum().backward()
        results.append((loss.detach().cpu(), x.grad.cpu()))
    for mine, reference in zip(results[0], results[1], strict=True):
        torch.testing.assert_close(mine, reference)
