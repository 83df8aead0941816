"""Availability: no GPU and no software opt-in means no device, reported cleanly."""

from conftest import run_python, software_only

pytestmark = software_only

NO_DEVICE = """
import torch, torch_mojo_backend
torch_mojo_backend.register_mojo_devices()
print(torch.accelerator.is_available())
print(torch.accelerator.current_accelerator(check_available=True))
print(torch.accelerator.current_accelerator())
print(torch.accelerator.device_count())
try:
    torch.ones(2, device="mojo")
except RuntimeError as e:
    print("RuntimeError", "no device" in str(e) or "invalid device" in str(e))
"""


def test_without_software_opt_in_nothing_is_available():
    result = run_python(NO_DEVICE, TORCH_MOJO_BACKEND_SOFTWARE=None)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:5] == ["False", "None", "mojo", "0", "RuntimeError True"]


def test_software_device_is_device_zero():
    code = (
        "import torch, torch_mojo_backend\ntorch_mojo_backend.register_mojo_devices()\n"
        "print(torch.accelerator.is_available(), torch.mojo.get_device_name(0))"
    )
    result = run_python(code, TORCH_MOJO_BACKEND_SOFTWARE="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("True llvmpipe")


def test_missing_vulkan_driver_is_a_clean_error():
    code = NO_DEVICE
    result = run_python(
        code,
        TORCH_MOJO_BACKEND_SOFTWARE="1",
        VK_ICD_FILENAMES="/nonexistent.json",
        VK_DRIVER_FILES="/nonexistent.json",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[0] == "False"
