"""Fake tensors' convolution layouts on mojo.

torch 2.11's fake convolution (``torch._subclasses.fake_impls.conv``, used by ``torch.compile``
and ``torch.export``) lays its results out as ``torch._C._conv_determine_backend_memory_format``
says, which answers contiguous for every out-of-tree device (``ConvBackend::Overrideable``).
mojo's convolution, like CUDA's, returns channels-last results for a channels-last input or
weight, so a compiled graph over such tensors (Inductor's layout optimization makes them)
asserted strides its convolution does not produce. This wraps the fake convolution so that on
mojo its results take mojo's layout, by the rule of ``src/ops/nn/conv.rs``.
"""

from __future__ import annotations

import torch

aten = torch.ops.aten


def _channels_last(sizes: list[int], strides: list[int]) -> bool:
    """Whether a tensor is laid out channels-last as mojo's convolution reads it
    (`channels_last` in src/ops/nn/conv.rs): 4 or 5 dimensions, not contiguous, channels
    innermost and the spatial dimensions flattening with a stride of the channel count."""
    if len(sizes) not in (4, 5) or strides[1] != 1 or sizes[1] <= 1:
        return False
    contiguous, expected = True, 1
    for size, s in reversed(list(zip(sizes, strides, strict=True))):
        contiguous = contiguous and (size == 1 or s == expected)
        expected *= size
    stride, expected = None, 0
    for size, s in reversed(list(zip(sizes[2:], strides[2:], strict=True))):
        if size == 1:
            continue
        if stride is not None and s != expected:
            return False
        stride = s if stride is None else stride
        expected = s * size
    return not contiguous and stride == sizes[1]


def _as_2d(t: torch.Tensor) -> tuple[list[int], list[int]]:
    """The sizes and strides of `t`, a 1-d convolution's weight, as ATen views it for a 2-d
    one (`unsqueeze(2)`; the input it makes contiguous first)."""
    sizes, strides = list(t.shape), list(t.stride())
    return [*sizes[:2], 1, *sizes[2:]], [*strides[:2], strides[2] * sizes[2], *strides[2:]]


def _created(t: torch.Tensor, channels_last: bool) -> torch.Tensor:
    """A fake tensor of `t`'s shape as mojo's convolution creates its results: row-major, or
    channels innermost (`Call::create_in`; a 1-d convolution's as ATen squeezes its 2-d
    one's)."""
    if channels_last and t.dim() == 3:
        return _created(t.unsqueeze(2), True).squeeze(2)
    if channels_last and t.dim() in (4, 5):
        order = [0, *range(2, t.dim()), 1]
    else:
        order = list(range(t.dim()))
    physical = [t.size(d) for d in order]
    logical = sorted(range(t.dim()), key=lambda i: order[i])
    return t.new_empty(physical).permute(logical)


def _laid_out(t: torch.Tensor | None, channels_last: bool) -> torch.Tensor | None:
    if t is None:
        return None
    created = _created(t, channels_last)
    return t if created.stride() == t.stride() else created


def install(fake_impls) -> None:
    """Wraps the fake convolution and its backward in `fake_impls`."""
    table = fake_impls.op_implementations_dict
    original = table.get(aten.convolution.default)
    if original is None or getattr(original, "_mojo_layouts", False):
        return

    def convolution(fake_mode, func, *args, **kwargs):
        out = original(fake_mode, func, *args, **kwargs)
        first = 0 if func is aten.convolution.default else 1
        x = kwargs.get("input", args[first] if len(args) > first else None)
        w = kwargs.get("weight", args[first + 1] if len(args) > first + 1 else None)
        if x is None or w is None or getattr(x, "fake_device", x.device).type != "mojo":
            return out
        if x.dim() == 3:
            channels_last = _channels_last(*_as_2d(w))
        else:
            channels_last = any(_channels_last(list(t.shape), list(t.stride())) for t in (x, w))
        with fake_mode:
            if func is aten.convolution.default:
                return _laid_out(out, channels_last)
            return (_laid_out(out[0], channels_last), _laid_out(out[1], channels_last), out[2])

    convolution._mojo_layouts = True
    for op in (aten.convolution.default, aten.convolution_backward.default):
        if table.get(op) is original:
            table[op] = convolution
