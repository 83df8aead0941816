"""Discrete Fourier transforms composed from mojo's kernels (PrivateUse1, below autograd:
PyTorch's own formulas differentiate `_fft_r2c`, `_fft_c2r` and `_fft_c2c`).

A signal of length n is transformed along one dimension, as its (real, imaginary) pairs:
- n up to `DIRECT`: one matrix product with the n-point DFT matrix, written as a real
  (2n x 2n) matrix acting on interleaved pairs;
- n with a factor up to `DIRECT`: Cooley-Tukey's four steps, n = n1 * n2: n2 transforms of
  length n1, a twiddle product, n1 transforms of length n2 (recursively), a transpose;
- otherwise (large prime factors) Bluestein's chirp: a cyclic convolution of a
  power-of-two length, by the transforms above.
Work is O(n log n) with a base of `DIRECT`; the error grows as the CPU's (pocketfft)
logarithmically. Half types compute in float32 and round once, as CUDA does.

Plans (DFT matrices, twiddles, chirps) are built once per size on the host in float64, as
pocketfft and cuFFT build theirs. Those under `DEVICE_PLAN_BYTES` are kept on the device
too (in the allocator's small pool); larger ones are copied to it per call, so a kept plan
never holds a large segment that `empty_cache` could otherwise release.

Where the device has a vendor FFT library (cuFFT on NVIDIA), transforms run through it
instead (`torch.ops.mojo.fft`), as PyTorch's CUDA backend does: up to 3 dimensions per call
on contiguous signals moved to the end, a real transform over the last 3 dimensions given
and complex ones over the rest; two-sided real transforms as complex ones.
"""

import functools
import math

import torch

from . import _C
from ._complex import resize_out

DIRECT = 32  # longest transform done as one matrix product
DEVICE_PLAN_BYTES = 1 << 20  # the allocator's small-pool limit


def _compute_dtype(dtype):
    return torch.float64 if dtype in (torch.float64, torch.complex128) else torch.float32


_COMPLEX_OF = {
    torch.float16: torch.complex32,
    torch.float32: torch.complex64,
    torch.float64: torch.complex128,
}
_REAL_OF = {c: r for r, c in _COMPLEX_OF.items()}


def _angles(numerators, n):
    """2*pi*k/n for integer numerators k, reduced modulo n first (exact in float64)."""
    return torch.remainder(numerators, n).to(torch.float64) * (2 * math.pi / n)


def _on_device(build, *key, dtype, device):
    """The float64 host plan `build(*key)` in `dtype` on `device`."""
    host = build(*key)
    if host.numel() * host.element_size() <= DEVICE_PLAN_BYTES:
        return _kept(build, key, dtype, device)
    return host.to(device=device, dtype=dtype)


@functools.lru_cache(maxsize=512)
def _kept(build, key, dtype, device):
    return build(*key).to(device=device, dtype=dtype)


@functools.lru_cache(maxsize=256)
def _dft_matrix(n, inverse):
    """The real (2n x 2n) matrix M with pairs(x) @ M = pairs(DFT(x)) for interleaved pairs."""
    k = torch.arange(n, dtype=torch.int64)
    theta = _angles(k[:, None] * k[None, :], n)  # [j, k]
    sign = 1.0 if inverse else -1.0
    c, s = torch.cos(theta), sign * torch.sin(theta)
    m = torch.empty(n, 2, n, 2, dtype=torch.float64)
    m[:, 0, :, 0], m[:, 0, :, 1] = c, s
    m[:, 1, :, 0], m[:, 1, :, 1] = -s, c
    return m.reshape(2 * n, 2 * n)


@functools.lru_cache(maxsize=16)
def _twiddles(n1, n2, inverse):
    """exp(-+2*pi*i*k1*j2/(n1*n2)) as (n1, n2, 2) pairs."""
    k1 = torch.arange(n1, dtype=torch.int64)[:, None]
    j2 = torch.arange(n2, dtype=torch.int64)[None, :]
    theta = _angles(k1 * j2, n1 * n2)
    sign = 1.0 if inverse else -1.0
    return torch.stack((torch.cos(theta), sign * torch.sin(theta)), -1)


def _multiply(a, b):
    """The complex product of pair tensors (broadcasting)."""
    ar, ai = a[..., 0], a[..., 1]
    br, bi = b[..., 0], b[..., 1]
    return torch.stack((ar * br - ai * bi, ar * bi + ai * br), -1)


def _factor(n):
    """The largest factor of n in [2, DIRECT], or None."""
    for f in range(min(DIRECT, n - 1), 1, -1):
        if n % f == 0:
            return f
    return None


