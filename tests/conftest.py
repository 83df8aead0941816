"""Tests run on the software device unless a GPU is present; the backend is registered once."""

import os
import subprocess
import sys

os.environ.setdefault("TORCH_MOJO_BACKEND_SOFTWARE", "1")
os.environ.setdefault("TORCH_MOJO_BACKEND_TRACE", "0")
# Every kernel the suite builds is also rendered to CUDA C++ and compiled by NVRTC.
os.environ.setdefault("TORCH_MOJO_BACKEND_SHADOW_NVRTC", "1")

import pytest  # noqa: E402
import torch  # noqa: E402

import torch_mojo_backend  # noqa: E402

torch_mojo_backend.register_mojo_devices()

# Whether the suite runs on the CPU emulation of the CUDA driver (TORCH_MOJO_BACKEND_PLATFORM).
EMULATED_CUDA = os.environ.get("TORCH_MOJO_BACKEND_PLATFORM") == "cuda-emulated"

# Tests about the software device itself (availability without a GPU, several software devices)
# are skipped where a GPU backend runs the suite.
software_only = pytest.mark.skipif(
    torch_mojo_backend._C.init_error() is None and torch_mojo_backend._C.backend_name() != "wgpu",
    reason="about the software device; a GPU backend runs this suite",
)

ALL_DTYPES = [
    torch.bool,
    torch.uint8,
    torch.int8,
    torch.int16,
    torch.int32,
    torch.int64,
    torch.float16,
    torch.bfloat16,
    torch.float32,
    torch.float64,
]


@pytest.fixture
def device():
    return torch.accelerator.current_accelerator()


def bits(t: torch.Tensor) -> torch.Tensor:
    """The raw bits of `t` as an integer tensor, NaN payloads made canonical."""
    t = t.contiguous()
    if t.is_floating_point():
        t = torch.where(torch.isnan(t), torch.full_like(t, float("nan")), t)
    width = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()]
    return t.view(width)


def assert_bitwise_equal(actual: torch.Tensor, expected: torch.Tensor) -> None:
    """Equal dtype, shape and bits (NaN equals NaN whatever its payload)."""
    assert actual.dtype == expected.dtype
    assert actual.shape == expected.shape
    assert torch.equal(bits(actual.cpu()), bits(expected.cpu())), f"{actual.cpu()} != {expected}"


def run_python(code: str, **env) -> subprocess.CompletedProcess:
    """Runs `code` in a fresh interpreter with `env` added (None removes a variable)."""
    full = dict(os.environ)
    for key, value in env.items():
        if value is None:
            full.pop(key, None)
        else:
            full[key] = value
    return subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", code],
        env=full,
        capture_output=True,
        text=True,
        timeout=300,
    )


def pytest_sessionfinish(session, exitstatus):
    """With NVRTC installed, the shadow compile must have run and never failed."""
    compiled, hits, failures, enabled = torch_mojo_backend._C.cuda_compile_stats()
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and EMULATED_CUDA:
        reporter.write_line(
            f"CUDA emulation: {compiled} kernels built by the host compiler, {hits} from the "
            f"disk cache, {failures} failed"
        )
    elif reporter is not None:
        reporter.write_line(
            f"shadow compile: {'on' if enabled else 'off (NVRTC not found)'}, "
            f"{compiled} CUDA kernels compiled by NVRTC, {hits} from the disk cache, "
            f"{failures} failed"
        )
    if failures:
        session.exitstatus = 1


def pytest_runtest_logreport(report):
    """With MOJO_TEST_FAILURES set, each failure's report is appended to that file as it
    happens: a run stopped at a time limit (the GPU check's) still says why tests failed."""
    path = os.environ.get("MOJO_TEST_FAILURES")
    # Under xdist the controller hears each worker's reports again (they carry the node).
    if path and report.failed and getattr(report, "node", None) is None:
        with open(path, "a") as f:
            f.write(f"=== {report.nodeid} ({report.when})\n{report.longreprtext[-4000:]}\n")


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "large: sizes too big for CI on the software device; run with `-m large`"
    )


def pytest_collection_modifyitems(config, items):
    """`large` items are skipped unless the -m expression names them."""
    if "large" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="large: run with `-m large`")
    for item in items:
        if item.get_closest_marker("large") is not None:
            item.add_marker(skip)
