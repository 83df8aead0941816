"""Copies between host and device, and on the device, for every dtype pair and layout."""

import ctypes
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from conftest import ALL_DTYPES, EMULATED_CUDA, assert_bitwise_equal, software_only
from torch_mojo_backend import _C

VALUES = [
    0,
    1,
    -1,
    2,
    -3,
    7,
    100,
    -100,
    127,
    -128,
    0.5,
    -0.5,
    1.5,
    2.75,
    -7.25,
    65.125,
    3.0e-5,
    1e-8,
    250.0,
    -0.0,
    float("nan"),
    float("inf"),
    -float("inf"),
    1e30,
    70000.0,
]


def source(dtype: torch.dtype, target: torch.dtype) -> torch.Tensor:
    """Values in `dtype`, without those whose conversion to `target` is undefined in C++."""
    values = torch.tensor(VALUES, dtype=torch.float64)
    if dtype.is_floating_point and not target.is_floating_point and target != torch.bool:
        values = values[torch.isfinite(values) & (values.abs() < 127)]
    return values.to(dtype)


@pytest.mark.parametrize("src_dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("dst_dtype", ALL_DTYPES, ids=str)
def test_conversion_matches_cpu_bit_for_bit(device, src_dtype, dst_dtype):
    src = source(src_dtype, dst_dtype)
    expected = src.to(dst_dtype)
    on_device = src.to(device)
    assert_bitwise_equal(on_device.to(dst_dtype), expected)  # device-side conversion
    assert_bitwise_equal(on_device.to("cpu", dst_dtype), expected)  # conversion on download
    staged = torch.empty(src.shape, dtype=dst_dtype, device=device)
    staged.copy_(src)  # conversion on upload
    assert_bitwise_equal(staged, expected)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_round_trip_is_exact(device, dtype):
    host = torch.arange(-50, 50).to(dtype)
    assert_bitwise_equal(host.to(device).cpu(), host)


@pytest.mark.parametrize(
    "dtype",
    [torch.bool, torch.uint8, torch.int16, torch.bfloat16, torch.float32, torch.int64],
    ids=str,
)
def test_strided_and_offset_views(device, dtype):
    host = torch.arange(3 * 5 * 7).reshape(3, 5, 7).to(dtype)
    dev = host.to(device)
    for view in (
        lambda t: t[1:, ::2, 3:],
        lambda t: t.transpose(0, 2),
        lambda t: t[2, 1:4],
        lambda t: t.permute(1, 2, 0)[:, 3],
        lambda t: t.unsqueeze(1).expand(3, 4, 5, 7),
    ):
        assert_bitwise_equal(view(dev).cpu(), view(host))
        assert_bitwise_equal(view(dev).contiguous(), view(host).contiguous())


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int16, torch.float16, torch.float64], ids=str)
def test_writes_into_views_leave_neighbours_intact(device, dtype):
    host = torch.zeros(6, 9, dtype=dtype)
    dev = host.to(device)
    patch = torch.arange(12).reshape(3, 4).to(dtype)
    host[1:4, 3:7] = patch
    dev[1:4, 3:7] = patch.to(device)  # device-to-device into an offset view
    host[5, 1::3] = patch[0, :3]
    dev[5, 1::3] = patch[0, :3]  # host-to-device into a strided view
    assert_bitwise_equal(dev, host)


def test_copy_broadcasts_and_converts(device):
    dst = torch.empty(4, 3, dtype=torch.float16, device=device)
    dst.copy_(torch.tensor([1, 2, 3], dtype=torch.int64, device=device))
    assert_bitwise_equal(dst, torch.tensor([1, 2, 3], dtype=torch.float16).expand(4, 3))


def test_overlapping_copy_within_one_storage(device):
    host = torch.arange(10, dtype=torch.int32)
    dev = host.to(device)
    host[1:].copy_(host[:-1].clone())
    dev[1:].copy_(dev[:-1])
    assert_bitwise_equal(dev, host)


def test_odd_sized_uploads_and_downloads(device):
    for n in (1, 2, 3, 5, 7, 13):
        host = torch.arange(n, dtype=torch.uint8) + 1
        dev = torch.zeros(n + 2, dtype=torch.uint8, device=device)
        dev[1:-1] = host
        assert dev.cpu().tolist() == [0] + host.tolist() + [0]


def test_large_transfers_at_odd_offsets(device):
    # Past the 1 MiB where uploads change path and the 4 MiB of a staging chunk, at a byte
    # offset no word boundary meets.
    for n in (1 << 20, (9 << 20) + 3):
        host = torch.randint(0, 256, (n,), dtype=torch.uint8)
        dev = torch.zeros(n + 8, dtype=torch.uint8, device=device)
        dev[3 : n + 3] = host
        back = dev.cpu()
        assert torch.equal(back[3 : n + 3], host)
        assert back[:3].eq(0).all() and back[n + 3 :].eq(0).all()


