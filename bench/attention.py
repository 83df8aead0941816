"""Scaled dot-product attention forward and backward (the fused kernel) at T=1024 and 4096,
mojo vs stock torch on the CPU in the same run.

Run: TORCH_MOJO_BACKEND_SOFTWARE=1 .venv/bin/python bench/attention.py [case-substring ...]
Each row first checks that mojo and torch computed the same values (output and the three
gradients), then prints the median of the runs, each until the device has finished it.
"""

import sys

import torch
import torch.nn.functional as F
from timing import timed

import torch_mojo_backend

torch_mojo_backend.register_mojo_devices()
DEVICE = torch.accelerator.current_accelerator()

# name -> (batch, heads, sequence, head width, causal, runs)
CASES = {
    "sdpa T=1024 8 heads x 64 causal": (1, 8, 1024, 64, True, 3),
    "sdpa T=1024 8 heads x 64": (1, 8, 1024, 64, False, 3),
    "sdpa T=4096 2 heads x 64 causal": (1, 2, 4096, 64, True, 1),
}


def case(batch, heads, length, width, causal):
    torch.manual_seed(0)
    qkv = [torch.randn(batch, heads, length, width) for _ in range(3)]

    def step(q, k, v):
        q, k, v = (t.detach().requires_grad_() for t in (q, k, v))
        out = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        out.backward(torch.ones_like(out))
        return out.detach(), q.grad, k.grad, v.grad

    return step, qkv


def main():
    chosen = sys.argv[1:]
    print("| case (forward + backward) | mojo ms | torch CPU ms | ratio |")
    print("|---|---:|---:|---:|")
    for name, (*shape, runs) in CASES.items():
        if chosen and not any(c in name for c in chosen):
            continue
        fn, inputs = case(*shape)
        on_device = [t.to(DEVICE) for t in inputs]
        for mine, theirs in zip(fn(*on_device), fn(*inputs), strict=True):
            torch.testing.assert_close(mine.cpu(), theirs, rtol=1e-3, atol=1e-3)
        mojo = timed(fn, on_device, DEVICE, runs=runs)
        cpu = timed(fn, inputs, torch.device("cpu"), runs=runs)
        print(f"| {name} | {mojo * 1e3:.0f} | {cpu * 1e3:.1f} | {mojo / cpu:.0f}× |", flush=True)


if __name__ == "__main__":
    main()
