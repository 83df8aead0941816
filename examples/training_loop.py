"""The spec's device-agnostic training loop, bfloat16 autocast included: the same code runs on
stock PyTorch when the two registration lines are removed. It is the spec's text verbatim, so
its import layout and loop variable stay as written there.
"""
# ruff: noqa: I001, B007

import torch
import torch_mojo_backend  # remove these two lines to run on stock PyTorch

torch_mojo_backend.register_mojo_devices()

device = torch.accelerator.current_accelerator()
print(
    f"{device.type}: {torch.accelerator.device_count()} device(s), "
    f"current index {torch.accelerator.current_device_index()}"
)

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10)).to(
    device
)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
x = torch.randn(32, 64, device=device)
y = torch.randint(0, 10, (32,), device=device)

for step in range(3):
    optimizer.zero_grad()
    with torch.autocast(device.type, dtype=torch.bfloat16):
        loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()

torch.accelerator.synchronize()
print(f"loss {loss.item():.4f}")
