"""Every collective of the mojo backend against what one process computes from all ranks'
inputs (run by tests/test_distributed.py under torchrun, two ranks on the software device).

Each rank makes every rank's inputs from the same seeds, so it knows the expected values; with
two ranks a sum is one rounding, so results are compared bit for bit.
"""

import datetime
import os
import time
import zlib

import torch
import torch.distributed as dist
from harness import case, device, main, rank, world

from torch_mojo_backend import _C

DTYPES = [
    torch.float32,
    torch.float64,
    torch.float16,
    torch.bfloat16,
    torch.int64,
    torch.int32,
    torch.int8,
    torch.uint8,
    torch.bool,
]
FLOATS = [torch.float32, torch.float64, torch.float16, torch.bfloat16]
SIZE = 1_037  # odd, so no split is even
LARGE = 300_001  # past 65,535 of anything

cases = {}


def values(name: str, r: int, n: int, dtype: torch.dtype, low: int = -9, high: int = 10):
    """Rank r's input of case `name` (on the CPU): small integers, so products do not overflow
    and floating sums of two are exact in every dtype but the expected rounding."""
    generator = torch.Generator().manual_seed(zlib.crc32(f"{name}/{r}".encode()))
    if dtype == torch.bool:
        return torch.randint(0, 2, (n,), generator=generator).bool()
    if dtype == torch.uint8:
        low = max(low, 0)
    if dtype.is_floating_point:
        return (torch.randn(n, generator=generator) * 3).to(dtype)
    return torch.randint(low, high, (n,), generator=generator).to(dtype)


def every(name, n, dtype, **kw):
    return [values(name, r, n, dtype, **kw) for r in range(world())]


def same(actual: torch.Tensor, expected: torch.Tensor) -> None:
    actual = actual.cpu()
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    assert torch.equal(actual, expected), f"{actual} != {expected}"


def fold(tensors, op):
    out = tensors[0].clone()
    for t in tensors[1:]:
        if op == "sum":
            out = out + t if out.dtype != torch.bool else out | t
        elif op == "product":
            out = out * t if out.dtype != torch.bool else out & t
        elif op == "min":
            out = torch.minimum(out, t)
        elif op == "max":
            out = torch.maximum(out, t)
    return out.to(tensors[0].dtype)


REDUCTIONS = {
    "sum": dist.ReduceOp.SUM,
    "product": dist.ReduceOp.PRODUCT,
    "min": dist.ReduceOp.MIN,
    "max": dist.ReduceOp.MAX,
}


def _all_reduce(dtype, op):
    def run():
        name = f"all_reduce/{op}/{dtype}"
        inputs = every(
            name, SIZE, dtype, low=1 if op == "product" else -9, high=3 if op == "product" else 10
        )
        x = inputs[rank()].to(device())
        dist.all_reduce(x, op=REDUCTIONS[op])
        same(x, fold(inputs, op))

    return run


for _dtype in DTYPES:
    for _op in REDUCTIONS:
        cases[f"all_reduce-{_op}-{str(_dtype)[6:]}"] = _all_reduce(_dtype, _op)


def _average(dtype):
    def run():
        inputs = every(f"avg/{dtype}", SIZE, dtype)
        x = inputs[rank()].to(device())
        dist.all_reduce(x, op=dist.ReduceOp.AVG)
        total = fold(inputs, "sum")
        expected = (
            total / world()
            if dtype.is_floating_point
            else total.div(world(), rounding_mode="trunc")
        )
        same(x, expected.to(dtype))

    return run


def _premul_sum(dtype):
    def run():
        inputs = every(f"premul/{dtype}", SIZE, dtype)
        x = inputs[rank()].to(device())
        dist.all_reduce(x, op=dist._make_nccl_premul_sum(0.5))
        same(x, fold([t * 0.5 for t in inputs], "sum"))

    return run


