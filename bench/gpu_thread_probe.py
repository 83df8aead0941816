"""One thread runs autograd's backward while another runs a forward pass, as
tests/test_threads.py does, with every stage of the forward (upload, each layer) and every
gradient checked against the CPU, so that a wrong result names its op. Prints one JSON line per
run: each mismatch's round and stage, with a few of its values and the CPU's. On an H200 this
found cuBLASLt products issued from two threads at once going wrong in one of them (the first
layer's linear); the CUDA device now issues library products one at a time.

    python bench/gpu_thread_probe.py [--warm none|forward|library|kernel] [--rounds N]

`--warm` does something on the main thread before the threads start: `forward` runs the
forward model once, `library` one linear layer with a bias on other shapes (cuBLASLt's
first use, no kernels of ours), `kernel` one tanh (a kernel of ours, no cuBLAS). Run with
TORCH_MOJO_BACKEND_PLATFORM=cuda (bench/gpu_check.sh sets it up).
"""

import argparse
import copy
import json
import sys
import threading
from pathlib import Path

import torch
import torch.nn.functional as F

import torch_mojo_backend

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
from test_threads import mlp  # noqa: E402 (the test's models)

torch_mojo_backend.register_mojo_devices()
DEVICE = torch.device("mojo")


def sample(t):
    """A few values and the absolute sum of `t`, to recognise what a wrong result holds."""
    flat = t.flatten()
    return [round(v, 4) for v in flat[:4].tolist()] + [round(flat.abs().sum().item(), 3)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--warm", default="none")
    parser.add_argument("--rounds", type=int, default=25)
    args = parser.parse_args()
    trained, other = mlp(0, [20, 64, 32, 1]), mlp(1, [16, 48, 8])
    trained_dev, other_dev = copy.deepcopy(trained).to(DEVICE), copy.deepcopy(other).to(DEVICE)
    with torch.no_grad():
        if args.warm == "forward":
            other_dev(torch.randn(64, 16).to(DEVICE)).cpu()
        elif args.warm == "library":
            linear = torch.nn.Linear(5, 3).to(DEVICE)
            linear(torch.randn(7, 5).to(DEVICE)).cpu()
        elif args.warm == "kernel":
            torch.tanh(torch.randn(9).to(DEVICE)).cpu()
    mismatches, errors = [], []
    barrier = threading.Barrier(2)

    def backward_thread():
        barrier.wait()
        g = torch.Generator().manual_seed(5)
        for r in range(args.rounds):
            x, y = torch.randn(32, 20, generator=g), torch.randn(32, 1, generator=g)
            trained_dev.zero_grad()
            F.mse_loss(trained_dev(x.to(DEVICE)), y.to(DEVICE)).backward()
            trained.zero_grad()
            F.mse_loss(trained(x), y).backward()
            for (name, p), (_, q) in zip(
                trained.named_parameters(), trained_dev.named_parameters(), strict=True
            ):
                got = q.grad.cpu()
                if not torch.allclose(got, p.grad, rtol=1e-4, atol=1e-5):
                    mismatches.append(("backward", r, name, sample(got), sample(p.grad)))

    def forward_thread():
        barrier.wait()
        g = torch.Generator().manual_seed(6)
        for r in range(2 * args.rounds):
            x = torch.randn(64, 16, generator=g)
            with torch.no_grad():
                h, h_dev = x, x.to(DEVICE)
                stages = [("upload", h, h_dev)]
                for i, layer in enumerate(other):
                    h, h_dev = layer(h), other_dev[i](h_dev)
                    stages.append((f"layer{i}:{type(layer).__name__}", h, h_dev))
            for stage, expected, actual in stages:
                got = actual.cpu()
                if not torch.allclose(got, expected, rtol=1e-4, atol=1e-5):
                    mismatches.append(("forward", r, stage, sample(got), sample(expected)))
                    break

    def guarded(body):
        try:
            body()
        except Exception as e:  # a failure is a result
            errors.append(f"{type(e).__name__}: {e}")

    threads = [
        threading.Thread(target=guarded, args=(b,)) for b in (backward_thread, forward_thread)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(json.dumps({"warm": args.warm, "mismatches": mismatches[:20], "errors": errors}))


if __name__ == "__main__":
    main()
