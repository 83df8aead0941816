// Scaled dot-product attention routing. PyTorch's scaled_dot_product_attention asks the device
// which fused kernel serves a call (_fused_sdp_choice_stub); mojo answers "overrideable" (the
// tiled kernel of src/ops/attention.rs) when that kernel covers the call and math otherwise.
// Masks that need a gradient and float64 stay on the math path, and so do the calls the runtime
// finds faster there (mojo_attention_prefers_math) unless the caller ranks the fused kernel first.
#include <ATen/Context.h>
#include <ATen/SDPBackend.h>
#include <ATen/native/DispatchStub.h>
#include <ATen/native/transformers/attention.h>

#include "mojo.h"

namespace mojo {
namespace {

constexpr int64_t kWidestHead = 256;

bool fused_serves(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                  const std::optional<at::Tensor>& mask, bool enable_gqa) {
  if (q.dim() != 4 || k.dim() != 4 || v.dim() != 4) return false;
  if (q.is_nested() || k.is_nested() || v.is_nested()) return false;
  const auto dtype = q.scalar_type();
  if (dtype != at::kFloat && dtype != at::kHalf && dtype != at::kBFloat16) return false;
  if (k.scalar_type() != dtype || v.scalar_type() != dtype) return false;
  if (k.size(0) != q.size(0) || v.size(0) != q.size(0)) return false;
  if (k.size(1) != v.size(1) || k.size(2) != v.size(2) || k.size(3) != q.size(3)) return false;
  const bool same_heads = k.size(1) == q.size(1);
  if (!same_heads && !(enable_gqa && k.size(1) > 0 && q.size(1) % k.size(1) == 0)) return false;
  if (q.size(3) > kWidestHead || v.size(3) > kWidestHead) return false;
  if (mask.has_value() && mask->defined()) {
    if (mask->dim() > 4 || mask->requires_grad()) return false;
    if (mask->scalar_type() != at::kBool && mask->scalar_type() != dtype) return false;
  }
  return true;
}

bool math_is_faster(const at::Tensor& q, const at::Tensor& k) {
  if (q.dim() != 4 || k.dim() != 4) return false;
  const int64_t scores = q.size(0) * q.size(1) * q.size(2) * k.size(2);
  for (const auto backend : at::globalContext().sDPPriorityOrder()) {
    if (backend == at::SDPBackend::overrideable) return false;
    if (backend == at::SDPBackend::math) return mojo_attention_prefers_math(q.device().index(), scores) == 1;
  }
  return false;
}

int64_t choose_sdp_backend(const at::Tensor& query, const at::Tensor& key, const at::Tensor& value,
                           const std::optional<at::Tensor>& attn_mask, double /*dropout_p*/, bool /*is_causal*/,
                           std::optional<double> /*scale*/, bool enable_gqa) {
  auto& ctx = at::globalContext();
  const bool prefer_math = ctx.userEnabledMathSDP() && math_is_faster(query, key);
  if (ctx.userEnabledOverrideableSDP() && !prefer_math &&
      fused_serves(query, key, value, attn_mask, enable_gqa)) {
    return static_cast<int64_t>(at::SDPBackend::overrideable);
  }
  TORCH_CHECK(ctx.userEnabledMathSDP(),
              "No available kernel. Aborting execution. (mojo's fused attention does not serve these "
              "inputs and the math backend is disabled)");
  return static_cast<int64_t>(at::SDPBackend::math);
}

}  // namespace
}  // namespace mojo

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(_fused_sdp_choice_stub, &mojo::choose_sdp_backend)
}  // namespace at::native
