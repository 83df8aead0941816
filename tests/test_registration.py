"""Registration: the mojo device becomes PyTorch's accelerator, idempotently."""

import torch

import torch_mojo_backend


def test_register_is_idempotent():
    torch_mojo_backend.register_mojo_devices()
    torch_mojo_backend.register_mojo_devices()
    assert torch.accelerator.current_accelerator() == torch.device("mojo")


def test_spec_register_example(device):
    assert str(device) == "mojo"
    assert torch.accelerator.device_count() >= 1
    x = torch.ones(3, device=device)
    assert str(x.device) == "mojo:0"
    assert torch.equal(x.cpu(), torch.ones(3))


def test_check_available_returns_the_device():
    device = torch.accelerator.current_accelerator(check_available=True) or torch.device("cpu")
    assert device.type == "mojo"


def test_device_module_and_generated_methods():
    assert torch.get_device_module("mojo") is torch.mojo
    t = torch.arange(4).mojo()
    assert t.is_mojo and t.device == torch.device("mojo", 0)
    module = torch.nn.Linear(2, 2).mojo()
    assert module.weight.device.type == "mojo"
    storage = torch.arange(4, dtype=torch.int32).untyped_storage().mojo()
    assert storage.device.type == "mojo"
    assert storage.is_mojo
    expected = torch.arange(4, dtype=torch.int32).untyped_storage()
    assert storage.cpu().tolist() == expected.tolist()


def test_privateuse1_name_prints_as_mojo():
    assert str(torch.device("privateuseone", 0)) == "mojo:0"
