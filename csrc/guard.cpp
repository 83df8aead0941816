// The device guard: device index get/set/exchange through the Rust runtime's thread-local
// current device; streams and events, also kept by the runtime (src/ffi/streams.rs,
// src/ffi/events.rs). Each thread has a current stream per device, and work goes to it. On
// CUDA each stream is its own CUstream; wgpu runs every stream on its one queue in issue
// order. Events carry device timestamps when timing is enabled.
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
    auto index = normalize(d.index());
    auto id = static_cast<c10::StreamId>(mojo_stream_current(index));
    return c10::Stream(c10::Stream::UNSAFE, c10::Device(kMojo, index), id);
  }

  c10::Stream getDefaultStream(c10::Device d) const override {
    return c10::Stream(c10::Stream::DEFAULT, c10::Device(kMojo, normalize(d.index())));
  }

  c10::Stream getNewStream(c10::Device d, int) const override {
    auto index = normalize(d.index());
    uint64_t id = 0;
    check(mojo_stream_create(index, &id));
    return c10::Stream(c10::Stream::UNSAFE, c10::Device(kMojo, index),
                       static_cast<c10::StreamId>(id));
  }

  c10::Stream getStreamFromGlobalPool(c10::Device d, bool) const override {
    return getNewStream(d, 0);
  }

  c10::Stream exchangeStream(c10::Stream s) const override {
    auto index = normalize(s.device_index());
    auto old = mojo_stream_exchange(index, static_cast<uint64_t>(s.id()));
    return c10::Stream(c10::Stream::UNSAFE, c10::Device(kMojo, index),
                       static_cast<c10::StreamId>(old));
  }

  c10::DeviceIndex deviceCount() const noexcept override {
    return static_cast<c10::DeviceIndex>(mojo_device_count());
  }

  void record(void** event, const c10::Stream& stream, const c10::DeviceIndex,
              const c10::EventFlag flag) const override {
    bool timing = flag == c10::EventFlag::BACKEND_DEFAULT;
    check(mojo_event_record(normalize(stream.device_index()), static_cast<uint64_t>(stream.id()),
                            timing ? 1 : 0, event));
  }

  // An event never recorded is already complete: nothing to wait for.
  void block(void* event, const c10::Stream& stream) const override {
    if (event == nullptr) return;
    check(mojo_event_block(event, normalize(stream.device_index()),
                           static_cast<uint64_t>(stream.id())));
  }

  bool queryEvent(void* event) const override {
    if (event == nullptr) return true;
    int32_t done = 0;
    check(mojo_event_query(event, &done));
    return done != 0;
  }

  void synchronizeEvent(void* event) const override {
    if (event != nullptr) check(mojo_event_synchronize(event));
  }

  double elapsedTime(void* start, void* end, const c10::DeviceIndex) const override {
    TORCH_CHECK(start != nullptr && end != nullptr,
                "Both events must be recorded before calculating elapsed time.");
    double ms = 0;
    check(mojo_event_elapsed(start, end, &ms));
    return ms;
  }

  void destroyEvent(void* event, const c10::DeviceIndex) const noexcept override {
    mojo_event_destroy(event);
  }

  bool queryStream(const c10::Stream& stream) const override {
    int32_t done = 0;
    check(mojo_stream_query(normalize(stream.device_index()), static_cast<uint64_t>(stream.id()),
                            &done));
    return done != 0;
  }

  void synchronizeStream(const c10::Stream& stream) const override {
    check(mojo_stream_synchronize(normalize(stream.device_index()),
                                  static_cast<uint64_t>(stream.id())));
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
