"""Kernel build time (cold and warm disk cache), host time per issued op, mojo vs CPU, and
where a tiny op's host time goes (glue, allocation, the op, the launch and batch).

Run: TORCH_MOJO_BACKEND_SOFTWARE=1 .venv/bin/python bench/kernels.py
Prints three tables; the ratios compare against stock torch on the CPU measured in this run.
"""

import os
import subprocess
import sys
import tempfile
import time

# Each op's first call builds its kernel; on lavapipe most of the build is the LLVM compile
# at the first dispatch, so a first call is timed up to the end of its work.
WORKLOAD = """
import time, torch, torch_mojo_backend
torch_mojo_backend.register_mojo_devices()
x = torch.ones(64, device="mojo")
h = torch.ones(64, device="mojo", dtype=torch.float16)
ops = {
    "add f32": lambda: x + x, "mul f32": lambda: x * x, "sin f32": lambda: x.sin(),
    "exp f32": lambda: x.exp(), "sum f32": lambda: x.sum(), "amax f32": lambda: x.amax(),
    "cumsum f32": lambda: x.cumsum(0), "add f16": lambda: h + h, "sum f16": lambda: h.sum(),
    "to int64": lambda: x.to(torch.int64), "var f32": lambda: x.var(),
}
torch.mojo.synchronize()
for name, op in ops.items():
    start = time.perf_counter()
    op()
    torch.mojo.synchronize()
    print(f"{name}={(time.perf_counter() - start) * 1e3:.1f}")
"""


def build_times(cache_dir: str) -> dict[str, float]:
    env = dict(os.environ, TORCH_MOJO_BACKEND_CACHE_DIR=cache_dir, TORCH_MOJO_BACKEND_TRACE="0")
    env.pop("TORCH_MOJO_BACKEND_SHADOW_NVRTC", None)
    out = subprocess.run(
        [sys.executable, "-c", WORKLOAD], env=env, capture_output=True, text=True, check=True
    )
    pairs = (line.split("=") for line in out.stdout.splitlines() if "=" in line)
    return {name: float(ms) for name, ms in pairs}


def per_op_us(device: str, op, n: int = 10_000, size: int = 16) -> float:
    import torch

    a = torch.ones(size, device=device)
    b = torch.ones(size, device=device)
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
    print("| kernel (first call, incl. build) | cold (ms) | warm, disk cache (ms) |")
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
    print()
    breakdown()


def breakdown() -> None:
    """Where a tiny add's host time goes, by differences of ops that stop at each stage: a
    view (Python and the dispatcher: the glue), an empty tensor (the allocation), an add of
    empty tensors (the op's argument handling and output, no launch) and a 16-element add
    (the launch: recording and the batch's share of encoding and submitting)."""
    import torch

    stages = {
        "glue (a view)": (16, lambda a, b: a.view(4, 4)),
        "allocation (empty)": (16, lambda a, b: torch.empty(16, device=a.device)),
        "op without launch (add of empty tensors)": (0, torch.add),
        "launch and batch (add of 16 elements)": (16, torch.add),
    }
    print("| stage of a tiny add | mojo µs/op | added by the stage | CPU µs/op |")
    print("|---|---:|---:|---:|")
    before = 0.0
    for name, (n, op) in stages.items():
        ours = min(per_op_us("mojo", op, size=n) for _ in range(3))
        cpu = min(per_op_us("cpu", op, size=n) for _ in range(3))
        print(f"| {name} | {ours:.2f} | {ours - before:+.2f} | {cpu:.2f} |")
        before = ours


if __name__ == "__main__":
    main()
