"""torch.fft on mojo (python/torch_mojo_backend/_fft.py) against the CPU's pocketfft: lengths
around each algorithm's limits (one DFT product up to 32 points, Cooley-Tukey's four steps,
Bluestein's chirp for large primes), past 65,535 points, every norm mode, the real, Hermitian
and N-dimensional transforms, stft/istft, gradients and half precision below torch.fft
(tests/test_threads.py runs FFTs from several threads)."""

import pytest
import torch

LENGTHS = [1, 2, 3, 7, 31, 32, 33, 64, 97, 100, 127, 1000, 1009, 4096]


def close(actual, expected, rtol=2e-5):
    """Each result within a few float32 roundings of the transform's scale."""
    scale = expected.abs().max().item() if expected.numel() else 1.0
    torch.testing.assert_close(actual.cpu(), expected, rtol=rtol, atol=rtol * max(scale, 1.0))


@pytest.mark.parametrize("n", LENGTHS)
def test_lengths(device, n):
    g = torch.Generator().manual_seed(n)
    x = torch.randn(3, n, generator=g)
    z = torch.randn(3, n, dtype=torch.complex64, generator=g)
    close(torch.fft.fft(x.to(device)), torch.fft.fft(x))
    close(torch.fft.rfft(x.to(device)), torch.fft.rfft(x))
    close(torch.fft.ifft(z.to(device)), torch.fft.ifft(z))
    close(torch.fft.irfft(z.to(device), n=n), torch.fft.irfft(z, n=n))
    close(torch.fft.hfft(z.to(device), n=n), torch.fft.hfft(z, n=n))
    close(torch.fft.ihfft(x.to(device)), torch.fft.ihfft(x))


@pytest.mark.parametrize("n", [65_536, 65_537, 70_000])
def test_past_one_launch(device, n):
    x = torch.randn(n, generator=torch.Generator().manual_seed(1))
    close(torch.fft.fft(x.to(device)), torch.fft.fft(x), rtol=5e-5)
    close(torch.fft.irfft(torch.fft.rfft(x).to(device), n=n), x, rtol=5e-5)


@pytest.mark.parametrize("norm", [None, "forward", "backward", "ortho"])
def test_norms_in_float64(device, norm):
    g = torch.Generator().manual_seed(2)
    z = torch.randn(4, 45, dtype=torch.complex128, generator=g)
    for f in (torch.fft.fft, torch.fft.ifft):
        torch.testing.assert_close(f(z.to(device), norm=norm).cpu(), f(z, norm=norm))
    x = torch.randn(4, 45, dtype=torch.float64, generator=g)
    torch.testing.assert_close(
        torch.fft.rfft(x.to(device), norm=norm).cpu(), torch.fft.rfft(x, norm=norm)
    )
    torch.testing.assert_close(
        torch.fft.irfft(z.to(device), n=60, norm=norm).cpu(), torch.fft.irfft(z, n=60, norm=norm)
    )


def test_n_dimensional(device):
    g = torch.Generator().manual_seed(3)
    x = torch.randn(2, 6, 10, 12, generator=g)
    z = torch.randn(3, 5, 8, dtype=torch.complex64, generator=g)
    close(torch.fft.fftn(x.to(device), dim=(1, 2, 3)), torch.fft.fftn(x, dim=(1, 2, 3)))
    close(torch.fft.rfft2(x.to(device)), torch.fft.rfft2(x))
    close(torch.fft.irfftn(z.to(device), s=(5, 14)), torch.fft.irfftn(z, s=(5, 14)))
    close(
        torch.fft.ifft2(z.to(device), s=(4, 9), dim=(0, 2)),
        torch.fft.ifft2(z, s=(4, 9), dim=(0, 2)),
    )
    close(torch.fft.hfftn(z.to(device)), torch.fft.hfftn(z))
    close(torch.fft.ihfft2(x.to(device)), torch.fft.ihfft2(x))
    strided = x.transpose(1, 3)[:, ::2]
    close(torch.fft.fft(strided.to(device), dim=1), torch.fft.fft(strided, dim=1))


def test_integer_and_out(device):
    x = torch.arange(12).reshape(3, 4)
    close(torch.fft.fft(x.to(device)), torch.fft.fft(x))
    out = torch.empty(0, dtype=torch.complex64, device=device)
    torch.fft.rfft(x.float().to(device), out=out)
    close(out, torch.fft.rfft(x.float()))


