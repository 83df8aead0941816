"""The ways to name the backend in init_process_group (run by tests/test_distributed.py under
torchrun): each joins, runs a collective on mojo and on CPU tensors, and leaves."""

import os

import torch
import torch.distributed as dist
from harness import TIMEOUT, main

import torch_mojo_backend

cases = {}


def _joins_with(backend):
    def run():
        dist.init_process_group(backend, timeout=TIMEOUT)
        try:
            assert dist.get_world_size() == 2
            assert dist.group.WORLD.name() == "mojo"
            x = torch.full((5,), float(dist.get_rank() + 1), device="mojo")
            dist.all_reduce(x)
            assert x.cpu().tolist() == [3.0] * 5
            y = torch.full((5,), float(dist.get_rank() + 1))
            dist.all_reduce(y)
            assert y.tolist() == [3.0] * 5
        finally:
            dist.destroy_process_group()

    return run


cases["no_backend_picks_mojo"] = _joins_with(None)
cases["backend_mojo"] = _joins_with("mojo")
cases["cpu_gloo_mojo_mojo"] = _joins_with("cpu:gloo,mojo:mojo")


def default_backend_for_the_device():
    assert dist.get_default_backend_for_device("mojo") == "mojo"


cases["default_backend_for_the_device"] = default_backend_for_the_device

if __name__ == "__main__":
    torch_mojo_backend.register_mojo_devices()
    torch.accelerator.set_device_index(int(os.environ["LOCAL_RANK"]))
    main(cases, join=False)
