"""Device selection with several (software) devices, and bad device indices."""

import pytest
import torch

from conftest import run_python, software_only

TWO_DEVICES = """
import torch, torch_mojo_backend
torch_mojo_backend.register_mojo_devices()
device = torch.accelerator.current_accelerator()
print(torch.accelerator.device_count())
for i in range(torch.accelerator.device_count()):
    with torch.accelerator.device_index(i):
        x = torch.ones(2, device=device)
        assert torch.accelerator.current_device_index() == i
    y = torch.ones(2).to(torch.device(device.type, i))
    print(x.device, y.device)
print(torch.accelerator.current_device_index())
torch.accelerator.set_device_index(1)
z = torch.tensor([0, 1, 2], device=device)
print(z.device, torch.accelerator.current_device_index())
a = torch.tensor([0, 1, 2, 3], device="mojo:0")
b = a.to("mojo:1")
print(b.device, b.cpu().tolist())
torch.accelerator.synchronize(1)
print(torch.accelerator.memory_allocated(1) > 0)
try:
    a + b.float()
except RuntimeError as e:
    print("mixed:", "same device" in str(e))
"""


def on_two_devices(code: str) -> list[str]:
    """The lines `code` prints in a process with two software devices."""
    result = run_python(code, TORCH_MOJO_BACKEND_SOFTWARE_DEVICES="2")
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


@software_only
def test_two_software_devices():
    assert on_two_devices(TWO_DEVICES) == [
        "2",
        "mojo:0 mojo:0",
        "mojo:1 mojo:1",
        "0",
        "mojo:1 1",
        "mojo:1 [0, 1, 2, 3]",
        "True",
        "mixed: True",
    ]


def test_invalid_device_index_is_a_runtime_error(device):
    count = torch.accelerator.device_count()
    with pytest.raises(RuntimeError, match="invalid device ordinal"):
        torch.empty(2, device=torch.device("mojo", count))
    with pytest.raises(RuntimeError, match="invalid device ordinal"):
        torch.accelerator.set_device_index(count + 3)
    assert torch.accelerator.current_device_index() == 0


def test_device_without_index_is_the_current_device(device):
    assert torch.ones(1, device="mojo").device == torch.device("mojo", 0)
    torch.accelerator.synchronize()
    torch.accelerator.synchronize(device)


STREAMS_AND_MEMORY_PER_DEVICE = """
import torch, torch_mojo_backend
torch_mojo_backend.register_mojo_devices()
second = torch.device("mojo", 1)
side = torch.Stream(second)
print(side.device, torch.accelerator.current_stream(1).device)
start = torch.Event(second, enable_timing=True)
end = torch.Event(second, enable_timing=True)
before = [torch.accelerator.memory_allocated(d) for d in (0, 1)]
with side:
    print(torch.accelerator.current_device_index(), torch.accelerator.current_stream() == side)
    start.record()
    x = torch.ones(1 << 20, device=second) * 3
    end.record()
print(torch.accelerator.current_device_index(), torch.accelerator.current_stream().stream_id)
end.synchronize()
print(start.elapsed_time(end) >= 0, x.sum().item())
after = [torch.accelerator.memory_allocated(d) for d in (0, 1)]
print(after[0] - before[0], after[1] - before[1] >= 4 << 20)
"""


@software_only
def test_streams_events_and_memory_are_per_device():
    assert on_two_devices(STREAMS_AND_MEMORY_PER_DEVICE) == [
        "mojo:1 mojo:1",
        "1 True",
        "0 0",
        "True 3145728.0",
        "0 True",
    ]
