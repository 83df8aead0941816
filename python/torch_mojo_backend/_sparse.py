"""Sparse COO tensors on mojo: the kernels that compute on their values, composed from mojo's
kernels and registered for sparse mojo tensors (SparsePrivateUse1); `_generic_kernels.py`
registers PyTorch's device-generic ones (construction, indices and values, copies, resizing).

- `_to_sparse` (on dense tensors): the positions whose values (over the dense dimensions)
  are not all zero, in row-major order as `nonzero` gives them, coalesced, as the CPU's
  conversion; other layouts raise NotImplementedError.

- `_coalesce`: the entries sorted by their row-major position (a stable sort, so duplicates
  keep their order), equal positions merged and their values added in that order, as the
  CPU's coalescing does.
- `_to_dense`: zeros with every entry's values added at its position (duplicates summed).
- `sparse_mask`: a dense or sparse tensor's values at each entry of a sparse one
  (duplicates too, as the CPU's; zeros where a sparse one has none).
- `add` (and `add_`, `out=`): dense + sparse adds the entries' values into the dense result;
  sparse + sparse concatenates both operands' entries (uncoalesced, as on the CPU); sparse +
  dense raises the CPU's error.
- `mul` by a number (or a zero-dimensional tensor): the values scaled; by a dense tensor of
  the same shape: each entry's value times the dense element at its position; by a sparse
  tensor: the positions both specify (found by `searchsorted` over coalesced positions).
- `mm` and `addmm` of a 2-D sparse matrix and a dense one (either order; `torch.sparse.mm`,
  `@`): each entry's value times a row of the dense matrix, added into its row of the result
  (`index_add`); their gradients through PyTorch's formulas.
- `torch.sparse.softmax` / `log_softmax` and their gradients: over the entries that share
  every sparse index but the one along `dim` (unspecified elements count as -inf), or along
  a dense dimension of the values; float32 and float64, as on the CPU and CUDA.
- `_sparse_sum_backward` (`torch.sparse.sum`'s gradient): each entry takes the gradient of
  the element it was summed into.
- `bmm` of a 3-D sparse batch and a dense one (each entry's value times a row of its
  batch's matrix); `index_select` (the entries along `dim` matched to `index` by binary
  search, repeats included).
- `mm` of two sparse matrices (`_sparse_sparse_matmul`): every pair of entries that meet
  (`repeat_interleave` over each row's entry count), coalesced.
- `hspmm` (sparse @ dense as a hybrid tensor): the coalesced matrix's rows that hold entries,
  each with its row of the product, the entries of a row added in their order, as the CPU's.
  `sspaddmm` (and `smm`) append those rows, each as whole, to the scaled entries of `self`.
"""

import torch

from ._complex import _name


def _positions(indices, sizes):
    """The row-major linear position of each entry's sparse index."""
    position = torch.zeros(indices.shape[1], dtype=torch.int64, device=indices.device)
    for d, size in enumerate(sizes):
        position = position * size + indices[d]
    return position


def _unravel(position, sizes):
    """Inverse of `_positions`: (sparse_dim, n) indices."""
    rows = []
    for size in reversed(sizes):
        rows.append(position % size)
        position = torch.div(position, size, rounding_mode="floor")
    return torch.stack(rows[::-1]) if rows else position.new_empty(0, position.numel())


def _sparse(indices, values, shape, coalesced):
    """A sparse tensor of entries known to be valid (no checks, as ATen's own kernels)."""
    return torch.ops.aten._sparse_coo_tensor_unsafe(
        indices, values, list(shape), is_coalesced=coalesced
    )


def coalesce(self):
    sizes = list(self.shape[: self.sparse_dim()])
    indices, values = self._indices(), self._values()
    if self._nnz() == 0 or self.sparse_dim() == 0:
        if self.sparse_dim() == 0 and self._nnz() > 1:
            values = values.sum(0, keepdim=True)
            indices = indices[:, :1]
        return _sparse(indices, values, self.shape, True)
    position = _positions(indices, sizes)
    order = position.argsort(stable=True)
    position = position[order]
    unique, inverse = torch.unique_consecutive(position, return_inverse=True)
    merged = values.new_zeros((unique.numel(), *values.shape[1:]))
    merged.index_add_(0, inverse, values[order])
    return _sparse(_unravel(unique, sizes), merged, self.shape, True)