def test_uploads_and_downloads_keep_queue_order(device):
    # Kernels queued before a large upload run before it, and a download sees kernels queued
    # before it; no synchronize in between.
    n = 3 << 20
    host = torch.randn(n)
    source = torch.randn(n, device=device)
    target = torch.empty(n, device=device)
    for _ in range(3):
        torch.mul(source, 2, out=target)
        target.copy_(host)
    assert torch.equal(target.cpu(), host)
    torch.mul(target, 2, out=source)
    assert torch.equal(source.cpu(), host * 2)


def test_fill_zero_and_item(device):
    for dtype in [
        torch.bool,
        torch.uint8,
        torch.int8,
        torch.int64,
        torch.float16,
        torch.bfloat16,
        torch.float32,
        torch.float64,
    ]:
        t = torch.full((5,), 3 if dtype != torch.bool else True, dtype=dtype, device=device)
        assert_bitwise_equal(t, torch.full((5,), 3 if dtype != torch.bool else True, dtype=dtype))
        assert (
            t[2].item()
            == torch.full((5,), 3 if dtype != torch.bool else True, dtype=dtype)[2].item()
        )
        t.zero_()
        assert_bitwise_equal(t, torch.zeros(5, dtype=dtype))
    x = torch.full((3,), 0.1, dtype=torch.float16, device=device)
    assert_bitwise_equal(x, torch.full((3,), 0.1, dtype=torch.float16))
    with pytest.raises(RuntimeError, match="overflow"):
        torch.full((2,), 300, dtype=torch.int8, device=device)


def test_resize_and_set(device):
    t = torch.arange(4, dtype=torch.float32).to(device)
    t.resize_(10)
    assert t.shape == (10,)
    assert torch.equal(t[:4].cpu(), torch.arange(4, dtype=torch.float32))
    u = torch.empty(0, device=device)
    u.set_(t.untyped_storage(), 2, (2, 2), (2, 1))
    assert torch.equal(u.cpu(), torch.tensor([[2.0, 3.0], [t[4].item(), t[5].item()]]))
    storage = t.untyped_storage()
    storage.resize_(64)
    assert storage.nbytes() == 64
    assert torch.equal(t[:4].cpu(), torch.arange(4, dtype=torch.float32))


@software_only
@pytest.mark.skipif(
    EMULATED_CUDA or "TORCH_MOJO_BACKEND_STAGED_TRANSFERS" in os.environ,
    reason="runs this file on the software device with staged transfers",
)
def test_copies_through_staging_buffers():
    # The software device addresses its memory directly; GPUs stage host transfers through
    # staging buffers, which this runs on the software device.
    env = dict(os.environ, TORCH_MOJO_BACKEND_STAGED_TRANSFERS="1")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", __file__]
    run = subprocess.run(
        command, env=env, cwd=Path(__file__).parent, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stdout[-4000:]
    passed = int(re.search(r"(\d+) passed", run.stdout).group(1))
    assert passed > 100, run.stdout[-2000:]  # the file ran, not only its skips


@software_only
@pytest.mark.skipif(EMULATED_CUDA, reason="about the software device's memory")
def test_the_software_device_memory_is_host_addressed_unless_staged(device):
    x = torch.arange(4, dtype=torch.int32, device=device)
    address = _C.host_address(x.data_ptr(), 16)
    if os.environ.get("TORCH_MOJO_BACKEND_STAGED_TRANSFERS") == "1":
        assert address is None
        return
    torch.accelerator.synchronize()
    assert list((ctypes.c_int32 * 4).from_address(address)) == [0, 1, 2, 3]
    (ctypes.c_int32 * 4).from_address(address)[2] = 7  # written by the host, read by kernels
    assert (x + 1).tolist() == [1, 2, 8, 4]


def test_large_copies_both_ways_are_exact(device):
    """Host copies of 8 MiB and more are split over the cores: an odd length whose parts end
    off any alignment, both ways, and into pinned memory."""
    x = torch.randint(
        0, 256, (9 * 2**20 + 13,), dtype=torch.uint8, generator=torch.Generator().manual_seed(0)
    )
    on_device = x.to(device)
    assert torch.equal(on_device.cpu(), x)
    pinned = torch.empty_like(x, pin_memory=True)
    pinned.copy_(on_device, non_blocking=True)
    torch.accelerator.synchronize()
    assert torch.equal(pinned, x)
    # A view at an odd offset, both ways.
    tail = x[7:]
    assert torch.equal(tail.to(device).cpu(), tail)
    assert torch.equal(on_device[7:].cpu(), tail)
