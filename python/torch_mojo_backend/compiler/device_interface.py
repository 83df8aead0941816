"""What dynamo and Inductor ask of the mojo device (``torch._dynamo.device_interface``)."""

from __future__ import annotations

import os
from collections import namedtuple

import torch
from torch._dynamo.device_interface import DeviceInterface

from .. import _C, _device

_Properties = namedtuple(
    "MojoProperties", ["name", "multi_processor_count", "max_threads_per_block", "warp_size"]
)


def _properties(device=None) -> _Properties:
    index = _device._get_device_index(device, optional=True)
    index = _device.current_device() if index < 0 else index
    # The software device has no multiprocessors: it runs groups on the CPU's cores.
    count = _C.multiprocessor_count(index) or os.cpu_count() or 1
    return _Properties(_device.get_device_name(index), count, 1024, 32)


class MojoInterface(DeviceInterface):
    device = _device.device
    Event = _device.Event
    Stream = _device.Stream

    class Worker:
        @staticmethod
        def set_device(device: int) -> None:
            _device.set_device(device)

        @staticmethod
        def current_device() -> int:
            return _device.current_device()

        @staticmethod
        def get_device_properties(device=None):
            return _properties(device)

    current_device = staticmethod(_device.current_device)
    set_device = staticmethod(_device.set_device)
    device_count = staticmethod(_device.device_count)
    is_available = staticmethod(_device.is_available)
    stream = staticmethod(_device.stream)
    current_stream = staticmethod(_device.current_stream)
    set_stream = staticmethod(_device.set_stream)
    synchronize = staticmethod(_device.synchronize)

    @staticmethod
    def maybe_exchange_device(device: int) -> int:
        previous = _device.current_device()
        if device >= 0 and device != previous:
            _device.set_device(device)
        return previous

    exchange_device = maybe_exchange_device

    @staticmethod
    def _set_stream_by_id(stream_id: int, device_index: int, device_type: int) -> None:
        _device.set_stream(
            torch.Stream(stream_id=stream_id, device_index=device_index, device_type=device_type)
        )

    @staticmethod
    def get_raw_stream(device_idx: int) -> int:
        return _device.current_stream(device_idx).stream_id

    @classmethod
    def get_device_properties(cls, device=None):
        return _properties(device)

    @staticmethod
    def get_compute_capability(device=None) -> str:
        return ""

    @staticmethod
    def is_bf16_supported(including_emulation: bool = False) -> bool:
        return True

    @classmethod
    def is_dtype_supported(cls, dtype: torch.dtype, including_emulation: bool = False) -> bool:
        return dtype not in (torch.complex64, torch.complex128)

    @staticmethod
    def memory_allocated(device=None) -> int:
        return torch.accelerator.memory_allocated(device)

    @staticmethod
    def is_triton_capable(device=None) -> bool:
        return False
