"""A channel runs one device's collectives of a process group over a private Gloo group.

Each channel has a worker thread that takes the group's calls for its device in the order they
were issued (so every rank hands them to Gloo in the same order) and, for mojo tensors, stages
them through pinned host memory on a communication stream of its own:

1. the caller's current stream records an event when the call is issued; the communication
   stream waits for it, so the inputs are the values the caller's stream computed;
2. the inputs are copied to pinned host buffers and the worker waits for those copies;
3. Gloo runs the collective over the host buffers;
4. the results are copied back on the communication stream, the worker waits for that copy,
   and only then completes the call's future (``Work.is_completed()`` means done). The future
   is device-aware: a stream that waits on it is ordered after the copy.

Point-to-point calls do not hold up the queue: their Gloo calls are issued, a waiter thread
waits for them, and the worker finishes them once done, so a rank may post a send and then a
receive as with NCCL; a later call that reads what a pending receive writes waits for it.
Where the host addresses device memory directly (the software device), contiguous tensors
are not staged: once the caller's stream has reached the call, Gloo reads and writes them in
place (`_in_place`). CPU tensors go through a channel of their own with no staging. A failure
(a peer that died, a timeout, ranks that disagree on a call) fails the call's future with the
error.
"""

import ctypes
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import torch

from .. import _C

# How often the worker looks at pending point-to-point calls while no new call arrives.
_POLL_SECONDS = 0.0005


@dataclass
class Call:
    """One call of the process group: what it reads and writes on the device, how to run it
    over host tensors, and what to do on the host once Gloo is done."""

    reads: list[torch.Tensor]
    writes: list[torch.Tensor]
    # Runs the collective over host tensors (`host(t)` maps a device tensor to its buffer);
    # returns Gloo's Works.
    run: Callable[[Callable[[torch.Tensor], torch.Tensor]], list]
    # Host-side work after Gloo (averaging); gets the same mapping.
    after: Callable[[Callable[[torch.Tensor], torch.Tensor]], None] | None = None
    point_to_point: bool = False
    # Starts checking that every rank makes the same call; what it returns waits for the check
    # and raises if they do not. Runs before any data moves.
    agree: Callable[[], Callable[[], None]] | None = None
    result: object = None
    future: torch.futures.Future = field(default_factory=torch.futures.Future)
    entry: torch.Event | None = None
    buffers: dict = field(default_factory=dict)
    works: list = field(default_factory=list)
    # Set by a point-to-point call's waiter thread once Gloo is done (error: the exception).
    transferred: threading.Event = field(default_factory=threading.Event)
    error: Exception | None = None
    # Whether Gloo may change what it reads (then reads are staged even where they need not
    # be: a pre-multiplied sum scales its inputs).
    changes_reads: bool = False
    # The ids of the tensors Gloo uses in place.
    in_place: set = field(default_factory=set)


