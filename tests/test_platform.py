"""The vendor choice: TORCH_MOJO_BACKEND_PLATFORM forces cuda or wgpu, and CUDA being
unavailable is reported as an error, never a crash."""

import ctypes.util
import os
import subprocess
import sys

import pytest

from conftest import software_only

HAS_LIBCUDA = ctypes.util.find_library("cuda") is not None

PROBE = """
import torch, torch_mojo_backend as m
m.register_mojo_devices()
print(torch.mojo.is_available(), torch.mojo.device_count())
try:
    print(m._C.backend_name(), (torch.ones(3, device="mojo") * 2).sum().item())
except RuntimeError as e:
    print("RuntimeError:", e)
"""


def probe(**env: str) -> list[str]:
    run = subprocess.run(
        [sys.executable, "-c", PROBE],
        env=dict(os.environ, **env),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()


@pytest.mark.skipif(HAS_LIBCUDA, reason="this machine has an NVIDIA driver")
def test_forced_cuda_without_a_driver_is_a_clear_error():
    available, message = probe(TORCH_MOJO_BACKEND_PLATFORM="cuda")
    assert available == "False 0"
    assert message.startswith("RuntimeError: mojo: TORCH_MOJO_BACKEND_PLATFORM=cuda, but CUDA")
    assert "libcuda" in message


@pytest.mark.skipif(HAS_LIBCUDA, reason="this machine has an NVIDIA driver")
def test_without_a_driver_the_choice_falls_to_wgpu():
    available, result = probe(TORCH_MOJO_BACKEND_PLATFORM="")
    assert available == "True 1"
    assert result == "wgpu 6.0"


@software_only
def test_forced_wgpu_runs_the_software_device():
    assert probe(TORCH_MOJO_BACKEND_PLATFORM="wgpu")[1] == "wgpu 6.0"


def test_an_unknown_platform_is_named_in_the_error():
    available, message = probe(TORCH_MOJO_BACKEND_PLATFORM="rocm")
    assert available == "False 0"
    assert 'TORCH_MOJO_BACKEND_PLATFORM="rocm" is not a platform' in message
