"""Indexing on the device: results equal the CPU's, and bad indices are reported like CPU
torch reports them without touching memory they do not own."""

import pytest
import torch


def test_out_of_range_index_is_reported_at_the_next_sync_and_corrupts_nothing(device):
    x = torch.arange(10.0).to(device)
    bystander = torch.full((64,), 7.0).to(device)
    y = x.index_select(0, torch.tensor([1, 12]).to(device))
    with pytest.raises(IndexError, match="index out of range in self"):
        torch.accelerator.synchronize()
    assert torch.equal(bystander.cpu(), torch.full((64,), 7.0))
    # Reported once: the device keeps working afterwards.
    assert x.index_select(0, torch.tensor([3]).to(device)).item() == 3.0
    del y


def test_out_of_range_scatter_raises_runtime_error_like_cpu(device):
    x = torch.zeros(3, 4).to(device)
    index = torch.tensor([[0, 5, 1, 2]]).to(device)
    x.scatter_add_(0, index, torch.ones(1, 4).to(device))
    with pytest.raises(RuntimeError, match="out of bounds"):
        x.cpu()
    assert x.sum().item() == 3.0  # the three valid entries landed; the bad one touched nothing


def test_the_first_faulting_launch_is_reported_whatever_ran_between(device):
    """Index launches pending at a sync that found no bad index do not take the report: the
    first launch that found one does, with its own exception kind and message."""
    x = torch.arange(10.0).to(device)
    fine = x.index_select(0, torch.tensor([1, 2]).to(device))
    bad = torch.zeros(3, 4).to(device)
    bad.scatter_add_(0, torch.tensor([[0, 5, 1, 2]]).to(device), torch.ones(1, 4).to(device))
    also_bad = x.index_select(0, torch.tensor([12]).to(device))
    with pytest.raises(RuntimeError, match="out of bounds") as raised:
        torch.accelerator.synchronize()
    assert raised.type is RuntimeError  # not the IndexError of index_select's launches
    torch.accelerator.synchronize()  # reported once
    del fine, also_bad


def test_negative_indices_wrap_where_cpu_wraps_them(device):
    x = torch.randn(5, 3)
    index = torch.tensor([-1, 0, -5])
    assert torch.equal(x[index], x.to(device)[index.to(device)].cpu())
    assert torch.equal(x.take(index), x.to(device).take(index.to(device)).cpu())


def test_cpu_index_tensors_index_device_tensors(device):
    x = torch.randn(4, 5)
    rows, mask = torch.tensor([3, 0, 3]), x[:, 0] > 0
    assert torch.equal(x[rows], x.to(device)[rows].cpu())
    assert torch.equal(x[mask], x.to(device)[mask].cpu())


def test_accumulating_index_put_adds_duplicates_in_index_order(device):
    torch.manual_seed(0)
    values = torch.randn(1000, 8)
    index = torch.randint(0, 5, (1000,))
    expected = torch.zeros(5, 8).index_put_((index,), values, accumulate=True)
    ours = (
        torch.zeros(5, 8)
        .to(device)
        .index_put_((index.to(device),), values.to(device), accumulate=True)
    )
    torch.testing.assert_close(ours.cpu(), expected, rtol=1e-5, atol=1e-5)


def test_embedding_backward_sums_rows_and_skips_the_padding_row(device):
    torch.manual_seed(0)
    ids = torch.randint(0, 6, (4, 9))
    weight = torch.randn(6, 3)
    grads = []
    for dev in (device, "cpu"):
        w = weight.to(dev).requires_grad_()
        torch.nn.functional.embedding(ids.to(dev), w, padding_idx=2).pow(2).sum().backward()
        grads.append(w.grad.cpu())
    torch.testing.assert_close(grads[0], grads[1])
    assert torch.count_nonzero(grads[0][2]) == 0


def test_sort_is_stable_and_puts_nan_last(device):
    x = torch.tensor([3.0, float("nan"), 1.0, 3.0, -0.5, 1.0])
    values, indices = torch.sort(x.to(device), stable=True)
    expected = torch.sort(x, stable=True)
    assert torch.equal(indices.cpu(), expected.indices)
    assert torch.equal(values.cpu().nan_to_num(), expected.values.nan_to_num())


def test_unique_with_inverse_and_counts(device):
    x = torch.tensor([[4, 1, 4], [0, 1, 9]])
    ours = torch.unique(x.to(device), return_inverse=True, return_counts=True)
    expected = torch.unique(x, return_inverse=True, return_counts=True)
    for mine, reference in zip(ours, expected, strict=True):
        assert torch.equal(mine.cpu(), reference)


ROW_DTYPES = [torch.float32, torch.int32, torch.float16, torch.bfloat16, torch.uint8, torch.bool]


@pytest.mark.parametrize("dtype", ROW_DTYPES, ids=str)
def test_rows_move_whole_and_bit_for_bit(device, dtype):
    # Rows of a multiple of four elements move four at a time (on the software device up to
    # 64 bytes at a time); NaN payloads, rows of other lengths, views that start inside a
    # word and a middle indexed dimension must all match.
    torch.manual_seed(ROW_DTYPES.index(dtype))
    width = {1: torch.uint8, 2: torch.int16, 4: torch.int32}[dtype.itemsize]
    bits = torch.randint(-(2**15), 2**15, (9, 5, 72), dtype=torch.int32).to(width)
    host = bits.view(dtype) if dtype != torch.bool else bits.bool()
    mojo = host.to(device)
    index = torch.tensor([4, 0, -1, 4, 8, 2])
    on = index.to(device)
    for cols in [slice(None), slice(0, 8), slice(1, 9), slice(0, 7), slice(4, 68), slice(0, 64)]:
        for dim in [0, 1]:
            got = mojo[..., cols].index_select(dim, on.remainder(5 if dim else 9))
            want = host[..., cols].index_select(dim, index.remainder(5 if dim else 9))
            assert torch.equal(got.cpu().view(width), want.view(width))
        assert torch.equal(mojo[on, :, cols].cpu().view(width), host[index, :, cols].view(width))
        # Strided copies move the bits too.
        got = mojo[..., cols].transpose(0, 2).contiguous().cpu().view(width)
        assert torch.equal(got, host[..., cols].transpose(0, 2).contiguous().view(width))
    # Stores: distinct targets (a duplicate's winner is unspecified for index_put_).
    rows = host[:3].flip(0)
    target = torch.tensor([7, -9, 3])
    mojo[target.to(device)] = rows.to(device)
    host[target] = rows
    assert torch.equal(mojo.cpu().view(width), host.view(width))
    with pytest.raises(IndexError):
        mojo.index_select(0, torch.tensor([9]).to(device))
        torch.mojo.synchronize()
