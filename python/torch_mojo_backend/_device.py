"""The ``torch.mojo`` device module: what PyTorch and users call on the device type."""

import os
import threading

import torch

from . import _C

_initialized = False
_init_lock = threading.Lock()


def is_available() -> bool:
    """True when at least one mojo device can be used."""
    return _C.device_count() > 0


def device_count() -> int:
    """Number of mojo devices (0 when none can be used)."""
    return _C.device_count()


def is_initialized() -> bool:
    return _initialized


def _lazy_init() -> None:
    """Start the runtime on first device use; fail clearly when it has no device."""
    global _initialized
    if _initialized:
        return
    with _init_lock:
        if _initialized:
            return
        if _C.device_count() == 0:
            reason = _C.init_error()
            hint = "set TORCH_MOJO_BACKEND_SOFTWARE=1 for the software device"
            detail = f": {reason}" if reason else f"; no GPU adapter was found ({hint})"
            raise RuntimeError(f"mojo: no device is available{detail}")
        _initialized = True


def _is_in_bad_fork() -> bool:
    """True in a child forked after the device was initialised (it cannot use the device)."""
    return _C.in_bad_fork()


def current_device() -> int:
    """The current device index of this thread."""
    return _C.current_device()


def set_device(device) -> None:
    """Make ``device`` the current device of this thread."""
    index = _get_device_index(device)
    if index >= 0:
        _C.set_device(index)


def _get_device_index(device, optional: bool = False) -> int:
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device):
        if device.type != "mojo":
            raise ValueError(f"Expected a mojo device, but got: {device}")
        return current_device() if device.index is None else device.index
    if device is None:
        return current_device()
    return int(device)


def synchronize(device=None) -> None:
    """Wait for all work queued on ``device`` (default: the current device)."""
    _lazy_init()
    _C.synchronize(_get_device_index(device))


def get_device_name(device=None) -> str:
    return _C.device_name(_get_device_index(device))


def get_amp_supported_dtype():
    return [torch.float16, torch.bfloat16]


# Random numbers: each device has a default Philox generator with CUDA's state (a 64-bit seed
# and a 64-bit offset), so a seed gives CUDA's numbers.


def _index_or_current(device) -> int:
    index = _get_device_index(device, optional=True)
    return current_device() if index < 0 else index


def get_rng_state(device="mojo") -> torch.Tensor:
    """The default generator's state: 16 bytes, the seed then the offset (little-endian)."""
    seed, offset = _C.rng_state(_index_or_current(device))
    state = seed.to_bytes(8, "little") + offset.to_bytes(8, "little", signed=True)
    return torch.frombuffer(bytearray(state), dtype=torch.uint8)


def set_rng_state(new_state: torch.Tensor, device="mojo") -> None:
    """Restores a state from get_rng_state (16 bytes, or 8: the seed with offset 0)."""
    if new_state.dtype != torch.uint8 or new_state.device.type != "cpu":
        raise TypeError("RNG state must be a torch.ByteTensor")
    data = bytes(new_state.contiguous().tolist())
    if len(data) not in (8, 16):
        raise RuntimeError("RNG state is wrong size")
    offset = int.from_bytes(data[8:], "little", signed=True) if len(data) == 16 else 0
    if offset % 4:
        raise RuntimeError("offset must be a multiple of 4")
    _C.set_rng_state(_index_or_current(device), int.from_bytes(data[:8], "little"), offset)


def get_rng_state_all() -> list:
    return [get_rng_state(i) for i in range(device_count())]


def set_rng_state_all(new_states) -> None:
    for i, state in enumerate(new_states):
        set_rng_state(state, i)


def manual_seed(seed: int) -> None:
    """Seeds the current device's default generator (offset 0)."""
    if device_count() > 0:
        _C.set_rng_state(current_device(), int(seed) & (2**64 - 1), 0)


def manual_seed_all(seed: int) -> None:
    """Seeds every device's default generator; torch.manual_seed calls this."""
    for i in range(device_count()):
        _C.set_rng_state(i, int(seed) & (2**64 - 1), 0)


def seed() -> None:
    """Seeds the current device's default generator with a non-deterministic number."""
    manual_seed(int.from_bytes(os.urandom(8), "little"))


