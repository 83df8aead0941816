"""Training with PyTorch's distributed libraries on mojo (run by tests/test_distributed.py under
torchrun, two ranks on the software device): DDP, FSDP2, tensor parallelism, SyncBatchNorm,
functional collectives and a distributed checkpoint, each against one process training the
same model on the whole batch.
"""

import copy
import os
import sys
from pathlib import Path

import torch
import torch.distributed as dist
from harness import case, device, main, rank, world
from torch import nn
from torch.distributed._functional_collectives import (
    all_gather_tensor,
    all_reduce,
    all_to_all_single,
    reduce_scatter_tensor,
)
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module
from torch.nn.parallel import DistributedDataParallel

sys.path.insert(0, str(Path(__file__).parents[2] / "examples"))
import transformer_lm as lm  # noqa: E402

STEPS = 20
cases = {}


def batch() -> torch.Tensor:
    """The whole batch, the same on every rank."""
    generator = torch.Generator().manual_seed(1)
    return torch.randint(0, lm.VOCAB, (lm.BATCH, lm.CONTEXT + 1), generator=generator).to(device())


def mine(whole: torch.Tensor) -> torch.Tensor:
    """This rank's half of the batch."""
    return whole.chunk(world())[rank()]


def lm_loss(model, data):
    logits = model(data[:, :-1])
    return nn.functional.cross_entropy(logits.reshape(-1, lm.VOCAB), data[:, 1:].reshape(-1))


def backward_loss(model, data):
    loss = lm_loss(model, data)
    loss.backward()
    return loss


def train(model, data, steps=STEPS, step=backward_loss, combine=None):
    """`steps` AdamW steps of `model` on `data`, `step` computing the gradients; the losses,
    each through `combine` (default: the whole batch's loss from the ranks' halves)."""
    combine = combine or global_loss
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = step(model, data)
        optimizer.step()
        losses.append(combine(loss))
    return losses


def reference_losses(model, steps=STEPS):
    """One process training `model` on the whole batch: the per-step losses."""
    return train(model, batch(), steps, combine=lambda loss: loss.item())


def global_loss(local: torch.Tensor) -> float:
    """The whole batch's loss from the ranks' halves (equal sizes: their mean)."""
    total = local.detach().clone()
    dist.all_reduce(total, op=dist.ReduceOp.AVG)
    return total.item()


def fresh_lm() -> nn.Module:
    torch.manual_seed(0)
    return lm.TinyLM().to(device())


def close(actual, expected, tolerance, what):
    actual, expected = torch.tensor(actual), torch.tensor(expected)
    worst = ((actual - expected).abs() / expected.abs().clamp_min(1e-6)).max().item()
    assert worst <= tolerance, (
        f"{what}: relative difference {worst:.2e} > {tolerance:.0e}\n{actual}\n{expected}"
    )


def compare_with_halves(model, reference, half_gradients, combine, steps=3):
    """SGD steps of the distributed `model` on this rank's half against one process stepping
    `reference` with `combine(each half's half_gradients)`, as the ranks' reduction would."""
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    reference_optimizer = torch.optim.SGD(reference.parameters(), lr=0.1)
    whole = batch()
    for _ in range(steps):
        optimizer.zero_grad()
        lm_loss(model, mine(whole)).backward()
        optimizer.step()
        halves = [half_gradients(half) for half in whole.chunk(world())]
        for p, *each in zip(reference.parameters(), *halves, strict=True):
            p.grad = combine(each)
        reference_optimizer.step()
    assert_same_parameters(model, reference, tolerance=1e-6)


def assert_same_parameters(model, reference, tolerance=1e-5):
    for (name, a), b in zip(model.named_parameters(), reference.parameters(), strict=True):
        a = a.full_tensor() if hasattr(a, "full_tensor") else a
        torch.testing.assert_close(a, b, atol=tolerance, rtol=tolerance, msg=name)


