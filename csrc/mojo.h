// The C ABI of the Rust core, and helpers shared by the glue files.
#pragma once

#include <ATen/ATen.h>
#include <c10/core/Allocator.h>
#include <torch/version.h>

#include <cstdint>

#if TORCH_VERSION_MINOR != MOJO_TORCH_MINOR
#error "torch/version.h disagrees with the probed torch version"
#endif

extern "C" {

// A tensor view: data address (storage data + offset), sizes and strides in elements.
struct MojoTensor {
  uint64_t data;
  const int64_t* sizes;
  const int64_t* strides;
  int64_t ndim;
  int32_t dtype;
  int32_t device;
};

// What a MojoScalar holds (src/ops/scalar.rs ScalarKind, the same numbers).
enum MojoScalarKind { kScalarBool = 0, kScalarInt = 1, kScalarFloat = 2, kScalarComplex = 3 };

// A scalar: i holds a bool or an integer, d a float; dtype is -1 for a Python number, else the
// c10::ScalarType of the zero-dimensional CPU tensor it came from.
struct MojoScalar {
  int32_t kind;
  int32_t dtype;
  int64_t i;
  double d;
};

struct MojoStat {
  int64_t current, peak, allocated, freed;
};

// Field order mirrors c10::CachingDeviceAllocator::DeviceStats.
struct MojoStats {
  MojoStat allocation[3], segment[3], active[3], inactive_split[3];
  MojoStat allocated_bytes[3], reserved_bytes[3], active_bytes[3], inactive_split_bytes[3];
  MojoStat requested_bytes[3];
  int64_t num_alloc_retries, num_ooms, num_device_alloc, num_device_free;
};

// One op argument as the Rust op table reads it.
enum MojoValueKind {
  kValueNone, kValueTensor, kValueInt, kValueDouble, kValueBool, kValueString, kValueIntList,
  kValueTensorList, kValueOther, kValueDoubleList, kValueComplex  // real in d, imaginary bits in i
};

struct MojoValue {
  int32_t kind;
  int32_t wrapped;             // kValueTensor: a Python number wrapped as a CPU tensor
  MojoTensor tensor;           // kValueTensor
  int64_t i;                   // kValueInt, kValueBool
  double d;                    // kValueDouble
  const char* string;          // kValueString
  const int64_t* ints;         // kValueIntList
  const MojoTensor* tensors;   // kValueTensorList; a None entry has ndim -1
  int64_t len;                 // list length
  const double* doubles;       // kValueDoubleList (float[] and Scalar[] with a float)
};

// Resizes argument `index` (an out= tensor) and describes it anew.
typedef int (*MojoResizeFn)(void* ctx, int64_t index, const int64_t* sizes, int64_t ndim,
                            MojoTensor* out);
// Creates a device tensor, contiguous when `order` is null, else with its `ndim` dimensions laid
// out in memory in that order (outermost first); returns its result number (>= 0) or -1 after
// reporting an error.
typedef int (*MojoCreateFn)(void* ctx, const int64_t* sizes, int64_t ndim, int32_t dtype,
                            int32_t device, const int64_t* order, MojoTensor* out);
// The Philox (seed, offset) of argument `index` (a Generator, or None for the default one of
// `device`), advancing its offset by `increment`; returns 0 or -1 after reporting an error.
typedef int (*MojoPhiloxFn)(void* ctx, int64_t index, int32_t device, uint64_t increment,
                            uint64_t* seed, uint64_t* offset);

// What a Rust call returns: 0, or the Python exception its error becomes, with the message
// in mojo_last_error (src/error.rs ErrorKind, the same numbers; mojo::raise maps them).
enum MojoStatus {
  kStatusOk = 0, kStatusRuntime = 1, kStatusPanic = 2, kStatusOutOfMemory = 3,
  kStatusNotImplemented = 4, kStatusIndex = 5, kStatusValue = 6, kStatusType = 7
};

const char* mojo_last_error(void);
// A glue callback's error (kind kStatusRuntime or kStatusOutOfMemory) for the Rust caller.
void mojo_callback_error(int kind, const char* message);

int mojo_device_count(void);
int mojo_current_device(void);
int mojo_attention_prefers_math(int64_t device, int64_t scores);
int mojo_set_device(int64_t device);
void mojo_set_device_unchecked(int64_t device);
int mojo_allocate(int64_t device, uint64_t bytes, uint64_t* address);
void mojo_free(uint64_t address);
int mojo_memory_stats(int64_t device, MojoStats* out);
// What mojo_reset_memory_stats resets (src/ffi/runtime.rs StatsReset, the same numbers).
enum MojoStatsReset { kResetPeaks = 0, kResetTotals = 1 };
int mojo_reset_memory_stats(int64_t device, int what);
int mojo_empty_cache(void);
int mojo_memory_info(int64_t device, uint64_t* free, uint64_t* total);
int mojo_synchronize(int64_t device);
int mojo_write(uint64_t address, const void* src, uint64_t bytes);
int mojo_read(uint64_t address, void* dst, uint64_t bytes);
// non_blocking copies: asynchronous on the current stream when the host side is pinned.
int mojo_write_async(uint64_t address, const void* src, uint64_t bytes);
int mojo_read_async(uint64_t address, void* dst, uint64_t bytes);
// Events (src/ffi/events.rs): an opaque handle per recorded event.
int mojo_event_record(int64_t device, uint64_t stream, int32_t timing, void** handle);
int mojo_event_block(void* handle, int64_t device, uint64_t stream);
int mojo_event_query(void* handle, int32_t* done);
int mojo_event_synchronize(void* handle);
int mojo_event_elapsed(void* start, void* end, double* ms);
void mojo_event_destroy(void* handle);
// The device-activity trace for torch.profiler (src/ffi/trace.rs).
typedef struct {
  const char* name;
  int64_t device;
  uint64_t stream;
  uint64_t correlation;
  int64_t start_ns;
  int64_t end_ns;
} MojoActivity;
int mojo_trace_start(void);
void mojo_trace_stop(void);
void mojo_trace_push_correlation(uint64_t id);
void mojo_trace_pop_correlation(void);
int mojo_trace_collect(void* context, void (*emit)(void* context, const MojoActivity* activity));
// Streams (src/ffi/streams.rs): ids, 0 being each device's default stream.
int mojo_stream_create(int64_t device, uint64_t* id);
uint64_t mojo_stream_current(int64_t device);
uint64_t mojo_stream_exchange(int64_t device, uint64_t stream);
int mojo_stream_query(int64_t device, uint64_t stream, int32_t* done);
int mojo_stream_synchronize(int64_t device, uint64_t stream);
int mojo_record_stream(uint64_t address, uint64_t stream);
int mojo_host_allocate(uint64_t bytes, void** out);
void mojo_host_free(void* ptr);
int mojo_is_pinned(const void* ptr);

int mojo_copy(const MojoTensor* dst, const MojoTensor* src);
int mojo_fill(const MojoTensor* dst, const MojoScalar* value);
int32_t mojo_op_count(void);
const char* mojo_op_name(int32_t id);
const char* mojo_own_schema(int32_t index);
// Runs op `id`; `results` receives up to kMaxResults returns: an argument index, -1 - a created
// tensor, or kUndefinedResult for an undefined tensor (for an int return: its value).
#define kUndefinedResult INT32_MIN
#define kMaxResults 16
int mojo_run_op(int32_t id, const MojoValue* args, int64_t nargs, void* ctx, MojoResizeFn resize,
                MojoCreateFn create, MojoPhiloxFn philox, int32_t* results, int64_t* count);
}

