"""Horizontal fusion: independent kernels launched as one.

Inductor groups the kernels of a foreach list (an optimizer's update of every parameter) and,
with ``config.combo_kernels``, other independent kernels into a combo node; on mojo the
second grouping runs whatever that setting (``post_fusion.py``), as each launch costs more
there than on a GPU. Each member is
generated as its own kernel; members are then packed, while their tensors fit one launch's
bindings, into one program whose parts (the `part` statement of ``src/kernels/fused/``)
each loop the launch's invocations over one member's elements, with ``xindex``, ``xnumel``
and the member's size names its own. Parts follow one another rather than branch on
``xindex``: the software device runs every branch of a group in step, so a branch per member
would cost each element every member's code.

Reductions join a pack when their rows are short (at most ``PACKED_ROW`` elements, static
sizes): each invocation then reduces its rows alone, so a pack holding reductions must fit
the software device's loop budget per invocation, which the runtime answers for the packed
program (``_C.compiled_rows_fit``). Longer reductions keep kernels of their own.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy
import torch
from torch._inductor.codegen.simd_kernel_features import SIMDKernelFeatures
from torch._inductor.virtualized import V
from torch.utils._ordered_set import OrderedSet

from .. import _C
from .kernel import (
    MojoKernel,
    call_program,
    dtype_name,
    index_program,
    program_source,
    program_text,
)

# Tensors one launch binds at most: the multi-tensor kernels' budget (`FOREACH_BINDINGS` in
# src/ops/core/launch.rs), below every device's storage-binding limit.
TENSORS_PER_LAUNCH = 24

# The longest rows, and the most of them, a reduction packed with others may have: one
# invocation walks each row, which suits short rows on every device.
PACKED_ROW = 1024
PACKED_ROWS = 1 << 20


@dataclass
class _Member:
    """One member, generated: its statements name tensors `@<inner>`."""

    nodes: list
    numel: sympy.Expr
    # The row length of a reduction, else None.
    rnumel: sympy.Expr | None
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
        if not _packable(sub):
            _codegen_keeping_buffers(scheduling, sub)
            continue
        members.append(_generate(scheduling, nodes))
    for group in _pack(members):
        _emit(scheduling, group)
    scheduling.free_buffers_in_scheduler()


def _packable(node) -> bool:
    """Whether a member may share a launch: pointwise, or a reduction of few short rows."""
    _, (numel, rnumel) = node.group
    if rnumel == 1:
        return True
    return (
        isinstance(numel, sympy.Integer)
        and isinstance(rnumel, sympy.Integer)
        and numel <= PACKED_ROWS
        and rnumel <= PACKED_ROW
    )


def _codegen_keeping_buffers(scheduling, node) -> None:
    """A member generated as its own kernel, without freeing the buffers its kernel was the
    last to read: Inductor's memory planner takes every line of a combo node as one step, so a
    buffer freed there and reused by a later member's output would be freed after its reuse.
    They are freed once, after the last member."""
    free = scheduling.free_buffers_in_scheduler
    scheduling.free_buffers_in_scheduler = lambda: None
    try:
        scheduling.codegen_node(node)
    finally:
        scheduling.free_buffers_in_scheduler = free


def _generate(scheduling, nodes) -> _Member:
    # The member's group is its reduction's, as `codegen_node` takes it: pointwise nodes fused
    # after a reduction have their own (flat) group.
    _, (numel, rnumel) = max(nodes, key=lambda n: int(n.is_reduction())).group
    node_schedule = scheduling.generate_node_schedule(nodes, numel, rnumel)
    features = SIMDKernelFeatures(node_schedule, numel, rnumel)
    kernel = MojoKernel(scheduling.create_tiling([numel], [rnumel]), features=features)
    scheduling.process_kernel(kernel, node_schedule)
    with V.set_kernel_handler(kernel):
        statements = kernel.statements()
        outer, inner, inputs = kernel._tensors()
    reduction = any(t.is_reduction for t in kernel.range_trees) and kernel.inside_reduction
    return _Member(
        nodes=nodes,
        numel=numel,
        rnumel=rnumel if reduction else None,
        statements=statements,
        outer=outer,
        inner=inner,
        read_only=OrderedSet(outer[:inputs]) - OrderedSet(outer[inputs:]),
        sizes=dict(kernel.args.sizevars),
        host_scalars=kernel.host_scalars,
    )


def _pack(members: list[_Member]) -> list[list[_Member]]:
    """Consecutive members grouped while their tensors fit one launch and its invocations
    the loop budget; a member that writes a tensor another member of its group touches
    starts a new group (members are independent, so this is only a guard)."""
    groups: list[list[_Member]] = []
    for m in members:
        group = groups[-1] if groups else []
        tensors = OrderedSet(t for g in group for t in g.outer)
        written = OrderedSet(t for g in group for t in g.outer if t not in g.read_only)
        writes = OrderedSet(t for t in m.outer if t not in m.read_only)
        clash = any(t in tensors for t in writes) or any(t in written for t in m.outer)
        if (
            not group
            or clash
            or len(tensors | OrderedSet(m.outer)) > TENSORS_PER_LAUNCH
            or not _fits([*group, m])
        ):
            groups.append([m])
        else:
            group.append(m)
    return groups


@dataclass
class _Program:
    """A group's program and what its call passes."""

    tensors: list[str]
    inputs: int
    sizes: list[sympy.Symbol]
    host_scalars: dict[str, torch.dtype]
    reduction: bool
    statements: list[str]
    xnumel: sympy.Expr
    rnumel: sympy.Expr

    def text(self) -> str:
        return program_text(*self._arguments())

    def source(self) -> str:
        return program_source(*self._arguments())

    def _arguments(self):
        dtypes = [dtype_name(V.graph.get_dtype(t)) for t in self.tensors]
        sizes = [str(s) for s in self.sizes]
        return dtypes, self.inputs, sizes, self.host_scalars, self.reduction, self.statements


