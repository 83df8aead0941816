"""A small residual CNN (convolution, batch and group normalization, max and average pooling)
trained for 20 SGD steps on mojo and on the CPU, printing both loss curves.

Run on a machine without a GPU with TORCH_MOJO_BACKEND_SOFTWARE=1 (the software device). The
model and the data are made on the host with a fixed seed and moved, so both runs start from
the same numbers.
"""

import torch
from torch import nn

import torch_mojo_backend

CLASSES, BATCH, STEPS = 10, 16, 20


class Block(nn.Module):
    """conv-bn-relu-conv-bn with a residual connection."""

    def __init__(self, width: int):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(width, width, 3, padding=1, bias=False),
            nn.BatchNorm2d(width),
            nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1, bias=False),
            nn.BatchNorm2d(width),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.body(x))


def model() -> nn.Module:
    return nn.Sequential(
        nn.Conv2d(3, 16, 5, stride=2, padding=2),
        nn.GroupNorm(4, 16),
        nn.ReLU(),
        nn.MaxPool2d(3, stride=2, padding=1),
        Block(16),
        nn.Conv2d(16, 32, 3, stride=2, padding=1),
        Block(32),
        nn.AvgPool2d(2),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(32, CLASSES),
    )


def train(device: torch.device, steps: int = STEPS) -> list[float]:
    """The per-step losses of training the CNN on `device` from a fixed seed."""
    torch.manual_seed(0)
    net = model().to(device, memory_format=torch.channels_last)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    images = torch.randn(BATCH, 3, 32, 32).to(device, memory_format=torch.channels_last)
    labels = torch.randint(0, CLASSES, (BATCH,)).to(device)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(net(images), labels)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def main() -> None:
    torch_mojo_backend.register_mojo_devices()
    device = torch.accelerator.current_accelerator(check_available=True)
    if device is None:
        raise SystemExit(
            "no mojo device: set TORCH_MOJO_BACKEND_SOFTWARE=1 for the software device"
        )
    ours, reference = train(device), train(torch.device("cpu"))
    print(f"step  loss on {device.type:<6} loss on cpu  relative difference")
    for step, (a, b) in enumerate(zip(ours, reference, strict=True)):
        print(f"{step:4d}  {a:12.6f}  {b:11.6f}  {abs(a - b) / abs(b):.1e}")


if __name__ == "__main__":
    main()
