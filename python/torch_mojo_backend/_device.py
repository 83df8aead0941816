"""The ``torch.mojo`` device module: what PyTorch and users call on the device type."""

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
    return False


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


def manual_seed_all(seed: int) -> None:
    """Random numbers are not implemented yet; seeding is accepted so torch.manual_seed works."""


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
