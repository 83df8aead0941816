"""The SyncBatchNorm building blocks on mojo: two emulated processes (halves of one batch)
run SyncBatchNorm's sequence of ops (statistics per process, gathered with counts,
normalization, the backward's reductions summed over processes and the elementwise step),
which must equal batch normalization of the whole batch on the CPU: output, running
statistics and gradients. Also a process with no elements, and each op's shapes."""

import pytest
import torch
import torch.nn.functional as F

EPS, MOMENTUM = 1e-5, 0.1


def sync_batch_norm(device, parts, weight, bias, running, grads):
    """SyncBatchNorm's forward and backward over `parts` (one per process), the collectives
    done by hand: outputs, input gradients, weight and bias gradients."""
    parts = [p.to(device) for p in parts]
    weight, bias = weight.to(device), bias.to(device)
    running_mean, running_var = (r.to(device) for r in running)
    stats = [torch.batch_norm_stats(p, EPS) for p in parts]
    counts = torch.tensor([p.numel() // p.size(1) for p in parts], dtype=torch.float32)
    mean_all = torch.stack([m for m, _ in stats])
    invstd_all = torch.stack([s for _, s in stats])
    mean, invstd = torch.batch_norm_gather_stats_with_counts(
        parts[0],
        mean_all,
        invstd_all,
        running_mean,
        running_var,
        MOMENTUM,
        EPS,
        counts.to(device),
    )
    outs = [torch.batch_norm_elemt(p, weight, bias, mean, invstd, EPS) for p in parts]
    reduced = [
        torch.batch_norm_backward_reduce(g.to(device), p, mean, invstd, weight, True, True, True)
        for g, p in zip(grads, parts, strict=True)
    ]
    sum_dy = sum(r[0] for r in reduced)
    sum_dy_xmu = sum(r[1] for r in reduced)
    count_tensor = counts.to(torch.int32).to(device)
    grad_inputs = [
        torch.batch_norm_backward_elemt(
            g.to(device), p, mean, invstd, weight, sum_dy, sum_dy_xmu, count_tensor
        )
        for g, p in zip(grads, parts, strict=True)
    ]
    grad_weight = sum(r[2] for r in reduced)
    grad_bias = sum(r[3] for r in reduced)
    return (
        torch.cat([o.cpu() for o in outs]),
        torch.cat([g.cpu() for g in grad_inputs]),
        grad_weight.cpu(),
        grad_bias.cpu(),
        running_mean.cpu(),
        running_var.cpu(),
    )


@pytest.mark.parametrize("sizes", [(3, 5), (4, 0)])
@pytest.mark.parametrize("channels_last", [False, True])
def test_two_processes_equal_batch_norm_of_the_whole_batch(device, sizes, channels_last):
    torch.manual_seed(0)
    x = torch.randn(sum(sizes), 4, 6, 5) * 3 + 1
    if channels_last:
        x = x.to(memory_format=torch.channels_last)
    weight, bias = torch.randn(4), torch.randn(4)
    grad = torch.randn_like(x)
    running = (torch.randn(4), torch.rand(4) + 0.5)
    parts = list(x.split(list(sizes)))
    grads = list(grad.split(list(sizes)))
    parts_nonempty = [p for p in parts]
    out, gx, gw, gb, rm, rv = sync_batch_norm(device, parts_nonempty, weight, bias, running, grads)

    xr = x.detach().clone().requires_grad_()
    wr, br = weight.clone().requires_grad_(), bias.clone().requires_grad_()
    rm_ref, rv_ref = running[0].clone(), running[1].clone()
    expected = F.batch_norm(xr, rm_ref, rv_ref, wr, br, True, MOMENTUM, EPS)
    expected.backward(grad)
    torch.testing.assert_close(out, expected.detach(), atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(gx, xr.grad, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(gw, wr.grad, atol=1e-4, rtol=1e-5)
    torch.testing.assert_close(gb, br.grad, atol=1e-4, rtol=1e-5)
    torch.testing.assert_close(rm, rm_ref)
    torch.testing.assert_close(rv, rv_ref)


def test_reduce_returns_only_what_is_asked(device):
    x = torch.randn(2, 3, 4, device=device)
    mean, invstd = torch.batch_norm_stats(x, EPS)
    sum_dy, sum_dy_xmu, gw, gb = torch.batch_norm_backward_reduce(
        torch.ones_like(x), x, mean, invstd, None, False, False, True
    )
    assert sum_dy is None and sum_dy_xmu is None and gw is None
    torch.testing.assert_close(gb.cpu(), torch.full((3,), 8.0))
