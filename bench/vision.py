"""Convolution forward and backward at ResNet-50's layer shapes (batch 1 on the software
device), and pooling, batch normalization and resampling, mojo vs stock torch on the CPU in
the same run.

Run: TORCH_MOJO_BACKEND_SOFTWARE=1 .venv/bin/python bench/vision.py [case-substring ...]
Each row first checks that mojo and torch computed the same values (output and both
gradients), then prints the median of several runs, each until the device has finished it.
"""

import sys

import torch
import torch.nn.functional as F
from timing import timed

import torch_mojo_backend

torch_mojo_backend.register_mojo_devices()
DEVICE = torch.accelerator.current_accelerator()
BATCH = 1

# name -> (channels in, size, channels out, kernel, stride[, groups])
CONVOLUTIONS = {
    "conv 7x7/2 3->64 @224 (stem)": (3, 224, 64, 7, 2),
    "conv 1x1 64->256 @56": (64, 56, 256, 1, 1),
    "conv 3x3 64->64 @56": (64, 56, 64, 3, 1),
    "conv 3x3 128->128 @28": (128, 28, 128, 3, 1),
    "conv 3x3 256->256 @14": (256, 14, 256, 3, 1),
    "conv 3x3 512->512 @7": (512, 7, 512, 3, 1),
    "conv 1x1 2048->512 @7": (2048, 7, 512, 1, 1),
    "depthwise 3x3 96 @56 (MobileNet)": (96, 56, 96, 3, 1, 96),
    "depthwise 7x7 256 @28 (ConvNeXt)": (256, 28, 256, 7, 1, 256),
}


def conv_case(c_in, size, c_out, k, stride, groups=1):
    torch.manual_seed(0)
    x = torch.randn(BATCH, c_in, size, size)
    w = torch.randn(c_out, c_in // groups, k, k) / (c_in // groups * k * k) ** 0.5

    def step(x, w):
        x, w = x.detach().requires_grad_(), w.detach().requires_grad_()
        y = F.conv2d(x, w, stride=stride, padding=k // 2, groups=groups)
        y.backward(torch.ones_like(y))
        return y.detach(), x.grad, w.grad

    return step, [x, w]


def other_cases():
    torch.manual_seed(0)
    x = torch.randn(8, 64, 56, 56)

    def max_pool(x):
        x = x.detach().requires_grad_()
        y = F.max_pool2d(x, 3, 2, 1)
        y.backward(torch.ones_like(y))
        return y.detach(), x.grad

    def batch_norm(x):
        x = x.detach().requires_grad_()
        y = F.batch_norm(x, None, None, training=True)
        y.backward(torch.ones_like(y))
        return y.detach(), x.grad

    def resample(**kwargs):
        def run(x):
            x = x.detach().requires_grad_()
            y = F.interpolate(x, **kwargs)
            y.backward(torch.ones_like(y))
            return y.detach(), x.grad

        return run

    small = torch.randn(8, 64, 64, 64)
    photo = torch.randn(8, 3, 500, 375)
    return {
        "max_pool 3x3/2 8x64x56² fwd+bwd": (max_pool, [x]),
        "batch_norm 8x64x56² fwd+bwd": (batch_norm, [x]),
        "nearest x2 8x64x64² fwd+bwd": (resample(scale_factor=2, mode="nearest"), [small]),
        "bilinear x2 8x64x64² fwd+bwd": (resample(scale_factor=2, mode="bilinear"), [small]),
        "bicubic x2 8x64x64² fwd+bwd": (resample(scale_factor=2, mode="bicubic"), [small]),
        "antialiased bilinear 8x3x500x375 -> 224x168": (
            resample(size=(224, 168), mode="bilinear", antialias=True),
            [photo],
        ),
    }


def main():
    chosen = sys.argv[1:]
    print("| case (forward + backward) | mojo ms | torch CPU ms | ratio |")
    print("|---|---:|---:|---:|")
    cases = {name: conv_case(*shape) for name, shape in CONVOLUTIONS.items()}
    cases.update(other_cases())
    for name, (fn, inputs) in cases.items():
        if chosen and not any(c in name for c in chosen):
            continue
        on_device = [t.to(DEVICE) for t in inputs]
        for mine, theirs in zip(fn(*on_device), fn(*inputs), strict=True):
            torch.testing.assert_close(mine.cpu(), theirs, rtol=1e-3, atol=1e-3)
        mojo = timed(fn, on_device, DEVICE, runs=3)
        cpu = timed(fn, inputs, torch.device("cpu"), runs=3)
        print(f"| {name} | {mojo * 1e3:.1f} | {cpu * 1e3:.1f} | {mojo / cpu:.1f}× |", flush=True)


if __name__ == "__main__":
    main()
