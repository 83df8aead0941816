"""torch.fft on mojo vs stock torch on the CPU (pocketfft) in the same run: powers of two,
a length with small factors, and a large prime (Bluestein's chirp).

Run: TORCH_MOJO_BACKEND_SOFTWARE=1 .venv/bin/python bench/fft.py [case-substring ...]
Each row first checks that mojo and torch computed the same values, then prints the median
of the runs, each until the device has finished it.
"""

import sys

import torch
from timing import timed

import torch_mojo_backend

torch_mojo_backend.register_mojo_devices()
DEVICE = torch.accelerator.current_accelerator()

# name -> (transform, input shape, complex input, runs)
CASES = {
    "rfft 64 x 4096": (torch.fft.rfft, (64, 4096), False, 5),
    "fft 2^20": (torch.fft.fft, (1 << 20,), True, 3),
    "fft 8 x 6000 (2^4 3 5^3)": (torch.fft.fft, (8, 6000), True, 5),
    "fft 8 x 10007 (prime)": (torch.fft.fft, (8, 10007), True, 3),
    "fft2 256 x 256": (torch.fft.fft2, (16, 256, 256), True, 3),
}


def main():
    chosen = sys.argv[1:]
    print("| case | mojo ms | torch CPU ms | ratio |")
    print("|---|---:|---:|---:|")
    for name, (transform, shape, complex_input, runs) in CASES.items():
        if chosen and not any(c in name for c in chosen):
            continue
        dtype = torch.complex64 if complex_input else torch.float32
        x = torch.randn(shape, dtype=dtype, generator=torch.Generator().manual_seed(0))
        on_device = x.to(DEVICE)
        expected = transform(x)
        scale = expected.abs().max().item()
        torch.testing.assert_close(
            transform(on_device).cpu(), expected, rtol=1e-4, atol=1e-4 * scale
        )
        mojo = timed(transform, [on_device], DEVICE, runs=runs)
        cpu = timed(transform, [x], torch.device("cpu"), runs=runs)
        print(f"| {name} | {mojo * 1e3:.0f} | {cpu * 1e3:.1f} | {mojo / cpu:.0f}× |", flush=True)


if __name__ == "__main__":
    main()
