"""``mojo_backend``: a dynamo backend that compiles a graph for the mojo device through
Inductor and ``kernel.py``. Registered under the name ``"mojo"`` (the package's
``torch_dynamo_backends`` entry point), so ``torch.compile(model, backend="mojo")`` works too.

Graphs whose tensors are on mojo compile as with the default backend. Graphs on the CPU run
on the mojo device: their inputs are copied to it on each call and their results copied
back (gradients flow through both copies), and the factories inside them create on mojo.
"""

from __future__ import annotations

import torch
from torch.utils import _pytree

# Factories that create on the default device (the CPU) when given none.
_FACTORIES = {
    torch.arange,
    torch.empty,
    torch.eye,
    torch.full,
    torch.linspace,
    torch.logspace,
    torch.ones,
    torch.rand,
    torch.randint,
    torch.randn,
    torch.randperm,
    torch.scalar_tensor,
    torch.tensor,
    torch.zeros,
}


def _on_mojo(gm: torch.fx.GraphModule) -> torch.fx.GraphModule:
    """The graph with every ``device=`` argument naming the CPU, and every factory given no
    device, turned to mojo."""
    mojo = torch.device("mojo")
    for node in gm.graph.nodes:
        if node.op != "call_function":
            continue
        device = node.kwargs.get("device")
        cpu = device is not None and torch.device(device).type == "cpu"
        if cpu or (device is None and node.target in _FACTORIES):
            node.kwargs = {**node.kwargs, "device": mojo}
    gm.recompile()
    return gm


def mojo_backend(gm: torch.fx.GraphModule, example_inputs):
    """Compiles ``gm`` for the mojo device (see the module documentation)."""
    from torch._guards import detect_fake_mode
    from torch._inductor.compile_fx import compile_fx
    from torch._subclasses.fake_tensor import FakeTensor

    devices = {t.device.type for t in example_inputs if isinstance(t, torch.Tensor)}
    if devices <= {"mojo"}:
        return compile_fx(gm, example_inputs)
    if devices != {"cpu"} and devices != {"cpu", "mojo"}:
        raise NotImplementedError(
            f"mojo_backend: inputs on {sorted(devices)}; it compiles graphs on mojo or the CPU"
        )
    fake_mode = detect_fake_mode(example_inputs)

    def to_mojo(t):
        return t.to("mojo") if isinstance(t, torch.Tensor) else t

    def example_on_mojo(t):
        # Dynamo passes fake tensors, and parameters as they are.
        if isinstance(t, FakeTensor):
            with fake_mode:
                return t.to("mojo")
        if isinstance(t, torch.Tensor):
            return t.detach().to("mojo").requires_grad_(t.requires_grad)
        return t

    compiled = compile_fx(_on_mojo(gm), [example_on_mojo(t) for t in example_inputs])

    def run(*args):
        outputs = compiled(*[to_mojo(a) for a in args])
        return _pytree.tree_map(
            lambda t: t.to("cpu") if isinstance(t, torch.Tensor) and t.device.type == "mojo" else t,
            outputs,
        )

    return run
