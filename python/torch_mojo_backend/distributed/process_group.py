"""The ``mojo`` c10d backend: a process group that runs PyTorch's collectives on mojo tensors.
(On devices with NCCL, ``_nccl.ProcessGroupMojoNccl`` runs them through it instead.)

``ProcessGroupMojo`` is a Python ``ProcessGroup``: c10d calls its methods from Python
(``torch.distributed.all_reduce`` and the rest) and from C++ (DDP's reducer, through
PyTorch's trampoline). Mojo tensors are staged through pinned host memory over a private Gloo
group per device (see ``_channel``); CPU tensors go to a Gloo group of their own, so one group
serves both (``init_process_group()`` with no backend makes this the only backend of the
group). Reductions Gloo lacks (average, pre-multiplied sum) are composed around its sum.
"""

import datetime
import time
import zlib

import torch
import torch.distributed as dist

from . import _point_to_point as point_to_point
from ._channel import Call, Channel
from ._point_to_point import DTYPES

ReduceOp = dist.ReduceOp


class _Work(dist._Work):
    """A call's Work: done when its future is; waiting raises the call's error (a Work made by
    ``_create_work_from_future`` would swallow it)."""

    def __init__(self, future: torch.futures.Future, source: list[int] | None = None):
        super().__init__()
        self._future = future
        self._source = source

    def wait(self, timeout=None):
        """Waits for the call (raising its error); a positive `timeout` (a timedelta, or
        milliseconds) bounds the wait and raises RuntimeError when it passes."""
        seconds = _seconds(timeout)
        if seconds > 0:
            deadline = time.monotonic() + seconds
            while not self._future.done():
                if time.monotonic() > deadline:
                    raise RuntimeError(f"mojo process group: Work.wait timed out after {seconds} s")
                time.sleep(0.001)
        self._future.wait()
        return True

    def is_completed(self):
        return self._future.done()

    def is_success(self):
        return self.exception() is None

    def exception(self):
        if not self._future.done():
            return None
        try:
            self._future.value()
        except Exception as error:  # noqa: BLE001
            return error
        return None

    def result(self):
        return self._future.wait()

    def get_future(self):
        return self._future

    def _source_rank(self):
        """The sender of a receive from any source."""
        self._future.wait()
        if self._source is None:
            raise RuntimeError(
                "mojo process group: only a receive from any source has a source rank"
            )
        return self._source[0]


def _seconds(timeout) -> float:
    """A wait's timeout in seconds (0: none), from a timedelta or milliseconds."""
    if timeout is None:
        return 0.0
    if isinstance(timeout, datetime.timedelta):
        return timeout.total_seconds()
    return float(timeout) / 1000.0


def _reduction(op) -> tuple[object, float | None, bool]:
    """The Gloo reduction for `op`, the factor to multiply inputs by first (pre-multiplied
    sum) and whether to divide by the group size afterwards (average)."""
    kind = op.op if hasattr(op, "op") else op
    if kind == ReduceOp.AVG:
        return ReduceOp.SUM, None, True
    if kind == ReduceOp.PREMUL_SUM:
        factor = op.__getstate__()[1]
        if isinstance(factor, torch.Tensor):
            factor = factor.item()
        return ReduceOp.SUM, float(factor), False
    return ReduceOp(kind), None, False


