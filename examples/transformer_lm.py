"""A 2-layer transformer language model trained for 20 steps with AdamW on mojo and on the
CPU, printing both loss curves.

Run on a machine without a GPU with TORCH_MOJO_BACKEND_SOFTWARE=1 (the software device). The
model and the data are made on the host with a fixed seed and moved, so both runs start from
the same numbers.
"""

import torch
from torch import nn

import torch_mojo_backend

VOCAB, WIDTH, HEADS, LAYERS, CONTEXT, BATCH, STEPS = 64, 32, 4, 2, 16, 8, 20


class TinyLM(nn.Module):
    """Token and position embeddings, a causal TransformerEncoder and a vocabulary head."""

    def __init__(self):
        super().__init__()
        self.tokens = nn.Embedding(VOCAB, WIDTH)
        self.positions = nn.Embedding(CONTEXT, WIDTH)
        layer = nn.TransformerEncoderLayer(
            WIDTH, HEADS, dim_feedforward=2 * WIDTH, dropout=0.0, batch_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, LAYERS, enable_nested_tensor=False)
        self.head = nn.Linear(WIDTH, VOCAB)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        length = ids.shape[1]
        where = torch.arange(length, device=ids.device)
        hidden = self.tokens(ids) + self.positions(where)
        mask = nn.Transformer.generate_square_subsequent_mask(length, device=ids.device)
        return self.head(self.encoder(hidden, mask=mask, is_causal=True))


def training_step(device: torch.device):
    """One AdamW step of TinyLM on `device` from a fixed seed, as a function returning the
    loss (each call takes the next step)."""
    torch.manual_seed(0)
    model = TinyLM().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    data = torch.randint(0, VOCAB, (BATCH, CONTEXT + 1)).to(device)
    inputs, targets = data[:, :-1], data[:, 1:]

    def step() -> torch.Tensor:
        optimizer.zero_grad()
        logits = model(inputs)
        loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
        loss.backward()
        optimizer.step()
        return loss

    step.model = model
    return step


def train(device: torch.device, steps: int = STEPS) -> list[float]:
    """The per-step losses of training TinyLM on `device` from a fixed seed."""
    step = training_step(device)
    return [step().item() for _ in range(steps)]


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
