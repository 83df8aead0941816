"""Linear algebra on mojo vs stock torch on the CPU (MKL) in the same run: small and batched
matrix products (the per-element GEMM's range), a complex product, a solve, eig and eigvals,
and a sparse @ dense product.

Run: TORCH_MOJO_BACKEND_SOFTWARE=1 .venv/bin/python bench/linalg.py [case-substring ...]
Each row first checks that mojo and torch computed the same values (eig: the eigenvalues in
the CPU's order and |eigenvectors|), then prints the median of the runs, each until the
device has finished it.
"""

import sys

import torch
from timing import timed

import torch_mojo_backend

torch_mojo_backend.register_mojo_devices()
DEVICE = torch.accelerator.current_accelerator()


def randn(*shape, dtype=torch.float32, seed=0):
    return torch.randn(shape, dtype=dtype, generator=torch.Generator().manual_seed(seed))


def sparse_rows(rows, cols, density, seed=0):
    g = torch.Generator().manual_seed(seed)
    return (
        torch.randn(rows, cols, generator=g) * (torch.rand(rows, cols, generator=g) < density)
    ).to_sparse()


def eig_parts(a):
    values, vectors = torch.linalg.eig(a)
    return values, vectors.abs()


F64, C64 = torch.float64, torch.complex64

# name -> (fn, inputs, tolerance, runs)
CASES = {
    "mm float64 3x3, batch 256": (
        torch.bmm,
        [randn(256, 3, 3, dtype=F64), randn(256, 3, 3, dtype=F64, seed=1)],
        1e-12,
        5,
    ),
    "mm float32 2x38 @ 38x38": (torch.mm, [randn(2, 38), randn(38, 38, seed=1)], 1e-5, 5),
    "mm float64 1x1000 @ 1000x1000": (
        torch.mm,
        [randn(1, 1000, dtype=F64), randn(1000, 1000, dtype=F64, seed=1)],
        1e-10,
        3,
    ),
    "mm complex64 40x40": (
        torch.mm,
        [randn(40, 40, dtype=C64), randn(40, 40, dtype=C64, seed=1)],
        1e-4,
        5,
    ),
    "solve float32 40x40": (torch.linalg.solve, [randn(40, 40), randn(40, 3, seed=1)], 1e-3, 3),
    "eigvals float64 20x20": (torch.linalg.eigvals, [randn(20, 20, dtype=F64)], 1e-9, 3),
    "eig float32 40x40": (eig_parts, [randn(40, 40)], 1e-3, 3),
    "eig complex64 20x20": (eig_parts, [randn(20, 20, dtype=C64)], 1e-3, 3),
    "sparse 2000x2000 (1%) @ 2000x64": (
        torch.sparse.mm,
        [sparse_rows(2000, 2000, 0.01), randn(2000, 64, seed=1)],
        1e-4,
        3,
    ),
}


def main():
    chosen = sys.argv[1:]
    print("| case | mojo ms | torch CPU ms | ratio |")
    print("|---|---:|---:|---:|")
    for name, (fn, inputs, tol, runs) in CASES.items():
        if chosen and not any(c in name for c in chosen):
            continue
        on_device = [x.to(DEVICE) for x in inputs]
        expected = fn(*inputs)
        actual = fn(*on_device)
        for a, e in zip(
            actual if isinstance(actual, tuple) else (actual,),
            expected if isinstance(expected, tuple) else (expected,),
            strict=True,
        ):
            scale = max(1.0, e.abs().max().item())
            torch.testing.assert_close(a.cpu(), e, rtol=tol, atol=tol * scale)
        mojo = timed(fn, on_device, DEVICE, runs=runs)
        cpu = timed(fn, inputs, torch.device("cpu"), runs=runs)
        print(f"| {name} | {mojo * 1e3:.2f} | {cpu * 1e3:.3f} | {mojo / cpu:.0f}× |", flush=True)


if __name__ == "__main__":
    main()