def seed_all() -> None:
    manual_seed_all(int.from_bytes(os.urandom(8), "little"))


def initial_seed() -> int:
    return _C.rng_state(current_device())[0]


class device:
    """Context manager that makes ``idx`` the current mojo device."""

    def __init__(self, idx):
        self.idx = _get_device_index(idx, optional=True)
        self.prev = -1

    def __enter__(self):
        self.prev = current_device()
        if self.idx >= 0 and self.idx != self.prev:
            set_device(self.idx)

    def __exit__(self, *args):
        if self.idx >= 0 and self.idx != self.prev:
            set_device(self.prev)
        return False


class _Utils:
    _get_device_index = staticmethod(_get_device_index)


_utils = _Utils()


# Streams and events, as torch.cuda has them (FSDP and DeviceMesh call these through
# `getattr(torch, "mojo")`); they are torch.Stream / torch.Event of the mojo device.


def _mojo_device(device) -> torch.device:
    return torch.device("mojo", _get_device_index(device))


class Stream(torch.Stream):
    """A stream of a mojo device (default: the current one)."""

    def __new__(cls, device=None, priority: int = 0, **kwargs):
        return super().__new__(cls, device=_mojo_device(device), priority=priority, **kwargs)


class Event(torch.Event):
    """An event of the current mojo device."""

    def __new__(cls, enable_timing: bool = False, blocking: bool = False, interprocess=False):
        return super().__new__(
            cls,
            device=_mojo_device(None),
            enable_timing=enable_timing,
            blocking=blocking,
            interprocess=interprocess,
        )


def current_stream(device=None) -> torch.Stream:
    """The current stream of `device` for this thread."""
    return torch.accelerator.current_stream(_mojo_device(device))


def default_stream(device=None) -> torch.Stream:
    """The default stream of `device`."""
    current = current_stream(device)
    return torch.Stream(
        stream_id=0, device_index=current.device_index, device_type=current.device_type
    )


def set_stream(stream: torch.Stream) -> None:
    """Makes `stream` the current stream of its device for this thread."""
    torch.accelerator.set_stream(stream)


class stream:
    """Context manager that makes `stream` current (None: no change)."""

    def __init__(self, stream):
        self.stream = stream
        self.previous = None

    def __enter__(self):
        if self.stream is not None:
            self.previous = current_stream(self.stream.device)
            set_stream(self.stream)
        return self.stream

    def __exit__(self, *args):
        if self.previous is not None:
            set_stream(self.previous)
        return False


# Memory: torch.cuda's names, answered by torch.accelerator (the backend's allocator), so code
# written against `torch.get_device_module(device)` finds them (see the Accelerator API page
# for what the numbers mean here).


def memory_allocated(device=None) -> int:
    return torch.accelerator.memory_allocated(_index_or_current(device))


def max_memory_allocated(device=None) -> int:
    return torch.accelerator.max_memory_allocated(_index_or_current(device))


def memory_reserved(device=None) -> int:
    return torch.accelerator.memory_reserved(_index_or_current(device))


def max_memory_reserved(device=None) -> int:
    return torch.accelerator.max_memory_reserved(_index_or_current(device))


def memory_stats(device=None) -> dict:
    return torch.accelerator.memory_stats(_index_or_current(device))


def reset_peak_memory_stats(device=None) -> None:
    torch.accelerator.reset_peak_memory_stats(_index_or_current(device))


def empty_cache() -> None:
    torch.accelerator.empty_cache()


def mem_get_info(device=None) -> tuple[int, int]:
    """(free, total) bytes of the device, as ``torch.cuda.mem_get_info``."""
    return torch.accelerator.get_memory_info(_index_or_current(device))


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """Every mojo device computes in bfloat16 (kernels widen it to float32)."""
    return is_available()


class _DeviceProperties:
    """The device's name and memory, as the matching fields of torch.cuda's properties."""

    def __init__(self, index: int) -> None:
        self.name = get_device_name(index)
        self.total_memory = mem_get_info(index)[1]

    def __repr__(self) -> str:
        return (
            f"_MojoDeviceProperties(name='{self.name}', total_memory={self.total_memory >> 20}MB)"
        )


def get_device_properties(device=None) -> _DeviceProperties:
    return _DeviceProperties(_index_or_current(device))