# Losses of 20 AdamW steps agree within this relative difference: float32 sums in another
# order. Measured worst: 1.2e-7 for the CPU's own two-rank Gloo run of this model against its
# one-process run, 9.4e-8 on mojo.
LOSS_TOLERANCE = 1e-6


@case(cases)
def ddp_equals_one_process_on_the_whole_batch():
    model = fresh_lm()
    expected = reference_losses(copy.deepcopy(model))
    losses = train(DistributedDataParallel(model), mine(batch()))
    close(losses, expected, LOSS_TOLERANCE, "losses")


class WithUnused(nn.Module):
    """TinyLM and a layer that takes no part in the loss."""

    def __init__(self):
        super().__init__()
        self.lm = lm.TinyLM()
        self.unused = nn.Linear(4, 4)

    def forward(self, ids):
        return self.lm(ids)


@case(cases)
def ddp_find_unused_parameters():
    torch.manual_seed(0)
    model = WithUnused().to(device())
    reference = copy.deepcopy(model)
    expected = reference_losses(reference, 5)
    ddp = DistributedDataParallel(model, find_unused_parameters=True)
    losses = train(ddp, mine(batch()), 5)
    close(losses, expected, LOSS_TOLERANCE, "losses")
    assert model.unused.weight.grad is None


@case(cases)
def ddp_no_sync_accumulates_locally():
    model = fresh_lm()
    reference = copy.deepcopy(model)
    expected = reference_losses(reference, 5)
    ddp = DistributedDataParallel(model)

    def accumulate(model, data):
        first, second = data.chunk(2)
        with model.no_sync():
            a = lm_loss(model, first) / 2
            a.backward()
        b = lm_loss(model, second) / 2
        b.backward()
        return a + b

    losses = train(ddp, mine(batch()), 5, step=accumulate)
    close(losses, expected, LOSS_TOLERANCE, "losses")


@case(cases)
def ddp_bf16_compression_hook():
    """Gradients travel in bfloat16: equal to one process that rounds each half's gradient
    to bfloat16, halves it and adds the halves in bfloat16, as the hook and the sum do."""
    model = fresh_lm()
    reference = copy.deepcopy(model)
    ddp = DistributedDataParallel(model)
    ddp.register_comm_hook(dist.group.WORLD, default_hooks.bf16_compress_hook)

    def half_gradients(half):
        reference.zero_grad()
        lm_loss(reference, half).backward()
        return [p.grad.clone() for p in reference.parameters()]

    def combine(each):
        total = each[0].to(torch.bfloat16) / world()
        for g in each[1:]:
            total = total + g.to(torch.bfloat16) / world()
        return total.float()

    compare_with_halves(ddp, reference, half_gradients, combine)


@case(cases)
def fsdp2_equals_one_process_on_the_whole_batch():
    mesh = init_device_mesh("mojo", (world(),))
    model = fresh_lm()
    expected = reference_losses(copy.deepcopy(model))
    for layer in model.encoder.layers:
        fully_shard(layer, mesh=mesh)
    fully_shard(model, mesh=mesh)
    losses = train(model, mine(batch()))
    close(losses, expected, LOSS_TOLERANCE, "losses")


@case(cases)
def fsdp2_mixed_precision():
    """bfloat16 parameters in the forward, float32 reduction: equal to one process that runs
    each half in bfloat16 and averages the float32 gradients."""
    mesh = init_device_mesh("mojo", (world(),))
    model = fresh_lm()
    reference = copy.deepcopy(model)
    policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for layer in model.encoder.layers:
        fully_shard(layer, mesh=mesh, mp_policy=policy)
    fully_shard(model, mesh=mesh, mp_policy=policy)

    def half_gradients(half):
        low = copy.deepcopy(reference).to(torch.bfloat16)
        lm_loss(low, half).backward()
        return [p.grad for p in low.parameters()]

    def combine(each):
        total = torch.zeros_like(each[0], dtype=torch.float32)
        for g in each:
            total += g.float() / world()
        return total

    compare_with_halves(model, reference, half_gradients, combine)


