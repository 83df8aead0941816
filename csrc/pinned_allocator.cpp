// The pinned host allocator PyTorch asks the hooks for (pin_memory(), pinned outputs of
// non-blocking downloads). Blocks come from the Rust pinned pool (src/runtime/pinned.rs).
#include "mojo.h"

namespace mojo {
namespace {

void free_pinned(void* ptr) { mojo_host_free(ptr); }

struct PinnedAllocator final : c10::Allocator {
  c10::DataPtr allocate(size_t nbytes) override {
    c10::Device cpu(c10::DeviceType::CPU);
    if (nbytes == 0) return c10::DataPtr(nullptr, cpu);
    void* ptr = nullptr;
    check(mojo_host_allocate(nbytes, &ptr));
    return c10::DataPtr(ptr, ptr, &free_pinned, cpu);
  }

  c10::DeleterFnPtr raw_deleter() const override { return &free_pinned; }

  void copy_data(void* dest, const void* src, std::size_t count) const override {
    std::memcpy(dest, src, count);
  }
};

}  // namespace

c10::Allocator* pinned_allocator() {
  static PinnedAllocator allocator;
  return &allocator;
}

}  // namespace mojo