@case(cases)
def premultiplied_inputs_stay_unscaled():
    # Gloo works on the software device's bytes in place; a pre-multiplied sum must not scale
    # the caller's input.
    inputs = every("premul-rs", 2 * SIZE, torch.float32)
    x = inputs[rank()].to(device())
    out = torch.empty(SIZE, device=device())
    dist.reduce_scatter_tensor(out, x, op=dist._make_nccl_premul_sum(0.25))
    same(x, inputs[rank()])
    same(out, fold([t * 0.25 for t in inputs], "sum")[rank() * SIZE : (rank() + 1) * SIZE])


@case(cases)
def views_reduce_without_touching_their_neighbours():
    inputs = every("views", 4 * SIZE, torch.float32)
    whole = inputs[rank()].to(device())
    dist.all_reduce(whole[SIZE : 2 * SIZE])  # contiguous, at an offset
    dist.all_reduce(whole[2 * SIZE :].view(-1, 2)[:, 1])  # strided
    total = fold(inputs, "sum")
    expected = inputs[rank()].clone()
    expected[SIZE : 2 * SIZE] = total[SIZE : 2 * SIZE]
    expected[2 * SIZE :].view(-1, 2)[:, 1] = total[2 * SIZE :].view(-1, 2)[:, 1]
    same(whole, expected)


for _dtype in FLOATS + [torch.int64]:
    cases[f"all_reduce-avg-{str(_dtype)[6:]}"] = _average(_dtype)
for _dtype in FLOATS:
    cases[f"all_reduce-premul_sum-{str(_dtype)[6:]}"] = _premul_sum(_dtype)


def _broadcast_and_gathers(dtype):
    def run():
        tag = str(dtype)
        inputs = every(f"bcast/{tag}", SIZE, dtype)
        x = inputs[rank()].to(device())
        dist.broadcast(x, src=world() - 1)
        same(x, inputs[-1])

        inputs = every(f"gather/{tag}", SIZE, dtype)
        mine = inputs[rank()].to(device())
        out = torch.empty(world() * SIZE, dtype=dtype, device=device())
        dist.all_gather_into_tensor(out, mine)
        same(out, torch.cat(inputs))
        listed = [torch.empty(SIZE, dtype=dtype, device=device()) for _ in range(world())]
        dist.all_gather(listed, mine)
        for got, expected in zip(listed, inputs, strict=True):
            same(got, expected)

        gathered = [torch.empty(SIZE, dtype=dtype, device=device()) for _ in range(world())]
        dist.gather(mine, gathered if rank() == 0 else None, dst=0)
        if rank() == 0:
            for got, expected in zip(gathered, inputs, strict=True):
                same(got, expected)

        pieces = [values(f"scatter/{tag}/{i}", 0, SIZE, dtype) for i in range(world())]
        got = torch.empty(SIZE, dtype=dtype, device=device())
        dist.scatter(got, [p.to(device()) for p in pieces] if rank() == 1 else None, src=1)
        same(got, pieces[rank()])

    return run


def _reductions_to_one_or_shards(dtype):
    def run():
        tag = str(dtype)
        inputs = every(f"reduce/{tag}", SIZE, dtype)
        x = inputs[rank()].to(device())
        dist.reduce(x, dst=0, op=dist.ReduceOp.SUM)
        if rank() == 0:
            same(x, fold(inputs, "sum"))

        shard = 7
        inputs = every(f"rs/{tag}", shard * world(), dtype)
        out = torch.empty(shard, dtype=dtype, device=device())
        dist.reduce_scatter_tensor(out, inputs[rank()].to(device()))
        same(out, fold(inputs, "sum")[rank() * shard : (rank() + 1) * shard])
        listed = [p.to(device()) for p in inputs[rank()].split(shard)]
        out = torch.empty(shard, dtype=dtype, device=device())
        dist.reduce_scatter(out, listed)
        same(out, fold(inputs, "sum")[rank() * shard : (rank() + 1) * shard])

    return run


