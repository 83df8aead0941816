// The PrivateUse1 profiler stubs: torch.autograd.profiler.profile(use_device="mojo") brackets
// each op with a pair of timed events and reports their difference as the op's device time.
#include <c10/util/ApproximateClock.h>
#include <torch/csrc/profiler/stubs/base.h>

#include "mojo.h"

namespace mojo {
namespace {

using torch::profiler::impl::ProfilerVoidEventStub;

struct MojoProfilerStubs final : torch::profiler::impl::ProfilerStubs {
  void record(c10::DeviceIndex* device, ProfilerVoidEventStub* event,
              int64_t* cpu_ns) const override {
    auto index = mojo_current_device();
    if (device != nullptr) *device = static_cast<c10::DeviceIndex>(index);
    if (cpu_ns != nullptr) *cpu_ns = c10::getTime();
    void* handle = nullptr;
    check(mojo_event_record(index, mojo_stream_current(index), 1, &handle));
    *event = std::shared_ptr<void>(handle, [](void* h) { mojo_event_destroy(h); });
  }

  // Microseconds, as the CUDA stubs report.
  float elapsed(const ProfilerVoidEventStub* start,
                const ProfilerVoidEventStub* end) const override {
    double ms = 0;
    check(mojo_event_elapsed(start->get(), end->get(), &ms));
    return static_cast<float>(ms * 1000.0);
  }

  void mark(const char*) const override {}
  void rangePush(const char*) const override {}
  void rangePop() const override {}
  bool enabled() const override { return true; }

  void onEachDevice(std::function<void(int)> op) const override {
    auto previous = mojo_current_device();
    for (int device = 0; device < mojo_device_count(); ++device) {
      check(mojo_set_device(device));
      op(device);
    }
    mojo_set_device_unchecked(previous);
  }

  void synchronize() const override { check(mojo_synchronize(mojo_current_device())); }
};

struct Registration {
  Registration() {
    static MojoProfilerStubs stubs;
    torch::profiler::impl::registerPrivateUse1Methods(&stubs);
  }
};
Registration registration;

}  // namespace
}  // namespace mojo
