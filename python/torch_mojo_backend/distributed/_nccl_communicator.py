"""One rank's NCCL communicator for the ``mojo`` process group (``_nccl``): its
communication stream, the Works of the collectives issued on it, and the watchdog thread that
completes each Work's future when its event is reached, checks that the ranks agreed on the
call, and aborts the communicator when a collective runs past the group's timeout or NCCL
reports an error.
"""

import threading
import time

import torch

from .. import _C
from .process_group import _seconds, _Work

# How often the watchdog looks at pending Works and NCCL's error state.
_POLL_SECONDS = 0.0005


class NcclWork(_Work):
    """A collective issued to NCCL: done when its event is reached (and the ranks' agreement
    checked); `wait()` blocks until then and raises the error the communicator met."""

    def __init__(self, communicator, name: str, event, result, keep=(), agreement=None):
        super().__init__(torch.futures.Future())
        # Checks that every rank made this call (see process_group.agree), once its exchange
        # is done; None once checked.
        self.agreement = agreement
        self._communicator = communicator
        self._name = name
        self._event = event
        self._result = result
        self._keep = keep
        self.started = time.monotonic()

    def wait(self, timeout=None):
        seconds = _seconds(timeout)
        deadline = time.monotonic() + seconds if seconds > 0 else None
        while not self._future.done():
            if deadline is not None and time.monotonic() > deadline:
                raise RuntimeError(
                    f"mojo process group: Work.wait timed out after {seconds} s ({self._name})"
                )
            time.sleep(_POLL_SECONDS)
        self._future.wait()
        torch.accelerator.current_stream(self._communicator.device).wait_event(self._event)
        return True

    def finish(self, error: Exception | None) -> None:
        """Completes the future (the watchdog, once the event is reached or the call failed)."""
        if self._future.done():
            return
        self._keep = ()
        if error is None:
            self._future.set_result(self._result)
        else:
            self._future.set_exception(error)