class ProcessGroupMojo(dist.ProcessGroup):
    """One rank's view of a group on mojo (and CPU) tensors; made by ``init_process_group``."""

    def __init__(self, store, rank: int, size: int, timeout: datetime.timedelta):
        super().__init__(rank, size)
        # A group made again under the same name (after destroy_process_group) must not meet
        # the addresses its predecessor left in the store: each rank adds one to a counter, so
        # the n-th incarnation reads n-1 on every rank.
        generation = (store.add("mojo-incarnations", 1) - 1) // size
        self._generation = generation
        # One Gloo group per device type, made now: making one is itself collective, so every
        # rank makes them in the same order whatever its first call is.
        self._gloo = {
            kind: dist.ProcessGroupGloo(
                dist.PrefixStore(f"{generation}/{kind}/", store), rank, size, timeout
            )
            for kind in ("cpu", "mojo")
        }
        self._channels: dict[str, Channel] = {}
        self._orders: dict[int, point_to_point.Order] = {}
        self._group_name = ""
        self._group_desc = ""

    # What c10d asks of a backend.

    def getBackendName(self) -> str:
        return "mojo"

    def setGroupName(self, name: str) -> None:
        self._group_name = name

    def getGroupName(self) -> str:
        return self._group_name

    def setGroupDesc(self, desc: str) -> None:
        self._group_desc = desc

    def getGroupDesc(self) -> str:
        return self._group_desc

    def _get_backend(self, device):
        return self

    @property
    def supports_coalescing(self) -> bool:
        return False

    def shutdown(self) -> None:
        """Finishes the calls issued so far and stops the workers."""
        channels, self._channels = self._channels, {}
        for channel in channels.values():
            channel.close()
        self._gloo = {}

    def abort(self) -> None:
        self.shutdown()

    # The collectives, in c10d's ProcessGroup signatures. Each says what it reads and writes and
    # how Gloo runs it over host tensors (`h` maps a tensor of the call to its host tensor).

    def broadcast(self, tensors, opts=None):
        opts = opts or dist.BroadcastOptions()
        return self._call(
            "broadcast", tensors, tensors, lambda g, h: [g.broadcast(_each(h, tensors), opts)]
        )

    def allreduce(self, tensors, opts=None):
        opts = opts or dist.AllreduceOptions()

        def run(g, h, op):
            return [g.allreduce(_each(h, tensors), _options(dist.AllreduceOptions, op))]

        return self._reduced("allreduce", tensors, tensors, opts.reduceOp, run)

    def allreduce_coalesced(self, tensors, opts=None):
        opts = opts or dist.AllreduceCoalescedOptions()

        def run(g, h, op):
            return [g.allreduce([h(t)], _options(dist.AllreduceOptions, op)) for t in tensors]

        return self._reduced("allreduce_coalesced", tensors, tensors, opts.reduceOp, run)

    def reduce(self, tensors, opts=None):
        opts = opts or dist.ReduceOptions()

        def run(g, h, op):
            options = _options(dist.ReduceOptions, op)
            options.rootRank, options.rootTensor = opts.rootRank, opts.rootTensor
            return [g.reduce(_each(h, tensors), options)]

        return self._reduced(
            "reduce", tensors, tensors, opts.reduceOp, run, averaged_on=opts.rootRank
        )

    def allgather(self, output_lists, inputs, opts=None):
        def run(g, h):
            return [g.allgather(_rows(h, output_lists), _each(h, inputs))]

        return self._call("allgather", inputs, _flat(output_lists), run, result=output_lists)

    def allgather_coalesced(self, output_lists, inputs, opts=None):
        def run(g, h):
            return [
                g.allgather([_each(h, row)], [h(x)])
                for row, x in zip(output_lists, inputs, strict=True)
            ]

        return self._call(
            "allgather_coalesced", inputs, _flat(output_lists), run, result=output_lists
        )

    def _allgather_base(self, output, input, opts=None):
        return self._call(
            "_allgather_base",
            [input],
            [output],
            lambda g, h: [g._allgather_base(_flat_view(h(output)), _flat_view(h(input)))],
        )

    def allgather_into_tensor_coalesced(self, outputs, inputs, opts=None):
        def run(g, h):
            return [
                g._allgather_base(_flat_view(h(o)), _flat_view(h(i)))
                for o, i in zip(outputs, inputs, strict=True)
            ]

        return self._call("allgather_into_tensor_coalesced", inputs, outputs, run)

    def gather(self, output_lists, inputs, opts=None):
        opts = opts or dist.GatherOptions()

        def run(g, h):
            return [g.gather(_rows(h, output_lists), _each(h, inputs), opts)]

        return self._call("gather", inputs, _flat(output_lists), run, result=output_lists)

    def scatter(self, outputs, input_lists, opts=None):
        opts = opts or dist.ScatterOptions()

        def run(g, h):
            return [g.scatter(_each(h, outputs), _rows(h, input_lists), opts)]

        return self._call("scatter", _flat(input_lists), outputs, run, agreed=outputs)

    def reduce_scatter(self, outputs, input_lists, opts=None):
        opts = opts or dist.ReduceScatterOptions()

        def run(g, h, op):
            options = _options(dist.ReduceScatterOptions, op)
            return [g.reduce_scatter(_each(h, outputs), _rows(h, input_lists), options)]

        return self._reduced("reduce_scatter", _flat(input_lists), outputs, opts.reduceOp, run)

    def _reduce_scatter_base(self, output, input, opts=None):
        return self.reduce_scatter_tensor_coalesced([output], [input], opts)

    def reduce_scatter_tensor_coalesced(self, outputs, inputs, opts=None):
        opts = opts or dist.ReduceScatterOptions()

        def run(g, h, op):
            options = _options(dist.ReduceScatterOptions, op)
            return [
                g._reduce_scatter_base(_flat_view(h(o)), _flat_view(h(i)), options)
                for o, i in zip(outputs, inputs, strict=True)
            ]

        return self._reduced("reduce_scatter_tensor_coalesced", inputs, outputs, opts.reduceOp, run)

    def alltoall_base(self, output, input, output_split_sizes, input_split_sizes, opts=None):
        def run(g, h):
            return [g.alltoall_base(h(output), h(input), output_split_sizes, input_split_sizes)]

        return self._call("alltoall_base", [input], [output], run, agreed=[input.dtype])

    def alltoall(self, outputs, inputs, opts=None):
        # Gloo has only the single-tensor form: the lists travel concatenated.
        received = [t.numel() for t in outputs]
        sent = [t.numel() for t in inputs]
        joined = {}

        def run(g, h):
            flat = torch.cat([h(t).reshape(-1) for t in inputs])
            joined["out"] = flat.new_empty(sum(received))
            return [g.alltoall_base(joined["out"], flat, received, sent)]

        def after(h):
            for t, piece in zip(outputs, joined.pop("out").split(received), strict=True):
                h(t).copy_(piece.view(t.shape))

        agreed = [t.dtype for t in inputs[:1]]
        return self._call("alltoall", inputs, outputs, run, after=after, agreed=agreed)

    def barrier(self, opts=None):
        device = self._bound_device()
        return self._call("barrier", [], [], lambda g, h: [g.barrier()], device=device)

    # Point-to-point calls check sizes and dtypes through a header (see _point_to_point).

    def send(self, tensors, dst: int, tag: int = 0):
        (tensor,) = _single(tensors)

        def run(g, h):
            return point_to_point.send(g, h(tensor), dst, tag)

        return self._call("send", tensors, [], run, point_to_point=True)

    def recv(self, tensors, src: int, tag: int = 0):
        (tensor,) = _single(tensors)

        def run(g, h):
            return [point_to_point.Receive(g, self._order(g), h(tensor), src, tag)]

        return self._call("recv", [], tensors, run, point_to_point=True)

    def recv_anysource(self, tensors, tag: int = 0):
        (tensor,) = _single(tensors)
        works = []
        source: list[int] = []

        def run(g, h):
            works.append(point_to_point.Receive(g, self._order(g), h(tensor), None, tag))
            return works

        def after(h):
            source.append(works[0].source)

        future = self._submit(
            "recv_anysource", tensors, [], tensors, run, after=after, point_to_point=True
        )
        return _Work(future, source)

    def _order(self, gloo) -> point_to_point.Order:
        """The order of `gloo`'s receives (made on first use)."""
        order = self._orders.get(id(gloo))
        if order is None:
            order = self._orders[id(gloo)] = point_to_point.Order(self.size())
        return order

    # How calls are made.

    def _reduced(self, name, inputs, outputs, op, run, averaged_on=None):
        """A reduction over `inputs` into `outputs`: `run(gloo, h, gloo's op)`, with average and
        pre-multiplied sum composed around Gloo's sum."""
        reduce_op, factor, average = _reduction(op)
        size = self.size()

        def premultiplied(g, h):
            if factor is not None:
                for t in inputs:
                    h(t).mul_(factor)
            return run(g, h, reduce_op)

        def after(h):
            if average and (averaged_on is None or averaged_on == self.rank()):
                for t in outputs:
                    if t.is_floating_point():
                        h(t).div_(size)
                    else:
                        h(t).div_(size, rounding_mode="trunc")

        scales = factor is not None
        return self._call(name, inputs, outputs, premultiplied, after=after, changes_reads=scales)

    def _call(self, name, reads, writes, run, after=None, result=None, agreed=None, **kw):
        """Queues a call reading `reads` and writing `writes`; `agreed` (default: `reads`) must
        have the same dtypes and sizes on every rank, checked before the data moves."""
        reads, writes = list(reads), list(writes)
        result = writes if result is None else result
        agreed = reads if agreed is None else agreed
        work = self._submit(name, reads + writes, reads, writes, run, after, result, agreed, **kw)
        return _Work(work)

    def _submit(
        self,
        name,
        tensors,
        reads,
        writes,
        run,
        after=None,
        result=None,
        agreed=(),
        point_to_point=False,
        device=None,
        changes_reads=False,
    ):
        device = device or self._device_of(tensors)
        if not self._gloo:
            raise RuntimeError("mojo process group: the group has been destroyed")
        channel = self._channel(device)
        gloo = self._gloo[device.type]
        call = Call(
            list(reads),
            list(writes),
            lambda h: run(gloo, h),
            after=after,
            point_to_point=point_to_point,
            result=result,
            changes_reads=changes_reads,
        )
        if not point_to_point:
            call.agree = lambda: agree(gloo, name, agreed)
        return channel.submit(call)

    def _device_of(self, tensors) -> torch.device:
        """The one device of a call's tensors, mojo or CPU."""
        devices = {t.device for t in tensors}
        if not devices:
            return self._bound_device()
        if len(devices) > 1:
            found = ", ".join(sorted(map(str, devices)))
            raise ValueError(
                f"mojo process group: a call's tensors must share a device, got {found}"
            )
        (device,) = devices
        if device.type not in ("mojo", "cpu"):
            raise ValueError(
                f"mojo process group: tensors must be on mojo or the CPU, got {device}"
            )
        for t in tensors:
            if t.layout != torch.strided:
                raise ValueError(f"mojo process group: tensors must be dense, got {t.layout}")
        return device

    def _bound_device(self) -> torch.device:
        if self.bound_device_id is not None:
            return self.bound_device_id
        if torch.mojo.is_available():
            return torch.device("mojo", torch.mojo.current_device())
        return torch.device("cpu")

    def _channel(self, device: torch.device) -> Channel:
        channel = self._channels.get(device.type)
        if channel is None:
            channel = self._channels[device.type] = Channel(device)
        elif channel.device != device:
            raise ValueError(
                f"mojo process group: this rank's calls use {channel.device}; one device per rank "
                f"and group (got {device})"
            )
        return channel


