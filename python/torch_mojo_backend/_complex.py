"""Complex tensors on mojo: the views between complex tensors and their (real, imaginary)
pairs, and the ops that build or conjugate complex tensors, registered below autograd
(PrivateUse1). A complex tensor is stored as pairs of its component dtype; copies and
conversions between complex and real dtypes run in mojo's copy kernel, and everything here
works on the pair views with mojo's real kernels.

The views take their geometry (and their errors) from the same view taken of a meta tensor
shaped like the input, so sizes, strides, offsets and messages are the CPU's own.
"""

import torch


def _meta_like(x):
    """A meta tensor with x's dtype, sizes, strides, storage offset and conjugate bit."""
    items = x.untyped_storage().nbytes() // x.element_size()
    meta = torch.empty(items, dtype=x.dtype, device="meta")
    meta = meta.as_strided(x.shape, x.stride(), x.storage_offset())
    return meta.conj() if x.is_conj() else meta


def _alias(x, geometry):
    """A tensor over x's storage with the dtype, sizes, strides and offset of `geometry`."""
    out = torch.empty(0, dtype=geometry.dtype, device=x.device)
    return out.set_(
        x.untyped_storage(), geometry.storage_offset(), geometry.shape, geometry.stride()
    )


def view_as_real(self):
    return _alias(self, torch.view_as_real(_meta_like(self)))


def view_as_complex(self):
    return _alias(self, torch.view_as_complex(_meta_like(self)))


def pairs(x):
    """The (real, imaginary) pairs of a complex tensor, conjugation resolved."""
    return torch.view_as_real(x.resolve_conj())


def resize_out(out, shape):
    """Resizes an `out=` tensor as ATen's `resize_output` does (warning if it had elements)."""
    return torch._refs._maybe_resize_out(out, shape)


def conj_physical_out(self, *, out):
    resize_out(out, self.shape)
    if not self.is_complex():
        return out.copy_(self)
    stored = self.conj() if self.is_conj() else self
    source, target = torch.view_as_real(stored), torch.view_as_real(out)
    target[..., 0].copy_(source[..., 0])
    if self.is_conj():
        target[..., 1].copy_(source[..., 1])
    else:
        torch.neg(source[..., 1], out=target[..., 1])
    return out


_C10_NAMES = {
    torch.float16: "Half",
    torch.float32: "Float",
    torch.float64: "Double",
    torch.complex32: "ComplexHalf",
    torch.complex64: "ComplexFloat",
    torch.complex128: "ComplexDouble",
    torch.bfloat16: "BFloat16",
    torch.int64: "Long",
    torch.int32: "Int",
    torch.int16: "Short",
    torch.int8: "Char",
    torch.uint8: "Byte",
}
_COMPLEX_OF = {torch.float16: torch.complex32, torch.float32: torch.complex64}
_COMPLEX_OF[torch.float64] = torch.complex128


def _name(dtype):
    return _C10_NAMES.get(dtype) or str(dtype).removeprefix("torch.").capitalize()


def _check_parts(a, b, out):
    """The CPU's checks of `complex`/`polar` arguments (the same messages)."""
    if a.dtype not in _COMPLEX_OF or b.dtype not in _COMPLEX_OF:
        raise RuntimeError(
            "Expected both inputs to be Half, Float or Double tensors but got "
            f"{_name(a.dtype)} and {_name(b.dtype)}"
        )
    if a.dtype != b.dtype:
        raise RuntimeError(
            f"Expected object of scalar type {_name(a.dtype)} but got scalar type "
            f"{_name(b.dtype)} for second argument"
        )
    if out.dtype != _COMPLEX_OF[a.dtype]:
        raise RuntimeError(
            f"Expected object of scalar type {_name(_COMPLEX_OF[a.dtype])} but got scalar type "
            f"{_name(out.dtype)} for argument 'out'"
        )
    return torch.broadcast_shapes(a.shape, b.shape)


def complex_out(real, imag, *, out):
    shape = _check_parts(real, imag, out)
    resize_out(out, shape)
    parts = torch.view_as_real(out)
    parts[..., 0].copy_(real.expand(shape))
    parts[..., 1].copy_(imag.expand(shape))
    return out


def polar_out(abs, angle, *, out):
    resize_out(out, _check_parts(abs, angle, out))
    parts = torch.view_as_real(out)
    torch.mul(abs, torch.cos(angle), out=parts[..., 0])
    torch.mul(abs, torch.sin(angle), out=parts[..., 1])
    return out


def _plain(t):
    """t's data as stored: a view without the conjugate and negative bits."""
    t = t.conj() if t.is_conj() else t
    return torch._neg_view(t) if t.is_neg() else t


def copy_from_math_bits(self, dst, non_blocking=False):
    """`_copy_from` for a side with the conjugate or negative bit set (CPU and CUDA resolve
    the bits in their copy kernel; PyTorch's fallback would resolve them by a copy, which
    comes back here): the stored data is copied, then conjugated or negated in place."""
    torch.ops.aten._copy_from(_plain(self), _plain(dst), non_blocking)
    if self.is_conj() != dst.is_conj():
        torch.conj_physical(_plain(dst), out=_plain(dst))
    if self.is_neg() != dst.is_neg():
        _plain(dst).neg_()
    return dst


# Registered for the Conjugate and Negative dispatch keys, ahead of PyTorch's fallback.
MATH_BIT_KERNELS = {"_copy_from": copy_from_math_bits}

KERNELS = {
    "view_as_real": view_as_real,
    "view_as_complex": view_as_complex,
    "conj_physical.out": conj_physical_out,
    "complex.out": complex_out,
    "polar.out": polar_out,
}