class Channel:
    """The worker, the Gloo group and, for a mojo device, the communication stream."""

    def __init__(self, device: torch.device):
        self.device = device
        self.staged = device.type != "cpu"
        self.stream = torch.Stream(device=device) if self.staged else None
        self._calls: queue.SimpleQueue = queue.SimpleQueue()
        self._pending: list[Call] = []
        self._worker = threading.Thread(target=self._serve, name=f"mojo-c10d-{device}", daemon=True)
        self._worker.start()

    def submit(self, call: Call) -> torch.futures.Future:
        """Queues `call` after every call issued before it; returns its future."""
        if self.staged:
            call.future = torch.futures.Future(devices=[self.device])
            call.entry = torch.Event(device=self.device)
            call.entry.record(torch.accelerator.current_stream(self.device))
            staged = {id(t) for t in call.reads} if call.changes_reads else set()
            for tensor in {id(t): t for t in call.reads + call.writes}.values():
                view = None if id(tensor) in staged else _in_place(tensor)
                if view is not None:
                    call.in_place.add(id(tensor))
                else:
                    view = torch.empty(tensor.shape, dtype=tensor.dtype, pin_memory=True)
                call.buffers[id(tensor)] = view
        self._calls.put(call)
        return call.future

    def close(self) -> None:
        """Stops the worker once the calls issued so far are done."""
        self._calls.put(None)
        if self._worker is not threading.current_thread():
            self._worker.join()

    # The worker.

    def _serve(self) -> None:
        while True:
            try:
                call = self._calls.get(timeout=_POLL_SECONDS if self._pending else None)
            except queue.Empty:
                self._finish_pending(block=False)
                continue
            if call is None:
                self._finish_pending(block=True)
                return
            try:
                self._start(call)
            except Exception as error:  # noqa: BLE001  (the caller sees it through the future)
                self._fail(call, error)
                continue
            if call.point_to_point:
                self._pending.append(call)
                threading.Thread(target=_wait_for_gloo, args=(call,), daemon=True).start()
            else:
                self._finish(call)
            self._finish_pending(block=False)

    def _host(self, call: Call) -> Callable[[torch.Tensor], torch.Tensor]:
        if not self.staged:
            return lambda tensor: tensor
        return lambda tensor: call.buffers[id(tensor)]

    def _start(self, call: Call) -> None:
        verify = call.agree() if call.agree is not None else None
        if self._pending:
            reads = {t.untyped_storage().data_ptr() for t in call.reads}
            written = (t.untyped_storage().data_ptr() for p in self._pending for t in p.writes)
            if any(address in reads for address in written):
                self._finish_pending(block=True)
        host = self._host(call)
        if self.staged and (call.reads or call.in_place):
            # Also before Gloo writes in place: the caller's earlier work may use the bytes.
            with self.stream:
                self.stream.wait_event(call.entry)
                for tensor in call.reads:
                    if id(tensor) not in call.in_place:
                        host(tensor).copy_(tensor, non_blocking=True)
                self.stream.synchronize()
        if verify is not None:
            verify()
        works = call.run(host)
        call.works = [w for w in works if w is not None]

    def _finish(self, call: Call) -> None:
        try:
            if call.point_to_point:
                call.transferred.wait()
                if call.error is not None:
                    raise call.error
            else:
                for work in call.works:
                    work.wait()
            host = self._host(call)
            if call.after is not None:
                call.after(host)
            if self.staged:
                with self.stream:
                    # Calls that only write (a receive) have not waited for the caller yet.
                    self.stream.wait_event(call.entry)
                    for tensor in call.writes:
                        if id(tensor) not in call.in_place:
                            tensor.copy_(host(tensor), non_blocking=True)
                        tensor.record_stream(self.stream)
                    for tensor in call.reads:
                        tensor.record_stream(self.stream)
                    self.stream.synchronize()
                    call.future.set_result(call.result)
            else:
                call.future.set_result(call.result)
        except Exception as error:  # noqa: BLE001
            self._fail(call, error)
        finally:
            call.buffers.clear()

    def _finish_pending(self, block: bool) -> None:
        still = []
        for call in self._pending:
            if block or call.transferred.is_set():
                self._finish(call)
            else:
                still.append(call)
        self._pending = still

    def _fail(self, call: Call, error: Exception) -> None:
        call.buffers.clear()
        if not call.future.done():
            call.future.set_exception(error)


def _in_place(tensor: torch.Tensor) -> torch.Tensor | None:
    """A CPU tensor over `tensor`'s own device bytes, where the host addresses them (contiguous
    tensors on the software device); None elsewhere."""
    if not tensor.is_contiguous() or tensor.numel() == 0:
        return None
    nbytes = tensor.numel() * tensor.element_size()
    address = _C.host_address(tensor.data_ptr(), nbytes)
    if address is None:
        return None
    raw = torch.frombuffer((ctypes.c_uint8 * nbytes).from_address(address), dtype=torch.uint8)
    return raw.view(tensor.dtype).view(tensor.shape)


def _wait_for_gloo(call: Call) -> None:
    """A point-to-point call's waiter thread."""
    try:
        for work in call.works:
            work.wait()
    except Exception as error:  # noqa: BLE001  (handed to the worker)
        call.error = error
    finally:
        call.transferred.set()
