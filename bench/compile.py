"""torch.compile on mojo: compiled against eager training steps (time and kernel launches per
step) for the transformer LM of examples/transformer_lm.py and an MLP, and the time the first
compiled step takes (compiling included) next to stock Inductor compiling the same step for
the CPU, all in the same run.

Run: TORCH_MOJO_BACKEND_SOFTWARE=1 .venv/bin/python bench/compile.py
Run it twice to see the warm-cache compile times (Inductor's caches and mojo's kernel cache
on disk); TORCHINDUCTOR_FORCE_DISABLE_CACHES=1 makes every run cold for Inductor.
Each model's compiled losses are first checked against its eager losses. A second table gives
the host time of a compiled function of one pointwise kernel on 16 elements (what a launch of
a compiled kernel costs the host), next to stock Inductor's on the CPU.
"""

import sys
import time
from pathlib import Path

import torch
import torch._dynamo
from timing import sync, timed
from torch import nn

import torch_mojo_backend
from kernels import per_op_us
from torch_mojo_backend import _C

torch_mojo_backend.register_mojo_devices()
sys.path.insert(0, str(Path(__file__).parents[1] / "examples"))
import transformer_lm as lm  # noqa: E402


def mlp_step(device):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.LayerNorm(256), nn.Linear(256, 64)).to(
        device
    )
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    x, y = torch.randn(256, 64).to(device), torch.randn(256, 64).to(device)

    def step():
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        return loss

    return step


def launches_per_step(step) -> int:
    before = sum(_C.launch_counts().values())
    step()
    return sum(_C.launch_counts().values()) - before


def compile_and_run(step, device):
    """The compiled step, the seconds its first call took (compiling included) and the loss
    that call returned."""
    torch._dynamo.reset()
    compiled = torch.compile(step)
    sync(device)
    start = time.perf_counter()
    loss = compiled()
    sync(device)
    return compiled, time.perf_counter() - start, loss.item()


def main():
    mojo, cpu = torch.device("mojo"), torch.device("cpu")
    print(
        "| model | mojo eager ms | mojo compiled ms | compiled / eager | torch CPU compiled ms "
        "| mojo compiled / torch CPU | launches eager -> compiled "
        "| first compiled step s (mojo) | first compiled step s (Inductor on CPU) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, make in (("transformer LM", lm.training_step), ("MLP", mlp_step)):
        cpu_compiled, first_cpu, _ = compile_and_run(make(cpu), cpu)
        cpu_ms = timed(cpu_compiled, (), cpu, runs=7) * 1e3
        eager = make(mojo)
        eager_losses = [eager().item() for _ in range(3)]
        compiled, first_mojo, first_loss = compile_and_run(make(mojo), mojo)
        compiled_losses = [first_loss] + [compiled().item() for _ in range(2)]
        assert all(
            abs(a - b) <= 1e-3 * abs(a) for a, b in zip(eager_losses, compiled_losses, strict=True)
        ), (eager_losses, compiled_losses)
        eager_ms = timed(eager, (), mojo, runs=7) * 1e3
        compiled_ms = timed(compiled, (), mojo, runs=7) * 1e3
        counts = f"{launches_per_step(eager)} -> {launches_per_step(compiled)}"
        print(
            f"| {name} | {eager_ms:.1f} | {compiled_ms:.1f} | {compiled_ms / eager_ms:.2f}x "
            f"| {cpu_ms:.1f} | {compiled_ms / cpu_ms:.1f}x "
            f"| {counts} | {first_mojo:.1f} | {first_cpu:.1f} |"
        )
    host_time()


def host_time():
    """Host microseconds per call of a compiled one-kernel function, issued without sync."""

    def chain(a, b):
        return (a * b + 1).relu()

    print()
    print("| 16 elements, 10,000 calls | mojo µs/call | torch CPU µs/call | ratio |")
    print("|---|---:|---:|---:|")
    x, y = torch.randn(16), torch.randn(16)
    ours, cpu = torch.compile(chain), torch.compile(chain)
    torch.testing.assert_close(ours(x.to("mojo"), y.to("mojo")).cpu(), cpu(x, y))
    for name, fn_ours, fn_cpu in (("eager", chain, chain), ("compiled", ours, cpu)):
        mojo_us = min(per_op_us("mojo", fn_ours) for _ in range(3))
        cpu_us = min(per_op_us("cpu", fn_cpu) for _ in range(3))
        ratio = mojo_us / cpu_us
        print(f"| {name} `(a * b + 1).relu()` | {mojo_us:.1f} | {cpu_us:.1f} | {ratio:.1f}x |")


if __name__ == "__main__":
    main()