class Communicator:
    """One rank's NCCL communicator on one device, the group's communication stream there and
    the watchdog of its pending Works."""

    def __init__(self, store, key: str, device: torch.device, rank: int, size: int, timeout):
        self.device = device
        self.index = device.index or 0
        self.rank, self.size = rank, size
        self.timeout = timeout.total_seconds()
        if rank == 0:
            store.set(key, bytes(_C.collective_unique_id(self.index)))
        unique_id = list(store.get(key))
        self.handle = _open(self.index, unique_id, size, rank, self.timeout)
        self.stream = torch.Stream(device=device)
        self._pending: list[NcclWork] = []
        self._error: Exception | None = None
        self._closed = False
        self._lock = threading.Condition()
        self._watchdog = threading.Thread(
            target=self._watch, name=f"mojo-nccl-{device}", daemon=True
        )
        self._watchdog.start()

    def check(self) -> None:
        """Raises the error that ended the communicator, if any."""
        if self._closed:
            raise RuntimeError("mojo process group: the group has been destroyed")
        if self._error is not None:
            raise RuntimeError(f"mojo process group: the NCCL communicator failed: {self._error}")

    def issue(self, calls) -> None:
        """Issues NCCL `calls` ((kind, send, recv, op, peer) each) on the current stream (the
        communication stream), several as one group. A group's calls reach the stream when it
        ends, so kernels that prepare inputs or finish outputs go before or after, never in it."""
        grouped = len(calls) > 1
        if grouped:
            _C.collective_group(self.index, True)
        try:
            for kind, send, recv, op, peer in calls:
                send, recv = _as_nccl(send), _as_nccl(recv)
                torch.ops.mojo.collective(send, recv, self.handle, kind, op, peer)
        finally:
            if grouped:
                _C.collective_group(self.index, False)

    def launch(self, name: str, issue, tensors, result, agreement=None) -> NcclWork:
        """Runs `issue()` on the communication stream after the caller's current stream's work,
        keeps `tensors` alive for it, and returns the Work (its value: `result`), done once
        its `agreement` holds too."""
        self.check()
        current = torch.accelerator.current_stream(self.device)
        self.stream.wait_stream(current)
        with self.stream:
            kept = issue() or ()
            event = torch.Event(device=self.device)
            event.record(self.stream)
        for tensor in tensors:
            tensor.record_stream(self.stream)
        work = NcclWork(self, name, event, result, (tensors, kept), agreement)
        with self._lock:
            self._pending.append(work)
            self._lock.notify()
        return work

    def _watch(self) -> None:
        while True:
            with self._lock:
                while not self._pending and not self._closed:
                    self._lock.wait()
                if not self._pending:
                    return
                pending = list(self._pending)
            error = None
            if self._error is None and not self._closed:
                try:
                    error = _C.collective_error(self.index, self.handle)
                except RuntimeError as failed:  # closed meanwhile
                    error = str(failed)
            now = time.monotonic()
            late = [w for w in pending if now - w.started > self.timeout]
            if error is not None or late:
                reason = error or (
                    f"collective {late[0]._name} timed out after {self.timeout:g} s (a peer may "
                    "have died or be making another call); the communicator was aborted"
                )
                self._fail(RuntimeError(f"mojo process group: {reason}"))
                continue
            try:
                for work in pending:
                    if work.agreement is not None and work.agreement.exchange.is_completed():
                        work.agreement()
                        work.agreement = None
            except Exception as error:  # noqa: BLE001  (the ranks disagree: fail every call)
                self._fail(error)
                continue
            done = [w for w in pending if w.agreement is None and w._event.query()]
            with self._lock:
                for work in done:
                    self._pending.remove(work)
            for work in done:
                work.finish(None)
            if len(done) < len(pending):
                time.sleep(_POLL_SECONDS)

    def _fail(self, error: Exception) -> None:
        """Aborts the communicator and fails every pending Work with `error`."""
        first = self._error is None
        self._error = error
        if first:
            _C.collective_close(self.index, self.handle, True)
        with self._lock:
            pending, self._pending = self._pending, []
        for work in pending:
            work.finish(error)

    def close(self) -> None:
        """Waits for the pending Works (within the timeout) and releases the communicator."""
        deadline = time.monotonic() + self.timeout
        while self._pending and self._error is None and time.monotonic() < deadline:
            time.sleep(_POLL_SECONDS)
        if self._error is None:
            if self._pending:
                self._fail(RuntimeError("mojo process group: destroyed with collectives pending"))
            else:
                _C.collective_close(self.index, self.handle, False)
        with self._lock:
            self._closed = True
            self._lock.notify()


def _open(index: int, unique_id: list[int], size: int, rank: int, timeout: float) -> int:
    """Joins the communicator (which blocks until every rank has) within `timeout` seconds; a
    rank that never joins (it died) makes this raise, leaving the join to a daemon thread."""
    joined: dict = {}

    def join():
        try:
            joined["handle"] = _C.collective_open(index, unique_id, size, rank)
        except Exception as error:  # noqa: BLE001  (raised on the caller's thread)
            joined["error"] = error

    thread = threading.Thread(target=join, name="mojo-nccl-join", daemon=True)
    thread.start()
    thread.join(timeout)
    if "error" in joined:
        raise joined["error"]
    if "handle" not in joined:
        raise RuntimeError(
            f"mojo process group: NCCL communicator setup timed out after {timeout:g} s (a rank "
            "did not join: it may have died)"
        )
    return joined["handle"]


def _as_nccl(tensor: torch.Tensor) -> torch.Tensor:
    """The view NCCL takes: booleans as bytes, complex numbers as pairs of reals."""
    if tensor.dtype == torch.bool:
        return tensor.view(torch.uint8)
    if tensor.is_complex():
        return torch.view_as_real(tensor)
    return tensor
