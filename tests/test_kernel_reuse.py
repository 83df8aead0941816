"""Kernels are specialised on dtypes and expressions, never on sizes: the same ops on other
shapes build nothing new."""

from conftest import run_python

WORKLOAD = """
import sys, torch, torch_mojo_backend
torch_mojo_backend.register_mojo_devices()
F = torch.nn.functional
def ops(n):
    x = torch.randn(n, n + 1).to("mojo")
    y = torch.randn(n + 1, n).to("mojo")
    x + x; x.sum(); x.sum(1); torch.tril(x, 1); torch.triu(x, -1); x @ y
    torch.eye(n, n + 2, device="mojo"); torch.linspace(0, 1, n, device="mojo")
    torch.arange(n, device="mojo"); torch.log_softmax(x, 1); x.var(0); x.cumsum(1)
    torch.nan_to_num(x); x.argmax(1)
    g = x.clone().requires_grad_()
    F.mse_loss(g, x * 2).backward()
    torch.mojo.synchronize()
ops(3)
print("second shape", file=sys.stderr, flush=True)
ops(7)
"""


def test_other_shapes_build_no_kernel():
    out = run_python(WORKLOAD, TORCH_MOJO_BACKEND_TRACE="1")
    assert out.returncode == 0, out.stderr
    first, second = out.stderr.split("second shape")
    assert "built " in first
    assert "built " not in second, second
