// Nested and sparse COO mojo tensors: PyTorch's device-generic kernels that read nested
// tensors' constituents (the Transformer fast path builds on them) and build, read, copy,
// resize and clear sparse ones, registered for mojo (only C++ can register them). What
// computes on sparse values is composed in python/torch_mojo_backend/_sparse.py.
#include <ATen/NativeFunctions.h>
#include <torch/library.h>

namespace native = at::native;

TORCH_LIBRARY_IMPL(aten, NestedTensorPrivateUse1, m) {
  m.impl("unbind.int", TORCH_FN(native::NestedTensor_unbind));
  m.impl("_nested_tensor_size", TORCH_FN(native::_nested_tensor_size));
  m.impl("values", TORCH_FN(native::values_nested));
}

TORCH_LIBRARY_IMPL(aten, SparsePrivateUse1, m) {
  m.impl("_sparse_coo_tensor_with_dims_and_tensors",
         TORCH_FN(native::new_with_dims_and_tensor_sparse_symint));
  m.impl("_sparse_coo_tensor_with_dims", TORCH_FN(native::new_with_dims_sparse));
  m.impl("empty.memory_format", TORCH_FN(native::empty_sparse_symint));
  m.impl("_indices", TORCH_FN(native::_indices_sparse));
  m.impl("_values", TORCH_FN(native::_values_sparse));
  m.impl("indices", TORCH_FN(native::indices_sparse));
  m.impl("values", TORCH_FN(native::values_sparse));
  m.impl("_nnz", TORCH_FN(native::_nnz_sparse));
  m.impl("sparse_dim", TORCH_FN(native::sparse_dim_sparse));
  m.impl("dense_dim", TORCH_FN(native::dense_dim_sparse));
  m.impl("is_coalesced", TORCH_FN(native::is_coalesced_sparse));
  m.impl("_coalesced_", TORCH_FN(native::_coalesced_sparse_));
  m.impl("copy_", TORCH_FN(native::copy_sparse_wrapper_));
  m.impl("copy_sparse_to_sparse_", TORCH_FN(native::copy_sparse_));
  m.impl("clone", TORCH_FN(native::clone_sparse));
  m.impl("zero_", TORCH_FN(native::zero_sparse_));
  m.impl("sparse_resize_", TORCH_FN(native::sparse_resize_));
  m.impl("sparse_resize_and_clear_", TORCH_FN(native::sparse_resize_and_clear_));
}