_CALLS = [name for name in vars(ProcessGroupMojo) if not name.startswith("__")]


def agree(gloo, name: str, agreed):
    """Starts checking that all ranks make call `name` with the same dtypes and sizes (tensors,
    or dtypes alone) in `agreed`: Gloo would end the process on a size mismatch and mix up
    values on a dtype mismatch. One small all-gather of host integers, which runs while the
    inputs are staged; the returned function waits for it and raises on every rank if the
    ranks disagree."""
    shapes = [(x, -1) if isinstance(x, torch.dtype) else (x.dtype, x.numel()) for x in agreed]
    words = [_CALLS.index(name), len(shapes)]
    words += list(shapes[0]) if shapes else [None, 0]
    words[2] = DTYPES.index(words[2]) if words[2] is not None else -1
    words.append(zlib.crc32(repr(shapes).encode()))
    mine = torch.tensor(words, dtype=torch.int64)
    every = torch.empty(gloo.size() * mine.numel(), dtype=torch.int64)
    exchange = gloo._allgather_base(every, mine)

    def verify():
        exchange.wait()
        rows = every.view(gloo.size(), -1).tolist()
        if any(row != rows[0] for row in rows):
            said = "; ".join(f"rank {r}: {_describe(row)}" for r, row in enumerate(rows))
            raise RuntimeError(f"mojo process group: ranks disagree on a collective ({said})")

    verify.exchange = exchange
    return verify


