"""The demo: registers the backend, shows the device, a tensor made on it and the memory figures.

Run on a machine without a GPU with TORCH_MOJO_BACKEND_SOFTWARE=1 (the software device).
"""

import torch

import torch_mojo_backend

torch_mojo_backend.register_mojo_devices()

device = torch.accelerator.current_accelerator(check_available=True)
if device is None:
    raise SystemExit("no mojo device: set TORCH_MOJO_BACKEND_SOFTWARE=1 to use the software device")

print(
    f"accelerator: {device} ({torch.accelerator.device_count()} device(s), "
    f"{torch.mojo.get_device_name()})"
)

x = torch.arange(12, dtype=torch.float32).reshape(3, 4).to(device)
print(x)
print("transposed on the device:", x.t().contiguous().tolist())
print("as float16:", x.half())
print("equal to the CPU result:", torch.equal((x * 2).cpu(), torch.arange(12.0).reshape(3, 4) * 2))

torch.accelerator.reset_peak_memory_stats()
big = torch.empty(64, 1024, 1024, device=device)  # 256 MiB of float32
print(
    f"allocated {torch.accelerator.memory_allocated() // 2**20} MiB, "
    f"reserved {torch.accelerator.memory_reserved() // 2**20} MiB"
)
del big
print(
    f"after del: allocated {torch.accelerator.memory_allocated() // 2**20} MiB, "
    f"peak {torch.accelerator.max_memory_allocated() // 2**20} MiB"
)
torch.accelerator.empty_cache()
print(f"after empty_cache: reserved {torch.accelerator.memory_reserved() // 2**20} MiB")
free, total = torch.accelerator.get_memory_info()
print(f"{free / 2**30:.1f} GiB free of {total / 2**30:.1f} GiB")

# A small training loop: Linear/ReLU/Linear, cross-entropy and AdamW, against the CPU.
# (The inputs are drawn on the host: random numbers on the device come with the RNG work.)


def train(dev: torch.device) -> list[float]:
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10)
    ).to(dev)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    inputs = torch.randn(32, 64).to(dev)
    labels = torch.randint(0, 10, (32,)).to(dev)
    losses = []
    for _ in range(5):
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(inputs), labels)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


on_device, on_cpu = train(device), train(torch.device("cpu"))
print("losses on", device, [f"{v:.5f}" for v in on_device])
print("losses on cpu   ", [f"{v:.5f}" for v in on_cpu])