def dense_to_sparse(self, sparse_dim):
    if not 0 <= sparse_dim <= self.dim():
        raise RuntimeError(
            f"dense_to_sparse: sparse_dim argument must be in [0,{self.dim()}] range, but "
            f"{sparse_dim} is given"
        )
    if sparse_dim == 0 and self.dim() > 0:
        raise RuntimeError("dense_to_sparse: sparse_dim argument must be in >0 when self.dim()>0")
    kept = self != 0
    if sparse_dim < self.dim():
        kept = kept.any(tuple(range(sparse_dim, self.dim())))
    if self.dim() == 0:
        nnz = int(kept)
        indices = torch.zeros(0, nnz, dtype=torch.int64, device=self.device)
        return _sparse(indices, self[None][:nnz], self.shape, True)
    indices = kept.nonzero().T.contiguous()
    return _sparse(indices, self[tuple(indices)], self.shape, True)


def to_sparse(self, *, layout=None, blocksize=None, dense_dim=None):
    if layout not in (None, torch.sparse_coo):
        raise NotImplementedError(
            f"The operator 'aten::_to_sparse' is not implemented for the mojo device ({layout})"
        )
    return dense_to_sparse(self, self.dim() - (dense_dim or 0))


def _scatter_into(dense, sparse, alpha=1):
    """dense[index] += alpha * value for every entry of `sparse` (in place)."""
    values = sparse._values()
    if alpha != 1:
        values = values * alpha
    index = tuple(sparse._indices())
    dense.index_put_(index, values.to(dense.dtype), accumulate=True)
    return dense


def to_dense(self, dtype=None, masked_grad=None):
    dense = torch.zeros(self.shape, dtype=dtype or self.dtype, device=self.device)
    return _scatter_into(dense, self)


def _lookup(sorted_positions, wanted):
    """For each wanted position, where it is in `sorted_positions` and whether it is there."""
    if sorted_positions.numel() == 0:
        return wanted.new_zeros(wanted.shape), torch.zeros_like(wanted, dtype=torch.bool)
    at = torch.searchsorted(sorted_positions, wanted).clamp_(max=sorted_positions.numel() - 1)
    return at, sorted_positions[at] == wanted


def sparse_mask(self, mask):
    """self's values at each of mask's entries, duplicates too (zeros where a sparse self
    has none)."""
    coalesced = mask.is_coalesced()
    if not self.is_sparse:
        values = self[tuple(mask._indices())]
        return _sparse(mask._indices(), values, mask.shape, coalesced)
    source = self.coalesce()
    sizes = list(mask.shape[: mask.sparse_dim()])
    at, hit = _lookup(_positions(source._indices(), sizes), _positions(mask._indices(), sizes))
    found = source._values()[at] if source._nnz() else source._values().new_zeros(0)
    shape = (mask._nnz(), *source._values().shape[1:])
    values = torch.where(hit.view(-1, *[1] * (len(shape) - 1)), found, found.new_zeros(()))
    return _sparse(mask._indices(), values.expand(shape).contiguous(), mask.shape, coalesced)


def add_out(self, other, *, alpha=1, out):
    if out.is_sparse:
        values = torch.cat([self._values(), other._values() * alpha])
        indices = torch.cat([self._indices(), other._indices()], 1)
        return out.copy_(_sparse(indices, values, self.shape, False))
    if self.is_sparse:
        raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) instead.")
    if out is not self:
        out.resize_(self.shape).copy_(self)
    return _scatter_into(out, other, alpha)


def add(self, other, *, alpha=1):
    if self.is_sparse and other.is_sparse:
        out = torch.empty(0, dtype=self.dtype, device=self.device, layout=torch.sparse_coo)
    else:
        dtype = torch.result_type(self, other)
        out = torch.empty(0, dtype=dtype, device=(other if self.is_sparse else self).device)
    return add_out(self, other, alpha=alpha, out=out)


def add_(self, other, *, alpha=1):
    return add_out(self, other, alpha=alpha, out=self)


