"""The device's collective library (NCCL on NVIDIA; in the CUDA emulation, its NCCL whose
ranks meet through files) as ``torch.ops.mojo.collective`` drives it, in one process: each
kind of call on communicators of one rank, the checks that keep the library inside its
buffers, and communicators used from several threads at once. Two ranks run the same path in
tests/test_distributed.py.
"""

import threading

import pytest
import torch

from torch_mojo_backend import _C

pytestmark = pytest.mark.skipif(
    not _C.collective_library(0), reason="the device has no collective library (NCCL)"
)

ALL_REDUCE, BROADCAST, REDUCE, ALL_GATHER, REDUCE_SCATTER, SEND, RECV = range(7)
SUM, PRODUCT, MIN, MAX = 0, 2, 3, 4


def open_one_rank() -> int:
    return _C.collective_open(0, _C.collective_unique_id(0), 1, 0)


@pytest.fixture
def comm():
    handle = open_one_rank()
    yield handle
    _C.collective_close(0, handle, False)


def run(comm, kind, send, recv, op=SUM, peer=0):
    torch.ops.mojo.collective(send, recv, comm, kind, op, peer)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.int64])
@pytest.mark.parametrize("n", [1, 4097, 300_001])
def test_each_kind_on_one_rank(comm, dtype, n):
    # With one rank each kind is a copy: the values must arrive bit for bit.
    source = torch.randn(n).mul(100).to(dtype)
    x = source.to("mojo")
    out = torch.empty_like(x)
    for op in (SUM, PRODUCT, MIN, MAX):
        run(comm, ALL_REDUCE, x, out, op)
        assert torch.equal(out.cpu(), source)
    for kind in (BROADCAST, REDUCE, ALL_GATHER, REDUCE_SCATTER):
        out.zero_()
        run(comm, kind, x, out)
        assert torch.equal(out.cpu(), source), kind
    run(comm, ALL_REDUCE, x, x)  # in place
    assert torch.equal(x.cpu(), source)


def test_moves_take_every_dtype(comm):
    for dtype in (torch.bool, torch.int16, torch.float64, torch.uint8):
        source = torch.randn(1031).mul(9).to(dtype)
        x, out = source.to("mojo"), torch.zeros(1031, dtype=dtype, device="mojo")
        run(comm, BROADCAST, x, out)
        assert torch.equal(out.cpu(), source), dtype


def test_send_to_self_in_a_group(comm):
    source = torch.arange(1000, dtype=torch.float32)
    x, got = source.to("mojo"), torch.zeros(1000, device="mojo")
    _C.collective_group(0, True)
    try:
        run(comm, SEND, x, x)
        run(comm, RECV, got, got)
    finally:
        _C.collective_group(0, False)
    assert torch.equal(got.cpu(), source)


def test_calls_outside_the_buffers_raise(comm):
    x = torch.ones(10, device="mojo")
    with pytest.raises(ValueError, match="does not fit"):
        run(comm, ALL_GATHER, x, torch.empty(11, device="mojo"))
    with pytest.raises(ValueError, match="does not fit"):
        run(comm, ALL_REDUCE, x, torch.empty(9, device="mojo"))
    with pytest.raises(ValueError, match="contiguous"):
        run(comm, ALL_REDUCE, torch.ones(10, 2, device="mojo").t(), x)
    with pytest.raises(TypeError, match="share a dtype"):
        run(comm, ALL_REDUCE, x, torch.empty(10, dtype=torch.float64, device="mojo"))
    with pytest.raises(TypeError, match="cannot reduce Bool"):
        b = torch.ones(10, dtype=torch.bool, device="mojo")
        run(comm, ALL_REDUCE, b, b)
    with pytest.raises(ValueError, match="not one of the communicator's 1"):
        run(comm, BROADCAST, x, x, peer=1)
    with pytest.raises(ValueError, match="no reduce op"):
        run(comm, ALL_REDUCE, x, x, op=1)
    with pytest.raises(ValueError, match="not a collective"):
        run(comm, 9, x, x)
    with pytest.raises(ValueError, match="128 bytes"):
        _C.collective_open(0, [0] * 12, 1, 0)
    assert torch.equal(x.cpu(), torch.ones(10))


def test_a_closed_communicator_refuses_calls():
    handle = open_one_rank()
    _C.collective_close(0, handle, False)
    x = torch.ones(4, device="mojo")
    with pytest.raises(RuntimeError, match="not open"):
        run(handle, ALL_REDUCE, x, x)
    with pytest.raises(RuntimeError, match="not open"):
        _C.collective_close(0, handle, False)


def test_communicators_on_several_threads():
    errors = []

    def worker(seed):
        try:
            handle = open_one_rank()
            stream = torch.Stream(device="mojo")
            with stream:
                for i in range(20):
                    source = torch.full((5000 + seed,), float(seed * 100 + i))
                    x = source.to("mojo")
                    out = torch.empty_like(x)
                    run(handle, ALL_REDUCE, x, out)
                    assert torch.equal(out.cpu(), source)
            _C.collective_close(0, handle, False)
        except Exception as error:  # noqa: BLE001  (reported by the main thread)
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
