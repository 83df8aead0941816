"""``torch.compile`` on mojo: dynamo's device interface for ``mojo`` and Inductor's code
generator for it (``kernel.py``), so that ``torch.compile(model)`` fuses mojo tensors' ops into
kernels the Rust core prints, compiles and caches like the eager ones.

Dynamo and Inductor keep registries of devices but no hook for out-of-tree ones (dynamo's
``init_device_reg`` names cuda, xpu, mtia, cpu and mps), and importing them costs more than a
second, so ``register_mojo_devices`` does not import them: each registry gets the mojo
entries when it is first imported (``after_import``), or at once if it already was.
"""

from __future__ import annotations

from pathlib import Path

from .._after_import import after_import


def _register_device_interface(module) -> None:
    from .device_interface import MojoInterface

    module.register_interface_for_device("mojo", MojoInterface)


class _Scheduling:
    """Inductor's scheduling for mojo, imported when first used (Inductor wants a class)."""

    def __new__(cls, scheduler):
        from .kernel import MojoScheduling

        return MojoScheduling(scheduler)


class _Wrapper:
    """Inductor's wrapper code generator for mojo, imported when first used."""

    supports_caching = True

    @staticmethod
    def create(*args, **kwargs):
        from .kernel import MojoWrapperCodegen

        return MojoWrapperCodegen.create(*args, **kwargs)


class _CppWrapper:
    supports_caching = False

    @staticmethod
    def create(*args, **kwargs):
        raise NotImplementedError("mojo: torch.compile's cpp_wrapper is not supported yet")


def _register_inductor(common) -> None:
    from torch._inductor.custom_graph_pass import CustomGraphModulePass, get_hash_for_files

    class CodegenVersion(CustomGraphModulePass):
        """Changes no graph; makes Inductor's caches tell kernels this code generator (and
        this native library) wrote from those an earlier version wrote."""

        def __call__(self, gm) -> None:
            return None

        def uuid(self):
            # The native library and the devices it drives too: they decide how calls such
            # as attention are routed (what AOTAutograd traces: the software device takes
            # small attention through the math path, a GPU the fused kernel), so a graph
            # cached on one platform must not serve another.
            from .. import _C

            here = Path(__file__).parent
            files = [*sorted(here.glob("*.py")), Path(_C.__file__)]
            platform = [_C.backend_name()]
            platform += [_C.device_name(i) for i in range(_C.device_count())]
            return get_hash_for_files(tuple(str(p) for p in files), extra=repr(platform))

    class MojoDeviceOpOverrides(common.DeviceOpOverrides):
        def import_get_raw_stream_as(self, name: str) -> str:
            return f"from torch_mojo_backend.compiler.runtime import get_raw_stream as {name}"

        def set_device(self, device_idx: int) -> str:
            return f"torch.mojo.set_device({device_idx})"

        def synchronize(self) -> str:
            return "torch.mojo.synchronize()"

        def device_guard(self, device_idx: int) -> str:
            return f"torch.mojo.device({device_idx})"

    common.register_backend_for_device(
        "mojo", _Scheduling, _Wrapper, _CppWrapper, device_custom_pass=CodegenVersion()
    )
    from . import post_fusion

    post_fusion.install()
    common.register_device_op_overrides("mojo", MojoDeviceOpOverrides())


def _patch_lowering(module) -> None:
    from . import lowering

    lowering.patch(module)
    if hasattr(module, "lowerings"):
        lowering.patch_eager_ops(module)
        lowering.patch_small_sums(module)


def _patch_fake_convolution(module) -> None:
    from . import fake_convolution

    fake_convolution.install(module)


def _patch_autotune(module) -> None:
    from . import lowering

    lowering.patch_autotune(module)


_REGISTRIES = {
    "torch._dynamo.device_interface": _register_device_interface,
    "torch._inductor.codegen.common": _register_inductor,
    "torch._inductor.lowering": _patch_lowering,
    "torch._inductor.decomposition": _patch_lowering,
    "torch._inductor.autotune_process": _patch_autotune,
    "torch._subclasses.fake_impls": _patch_fake_convolution,
}


def register() -> None:
    """Makes dynamo and Inductor handle mojo tensors."""
    for name, register_in in _REGISTRIES.items():
        after_import(name, register_in)
