"""The mojo PyTorch accelerator backend.

``import torch_mojo_backend; torch_mojo_backend.register_mojo_devices()`` makes ``mojo`` PyTorch's
current accelerator.
"""

import os
import threading

import torch  # first: loads libc10 and libtorch_cpu for the extension

from . import (
    _C,  # noqa: E402  (static initializers register the allocator, guard, hooks, kernels)
    _after_import,  # noqa: E402
    _complex,  # noqa: E402
    _composed_kernels,  # noqa: E402
    _composites,  # noqa: E402
    _ctc_loss,  # noqa: E402
    _device,  # noqa: E402
    _distances,  # noqa: E402
    _eig,  # noqa: E402
    _fft,  # noqa: E402
    _fractional_pool,  # noqa: E402
    _generic_kernels,  # noqa: E402
    _histograms,  # noqa: E402
    _ldl,  # noqa: E402
    _linalg,  # noqa: E402
    _margin_losses,  # noqa: E402
    _norms,  # noqa: E402
    _rrelu,  # noqa: E402
    _samplers,  # noqa: E402
    _scaled_mm,  # noqa: E402
    _sparse,  # noqa: E402
    _sparse_compressed,  # noqa: E402
    _transformer,  # noqa: E402
    _vision_ops,  # noqa: E402
    compiler,  # noqa: E402
    distributed,  # noqa: E402
)

__all__ = ["mojo_backend", "register_mojo_devices"]


def __getattr__(name: str):
    # Imported on first use: it imports Inductor, which takes seconds.
    if name == "mojo_backend":
        from .compiler.backend import mojo_backend

        return mojo_backend
    raise AttributeError(f"module 'torch_mojo_backend' has no attribute {name!r}")


def _locate_cuda_libraries() -> None:
    """Points the runtime at NVRTC, cuBLAS, cuFFT, cuSOLVER and NCCL from the nvidia-* wheels, when
    installed."""
    try:
        import nvidia
    except ImportError:
        return
    wanted = {
        "TORCH_MOJO_BACKEND_NVRTC": ("libnvrtc.so.13", ("cu13/lib", "cuda_nvrtc/lib")),
        "TORCH_MOJO_BACKEND_CUBLAS": ("libcublas.so.13", ("cu13/lib", "cublas/lib")),
        "TORCH_MOJO_BACKEND_CUFFT": ("libcufft.so.12", ("cu13/lib", "cufft/lib")),
        "TORCH_MOJO_BACKEND_CUSOLVER": ("libcusolver.so.12", ("cu13/lib", "cusolver/lib")),
        "TORCH_MOJO_BACKEND_NCCL": ("libnccl.so.2", ("cu13/lib", "nccl/lib")),
    }
    for variable, (library, subdirs) in wanted.items():
        if variable in os.environ:
            continue
        for root in getattr(nvidia, "__path__", []):
            found = [os.path.join(root, sub, library) for sub in subdirs]
            found = [path for path in found if os.path.exists(path)]
            if found:
                os.environ[variable] = found[0]
                break


# Read by the runtime when it first compiles a CUDA kernel or runs a matrix product.
_locate_cuda_libraries()


def _minor(version: str) -> str:
    return ".".join(version.split("+")[0].split(".")[:2])


if _minor(torch.__version__) != _minor(_C.torch_version_built()):
    raise ImportError(
        f"torch_mojo_backend was built for torch {_C.torch_version_built()} but torch "
        f"{torch.__version__} is installed; rebuild it against this torch (see README)"
    )

_lock = threading.Lock()
_registered = False


def _swap_parameters_when_converting() -> None:
    """Makes nn.Module._apply (`.to()`, `.half()`, ...) swap tensors into the existing
    Parameters. It cannot set `param.data` across CPU and PrivateUse1 tensors
    (torch._has_compatible_shallow_copy_type is False for them), so otherwise
    `model.to("mojo")` makes a new Parameter per module and unties shared weights
    (lm_head.weight = wte.weight); swapping keeps each Parameter object, so ties survive and
    optimizers built before the move hold the live parameters. Only conversions swap:
    `load_state_dict` keeps its stock behaviour (swapping there fails for modules that hold
    weak references to their parameters, as nn.LSTM does). A parameter that cannot be
    swapped (an autograd graph still saves it) is converted the stock way, as a new
    Parameter."""
    convert = torch.nn.Module._apply

    def _apply(self, fn, recurse=True):
        if torch.__future__.get_swap_module_params_on_conversion():
            return convert(self, fn, recurse)
        torch.__future__.set_swap_module_params_on_conversion(True)
        try:
            return convert(self, fn, recurse)
        except RuntimeError as error:
            if "Couldn't swap" not in str(error):
                raise
        finally:
            torch.__future__.set_swap_module_params_on_conversion(False)
        # Parameters already converted stay as they are (converting them again is a no-op).
        return convert(self, fn, recurse)

    torch.nn.Module._apply = _apply


_device_kernels = None


def _register_composed_kernels():
    """Registers the device kernels composed from mojo's kernels (PrivateUse1, below autograd)."""
    global _device_kernels
    _device_kernels = torch.library.Library("aten", "IMPL")
    for kernels in (
        _composed_kernels.KERNELS,
        _linalg.KERNELS,
        _eig.KERNELS,
        _ldl.KERNELS,
        _distances.KERNELS,
        _histograms.KERNELS,
        _complex.KERNELS,
        _fft.KERNELS,
        _samplers.KERNELS,
        _norms.KERNELS,
    ):
        for name, kernel in kernels.items():
            _device_kernels.impl(name, kernel, "PrivateUse1")
    _generic_kernels.register(_device_kernels)
    for name, kernel in _sparse.KERNELS.items():
        _device_kernels.impl(name, kernel, "SparsePrivateUse1")
    for name, kernel in _sparse_compressed.KERNELS.items():
        _device_kernels.impl(name, kernel, "SparseCsrPrivateUse1")
    for kernels in (_sparse.DENSE_KERNELS, _sparse_compressed.DENSE_KERNELS):
        for name, kernel in kernels.items():
            _device_kernels.impl(name, kernel, "PrivateUse1")
    for key in ("Conjugate", "Negative"):
        for name, kernel in _complex.MATH_BIT_KERNELS.items():
            _device_kernels.impl(name, kernel, key)
    # Compositions autograd differentiates.
    for kernels in (_margin_losses.KERNELS, _ctc_loss.KERNELS, _rrelu.KERNELS):
        for name, kernel in kernels.items():
            _device_kernels.impl(name, kernel, "AutogradPrivateUse1")


def register_mojo_devices() -> None:
    """Make ``mojo`` PyTorch's current accelerator. Safe to call more than once."""
    global _registered
    with _lock:
        if _registered:
            return
        torch.utils.rename_privateuse1_backend("mojo")
        torch._register_device_module("mojo", _device)
        torch.utils.generate_methods_for_privateuse1_backend(for_storage=True)
        _swap_parameters_when_converting()
        _transformer.register()
        _composites.register()
        _register_composed_kernels()
        _fractional_pool.register()
        _scaled_mm.register()
        _after_import.after_import("torchvision", _vision_ops.register)
        distributed.register()
        compiler.register()
        _registered = True
