"""Where Inductor must treat mojo differently from the GPUs it knows: the accumulating
scatters take mojo's eager kernels, small products and accumulations become fused sums, and
autotuning times mojo's candidates itself.

Inductor lowers accumulating scatters (``index_put_`` with ``accumulate``, ``scatter_add``,
``index_add``, ``scatter_reduce`` sums) to stores with ``atomic_add``, unless the dtype or
``torch.are_deterministic_algorithms_enabled()`` asks for the eager op. Its only hooks are
two functions keyed by dtype and device type (``needs_fallback_due_to_atomic_add_limitations``
and ``use_scatter_fallback`` in ``torch/_inductor/utils.py``), imported by name into
``lowering`` and ``decomposition``. Mojo's generated kernels have no atomics; its eager
accumulations sort the indices and are deterministic, so on mojo both functions answer
"fall back". Patched here only, for mojo only.

Small matrix products on mojo (at most ``SMALL_PRODUCT_MACS`` multiply-adds, floating point)
are lowered as a product and a sum (``patch_small_sums``), as Inductor lowers a CPU
``bmm`` with a unit dimension: a launch of its own costs such a product more than its
arithmetic, and as a reduction its operands' producers (bias adds, transposes, head splits)
and its consumers fuse into it, or share a launch with its neighbours (``combo.py``). Larger
products keep mojo's GEMM, whose blocked loads beat a reduction's. Likewise a small
accumulating ``index_put`` along the first dimension (embedding backward's) is lowered as,
for each element of the result, the sum over the indices of the values whose index names it,
in index order, except where mojo's eager kernel does the same faster
(``_C.eager_accumulation_preferred``: the software device, where it compares int32 keys once
for four elements, against int64 indices per element in the fused sum).

Ops whose generated code would compute in another format than eager mode's stay calls to
mojo's eager kernels (``EAGER_OPS``): ``nextafter`` steps through its dtype's own format,
which half types lose once Inductor computes them in float32.
"""

from __future__ import annotations

import statistics
import time

import torch
from torch.utils import _pytree

from .. import _C


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


SMALL_PRODUCT_MACS = 1 << 16
SMALL_ACCUMULATION_TERMS = 1 << 20


def _on_mojo(x) -> bool:
    device = x.get_device()
    return device is not None and device.type == "mojo"


def _static_sizes(x) -> list[int] | None:
    import sympy

    sizes = x.get_size()
    return [int(s) for s in sizes] if all(isinstance(s, sympy.Integer) for s in sizes) else None


def _is_small_product(a, b) -> bool:
    """Whether `a @ b` (Inductor IR, batched or not) is small enough to lower as a sum."""
    import math

    if not _on_mojo(a) or not a.get_dtype().is_floating_point or a.get_dtype() != b.get_dtype():
        return False
    sizes_a, sizes_b = _static_sizes(a), _static_sizes(b)
    return (
        sizes_a is not None
        and sizes_b is not None
        and math.prod(sizes_a) * sizes_b[-1] <= SMALL_PRODUCT_MACS
    )


def _product_as_sum(lowering, a, b):
    """`a @ b` as a broadcast product summed over the shared dimension."""
    rank = len(a.get_size())
    terms = lowering.mul(lowering.unsqueeze(a, rank), lowering.unsqueeze(b, rank - 2))
    return lowering.sum_(terms, [rank - 1])


def _wrap_lowering(module, op, lower_small) -> None:
    """Lowers `op` by `lower_small` where it answers, else as before."""
    original = module.lowerings.get(op)
    if original is None or getattr(original, "_mojo", False):
        return

    def lower(*args, **kwargs):
        small = lower_small(*args, **kwargs)
        return original(*args, **kwargs) if small is None else small

    lower._mojo = True
    module.lowerings[op] = lower


def patch_small_sums(module) -> None:
    """Lowers small mm, bmm and addmm (unit alpha and beta) on mojo as sums of products, and
    small accumulating index_puts as sums of the values each element receives."""
    aten = torch.ops.aten

    def product(a, b, **kwargs):
        if kwargs or not _is_small_product(a, b):
            return None
        return _product_as_sum(module, a, b)

    def addmm(bias, a, b, *, beta=1, alpha=1, **kwargs):
        if kwargs or beta != 1 or alpha != 1 or not _is_small_product(a, b):
            return None
        return module.add(_product_as_sum(module, a, b), bias)

    _wrap_lowering(module, aten.mm.default, product)
    _wrap_lowering(module, aten.bmm.default, product)
    _wrap_lowering(module, aten.addmm.default, addmm)
    _wrap_lowering(module, aten.index_put.default, _small_accumulation(module, True))
    _wrap_lowering(module, aten._unsafe_index_put.default, _small_accumulation(module, False))
    # Inductor turns index_put into index_put_ where it may reuse the input.
    in_place = _small_accumulation(module, True)

    def index_put_(x, indices, values, accumulate=False):
        result = in_place(x, indices, values, accumulate)
        return None if result is None else module.mutate_to(x, result)

    _wrap_lowering(module, aten.index_put_.default, index_put_)


def _small_accumulation(module, check: bool):
    """`index_put(x, [index], values, accumulate=True)` along x's first dimension, small
    and static: x plus, per element, the sum of the values whose index names it (indices
    checked where `check`, as Inductor's own lowering)."""
    import math

    from torch._inductor import ir
    from torch._inductor.virtualized import ops

    def lower(x, indices, values, accumulate=False):
        if not accumulate or len(indices) != 1 or indices[0] is None or not _on_mojo(x):
            return None
        index, dtype = indices[0], x.get_dtype()
        sizes, index_sizes = _static_sizes(x), _static_sizes(index)
        if index.get_dtype() not in (torch.int32, torch.int64) or dtype == torch.bool:
            return None
        if not sizes or index_sizes is None:
            return None
        terms, rest = math.prod(index_sizes), sizes[1:]
        if terms == 0 or terms * math.prod(sizes) > SMALL_ACCUMULATION_TERMS:
            return None
        device = x.get_device().index or 0
        inner = rest[-1] if rest else 1
        if _C.eager_accumulation_preferred(device, sizes[0], terms, math.prod(rest), inner):
            return None
        values = module.expand(module.to_dtype(values, dtype), [*index_sizes, *rest])
        load_value = module.view(values, [terms, *rest]).make_loader()
        load_index = module.view(index, [terms]).make_loader()
        rows = sizes[0]

        def term(at, reduced):
            (k,) = reduced
            row = ops.indirect_indexing(load_index([k]), rows, check=check)
            hit = ops.eq(ops.index_expr(row, torch.int64), ops.index_expr(at[0], torch.int64))
            return ops.where(hit, load_value([k, *at[1:]]), ops.constant(0, dtype))

        sums = ir.Reduction.create(
            device=x.get_device(),
            dst_dtype=dtype,
            src_dtype=dtype,
            inner_fn=term,
            ranges=sizes,
            reduction_ranges=[terms],
            reduction_type="sum",
        )
        sums.realize()
        return module.add(x, sums)

    return lower


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
