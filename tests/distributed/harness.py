"""Runs a worker script's cases on every rank under torchrun and records each outcome.

A worker script lists its cases with ``@case``; run by torchrun, ``main(cases)`` joins the
group, runs them in order on every rank, and writes ``rank<N>.json`` ({case: "ok" or the
error}) into ``$MOJO_DIST_RESULTS``. tests/test_distributed.py launches the scripts and reports
each case as a test. The group timeout bounds how long a rank stuck in a failed case's
collective waits: long enough for a peer compiling kernels on a cold cache (CI), short enough
not to hold the run for Gloo's default half hour.
"""

import datetime
import json
import os
import traceback
from collections.abc import Callable

import torch
import torch.distributed as dist

import torch_mojo_backend

TIMEOUT = datetime.timedelta(seconds=300)


def case(cases: dict[str, Callable[[], None]], name: str | None = None):
    """Adds the decorated function to `cases` under `name` (default: its own)."""

    def add(function):
        cases[name or function.__name__] = function
        return function

    return add


def rank() -> int:
    return dist.get_rank()


def world() -> int:
    return dist.get_world_size()


def device() -> torch.device:
    """This rank's device: one software device per rank, as one GPU per rank."""
    return torch.device("mojo", int(os.environ["LOCAL_RANK"]))


def setup(backend: str | None = None) -> torch.device:
    """Joins the group (one software device per rank, as one GPU per rank); the rank's device."""
    torch_mojo_backend.register_mojo_devices()
    local = int(os.environ["LOCAL_RANK"])
    torch.accelerator.set_device_index(local)
    dist.init_process_group(backend, timeout=TIMEOUT)
    return torch.device("mojo", local)


def main(cases: dict[str, Callable[[], None]], join: bool = True) -> None:
    if join:
        setup()
    outcomes = {}
    # MOJO_DIST_ONLY (comma-separated parts of names) runs some cases (the GPU check's one rank).
    only = [part for part in os.environ.get("MOJO_DIST_ONLY", "").split(",") if part]
    for name, function in cases.items():
        if only and not any(part in name for part in only):
            continue
        try:
            function()
            outcomes[name] = "ok"
        except Exception:  # noqa: BLE001  (recorded for the test that reports this case)
            outcomes[name] = traceback.format_exc(limit=-4)
    rank = dist.get_rank() if dist.is_initialized() else int(os.environ["RANK"])
    folder = os.environ["MOJO_DIST_RESULTS"]
    with open(os.path.join(folder, f"rank{rank}.json"), "w") as out:
        json.dump(outcomes, out)
    if dist.is_initialized():
        dist.destroy_process_group()
