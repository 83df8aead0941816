"""The connectionist temporal classification loss (`F.ctc_loss`) composed from mojo's kernels
above autograd (AutogradPrivateUse1: autograd differentiates the composition, so no separate
backward kernel exists): `_ctc_loss` and `_ctc_loss.Tensor` return the negative log
likelihood per sequence and the forward variables `log_alpha`, as the CPU's kernel does
(targets padded, or concatenated in one vector).

Its gradient is the CPU's: with respect to logits under a log_softmax, not to `log_probs`
themselves (see below). The forward recursion runs over time, each step over every sequence
and every position of the blank-extended targets at once, with the CPU's formula:
`log(sum exp(a - m)) + m + lp` with `m` the largest predecessor (0 if none is reachable).
Unreachable states stay -inf without NaN gradients: the log of an empty sum is taken of a
clamped value and masked.
"""

import torch


def _check(log_probs, targets, input_lengths, target_lengths):
    batched = log_probs.dim() == 3
    batch = log_probs.size(1) if batched else 1
    if len(input_lengths) != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(target_lengths) != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    time = log_probs.size(0)
    for length in input_lengths:
        if length > time:
            raise RuntimeError(
                f"Expected input_lengths to have value at most {time}, but got value {length} "
                "(while checking arguments for ctc_loss_cpu)"
            )
    padded = targets.dim() == 2
    if padded and max(target_lengths, default=0) > targets.size(1):
        raise RuntimeError(
            f"Expected tensor to have size at least {max(target_lengths)} at dimension 1, but "
            f"got size {targets.size(1)} for argument #2 'targets' (while checking arguments "
            "for ctc_loss_cpu)"
        )
    return batched, padded


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    input_lengths = [int(n) for n in input_lengths]
    target_lengths = [int(n) for n in target_lengths]
    batched, padded = _check(log_probs, targets, input_lengths, target_lengths)
    lp = log_probs if batched else log_probs[:, None]
    time, batch, _ = lp.shape
    device = lp.device
    longest = max(target_lengths, default=0)
    # Targets as a padded (batch, longest) matrix.
    if padded:
        labels = targets[:, :longest].long()
    else:
        flat = targets.reshape(-1).long()
        starts = [sum(target_lengths[:b]) for b in range(batch)]
        index = torch.tensor(
            [min(s + j, max(flat.numel() - 1, 0)) for s in starts for j in range(longest)],
            dtype=torch.long,
        ).reshape(batch, longest)
        labels = flat[index.to(device)] if flat.numel() else index.to(device)
    states = 2 * longest + 1
    extended = torch.full((batch, states), blank, dtype=torch.long, device=device)
    extended[:, 1::2] = labels
    position = torch.arange(states, device=device)
    lengths = torch.tensor(target_lengths, device=device)
    valid = position[None, :] <= 2 * lengths[:, None]
    skip = torch.zeros(batch, states, dtype=torch.bool, device=device)
    skip[:, 2:] = extended[:, 2:] != extended[:, :-2]
    lp_extended = lp.gather(2, extended[None].expand(time, batch, states))
    minus_inf = torch.tensor(float("-inf"), dtype=lp.dtype, device=device)
    alpha = torch.full((batch, states), float("-inf"), dtype=lp.dtype, device=device)
    first = position[None, :] < torch.where(lengths > 0, 2, 1)[:, None]
    alpha = torch.where(first, lp_extended[0], alpha)
    alphas = [alpha]
    running = torch.tensor(input_lengths, device=device)
    for t in range(1, time):
        pad = minus_inf.expand(batch, 1)
        a1 = alpha
        a2 = torch.cat([pad, alpha[:, :-1]], 1)
        a3 = torch.where(skip, torch.cat([pad, pad, alpha[:, :-2]], 1), minus_inf)
        largest = torch.maximum(torch.maximum(a1, a2), a3)
        largest = torch.where(largest == float("-inf"), 0, largest)
        total = (a1 - largest).exp() + (a2 - largest).exp() + (a3 - largest).exp()
        reached = total > 0
        step = total.clamp_min(torch.finfo(lp.dtype).tiny).log() + largest + lp_extended[t]
        step = torch.where(reached & valid & (t < running)[:, None], step, minus_inf)
        alphas.append(step)
        alpha = step
    log_alpha = torch.stack(alphas, 1)
    last = (running - 1).clamp_min(0)
    final = log_alpha[torch.arange(batch, device=device), last]
    l1 = final.gather(1, (2 * lengths)[:, None])[:, 0]
    l2 = torch.where(
        lengths > 0, final.gather(1, (2 * lengths - 1).clamp_min(0)[:, None])[:, 0], minus_inf
    )
    largest = torch.maximum(l1, l2)
    largest = torch.where(largest == float("-inf"), 0, largest)
    total = (l1 - largest).exp() + (l2 - largest).exp()
    likelihood = torch.where(
        total > 0, total.clamp_min(torch.finfo(lp.dtype).tiny).log() + largest, minus_inf
    )
    # The CPU's and CUDA's gradient is taken with respect to the logits under a log_softmax
    # (the posterior less exp(log_probs) at each step a sequence reaches): a term worth zero
    # whose gradient is exp(log_probs) there gives the same. zero_infinity is applied by
    # ctc_loss around this op (and masks the gradient there).
    reached_steps = torch.arange(time, device=device)[:, None] < running[None, :]
    softmax_sum = torch.where(reached_steps[:, :, None], lp.exp(), 0).sum((0, 2))
    nll = -likelihood + (softmax_sum - softmax_sum.detach())
    if not batched:
        return nll[0], log_alpha[0]
    return nll, log_alpha


def ctc_loss_tensor(
    log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False
):
    return ctc_loss(
        log_probs,
        targets,
        input_lengths.tolist(),
        target_lengths.tolist(),
        blank,
        zero_infinity,
    )


KERNELS = {"_ctc_loss": ctc_loss, "_ctc_loss.Tensor": ctc_loss_tensor}
