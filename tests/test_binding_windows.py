"""Tensors larger than a kernel binding, against stock PyTorch on the CPU.

A wgpu device binds at most `max_storage_buffer_binding_size` bytes of a buffer per binding
(128 MiB on the software device); a bigger tensor is bound as consecutive windows and every
kernel pattern addresses it through them. One test crosses the device's real limit; the other
lowers the limit (`TORCH_MOJO_BACKEND_MAX_BINDING`) in a child process so that every pattern
runs windowed on small tensors, with elements on both sides of window edges.
"""

import os
import subprocess
import sys
import textwrap

import pytest
import torch

OVER_LIMIT = 40 * 1024 * 1024 + 5  # float32 elements: 160 MiB, past lavapipe's 128 MiB


def test_a_tensor_over_the_binding_limit(device):
    x = torch.rand(OVER_LIMIT, generator=torch.Generator().manual_seed(0))
    ours = x.to(device)
    assert torch.equal(ours.cpu(), x)
    # Elementwise (vector and strided), a half conversion (sub-word stores), a copy.
    assert torch.equal((ours * 2 + 1).cpu(), x * 2 + 1)
    assert torch.equal(ours[1::3].neg().cpu(), x[1::3].neg())
    assert torch.equal(ours.half().cpu(), x.half())
    assert torch.equal(ours.clone()[-9:].cpu(), x[-9:])
    # Reductions: whole, along rows, along columns (values near the end count).
    spiked = x.clone()
    spiked[-1] = 1e6
    ours_spiked = spiked.to(device)
    torch.testing.assert_close(
        ours_spiked.sum().cpu().double(), spiked.double().sum(), rtol=1e-5, atol=0
    )
    assert ours_spiked.argmax().item() == OVER_LIMIT - 1
    rows = spiked[: OVER_LIMIT - 5].view(-1, 1024)
    torch.testing.assert_close(rows.to(device).amax(1).cpu(), rows.amax(1), rtol=0, atol=0)
    torch.testing.assert_close(rows.to(device).sum(0).cpu(), rows.sum(0), rtol=1e-5, atol=1e-3)
    # Rows scaled by a per-row operand and shifted by a per-column one (four elements per item).
    scale, shift = rows[:, :1].clone(), rows[0].clone()
    ours_rows = rows.to(device) * scale.to(device) + shift.to(device)
    assert torch.equal(ours_rows.cpu(), rows * scale + shift)
    # A scan, a matrix product and indexing reaching the last window.
    torch.testing.assert_close(
        ours[-4096:].cumsum(0).cpu(), x[-4096:].cumsum(0), rtol=1e-5, atol=1e-4
    )
    weights = torch.randn(1024, 3, generator=torch.Generator().manual_seed(1))
    torch.testing.assert_close(
        (rows.to(device) @ weights.to(device)).cpu(), rows @ weights, rtol=1e-4, atol=1e-3
    )
    picks = torch.tensor([0, OVER_LIMIT // 2, OVER_LIMIT - 1, 33_554_431, 33_554_432])
    assert torch.equal(ours[picks.to(device)].cpu(), x[picks])
    ours[picks.to(device)] = -1.0
    expected = x.clone()
    expected[picks] = -1.0
    assert torch.equal(ours[-3:].cpu(), expected[-3:])
    assert torch.equal(ours[picks.to(device)].cpu(), expected[picks])


# Binding windows exist on wgpu devices only.
wgpu_only = pytest.mark.skipif(
    os.environ.get("TORCH_MOJO_BACKEND_PLATFORM", "").startswith("cuda"),
    reason="CUDA has no binding limit",
)

CHILD = """
import torch, torch_mojo_backend
torch_mojo_backend.register_mojo_devices()
dev = torch.device("mojo")
g = torch.Generator().manual_seed(0)

def same(ours, expected, tol=0.0):
    ours = ours.cpu()
    if tol:
        torch.testing.assert_close(ours, expected, rtol=tol, atol=tol)
    else:
        assert torch.equal(ours, expected), (ours, expected)

n = 70_007  # 280 KB of float32: three 128 KiB windows, elements on every window edge
x = torch.rand(n, generator=g)
i = torch.randint(-1000, 1000, (n,), generator=g)
m = x.to(dev)
same(m + m, x + x)
same(i.to(dev) * 3 - 7, i * 3 - 7)
same(m.double() * 3, x.double() * 3)
same(m.half(), x.half())
same(i.to(dev).to(torch.int8), i.to(torch.int8))
same(m[::7] * 2, x[::7] * 2)
rows = x[:70_000].view(-1, 100)
same(m[:70_000].view(-1, 100) - rows[:, :1].to(dev) * 2, rows - rows[:, :1] * 2)
same(m.sum(), x.sum(), 1e-4)
same(m.view(-1, 7).sum(0), x.view(-1, 7).sum(0), 1e-4)
same(m.view(7, -1).amax(1), x.view(7, -1).amax(1))
same(m.argmax(), x.argmax())
same(m.var(), x.var(), 1e-4)
same(m.cumsum(0), x.cumsum(0), 1e-3)
same(i.to(dev).cumsum(0), i.cumsum(0))
same(m.sort().values, x.sort().values)
same(m.sort(stable=True).indices, x.sort(stable=True).indices)
same(m.topk(9).values, x.topk(9).values)
same(torch.softmax(m[:70_000].view(70, -1), 1), torch.softmax(x[:70_000].view(70, -1), 1), 1e-6)
a = torch.randn(300, 200, generator=g)
b = torch.randn(200, 100, generator=g)
same(a.to(dev) @ b.to(dev), a @ b, 1e-4)
index = torch.randint(0, 1000, (n,), generator=g)
same(torch.zeros(1000, device=dev).index_add_(0, index.to(dev), m),
     torch.zeros(1000).index_add_(0, index, x), 1e-4)
same(m.gather(0, index.to(dev)), x.gather(0, index))
# Rows of four combined four elements per run walk, the values across window edges.
rows, targets = x[:70_004].view(-1, 4), index[:17_501] % 100
same(torch.zeros(100, 4, device=dev).index_add_(0, targets.to(dev), rows.to(dev)),
     torch.zeros(100, 4).index_add_(0, targets, rows), 1e-4)
# Few values into few targets scan the keys instead of sorting them: rows of 40,000 (four
# elements a work item) and of 40,001 (one), across window edges, in index order as the CPU.
from torch_mojo_backend import _C
# (integers for index_put_, whose CPU order is not always the index order)
wide = torch.randint(-3, 4, (6, 40_000), generator=g).float()
few = torch.tensor([1, 0, -1, 1, 0, 1])
odd, one = torch.rand(1, 40_001, generator=g), torch.tensor([1])
before = dict(_C.launch_counts())
same(torch.zeros(2, 40_000, device=dev).index_put_((few.to(dev),), wide.to(dev), accumulate=True),
     torch.zeros(2, 40_000).index_put_((few,), wide, accumulate=True))
same(torch.ones(2, 40_001, device=dev).index_add_(0, one.to(dev), odd.to(dev)),
     torch.ones(2, 40_001).index_add_(0, one, odd))
after = _C.launch_counts()
assert after.get("radix_count", 0) == before.get("radix_count", 0), "sorted, not scanned"
same(m[m > 0.5], x[x > 0.5])
# Elements under four bytes four a work item, reductions of half precision, rows of four
# gathered: all across window edges.
u = (x * 255).to(torch.uint8)
same(u.to(dev) + u.to(dev).flip(0), u + u.flip(0))
same(m > 0.5, x > 0.5)
h = x.half()
same(h.to(dev)[1:].view(-1, 2).t().contiguous(), h[1:].view(-1, 2).t().contiguous())
same(h.to(dev)[:70_000].view(7, -1).sum(1), h[:70_000].view(7, -1).sum(1), 1e-2)
four = x[:70_004].view(-1, 4)
same(four.to(dev).index_select(0, (index % 17_501).to(dev)), four.index_select(0, index % 17_501))
ours, expected = m.clone(), x.clone()
ours[index.to(dev)] = 2.0
expected[index] = 2.0
same(ours, expected)
# Many tensors of shared buffers in one launch, most across a window edge: each with its own
# binding they need more than the device has, so the launch binds each buffer once.
ps = [torch.rand(30_000, generator=g) for _ in range(24)]
qs = [torch.rand(30_000, generator=g) for _ in range(24)]
sums = torch._foreach_add([p.to(dev) for p in ps], [q.to(dev) for q in qs])
for ours, p, q in zip(sums, ps, qs):
    same(ours, p + q)
# Complex arithmetic and a reduction over windows.
z = torch.randn(n, dtype=torch.complex64, generator=g)
zm = z.to(dev)
same(zm * zm.conj() / (zm + 1), z * z.conj() / (z + 1), 1e-5)
same(zm.sum(), z.sum(), 1e-3)
print("ok")
"""


@wgpu_only
def test_every_pattern_through_windows():
    run_child(CHILD, 128 * 1024)


def run_child(code, max_binding):
    """Runs `code` in a child process whose wgpu device binds at most `max_binding` bytes;
    it must print only "ok"."""
    env = dict(os.environ, TORCH_MOJO_BACKEND_MAX_BINDING=str(max_binding))
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-4000:]


# torch.compile's kernels through windows, in their forms four elements at a time: a
# pointwise kernel storing float32 and bfloat16 (whole words), a broadcast add, rows of 1,000
# walked by fours (softmax, a loop that stores; rows across window edges) and one row of
# 8,000 elements reduced alone.
COMPILED = """
import torch, torch_mojo_backend
torch_mojo_backend.register_mojo_devices()
dev = torch.device("mojo")
g = torch.Generator().manual_seed(0)
x = torch.randn(70_000, generator=g)
b = torch.randn(1000, generator=g)
m, mb = x.to(dev), b.to(dev)

def pointwise(x, b):
    y = x.view(-1, 1000) * 2 + b
    return y, y.bfloat16()

def rows(x):
    return torch.softmax(x.view(-1, 1000), 1), x[:64_000].view(-1, 8000).sum(1)

with torch.profiler.profile() as prof:
    got = torch.compile(pointwise)(m, mb) + torch.compile(rows)(m)
    torch.mojo.synchronize()
forms = {e.name.split("(")[0] for e in prof.events() if e.name.startswith("fused_")}
assert {"fused_pointwise_fours", "fused_reduction_each_fours"} <= forms, forms
expected = pointwise(x, b) + rows(x)
for ours, want in zip(got, expected):
    torch.testing.assert_close(ours.cpu(), want, rtol=1e-5, atol=1e-5)
print("ok")
"""


@wgpu_only
def test_compiled_kernels_through_windows():
    run_child(COMPILED, 128 * 1024)


# A batch's launch words are bound as one range of the arguments buffer: a batch whose words
# outgrow the binding limit is submitted in parts (300 strided maps of 8 dimensions, ~40 words
# each, are 48 KiB of words against a 4 KiB limit).
MANY_LAUNCHES = """
import torch, torch_mojo_backend
torch_mojo_backend.register_mojo_devices()
dev = torch.accelerator.current_accelerator()
x = torch.arange(256, dtype=torch.float32).reshape((2,) * 8)
ours = x.to(dev).transpose(0, 7)
results = [ours + float(k) for k in range(300)]
for k, r in enumerate(results):
    assert torch.equal(r.cpu(), x.transpose(0, 7) + float(k)), k
print("ok")
"""


@wgpu_only
def test_launch_words_past_the_binding_limit():
    run_child(MANY_LAUNCHES, 4096)