def test_stft_round_trip(device):
    g = torch.Generator().manual_seed(4)
    signal = torch.randn(2, 400, generator=g)
    window = torch.hann_window(64)
    spec = torch.stft(signal, 64, hop_length=16, window=window, return_complex=True)
    actual = torch.stft(
        signal.to(device), 64, hop_length=16, window=window.to(device), return_complex=True
    )
    close(actual, spec)
    back = torch.istft(actual, 64, hop_length=16, window=window.to(device), length=400)
    close(back, torch.istft(spec, 64, hop_length=16, window=window, length=400))


def test_gradients(device):
    g = torch.Generator().manual_seed(5)
    x = torch.randn(3, 40, generator=g, requires_grad=True)
    m = x.detach().to(device).requires_grad_()
    weight = torch.randn(3, 21, generator=g)
    for inp, w in ((x, weight), (m, weight.to(device))):
        spectrum = torch.fft.rfft(inp)
        loss = (spectrum.abs() * w).sum() + torch.fft.irfft(spectrum * w, n=40).pow(2).sum()
        loss.backward()
    close(m.grad, x.grad, rtol=1e-4)


def test_half_precision(device):
    """torch.fft refuses half types off CUDA, as on the CPU; the kernels below it compute them
    in float32 as cuFFT does, for powers of two."""
    with pytest.raises(RuntimeError, match="Unsupported dtype Half"):
        torch.fft.rfft(torch.ones(8, dtype=torch.float16, device=device))
    x = torch.randn(4, 64, generator=torch.Generator().manual_seed(6))
    actual = torch.ops.aten._fft_r2c(x.half().to(device), [1], 0, True)
    assert actual.dtype == torch.complex32
    close(actual.to(torch.complex64), torch.fft.rfft(x.half().float()), rtol=2e-3)
    with pytest.raises(RuntimeError, match="powers of two"):
        torch.ops.aten._fft_r2c(torch.ones(12, dtype=torch.float16, device=device), [0], 0, True)


def test_errors_match_the_cpu(device):
    with pytest.raises(RuntimeError, match="Invalid number of data points"):
        torch.fft.fft(torch.ones(4, device=device), n=0)
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.fft.rfft(torch.ones(4, device=device), dim=1)


def test_the_vendor_library_serves_the_cuda_backend(device, monkeypatch):
    """On the CUDA backend (the emulation of cuFFT here, cuFFT on a GPU) transforms go through
    the FFT library, up to 3 dimensions a call, never the portable DFT products: the 4-D and
    two-sided transforms are split as PyTorch's CUDA backend splits them, and an inverse real
    transform leaves its input intact though cuFFT overwrites the copy it is given. Elsewhere
    there is no library."""
    from torch_mojo_backend import _C, _fft

    has_library = _C.fft_library(device.index or 0)
    assert has_library == (_C.backend_name() == "cuda")
    if not has_library:
        pytest.skip("the device has no FFT library")
    signals = []
    library_transform = _fft._library_transform

    def counted(z, dims, kind, sizes, forward):
        signals.append(list(sizes))
        return library_transform(z, dims, kind, sizes, forward)

    monkeypatch.setattr(_fft, "_library_transform", counted)
    monkeypatch.setattr(_fft, "_along", lambda *args: pytest.fail("a portable transform ran"))
    g = torch.Generator().manual_seed(4)
    x = torch.randn(2, 3, 4, 7, dtype=torch.float64, generator=g)
    z = torch.randn(2, 3, 4, 5, dtype=torch.complex128, generator=g)
    cases = [
        (torch.fft.fftn, z, {}),
        (torch.fft.fft, torch.randn(70_001, dtype=torch.float64, generator=g), {}),
        (torch.fft.rfftn, x, {"norm": "ortho"}),
        (torch.fft.fftn, x.float(), {"dim": (0, 1, 2, 3), "norm": "forward"}),
        (torch.fft.irfftn, z, {"s": (2, 3, 4, 8)}),
        (torch.fft.hfft, z.to(torch.complex64), {"n": 9}),
    ]
    for transform, value, kwargs in cases:
        moved = value.to(device)
        kept = moved.clone()
        close(transform(moved, **kwargs), transform(value, **kwargs))
        assert torch.equal(moved.cpu(), kept.cpu())
    assert signals[:3] == [[3, 4, 5], [2], [70_001]]
    assert all(len(sizes) <= 3 for sizes in signals)