def _intersection(a, b):
    """The entries at positions both sparse tensors specify, values multiplied (coalesced)."""
    dtype = torch.result_type(a, b)
    a, b = a.coalesce(), b.coalesce()
    sizes = list(a.shape[: a.sparse_dim()])
    at, hit = _lookup(_positions(b._indices(), sizes), _positions(a._indices(), sizes))
    kept = hit.nonzero().squeeze(1)
    match = at[kept]
    values = a._values()[kept].to(dtype) * b._values()[match].to(dtype)
    return _sparse(a._indices()[:, kept], values, a.shape, True)


def mul(self, other):
    if not isinstance(other, torch.Tensor) or (other.dim() == 0 and not other.is_sparse):
        return _sparse(self._indices(), self._values() * other, self.shape, self.is_coalesced())
    if self.shape != other.shape:
        raise RuntimeError(
            f"mul operands have incompatible sizes: {tuple(self.shape)} and {tuple(other.shape)}"
        )
    if self.is_sparse and other.is_sparse:
        return _intersection(self, other)
    sparse, dense = (self, other) if self.is_sparse else (other, self)
    values = sparse._values() * dense[tuple(sparse._indices())]
    return _sparse(sparse._indices(), values, sparse.shape, sparse.is_coalesced())


def _check_product(sparse, dense):
    if sparse.sparse_dim() != 2 or sparse.dense_dim() != 0 or dense.dim() != 2:
        raise RuntimeError(
            "mojo: sparse matrix products take a 2-D sparse matrix (no dense dimensions) and a "
            f"2-D dense one, got {sparse.sparse_dim()} sparse and {sparse.dense_dim()} dense "
            f"dimensions times {dense.dim()} dimensions"
        )
    _check_inner_sizes(sparse, dense)


def _check_inner_sizes(a, b):
    """Two 2-D matrices whose product is defined, with PyTorch's message otherwise."""
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
            f"{b.shape[0]}x{b.shape[1]})"
        )


def _product(sparse, dense):
    """sparse @ dense: each entry's value times its column's row of `dense`, added into its
    row of the result."""
    _check_product(sparse, dense)
    rows, columns = sparse._indices()
    dtype = torch.promote_types(sparse.dtype, dense.dtype)
    out = torch.zeros(sparse.shape[0], dense.shape[1], dtype=dtype, device=dense.device)
    return out.index_add_(0, rows, sparse._values()[:, None].to(dtype) * dense[columns])


def hspmm(mat1, mat2):
    """mat1 @ mat2 as a sparse tensor of one sparse and one dense dimension: the rows of
    coalesced `mat1` that hold entries, each with its row of the product."""
    for number, matrix, ndim in ((2, mat1, mat1.sparse_dim()), (3, mat2, mat2.dim())):
        if ndim != 2:
            raise RuntimeError(f"hspmm: Argument #{number}: matrices expected, got {ndim}D tensor")
        if number == 2 and matrix.dense_dim() != 0:
            raise RuntimeError(
                f"hspmm: Argument #2: scalar values expected, got {matrix.dense_dim()}D values"
            )
    if mat1.shape[1] != mat2.shape[0]:
        raise RuntimeError(
            f"hspmm: Argument #3: Expected dim 0 size {mat1.shape[1]}, got {mat2.shape[0]}"
        )
    if mat1.dtype != mat2.dtype:
        raise RuntimeError(
            f"expected scalar type {_name(mat1.dtype)} but found {_name(mat2.dtype)}"
        )
    held, out = _product_rows(mat1, mat2)
    return _sparse(held[None], out, (mat1.shape[0], mat2.shape[1]), False)


def _product_rows(mat1, mat2, alpha=1):
    """The rows of coalesced `mat1` that hold entries, and each one's row of mat1 @ mat2: its
    entries, each times `alpha` (cast to the values' type as the CPU casts it), added in
    order."""
    coalesced = mat1.coalesce()
    (rows, columns), values = coalesced._indices(), coalesced._values()
    held, row = torch.unique_consecutive(rows, return_inverse=True)
    if alpha != 1:
        values = values * (
            alpha if values.is_floating_point() or values.is_complex() else int(alpha)
        )
    out = values.new_zeros((held.numel(), mat2.shape[1]))
    out.index_add_(0, row, values[:, None] * mat2[columns])
    return held, out


