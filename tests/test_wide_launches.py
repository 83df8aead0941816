"""Large launches on the software device run on its wide twin (a second lavapipe device with a
worker per core, over the same memory, see `runtime/wgpu/wide.rs`), small ones on the device's
queue thread. These tests interleave the two on dependent data, from two threads and across
memory reuse, and compare with the CPU: any lost ordering or stale mirror gives a wrong value."""

import threading

import pytest
import torch

DEVICE = "mojo"
# Past the twin's thresholds: 2**20 elements are 2**18 vector invocations and a 4 MiB block.
BIG = 1 << 20


def test_large_and_small_launches_in_issue_order():
    torch.manual_seed(0)
    x = torch.rand(BIG)
    d = x.to(DEVICE)
    for _ in range(4):
        # Large: add; small: a slice scaled in place; large: a reduction of what both wrote.
        x = x + 1.5
        d = d + 1.5
        x[:7] *= 3
        d[:7] *= 3
        total, d_total = x.sum(), d.sum()
        torch.testing.assert_close(d_total.cpu(), total, rtol=1e-5, atol=0)
        torch.testing.assert_close(d.cpu(), x, rtol=0, atol=0)


def test_large_launches_from_two_threads():
    torch.manual_seed(1)
    inputs = [torch.rand(BIG) for _ in range(2)]
    results = [None, None]
    errors = []

    def work(i):
        try:
            d = inputs[i].to(DEVICE)
            for _ in range(3):
                d = torch.softmax(d.view(1024, -1) * (i + 2), 1).view(-1) + d
            results[i] = d.cpu()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for i in range(2):
        x = inputs[i]
        for _ in range(3):
            x = torch.softmax(x.view(1024, -1) * (i + 2), 1).view(-1) + x
        torch.testing.assert_close(results[i], x)


@pytest.mark.parametrize("size", [BIG, 3 * BIG + 5])
def test_memory_released_and_reused_by_large_launches(size):
    # Each round frees the last round's blocks, which the allocator hands out again (or
    # releases and maps anew): the twin must see the new contents, never an old mapping.
    for seed in range(3):
        torch.manual_seed(seed)
        a, b = torch.randn(size), torch.randn(size)
        got = (a.to(DEVICE) * b.to(DEVICE)).cumsum(0)
        torch.testing.assert_close(
            got.cpu(), (a.double() * b.double()).cumsum(0).float(), rtol=1e-4, atol=1e-2
        )
        torch.accelerator.empty_cache()


def test_large_matrix_product_then_small_ops():
    torch.manual_seed(2)
    a, b = torch.randn(512, 384), torch.randn(384, 640)
    c = a.to(DEVICE) @ b.to(DEVICE)
    c[0, :3] = 7.0
    ref = a @ b
    ref[0, :3] = 7.0
    torch.testing.assert_close(c.cpu(), ref, rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(c.sum(1).cpu(), ref.sum(1), rtol=1e-4, atol=1e-3)
