// Nested tensors on mojo: the device-generic ATen kernels that read PyTorch's strided nested
// tensors (their sizes and their constituents as views of the buffer), registered for nested
// mojo tensors. The Transformer fast path builds on them (python/torch_mojo_backend/_transformer.py).
#include <ATen/ops/_nested_tensor_size_native.h>
#include <ATen/ops/unbind_native.h>
#include <ATen/ops/values_native.h>
#include <torch/library.h>

TORCH_LIBRARY_IMPL(aten, NestedTensorPrivateUse1, m) {
  m.impl("unbind.int", TORCH_FN(at::native::NestedTensor_unbind));
  m.impl("_nested_tensor_size", TORCH_FN(at::native::_nested_tensor_size));
  m.impl("values", TORCH_FN(at::native::values_nested));
}
