"""The kernel-engine benchmark: bandwidth-bound ops, GEMM, sort/selection/scatter, host time
per tiny op and a training step, mojo vs stock torch on the CPU in the same run.

Run: TORCH_MOJO_BACKEND_SOFTWARE=1 .venv/bin/python bench/throughput.py [case-substring ...]
Each row first checks that mojo and torch computed the same values (a fast wrong answer is not
a speed-up), then prints the median of several runs, each timed until the device has finished
it (the result stays on the device; reading it back is not timed).
"""

import sys

import torch
import torch.nn.functional as F
from timing import timed

import torch_mojo_backend

torch_mojo_backend.register_mojo_devices()
DEVICE = torch.accelerator.current_accelerator()


def mlp_step(device):
    """One AdamW step of a 64→256→64 MLP on a batch of 256; returns the updated first weight."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 64)
    ).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    x = torch.randn(256, 64).to(device)
    y = torch.randn(256, 64).to(device)

    def step():
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
        return model[0].weight

    return step


def tiny_adds(a):
    for _ in range(2000):
        a = a + 1
    return a


torch.manual_seed(0)
big = torch.rand(16 * 1024 * 1024)
square = torch.randn(4096, 4096)
m1024 = torch.randn(1024, 1024)
rows = torch.randn(8192, 1024)
logits = torch.randn(64, 50257)
index = torch.randint(0, 1000, (1_000_000,))
ones = torch.rand(1_000_000)
tokens = torch.randint(0, 50257, (8, 1024))
grad = torch.randn(8, 1024, 256)
million = torch.rand(1_000_000)
# Pinned destinations of the download row, one per side so the check compares two results.
pinned = {kind: torch.empty(big.shape, pin_memory=True) for kind in ("cpu", "mojo")}


def to_pinned(x):
    """A non-blocking copy into pinned host memory (torch CPU: a memcpy into it)."""
    return pinned[x.device.type].copy_(x, non_blocking=True)


# name -> (function of the inputs, inputs, tolerance)
CASES = {
    "2,000 tiny adds (host time)": (tiny_adds, [torch.zeros(16)], 0),
    "add, 16M float32": (lambda x: x + x, [big], 0),
    "copy 64 MiB into pinned host memory": (to_pinned, [big], 0),
    "add, 16M uint8": (lambda x: x + x, [big.mul(255).to(torch.uint8)], 0),
    "float32 > 0.5 into bool, 16M": (lambda x: x > 0.5, [big], 0),
    "mul, 16M float16": (lambda x: x * x, [big.half()], 0),
    "GELU (erf), 16M float32": (F.gelu, [big], 1e-6),
    "tanh, 16M float32": (torch.tanh, [big], 1e-6),
    "sum, 16M bfloat16": (lambda x: x.sum(), [big.bfloat16()], 1e-2),
    "sum, 16M": (lambda x: x.sum(), [big], 1e-4),
    "sum over rows, 4096²": (lambda x: x.sum(1), [square], 1e-4),
    "sum over columns, 4096²": (lambda x: x.sum(0), [square], 1e-4),
    "softmax, 4096²": (lambda x: torch.softmax(x, 1), [square], 1e-5),
    "layer_norm, 8192×1024": (lambda x: F.layer_norm(x, (1024,)), [rows], 1e-4),
    "cumsum, 16M": (lambda x: x.cumsum(0), [big], 1e-2),
    "matmul float32 1024³": (lambda a: a @ a, [m1024], 1e-3),
    "sort, 1M": (lambda x: x.sort().values, [million], 0),
    "topk 64×50257, k=50": (lambda x: x.topk(50).values, [logits], 0),
    "index_select 1,024 of 4,096 rows, 4096²": (
        lambda x, i: x.index_select(0, i),
        [square, index[:1024].mul(4).remainder(4096)],
        0,
    ),
    "index_add 1M -> 1k": (
        lambda i, v: torch.zeros(1000, device=v.device).index_add_(0, i, v),
        [index, ones],
        1e-3,
    ),
    "embedding backward 50257×256": (
        lambda t, g: torch.ops.aten.embedding_dense_backward(g, t, 50257, -1, False),
        [tokens, grad],
        1e-3,
    ),
}


def main():
    chosen = sys.argv[1:]
    print("| case | mojo ms | torch CPU ms | ratio |")
    print("|---|---:|---:|---:|")
    cases = dict(CASES)
    cases["MLP training step (64→256→64, AdamW)"] = (None, [], 1e-4)
    for name, (fn, inputs, tol) in cases.items():
        if chosen and not any(c in name for c in chosen):
            continue
        if fn is None:
            ours, theirs = mlp_step(DEVICE), mlp_step(torch.device("cpu"))
            torch.testing.assert_close(ours().cpu(), theirs(), rtol=tol, atol=tol)
            mojo, cpu = timed(ours, [], DEVICE), timed(theirs, [], torch.device("cpu"))
        else:
            on_device = [t.to(DEVICE) for t in inputs]
            torch.testing.assert_close(
                fn(*on_device).cpu(), fn(*inputs), rtol=tol, atol=tol, check_dtype=False
            )
            mojo, cpu = timed(fn, on_device, DEVICE), timed(fn, inputs, torch.device("cpu"))
        print(f"| {name} | {mojo * 1e3:.1f} | {cpu * 1e3:.1f} | {mojo / cpu:.1f}× |", flush=True)


if __name__ == "__main__":
    main()