@case(cases)
def fsdp2_checkpoint_save():
    """Saves a sharded model with torch.distributed.checkpoint; the test then loads it in one
    process (training_load.py)."""
    import torch.distributed.checkpoint as dcp

    mesh = init_device_mesh("mojo", (world(),))
    model = fresh_lm()
    fully_shard(model, mesh=mesh)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    lm_loss(model, mine(batch())).backward()
    optimizer.step()
    folder = Path(os.environ["MOJO_DIST_RESULTS"])
    dcp.save({"model": model.state_dict()}, checkpoint_id=str(folder / "checkpoint"))
    full = {k: v.full_tensor().cpu() for k, v in model.state_dict().items()}
    if rank() == 0:
        torch.save(full, folder / "expected.pt")


@case(cases)
def tensor_parallel_mlp():
    mesh = init_device_mesh("mojo", (world(),))
    torch.manual_seed(0)
    mlp = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 16)).to(device())
    reference = copy.deepcopy(mlp)
    parallelize_module(mlp, mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
    optimizer = torch.optim.SGD(mlp.parameters(), lr=0.1)
    reference_optimizer = torch.optim.SGD(reference.parameters(), lr=0.1)
    x = torch.randn(8, 16, generator=torch.Generator().manual_seed(2)).to(device())
    for _ in range(3):
        out, expected = mlp(x), reference(x)
        torch.testing.assert_close(out, expected, atol=1e-5, rtol=1e-5)
        out.square().mean().backward()
        expected.square().mean().backward()
        optimizer.step()
        reference_optimizer.step()
        optimizer.zero_grad()
        reference_optimizer.zero_grad()
    assert_same_parameters(mlp, reference)


@case(cases)
def sync_batch_norm_equals_batch_norm_on_the_whole_batch():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU()).to(device())
    reference = copy.deepcopy(net)
    synced = DistributedDataParallel(nn.SyncBatchNorm.convert_sync_batchnorm(net))
    x = torch.randn(8, 3, 10, 10, generator=torch.Generator().manual_seed(3)).to(device())
    out = synced(x.chunk(world())[rank()])
    expected = reference(x)
    torch.testing.assert_close(out, expected.chunk(world())[rank()], atol=1e-5, rtol=1e-5)
    out.sum().backward()
    expected.sum().backward()
    # DDP averages the ranks' gradients; the whole batch's sum is their total.
    for a, b in zip(net.parameters(), reference.parameters(), strict=True):
        torch.testing.assert_close(a.grad * world(), b.grad, atol=1e-4, rtol=1e-5)
    torch.testing.assert_close(net[1].running_mean, reference[1].running_mean)
    torch.testing.assert_close(net[1].running_var, reference[1].running_var)


@case(cases)
def functional_collectives():
    """The ops DTensor and torch.compile use (`_c10d_functional`), called from C++."""
    group = dist.group.WORLD
    x = torch.arange(6.0, device=device()) + 10 * rank()
    every = [torch.arange(6.0) + 10 * r for r in range(world())]
    torch.testing.assert_close(all_reduce(x, "sum", group).cpu(), sum(every), rtol=0, atol=0)
    gathered = all_gather_tensor(x, 0, group)
    torch.testing.assert_close(gathered.cpu(), torch.cat(every), rtol=0, atol=0)
    scattered = reduce_scatter_tensor(x, "sum", 0, group)
    torch.testing.assert_close(scattered.cpu(), sum(every).chunk(world())[rank()], rtol=0, atol=0)
    swapped = all_to_all_single(x, None, None, group)
    expected = torch.cat([t.chunk(world())[rank()] for t in every])
    torch.testing.assert_close(swapped.cpu(), expected, rtol=0, atol=0)


if __name__ == "__main__":
    main(cases)
