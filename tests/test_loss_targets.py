"""Class targets out of range: the losses that index by target report them like the CPU."""

import pytest
import torch
import torch.nn.functional as F


def _losses():
    """(name, call) for every loss that picks an input element by class target."""
    return [
        ("cross_entropy", lambda x, t, **kw: F.cross_entropy(x, t, **kw)),
        ("nll_loss", lambda x, t, **kw: F.nll_loss(x.log_softmax(-1), t, **kw)),
        (
            "nll_loss2d",
            lambda x, t, **kw: F.nll_loss(
                x.reshape(2, 2, 5).permute(0, 2, 1).reshape(2, 5, 1, 2).log_softmax(1),
                t.reshape(2, 1, 2),
                **kw,
            ),
        ),
    ]


LOSSES = _losses()


@pytest.mark.parametrize("name,loss", LOSSES, ids=[n for n, _ in LOSSES])
@pytest.mark.parametrize("bad", [5, 7, -1, -101])
def test_out_of_range_target_raises_index_error_at_the_next_sync(device, name, loss, bad):
    x = torch.randn(4, 5)
    t = torch.tensor([0, bad, 1, 2])
    with pytest.raises(IndexError, match="out of bounds"):
        loss(x, t)
    with pytest.raises(IndexError, match="out of bounds"):
        loss(x.to(device), t.to(device)).item()
    # The report is consumed: the device works on afterwards.
    good = torch.tensor([0, 4, 1, 2])
    torch.testing.assert_close(loss(x.to(device), good.to(device)).cpu(), loss(x, good))


@pytest.mark.parametrize("name,loss", LOSSES, ids=[n for n, _ in LOSSES])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_ignore_index_is_not_out_of_range(device, name, loss, reduction):
    x = torch.randn(4, 5)
    for ignore in (-100, 9, -3):
        t = torch.tensor([0, ignore, 4, ignore])
        expected = loss(x, t, ignore_index=ignore, reduction=reduction)
        actual = loss(x.to(device), t.to(device), ignore_index=ignore, reduction=reduction)
        torch.testing.assert_close(actual.cpu(), expected)


def test_out_of_range_target_in_backward_only_call(device):
    x = torch.randn(3, 5, requires_grad=True)
    t = torch.tensor([1, 8, 0])
    xd = x.detach().to(device).requires_grad_()
    with pytest.raises(IndexError, match="out of bounds"):
        F.cross_entropy(xd, t.to(device)).backward()
        torch.accelerator.synchronize()


def test_many_rows_and_classes_with_one_bad_target(device):
    x = torch.randn(300, 70)
    t = torch.randint(0, 70, (300,))
    torch.testing.assert_close(
        F.cross_entropy(x.to(device), t.to(device)).cpu(), F.cross_entropy(x, t)
    )
    t[257] = 70
    with pytest.raises(IndexError):
        F.cross_entropy(x.to(device), t.to(device)).item()
