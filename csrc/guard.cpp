// The device guard: device index get/set/exchange through the Rust runtime's thread-local
// current device. Streams are the default stream (id 0) until streams land; events are not
// recorded yet and say so.
#include <c10/core/impl/DeviceGuardImplInterface.h>

#include "mojo.h"

namespace mojo {
namespace {

constexpr auto kMojo = c10::DeviceType::PrivateUse1;

c10::DeviceIndex normalize(c10::DeviceIndex index) {
  return index < 0 ? static_cast<c10::DeviceIndex>(mojo_current_device()) : index;
}

struct MojoGuard final : c10::impl::DeviceGuardImplInterface {
  c10::DeviceType type() const override { return kMojo; }

  c10::Device exchangeDevice(c10::Device d) const override {
    auto old = getDevice();
    if (normalize(d.index()) != old.index()) setDevice(d);
    return old;
  }

  c10::Device getDevice() const override {
    return c10::Device(kMojo, static_cast<c10::DeviceIndex>(mojo_current_device()));
  }

  void setDevice(c10::Device d) const override {
    TORCH_CHECK(d.type() == kMojo, "mojo guard got a ", d.type(), " device");
    check(mojo_set_device(normalize(d.index())));
  }

  void uncheckedSetDevice(c10::Device d) const noexcept override {
    mojo_set_device_unchecked(normalize(d.index()));
  }

  c10::Stream getStream(c10::Device d) const override {
    return c10::Stream(c10::Stream::DEFAULT, c10::Device(kMojo, normalize(d.index())));
  }

  c10::Stream getDefaultStream(c10::Device d) const override { return getStream(d); }

  c10::Stream getNewStream(c10::Device d, int) const override { return getStream(d); }

  c10::Stream getStreamFromGlobalPool(c10::Device d, bool) const override { return getStream(d); }

  c10::Stream exchangeStream(c10::Stream s) const override { return getStream(s.device()); }

  c10::DeviceIndex deviceCount() const noexcept override {
    return static_cast<c10::DeviceIndex>(mojo_device_count());
  }

  void record(void** event, const c10::Stream& stream, const c10::DeviceIndex,
              const c10::EventFlag) const override {
    TORCH_CHECK_NOT_IMPLEMENTED(false, "mojo: events are not implemented yet");
  }

  void block(void*, const c10::Stream&) const override {
    TORCH_CHECK_NOT_IMPLEMENTED(false, "mojo: events are not implemented yet");
  }

  bool queryEvent(void* event) const override { return event == nullptr; }

  void destroyEvent(void*, const c10::DeviceIndex) const noexcept override {}

  bool queryStream(const c10::Stream& stream) const override {
    synchronizeStream(stream);
    return true;
  }

  void synchronizeStream(const c10::Stream& stream) const override {
    check(mojo_synchronize(normalize(stream.device_index())));
  }

  void synchronizeDevice(const c10::DeviceIndex index) const override {
    check(mojo_synchronize(normalize(index)));
  }

#if TORCH_VERSION_MINOR >= 12
  bool isStreamCapturing(const c10::Stream&) const override { return false; }
#endif
};

C10_REGISTER_GUARD_IMPL(PrivateUse1, MojoGuard);

}  // namespace
}  // namespace mojo
