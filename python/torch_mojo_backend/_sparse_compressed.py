"""Sparse compressed tensors (CSR, CSC, BSR, BSC) on mojo: the kernels PyTorch has only for the
CPU and CUDA, composed from mojo's kernels. `_generic_kernels.py` registers PyTorch's
device-generic ones (construction, members, conversions, elementwise ops on the values, and
the functional sum, mm and addmm that end in the kernels below).

- `_validate_compressed_sparse_indices` (`check_invariants=True`): the CPU's checks and
  messages.
- `_convert_indices_from_csr_to_coo` / `_from_coo_to_csr` (dense index tensors, the base of
  every conversion): a row's index is the number of row starts at or before the entry
  (`searchsorted`), a row start the number of entries in earlier rows; no host sync.
- `addmm.out` (so `mm`, `@`, `torch.sparse.mm`, `addmm`), `addmv.out`, `bmm.out`,
  `baddbmm.out`: a compressed matrix (or batch) times a dense one, in either order; each
  entry's value times a row of the dense operand, added into its row of the result
  (`index_add`), as the COO product in `_sparse.py`; two compressed matrices multiply as COO
  ones into a CSR result.
- `add.out`: dense + compressed (either order) adds the entries into the dense result;
  compressed + compressed gives the union of both patterns, as CUDA's.
- `sparse_sampled_addmm`: `beta * self + alpha * (mat1 @ mat2)` at self's pattern, each
  specified entry's dot product computed alone.
- `_sparse_mm_reduce_impl` and its backward (`torch.sparse.mm(csr, dense, reduce)`, which
  PyTorch has for the CPU only): each row's products combined by sum, mean, amax or amin
  (`scatter_reduce`), the entry behind each amax/amin element kept for the gradient.
- `_sparse_csr_sum` / `_sparse_csr_prod` (`torch.sum(csr, dim, keepdim=True)`): the entries
  of each kept row or column combined; only the non-empty ones are specified, as on the CPU.
"""

import torch

from . import _sparse
from ._composites import compute_dtype


def validate_indices(is_crow, compressed_idx, plain_idx, cdim, dim, nnz):
    """The invariants of compressed indices (`check_invariants=True`), checked in the CPU's
    order with its messages."""
    compressed, plain = ("crow", "col") if is_crow else ("ccol", "row")
    size = "ncols" if is_crow else "nrows"
    c = compressed_idx.reshape(-1, compressed_idx.shape[-1])
    p = plain_idx.reshape(-1, plain_idx.shape[-1])

    def require(holds, condition):
        if not bool(holds.all()):
            raise RuntimeError(f"`{condition}` is not satisfied.")

    require(c[:, 0] == 0, f"{compressed}_indices[..., 0] == 0")
    require(c[:, -1] == nnz, f"{compressed}_indices[..., -1] == nnz")
    steps = c[:, 1:] - c[:, :-1]
    require(
        (steps >= 0) & (steps <= dim),
        f"0 <= {compressed}_indices[..., 1:] - {compressed}_indices[..., :-1] <= {size}",
    )
    require((p >= 0) & (p < dim), f"0 <= {plain}_indices < {size}")
    if p.shape[1] > 1:
        entry = torch.arange(p.shape[1], dtype=c.dtype, device=c.device).expand_as(p)
        line = torch.searchsorted(c[:, 1:].contiguous(), entry.contiguous(), right=True)
        rising = (p[:, 1:] > p[:, :-1]) | (line[:, 1:] != line[:, :-1])
        require(
            rising,
            f"{plain}_indices[..., {compressed}_indices[..., i - 1]:{compressed}_indices[..., "
            f"i]] for all i = 1, ..., {'nrows' if is_crow else 'ncols'} are sorted and "
            "distinct along the last dimension values",
        )


def _index_dtype(out_int32):
    return torch.int32 if out_int32 else torch.int64