def sspaddmm_out(self, mat1, mat2, *, beta=1, alpha=1, out):
    """beta * self + alpha * (mat1 @ mat2) as an uncoalesced sparse matrix laid out as the
    CPU's: self's entries scaled by beta, then each row of coalesced `mat1` that holds entries
    with its whole row of the product (each entry scaled by alpha, then added in order). CUDA
    has no kernel for it; `torch.smm` calls it with `out` as `self`."""
    checks = [
        (
            mat1.sparse_dim() == 2,
            f"Argument #2: matrices expected, got {mat1.sparse_dim()}D tensor",
        ),
        (
            mat1.dense_dim() == 0,
            f"Argument #2: scalar values expected, got {mat1.dense_dim()}D values",
        ),
        (mat2.dim() == 2, f"Argument #2: matrices expected, got {mat2.dim()}D tensor"),
    ]
    for ok, message in checks:
        if not ok:
            raise RuntimeError(f"sspaddmm: {message}")
    rows, inner = mat1.shape
    columns = mat2.shape[1]
    if self is out:
        # The CPU resizes `out` before its checks, so an `out` that is `self` (smm) is empty.
        self = _sparse(mat1._indices()[:, :0], mat1._values()[:0], (rows, columns), False)
    for number, dim, size, got in (
        (3, 0, inner, mat2.shape[0]),
        (1, 0, rows, self.shape[0]),
        (1, 1, columns, self.shape[1]),
    ):
        if size != got:
            raise RuntimeError(
                f"sspaddmm: Argument #{number}: Expected dim {dim} size {size}, got {got}"
            )
    if mat1.dtype != mat2.dtype:
        raise RuntimeError(
            f"expected scalar type {_name(mat1.dtype)} but found {_name(mat2.dtype)}"
        )
    held, product = _product_rows(mat1, mat2, alpha)
    column = torch.arange(columns, device=held.device)
    indices = torch.cat(
        [
            self._indices(),
            torch.stack([held.repeat_interleave(columns), column.repeat(held.numel())]),
        ],
        1,
    )
    scaled = self._values().to(product.dtype)
    if self._nnz():
        scaled.mul_(beta)
    values = torch.cat([scaled, product.reshape(-1)])
    return out.copy_(_sparse(indices, values, (rows, columns), False))


def sparse_product(self, other):
    """self @ other of two 2-D sparse matrices, coalesced: each entry (i, k) of `self` meets
    the entries of row k of `other`, and the products at equal positions are added."""
    for name, matrix in (("self", self), ("other", other)):
        if matrix.sparse_dim() != 2 or matrix.dense_dim() != 0:
            raise RuntimeError(
                f"sparse @ sparse: expected {name} to be a 2-D sparse matrix (no dense "
                f"dimensions), got {matrix.sparse_dim()} sparse and {matrix.dense_dim()} dense"
            )
    _check_inner_sizes(self, other)
    a, b = self.coalesce(), other.coalesce()
    (rows, inner), (other_rows, columns) = a._indices(), b._indices()
    device = a.device
    starts = torch.searchsorted(other_rows, torch.arange(b.shape[0] + 1, device=device))
    owner, picked = _matches(starts[inner], starts[inner + 1] - starts[inner])
    dtype = torch.promote_types(a.dtype, b.dtype)
    values = a._values()[owner].to(dtype) * b._values()[picked].to(dtype)
    indices = torch.stack([rows[owner], columns[picked]])
    return _sparse(indices, values, (a.shape[0], b.shape[1]), False).coalesce()


def batched_product(batch1, batch2):
    """A batch of sparse matrices (3-D COO) times a batch of dense ones."""
    if batch1.dim() != 3 or batch2.dim() != 3 or batch1.shape[0] != batch2.shape[0]:
        raise RuntimeError(
            f"bmm: expected two 3-D tensors with the same batch size, got {tuple(batch1.shape)} "
            f"and {tuple(batch2.shape)}"
        )
    if batch1.shape[2] != batch2.shape[1]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{batch1.shape[0]}, {batch1.shape[2]}] but got: "
            f"[{batch2.shape[0]}, {batch2.shape[1]}]."
        )
    batches, rows, _ = batch1.shape
    if batch1.sparse_dim() != 3:
        raise RuntimeError("bmm: expected a sparse batch with three sparse dimensions")
    batch, row, col = batch1._indices()
    dtype = torch.promote_types(batch1.dtype, batch2.dtype)
    out = torch.zeros(batches * rows, batch2.shape[2], dtype=dtype, device=batch2.device)
    terms = batch1._values()[:, None].to(dtype) * batch2[batch, col]
    return out.index_add_(0, batch * rows + row, terms).view(batches, rows, -1)


