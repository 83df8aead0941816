// Crossing the boundary: Rust error codes become Python exceptions.

#include "mojo.h"

namespace mojo {

[[noreturn]] void raise(int code) {
  const char* message = mojo_last_error();
  switch (code) {
    case kStatusOutOfMemory: TORCH_CHECK_WITH(OutOfMemoryError, false, message);
    case kStatusNotImplemented: TORCH_CHECK_NOT_IMPLEMENTED(false, message);
    case kStatusIndex: TORCH_CHECK_INDEX(false, message);
    case kStatusValue: TORCH_CHECK_VALUE(false, message);
    case kStatusType: TORCH_CHECK_TYPE(false, message);
    default: TORCH_CHECK(false, message);
  }
}

}  // namespace mojo