def _all_to_all(dtype):
    def run():
        tag = str(dtype)
        # Rank r sends (r + 1) * (j + 1) elements to rank j: uneven in both directions.
        sizes = [[(r + 1) * (j + 1) for j in range(world())] for r in range(world())]
        inputs = [values(f"a2a/{tag}", r, sum(sizes[r]), dtype) for r in range(world())]
        send = sizes[rank()]
        receive = [sizes[r][rank()] for r in range(world())]
        out = torch.empty(sum(receive), dtype=dtype, device=device())
        dist.all_to_all_single(out, inputs[rank()].to(device()), receive, send)
        expected = [inputs[r].split(sizes[r])[rank()] for r in range(world())]
        same(out, torch.cat(expected))
        outs = [torch.empty(n, dtype=dtype, device=device()) for n in receive]
        dist.all_to_all(outs, [p.to(device()) for p in inputs[rank()].split(send)])
        for got, want in zip(outs, expected, strict=True):
            same(got, want)

    return run


for _dtype in DTYPES:
    _name = str(_dtype)[6:]
    cases[f"broadcast_gather_scatter-{_name}"] = _broadcast_and_gathers(_dtype)
    if _dtype != torch.bool:
        cases[f"reduce_and_reduce_scatter-{_name}"] = _reductions_to_one_or_shards(_dtype)
    cases[f"all_to_all-{_name}"] = _all_to_all(_dtype)


@case(cases)
def large_all_reduce_and_gather():
    inputs = every("large", LARGE, torch.float32)
    x = inputs[rank()].to(device())
    dist.all_reduce(x)
    same(x, fold(inputs, "sum"))
    out = torch.empty(world() * LARGE, device=device())
    dist.all_gather_into_tensor(out, inputs[rank()].to(device()))
    same(out, torch.cat(inputs))


@case(cases)
def non_contiguous_in_place():
    inputs = [t.reshape(31, 33) for t in every("strided", 31 * 33, torch.float32)]
    base = inputs[rank()].to(device())
    view = base.t()
    dist.all_reduce(view)
    same(base, fold(inputs, "sum"))


@case(cases)
def async_overlaps_compute_on_the_current_stream():
    inputs = every("async", SIZE, torch.float32)
    x = inputs[rank()].to(device())
    a = torch.randn(64, 64)
    work = dist.all_reduce(x, async_op=True)
    product = a.to(device()) @ a.to(device())  # queued while the collective runs
    work.wait()
    y = x * 2
    same(y, fold(inputs, "sum") * 2)
    torch.testing.assert_close(product.cpu(), a @ a)


@case(cases)
def work_completes_only_when_done():
    x = torch.ones(4, device=device())
    if rank() == 1:
        time.sleep(1.0)  # rank 0's call cannot finish before this rank joins
    work = dist.all_reduce(x, async_op=True)
    if rank() == 0:
        assert not work.is_completed()
    if rank() == 0:
        try:
            work.wait(timeout=datetime.timedelta(milliseconds=100))
        except RuntimeError as error:
            assert "timed out" in str(error)
        else:
            raise AssertionError("a wait bounded below the peer's delay did not time out")
    result = work.get_future().wait()
    assert work.is_completed()
    assert work.wait()
    same(result[0], torch.full((4,), float(world())))


@case(cases)
def send_receive_and_any_source():
    data = values("p2p", 0, SIZE, torch.float32)
    if rank() == 0:
        dist.send(data.to(device()), dst=1)
        back = torch.empty(SIZE, device=device())
        dist.recv(back, src=1)
        same(back, data * 3)
        got = torch.empty(3, device=device())
        assert dist.recv(got) == 1  # any source
        same(got, torch.tensor([7.0, 8.0, 9.0]))
    elif rank() == 1:
        got = torch.empty(SIZE, device=device())
        dist.recv(got, src=0)
        dist.send(got * 3, dst=0)
        dist.send(torch.tensor([7.0, 8.0, 9.0], device=device()), dst=0)


@case(cases)
def isend_then_irecv_on_both_ranks():
    # Each rank posts its send before its receive, as NCCL code does.
    peer = (rank() + 1) % world()
    source = (rank() - 1) % world()
    mine = values("ring", rank(), SIZE, torch.float32)
    got = torch.empty(SIZE, device=device())
    sent = dist.isend(mine.to(device()), dst=peer)
    received = dist.irecv(got, src=source)
    received.wait()
    sent.wait()
    same(got, values("ring", source, SIZE, torch.float32))


