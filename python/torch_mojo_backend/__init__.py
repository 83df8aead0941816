"""The mojo PyTorch accelerator backend.

``import torch_mojo_backend; torch_mojo_backend.register_mojo_devices()`` makes ``mojo`` PyTorch's
current accelerator.
"""

import threading

import torch  # first: loads libc10 and libtorch_cpu for the extension

from . import (
    _C,  # noqa: E402  (static initializers register the allocator, guard, hooks, kernels)
    _device,  # noqa: E402
)

__all__ = ["register_mojo_devices"]


def _minor(version: str) -> str:
    return ".".join(version.split("+")[0].split(".")[:2])


if _minor(torch.__version__) != _minor(_C.torch_version_built()):
    raise ImportError(
        f"torch_mojo_backend was built for torch {_C.torch_version_built()} but torch "
        f"{torch.__version__} is installed; rebuild it against this torch (see README)"
    )

_lock = threading.Lock()
_registered = False


def register_mojo_devices() -> None:
    """Make ``mojo`` PyTorch's current accelerator. Safe to call more than once."""
    global _registered
    with _lock:
        if _registered:
            return
        torch.utils.rename_privateuse1_backend("mojo")
        torch._register_device_module("mojo", _device)
        torch.utils.generate_methods_for_privateuse1_backend(for_storage=True)
        _registered = True
