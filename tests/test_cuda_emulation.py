"""The CPU emulation of the CUDA driver (TORCH_MOJO_BACKEND_PLATFORM=cuda-emulated): it runs
the CUDA backend's own code, and faults injected below the driver seam surface as they do on a
GPU. Each check runs in a fresh process on the emulated platform, whatever platform runs the
suite; the whole suite also runs on it (README, "The CUDA emulation")."""

from conftest import run_python

EMULATED = {"TORCH_MOJO_BACKEND_PLATFORM": "cuda-emulated", "TORCH_MOJO_BACKEND_TRACE": "0"}

PRELUDE = """
import torch, torch_mojo_backend as m
m.register_mojo_devices()
"""


def run_emulated(code: str, **env) -> str:
    done = run_python(PRELUDE + code, **EMULATED, **env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_cuda_backend_runs_and_computes_as_the_cpu():
    out = run_emulated(
        """
print(m._C.backend_name(), torch.mojo.get_device_name(0))
torch.manual_seed(0)
a, b, bias = torch.randn(70, 50), torch.randn(50, 30), torch.randn(30)
x = a.to("mojo")
checks = {
    "linear": (torch.nn.functional.linear(x, b.t().to("mojo"), bias.to("mojo")),
               torch.nn.functional.linear(a, b.t(), bias)),
    "bmm": (torch.bmm(x.view(7, 10, 50), x.view(7, 10, 50).transpose(1, 2)),
            torch.bmm(a.view(7, 10, 50), a.view(7, 10, 50).transpose(1, 2))),
    "softmax": (x.softmax(1), a.softmax(1)),
    "sum": (x.sum(0), a.sum(0)),
    "flip": (x[1:, ::2].flip(0, 1), a[1:, ::2].flip(0, 1)),
}
for name, (got, want) in checks.items():
    torch.testing.assert_close(got.cpu(), want, rtol=1e-5, atol=1e-5)
print("ok")
"""
    )
    backend, *name = out.split("\n")[0].split()
    assert backend == "cuda" and " ".join(name).startswith("CUDA emulated on the CPU")
    assert out.split()[-1] == "ok"


def test_training_steps_match_the_cpu():
    out = run_emulated(
        """
def train(device):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 4))
    model.to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    g = torch.Generator().manual_seed(1)
    losses = []
    for _ in range(5):
        x, y = torch.randn(64, 16, generator=g), torch.randint(0, 4, (64,), generator=g)
        loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses

mojo, cpu = train("mojo"), train("cpu")
assert all(abs(a - b) <= 1e-4 * abs(b) for a, b in zip(mojo, cpu)), (mojo, cpu)
print("ok")
"""
    )
    assert out.split()[-1] == "ok"


def test_memory_past_the_device_is_an_out_of_memory_error():
    out = run_emulated(
        """
small = torch.ones(1024, device="mojo")
try:
    torch.empty(64 << 20, device="mojo")
except torch.OutOfMemoryError as e:
    print("OutOfMemoryError", "Tried to allocate" in str(e))
print((small * 2).sum().item())
""",
        TORCH_MOJO_BACKEND_EMULATED_MEMORY="128M",
    )
    assert out.split() == ["OutOfMemoryError", "True", "2048.0"]


def test_a_failed_launch_is_a_runtime_error_naming_the_kernel():
    out = run_emulated(
        """
x = torch.arange(4.0).to("mojo")
try:
    (x * 3).cpu()
except RuntimeError as e:
    print(e)
""",
        TORCH_MOJO_BACKEND_EMULATED_FAULT="launch:1",
    )
    assert "CUDA error in cuLaunchKernel of map" in out, out
    assert "too many resources requested for launch" in out, out


def test_fresh_device_memory_is_not_zero():
    """As on a GPU, new memory holds whatever was there: the emulation fills it with 0xff so
    that a kernel reading memory nobody wrote shows it."""
    out = run_emulated(
        """
print(torch.isnan(torch.empty(1000, device="mojo")).all().item())
"""
    )
    assert out.split() == ["True"]
