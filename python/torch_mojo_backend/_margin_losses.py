"""The multi-class margin losses composed from mojo's kernels above autograd
(AutogradPrivateUse1: autograd differentiates the composition), with the CPU's shapes,
checks and messages:

- `multi_margin_loss` (`F.multi_margin_loss`): per sample, the mean over the other classes d
  of `max(0, margin - x[y] + x[d])^p` (p 1 or 2), scaled by `weight[y]`;
- `multilabel_margin_loss_forward` (`F.multilabel_margin_loss`): per sample, the targets are
  the class indices before the first -1; the loss is the sum over listed targets j and
  non-target classes d of `max(0, 1 - x[j] + x[d])`, over the number of classes, returned
  with the 0/1 mask of target classes.

Both take the hinge with `relu` so that, as in the CPU's backward, a term exactly at the
margin passes no gradient. Targets out of range raise RuntimeError, read with one
synchronisation (the CPU checks them as it loops).
"""

import torch

NONE, MEAN, SUM = 0, 1, 2


def _frames(input):
    """(frames, classes) of a vector or matrix input, as the CPU's shape check."""
    ndim = input.dim()
    if not (ndim == 0 or (ndim == 1 and input.size(0) != 0) or (ndim == 2 and input.size(1) != 0)):
        raise RuntimeError(
            "Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
            f"{list(input.shape)}"
        )
    if ndim <= 1:
        return 1, 1 if ndim == 0 else input.size(0)
    return input.size(0), input.size(1)


def _reduce(per_frame, reduction, none_shape):
    if reduction == NONE:
        return per_frame.reshape(none_shape)
    total = per_frame.sum()
    return total / per_frame.numel() if reduction == MEAN else total


def multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction=MEAN):
    frames, classes = _frames(input)
    if target.dim() > 1 or target.numel() != frames:
        raise RuntimeError(
            f"inconsistent target size, expected {frames} but got {list(target.shape)}"
        )
    if p not in (1, 2):
        raise RuntimeError("only p == 1 and p == 2 supported")
    if weight is not None and (weight.dim() > 1 or weight.numel() != classes):
        raise RuntimeError(
            f"inconsistent weight size, expected {classes} but got {list(weight.shape)}"
        )
    y = target.reshape(frames, 1).long()
    if frames and bool(((y < 0) | (y >= classes)).any()):
        raise RuntimeError("target out of range")
    x = input.reshape(frames, classes)
    hinge = (margin - x.gather(1, y) + x).relu()
    if p == 2:
        hinge = hinge * hinge
    if weight is not None:
        hinge = hinge * weight.reshape(-1)[y]
    per_frame = hinge.scatter(1, y, 0).sum(1) / classes
    return _reduce(per_frame, reduction, [frames] if target.dim() > 0 else [])


def multilabel_margin_loss_forward(input, target, reduction):
    frames, classes = _frames(input)
    if (input.dim() <= 1 and target.dim() > 1) or list(target.shape) != (
        [frames, classes] if input.dim() == 2 else list(input.shape)
    ):
        raise RuntimeError(
            f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}"
        )
    t = target.reshape(frames, classes).long()
    listed = (t >= 0).long().cumprod(1).bool()
    if frames and bool((listed & (t >= classes)).any()):
        raise RuntimeError("argument #2 'target' is out of range")
    x = input.reshape(frames, classes)
    index = torch.where(listed, t, 0)
    is_target = torch.zeros_like(x).scatter_add(1, index, listed.to(x.dtype)).clamp(max=1)
    hinge = (1 - x.gather(1, index)[:, :, None] + x[:, None, :]).relu()
    counted = listed[:, :, None] & (is_target == 0)[:, None, :]
    per_frame = torch.where(counted, hinge, 0).sum((1, 2)) / classes
    loss = _reduce(per_frame, reduction, [frames] if input.dim() == 2 else [])
    return loss, is_target.reshape(target.shape)


KERNELS = {
    "multi_margin_loss": multi_margin_loss,
    "multilabel_margin_loss_forward": multilabel_margin_loss_forward,
}
