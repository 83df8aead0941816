"""PyTorch's device-generic kernels for sparse and compressed sparse tensors, registered for
mojo. PyTorch registers the same C++ function for the CPU and CUDA (they build, read, copy,
convert and resize sparse tensors, and compute on their values through dense ops, which then
run on mojo); mojo's kernel for each op below calls the one PyTorch registered for the CPU's
key (`SparseCPU`, `SparseCsrCPU` or `CPU`), so no C++ is needed to name them. Only ops whose
CPU and CUDA kernels are one and the same function are listed; the others are composed in
`_sparse.py` and `_sparse_compressed.py`.
"""

import torch

DispatchKey = torch._C.DispatchKey


def _triples(names):
    """Each unary op's functional, in-place and out= overloads."""
    return [form for name in names for form in (name, f"{name}_", f"{name}.out")]


# Unary ops that map zero to zero, applied to the stored values.
_ON_VALUES = ["abs", "sgn", "asinh", "atanh", "asin", "atan", "ceil", "erf", "erfinv"]
_ON_VALUES += ["expm1", "floor", "frac", "log1p", "rad2deg", "deg2rad", "neg", "round"]
_ON_VALUES += ["sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc"]
_PREDICATES = ["isnan", "isinf", "isposinf", "isposinf.out", "isneginf", "isneginf.out"]
_PREDICATES += ["signbit", "signbit.out", "relu", "relu_"]
_THRESHOLD = ["threshold_backward", "threshold_backward.grad_input"]
_CONVERSIONS = ["_to_sparse.sparse_dim", "_to_sparse", "_to_sparse_csr", "_to_sparse_csc"]
_CONVERSIONS += ["_to_sparse_bsr", "_to_sparse_bsc"]

# Sparse COO tensors (SparsePrivateUse1), from SparseCPU.
COO = [
    "_sparse_coo_tensor_with_dims_and_tensors",
    "_sparse_coo_tensor_with_dims",
    "empty.memory_format",
    "empty_like",
    "zeros.out",
    "_indices",
    "_values",
    "indices",
    "values",
    "_nnz",
    "sparse_dim",
    "dense_dim",
    "_dimI",
    "_dimV",
    "is_coalesced",
    "_coalesced_",
    "copy_",
    "copy_sparse_to_sparse_",
    "clone",
    "zero_",
    "sparse_resize_",
    "sparse_resize_and_clear_",
    *_triples([*_ON_VALUES, "nan_to_num"]),
    *_PREDICATES,
    *_THRESHOLD,
    *_CONVERSIONS,
    "conj_physical.out",
    "pow.Tensor_Scalar",
    "pow.Tensor_Scalar_out",
    # Division by a zero-dimensional tensor or a number, with and without a rounding mode.
    "div.Tensor",
    "div_.Tensor",
    "div.out",
    "div.Tensor_mode",
    "div_.Tensor_mode",
    "div.out_mode",
    "floor_divide",
    "floor_divide_.Tensor",
    "floor_divide.out",
    "sub.Tensor",
    "sub_.Tensor",
    "sub.out",
    "sum",
    "sum.dim_IntList",
    "any",
    "native_norm",
    "native_norm.ScalarOpt_dim_dtype",
    "norm.ScalarOpt_dim_dtype",
    "norm.ScalarOpt_dim",
    "mv",
    "cat",
    "permute",
    "unsqueeze",
    "narrow_copy",
    "_sparse_broadcast_to",
    "view_as_real",
    "view_as_complex",
]

# Compressed tensors (SparseCsrPrivateUse1), from SparseCsrCPU. add, mm, addmm and sum end in
# the add.out, addmm.out and _sparse_csr_sum kernels of _sparse_compressed.py.
COMPRESSED = [
    "empty.memory_format",
    "empty_like",
    "resize_",
    "resize_as_sparse_",
    "copy_",
    "clone",
    "zero_",
    "fill_.Scalar",
    "normal_",
    "_nnz",
    "sparse_dim",
    "dense_dim",
    "values",
    "crow_indices",
    "col_indices",
    "ccol_indices",
    "row_indices",
    "select.int",
    "select_copy.int",
    "_to_dense",
    "sparse_mask",
    *_CONVERSIONS,
    *_triples(_ON_VALUES),
    *_PREDICATES,
    *_THRESHOLD,
    "_conj_physical",
    "conj_physical_",
    "conj_physical.out",
    "angle",
    "angle.out",
    "mul.Tensor",
    "mul_.Tensor",
    "mul.out",
    "mul.Scalar",
    "mul_.Scalar",
    "add.Tensor",
    "add_.Tensor",
    "mm",
    "mm.out",
    "addmm",
    "sum",
    "sum.dim_IntList",
]

# Dense tensors to the compressed layouts (PrivateUse1), from CPU.
DENSE = ["_to_sparse_csr", "_to_sparse_csc", "_to_sparse_bsr", "_to_sparse_bsc"]

BORROWED = (
    ("SparsePrivateUse1", DispatchKey.SparseCPU, COO),
    ("SparseCsrPrivateUse1", DispatchKey.SparseCsrCPU, COMPRESSED),
    ("PrivateUse1", DispatchKey.CPU, DENSE),
)


def borrowed(name, key):
    """A kernel for aten `name` ("op" or "op.overload") that runs the one registered for `key`."""
    packet, _, overload = name.partition(".")
    op = getattr(getattr(torch.ops.aten, packet), overload or "default")

    def kernel(*args, **kwargs):
        return op._op_dk(key, *args, **kwargs)

    return kernel


def register(library):
    for mojo_key, key, names in BORROWED:
        for name in names:
            library.impl(name, borrowed(name, key), mojo_key)