@case(cases)
def batch_isend_irecv_ring():
    peer = (rank() + 1) % world()
    source = (rank() - 1) % world()
    got = torch.empty(SIZE, dtype=torch.bfloat16, device=device())
    ops = [
        dist.P2POp(dist.isend, values("batch", rank(), SIZE, torch.bfloat16).to(device()), peer),
        dist.P2POp(dist.irecv, got, source),
    ]
    for work in dist.batch_isend_irecv(ops):
        work.wait()
    same(got, values("batch", source, SIZE, torch.bfloat16))


@case(cases)
def coalescing_manager():
    a_in, b_in = every("co-a", SIZE, torch.float32), every("co-b", 5, torch.float64)
    a, b = a_in[rank()].to(device()), b_in[rank()].to(device())
    with dist._coalescing_manager(async_ops=True) as manager:
        dist.all_reduce(a)
        dist.all_reduce(b)
    manager.wait()
    same(a, fold(a_in, "sum"))
    same(b, fold(b_in, "sum"))

    outs = [torch.empty(world() * n, device=device()) for n in (3, 4)]
    ins = [every(f"co-g{n}", n, torch.float32) for n in (3, 4)]
    with dist._coalescing_manager():
        for out, each in zip(outs, ins, strict=True):
            dist.all_gather_into_tensor(out, each[rank()].to(device()))
    for out, each in zip(outs, ins, strict=True):
        same(out, torch.cat(each))

    shards = [every(f"co-s{n}", n * world(), torch.float32) for n in (3, 4)]
    outs = [torch.empty(n, device=device()) for n in (3, 4)]
    with dist._coalescing_manager():
        for out, each in zip(outs, shards, strict=True):
            dist.reduce_scatter_tensor(out, each[rank()].to(device()))
    for out, each, n in zip(outs, shards, (3, 4), strict=True):
        same(out, fold(each, "sum")[rank() * n : (rank() + 1) * n])


@case(cases)
def cpu_tensors_in_the_same_group():
    inputs = every("cpu", SIZE, torch.float32)
    x = inputs[rank()].clone()
    dist.all_reduce(x)
    same(x, fold(inputs, "sum"))
    y = inputs[rank()].clone()
    dist.all_reduce(y, op=dist.ReduceOp.AVG)
    same(y, fold(inputs, "sum") / world())
    objects = [None] * world()
    dist.all_gather_object(objects, {"rank": rank()})
    assert objects == [{"rank": r} for r in range(world())]


@case(cases)
def barrier_and_subgroups():
    dist.barrier()
    group = dist.new_group([0, 1])
    x = torch.full((3,), float(rank() + 1), device=device())
    dist.all_reduce(x, group=group)
    same(x, torch.full((3,), float(sum(range(1, world() + 1)))))
    assert group.name() == "mojo"
    dist.destroy_process_group(group)


@case(cases)
def the_group_runs_through_the_devices_collective_library():
    # NCCL where the device has it (NVIDIA, and the CUDA emulation's), else host staging.
    backend = dist.group.WORLD._get_backend(device())
    has_library = _C.collective_library(device().index)
    assert (type(backend).__name__ == "ProcessGroupMojoNccl") == has_library
    if os.environ.get("TORCH_MOJO_BACKEND_PLATFORM") == "cuda-emulated":
        assert has_library


@case(cases)
def complex_tensors_reduce_and_move():
    inputs = every("complex", SIZE, torch.complex64)
    x = inputs[rank()].to(device())
    dist.all_reduce(x)
    same(x, fold(inputs, "sum"))
    y = inputs[rank()].to(device())
    dist.broadcast(y, src=world() - 1)
    same(y, inputs[-1])
    out = torch.empty(world() * SIZE, dtype=torch.complex64, device=device())
    dist.all_gather_into_tensor(out, inputs[rank()].to(device()))
    same(out, torch.cat(inputs))


@case(cases)
def mixing_devices_in_one_call_raises():
    try:
        dist.all_gather_into_tensor(torch.empty(2 * world()), torch.ones(2, device=device()))
    except ValueError as error:
        assert "one device" in str(error) or "share a device" in str(error)
    else:
        raise AssertionError("no error")


if __name__ == "__main__":
    main(cases)