def csr_to_coo(crow_indices, col_indices, *, out_int32=False, transpose=False):
    if crow_indices.dim() != col_indices.dim():
        raise RuntimeError(
            "crow_indices and col_indices are supposed to have the same dimensionality, but "
            f"got {crow_indices.dim()} and {col_indices.dim()} dimensional tensors, respectively."
        )
    if crow_indices.dim() > 2:
        raise RuntimeError(
            "crow_indices and col_indices are supposed to be at most 2-dimensional, but got "
            f"{crow_indices.dim()}-dimensional tensors."
        )
    dtype = _index_dtype(out_int32)
    batched = crow_indices.dim() == 2
    crow = crow_indices if batched else crow_indices[None]
    col = col_indices if batched else col_indices[None]
    batches, nnz = col.shape
    entry = torch.arange(nnz, dtype=crow.dtype, device=crow.device).expand(batches, nnz)
    rows = torch.searchsorted(crow[:, 1:].contiguous(), entry.contiguous(), right=True)
    rows, col = rows.to(dtype).reshape(-1), col.to(dtype).reshape(-1)
    pair = [col, rows] if transpose else [rows, col]
    if batched:
        batch = torch.arange(batches, dtype=dtype, device=crow.device)
        pair.insert(0, batch[:, None].expand(batches, nnz).reshape(-1))
    return torch.stack(pair)


def csr_to_coo_out(crow_indices, col_indices, *, out_int32=False, transpose=False, out):
    result = csr_to_coo(crow_indices, col_indices, out_int32=out_int32, transpose=transpose)
    return out.resize_(result.shape).copy_(result)


def coo_to_csr(input, size, *, out_int32=False):
    if input.dim() > 1:
        raise RuntimeError(
            f"Input is supposed to be a vector, but got {input.dim()} dimensional tensor."
        )
    starts = torch.arange(size + 1, dtype=input.dtype, device=input.device)
    return torch.searchsorted(input.contiguous(), starts, out_int32=out_int32)


def coo_to_csr_out(input, size, *, out_int32=False, out):
    result = coo_to_csr(input, size, out_int32=out_int32)
    return out.resize_(result.shape).copy_(result)


_BLOCKED = (torch.sparse_bsr, torch.sparse_bsc)


def _is_compressed(tensor):
    return tensor.layout in (torch.sparse_csr, torch.sparse_csc, *_BLOCKED)


def _assign(out, result):
    """Writes `result` into `out`, resized to it (dense or compressed)."""
    if _is_compressed(out):
        out.resize_as_sparse_(result)
    else:
        out.resize_(result.shape)
    return out.copy_(result)


def _product(mat1, mat2):
    """mat1 @ mat2: dense when one of them is dense, CSR when both are compressed."""
    if _is_compressed(mat1) and _is_compressed(mat2):
        return _sparse.sparse_product(mat1.to_sparse(), mat2.to_sparse()).to_sparse_csr()
    if _is_compressed(mat1):
        return _sparse._product(mat1.to_sparse(), mat2)
    return _sparse._product(mat2.t().to_sparse(), mat1.t()).t()


def addmm_out(self, mat1, mat2, *, beta=1, alpha=1, out):
    return _assign(out, _sparse.blend(self, _product(mat1, mat2), beta, alpha))


def addmv_out(self, mat, vec, *, beta=1, alpha=1, out):
    if vec.dim() != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, 2, {vec.dim()}")
    return _assign(out, _sparse.blend(self, _product(mat, vec[:, None])[:, 0], beta, alpha))


def bmm_out(self, mat2, *, out):
    return _assign(out, _sparse.batched_product(self.to_sparse(), mat2))


def baddbmm_out(self, batch1, batch2, *, beta=1, alpha=1, out):
    return _assign(
        out, _sparse.blend(self, _sparse.batched_product(batch1.to_sparse(), batch2), beta, alpha)
    )


def _add_entries(dense, sparse, alpha):
    """dense[index] += alpha * value for every specified element of `sparse` (in place)."""
    return _sparse._scatter_into(dense, sparse.to_sparse(), alpha)


def add_out(self, other, *, alpha=1, out):
    if _is_compressed(out):
        if not (_is_compressed(self) and _is_compressed(other)):
            raise RuntimeError(
                "add: expected a strided result when adding a dense and a sparse tensor"
            )
        if self.layout != other.layout or self.shape != other.shape:
            raise RuntimeError(
                f"add: expected operands of the same layout and shape, got {self.layout} "
                f"{tuple(self.shape)} and {other.layout} {tuple(other.shape)}"
            )
        entries = torch.add(self.to_sparse(), other.to_sparse(), alpha=alpha).coalesce()
        blocksize = self.values().shape[1:3] if self.layout in _BLOCKED else None
        result = entries.to_sparse(
            layout=self.layout, blocksize=blocksize, dense_dim=self.dense_dim() or None
        )
        return _assign(out, result)
    dtype = torch.result_type(self, other)
    if _is_compressed(self):  # sparse + alpha * dense
        base = other * alpha if alpha != 1 else other
        return _add_entries(_assign(out, base.to(dtype)), self, 1)
    return _add_entries(_assign(out, self.to(dtype)), other, alpha)


