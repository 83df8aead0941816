"""Bad input raises what stock PyTorch raises; unimplemented ops never run on the CPU."""

import pytest
import torch


def test_unimplemented_op_names_itself(device):
    x = torch.ones(3, 3, device=device)
    with pytest.raises(
        NotImplementedError,
        match=r"aten::to_mkldnn' is not implemented for the mojo device",
    ):
        x.to_mkldnn()  # a CPU-only op: CUDA has none either


def test_copy_from_another_device_type_is_not_implemented(device):
    meta = torch.empty(3, device="meta")
    dev = torch.empty(3, device=device)
    with pytest.raises(NotImplementedError, match="meta"):
        dev.copy_(meta)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs PyTorch's own CUDA device")
def test_cuda_and_mojo_do_not_mix(device):
    cuda = torch.ones(3, device="cuda")
    dev = torch.ones(3, device=device)
    with pytest.raises(RuntimeError):
        cuda * dev
    with pytest.raises(NotImplementedError):
        dev.copy_(cuda)


def test_shape_mismatch_is_pytorchs_error(device):
    a = torch.ones(3, device=device)
    b = torch.ones(4, device=device)
    with pytest.raises(RuntimeError, match="must match the size of tensor b"):
        a * b


def test_out_dtype_that_cannot_hold_the_result(device):
    a = torch.ones(3, device=device)
    out = torch.empty(3, dtype=torch.int64, device=device)
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        torch.mul(a, a, out=out)


def test_item_of_empty_tensor(device):
    with pytest.raises(RuntimeError):
        torch.empty(0, device=device).item()
