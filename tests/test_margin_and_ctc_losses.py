"""The losses composed above autograd (python/torch_mojo_backend/_margin_losses.py and
_ctc_loss.py) against the CPU: values and gradients for every reduction, weights, p, 1-D and
2-D inputs, padded and concatenated CTC targets, unreachable alignments with and without
zero_infinity, and the CPU's errors."""

import pytest
import torch
import torch.nn.functional as F

REDUCTIONS = ["none", "mean", "sum"]


def compare(f, device, *inputs, rtol=1e-5, atol=1e-6):
    """`f` of CPU leaves and of mojo copies: values and the gradient of the first input."""
    cpu = [x.detach().clone().requires_grad_(i == 0) for i, x in enumerate(inputs)]
    mojo = [x.detach().to(device).requires_grad_(i == 0) for i, x in enumerate(inputs)]
    expected, actual = f(*cpu), f(*mojo)
    torch.testing.assert_close(actual.cpu(), expected, rtol=rtol, atol=atol)
    seed = torch.rand(
        expected.shape, generator=torch.Generator().manual_seed(5), dtype=expected.dtype
    )
    expected.backward(seed)
    actual.backward(seed.to(device))
    for c, m in zip(cpu, mojo, strict=True):
        if c.grad is not None:
            torch.testing.assert_close(m.grad.cpu(), c.grad, rtol=rtol, atol=atol)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("p", [1, 2])
def test_multi_margin_loss(device, reduction, p):
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(300, 7, generator=generator)
    y = torch.randint(0, 7, (300,), generator=generator)
    weight = torch.rand(7, generator=generator)
    compare(
        lambda x, y: F.multi_margin_loss(x, y, p=p, margin=0.7, reduction=reduction), device, x, y
    )
    compare(
        lambda x, y, w: F.multi_margin_loss(x, y, p=p, weight=w, reduction=reduction),
        device,
        x,
        y,
        weight,
    )
    compare(lambda x, y: F.multi_margin_loss(x, y, reduction=reduction), device, x[0], y[:1])
    compare(
        lambda x, y: F.multi_margin_loss(x, y, reduction=reduction),
        device,
        x[0, :1].squeeze(),
        y[0] * 0,
    )


def test_multi_margin_loss_errors(device):
    x = torch.randn(4, 5, device=device)
    with pytest.raises(RuntimeError, match="target out of range"):
        F.multi_margin_loss(x, torch.tensor([0, 1, 5, 2], device=device))
    with pytest.raises(RuntimeError, match="inconsistent target size, expected 4"):
        F.multi_margin_loss(x, torch.tensor([0, 1], device=device))
    with pytest.raises(RuntimeError, match="inconsistent weight size, expected 5"):
        F.multi_margin_loss(
            x, torch.tensor([0, 1, 2, 3], device=device), weight=torch.ones(3, device=device)
        )


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_multilabel_margin_loss(device, reduction):
    generator = torch.Generator().manual_seed(1)
    x = torch.randn(200, 6, generator=generator)
    y = torch.randint(-1, 6, (200, 6), generator=generator)
    y[:, 5] = -1
    y[0] = torch.tensor([2, 2, 4, -1, 0, 1])  # a repeated target counts twice; -1 ends the list
    compare(lambda x, y: F.multilabel_margin_loss(x, y, reduction=reduction), device, x, y)
    compare(lambda x, y: F.multilabel_margin_loss(x, y, reduction=reduction), device, x[3], y[3])
    loss, is_target = torch.ops.aten.multilabel_margin_loss_forward(x.to(device), y.to(device), 0)
    assert torch.equal(is_target.cpu(), torch.ops.aten.multilabel_margin_loss_forward(x, y, 0)[1])


def test_multilabel_margin_loss_errors(device):
    x = torch.randn(2, 5, device=device)
    with pytest.raises(RuntimeError, match="'target' is out of range"):
        F.multilabel_margin_loss(
            x, torch.tensor([[7, -1, 0, 0, 0], [0, -1, 0, 0, 0]], device=device)
        )
    with pytest.raises(RuntimeError, match="inconsistent target size"):
        F.multilabel_margin_loss(x, torch.zeros(5, dtype=torch.long, device=device))


def ctc_inputs(generator, time=40, batch=9, classes=12, longest=15):
    log_probs = torch.randn(time, batch, classes, generator=generator).log_softmax(2)
    targets = torch.randint(1, classes, (batch, longest), generator=generator)
    input_lengths = torch.randint(time // 2, time + 1, (batch,), generator=generator)
    target_lengths = torch.randint(0, longest + 1, (batch,), generator=generator)
    targets[0, :4] = 3  # repeated labels need a blank between them
    return log_probs, targets, input_lengths, target_lengths


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_ctc_loss_padded_and_concatenated(device, reduction, dtype):
    generator = torch.Generator().manual_seed(2)
    log_probs, targets, input_lengths, target_lengths = ctc_inputs(generator)
    log_probs = log_probs.to(dtype)
    # The CPU's float32 gradient is itself ~1e-4 off float64's (its alpha-beta recursion).
    rtol = 1e-4 if dtype == torch.float32 else 1e-10

    def padded(lp, tg):
        return F.ctc_loss(lp, tg, input_lengths, target_lengths, reduction=reduction)

    compare(padded, device, log_probs, targets, rtol=rtol, atol=rtol)
    concatenated = torch.cat([targets[b, : target_lengths[b]] for b in range(targets.size(0))])

    def flat(lp, tg):
        return F.ctc_loss(
            lp, tg, input_lengths.tolist(), target_lengths.tolist(), blank=0, reduction=reduction
        )

    compare(flat, device, log_probs, concatenated, rtol=rtol, atol=rtol)


def test_ctc_loss_unreachable_alignments(device):
    """A target longer than its input has no alignment: the loss is inf, or 0 with
    zero_infinity, and no gradient is NaN."""
    generator = torch.Generator().manual_seed(3)
    log_probs, targets, input_lengths, target_lengths = ctc_inputs(generator, time=10, longest=12)
    target_lengths[1] = 12
    input_lengths[1] = 5
    for zero_infinity in (False, True):

        def loss(lp, tg, zero_infinity=zero_infinity):
            return F.ctc_loss(
                lp, tg, input_lengths, target_lengths, reduction="none", zero_infinity=zero_infinity
            )

        if zero_infinity:
            compare(loss, device, log_probs, targets)
        else:
            value = loss(log_probs.to(device), targets.to(device)).cpu()
            assert value[1] == float("inf")
            torch.testing.assert_close(value, loss(log_probs, targets))


def test_ctc_loss_errors(device):
    log_probs = torch.randn(5, 2, 4, device=device).log_softmax(2)
    targets = torch.ones(2, 3, dtype=torch.long, device=device)
    with pytest.raises(RuntimeError, match="input_lengths to have value at most 5"):
        F.ctc_loss(log_probs, targets, [6, 5], [3, 3])
    with pytest.raises(RuntimeError, match="size at least 4 at dimension 1"):
        F.ctc_loss(log_probs, targets, [5, 5], [4, 3])
