"""The spec's Profiling examples: torch.profiler records ops on mojo tensors, with device rows
for the kernels (the backend's kineto plugin), and exports a chrome trace; the legacy profiler
gives per-op device times."""

import json

import torch
from torch.profiler import ProfilerActivity, profile


def test_the_spec_profiler_example(device, tmp_path):
    a = torch.randn(64, 64, device=device)
    torch.relu(a @ a)  # compile the kernels before profiling
    torch.accelerator.synchronize()

    with profile() as prof:
        for _ in range(5):
            torch.relu(a @ a)
        torch.accelerator.synchronize()

    table = prof.key_averages().table(row_limit=8)
    assert "aten::mm" in table and "aten::relu" in table
    rows = {e.key: e.count for e in prof.key_averages()}
    assert rows["aten::relu"] == 5
    trace = tmp_path / "trace.json"
    prof.export_chrome_trace(str(trace))
    events = json.loads(trace.read_text())["traceEvents"]
    assert any(e.get("name") == "aten::mm" for e in events)


def test_the_spec_legacy_profiler_example_gives_device_times(device):
    a = torch.randn(64, 64, device=device)
    torch.relu(a @ a)  # compile the kernels before profiling
    torch.accelerator.synchronize()

    with torch.autograd.profiler.profile(use_device=device.type) as prof:
        for _ in range(5):
            torch.relu(a @ a)
        torch.accelerator.synchronize()

    table = prof.key_averages().table(sort_by="self_device_time_total", row_limit=5)
    assert "Self MOJO" in table and "aten::mm" in table
    averages = {e.key: e for e in prof.key_averages()}
    assert averages["aten::relu"].count == 5
    assert averages["aten::mm"].self_device_time_total > 0


def test_torch_profiler_has_device_rows_linked_to_their_ops(device, tmp_path):
    a = torch.randn(64, 64, device=device)
    torch.relu(a @ a)
    torch.accelerator.synchronize()

    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.PrivateUse1]) as prof:
        for _ in range(3):
            torch.relu(a @ a)
        torch.accelerator.synchronize()

    # The backend's rows (with a CUDA torch on NVIDIA, CUPTI may add its own for the kernels).
    ours = ("gemm(", "gemm_direct", "map(", "map4(")
    kernels = [
        e
        for e in prof.events()
        if e.device_type == torch.autograd.DeviceType.PrivateUse1 and e.name.startswith(ours)
    ]
    assert len(kernels) == 6, [k.name for k in kernels]  # a product and a relu map per step
    assert all(k.time_range.elapsed_us() > 0 for k in kernels)
    averages = {e.key: e for e in prof.key_averages()}
    assert averages["aten::relu"].self_device_time_total > 0
    assert "Self MOJO" in prof.key_averages().table(row_limit=4)
    trace = tmp_path / "trace.json"
    prof.export_chrome_trace(str(trace))
    events = json.loads(trace.read_text())["traceEvents"]
    ops = {e["args"]["External id"]: e for e in events if e.get("cat") == "cpu_op"}
    rows = [e for e in events if e.get("cat") == "kernel" and e["name"].startswith(ours)]
    assert len(rows) == 6
    for row in rows:
        op = ops[row["args"]["External id"]]
        assert op["name"] in ("aten::mm", "aten::relu")
        # On the host clock: a kernel starts after its op was entered.
        assert row["ts"] >= op["ts"]


def test_profiling_only_the_cpu_records_no_device_rows(device):
    a = torch.randn(16, 16, device=device)
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        torch.relu(a)
        torch.accelerator.synchronize()
    assert not [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.PrivateUse1]
