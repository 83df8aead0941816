"""Large-input ops (the sizes the chunked reduce, scan, selection, merge sort and accumulate
launches exist for), mojo vs stock torch on the CPU in the same run, median of several runs.

Run: TORCH_MOJO_BACKEND_SOFTWARE=1 .venv/bin/python bench/sizes.py
Each row checks that both computed the same values before it times them.
"""

import statistics
import time

import torch

import torch_mojo_backend

torch_mojo_backend.register_mojo_devices()
DEVICE = torch.accelerator.current_accelerator()
RUNS = 3

torch.manual_seed(0)
big = torch.rand(5_000_000)
row = torch.rand(70_000)
ints = torch.randint(0, 50_000, (65_537,))
index = torch.randint(0, 1000, (70_000,))
values = torch.randint(-3, 4, (70_000, 2)).float()

CASES = {
    "sum, 5M": (lambda x: x.sum(), [big], 1e-4),
    "argmax, 5M": (lambda x: x.argmax(), [big], 0),
    "var, 5M": (lambda x: x.var(), [big], 1e-4),
    "cumsum, 5M": (lambda x: x.cumsum(0), [big], 1e-3),
    "nonzero, 5M": (lambda x: (x > 0.5).nonzero(), [big], 0),
    "softmax, 70,000": (lambda x: torch.softmax(x, 0), [row], 1e-5),
    "sort, 70,000": (lambda x: x.sort(stable=True).values, [row], 0),
    "unique, 65,537": (lambda x: torch.unique(x, return_counts=True)[1], [ints], 0),
    "index_add 70,000 -> 1,000": (
        lambda i, v: torch.zeros(1000, 2, device=v.device).index_add_(0, i, v),
        [index, values],
        0,
    ),
}


def timed(fn, args):
    """Median seconds of `fn(*args)`, each run up to its result on the host."""
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        fn(*args).cpu()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    print(f"{'case':28} {'mojo ms':>10} {'torch ms':>10} {'ratio':>8}")
    for name, (fn, inputs, rtol) in CASES.items():
        on_device = [t.to(DEVICE) for t in inputs]
        torch.testing.assert_close(
            fn(*on_device).cpu(), fn(*inputs), rtol=rtol, atol=rtol, check_dtype=False
        )
        mojo, cpu = timed(fn, on_device), timed(fn, inputs)
        print(f"{name:28} {mojo * 1e3:10.1f} {cpu * 1e3:10.1f} {mojo / cpu:8.1f}")


if __name__ == "__main__":
    main()
