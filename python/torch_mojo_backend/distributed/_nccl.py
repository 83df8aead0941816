"""The ``mojo`` process group over NCCL, on devices that have it (NVIDIA; in tests, the CUDA
emulation, whose NCCL meets the other processes through files).

Mojo tensors go to NCCL in place: each collective is issued on a communication stream of the
group's, after the work the caller's current stream had queued, and its Work records an event
after it. ``wait()`` returns once the collective has finished on the device (as
``TORCH_NCCL_BLOCKING_WAIT=1`` makes stock PyTorch's NCCL group do), so a collective that
cannot finish raises on every rank instead of hanging a later kernel: a watchdog thread
(``_nccl_communicator``) completes each Work's future when its event is reached, and aborts
the communicator when a collective runs past the group's timeout or NCCL reports an error.
The communicator is made on a device's first collective from an id rank 0 puts in the group's
store.

As on the staged path, the ranks first check through the group's Gloo side that they are
making the same call (sizes and dtypes), and a receive checks a header its send posts there;
CPU tensors go to Gloo. Reductions NCCL lacks are composed: average divides a sum, a
pre-multiplied sum scales a copy of its inputs, booleans reduce as bytes by max (sum) and min
(product), complex tensors as pairs of reals.
"""

import torch
import torch.distributed as dist

from ._nccl_communicator import Communicator
from ._point_to_point import DTYPES, _header
from ._point_to_point import _describe as describe_header
from .process_group import ProcessGroupMojo, _flat, _reduction, agree

ReduceOp = dist.ReduceOp

# torch.ops.mojo.collective's kinds.
ALL_REDUCE, BROADCAST, REDUCE, ALL_GATHER, REDUCE_SCATTER, SEND, RECV = range(7)


def _reduction_plan(op, dtype: torch.dtype):
    """NCCL's op (c10d code) for `op` on `dtype`, the factor to scale inputs by first and
    whether to divide by the group size afterwards."""
    kind, factor, average = _reduction(op)
    code = int(kind.op if hasattr(kind, "op") else kind)
    if dtype == torch.bool:
        if average:
            raise ValueError("mojo process group: cannot use ReduceOp.AVG with boolean inputs")
        code = {int(ReduceOp.SUM): int(ReduceOp.MAX), int(ReduceOp.PRODUCT): int(ReduceOp.MIN)}.get(
            code, code
        )
    return code, factor, average