def _dft(z, inverse):
    """Unnormalized DFT of pair tensors z (batch, n, 2) along n."""
    batch, n = z.shape[0], z.shape[1]
    if n == 1 or batch == 0:
        return z.clone()
    if n <= DIRECT:
        m = _on_device(_dft_matrix, n, inverse, dtype=z.dtype, device=z.device)
        return (z.reshape(batch, 2 * n) @ m).reshape(batch, n, 2)
    n1 = _factor(n)
    if n1 is None:
        return _bluestein(z, inverse)
    n2 = n // n1
    # x[j1 * n2 + j2]: transforms over j1 for each j2, then twiddles, then over j2.
    x = z.reshape(batch, n1, n2, 2).transpose(1, 2).reshape(batch * n2, n1, 2)
    y = _dft(x, inverse).reshape(batch, n2, n1, 2).transpose(1, 2)  # [b, k1, j2]
    y = _multiply(y, _on_device(_twiddles, n1, n2, inverse, dtype=z.dtype, device=z.device))
    y = _dft(y.reshape(batch * n1, n2, 2), inverse).reshape(batch, n1, n2, 2)
    # X[k1 + n1 * k2]
    return y.transpose(1, 2).reshape(batch, n, 2)


@functools.lru_cache(maxsize=16)
def _chirp(n, inverse):
    """Bluestein's chirp w[j] = exp(+-pi*i*j^2/n) for j < n."""
    j = torch.arange(n, dtype=torch.int64)
    theta = _angles(j * j, 2 * n)  # pi * j^2 / n, j^2 reduced modulo 2n
    sign = 1.0 if inverse else -1.0
    return torch.stack((torch.cos(theta), sign * torch.sin(theta)), -1)


@functools.lru_cache(maxsize=16)
def _chirp_kernel(n, m, inverse):
    """The conjugated chirp's cyclic extension to length m, the sequence the signal is
    convolved with (transformed on the device by the caller)."""
    w = _chirp(n, inverse)
    kernel = torch.zeros(m, 2, dtype=torch.float64)
    kernel[:n, 0], kernel[:n, 1] = w[:, 0], -w[:, 1]
    kernel[m - n + 1 :, 0], kernel[m - n + 1 :, 1] = w[1:, 0].flip(0), -w[1:, 1].flip(0)
    return kernel


def _bluestein(z, inverse):
    batch, n = z.shape[0], z.shape[1]
    m = 1 << (2 * n - 2).bit_length()
    w = _on_device(_chirp, n, inverse, dtype=z.dtype, device=z.device)
    kernel = _on_device(_chirp_kernel, n, m, inverse, dtype=z.dtype, device=z.device)
    kernel = _dft(kernel[None], False)[0]
    a = z.new_zeros(batch, m, 2)
    a[:, :n] = _multiply(z, w)
    conv = _dft(_multiply(_dft(a, False), kernel), True)[:, :n] * (1.0 / m)
    return _multiply(conv, w)


def _along(z, dim, inverse):
    """The DFT of pairs z (..., 2) along `dim` (a dimension of the complex tensor)."""
    moved = z.movedim(dim, -2)
    shape = moved.shape
    out = _dft(moved.reshape(-1, shape[-2], 2), inverse)
    return out.reshape(shape).movedim(-2, dim)


def _scale(z, sizes, normalization):
    count = math.prod(sizes)
    if normalization == 1:
        return z * (1.0 / math.sqrt(count))
    if normalization == 2:
        return z * (1.0 / count)
    return z


def _result(z, dtype):
    """A contiguous complex tensor of `dtype` holding the pairs z."""
    out = torch.empty(z.shape[:-1], dtype=dtype, device=z.device)
    torch.view_as_real(out).copy_(z)
    return out


def _pairs_of(self):
    """The input's pairs in the compute dtype (a real input gains zero imaginary parts)."""
    compute = _compute_dtype(self.dtype)
    if self.is_complex():
        return torch.view_as_real(self.resolve_conj()).to(compute)
    real = self.to(compute)
    return torch.stack((real, torch.zeros_like(real)), -1)


def _check_half(self, dims, sizes):
    if self.dtype in (torch.float16, torch.complex32):
        for d in dims:
            n = sizes[d]
            if n & (n - 1):
                raise RuntimeError(
                    "cuFFT only supports dimensions whose sizes are powers of two when computing "
                    f"in half precision, but got a signal size of{list(sizes[d] for d in dims)}"
                )


@functools.cache
def _has_library(index):
    return _C.fft_library(index)


def _library(tensor):
    """Whether `tensor`'s device transforms through its vendor FFT library."""
    return _has_library(tensor.device.index or 0)


# `torch.ops.mojo.fft`'s kinds.
_C2C, _R2C, _C2R = 0, 1, 2


