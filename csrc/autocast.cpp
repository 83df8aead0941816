// Autocast for the mojo device with CUDA's per-op policy, taken from PyTorch's own op lists so
// that it follows the installed torch: lower-precision ops (matmuls, linear, convolutions,
// attention), float32 ops (softmax, norms, losses, reductions), float32 with an optional dtype,
// promote ops, and binary_cross_entropy banned as on CUDA. Every other op passes through.
#include <ATen/autocast_mode.h>
#include <torch/library.h>

namespace mojo {
namespace {

using at::DimnameList;
using at::IntArrayRef;
using at::Scalar;
using at::ScalarType;
using at::Tensor;
using at::autocast::CastPolicy;

Tensor binary_cross_entropy_banned(const Tensor&, const Tensor&, const std::optional<Tensor>&,
                                   int64_t) {
  TORCH_CHECK(false,
              "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast "
              "(a sigmoid before them loses precision in float16). Use "
              "torch.nn.functional.binary_cross_entropy_with_logits or torch.nn.BCEWithLogitsLoss, "
              "which are safe to autocast, or leave the loss outside the autocast region.");
}

#define MOJO_LOWER_PRECISION(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, lower_precision_fp)
#define MOJO_FP32(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, fp32)
#define MOJO_FP32_SET_OPT_DTYPE(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, fp32_set_opt_dtype)
#define MOJO_PROMOTE(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, promote)

TORCH_LIBRARY_IMPL(_, AutocastPrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFallthrough());
}

TORCH_LIBRARY_IMPL(aten, AutocastPrivateUse1, m) {
  AT_FORALL_LOWER_PRECISION_FP(MOJO_LOWER_PRECISION)
  AT_FORALL_FP32(MOJO_FP32)
  AT_FORALL_FP32_SET_OPT_DTYPE(MOJO_FP32_SET_OPT_DTYPE)
  AT_FORALL_DIFFERENT_REDISPATCH_SIGNATURE(KERNEL_DIFFERENT_REDISPATCH_SIGNATURE_PRIVATEUSEONE)
  AT_FORALL_PROMOTE(MOJO_PROMOTE)
  m.impl(TORCH_SELECTIVE_NAME("aten::binary_cross_entropy"), TORCH_FN(binary_cross_entropy_banned));
}

}  // namespace
}  // namespace mojo