class ProcessGroupMojoNccl(ProcessGroupMojo):
    """``ProcessGroupMojo`` with its mojo tensors' collectives through NCCL."""

    def __init__(self, store, rank: int, size: int, timeout):
        super().__init__(store, rank, size, timeout)
        self._store = store
        self._timeout = timeout
        self._communicators: dict[int, Communicator] = {}
        # The headers of sends still on their way (Gloo drops a send whose Work is freed).
        self._headers: list = []

    def shutdown(self) -> None:
        communicators, self._communicators = self._communicators, {}
        for communicator in communicators.values():
            communicator.close()
        super().shutdown()

    def abort(self) -> None:
        for communicator in self._communicators.values():
            if communicator._error is None:
                communicator._fail(RuntimeError("mojo process group: aborted"))
        self.shutdown()

    def _nccl(self, tensors) -> Communicator | None:
        """The communicator for a call on `tensors`, or None for CPU tensors."""
        device = self._device_of(tensors)
        if device.type != "mojo":
            return None
        index = device.index or 0
        communicator = self._communicators.get(index)
        if communicator is None:
            if self._communicators:
                raise ValueError(
                    "mojo process group: one device per rank and group (this rank's calls use "
                    f"mojo:{next(iter(self._communicators))}, got {device})"
                )
            if not self._gloo:
                raise RuntimeError("mojo process group: the group has been destroyed")
            key = f"{self._generation}/nccl-id"
            communicator = Communicator(
                self._store, key, device, self.rank(), self.size(), self._timeout
            )
            self._communicators[index] = communicator
        return communicator

    def _agree(self, name: str, agreed):
        """Starts checking, over the group's Gloo side, that every rank makes this call; the
        check, which the watchdog runs once the exchange is done."""
        return agree(self._gloo["mojo"], name, agreed)

    def _finish(self, target, tensor, average: bool) -> None:
        """Divides a sum by the group size for an average and copies a contiguous stand-in
        back into its tensor."""
        if average:
            if target.is_floating_point() or target.is_complex():
                target.div_(self.size())
            else:
                target.div_(self.size(), rounding_mode="trunc")
        if target is not tensor:
            tensor.copy_(target)

    def _reduce_into(self, c: Communicator, tensors, op, kind: int, root: int = 0):
        """Issues a reduction of each of `tensors` in place (to `root` for a reduce); the
        scaled inputs of a pre-multiplied sum (to keep alive)."""
        plans = []
        for tensor in tensors:
            code, factor, average = _reduction_plan(op, tensor.dtype)
            target = tensor if tensor.is_contiguous() else tensor.contiguous()
            source = target * factor if factor is not None else target
            averaged = average and (kind != REDUCE or root == self.rank())
            plans.append((tensor, target, source, code, averaged))
        c.issue([(kind, s, t, code, root) for _, t, s, code, _ in plans])
        for tensor, target, _, _, averaged in plans:
            self._finish(target, tensor, averaged)
        return [source for _, _, source, _, _ in plans]

    # The collectives.

    def allreduce(self, tensors, opts=None):
        c = self._nccl(tensors)
        if c is None:
            return super().allreduce(tensors, opts)
        opts = opts or dist.AllreduceOptions()
        agreement = self._agree("allreduce", tensors)

        def issue():
            return self._reduce_into(c, tensors, opts.reduceOp, ALL_REDUCE)

        return c.launch("allreduce", issue, tensors, tensors, agreement=agreement)

    def allreduce_coalesced(self, tensors, opts=None):
        c = self._nccl(tensors)
        if c is None:
            return super().allreduce_coalesced(tensors, opts)
        opts = opts or dist.AllreduceCoalescedOptions()
        agreement = self._agree("allreduce_coalesced", tensors)

        def issue():
            return self._reduce_into(c, tensors, opts.reduceOp, ALL_REDUCE)

        return c.launch("allreduce_coalesced", issue, tensors, tensors, agreement=agreement)

    def reduce(self, tensors, opts=None):
        c = self._nccl(tensors)
        if c is None:
            return super().reduce(tensors, opts)
        opts = opts or dist.ReduceOptions()
        agreement = self._agree("reduce", tensors)

        def issue():
            return self._reduce_into(c, tensors, opts.reduceOp, REDUCE, opts.rootRank)

        return c.launch("reduce", issue, tensors, tensors, agreement=agreement)

    def broadcast(self, tensors, opts=None):
        c = self._nccl(tensors)
        if c is None:
            return super().broadcast(tensors, opts)
        opts = opts or dist.BroadcastOptions()
        agreement = self._agree("broadcast", tensors)

        def issue():
            targets = [t if t.is_contiguous() else t.contiguous() for t in tensors]
            c.issue([(BROADCAST, t, t, 0, opts.rootRank) for t in targets])
            for target, tensor in zip(targets, tensors, strict=True):
                self._finish(target, tensor, False)
            return targets

        return c.launch("broadcast", issue, tensors, tensors, agreement=agreement)

    def _gather_flat(self, c: Communicator, outputs, inputs):
        """All-gathers each of `inputs` into its output (contiguous, or through a copy); what
        to keep alive."""
        sources = [i.contiguous() for i in inputs]
        targets = [o if o.is_contiguous() else o.contiguous() for o in outputs]
        c.issue(
            [
                (ALL_GATHER, s.reshape(-1), t.reshape(-1), 0, 0)
                for s, t in zip(sources, targets, strict=True)
            ]
        )
        for target, output in zip(targets, outputs, strict=True):
            self._finish(target, output, False)
        return sources + targets

    def _allgather_base(self, output, input, opts=None):
        c = self._nccl([output, input])
        if c is None:
            return super()._allgather_base(output, input, opts)
        agreement = self._agree("_allgather_base", [input])
        return c.launch(
            "_allgather_base",
            lambda: self._gather_flat(c, [output], [input]),
            [output, input],
            [output],
            agreement=agreement,
        )

    def allgather_into_tensor_coalesced(self, outputs, inputs, opts=None):
        c = self._nccl(list(outputs) + list(inputs))
        if c is None:
            return super().allgather_into_tensor_coalesced(outputs, inputs, opts)
        agreement = self._agree("allgather_into_tensor_coalesced", inputs)
        return c.launch(
            "allgather_into_tensor_coalesced",
            lambda: self._gather_flat(c, outputs, inputs),
            list(outputs) + list(inputs),
            outputs,
            agreement=agreement,
        )

    def _gather_lists(self, c: Communicator, output_lists, inputs):
        flats = [
            i.new_empty((len(row), i.numel())) for row, i in zip(output_lists, inputs, strict=True)
        ]
        kept = self._gather_flat(c, flats, inputs)
        for row, flat in zip(output_lists, flats, strict=True):
            for out, piece in zip(row, flat, strict=True):
                out.copy_(piece.view(out.shape))
        return kept

    def allgather(self, output_lists, inputs, opts=None):
        c = self._nccl(_flat(output_lists) + list(inputs))
        if c is None:
            return super().allgather(output_lists, inputs, opts)
        agreement = self._agree("allgather", inputs)
        tensors = _flat(output_lists) + list(inputs)
        return c.launch(
            "allgather",
            lambda: self._gather_lists(c, output_lists, inputs),
            tensors,
            output_lists,
            agreement=agreement,
        )

    def allgather_coalesced(self, output_lists, inputs, opts=None):
        c = self._nccl(_flat(output_lists) + list(inputs))
        if c is None:
            return super().allgather_coalesced(output_lists, inputs, opts)
        agreement = self._agree("allgather_coalesced", inputs)
        tensors = _flat(output_lists) + list(inputs)
        return c.launch(
            "allgather_coalesced",
            lambda: self._gather_lists(c, output_lists, inputs),
            tensors,
            output_lists,
            agreement=agreement,
        )

    def _scatter_reduced(self, c: Communicator, outputs, inputs, op):
        """Reduce-scatters each flat input into its output; what to keep alive."""
        plans = []
        for output, input in zip(outputs, inputs, strict=True):
            code, factor, average = _reduction_plan(op, input.dtype)
            source = input.contiguous()
            if factor is not None:
                source = source * factor
            target = output if output.is_contiguous() else output.contiguous()
            plans.append((output, target, source, code, average))
        c.issue(
            [(REDUCE_SCATTER, s.reshape(-1), t.reshape(-1), code, 0) for _, t, s, code, _ in plans]
        )
        for output, target, _, _, average in plans:
            self._finish(target, output, average)
        return [source for _, _, source, _, _ in plans]

    def reduce_scatter(self, outputs, input_lists, opts=None):
        c = self._nccl(_flat(input_lists) + list(outputs))
        if c is None:
            return super().reduce_scatter(outputs, input_lists, opts)
        opts = opts or dist.ReduceScatterOptions()
        agreement = self._agree("reduce_scatter", _flat(input_lists))

        def issue():
            joined = [torch.cat([t.reshape(-1) for t in row]) for row in input_lists]
            return joined + self._scatter_reduced(c, outputs, joined, opts.reduceOp)

        tensors = _flat(input_lists) + list(outputs)
        return c.launch("reduce_scatter", issue, tensors, outputs, agreement=agreement)

    def _reduce_scatter_base(self, output, input, opts=None):
        return self.reduce_scatter_tensor_coalesced([output], [input], opts)

    def reduce_scatter_tensor_coalesced(self, outputs, inputs, opts=None):
        c = self._nccl(list(outputs) + list(inputs))
        if c is None:
            return super().reduce_scatter_tensor_coalesced(outputs, inputs, opts)
        opts = opts or dist.ReduceScatterOptions()
        agreement = self._agree("reduce_scatter_tensor_coalesced", inputs)

        def issue():
            return self._scatter_reduced(c, outputs, inputs, opts.reduceOp)

        tensors = list(outputs) + list(inputs)
        return c.launch(
            "reduce_scatter_tensor_coalesced", issue, tensors, outputs, agreement=agreement
        )

    def _exchange(self, c: Communicator, sends, receives):
        """Sends each (tensor, peer) of `sends` and receives each of `receives` in one group;
        non-contiguous tensors go through copies. What to keep alive."""
        sources = [(t.contiguous(), peer) for t, peer in sends]
        targets = [
            (
                t
                if t.is_contiguous()
                else torch.empty_like(t, memory_format=torch.contiguous_format),
                peer,
            )
            for t, peer in receives
        ]
        c.issue(
            [(SEND, t, t, 0, peer) for t, peer in sources]
            + [(RECV, t, t, 0, peer) for t, peer in targets]
        )
        for (tensor, _), (target, _) in zip(receives, targets, strict=True):
            self._finish(target, tensor, False)
        return [t for t, _ in sources + targets]

    def gather(self, output_lists, inputs, opts=None):
        c = self._nccl(_flat(output_lists) + list(inputs))
        if c is None:
            return super().gather(output_lists, inputs, opts)
        opts = opts or dist.GatherOptions()
        agreement = self._agree("gather", inputs)
        root, me = opts.rootRank, self.rank()
        (input,) = inputs
        receives = list(zip(output_lists[0], range(self.size()), strict=True)) if me == root else []
        tensors = _flat(output_lists) + list(inputs)
        return c.launch(
            "gather",
            lambda: self._exchange(c, [(input, root)], receives),
            tensors,
            output_lists,
            agreement=agreement,
        )

    def scatter(self, outputs, input_lists, opts=None):
        c = self._nccl(_flat(input_lists) + list(outputs))
        if c is None:
            return super().scatter(outputs, input_lists, opts)
        opts = opts or dist.ScatterOptions()
        agreement = self._agree("scatter", outputs)
        root, me = opts.rootRank, self.rank()
        (output,) = outputs
        sends = list(zip(input_lists[0], range(self.size()), strict=True)) if me == root else []
        tensors = _flat(input_lists) + list(outputs)
        return c.launch(
            "scatter",
            lambda: self._exchange(c, sends, [(output, root)]),
            tensors,
            outputs,
            agreement=agreement,
        )

    def alltoall_base(self, output, input, output_split_sizes, input_split_sizes, opts=None):
        c = self._nccl([output, input])
        if c is None:
            return super().alltoall_base(output, input, output_split_sizes, input_split_sizes, opts)
        agreement = self._agree("alltoall_base", [input.dtype])
        size = self.size()

        def pieces(tensor, splits):
            if not splits:
                return list(tensor.chunk(size)) if tensor.numel() else [tensor] * size
            return list(tensor.split(list(splits)))

        sends = list(zip(pieces(input, input_split_sizes), range(size), strict=True))
        receives = list(zip(pieces(output, output_split_sizes), range(size), strict=True))
        return c.launch(
            "alltoall_base",
            lambda: self._exchange(c, sends, receives),
            [output, input],
            [output],
            agreement=agreement,
        )

    def alltoall(self, outputs, inputs, opts=None):
        c = self._nccl(list(outputs) + list(inputs))
        if c is None:
            return super().alltoall(outputs, inputs, opts)
        agreement = self._agree("alltoall", [t.dtype for t in inputs[:1]])
        sends = list(zip(inputs, range(self.size()), strict=True))
        receives = list(zip(outputs, range(self.size()), strict=True))
        tensors = list(outputs) + list(inputs)
        return c.launch(
            "alltoall",
            lambda: self._exchange(c, sends, receives),
            tensors,
            outputs,
            agreement=agreement,
        )

    def barrier(self, opts=None):
        device = self._bound_device()
        if device.type != "mojo":
            return super().barrier(opts)
        token = torch.zeros(1, dtype=torch.int32, device=device)
        work = self.allreduce([token])
        work.wait()
        return work

    # Point-to-point: a header on the Gloo side first (see _point_to_point).

    def send(self, tensors, dst: int, tag: int = 0):
        c = self._nccl(tensors)
        if c is None:
            return super().send(tensors, dst, tag)
        (tensor,) = tensors
        header = _header(tensor)
        self._headers = [h for h in self._headers if not h[0].is_completed()]
        self._headers.append((self._gloo["mojo"].send([header], dst, tag), header))
        return c.launch("send", lambda: self._exchange(c, [(tensor, dst)], []), tensors, [])

    def recv(self, tensors, src: int, tag: int = 0):
        return self._receive(tensors, src, tag)

    def recv_anysource(self, tensors, tag: int = 0):
        return self._receive(tensors, None, tag)

    def _receive(self, tensors, src, tag):
        c = self._nccl(tensors)
        if c is None:
            if src is None:
                return super().recv_anysource(tensors, tag)
            return super().recv(tensors, src, tag)
        (tensor,) = tensors
        expected = _header(tensor)
        header = torch.empty_like(expected)
        if src is None:
            posted = self._gloo["mojo"].recv_anysource([header], tag)
            posted.wait()
            src = posted._source_rank()
        else:
            self._gloo["mojo"].recv([header], src, tag).wait()
        source = src
        if torch.equal(header, expected):
            work = c.launch(
                "recv", lambda: self._exchange(c, [], [(tensor, src)]), tensors, tensors
            )
            work._source = [source]
            return work
        dtype, count = header.tolist()
        sink = torch.empty(count, dtype=DTYPES[dtype], device=tensor.device)
        c.launch("recv", lambda: self._exchange(c, [], [(sink, src)]), [sink], [sink]).wait()
        raise RuntimeError(
            f"mojo process group: a receive of {describe_header(expected.tolist())} from rank "
            f"{src} met a send of {describe_header(header.tolist())}"
        )
