"""Processes and fork (spec): a child forked after the device started cannot use it and gets a
RuntimeError naming the 'spawn' start method; CPU-only DataLoader workers run normally."""

import os

import torch


def test_a_forked_child_gets_a_clear_error(device):
    x = torch.ones(3, device=device)  # the device is initialised
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child reports what touching the device raised, then leaves
        try:
            torch.ones(3, device=device)
            message = "no error"
        except RuntimeError as error:
            message = f"RuntimeError: {error}"
        os.write(write, message.encode())
        os._exit(0)
    os.close(write)
    _, status = os.waitpid(pid, 0)
    message = os.read(read, 4096).decode()
    os.close(read)
    assert status == 0
    assert message.startswith("RuntimeError") and "'spawn' start method" in message
    assert (x + 1).sum().item() == 6.0  # the parent keeps working


class Squares(torch.utils.data.Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        return torch.tensor([float(i) ** 2])


def test_cpu_only_dataloader_workers_run_after_the_device_started(device):
    torch.ones(1, device=device)
    loader = torch.utils.data.DataLoader(Squares(), batch_size=4, num_workers=2)
    total = sum(batch.to(device).sum() for batch in loader)
    assert total.item() == sum(float(i) ** 2 for i in range(16))
