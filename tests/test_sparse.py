"""Sparse COO tensors on mojo against the CPU: conversions both ways, construction with
duplicates and coalescing (past 65,536 entries), sums with dense and sparse operands, scaling,
moves between devices, nn.Embedding(sparse=True) trained by SGD, an op without a sparse
kernel, and two threads at once."""

import re
import threading

import pytest
import torch


def dense_with_zeros(shape, dtype=torch.float32, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(shape, generator=g) * (torch.rand(shape, generator=g) > 0.6)
    return x.to(dtype)


def assert_same_sparse(actual, expected):
    """Same layout, shape, coalesced flag, indices and values."""
    assert actual.layout == torch.sparse_coo and actual.device.type == "mojo"
    assert actual.shape == expected.shape and actual.is_coalesced() == expected.is_coalesced()
    assert torch.equal(actual._indices().cpu(), expected._indices())
    assert torch.equal(actual._values().cpu(), expected._values())


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool, torch.complex64])
@pytest.mark.parametrize("sparse_dim", [None, 1, 2])
def test_to_sparse_and_back(device, dtype, sparse_dim):
    x = dense_with_zeros((5, 4, 3), dtype)
    args = () if sparse_dim is None else (sparse_dim,)
    actual = x.to(device).to_sparse(*args)
    assert_same_sparse(actual, x.to_sparse(*args))
    assert torch.equal(actual.to_dense().cpu(), x)
    assert torch.equal(actual.cpu().to_dense(), x)


@pytest.mark.parametrize("nnz", [5, 70_001])
def test_duplicates_coalesce_as_on_the_cpu(device, nnz):
    g = torch.Generator().manual_seed(nnz)
    indices = torch.randint(0, 40, (2, nnz), generator=g)
    values = torch.randn(nnz, 3, generator=g)
    expected = torch.sparse_coo_tensor(indices, values, (40, 40, 3))
    actual = torch.sparse_coo_tensor(indices.to(device), values.to(device), (40, 40, 3))
    assert not actual.is_coalesced()
    torch.testing.assert_close(actual.coalesce().cpu().to_dense(), expected.to_dense())
    assert torch.equal(actual.coalesce()._indices().cpu(), expected.coalesce()._indices())
    torch.testing.assert_close(actual.coalesce()._values().cpu(), expected.coalesce()._values())
    torch.testing.assert_close(actual.to_dense().cpu(), expected.to_dense())


def test_sums_and_scaling(device):
    x = dense_with_zeros((6, 5))
    s = dense_with_zeros((6, 5), seed=1).to_sparse()
    t = dense_with_zeros((6, 5), seed=2).to_sparse()
    ms, mt = s.to(device), t.to(device)
    torch.testing.assert_close((x.to(device) + ms).cpu(), x + s)
    for a, b in ((s, x), (ms, x.to(device))):
        with pytest.raises(RuntimeError, match="add\\(sparse, dense\\) is not supported"):
            a + b
    scaled = torch.add(x.to(device), ms, alpha=-2)
    torch.testing.assert_close(scaled.cpu(), torch.add(x, s, alpha=-2))
    torch.testing.assert_close((ms + mt).to_dense().cpu(), (s + t).to_dense())
    torch.testing.assert_close((ms * 3).to_dense().cpu(), (s * 3).to_dense())
    y = x.to(device)
    y.add_(ms, alpha=0.5)
    torch.testing.assert_close(y.cpu(), x.add(s, alpha=0.5))
    u = ms.clone()
    u.add_(mt)
    torch.testing.assert_close(u.to_dense().cpu(), (s + t).to_dense())


def test_moves_between_devices(device):
    s = dense_with_zeros((4, 7), seed=3).to_sparse()
    m = s.to(device)
    assert_same_sparse(m, s)
    assert_same_sparse(m.clone(), s)
    back = m.cpu()
    assert back.device.type == "cpu" and torch.equal(back.to_dense(), s.to_dense())


