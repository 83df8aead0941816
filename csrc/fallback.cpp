// The strict fallback: an op without a mojo kernel raises NotImplementedError naming it; it
// never runs on the CPU.
#include <torch/library.h>

#include "mojo.h"

namespace mojo {
namespace {

void not_implemented(const c10::OperatorHandle& op, torch::jit::Stack*) {
  TORCH_CHECK_NOT_IMPLEMENTED(false, "The operator '", c10::toString(op.schema().operator_name()),
                              "' is not implemented for the mojo device.");
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&not_implemented>());
}

}  // namespace
}  // namespace mojo
