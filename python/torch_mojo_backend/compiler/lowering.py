"""Where Inductor must treat mojo differently from the GPUs it knows: the accumulating
scatters take mojo's eager kernels, and autotuning times mojo's candidates itself.

Inductor lowers accumulating scatters (``index_put_`` with ``accumulate``, ``scatter_add``,
``index_add``, ``scatter_reduce`` sums) to stores with ``atomic_add``, unless the dtype or
``torch.are_deterministic_algorithms_enabled()`` asks for the eager op. Its only hooks are
two functions keyed by dtype and device type (``needs_fallback_due_to_atomic_add_limitations``
and ``use_scatter_fallback`` in ``torch/_inductor/utils.py``), imported by name into
``lowering`` and ``decomposition``. Mojo's generated kernels have no atomics; its eager
accumulations sort the indices and are deterministic, so on mojo both functions answer
"fall back". Patched here only, for mojo only.

Ops whose generated code would compute in another format than eager mode's stay calls to
mojo's eager kernels (``EAGER_OPS``): ``nextafter`` steps through its dtype's own format,
which half types lose once Inductor computes them in float32.
"""

from __future__ import annotations

import statistics
import time

import torch
from torch.utils import _pytree


def _lowering_on_mojo() -> bool:
    """Whether the FX node Inductor is lowering computes on mojo."""
    from torch._inductor.virtualized import V

    try:
        node = V.graph.current_node
    except (AttributeError, AssertionError):
        return False
    values = _pytree.tree_leaves(node.meta.get("val")) if node is not None else []
    return any(isinstance(v, torch.Tensor) and v.device.type == "mojo" for v in values)


def patch(module) -> None:
    """Wraps the two functions in a module that imported them."""
    atomic = getattr(module, "needs_fallback_due_to_atomic_add_limitations", None)
    if atomic is not None and not getattr(atomic, "_mojo", False):

        def needs_fallback(dtype: torch.dtype) -> bool:
            return atomic(dtype) or _lowering_on_mojo()

        needs_fallback._mojo = True
        module.needs_fallback_due_to_atomic_add_limitations = needs_fallback
    scatter = getattr(module, "use_scatter_fallback", None)
    if scatter is not None and not getattr(scatter, "_mojo", False):

        def use_fallback(op, reduction_type, self_dtype, src_dtype, src_device_type, src_is_tensor):
            return src_device_type == "mojo" or scatter(
                op, reduction_type, self_dtype, src_dtype, src_device_type, src_is_tensor
            )

        use_fallback._mojo = True
        module.use_scatter_fallback = use_fallback


def _eager_ops() -> list:
    return [torch.ops.aten.nextafter.default]


def patch_eager_ops(module) -> None:
    """Routes `_eager_ops()` on mojo to Inductor's fallback (an eager kernel call)."""
    for op in _eager_ops():
        lowering = module.lowerings.get(op)
        if lowering is None or getattr(lowering, "_mojo", False):
            continue

        def lower(*args, _op=op, _lowering=lowering, **kwargs):
            if _lowering_on_mojo():
                return module.fallback_handler(_op, add_to_fallback_set=False)(*args, **kwargs)
            return _lowering(*args, **kwargs)

        lower._mojo = True
        module.lowerings[op] = lower


def _mojo_milliseconds(call, runs: int = 5) -> float:
    """The median milliseconds of `call` on mojo, each run waited for."""
    call()
    torch.mojo.synchronize()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        torch.mojo.synchronize()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def patch_autotune(module) -> None:
    """Autotuning (``mode="max-autotune"``) times candidates on GPUs through the device
    interface of the first input on a device it knows as a GPU (``is_gpu``: cuda, mps, xpu,
    mtia), else CUDA's; for mojo inputs that fails, every candidate reads as infinitely slow
    and Inductor raises NoValidChoicesError. Candidates on mojo are timed here instead."""
    mixin = module.GPUDeviceBenchmarkMixin
    original = mixin.do_bench
    if getattr(original, "_mojo", False):
        return

    def do_bench(self, fn, *input_tensors, out=None):
        tensors = [t for t in (*input_tensors, out) if isinstance(t, torch.Tensor)]
        if any(t.device.type == "mojo" for t in tensors):
            return _mojo_milliseconds(fn)
        return original(self, fn, *input_tensors, out=out)

    do_bench._mojo = True
    mixin.do_bench = do_bench