def sum_backward(grad, self, dim):
    """The gradient of `torch.sparse.sum(self, dim)` at self's entries: each entry takes the
    gradient of the element it was summed into (a dense `grad` when every sparse dimension
    was summed, else a sparse one; zero where it has no entry there)."""
    self = self.coalesce()
    dims = sorted({d % self.dim() for d in dim})
    sparse_dims = self.sparse_dim()
    kept = [d for d in range(sparse_dims) if d not in dims]
    nnz = self._nnz()
    if grad.is_sparse:
        grad = grad.coalesce()
        sizes = [self.shape[d] for d in kept]
        at, hit = _lookup(
            _positions(grad._indices(), sizes), _positions(self._indices()[kept], sizes)
        )
        found = grad._values()[at] if grad._nnz() else grad._values().new_zeros(0)
        hit = hit.view(-1, *[1] * (found.dim() - 1))
        values = torch.where(hit, found, found.new_zeros(())) if nnz else found[:0]
    else:
        values = grad.unsqueeze(0).expand(nnz, *grad.shape)
    for d in dims:  # each summed dense dimension comes back, broadcast
        if d >= sparse_dims:
            values = values.unsqueeze(d - sparse_dims + 1)
    values = values.expand(nnz, *self.shape[sparse_dims:]).to(self.dtype).contiguous()
    return _sparse(self._indices(), values, self.shape, True)


def bmm(self, mat2):
    return batched_product(self, mat2)


def bmm_out(self, mat2, *, out):
    result = batched_product(self, mat2)
    return out.resize_(result.shape).copy_(result)


def _matches(first, count):
    """For `count[e]` matches of entry e starting at `first[e]` in some sorted list: the
    entry behind each match, and the match's place in that list."""
    owner = torch.repeat_interleave(count)
    before = (count.cumsum(0) - count)[owner]
    return owner, first[owner] + torch.arange(owner.numel(), device=count.device) - before


def index_select(self, dim, index):
    """The entries whose index along `dim` is among `index`, once per time it is (their
    index along `dim` becomes the position in `index`)."""
    dim = dim % self.dim()
    if index.dim() > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    size = list(self.shape)
    size[dim] = index.numel()
    indices, values = self._indices(), self._values()
    if dim >= self.sparse_dim():
        picked = values.index_select(dim - self.sparse_dim() + 1, index)
        return _sparse(indices, picked, size, self.is_coalesced())
    order = index.argsort(stable=True)
    ordered = index[order]
    first = torch.searchsorted(ordered, indices[dim])
    count = torch.searchsorted(ordered, indices[dim], right=True) - first
    owner, place = _matches(first, count)
    kept = indices[:, owner].clone()
    kept[dim] = order[place]
    return _sparse(kept, values[owner], size, False)


def mm(self, mat2):
    if self.is_sparse and not mat2.is_sparse:
        return _product(self, mat2)
    if mat2.is_sparse and not self.is_sparse:  # dense @ sparse = (sparse^T @ dense^T)^T
        return _product(mat2.t(), self.t()).t()
    return sparse_product(self, mat2)


def blend(self, product, beta, alpha):
    """beta * self + alpha * product; self is ignored when beta is 0 (NaN included)."""
    result = product * alpha if alpha != 1 else product
    if beta == 0:
        return result
    return torch.add(self * beta if beta != 1 else self, result)


def addmm(self, mat1, mat2, *, beta=1, alpha=1):
    return blend(self, mm(mat1, mat2), beta, alpha)


