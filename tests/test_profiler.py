"""The spec's first Profiling example: torch.profiler records ops on mojo tensors and exports a
chrome trace (device rows need a CUDA build of torch, so the rule checked is the CPU timeline)."""

import json

import torch
from torch.profiler import profile


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
