// The device allocator: every allocation comes from the Rust caching allocator; the DataPtr's
// context is the address itself, so the deleter needs no lookup table.
#include <c10/core/CachingDeviceAllocator.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

#include "mojo.h"

namespace mojo {
namespace {

using c10::CachingDeviceAllocator::DeviceStats;
using c10::CachingDeviceAllocator::Stat;
using c10::CachingDeviceAllocator::StatArray;

void free_address(void* ctx) { mojo_free(reinterpret_cast<uint64_t>(ctx)); }

void copy_stats(StatArray& to, const MojoStat from[3]) {
  for (size_t i = 0; i < 3; ++i) {
    to[i].current = from[i].current;
    to[i].peak = from[i].peak;
    to[i].allocated = from[i].allocated;
    to[i].freed = from[i].freed;
  }
}

struct MojoAllocator final : c10::DeviceAllocator {
  c10::DataPtr allocate(size_t nbytes) override {
    auto device = static_cast<c10::DeviceIndex>(mojo_current_device());
    c10::Device where(c10::DeviceType::PrivateUse1, device);
    if (nbytes == 0) return c10::DataPtr(nullptr, where);
    uint64_t address = 0;
    check(mojo_allocate(device, nbytes, &address));
    void* ptr = reinterpret_cast<void*>(address);
    return c10::DataPtr(ptr, ptr, &free_address, where);
  }

  c10::DeleterFnPtr raw_deleter() const override { return &free_address; }

  void copy_data(void* dest, const void* src, std::size_t count) const override {
    TORCH_CHECK(false, "mojo: raw device-to-device copy_data is not supported; use Tensor.copy_");
  }

  bool initialized() override { return true; }

  void emptyCache(c10::MempoolId_t) override { check(mojo_empty_cache()); }

  // Every stream's work runs in issue order on its device, so a freed block is reused only by
  // work issued after everything that used it: nothing to track.
  void recordStream(const c10::DataPtr& ptr, c10::Stream stream) override {
    check(mojo_record_stream(reinterpret_cast<uint64_t>(ptr.get()), static_cast<uint64_t>(stream.id())));
  }

  DeviceStats getDeviceStats(c10::DeviceIndex device) override {
    MojoStats s{};
    check(mojo_memory_stats(device, &s));
    DeviceStats out;
    copy_stats(out.allocation, s.allocation);
    copy_stats(out.segment, s.segment);
    copy_stats(out.active, s.active);
    copy_stats(out.inactive_split, s.inactive_split);
    copy_stats(out.allocated_bytes, s.allocated_bytes);
    copy_stats(out.reserved_bytes, s.reserved_bytes);
    copy_stats(out.active_bytes, s.active_bytes);
    copy_stats(out.inactive_split_bytes, s.inactive_split_bytes);
    copy_stats(out.requested_bytes, s.requested_bytes);
    out.num_alloc_retries = s.num_alloc_retries;
    out.num_ooms = s.num_ooms;
    out.num_device_alloc = s.num_device_alloc;
    out.num_device_free = s.num_device_free;
    return out;
  }

  void resetAccumulatedStats(c10::DeviceIndex device) override {
    check(mojo_reset_memory_stats(device, kResetTotals));
  }

  void resetPeakStats(c10::DeviceIndex device) override { check(mojo_reset_memory_stats(device, kResetPeaks)); }

  std::pair<size_t, size_t> getMemoryInfo(c10::DeviceIndex device) override {
    uint64_t free = 0, total = 0;
    check(mojo_memory_info(device, &free, &total));
    return {free, total};
  }
};

MojoAllocator allocator;
REGISTER_ALLOCATOR(c10::DeviceType::PrivateUse1, &allocator);

}  // namespace

c10::Allocator* device_allocator() { return &allocator; }

}  // namespace mojo
