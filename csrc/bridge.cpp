// Crossing the boundary: Rust error codes become Python exceptions, and Rust resizes outputs.
#include <ATen/native/Resize.h>

#include "mojo.h"

namespace mojo {

[[noreturn]] void raise(int code) {
  const char* message = mojo_last_error();
  switch (code) {
    case 3:
      TORCH_CHECK_WITH(OutOfMemoryError, false, message);
    case 4:
      TORCH_CHECK_NOT_IMPLEMENTED(false, message);
    case 5:
      TORCH_CHECK_INDEX(false, message);
    case 6:
      TORCH_CHECK_VALUE(false, message);
    case 7:
      TORCH_CHECK_TYPE(false, message);
    default:
      TORCH_CHECK(false, message);
  }
}

int resize_output(void* ctx, const int64_t* sizes, int64_t ndim, MojoTensor* out) {
  try {
    auto& t = *static_cast<at::Tensor*>(ctx);
    at::native::resize_output(t, c10::IntArrayRef(sizes, ndim));
    *out = describe(t);
    return 0;
  } catch (const std::exception& e) {
    mojo_callback_error(1, e.what());
    return 1;
  }
}

}  // namespace mojo
