// Elementwise ops, full min/max and masked_select: each forwards to the Rust ops layer, which
// owns broadcasting, type promotion and output sizing.
#include <ATen/native/Resize.h>
#include <torch/library.h>

#include "mojo.h"

namespace mojo {
namespace {

// Describes an op's tensor input, refusing tensors of other devices as CUDA does.
MojoTensor input(const at::Tensor& t, const at::Tensor& first) {
  TORCH_CHECK(t.device() == first.device(),
              "Expected all tensors to be on the same device, but found at least two devices, ",
              first.device(), " and ", t.device(), "!");
  return describe(t);
}

at::Tensor& unary_out(int op, const at::Tensor& self, at::Tensor& out) {
  c10::DeviceGuard guard(self.device());
  auto a = describe(self), o = input(out, self);
  check(mojo_unary(op, &a, &o, &resize_output, &out));
  return out;
}

at::Tensor& binary_scalar_out(int op, const at::Tensor& self, const at::Scalar& other, at::Tensor& out);

at::Tensor& binary_out(int op, const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  if (other.is_cpu() && other.dim() == 0) {
    // A Python number or a zero-dimensional CPU tensor: passed by value, as CUDA allows.
    c10::DeviceGuard guard(self.device());
    auto a = describe(self), o = input(out, self);
    auto s = describe(other.item());
    if (!other.unsafeGetTensorImpl()->is_wrapped_number()) s.dtype = static_cast<int32_t>(other.scalar_type());
    check(mojo_binary(op, &a, nullptr, &s, &o, &resize_output, &out));
    return out;
  }
  c10::DeviceGuard guard(self.device());
  auto a = describe(self), b = input(other, self), o = input(out, self);
  check(mojo_binary(op, &a, &b, nullptr, &o, &resize_output, &out));
  return out;
}

at::Tensor& binary_scalar_out(int op, const at::Tensor& self, const at::Scalar& other, at::Tensor& out) {
  c10::DeviceGuard guard(self.device());
  auto a = describe(self), o = input(out, self);
  auto s = describe(other);
  check(mojo_binary(op, &a, nullptr, &s, &o, &resize_output, &out));
  return out;
}

template <int Op>
at::Tensor& unary(const at::Tensor& self, at::Tensor& out) {
  return unary_out(Op, self, out);
}

template <int Op>
at::Tensor predicate(const at::Tensor& self) {
  at::Tensor out = at::empty(self.sizes(), self.options().dtype(at::kBool));
  return unary_out(Op, self, out);
}

template <int Op>
at::Tensor& binary(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return binary_out(Op, self, other, out);
}

template <int Op>
at::Tensor& binary_scalar(const at::Tensor& self, const at::Scalar& other, at::Tensor& out) {
  return binary_scalar_out(Op, self, other, out);
}

at::Tensor& div_mode(const at::Tensor& self, const at::Tensor& other,
                     std::optional<c10::string_view> mode, at::Tensor& out) {
  TORCH_CHECK_NOT_IMPLEMENTED(!mode.has_value(), "The operator 'aten::div.out_mode' with rounding_mode='",
                              *mode, "' is not implemented for the mojo device.");
  return binary_out(kDiv, self, other, out);
}

template <int Op>
at::Tensor& reduce_all_out(const at::Tensor& self, at::Tensor& out) {
  c10::DeviceGuard guard(self.device());
  at::native::resize_output(out, {});
  auto a = describe(self), o = input(out, self);
  check(mojo_reduce_all(Op, &a, &o));
  return out;
}

template <int Op>
at::Tensor reduce_all(const at::Tensor& self) {
  at::Tensor out = at::empty({}, self.options());
  return reduce_all_out<Op>(self, out);
}

at::Tensor& masked_select_out(const at::Tensor& self, const at::Tensor& mask, at::Tensor& out) {
  c10::DeviceGuard guard(self.device());
  auto a = describe(self), m = input(mask, self), o = input(out, self);
  check(mojo_masked_select(&a, &m, &o, &resize_output, &out));
  return out;
}

at::Tensor masked_select(const at::Tensor& self, const at::Tensor& mask) {
  at::Tensor out = at::empty({0}, self.options());
  return masked_select_out(self, mask, out);
}

at::Tensor& cat_out(const at::ITensorListRef& tensors, int64_t dim, at::Tensor& out) {
  c10::DeviceGuard guard(out.device());
  std::vector<MojoTensor> inputs;
  for (const at::Tensor& t : tensors) inputs.push_back(input(t, out));
  auto o = describe(out);
  check(mojo_cat(inputs.data(), static_cast<int64_t>(inputs.size()), dim, &o, &resize_output, &out));
  return out;
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("cat.out", TORCH_FN(cat_out));
  m.impl("neg.out", TORCH_FN(unary<kNeg>));
  m.impl("abs.out", TORCH_FN(unary<kAbs>));
  m.impl("ceil.out", TORCH_FN(unary<kCeil>));
  m.impl("floor.out", TORCH_FN(unary<kFloor>));
  m.impl("trunc.out", TORCH_FN(unary<kTrunc>));
  m.impl("bitwise_not.out", TORCH_FN(unary<kNot>));
  m.impl("isnan", TORCH_FN(predicate<kIsNan>));
  m.impl("isinf", TORCH_FN(predicate<kIsInf>));
  m.impl("isfinite", TORCH_FN(predicate<kIsFinite>));
  m.impl("mul.out", TORCH_FN(binary<kMul>));
  m.impl("div.out", TORCH_FN(binary<kDiv>));
  m.impl("div.out_mode", TORCH_FN(div_mode));
  m.impl("maximum.out", TORCH_FN(binary<kMax>));
  m.impl("minimum.out", TORCH_FN(binary<kMin>));
  m.impl("bitwise_and.Tensor_out", TORCH_FN(binary<kAnd>));
  m.impl("bitwise_or.Tensor_out", TORCH_FN(binary<kOr>));
  m.impl("bitwise_xor.Tensor_out", TORCH_FN(binary<kXor>));
  m.impl("eq.Tensor_out", TORCH_FN(binary<kEq>));
  m.impl("ne.Tensor_out", TORCH_FN(binary<kNe>));
  m.impl("lt.Tensor_out", TORCH_FN(binary<kLt>));
  m.impl("le.Tensor_out", TORCH_FN(binary<kLe>));
  m.impl("gt.Tensor_out", TORCH_FN(binary<kGt>));
  m.impl("ge.Tensor_out", TORCH_FN(binary<kGe>));
  m.impl("eq.Scalar_out", TORCH_FN(binary_scalar<kEq>));
  m.impl("ne.Scalar_out", TORCH_FN(binary_scalar<kNe>));
  m.impl("lt.Scalar_out", TORCH_FN(binary_scalar<kLt>));
  m.impl("le.Scalar_out", TORCH_FN(binary_scalar<kLe>));
  m.impl("gt.Scalar_out", TORCH_FN(binary_scalar<kGt>));
  m.impl("ge.Scalar_out", TORCH_FN(binary_scalar<kGe>));
  m.impl("min", TORCH_FN(reduce_all<0>));
  m.impl("max", TORCH_FN(reduce_all<1>));
  m.impl("min.unary_out", TORCH_FN(reduce_all_out<0>));
  m.impl("max.unary_out", TORCH_FN(reduce_all_out<1>));
  m.impl("masked_select", TORCH_FN(masked_select));
  m.impl("masked_select.out", TORCH_FN(masked_select_out));
}

}  // namespace
}  // namespace mojo
