// Crossing the boundary: Rust error codes become Python exceptions.

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

}  // namespace mojo
