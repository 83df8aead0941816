"""The spec's Saving and loading section, run as written (files in a temporary directory)."""

import subprocess
import sys

import torch


def test_the_spec_save_and_load_example(device, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    device = torch.device(device)

    model = torch.nn.Linear(4, 2).to(device)
    torch.save(model.state_dict(), "ckpt.pt")

    restored = torch.nn.Linear(4, 2).to(device)
    restored.load_state_dict(torch.load("ckpt.pt", map_location=device))
    assert str(restored.weight.device) == "mojo:0"

    cpu_state = torch.load("ckpt.pt", map_location="cpu")
    assert cpu_state["weight"].device.type == "cpu"
    assert torch.equal(cpu_state["weight"], model.weight.detach().cpu())
    # By default a saved tensor comes back onto the accelerator.
    assert str(torch.load("ckpt.pt")["weight"].device) == "mojo:0"
    assert str(torch.load("ckpt.pt", mmap=True)["bias"].device) == "mojo:0"
    mapped = torch.load("ckpt.pt", map_location={"mojo:0": "cpu"})
    assert mapped["weight"].device.type == "cpu"


def test_views_keep_sharing_storage_through_a_round_trip(device, tmp_path):
    base = torch.arange(10.0).to(device)
    torch.save({"base": base, "view": base[2:5]}, tmp_path / "views.pt")
    loaded = torch.load(tmp_path / "views.pt")
    loaded["view"][0] = 100.0
    assert loaded["base"][2].item() == 100.0


def test_a_mojo_checkpoint_loads_on_the_cpu_without_the_backend(device, tmp_path):
    path = tmp_path / "ckpt.pt"
    torch.save({"w": torch.arange(6.0).to(device)}, path)
    code = f"import torch; print(torch.load({str(path)!r}, map_location='cpu')['w'].tolist())"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]"