def sampled_addmm(self, mat1, mat2, *, beta=1, alpha=1):
    if self.layout != torch.sparse_csr:
        raise RuntimeError(
            f"sampled_addmm: Expected self to be a sparse CSR tensor, got {self.layout}"
        )
    for name, mat in (("mat1", mat1), ("mat2", mat2)):
        if mat.layout != torch.strided or mat.dim() < 2:
            raise RuntimeError(
                f"sampled_addmm: Expected {name} to be a strided matrix or batch of matrices"
            )
    if mat1.shape[-1] != mat2.shape[-2] or self.shape[-2:] != (mat1.shape[-2], mat2.shape[-1]):
        raise RuntimeError(
            f"sampled_addmm: shapes do not match: self {tuple(self.shape)}, mat1 "
            f"{tuple(mat1.shape)}, mat2 {tuple(mat2.shape)}"
        )
    crow, col = self.crow_indices(), self.col_indices()
    *batch, row, column = csr_to_coo(crow, col)
    lhs, rhs = mat1, mat2.transpose(-2, -1)
    if batch:
        batches = self.shape[0]
        lhs = lhs.expand(batches, *lhs.shape[-2:])
        rhs = rhs.expand(batches, *rhs.shape[-2:])
        products = (lhs[batch[0], row] * rhs[batch[0], column]).sum(-1)
    else:
        products = (lhs[row] * rhs[column]).sum(-1)
    values = _sparse.blend(self.values(), products.view(self.values().shape), beta, alpha)
    return torch.sparse_csr_tensor(
        crow.clone(), col.clone(), values, self.shape, check_invariants=False
    )


_REDUCTIONS = ("sum", "mean", "amax", "amin")


def _reduce_inputs(self, reduce):
    """(row, column, value) of each entry of a 2-D CSR matrix, after the CPU's checks."""
    if self.layout != torch.sparse_csr:
        raise RuntimeError(f"sparse_mm_reduce: expect self to be SparseCsr, got {self.layout}")
    if self.dense_dim() != 0:
        raise RuntimeError("sparse_mm_reduce: expected non-hybrid self tensor.")
    if self.dim() != 2:
        raise RuntimeError(
            f"sparse_mm_reduce: expected self to be a 2-D tensor, got {self.dim()}-D tensor."
        )
    if reduce not in _REDUCTIONS:
        raise RuntimeError(f"sparse_mm_reduce: reduce type of {reduce} has not been enabled.")
    row, column = csr_to_coo(self.crow_indices(), self.col_indices())
    return row, column, self.values()


def mm_reduce(self, other, reduce):
    """Row i of the result combines `value * other[column]` over row i's entries by `reduce`
    (rows without entries give zeros), in float32 for half types. For amax and amin when a
    gradient is wanted, also the entry each element came from (nnz where none)."""
    row, column, values = _reduce_inputs(self, reduce)
    compute = compute_dtype(other.dtype)
    terms = values[:, None].to(compute) * other[column].to(compute)
    target = row[:, None].expand_as(terms)
    out = terms.new_zeros(self.shape[0], other.shape[1])
    out.scatter_reduce_(0, target, terms, reduce, include_self=False)
    no_source = other.new_empty(0, dtype=torch.int64)
    wanted = torch.is_grad_enabled() and (self.requires_grad or other.requires_grad)
    if reduce in ("sum", "mean") or not wanted:
        return out.to(other.dtype), no_source
    nnz = values.numel()
    entry = torch.arange(nnz, device=other.device)[:, None].expand_as(terms)
    candidates = torch.where(terms == out[row], entry, nnz)  # the first of equal ones wins
    source = torch.full(out.shape, nnz, dtype=torch.int64, device=other.device)
    return out.to(other.dtype), source.scatter_reduce_(0, target, candidates, "amin")


