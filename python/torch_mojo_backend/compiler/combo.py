"""Horizontal fusion: independent pointwise kernels launched as one.

Inductor groups the kernels of a foreach list (an optimizer's update of every parameter) and,
with ``config.combo_kernels``, other independent kernels into a combo node. Each pointwise
member is generated as its own kernel; members are then packed, while their tensors fit one
launch's bindings, into one program whose parts (the `part` statement of
``src/kernels/fused.rs``) each loop the launch's invocations over one member's elements, with
``xindex``, ``xnumel`` and the member's size names its own. Parts follow one another rather
than branch on ``xindex``: the software device runs every branch of a group in step, so a
branch per member would cost each element every member's code. Reductions keep their own
kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy
import torch
from torch._inductor.codegen.simd_kernel_features import SIMDKernelFeatures
from torch._inductor.virtualized import V
from torch.utils._ordered_set import OrderedSet

from .kernel import MojoKernel, call_program, dtype_name, index_program, program_source

# Tensors one launch binds at most: the multi-tensor kernels' budget (`FOREACH_BINDINGS` in
# src/ops/core/launch.rs), below every device's storage-binding limit.
TENSORS_PER_LAUNCH = 24


@dataclass
class _Member:
    """One pointwise member, generated: its statements name tensors `@<inner>`."""

    nodes: list
    numel: sympy.Expr
    statements: list[str]
    outer: list[str]
    inner: list[str]
    read_only: OrderedSet[str]
    sizes: dict[sympy.Symbol, str]
    host_scalars: dict[str, torch.dtype]


def codegen_combo(scheduling, combo_node) -> None:
    """Generates the kernels of a combo node (Inductor's `codegen_combo_kernel`)."""
    members = []
    for sub in combo_node.get_subkernel_nodes():
        nodes = [n for n in sub.get_nodes() if n.get_name() not in scheduling.scheduler.removed_ops]
        if not nodes:
            continue
        if any(n.is_reduction() for n in nodes):
            scheduling.codegen_node(sub)
            continue
        members.append(_generate(scheduling, nodes))
    for group in _pack(members):
        _emit(scheduling, group)
    scheduling.free_buffers_in_scheduler()


def _generate(scheduling, nodes) -> _Member:
    _, (numel, rnumel) = nodes[0].group
    node_schedule = scheduling.generate_node_schedule(nodes, numel, rnumel)
    features = SIMDKernelFeatures(node_schedule, numel, rnumel)
    kernel = MojoKernel(scheduling.create_tiling([numel], [rnumel]), features=features)
    scheduling.process_kernel(kernel, node_schedule)
    with V.set_kernel_handler(kernel):
        statements = kernel.statements()
        outer, inner, inputs = kernel._tensors()
    return _Member(
        nodes=nodes,
        numel=numel,
        statements=statements,
        outer=outer,
        inner=inner,
        read_only=OrderedSet(outer[:inputs]) - OrderedSet(outer[inputs:]),
        sizes=dict(kernel.args.sizevars),
        host_scalars=kernel.host_scalars,
    )


def _pack(members: list[_Member]) -> list[list[_Member]]:
    """Consecutive members grouped while their tensors fit one launch; a member that writes
    a tensor another member of its group touches starts a new group (members are
    independent, so this is only a guard)."""
    groups: list[list[_Member]] = []
    tensors: OrderedSet[str] = OrderedSet()
    written: OrderedSet[str] = OrderedSet()
    for m in members:
        writes = OrderedSet(t for t in m.outer if t not in m.read_only)
        clash = any(t in tensors for t in writes) or any(t in written for t in m.outer)
        if not groups or clash or len(tensors | OrderedSet(m.outer)) > TENSORS_PER_LAUNCH:
            groups.append([])
            tensors, written = OrderedSet(), OrderedSet()
        groups[-1].append(m)
        tensors |= OrderedSet(m.outer)
        written |= writes
    return groups


def _emit(scheduling, group: list[_Member]) -> None:
    written = OrderedSet(t for m in group for t in m.outer if t not in m.read_only)
    every = OrderedSet(t for m in group for t in m.outer)
    order = [t for t in every if t not in written] + [t for t in every if t in written]
    slot = {t: str(k) for k, t in enumerate(order)}
    sizes: OrderedSet[sympy.Symbol] = OrderedSet()
    for m in group:
        sizes |= OrderedSet(m.sizes)
        sizes |= OrderedSet(sorted(m.numel.free_symbols, key=str))
    host_scalars = {n: d for m in group for n, d in m.host_scalars.items()}

    statements = []
    for m in group:
        statements.append(f"part {index_program(m.numel)}")
        statements += [f"let {inner} int32 {outer}" for outer, inner in m.sizes.items()]
        renamed = {f"@{i}": slot[o] for i, o in zip(m.inner, m.outer, strict=True)}
        statements += [" ".join(renamed.get(w, w) for w in s.split()) for s in m.statements]
        statements.append("end")

    source = program_source(
        [dtype_name(V.graph.get_dtype(t)) for t in order],
        len(order) - len(written),
        [str(s) for s in sizes],
        host_scalars,
        False,
        statements,
    )
    nodes = [n for m in group for n in m.nodes]
    name = scheduling.define_kernel(source, nodes, None)
    # The grid is sized from all parts' elements together.
    total = sympy.Add(*(m.numel for m in group))
    call_program(name, order, total, sympy.Integer(1), sizes, host_scalars)
