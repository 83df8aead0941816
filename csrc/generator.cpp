// The Philox generator of each mojo device, with CUDA's state: a 64-bit seed and a 64-bit
// offset (a multiple of 4) that every random op advances by the Philox blocks it consumes.
#include <ATen/core/Generator.h>
#include <ATen/core/GeneratorForPrivateuseone.h>
#include <c10/core/GeneratorImpl.h>
#include <c10/core/TensorImpl.h>
#include <ATen/Functions.h>

#include <cstring>
#include <deque>
#include <mutex>

#include "mojo.h"

namespace mojo {

namespace {
constexpr uint64_t kDefaultSeed = 67280421310721ULL;  // c10's default_rng_seed_val
}

class PhiloxGenerator final : public c10::GeneratorImpl {
 public:
  PhiloxGenerator(c10::DeviceIndex index, uint64_t seed)
      : c10::GeneratorImpl(c10::Device(c10::DeviceType::PrivateUse1, index),
                           c10::DispatchKeySet(c10::DispatchKey::PrivateUse1)),
        seed_(seed) {}

  static c10::DeviceType device_type() { return c10::DeviceType::PrivateUse1; }

  void set_current_seed(uint64_t seed) override {
    seed_ = seed;
    offset_ = 0;
  }
  void set_offset(uint64_t offset) override {
    TORCH_CHECK(offset % 4 == 0, "offset must be a multiple of 4");
    offset_ = offset;
  }
  uint64_t get_offset() const override { return offset_; }
  uint64_t current_seed() const override { return seed_; }
  uint64_t seed() override {
    auto random = c10::detail::getNonDeterministicRandom(true);
    set_current_seed(random);
    return random;
  }
  // 16 bytes: the seed then the offset, little-endian (CUDA's layout).
  c10::intrusive_ptr<c10::TensorImpl> get_state() const override {
    auto state = at::empty({16}, at::TensorOptions().dtype(at::kByte));
    auto* bytes = state.data_ptr<uint8_t>();
    std::memcpy(bytes, &seed_, 8);
    int64_t offset = static_cast<int64_t>(offset_);
    std::memcpy(bytes + 8, &offset, 8);
    return state.getIntrusivePtr();
  }
  // 16 bytes (seed and offset) or 8 (the seed, offset 0).
  void set_state(const c10::TensorImpl& new_state) override {
    at::detail::check_rng_state(new_state);
    auto size = new_state.numel();
    TORCH_CHECK(size == 16 || size == 8, "RNG state is wrong size");
    const auto* bytes = static_cast<const uint8_t*>(new_state.data());
    uint64_t seed = 0;
    std::memcpy(&seed, bytes, 8);
    int64_t offset = 0;
    if (size == 16) std::memcpy(&offset, bytes + 8, 8);
    TORCH_CHECK(offset % 4 == 0, "offset must be a multiple of 4");
    seed_ = seed;
    offset_ = static_cast<uint64_t>(offset);
  }
  // The (seed, offset) for a launch that uses `increment` offsets, advancing the offset by it
  // rounded up to a multiple of 4.
  std::pair<uint64_t, uint64_t> philox_inputs(uint64_t increment) {
    auto inputs = std::make_pair(seed_, offset_);
    offset_ += (increment + 3) / 4 * 4;
    return inputs;
  }

 private:
  PhiloxGenerator* clone_impl() const override {
    auto* copy = new PhiloxGenerator(device().index(), seed_);
    copy->offset_ = offset_;
    return copy;
  }
  uint64_t seed_;
  uint64_t offset_ = 0;
};

// One default generator per device, created on first use and seeded non-deterministically.
const at::Generator& default_generator(c10::DeviceIndex index) {
  static std::mutex mutex;
  static std::deque<at::Generator> generators;
  std::lock_guard<std::mutex> lock(mutex);
  int count = mojo_device_count();
  TORCH_CHECK(index >= 0 && index < count, "mojo: invalid device index ", index);
  while (static_cast<int>(generators.size()) < count) {
    auto g = at::make_generator<PhiloxGenerator>(static_cast<c10::DeviceIndex>(generators.size()),
                                                 kDefaultSeed);
    g.set_current_seed(c10::detail::getNonDeterministicRandom(true));
    generators.push_back(std::move(g));
  }
  return generators[static_cast<size_t>(index)];
}

at::Generator new_generator(c10::DeviceIndex index) {
  if (index < 0) index = static_cast<c10::DeviceIndex>(mojo_current_device());
  return at::make_generator<PhiloxGenerator>(index, kDefaultSeed);
}

std::pair<uint64_t, uint64_t> philox_inputs(const std::optional<at::Generator>& generator,
                                            c10::DeviceIndex device, uint64_t increment) {
  auto* gen = at::get_generator_or_default<PhiloxGenerator>(generator, default_generator(device));
  std::lock_guard<std::mutex> lock(gen->mutex_);
  return gen->philox_inputs(increment);
}

}  // namespace mojo

// The default generator's seed and offset, for the Python device module.
extern "C" int mojo_rng_get(int64_t device, uint64_t* seed, uint64_t* offset) {
  return mojo::guarded(-1, [&] {
    auto g = mojo::default_generator(static_cast<c10::DeviceIndex>(device));
    std::lock_guard<std::mutex> lock(g.mutex());
    *seed = g.current_seed();
    *offset = g.get_offset();
    return 0;
  });
}

extern "C" int mojo_rng_set(int64_t device, uint64_t seed, uint64_t offset) {
  return mojo::guarded(-1, [&] {
    auto g = mojo::default_generator(static_cast<c10::DeviceIndex>(device));
    std::lock_guard<std::mutex> lock(g.mutex());
    g.set_current_seed(seed);
    g.set_offset(offset);
    return 0;
  });
}
