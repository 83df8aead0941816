"""Pinned host memory and non-blocking copies: the spec's Moving data example, pin_memory()
from the backend's own pinned allocator, and DataLoader(pin_memory=True, num_workers=2)."""

import torch
from torch.utils.data import DataLoader, TensorDataset


def test_the_spec_moving_data_example(device):
    host = torch.randn(1 << 20).pin_memory()  # page-locked host memory
    dev = host.to(device, non_blocking=True)  # asynchronous upload
    out = (dev * 2).to("cpu", non_blocking=True)  # asynchronous download

    torch.accelerator.synchronize()  # wait before reading `out`
    assert out.is_pinned() and torch.equal(out, host * 2)  # True True


def test_pinned_memory_is_recognised_inside_its_block(device):
    plain = torch.arange(10.0)
    assert not plain.is_pinned()
    pinned = plain.pin_memory()
    assert pinned.is_pinned() and torch.equal(pinned, plain)
    assert pinned[3:].is_pinned() and pinned.view(2, 5).is_pinned()
    assert torch.empty(100, pin_memory=True).is_pinned()
    assert pinned.pin_memory().data_ptr() == pinned.data_ptr()  # already pinned: itself


def test_freed_pinned_blocks_are_reused_and_released(device):
    first = torch.empty(3000, dtype=torch.uint8).pin_memory()
    address = first.data_ptr()
    del first
    again = torch.empty(4000, dtype=torch.uint8).pin_memory()
    assert again.data_ptr() == address  # one 4 KiB block serves both
    del again
    torch.accelerator.empty_cache()  # releases the cached pinned blocks, safe at any time
    assert torch.empty(10).pin_memory().is_pinned()


def test_non_blocking_copies_in_both_directions_keep_values(device):
    for dtype in (torch.float32, torch.float16, torch.int64, torch.bool):
        host = (torch.randn(1237) * 100).to(dtype).pin_memory()
        dev = torch.empty(1237, dtype=dtype, device=device)
        dev.copy_(host, non_blocking=True)
        back = torch.empty(1237, dtype=dtype).pin_memory()
        back.copy_(dev, non_blocking=True)
        torch.accelerator.synchronize()
        assert torch.equal(back, host)


def test_dataloader_with_pinned_batches_and_workers(device):
    data = TensorDataset(torch.arange(64.0).view(32, 2), torch.arange(32))
    loader = DataLoader(data, batch_size=8, num_workers=2, pin_memory=True)
    seen = []
    for x, y in loader:
        assert x.is_pinned() and y.is_pinned()
        seen.append((x.to(device, non_blocking=True) * 2).sum().item())
    assert seen == [(torch.arange(64.0).view(4, 16)[i] * 2).sum().item() for i in range(4)]
