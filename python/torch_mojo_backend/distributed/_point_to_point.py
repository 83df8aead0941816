"""Sends and receives that check their sizes: every send is preceded by a header (dtype,
element count) on the same Gloo tag, and a receive posts its data buffer only once it has
read the header. Gloo would end the process when a send is larger than the receive and
silently fill part of the buffer when it is smaller; here the receiver raises, after taking
in the sender's data so that later messages stay matched.

Messages of one source and tag are matched in the order their receives are posted, so the
receives of one (source, tag) run one after another (`Order`); a receive from any source
waits for and holds every source's order of its tag.
"""

import threading

import torch

# The dtypes a header can name, by index.
DTYPES = [
    getattr(torch, name)
    for name in (
        "bool",
        "uint8",
        "int8",
        "int16",
        "int32",
        "int64",
        "float16",
        "bfloat16",
        "float32",
        "float64",
        "complex64",
        "complex128",
        "uint16",
        "uint32",
        "uint64",
    )
]


def _header(tensor: torch.Tensor) -> torch.Tensor:
    """(dtype index, element count) of the one tensor Gloo sends or receives."""
    return torch.tensor([DTYPES.index(tensor.dtype), tensor.numel()], dtype=torch.int64)


def _describe(header: list[int]) -> str:
    dtype, count = header
    return f"{count} {str(DTYPES[dtype]).removeprefix('torch.')} elements"


def send(gloo, tensor: torch.Tensor, dst: int, tag: int) -> list:
    """Posts the header, then the data; the two Works."""
    return [gloo.send([_header(tensor)], dst, tag), gloo.send([tensor], dst, tag)]


class Order:
    """Which receive of each (source, tag) goes next: one event per pending receive."""

    def __init__(self, size: int):
        self._size = size
        self._last: dict[tuple[int, int], threading.Event] = {}
        self._lock = threading.Lock()

    def enter(self, sources, tag: int) -> tuple[list[threading.Event], threading.Event]:
        """The events a new receive from `sources` waits for, and the event it sets once its
        data buffer is posted."""
        mine = threading.Event()
        with self._lock:
            before = [self._last.get((s, tag)) for s in sources]
            for s in sources:
                self._last[(s, tag)] = mine
        return [e for e in before if e is not None], mine

    def sources(self, src: int | None) -> range:
        return range(self._size) if src is None else range(src, src + 1)


class Receive:
    """A receive posted when its turn comes; `wait()` (on the channel's waiter thread) reads
    the header, checks it and takes in the data. `src` None: from any source."""

    def __init__(self, gloo, order: Order, tensor: torch.Tensor, src: int | None, tag: int):
        self._gloo, self._tensor, self._src, self._tag = gloo, tensor, src, tag
        self._before, self._posted = order.enter(order.sources(src), tag)
        self.source: int | None = src

    def wait(self, timeout=None) -> bool:
        expected = _header(self._tensor)
        header = torch.empty_like(expected)
        try:
            for event in self._before:
                event.wait()
            if self._src is None:
                work = self._gloo.recv_anysource([header], self._tag)
                work.wait()
                self.source = work._source_rank()
            else:
                self._gloo.recv([header], self._src, self._tag).wait()
            if torch.equal(header, expected):
                buffer, error = self._tensor, None
            else:
                dtype, count = header.tolist()
                buffer = torch.empty(count, dtype=DTYPES[dtype])
                error = RuntimeError(
                    f"mojo process group: a receive of {_describe(expected.tolist())} from "
                    f"rank {self.source} met a send of {_describe(header.tolist())}"
                )
            data = self._gloo.recv([buffer], self.source, self._tag)
        finally:
            self._posted.set()
        data.wait()
        if error is not None:
            raise error
        return True