namespace mojo {

// Raises the Python exception matching a MojoStatus other than kStatusOk.
[[noreturn]] void raise(int code);

inline void check(int code) {
  if (code != kStatusOk) raise(code);
}

// Runs a callback's body for Rust: an exception becomes the call's error and `failure`.
template <typename Body>
int guarded(int failure, Body body) {
  try {
    return body();
  } catch (const c10::OutOfMemoryError& e) {
    mojo_callback_error(kStatusOutOfMemory, e.what());
  } catch (const std::exception& e) {
    mojo_callback_error(kStatusRuntime, e.what());
  }
  return failure;
}

inline MojoTensor describe(const at::Tensor& t) {
  return MojoTensor{reinterpret_cast<uint64_t>(t.data_ptr()), t.sizes().data(), t.strides().data(),
                    t.dim(), static_cast<int32_t>(t.scalar_type()),
                    t.is_cpu() ? -1 : static_cast<int32_t>(t.device().index())};
}

inline MojoScalar describe(const at::Scalar& s) {
  if (s.isBoolean()) return MojoScalar{kScalarBool, -1, s.toBool() ? 1 : 0, 0.0};
  if (s.isIntegral(false)) return MojoScalar{kScalarInt, -1, s.toLong(), 0.0};
  if (!s.isComplex()) return MojoScalar{kScalarFloat, -1, 0, s.toDouble()};
  auto z = s.toComplexDouble();  // the imaginary part's bits in `i`
  return MojoScalar{kScalarComplex, -1, c10::bit_cast<int64_t>(z.imag()), z.real()};
}

c10::Allocator* device_allocator();
c10::Allocator* pinned_allocator();

// Grows or shrinks a storage's device memory, keeping its leading bytes.
void resize_bytes(const c10::Storage& storage, size_t nbytes);

// Random numbers (generator.cpp): each device's default Philox generator, a new generator,
// and the (seed, offset) a launch consumes `increment` offsets from.
const at::Generator& default_generator(c10::DeviceIndex index);
at::Generator new_generator(c10::DeviceIndex index);
std::pair<uint64_t, uint64_t> philox_inputs(const std::optional<at::Generator>& generator,
                                            c10::DeviceIndex device, uint64_t increment);

}  // namespace mojo