def _softmax_groups(self, dim, name):
    """The coalesced input, the group of each entry (the entries that share every sparse
    index but the one along `dim`; None where `dim` is a dense dimension), the number of
    groups, and `dim` made non-negative."""
    if self.dtype not in (torch.float32, torch.float64):
        raise RuntimeError(f"\"{name}\" not implemented for '{_type_name(self.dtype)}'")
    dim = dim % self.dim()
    coalesced = self.coalesce()
    if dim >= coalesced.sparse_dim() or coalesced._nnz() == 0:
        return coalesced, None, 0, dim
    indices = coalesced._indices().clone()
    indices[dim] = 0
    position = _positions(indices, list(coalesced.shape[: coalesced.sparse_dim()]))
    unique, group = torch.unique(position, return_inverse=True)
    return coalesced, group, unique.numel(), dim


def _type_name(dtype):
    return {torch.float16: "Half", torch.bfloat16: "BFloat16"}.get(dtype, str(dtype))


def _group_sum(values, group, groups):
    """Each entry's group total (over the entries' first dimension)."""
    totals = values.new_zeros((groups, *values.shape[1:]))
    return totals.index_add_(0, group, values)[group]


def _softmax(self, dim, log, name):
    coalesced, group, groups, dim = _softmax_groups(self, dim, name)
    values = coalesced._values()
    if group is None:  # along a dense dimension, or no entries
        along = dim - coalesced.sparse_dim() + 1
        if values.numel():
            values = (torch.log_softmax if log else torch.softmax)(values, along)
        return _sparse(coalesced._indices(), values, self.shape, True)
    target = group.view(-1, *[1] * (values.dim() - 1)).expand_as(values)
    top = values.new_full((groups, *values.shape[1:]), float("-inf"))
    top = top.scatter_reduce_(0, target, values, "amax")[group]
    shifted = values - top
    total = _group_sum(shifted.exp(), group, groups)
    out = shifted - total.log() if log else shifted.exp() / total
    return _sparse(coalesced._indices(), out, self.shape, True)


def softmax(self, dim, half_to_float):
    return _softmax(self, dim, False, "softmax")


def log_softmax(self, dim, half_to_float):
    return _softmax(self, dim, True, "log_softmax")


def _softmax_backward(grad_output, output, dim, log):
    """The gradient at output's entries: softmax's out * (g - sum(g * out)), log_softmax's
    g - exp(out) * sum(g), the sums over each group (or the dense dimension)."""
    _, group, groups, dim = _softmax_groups(output, dim, "softmax_backward")
    out = output._values()
    grad = grad_output.coalesce()
    same = grad._nnz() == output._nnz() and torch.equal(grad._indices(), output._indices())
    g = grad._values() if same else grad.to_dense()[tuple(output._indices())]
    if group is None:
        along = dim - output.sparse_dim() + 1

        def total(x):
            return x.sum(along, keepdim=True)
    else:

        def total(x):
            return _group_sum(x, group, groups)

    values = g - out.exp() * total(g) if log else out * (g - total(g * out))
    return _sparse(output._indices(), values, output.shape, True)


def softmax_backward(grad_output, output, dim, self):
    return _softmax_backward(grad_output, output, dim, False)


def log_softmax_backward(grad_output, output, dim, self):
    return _softmax_backward(grad_output, output, dim, True)


# For dense mojo tensors (PrivateUse1).
DENSE_KERNELS = {"_to_sparse.sparse_dim": dense_to_sparse, "_to_sparse": to_sparse}

KERNELS = {
    "_coalesce": coalesce,
    "_to_dense": to_dense,
    "sparse_mask": sparse_mask,
    "add.out": add_out,
    "add.Tensor": add,
    "add_.Tensor": add_,
    "mul.Tensor": mul,
    "mul.Scalar": mul,
    "mm": mm,
    "bmm": bmm,
    "_sparse_sum_backward": sum_backward,
    "bmm.out": bmm_out,
    "index_select": index_select,
    "_sparse_softmax": softmax,
    "_sparse_log_softmax": log_softmax,
    "_sparse_softmax_backward_data": softmax_backward,
    "_sparse_log_softmax_backward_data": log_softmax_backward,
    "_sparse_sparse_matmul": sparse_product,
    "addmm": addmm,
    "hspmm": hspmm,
    "sspaddmm.out": sspaddmm_out,
}
