"""Kernel build time (cold and warm disk cache) and host time per issued op, mojo vs CPU.

Run: TORCH_MOJO_BACKEND_SOFTWARE=1 .venv/bin/python bench/kernels.py
Prints two tables; the ratios compare against stock torch on the CPU measured in this run.
"""

import os
import re
import subprocess
import sys
import tempfile
import time

WORKLOAD = """
import torch, torch_mojo_backend
torch_mojo_backend.register_mojo_devices()
x = torch.ones(64, device="mojo")
y = torch.ones(64, device="mojo", dtype=torch.float16)
for f in (torch.add, torch.mul, torch.maximum):
    f(x, x)
for f in (torch.sin, torch.exp, torch.sqrt, torch.sum, torch.amax, torch.cumsum):
    (f(x, 0) if f is torch.cumsum else f(x))
torch.add(y, y); torch.sum(y); x.to(torch.int64)
torch.mojo.synchronize()
"""

BUILT = re.compile(r"built (.+) for (.+) in (\d+) ms")


def build_times(cache_dir: str) -> dict[str, int]:
    env = dict(os.environ, TORCH_MOJO_BACKEND_CACHE_DIR=cache_dir, TORCH_MOJO_BACKEND_TRACE="1")
    env.pop("TORCH_MOJO_BACKEND_SHADOW_NVRTC", None)
    out = subprocess.run(
        [sys.executable, "-c", WORKLOAD], env=env, capture_output=True, text=True, check=True
    )
    return {m.group(1): int(m.group(3)) for m in map(BUILT.search, out.stderr.splitlines()) if m}


def per_op_us(device: str, op, n: int = 10_000) -> float:
    import torch

    a = torch.ones(16, device=device)
    b = torch.ones(16, device=device)
    for _ in range(100):
        op(a, b)
    torch.accelerator.synchronize() if device != "cpu" else None
    start = time.perf_counter()
    for _ in range(n):
        op(a, b)
    elapsed = time.perf_counter() - start
    if device != "cpu":
        torch.accelerator.synchronize()
    return elapsed / n * 1e6


def main() -> None:
    with tempfile.TemporaryDirectory() as cache:
        cold = build_times(cache)
        warm = build_times(cache)
    print("| kernel | cold build (ms) | warm build, disk cache (ms) |")
    print("|---|---:|---:|")
    for name in cold:
        print(f"| {name} | {cold[name]} | {warm.get(name, '-')} |")
    print(
        f"| median | {sorted(cold.values())[len(cold) // 2]} | "
        f"{sorted(warm.values())[len(warm) // 2]} |"
    )
    print()

    import torch

    import torch_mojo_backend

    torch_mojo_backend.register_mojo_devices()
    ops = {
        "add": torch.add,
        "mul": torch.mul,
        "sum": lambda a, b: torch.sum(a),
    }
    print("| op (16 elements, 10,000 issued without sync) | mojo host µs/op | CPU µs/op | ratio |")
    print("|---|---:|---:|---:|")
    for name, op in ops.items():
        ours, cpu = per_op_us("mojo", op), per_op_us("cpu", op)
        print(f"| {name} | {ours:.1f} | {cpu:.1f} | {ours / cpu:.1f}x |")


if __name__ == "__main__":
    main()