def train_embedding(device, steps=4):
    torch.manual_seed(0)
    embedding = torch.nn.Embedding(50, 8, sparse=True).to(device)
    optimizer = torch.optim.SGD(embedding.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(1)
    for _ in range(steps):
        ids = torch.randint(0, 50, (32,), generator=g).to(device)
        optimizer.zero_grad()
        loss = embedding(ids).square().sum()
        loss.backward()
        assert embedding.weight.grad.layout == torch.sparse_coo
        optimizer.step()
    return embedding.weight.detach().cpu()


def test_sparse_embedding_trains_as_on_the_cpu(device):
    torch.testing.assert_close(train_embedding(device), train_embedding("cpu"))


def sparse_products(device):
    s = dense_with_zeros((70, 40), seed=4).to_sparse().to(device).requires_grad_()
    w = torch.randn(40, 3, generator=torch.Generator().manual_seed(5)).to(device)
    w.requires_grad_()
    x = torch.randn(5, 70, generator=torch.Generator().manual_seed(6)).to(device)
    results = [
        torch.sparse.mm(s, w),
        s @ w,
        torch.addmm(torch.ones(70, 3, device=device), s, w, beta=0.5, alpha=2),
        x @ s,
    ]
    sum(
        (r * torch.arange(r.numel(), device=device).view(r.shape)).sum() for r in results
    ).backward()
    return [r.detach().cpu() for r in results] + [w.grad.cpu(), s.grad.to_dense().cpu()]


def test_sparse_matrix_products_and_their_gradients(device):
    # float32 sums in another order: within a few roundings of the largest entry.
    for ours, theirs in zip(sparse_products(device), sparse_products("cpu"), strict=True):
        scale = theirs.abs().max().item()
        torch.testing.assert_close(ours, theirs, rtol=1e-5, atol=1e-6 * scale)


@pytest.mark.parametrize("size", [6, 300])
def test_products_of_two_sparse_matrices(device, size):
    """sparse @ sparse (uncoalesced operands; at 300 about 67,000 products meet, past
    65,536) and the elementwise products sparse * sparse and sparse * dense."""
    a = dense_with_zeros((size, size + 1), seed=3)
    b = dense_with_zeros((size + 1, size - 1), seed=4)
    if size > 100:
        g = torch.Generator().manual_seed(size)
        a = a * (torch.rand(a.shape, generator=g) < 0.13)
        b = b * (torch.rand(b.shape, generator=g) < 0.13)
    sa = a.to_sparse()
    twice = torch.sparse_coo_tensor(  # every entry split in two halves: not coalesced
        torch.cat([sa._indices()] * 2, 1), torch.cat([sa._values() / 2] * 2), sa.shape
    )
    sb = b.to_sparse()
    expected = torch.sparse.mm(twice, sb)
    for actual in (
        torch.sparse.mm(twice.to(device), sb.to(device)),
        twice.to(device) @ sb.to(device),
    ):
        assert actual.layout == torch.sparse_coo and actual.is_coalesced()
        assert torch.equal(actual._indices().cpu(), expected._indices())
        torch.testing.assert_close(actual._values().cpu(), expected._values())
    c = dense_with_zeros((size, size + 1), seed=5).to_sparse()
    for x, y in ((sa, c), (sa, a.T.contiguous().T), (a, c)):
        expected = x * y
        actual = x.to(device) * y.to(device)
        assert actual.layout == torch.sparse_coo
        torch.testing.assert_close(actual.to_dense().cpu(), expected.to_dense())


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64])
@pytest.mark.parametrize("rows", [7, 70_001])
def test_hspmm(device, dtype, rows):
    """sparse @ dense as a hybrid tensor: the coalesced rows holding entries (an empty row
    left out, duplicates merged first; past 65,536 rows), their products as the CPU's, and
    the CPU's errors."""
    g = torch.Generator().manual_seed(rows)
    nnz = 2 * rows
    indices = torch.stack(
        [torch.randint(0, rows, (nnz,), generator=g), torch.randint(0, 5, (nnz,), generator=g)]
    )
    indices[0][indices[0] == 1] = 0  # row 1 stays empty
    values = torch.randint(-9, 10, (nnz,), generator=g).to(dtype)
    mat1 = torch.sparse_coo_tensor(indices, values, (rows, 5))
    mat2 = torch.randint(-9, 10, (5, 3), generator=g).to(dtype)
    expected = torch.hspmm(mat1, mat2)
    actual = torch.hspmm(mat1.to(device), mat2.to(device))
    assert actual.sparse_dim() == 1 and actual.dense_dim() == 1
    assert_same_sparse(actual, expected)  # small integers: every order sums exactly
    for a, b in ((mat1, mat2[:4]), (mat1, mat2[..., None]), (mat1, mat2.double())):
        with pytest.raises(RuntimeError) as cpu:
            torch.hspmm(a, b)
        with pytest.raises(RuntimeError, match=re.escape(str(cpu.value))):
            torch.hspmm(a.to(device), b.to(device))


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64])
@pytest.mark.parametrize("rows", [7, 70_001])
def test_sspaddmm_and_smm(device, dtype, rows):
    """beta * self + alpha * (sparse @ dense) as the CPU lays it out (self's entries, then the
    whole product row of each row holding entries; uncoalesced), smm, and the CPU's errors.
    Small integers, so every order of additions gives the same values."""
    g = torch.Generator().manual_seed(rows)
    nnz = 2 * rows
    indices = torch.stack(
        [torch.randint(0, rows, (nnz,), generator=g), torch.randint(0, 5, (nnz,), generator=g)]
    )
    indices[0][indices[0] == 1] = 0  # row 1 stays empty
    mat1 = torch.sparse_coo_tensor(
        indices, torch.randint(-9, 10, (nnz,), generator=g).to(dtype), (rows, 5)
    )
    mat2 = torch.randint(-9, 10, (5, 3), generator=g).to(dtype)
    self = torch.sparse_coo_tensor(
        torch.stack(
            [torch.randint(0, rows, (9,), generator=g), torch.randint(0, 3, (9,), generator=g)]
        ),
        torch.randint(-9, 10, (9,), generator=g).to(dtype),
        (rows, 3),
    )
    moved = [t.to(device) for t in (self, mat1, mat2)]
    assert_same_sparse(
        torch.sspaddmm(*moved, beta=3, alpha=2), torch.sspaddmm(self, mat1, mat2, beta=3, alpha=2)
    )
    assert_same_sparse(torch.smm(*moved[1:]), torch.smm(mat1, mat2))
    wrong = [
        torch.zeros(2, 3, dtype=dtype).to_sparse(),
        torch.zeros(rows, 4, dtype=dtype).to_sparse(),
    ]
    for args in (
        (self, mat1, mat2[:4]),
        (wrong[0], mat1, mat2),
        (wrong[1], mat1, mat2),
        (self, mat1, mat2[..., None]),
        (self, mat1, mat2.double()),
    ):
        with pytest.raises(RuntimeError) as cpu:
            torch.sspaddmm(*args)
        with pytest.raises(RuntimeError, match=re.escape(str(cpu.value))):
            torch.sspaddmm(*(t.to(device) for t in args))