def _fits(group: list[_Member]) -> bool:
    """Whether a group holding reductions stays within one invocation's loop budget."""
    program = _program(group)
    return not program.reduction or _C.compiled_rows_fit(program.text(), int(program.rnumel))


def _program(group: list[_Member]) -> _Program:
    """The program of a group: its members' statements (as parts where there are several)
    over the group's tensors, those only read first."""
    written = OrderedSet(t for m in group for t in m.outer if t not in m.read_only)
    every = OrderedSet(t for m in group for t in m.outer)
    order = [t for t in every if t not in written] + [t for t in every if t in written]
    slot = {t: str(k) for k, t in enumerate(order)}
    sizes: OrderedSet[sympy.Symbol] = OrderedSet()
    for m in group:
        sizes |= OrderedSet(m.sizes)
        sizes |= OrderedSet(sorted(m.numel.free_symbols, key=str))
    reduction = any(m.rnumel is not None for m in group)
    one = sympy.Integer(1)
    statements = []
    for m in group:
        if len(group) > 1:
            rows = f" {index_program(m.rnumel or one)}" if reduction else ""
            statements.append(f"part {index_program(m.numel)}{rows}")
        statements += [f"let {inner} int32 {outer}" for outer, inner in m.sizes.items()]
        renamed = {f"@{i}": slot[o] for i, o in zip(m.inner, m.outer, strict=True)}
        statements += [" ".join(renamed.get(w, w) for w in s.split()) for s in m.statements]
        if len(group) > 1:
            statements.append("end")
    return _Program(
        tensors=order,
        inputs=len(order) - len(written),
        sizes=list(sizes),
        host_scalars={n: d for m in group for n, d in m.host_scalars.items()},
        reduction=reduction,
        statements=statements,
        # The grid is sized from all parts' elements together, the row length the longest.
        xnumel=sympy.Add(*(m.numel for m in group)),
        rnumel=sympy.Max(*(m.rnumel or one for m in group)),
    )


def _emit(scheduling, group: list[_Member]) -> None:
    program = _program(group)
    nodes = [n for m in group for n in m.nodes]
    name = scheduling.define_kernel(program.source(), nodes, None)
    call_program(
        name,
        program.tensors,
        program.xnumel,
        program.rnumel,
        program.sizes,
        program.host_scalars,
    )