def _describe(row) -> str:
    call, count, dtype, numel, _ = row
    what = _CALLS[call] if 0 <= call < len(_CALLS) else f"call {call}"
    if count == 0:
        return what
    kind = str(DTYPES[dtype]).removeprefix("torch.") if 0 <= dtype < len(DTYPES) else "?"
    size = "" if numel < 0 else f" of {numel} elements"
    return f"{what} of {count} {kind} tensor(s), the first{size}"


def _flat_view(tensor):
    """A single-tensor collective's buffer as Gloo wants it (it splits the first dimension)."""
    return tensor.reshape(-1)


def _single(tensors) -> list:
    """A point-to-point call's one tensor (as Gloo requires)."""
    if len(tensors) != 1:
        raise ValueError(
            f"mojo process group: point-to-point calls take one tensor, got {len(tensors)}"
        )
    return list(tensors)


def _each(h, tensors):
    return [h(t) for t in tensors]


def _rows(h, lists):
    return [[h(t) for t in row] for row in lists]


def _flat(lists):
    return [t for row in lists for t in row]


def _options(kind, op):
    options = kind()
    options.reduceOp = op
    return options


def create_process_group(store, rank: int, size: int, timeout: datetime.timedelta):
    """The creator ``Backend.register_backend("mojo", ...)`` calls: over NCCL where the
    device has it (``_nccl``), else staged through host memory."""
    from .. import _C

    if torch.mojo.is_available() and _C.collective_library(torch.mojo.current_device()):
        from ._nccl import ProcessGroupMojoNccl

        return ProcessGroupMojoNccl(store, rank, size, timeout)
    return ProcessGroupMojo(store, rank, size, timeout)