def mm_reduce_backward(self, grad_out, other, reduce, arg_out, output_mask):
    """Gradients of `mm_reduce` for self's values (self's pattern) and for `other`."""
    row, column, values = _reduce_inputs(self, reduce)
    compute = compute_dtype(other.dtype)
    grad, dense, weights = (t.to(compute) for t in (grad_out, other, values))
    grad_values = weights.new_zeros(weights.shape)
    grad_other = dense.new_zeros(dense.shape)
    if reduce in ("sum", "mean"):
        if reduce == "mean":
            count = self.crow_indices().diff().to(compute)
            scale = 1 / count[row]
            weights = weights * scale
        rows_grad = grad[row]
        grad_values = (rows_grad * dense[column]).sum(-1)
        if reduce == "mean":
            grad_values = grad_values * scale
        grad_other.index_add_(0, column, weights[:, None] * rows_grad)
    else:
        r, c = (arg_out < values.numel()).nonzero().unbind(1)
        entry = arg_out[r, c]
        chosen = grad[r, c]
        grad_values.index_add_(0, entry, chosen * dense[column[entry], c])
        grad_other.index_put_((column[entry], c), weights[entry] * chosen, accumulate=True)
    grad_self = torch.sparse_csr_tensor(
        self.crow_indices().clone(),
        self.col_indices().clone(),
        grad_values.to(values.dtype),
        self.shape,
        check_invariants=False,
    )
    return grad_self, grad_other.to(other.dtype)


def sampled_addmm_out(self, mat1, mat2, *, beta=1, alpha=1, out):
    return _assign(out, sampled_addmm(self, mat1, mat2, beta=beta, alpha=alpha))


def _reduce(self, dim, keepdim, dtype, how):
    """The entries of each kept row or column combined by `how` ("sum" or "prod")."""
    if not keepdim:
        raise RuntimeError("reduction operations on CSR tensors with keepdim=False is unsupported")
    if self.layout != torch.sparse_csr or self.dim() != 2:
        raise NotImplementedError(
            f"The operator 'aten::_sparse_csr_{how}' is implemented for the mojo device on 2-D "
            f"CSR tensors only, got a {self.dim()}-D {self.layout} tensor"
        )
    dims = sorted({d % 2 for d in dim})
    if dtype is None:
        integral = not (self.dtype.is_floating_point or self.dtype.is_complex)
        dtype = torch.int64 if integral else self.dtype
    coo = self.to_sparse()
    indices = coo._indices().clone()
    indices[dims] = 0
    shape = [1 if d in dims else size for d, size in enumerate(self.shape)]
    position = indices[0] * shape[1] + indices[1]
    order = position.argsort(stable=True)
    unique, inverse = torch.unique_consecutive(position[order], return_inverse=True)
    identity = 1 if how == "prod" else 0
    combined = torch.full((unique.numel(),), identity, dtype=dtype, device=self.device)
    combined.scatter_reduce_(0, inverse, coo._values()[order].to(dtype), how)
    kept = torch.stack([unique // shape[1], unique % shape[1]])
    return _sparse._sparse(kept, combined, shape, True).to_sparse_csr()


def csr_sum(self, dim, keepdim=False, *, dtype=None):
    return _reduce(self, dim, keepdim, dtype, "sum")


def csr_prod(self, dim, keepdim=False, *, dtype=None):
    return _reduce(self, dim, keepdim, dtype, "prod")


# For dense mojo tensors (PrivateUse1).
DENSE_KERNELS = {
    "_validate_compressed_sparse_indices": validate_indices,
    "_convert_indices_from_csr_to_coo": csr_to_coo,
    "_convert_indices_from_csr_to_coo.out": csr_to_coo_out,
    "_convert_indices_from_coo_to_csr": coo_to_csr,
    "_convert_indices_from_coo_to_csr.out": coo_to_csr_out,
}

# For compressed mojo tensors (SparseCsrPrivateUse1).
KERNELS = {
    "addmm.out": addmm_out,
    "addmv.out": addmv_out,
    "bmm.out": bmm_out,
    "baddbmm.out": baddbmm_out,
    "add.out": add_out,
    "sparse_sampled_addmm": sampled_addmm,
    "sparse_sampled_addmm.out": sampled_addmm_out,
    "_sparse_csr_sum.dim_dtype": csr_sum,
    "_sparse_csr_prod.dim_dtype": csr_prod,
    "_sparse_mm_reduce_impl": mm_reduce,
    "_sparse_mm_reduce_impl_backward": mm_reduce_backward,
}
