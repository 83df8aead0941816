"""torch.distributed on mojo: the ``mojo`` c10d backend (see ``process_group``)."""

import torch.distributed as dist

from .process_group import ProcessGroupMojo, create_process_group

__all__ = ["ProcessGroupMojo", "register"]


def register() -> None:
    """Registers the ``mojo`` backend for the mojo device, so ``init_process_group()`` with no
    backend, ``backend="mojo"`` and ``"cpu:gloo,mojo:mojo"`` all reach it."""
    if not dist.is_available() or "mojo" in dist.Backend.backend_list:
        return
    dist.Backend.register_backend("mojo", create_process_group, devices=["mojo"])
