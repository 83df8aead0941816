// PyTorch's kernels for nested mojo tensors (the Transformer fast path reads their parts) and
// the device's part of its sparse conversions (a DispatchStub): only C++ can register these.
// Sparse kernels are registered from Python (_generic_kernels.py).
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/native/DispatchStub.h>
#include <torch/library.h>

namespace mojo {
namespace {

// Row-major linear position of each column of a (sparse_dim, nnz) index tensor; PyTorch's
// layout conversions and masks ask the device for it.
at::Tensor flatten_indices(const at::Tensor& indices, c10::IntArrayRef size) {
  auto position = at::zeros({indices.size(1)}, indices.options().dtype(at::kLong));
  for (int64_t d = 0; d < indices.size(0); ++d) {
    position.mul_(size[d]).add_(indices[d]);
  }
  return position;
}

}  // namespace
}  // namespace mojo

// Declared in ATen/native/sparse/SparseStubs.h, which the wheel does not ship.
namespace at::native {
using flatten_indices_fn = Tensor (*)(const Tensor& indices, IntArrayRef size);
DECLARE_DISPATCH(flatten_indices_fn, flatten_indices_stub)
REGISTER_PRIVATEUSE1_DISPATCH(flatten_indices_stub, &mojo::flatten_indices)
}  // namespace at::native

TORCH_LIBRARY_IMPL(aten, NestedTensorPrivateUse1, m) {
  m.impl("unbind.int", TORCH_FN(at::native::NestedTensor_unbind));
  m.impl("_nested_tensor_size", TORCH_FN(at::native::_nested_tensor_size));
  m.impl("values", TORCH_FN(at::native::values_nested));
}