def test_an_op_without_a_sparse_kernel_raises(device):
    s = dense_with_zeros((4, 4)).to_sparse().to(device)
    with pytest.raises(NotImplementedError, match="aten::exp"):
        s.exp()  # not zero-preserving: no sparse kernel on the CPU or CUDA either


def test_two_threads(device):
    inputs = [dense_with_zeros((30, 20), seed=10 + i) for i in range(2)]
    results = [None, None]

    def work(i):
        for _ in range(3):
            m = inputs[i].to(device).to_sparse()
            results[i] = (m + m).coalesce().to_dense().cpu()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for x, result in zip(inputs, results, strict=True):
        torch.testing.assert_close(result, x * 2)


@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize("dim", [0, 1, 2])
def test_softmax(device, log, dim):
    """torch.sparse.(log_)softmax over a sparse dimension or the dense one, duplicates
    included (coalesced first), with the gradient of the values, against the CPU."""
    g = torch.Generator().manual_seed(30 + dim)
    indices = torch.randint(0, 6, (2, 40), generator=g)
    values = torch.randn(40, 3, generator=g, dtype=torch.float64)
    function = torch.sparse.log_softmax if log else torch.sparse.softmax
    results = []
    for dev in ("cpu", device):
        leaf = values.detach().to(dev).requires_grad_()
        s = torch.sparse_coo_tensor(indices.to(dev), leaf, (6, 6, 3))
        out = function(s, dim)
        weights = torch.arange(6 * 6 * 3, dtype=torch.float64).view(6, 6, 3).sin().to(dev)
        (out.to_dense() * weights).sum().backward()
        results.append((out, leaf.grad))
    (expected, expected_grad), (actual, actual_grad) = results
    assert torch.equal(actual._indices().cpu(), expected._indices())
    torch.testing.assert_close(actual._values().cpu(), expected._values())
    torch.testing.assert_close(actual_grad.cpu(), expected_grad)
    with pytest.raises(RuntimeError, match="not implemented for 'Half'"):
        function(torch.sparse_coo_tensor(indices, values.half(), (6, 6, 3)).to(device), 0)


def test_sparse_mask_keeps_the_mask_entries(device):
    """Values at each entry of an uncoalesced mask, from a dense and from a sparse tensor
    (zeros where the sparse one has none), as on the CPU."""
    mask = torch.sparse_coo_tensor(
        torch.tensor([[1, 0, 1, 3], [2, 2, 2, 0]]), torch.ones(4), (4, 3)
    )
    dense = dense_with_zeros((4, 3), seed=40)
    for source in (dense, dense.to_sparse()):
        expected = source.sparse_mask(mask)
        actual = source.to(device).sparse_mask(mask.to(device))
        assert actual.is_coalesced() == expected.is_coalesced()
        assert torch.equal(actual._indices().cpu(), expected._indices())
        assert torch.equal(actual._values().cpu(), expected._values())


