"""What the wrapper code Inductor generates for the mojo device calls at run time."""

from __future__ import annotations

import torch

import torch_mojo_backend  # noqa: F401  (defines torch.ops.mojo)


class CompiledKernel:
    """A fused kernel's program; calling it launches the kernel on the current stream."""

    def __init__(self, program: str) -> None:
        self.program = program.strip()
        self._run = torch.ops.mojo.run_compiled.default

    def __call__(self, tensors: list[torch.Tensor], numbers: list[int], scalars: list) -> None:
        self._run(self.program, tensors, numbers, scalars)


def get_raw_stream(device_index: int) -> int:
    return torch.mojo.current_stream(device_index).stream_id
