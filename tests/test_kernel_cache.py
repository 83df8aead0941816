"""The on-disk kernel cache: concurrent builders, damaged entries, cold and warm runs. The
entries checked are the NVRTC cubins of the shadow compile, so these tests need NVRTC."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import torch_mojo_backend
from conftest import run_python

WORKLOAD = """
import torch, torch_mojo_backend
torch_mojo_backend.register_mojo_devices()
x = torch.arange(12, dtype=torch.float32).to("mojo")
print(round(((x.sin() + x * 2).cumsum(0) - x.exp().log()).sum().item(), 3))
print(*torch_mojo_backend._C.cuda_compile_stats()[:3])
"""

pytestmark = pytest.mark.skipif(
    not torch_mojo_backend._C.cuda_compile_stats()[3], reason="NVRTC is not installed"
)


def run(cache: Path) -> tuple[str, list[int]]:
    out = run_python(WORKLOAD, TORCH_MOJO_BACKEND_CACHE_DIR=str(cache))
    assert out.returncode == 0, out.stderr
    value, stats = out.stdout.strip().splitlines()
    return value, [int(s) for s in stats.split()]


def entries(cache: Path) -> list[Path]:
    return sorted((cache / "cuda").glob("*.bin"))


def test_warm_run_compiles_nothing(tmp_path):
    value, (compiled, hits, failures) = run(tmp_path)
    assert compiled > 0 and failures == 0
    again, (compiled2, hits2, _) = run(tmp_path)
    assert again == value
    assert compiled2 == 0 and hits2 == compiled + hits


def test_damaged_entries_are_rebuilt(tmp_path):
    value, (compiled, _, _) = run(tmp_path)
    files = entries(tmp_path)
    assert len(files) == compiled
    for i, path in enumerate(files):
        data = bytearray(path.read_bytes())
        if i % 2:
            path.write_bytes(bytes(data[: len(data) // 2]))
        else:
            data[-1] ^= 0xFF
            path.write_bytes(bytes(data))
    again, (recompiled, hits, failures) = run(tmp_path)
    assert again == value
    assert recompiled == compiled and hits == 0 and failures == 0
    _, (compiled3, _, _) = run(tmp_path)
    assert compiled3 == 0, "the rebuilt entries are trusted again"


def test_two_processes_building_at_once_both_succeed(tmp_path):
    env = {"TORCH_MOJO_BACKEND_CACHE_DIR": str(tmp_path)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKLOAD],
            env={**os.environ, **env},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err for _, err in outputs]
    values = {out.splitlines()[0] for out, _ in outputs}
    assert len(values) == 1
    assert not list(tmp_path.rglob(".tmp-*")), "no temporary files left behind"
    _, (compiled, _, _) = run(tmp_path)
    assert compiled == 0
