"""What a rank sees when the others misbehave (run by tests/test_distributed.py).

Launched without torchrun (whose agent would stop the survivors when a rank dies): the test
starts every rank itself with RANK, WORLD_SIZE and MASTER_ADDR/PORT set. The group timeout is
short, so a call that cannot finish raises instead of hanging.
"""

import datetime
import os
import signal
import time

import torch
import torch.distributed as dist
from harness import TIMEOUT as REJOIN_TIMEOUT
from harness import main

import torch_mojo_backend

TIMEOUT = datetime.timedelta(seconds=10)
cases = {}


def device() -> torch.device:
    return torch.device("mojo", int(os.environ["LOCAL_RANK"]))


def raises_in_time(call, within: float) -> str:
    """Runs `call`, which must raise within `within` seconds; the error's text."""
    start = time.monotonic()
    try:
        call()
    except Exception as error:  # noqa: BLE001
        elapsed = time.monotonic() - start
        assert elapsed < within, f"raised after {elapsed:.1f} s: {error}"
        return str(error)
    raise AssertionError("no error")


def mismatched_sizes():
    n = 1000 if dist.get_rank() == 0 else 1200
    x = torch.ones(n, device=device())
    raises_in_time(lambda: dist.all_reduce(x), 3 * TIMEOUT.total_seconds())


def mismatched_dtypes():
    dtype = torch.float32 if dist.get_rank() == 0 else torch.float64
    x = torch.ones(1000, dtype=dtype, device=device())
    raises_in_time(lambda: dist.all_reduce(x), 3 * TIMEOUT.total_seconds())


def mismatched_point_to_point_sizes():
    """A receive that meets a send of another size or dtype raises on the receiver, in time,
    and takes the data in: the next exchange still matches (Gloo alone would end the process
    on a larger send and fill part of the buffer on a smaller one)."""
    rank = dist.get_rank()
    sent = torch.arange(1000, dtype=torch.float32, device=device())
    for wanted in (torch.zeros(1200, device=device()), torch.zeros(1000, dtype=torch.int32)):
        if rank == 0:
            dist.send(sent, 1)
            continue
        message = raises_in_time(
            lambda wanted=wanted: dist.recv(wanted.to(device()), 0),
            3 * TIMEOUT.total_seconds(),
        )
        assert "met a send of 1000 float32 elements" in message, message
    received = torch.zeros(1000, device=device())
    if rank == 0:
        dist.send(sent, 1)
    else:
        dist.recv(received, 0)
        assert torch.equal(received.cpu(), sent.cpu())


def a_dead_rank_fails_the_survivor():
    if dist.get_rank() == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    x = torch.ones(1000, device=device())
    message = raises_in_time(lambda: dist.all_reduce(x), 3 * TIMEOUT.total_seconds())
    print("survivor saw:", message)


def destroy_releases_the_group():
    x = torch.ones(10, device=device())
    dist.all_reduce(x)
    dist.destroy_process_group()
    assert not dist.is_initialized()
    # A store of its own for the rejoin (on the launcher's second port): on the first port a
    # quick rank could reach the slow rank's old store before it is torn down, and wait there
    # for ever. The harness's long timeout: on a loaded machine one rank may rejoin later.
    dist.init_process_group(
        init_method=f"tcp://127.0.0.1:{os.environ['MOJO_DIST_REJOIN_PORT']}",
        rank=int(os.environ["RANK"]),
        world_size=int(os.environ["WORLD_SIZE"]),
        timeout=REJOIN_TIMEOUT,
    )
    dist.all_reduce(x)
    assert x.cpu().tolist() == [2.0 * dist.get_world_size()] * 10


# Each case runs in a fresh pair of processes (the test picks one with MOJO_DIST_CASE): after a
# mismatch Gloo's connections are gone, and after a death the group is.
for function in (
    destroy_releases_the_group,
    mismatched_sizes,
    mismatched_dtypes,
    mismatched_point_to_point_sizes,
    a_dead_rank_fails_the_survivor,
):
    cases[function.__name__] = function


if __name__ == "__main__":
    torch_mojo_backend.register_mojo_devices()
    torch.accelerator.set_device_index(int(os.environ["LOCAL_RANK"]))
    dist.init_process_group(timeout=TIMEOUT)
    chosen = os.environ["MOJO_DIST_CASE"]
    main({chosen: cases[chosen]}, join=False)
