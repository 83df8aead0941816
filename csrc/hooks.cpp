// PrivateUse1 hooks: availability, device count and current device from the Rust runtime.
#include <ATen/detail/PrivateUse1HooksInterface.h>

#include "mojo.h"

namespace mojo {
namespace {

struct MojoHooks final : at::PrivateUse1HooksInterface {
  bool isBuilt() const override { return true; }
  bool isAvailable() const override { return mojo_device_count() > 0; }
  bool hasPrimaryContext(c10::DeviceIndex) const override { return true; }
  c10::DeviceIndex deviceCount() const override {
    return static_cast<c10::DeviceIndex>(mojo_device_count());
  }
  void setCurrentDevice(c10::DeviceIndex device) const override { check(mojo_set_device(device)); }
  c10::DeviceIndex getCurrentDevice() const override {
    return static_cast<c10::DeviceIndex>(mojo_current_device());
  }
  c10::DeviceIndex exchangeDevice(c10::DeviceIndex device) const override {
    auto old = getCurrentDevice();
    if (device >= 0 && device != old) setCurrentDevice(device);
    return old;
  }
  c10::DeviceIndex maybeExchangeDevice(c10::DeviceIndex device) const override {
    return exchangeDevice(device);
  }
  void resizePrivateUse1Bytes(const c10::Storage& storage, size_t nbytes) const override {
    resize_bytes(storage, nbytes);
  }
  const at::Generator& getDefaultGenerator(c10::DeviceIndex device) const override {
    return default_generator(device < 0 ? getCurrentDevice() : device);
  }
  at::Generator getNewGenerator(c10::DeviceIndex device) const override {
    return new_generator(device);
  }
  bool isPinnedPtr(const void* data) const override { return mojo_is_pinned(data) != 0; }
  c10::Allocator* getPinnedMemoryAllocator() const override { return pinned_allocator(); }
  c10::Device getDeviceFromPtr(void* data) const override {
    auto address = reinterpret_cast<uint64_t>(data);
    return c10::Device(c10::DeviceType::PrivateUse1, static_cast<c10::DeviceIndex>((address >> 48) - 1));
  }
};

struct Registration {
  Registration() { at::RegisterPrivateUse1HooksInterface(new MojoHooks()); }
};
Registration registration;

}  // namespace
}  // namespace mojo

// Read by the CUDA backend's cuBLAS calls: whether float32 matmuls may use TF32
// (torch.backends.cuda.matmul.allow_tf32 / torch.set_float32_matmul_precision).
extern "C" bool mojo_matmul_allows_tf32() {
  return at::globalContext().float32MatmulPrecision() != at::Float32MatmulPrecision::HIGHEST;
}
