// Nested, sparse COO and sparse compressed (CSR, CSC, BSR, BSC) mojo tensors: PyTorch's
// device-generic kernels that read nested tensors' constituents (the Transformer fast path
// builds on them), build, read, copy, resize and convert sparse ones, and compute on
// compressed tensors' values through mojo's dense kernels, registered for mojo (only C++ can
// register them). What PyTorch has only as CPU or CUDA kernels is composed in
// python/torch_mojo_backend/_sparse.py and _sparse_compressed.py.
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/native/DispatchStub.h>
#include <torch/library.h>

namespace native = at::native;

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

// Dense tensors to the compressed layouts (the conversions index through at:: ops).
TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("_to_sparse_csr", TORCH_FN(native::dense_to_sparse_csr));
  m.impl("_to_sparse_csc", TORCH_FN(native::dense_to_sparse_csc));
  m.impl("_to_sparse_bsr", TORCH_FN(native::dense_to_sparse_bsr));
  m.impl("_to_sparse_bsc", TORCH_FN(native::dense_to_sparse_bsc));
}

// A unary op that maps zero to zero, applied to the values of a `layout` (sparse: COO,
// sparse_csr: compressed) tensor: functional, in place, out=.
#define MOJO_UNARY_ON_VALUES(layout, op)                          \
  m.impl(#op, TORCH_FN(native::op##_##layout));                   \
  m.impl(#op "_", TORCH_FN(native::op##_##layout##_));            \
  m.impl(#op ".out", TORCH_FN(native::op##_##layout##_out))

// The two overloads of the sparse-to-sparse conversions (_to_sparse.sparse_dim, _to_sparse).
using ToSparseDims = at::Tensor (*)(const at::Tensor&, int64_t);
using ToSparseLayout = at::Tensor (*)(const at::Tensor&, std::optional<at::Layout>,
                                      at::OptionalIntArrayRef, std::optional<int64_t>);

// div and floor_divide by a zero-dimensional tensor (or number), with and without a rounding
// mode; the norms of sparse_norm, native_norm and its dtype variant.
using Binary = at::Tensor (*)(const at::Tensor&, const at::Tensor&);
using BinaryInPlace = at::Tensor& (*)(at::Tensor&, const at::Tensor&);
using BinaryOut = at::Tensor& (*)(const at::Tensor&, const at::Tensor&, at::Tensor&);
using Rounding = std::optional<c10::string_view>;
using BinaryMode = at::Tensor (*)(const at::Tensor&, const at::Tensor&, Rounding);
using BinaryModeInPlace = at::Tensor& (*)(at::Tensor&, const at::Tensor&, Rounding);
using BinaryModeOut = at::Tensor& (*)(const at::Tensor&, const at::Tensor&, Rounding,
                                      at::Tensor&);
using Norm = at::Tensor (*)(const at::Tensor&, const at::Scalar&);
using NormOver = at::Tensor (*)(const at::Tensor&, const std::optional<at::Scalar>&,
                                at::IntArrayRef, bool, std::optional<at::ScalarType>);

TORCH_LIBRARY_IMPL(aten, SparsePrivateUse1, m) {
  // Elementwise on the values, reductions, shapes and norms (PyTorch's generic COO kernels).
  MOJO_UNARY_ON_VALUES(sparse, abs);
  MOJO_UNARY_ON_VALUES(sparse, sgn);
  MOJO_UNARY_ON_VALUES(sparse, asinh);
  MOJO_UNARY_ON_VALUES(sparse, atanh);
  MOJO_UNARY_ON_VALUES(sparse, asin);
  MOJO_UNARY_ON_VALUES(sparse, atan);
  MOJO_UNARY_ON_VALUES(sparse, ceil);
  MOJO_UNARY_ON_VALUES(sparse, erf);
  MOJO_UNARY_ON_VALUES(sparse, erfinv);
  MOJO_UNARY_ON_VALUES(sparse, expm1);
  MOJO_UNARY_ON_VALUES(sparse, floor);
  MOJO_UNARY_ON_VALUES(sparse, frac);
  MOJO_UNARY_ON_VALUES(sparse, log1p);
  MOJO_UNARY_ON_VALUES(sparse, rad2deg);
  MOJO_UNARY_ON_VALUES(sparse, deg2rad);
  MOJO_UNARY_ON_VALUES(sparse, round);
  MOJO_UNARY_ON_VALUES(sparse, sign);
  MOJO_UNARY_ON_VALUES(sparse, sin);
  MOJO_UNARY_ON_VALUES(sparse, sinh);
  MOJO_UNARY_ON_VALUES(sparse, sqrt);
  MOJO_UNARY_ON_VALUES(sparse, tan);
  MOJO_UNARY_ON_VALUES(sparse, tanh);
  MOJO_UNARY_ON_VALUES(sparse, trunc);
  MOJO_UNARY_ON_VALUES(sparse, nan_to_num);
  m.impl("neg", TORCH_FN(native::neg_sparse));
  m.impl("neg_", TORCH_FN(native::neg_sparse_));
  m.impl("neg.out", TORCH_FN(native::neg_out_sparse));
  m.impl("conj_physical.out", TORCH_FN(native::conj_physical_out_sparse));
  m.impl("relu", TORCH_FN(native::relu_sparse));
  m.impl("relu_", TORCH_FN(native::relu_sparse_));
  m.impl("isnan", TORCH_FN(native::isnan_sparse));
  m.impl("isinf", TORCH_FN(native::isinf_sparse));
  m.impl("isposinf", TORCH_FN(native::isposinf_sparse));
  m.impl("isposinf.out", TORCH_FN(native::isposinf_sparse_out));
  m.impl("isneginf", TORCH_FN(native::isneginf_sparse));
  m.impl("isneginf.out", TORCH_FN(native::isneginf_sparse_out));
  m.impl("signbit", TORCH_FN(native::signbit_sparse));
  m.impl("signbit.out", TORCH_FN(native::signbit_sparse_out));
  m.impl("pow.Tensor_Scalar", TORCH_FN(native::pow_sparse_scalar));
  m.impl("pow.Tensor_Scalar_out", TORCH_FN(native::pow_out_sparse_scalar));
  m.impl("div.Tensor", Binary(native::div_sparse));
  m.impl("div_.Tensor", BinaryInPlace(native::div_sparse_));
  m.impl("div.out", BinaryOut(native::div_out_sparse_zerodim));
  m.impl("div.Tensor_mode", BinaryMode(native::div_sparse));
  m.impl("div_.Tensor_mode", BinaryModeInPlace(native::div_sparse_));
  m.impl("div.out_mode", BinaryModeOut(native::div_out_sparse_zerodim));
  m.impl("floor_divide", TORCH_FN(native::floor_divide_sparse));
  m.impl("floor_divide_.Tensor", TORCH_FN(native::floor_divide_sparse_));
  m.impl("floor_divide.out", TORCH_FN(native::floor_divide_out_sparse_zerodim));
  m.impl("sub.Tensor", TORCH_FN(native::sub_sparse));
  m.impl("sub_.Tensor", TORCH_FN(native::sub_sparse_));
  m.impl("sub.out", TORCH_FN(native::sub_out_sparse));
  m.impl("threshold_backward", TORCH_FN(native::threshold_backward_sparse));
  m.impl("threshold_backward.grad_input", TORCH_FN(native::threshold_backward_sparse_out));
  m.impl("sum", TORCH_FN(native::sum_coo));
  m.impl("sum.dim_IntList", TORCH_FN(native::sum_sparse_coo));
  m.impl("any", TORCH_FN(native::any_sparse));
  m.impl("native_norm", Norm(native::norm_sparse));
  m.impl("native_norm.ScalarOpt_dim_dtype", NormOver(native::norm_sparse));
  m.impl("norm.ScalarOpt_dim_dtype", TORCH_FN(native::sparse_dtype_norm));
  m.impl("norm.ScalarOpt_dim", TORCH_FN(native::sparse_norm));
  m.impl("mv", TORCH_FN(native::mv_sparse));
  m.impl("cat", TORCH_FN(native::cat_sparse));
  m.impl("permute", TORCH_FN(native::permute_sparse_coo));
  m.impl("unsqueeze", TORCH_FN(native::unsqueeze_sparse));
  m.impl("narrow_copy", TORCH_FN(native::narrow_copy_sparse));
  m.impl("_sparse_broadcast_to", TORCH_FN(native::sparse_broadcast_to));
  m.impl("view_as_real", TORCH_FN(native::view_as_real_sparse));
  m.impl("view_as_complex", TORCH_FN(native::view_as_complex_sparse));
  m.impl("empty_like", TORCH_FN(native::empty_like_sparse_coo));
  m.impl("zeros.out", TORCH_FN(native::zeros_sparse_out));
  m.impl("_dimI", TORCH_FN(native::sparse_dim_sparse));
  m.impl("_dimV", TORCH_FN(native::dense_dim_sparse));

  m.impl("_to_sparse.sparse_dim", ToSparseDims(native::sparse_coo_to_sparse));
  m.impl("_to_sparse", ToSparseLayout(native::sparse_coo_to_sparse));
  m.impl("_to_sparse_csr", TORCH_FN(native::coo_to_sparse_csr));
  m.impl("_to_sparse_csc", TORCH_FN(native::coo_to_sparse_csc));
  m.impl("_to_sparse_bsr", TORCH_FN(native::coo_to_sparse_bsr));
  m.impl("_to_sparse_bsc", TORCH_FN(native::coo_to_sparse_bsc));
}


TORCH_LIBRARY_IMPL(aten, SparseCsrPrivateUse1, m) {
  // Construction, members, copies, resizing, conversions.
  m.impl("empty.memory_format", TORCH_FN(native::empty_sparse_compressed));
  m.impl("empty_like", TORCH_FN(native::empty_like_sparse_csr));
  m.impl("resize_", TORCH_FN(native::resize_sparse_csr_));
  m.impl("resize_as_sparse_", TORCH_FN(native::resize_as_sparse_compressed_));
  m.impl("copy_", TORCH_FN(native::copy_sparse_compressed_));
  m.impl("clone", TORCH_FN(native::clone_sparse_compressed));
  m.impl("zero_", TORCH_FN(native::zero_sparse_csr_));
  m.impl("fill_.Scalar", TORCH_FN(native::fill_sparse_csr_));
  m.impl("normal_", TORCH_FN(native::normal_sparse_csr_));
  m.impl("_nnz", TORCH_FN(native::_nnz_sparse_csr));
  m.impl("sparse_dim", TORCH_FN(native::sparse_dim_sparse_csr));
  m.impl("dense_dim", TORCH_FN(native::dense_dim_sparse_csr));
  m.impl("values", TORCH_FN(native::values_sparse_csr));
  m.impl("crow_indices", TORCH_FN(native::crow_indices_sparse_csr));
  m.impl("col_indices", TORCH_FN(native::col_indices_sparse_csr));
  m.impl("ccol_indices", TORCH_FN(native::ccol_indices_sparse_csr));
  m.impl("row_indices", TORCH_FN(native::row_indices_sparse_csr));
  m.impl("select.int", TORCH_FN(native::select_sparse_csr));
  m.impl("select_copy.int", TORCH_FN(native::select_copy_sparse_csr));
  m.impl("_to_dense", TORCH_FN(native::sparse_compressed_to_dense));
  m.impl("_to_sparse.sparse_dim", ToSparseDims(native::sparse_compressed_to_sparse));
  m.impl("_to_sparse", ToSparseLayout(native::sparse_compressed_to_sparse));
  m.impl("_to_sparse_csr", TORCH_FN(native::sparse_compressed_to_sparse_csr));
  m.impl("_to_sparse_csc", TORCH_FN(native::sparse_compressed_to_sparse_csc));
  m.impl("_to_sparse_bsr", TORCH_FN(native::sparse_compressed_to_sparse_bsr));
  m.impl("_to_sparse_bsc", TORCH_FN(native::sparse_compressed_to_sparse_bsc));
  m.impl("sparse_mask", TORCH_FN(native::sparse_mask_sparse_compressed));

  // Elementwise on the values.
  MOJO_UNARY_ON_VALUES(sparse_csr, abs);
  MOJO_UNARY_ON_VALUES(sparse_csr, sgn);
  MOJO_UNARY_ON_VALUES(sparse_csr, asinh);
  MOJO_UNARY_ON_VALUES(sparse_csr, atanh);
  MOJO_UNARY_ON_VALUES(sparse_csr, asin);
  MOJO_UNARY_ON_VALUES(sparse_csr, atan);
  MOJO_UNARY_ON_VALUES(sparse_csr, ceil);
  MOJO_UNARY_ON_VALUES(sparse_csr, erf);
  MOJO_UNARY_ON_VALUES(sparse_csr, erfinv);
  MOJO_UNARY_ON_VALUES(sparse_csr, expm1);
  MOJO_UNARY_ON_VALUES(sparse_csr, floor);
  MOJO_UNARY_ON_VALUES(sparse_csr, frac);
  MOJO_UNARY_ON_VALUES(sparse_csr, log1p);
  MOJO_UNARY_ON_VALUES(sparse_csr, rad2deg);
  MOJO_UNARY_ON_VALUES(sparse_csr, deg2rad);
  MOJO_UNARY_ON_VALUES(sparse_csr, neg);
  MOJO_UNARY_ON_VALUES(sparse_csr, round);
  MOJO_UNARY_ON_VALUES(sparse_csr, sign);
  MOJO_UNARY_ON_VALUES(sparse_csr, sin);
  MOJO_UNARY_ON_VALUES(sparse_csr, sinh);
  MOJO_UNARY_ON_VALUES(sparse_csr, sqrt);
  MOJO_UNARY_ON_VALUES(sparse_csr, tan);
  MOJO_UNARY_ON_VALUES(sparse_csr, tanh);
  MOJO_UNARY_ON_VALUES(sparse_csr, trunc);
  m.impl("_conj_physical", TORCH_FN(native::conj_physical_sparse_csr));
  m.impl("conj_physical_", TORCH_FN(native::conj_physical_sparse_csr_));
  m.impl("conj_physical.out", TORCH_FN(native::conj_physical_sparse_csr_out));
  m.impl("angle", TORCH_FN(native::angle_sparse_csr));
  m.impl("angle.out", TORCH_FN(native::angle_sparse_csr_out));
  m.impl("signbit", TORCH_FN(native::signbit_sparse_csr));
  m.impl("signbit.out", TORCH_FN(native::signbit_sparse_csr_out));
  m.impl("isposinf", TORCH_FN(native::isposinf_sparse_csr));
  m.impl("isposinf.out", TORCH_FN(native::isposinf_sparse_csr_out));
  m.impl("isneginf", TORCH_FN(native::isneginf_sparse_csr));
  m.impl("isneginf.out", TORCH_FN(native::isneginf_sparse_csr_out));
  m.impl("isnan", TORCH_FN(native::isnan_sparse_csr));
  m.impl("isinf", TORCH_FN(native::isinf_sparse_csr));
  m.impl("relu", TORCH_FN(native::relu_sparse_csr));
  m.impl("relu_", TORCH_FN(native::relu_sparse_csr_));
  m.impl("threshold_backward", TORCH_FN(native::threshold_backward_sparse_compressed));
  m.impl("threshold_backward.grad_input",
         TORCH_FN(native::threshold_backward_sparse_compressed_out));
  m.impl("mul.Tensor", TORCH_FN(native::mul_sparse_csr));
  m.impl("mul_.Tensor", TORCH_FN(native::mul_sparse_csr_));
  m.impl("mul.out", TORCH_FN(native::mul_out_sparse_csr));
  m.impl("mul.Scalar", TORCH_FN(native::mul_scalar_sparse_csr));
  m.impl("mul_.Scalar", TORCH_FN(native::mul__scalar_sparse_csr));

  // Built on the add.out, addmm.out and _sparse_csr_sum kernels of _sparse_compressed.py.
  m.impl("add.Tensor", TORCH_FN(native::add_sparse_csr));
  m.impl("add_.Tensor", TORCH_FN(native::add_sparse_csr_));
  m.impl("mm", TORCH_FN(native::_sparse_csr_mm));
  m.impl("mm.out", TORCH_FN(native::_sparse_csr_mm_out));
  m.impl("addmm", TORCH_FN(native::addmm_sparse_compressed_dense));
  m.impl("sum", TORCH_FN(native::sum_csr));
  m.impl("sum.dim_IntList", TORCH_FN(native::sum_sparse_compressed));
}
