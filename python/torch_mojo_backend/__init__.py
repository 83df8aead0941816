"""The mojo PyTorch accelerator backend.

``import torch_mojo_backend; torch_mojo_backend.register_mojo_devices()`` makes ``mojo`` PyTorch's
current accelerator.
"""

import os
import threading

import torch  # first: loads libc10 and libtorch_cpu for the extension

from . import (
    _C,  # noqa: E402  (static initializers register the allocator, guard, hooks, kernels)
    _device,  # noqa: E402
)

__all__ = ["register_mojo_devices"]


def _locate_nvrtc() -> None:
    """Points the runtime at NVRTC from the nvidia-* wheels, when they are installed."""
    if "TORCH_MOJO_BACKEND_NVRTC" in os.environ:
        return
    try:
        import nvidia
    except ImportError:
        return
    for root in getattr(nvidia, "__path__", []):
        for sub in ("cu13/lib", "cuda_nvrtc/lib"):
            path = os.path.join(root, sub, "libnvrtc.so.13")
            if os.path.exists(path):
                os.environ["TORCH_MOJO_BACKEND_NVRTC"] = path
                return


# Read by the runtime at its first CUDA compile, not at import.
_locate_nvrtc()


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