def _library_transform(z, dims, kind, sizes, forward):
    """The library's unnormalized transform of `z` (pairs (..., 2), or reals for a real
    input) over `dims` (at most 3) of signal `sizes`: those dimensions moved to the end, the
    signals made contiguous (a copy: the complex-to-real transform overwrites its input), the
    result moved back."""
    complex_in = kind != _R2C
    ndim = z.dim() - complex_in
    dims = [d % ndim for d in dims]
    rest = [d for d in range(ndim) if d not in dims]
    order = rest + dims + ([ndim] if complex_in else [])
    signals = z.permute(order).clone(memory_format=torch.contiguous_format)
    batch_shape = signals.shape[: len(rest)]
    out_last = sizes[-1] if kind != _R2C else sizes[-1] // 2 + 1
    out_shape = [*batch_shape, *sizes[:-1], out_last] + ([2] if kind != _C2R else [])
    out = torch.empty(out_shape, dtype=z.dtype, device=z.device)
    torch.ops.mojo.fft(signals, out, kind, list(sizes), forward)
    inverse = [0] * len(order[:ndim])
    for position, d in enumerate(order[:ndim]):
        inverse[d] = position
    return out.permute(inverse + ([ndim] if kind != _C2R else []))


def _library_c2c(z, dims, forward):
    """Complex transforms of pairs `z` over `dims` through the library, 3 dimensions a call."""
    dims = list(dims)
    while dims:
        chunk, dims = dims[-3:], dims[:-3]
        z = _library_transform(z, chunk, _C2C, [z.shape[d] for d in chunk], forward)
    return z


def _fft_c2c(self, dim, normalization, forward):
    _check_half(self, dim, self.shape)
    if _library(self):
        z = _library_c2c(_pairs_of(self), dim, forward)
        z = _scale(z, [self.shape[d] for d in dim], normalization)
        return _result(z, self.dtype)
    z = _pairs_of(self)
    for d in dim:
        z = _along(z, d, not forward)
    z = _scale(z, [self.shape[d] for d in dim], normalization)
    return _result(z, self.dtype)


def _fft_r2c(self, dim, normalization, onesided):
    _check_half(self, dim, self.shape)
    if _library(self):
        sizes = [self.shape[d] for d in dim]
        if onesided:
            real = self.to(_compute_dtype(self.dtype))
            z = _library_transform(real, dim[-3:], _R2C, sizes[-3:], True)
            z = _library_c2c(z, dim[:-3], True)
        else:
            z = _library_c2c(_pairs_of(self), dim, True)
        return _result(_scale(z, sizes, normalization), _COMPLEX_OF[self.dtype])
    z = _pairs_of(self)
    last = dim[-1]
    z = _along(z, last, False)
    if onesided:
        z = z.narrow(last, 0, self.shape[last] // 2 + 1)
    for d in dim[:-1]:
        z = _along(z, d, False)
    z = _scale(z, [self.shape[d] for d in dim], normalization)
    return _result(z, _COMPLEX_OF[self.dtype])


def _first(z, dim, count):
    """The first `count` entries of pairs z along `dim`, zeros past its end."""
    z = z.narrow(dim, 0, min(count, z.shape[dim]))
    if z.shape[dim] < count:
        pad = list(z.shape)
        pad[dim] = count - z.shape[dim]
        z = torch.cat((z, z.new_zeros(pad)), dim)
    return z


def _fft_c2r(self, dim, normalization, last_dim_size):
    last = dim[-1]
    sizes = list(self.shape)
    sizes[last] = last_dim_size
    _check_half(self, dim, sizes)
    z = _pairs_of(self)
    half = last_dim_size // 2 + 1
    z = _first(z, last, half)
    if _library(self):
        z = _library_c2c(z, dim[:-3], False)
        z = _library_transform(z, dim[-3:], _C2R, [sizes[d] for d in dim[-3:]], False)
        z = _scale(z, [sizes[d] for d in dim], normalization)
        return z.to(_REAL_OF[self.dtype]).contiguous()
    for d in dim[:-1]:
        z = _along(z, d, True)
    # The Hermitian extension X[n - k] = conj(X[k]) of the kept half, then its inverse DFT's
    # real part (imaginary parts that must vanish, as at k = 0, are ignored as by the CPU).
    mirrored = last_dim_size - half
    if mirrored > 0:
        tail = z.narrow(last, 1, mirrored).flip(last)
        tail = torch.stack((tail[..., 0], -tail[..., 1]), -1)
        z = torch.cat((z, tail), last)
    z = _along(z, last, True)[..., 0]
    z = _scale(z, [sizes[d] for d in dim], normalization)
    return z.to(_REAL_OF[self.dtype]).contiguous()


def _out_variant(kernel):
    def out_kernel(*args, out):
        result = kernel(*args)
        resize_out(out, result.shape)
        return out.copy_(result)

    return out_kernel


KERNELS = {
    "_fft_c2c": _fft_c2c,
    "_fft_r2c": _fft_r2c,
    "_fft_c2r": _fft_c2r,
    "_fft_c2c.out": _out_variant(_fft_c2c),
    "_fft_r2c.out": _out_variant(_fft_r2c),
    "_fft_c2r.out": _out_variant(_fft_c2r),
}
