"""Memory statistics, the caching allocator, empty_cache and out-of-memory."""

import os

import pytest
import torch

from conftest import software_only


def test_spec_memory_example(device):
    torch.accelerator.reset_peak_memory_stats()
    base = torch.accelerator.memory_allocated()
    x = torch.empty(64, 1024, 1024, device=device)  # 256 MiB of float32
    assert (torch.accelerator.memory_allocated() - base) // 2**20 == 256
    del x
    assert torch.accelerator.memory_allocated() == base
    assert (torch.accelerator.max_memory_allocated() - base) // 2**20 == 256
    free, total = torch.accelerator.get_memory_info()
    assert 0 < free <= total


def test_reset_peak_goes_to_current_usage(device):
    keep = torch.empty(1 << 20, dtype=torch.uint8, device=device)
    big = torch.empty(8 << 20, dtype=torch.uint8, device=device)
    del big
    torch.accelerator.reset_peak_memory_stats()
    assert torch.accelerator.max_memory_allocated() == torch.accelerator.memory_allocated()
    assert torch.accelerator.memory_allocated() >= keep.numel()


def test_reserved_counts_the_cache_and_empty_cache_releases_it(device):
    torch.accelerator.empty_cache()
    x = torch.empty(16 << 20, dtype=torch.uint8, device=device)
    reserved = torch.accelerator.memory_reserved()
    assert reserved >= torch.accelerator.memory_allocated() >= 16 << 20
    del x
    assert torch.accelerator.memory_reserved() == reserved  # kept for reuse
    y = torch.empty(16 << 20, dtype=torch.uint8, device=device)
    assert torch.accelerator.memory_reserved() == reserved  # reused, not allocated again
    del y
    torch.accelerator.empty_cache()
    assert torch.accelerator.memory_reserved() <= reserved - (16 << 20)


def test_memory_stats_use_cuda_key_names(device):
    x = torch.empty(1000, device=device)
    stats = torch.accelerator.memory_stats()
    for key in (
        "allocated_bytes.all.current",
        "allocated_bytes.all.peak",
        "reserved_bytes.all.current",
        "active_bytes.all.current",
        "num_alloc_retries",
        "num_ooms",
    ):
        assert key in stats
    assert stats["allocated_bytes.all.current"] == torch.accelerator.memory_allocated()
    assert stats["allocated_bytes.small_pool.current"] >= 4000
    del x


def test_views_count_once(device):
    before = torch.accelerator.memory_allocated()
    x = torch.empty(1 << 18, device=device)
    views = [x[1:], x.view(512, 512), x[::2]]
    assert torch.accelerator.memory_allocated() - before == 1 << 20
    del x, views


def test_out_of_memory_is_a_torch_error_and_the_process_keeps_working(device):
    keep = torch.tensor(list(range(10)), device=device)
    with pytest.raises(torch.OutOfMemoryError, match="out of memory"):
        torch.empty(1 << 43, dtype=torch.uint8, device=device)
    assert keep.cpu().tolist() == list(range(10))
    assert torch.accelerator.memory_stats()["num_ooms"] >= 1


def test_varying_shapes_keep_reserved_memory_bounded(device):
    torch.accelerator.empty_cache()
    start = torch.accelerator.memory_reserved()
    highest = 0
    for step in range(2000):
        n = 1 + (step * 7919) % 300_000  # up to 1.2 MB, a new size almost every step
        x = torch.ones(n, device=device)
        highest = max(highest, torch.accelerator.memory_reserved() - start)
        del x
    assert torch.accelerator.memory_allocated() <= start
    # Freed blocks are reused across sizes: the cache never holds more than a few blocks.
    assert highest <= 32 << 20, highest
    torch.accelerator.empty_cache()
    assert torch.accelerator.memory_reserved() <= start


def test_tensors_after_a_freed_oversize_tensor_still_run_kernels(device):
    """A tensor over the largest kernel binding (128 MiB on the software device) can be made;
    once freed, its segment is not carved into smaller tensors (whose kernels would then bind
    it in windows)."""
    big = torch.empty(34_000_000, device=device)  # 136 MB
    del big
    x = torch.ones(3_000_000, device=device)  # 12 MB: a segment of its own size
    assert (x * 2).sum().item() == 6_000_000


@software_only
def test_empty_cache_returns_memory_kernels_bound(device):
    """Bind groups are kept across launches; releasing a buffer drops them, so the memory of
    a buffer kernels used goes back to the system (the software device's memory is the
    process's)."""
    page = os.sysconf("SC_PAGE_SIZE")

    def resident() -> int:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * page

    torch.accelerator.empty_cache()
    x = torch.ones(48 << 20, device=device)  # 192 MiB
    assert (x + 1).sum().item() == 2 * (48 << 20)
    torch.accelerator.synchronize()
    before = resident()
    del x
    torch.accelerator.empty_cache()
    torch.accelerator.synchronize()
    assert before - resident() > 150 << 20, (before, resident())


def test_device_module_has_torch_cuda_memory_names(device):
    """`torch.get_device_module("mojo")` answers torch.cuda's memory calls (code that picks
    its device module by type finds them), equal to torch.accelerator's."""
    module = torch.get_device_module(device.type)
    x = torch.empty(256, 1024, device=device)
    module.reset_peak_memory_stats()
    assert module.memory_allocated() == torch.accelerator.memory_allocated() >= x.nbytes
    assert module.max_memory_allocated(0) == torch.accelerator.max_memory_allocated(0)
    assert module.memory_reserved() == torch.accelerator.memory_reserved()
    assert module.max_memory_reserved() >= module.memory_reserved()
    assert module.memory_stats()["allocated_bytes.all.current"] == module.memory_allocated()
    free, total = module.mem_get_info()
    assert 0 < free <= total
    properties = module.get_device_properties(0)
    assert properties.total_memory == total and properties.name == module.get_device_name(0)
    assert module.is_bf16_supported()
    del x
    module.empty_cache()