def uncoalesced_sample():
    """A 5×4 sparse matrix with a duplicate entry (not coalesced) and negative values."""
    indices = torch.tensor([[0, 1, 1, 4, 3], [2, 0, 0, 3, 1]])
    return torch.sparse_coo_tensor(indices, torch.tensor([0.5, -1.5, 2.0, 0.25, -0.75]), (5, 4))


UNARY = ["abs", "sgn", "asinh", "atan", "ceil", "erf", "expm1", "floor", "frac", "log1p"]
UNARY += ["neg", "relu", "round", "sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc"]
UNARY += ["isnan", "isinf", "isposinf", "signbit", "nan_to_num", "rad2deg"]


@pytest.mark.parametrize("op", UNARY)
def test_elementwise_on_values(device, op):
    s = uncoalesced_sample()
    expected = getattr(torch, op)(s)
    actual = getattr(torch, op)(s.to(device))
    assert actual.layout == torch.sparse_coo and actual.device.type == "mojo"
    torch.testing.assert_close(actual.to_dense().cpu(), expected.to_dense(), equal_nan=True)


CASES = {
    "div": lambda s, d: s / 4,
    "div_floor": lambda s, d: torch.div(s, 0.5, rounding_mode="floor"),
    "floor_divide": lambda s, d: torch.floor_divide(s, 0.5),
    "pow": lambda s, d: s.pow(3),
    "sub": lambda s, d: s - s.coalesce() * 3,
    "sum": lambda s, d: s.sum(),
    "sum_dim": lambda s, d: torch.sum(s, 1),
    "sparse_sum_dim": lambda s, d: torch.sparse.sum(s, 0),
    "any": lambda s, d: s.any(),
    "norm": lambda s, d: s.norm(),
    "mv": lambda s, d: s.coalesce().mv(torch.arange(4.0, device=d)),
    "cat": lambda s, d: torch.cat([s, s * 2], 1),
    "permute": lambda s, d: s.permute(1, 0),
    "unsqueeze": lambda s, d: s.unsqueeze(1),
    "narrow_copy": lambda s, d: s.narrow_copy(0, 1, 3),
    "broadcast_to": lambda s, d: torch._sparse_broadcast_to(s.coalesce(), (2, 5, 4)),
    "zeros_like": lambda s, d: torch.zeros_like(s),
    "index_select": lambda s, d: s.index_select(0, torch.tensor([4, 1, 1, 2], device=d)),
    "index_select_columns": lambda s, d: s.index_select(1, torch.tensor([0, 3], device=d)),
    "bmm": lambda s, d: torch.bmm(
        torch.stack([s, s * -1]).coalesce(), torch.arange(24.0, device=d).view(2, 4, 3)
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_reductions_shapes_and_products(device, case):
    """PyTorch's generic COO kernels registered for mojo and the ones composed for it,
    against the CPU (results compared densified)."""
    s = uncoalesced_sample()

    def dense(t):
        return t.to_dense() if t.layout != torch.strided else t

    expected = CASES[case](s, "cpu")
    actual = CASES[case](s.to(device), device)
    assert actual.device.type == "mojo" and actual.layout == expected.layout
    torch.testing.assert_close(dense(actual).cpu(), dense(expected))


@pytest.mark.parametrize("dim", [(0,), (1,), (0, 1), (2,), (1, 2)])
def test_sparse_sum_gradient(device, dim):
    """torch.sparse.sum over sparse and dense dimensions, backward to the values of an
    uncoalesced tensor, against the CPU."""
    indices = torch.tensor([[0, 1, 1, 4, 3], [2, 0, 0, 3, 1]])
    values = torch.arange(10.0).view(5, 2) - 4
    grads = []
    for dev in ("cpu", device):
        leaf = values.detach().to(dev).requires_grad_()
        s = torch.sparse_coo_tensor(indices.to(dev), leaf, (5, 4, 2))
        out = torch.sparse.sum(s, dim)
        out = out.to_dense() if out.is_sparse else out
        (out * torch.arange(out.numel(), device=dev).view(out.shape).sin()).sum().backward()
        grads.append(leaf.grad.cpu())
    torch.testing.assert_close(grads[1], grads[0])
