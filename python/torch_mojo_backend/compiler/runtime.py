"""What the wrapper code Inductor generates for the mojo device calls at run time."""

from __future__ import annotations

import functools

import torch

import torch_mojo_backend  # noqa: F401  (defines torch.ops.mojo)
from torch_mojo_backend import _C


def compiled_kernel(program: str):
    """A fused kernel's program, parsed once: calling the result with `(tensors, numbers,
    scalars)` launches it on the current stream. It calls the op's C++ entry point with the
    program's handle bound, so a launch runs no Python frame of its own."""
    handle = _C.load_compiled_program(program.strip())
    return functools.partial(torch.ops.mojo.run_compiled.default._op, handle)


def get_raw_stream(device_index: int) -> int:
    return torch.mojo.current_stream(device_index).stream_id
