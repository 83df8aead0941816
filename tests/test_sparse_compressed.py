"""Sparse compressed tensors (CSR, CSC, BSR, BSC) on mojo against the CPU: conversions every
way with their members compared bit for bit (batched, past 65,536 entries, int32 indices),
matrix products in both orders and their gradients, sampled_addmm, sums with dense and sparse
operands, reductions, elementwise ops on the values, moves between devices, errors, a graph
convolution trained by SGD, and two threads at once."""

import threading

import pytest
import torch

LAYOUTS = {
    "csr": lambda t: t.to_sparse_csr(),
    "csc": lambda t: t.to_sparse_csc(),
    "bsr": lambda t: t.to_sparse_bsr((2, 2)),
    "bsc": lambda t: t.to_sparse_bsc((2, 2)),
}


def dense_with_zeros(shape, dtype=torch.float32, seed=0, density=0.4):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(shape, generator=g) * (torch.rand(shape, generator=g) < density)
    return x.to(dtype)


def members(t):
    """A compressed tensor's compressed indices, plain indices and values."""
    if t.layout in (torch.sparse_csr, torch.sparse_bsr):
        return t.crow_indices(), t.col_indices(), t.values()
    return t.ccol_indices(), t.row_indices(), t.values()


def assert_same_compressed(actual, expected, exact=True):
    """Same layout, shape and indices; values bit for bit, or within float tolerance."""
    assert actual.device.type == "mojo" and actual.layout == expected.layout
    assert actual.shape == expected.shape
    for a, e in zip(members(actual), members(expected), strict=True):
        assert a.dtype == e.dtype
        tolerance = {} if not exact and e.is_floating_point() else {"rtol": 0, "atol": 0}
        torch.testing.assert_close(a.cpu(), e, equal_nan=True, **tolerance)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool, torch.complex64])
def test_dense_to_compressed_and_back(device, layout, dtype):
    x = dense_with_zeros((6, 8), dtype)
    convert = LAYOUTS[layout]
    actual = convert(x.to(device))
    assert_same_compressed(actual, convert(x))
    assert torch.equal(actual.to_dense().cpu(), x)
    assert torch.equal(actual.cpu().to_dense(), x)


@pytest.mark.parametrize("layout", ["csr", "csc"])
def test_batched_conversions(device, layout):
    # The same number of entries in every matrix of the batch, as PyTorch requires.
    pattern = torch.rand(4, 6, generator=torch.Generator().manual_seed(3)) < 0.5
    x = torch.randn(3, 4, 6) * pattern
    convert = LAYOUTS[layout]
    actual = convert(x.to(device))
    assert_same_compressed(actual, convert(x))
    assert torch.equal(actual.to_dense().cpu(), x)


def test_between_layouts(device):
    x = dense_with_zeros((6, 8), seed=1)
    coo, csr = x.to_sparse(), x.to_sparse_csr()
    assert_same_compressed(coo.to(device).to_sparse_csr(), coo.to_sparse_csr())
    assert_same_compressed(csr.to(device).to_sparse_csc(), csr.to_sparse_csc())
    assert_same_compressed(csr.to_sparse_csc().to(device).to_sparse_csr(), csr)
    assert_same_compressed(csr.to(device).to_sparse_bsr((2, 4)), csr.to_sparse_bsr((2, 4)))
    assert_same_compressed(coo.to(device).to_sparse(layout=torch.sparse_csc), coo.to_sparse_csc())
    back = csr.to(device).to_sparse()
    assert back.layout == torch.sparse_coo and back.device.type == "mojo"
    assert torch.equal(back._indices().cpu(), csr.to_sparse()._indices())
    assert torch.equal(back._values().cpu(), csr.to_sparse()._values())


@pytest.mark.parametrize("out_int32", [False, True])
def test_index_conversions(device, out_int32):
    crow = torch.tensor([[0, 1, 3, 3], [0, 2, 2, 3]])
    col = torch.tensor([[1, 0, 2], [0, 1, 1]])
    for transpose in (False, True):
        for c, p in ((crow, col), (crow[1], col[1])):
            expected = torch._convert_indices_from_csr_to_coo(
                c, p, out_int32=out_int32, transpose=transpose
            )
            actual = torch._convert_indices_from_csr_to_coo(
                c.to(device), p.to(device), out_int32=out_int32, transpose=transpose
            )
            assert actual.dtype == expected.dtype and torch.equal(actual.cpu(), expected)
    rows = torch.tensor([0, 0, 2, 2, 2, 5])
    for size in (6, 9):
        expected = torch._convert_indices_from_coo_to_csr(rows, size, out_int32=out_int32)
        actual = torch._convert_indices_from_coo_to_csr(rows.to(device), size, out_int32=out_int32)
        assert actual.dtype == expected.dtype and torch.equal(actual.cpu(), expected)


def test_past_65536_entries(device):
    """80,000 entries: the conversions and a product whose entries span many workgroups."""
    x = dense_with_zeros((400, 400), seed=2, density=0.5)
    w = torch.randn(400, 16, generator=torch.Generator().manual_seed(4))
    csr = x.to(device).to_sparse_csr()
    assert csr._nnz() > 65_536
    assert_same_compressed(csr, x.to_sparse_csr())
    assert_same_compressed(csr.to_sparse_csc(), x.to_sparse_csc())
    torch.testing.assert_close((csr @ w.to(device)).cpu(), x @ w, rtol=1e-4, atol=1e-4)
    assert torch.equal(csr.to_dense().cpu(), x)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_products(device, layout):
    x = dense_with_zeros((6, 8), seed=5)
    w = torch.randn(8, 3)
    v = torch.randn(8)
    bias = torch.randn(6, 3)
    sparse = LAYOUTS[layout](x.to(device))
    close = torch.testing.assert_close
    close((sparse @ w.to(device)).cpu(), x @ w)
    close(torch.sparse.mm(sparse, w.to(device)).cpu(), x @ w)
    close(torch.mm(sparse, w.to(device)).cpu(), x @ w)
    close(
        torch.addmm(bias.to(device), sparse, w.to(device), beta=0.5, alpha=-2).cpu(),
        torch.addmm(bias, x, w, beta=0.5, alpha=-2),
    )
    close((sparse @ v.to(device)).cpu(), x @ v)
    close((w.T.to(device) @ LAYOUTS[layout](x.T.contiguous().to(device))).cpu(), w.T @ x.T)


def test_batched_product(device):
    pattern = torch.rand(5, 6, generator=torch.Generator().manual_seed(6)) < 0.5
    x = torch.randn(3, 5, 6) * pattern
    w = torch.randn(3, 6, 4)
    bias = torch.randn(3, 5, 4)
    csr = x.to(device).to_sparse_csr()
    torch.testing.assert_close(torch.bmm(csr, w.to(device)).cpu(), torch.bmm(x, w))
    torch.testing.assert_close(
        torch.baddbmm(bias.to(device), csr, w.to(device), alpha=2, beta=0.5).cpu(),
        torch.baddbmm(bias, x, w, alpha=2, beta=0.5),
    )


def test_product_gradients(device):
    """Gradients for both the dense operand and the CSR one (at its pattern)."""
    x = dense_with_zeros((7, 5), seed=7)
    w = torch.randn(5, 3)
    grads = []
    for dev in ("cpu", device):
        a = x.to(dev).to_sparse_csr().requires_grad_()
        b = w.detach().to(dev).requires_grad_()
        torch.sparse.mm(a, b).square().sum().backward()
        grads.append((a.grad.to_dense().cpu(), b.grad.cpu()))
    for actual, expected in zip(grads[1], grads[0], strict=True):
        torch.testing.assert_close(actual, expected)


@pytest.mark.parametrize("batched", [False, True])
def test_sampled_addmm(device, batched):
    g = torch.Generator().manual_seed(8)
    shape = (2, 5, 6) if batched else (5, 6)
    pattern = torch.rand(shape[-2:], generator=g) < 0.5
    x = torch.randn(shape, generator=g) * pattern
    a = torch.randn(*shape[:-1], 4, generator=g, requires_grad=True)
    b = torch.randn(*shape[:-2], 4, shape[-1], generator=g, requires_grad=True)
    ma, mb = (t.detach().to(device).requires_grad_() for t in (a, b))
    expected = torch.sparse.sampled_addmm(x.to_sparse_csr(), a, b, beta=0.5, alpha=2)
    actual = torch.sparse.sampled_addmm(x.to(device).to_sparse_csr(), ma, mb, beta=0.5, alpha=2)
    assert actual.layout == torch.sparse_csr
    assert torch.equal(actual.crow_indices().cpu(), expected.crow_indices())
    assert torch.equal(actual.col_indices().cpu(), expected.col_indices())
    torch.testing.assert_close(actual.values().cpu(), expected.values())
    if not batched:  # the CPU has no backward for batches
        expected.values().sum().backward()
        actual.values().sum().backward()
        torch.testing.assert_close(ma.grad.cpu(), a.grad)
        torch.testing.assert_close(mb.grad.cpu(), b.grad)


def test_sums_with_dense_and_sparse(device):
    x = dense_with_zeros((6, 5), seed=9)
    y = dense_with_zeros((6, 5), seed=10)
    d = torch.randn(6, 5)
    s, t = x.to_sparse_csr(), y.to_sparse_csr()
    ms, mt, md = s.to(device), t.to(device), d.to(device)
    torch.testing.assert_close((md + ms).cpu(), d + s)
    torch.testing.assert_close((ms + md).cpu(), s + d)
    torch.testing.assert_close(torch.add(md, ms, alpha=-2).cpu(), torch.add(d, s, alpha=-2))
    both = torch.add(ms, mt, alpha=3)
    assert_same_compressed(both, torch.add(s, t, alpha=3), exact=False)
    md += ms
    torch.testing.assert_close(md.cpu(), d + s)


@pytest.mark.parametrize("dim", [(0,), (1,), (0, 1), (-1,)])
def test_reductions(device, dim):
    x = dense_with_zeros((6, 5), seed=11)
    x[2] = 0  # an empty row
    csr = x.to_sparse_csr()
    assert_same_compressed(
        torch.sum(csr.to(device), dim, keepdim=True), torch.sum(csr, dim, keepdim=True)
    )
    ints = csr.to(torch.int32)
    assert_same_compressed(
        torch.sum(ints.to(device), dim, keepdim=True), torch.sum(ints, dim, keepdim=True)
    )
    prod = torch._sparse_csr_prod(csr.to(device), dim, True)
    assert_same_compressed(prod, torch._sparse_csr_prod(csr, dim, True))
    torch.testing.assert_close(torch.sum(csr.to(device)).cpu(), torch.sum(csr))
    with pytest.raises(RuntimeError, match="keepdim=False is unsupported"):
        torch.sum(csr.to(device), dim)


@pytest.mark.parametrize(
    "op",
    [torch.sin, torch.neg, torch.abs, torch.relu, torch.sqrt, torch.isnan, torch.sign, torch.tanh],
    ids=lambda f: f.__name__,
)
def test_elementwise_on_values(device, op):
    x = dense_with_zeros((6, 5), seed=12).abs() - 0.1 * (dense_with_zeros((6, 5), seed=12) != 0)
    csr = x.to_sparse_csr()
    exact = op not in (torch.sin, torch.tanh)  # transcendental: within float tolerance
    expected = op(csr)
    if op is torch.sqrt:
        # Correctly rounded, bit for bit: the CPU's own (MKL's vsSqrt) is not on every host
        # (1 ulp off on a fifth of float32 values on an AMD EPYC).
        expected = op(csr.to(torch.float64)).to(torch.float32)
    assert_same_compressed(op(csr.to(device)), expected, exact)


def test_scaling_and_in_place(device):
    x = dense_with_zeros((6, 5), seed=13)
    csr = x.to_sparse_csr()
    m = csr.to(device)
    assert_same_compressed(m * 2.5, csr * 2.5)
    assert_same_compressed(m * torch.tensor(-3.0, device=device), csr * torch.tensor(-3.0))
    m.mul_(2)
    assert_same_compressed(m, csr * 2)
    m.zero_()
    assert torch.equal(m.to_dense().cpu(), torch.zeros(6, 5))
    clone = csr.to(device).clone()
    assert_same_compressed(clone, csr)
    copy = torch.empty_like(csr.to(device))
    copy.copy_(csr.to(device))
    assert_same_compressed(copy, csr)


def test_moves_and_printing(device):
    x = dense_with_zeros((4, 5), seed=14)
    m = x.to_sparse_csr().to(device)
    assert m.device.type == "mojo" and m.layout == torch.sparse_csr
    assert torch.equal(m.cpu().to_dense(), x)
    assert_same_compressed(m.to(torch.float64), x.to_sparse_csr().to(torch.float64))
    text = str(m)
    assert "layout=torch.sparse_csr" in text and "device='mojo:0'" in text
    row = m.select(0, 2)
    assert row.device.type == "mojo"
    assert torch.equal(row.cpu().to_dense(), x.to_sparse_csr().select(0, 2).to_dense())


def test_product_of_two_compressed_matrices(device):
    a = dense_with_zeros((6, 5), seed=17).to_sparse_csr()
    b = dense_with_zeros((5, 4), seed=18).to_sparse_csr()
    expected = a @ b
    for actual in (a.to(device) @ b.to(device), torch.mm(a.to(device), b.to(device))):
        # The CPU's (MKL's) columns are unsorted within a row; mojo's are sorted, as CUDA's.
        assert actual.layout == torch.sparse_csr and actual.device.type == "mojo"
        assert torch.equal(actual.crow_indices().cpu(), expected.crow_indices())
        columns = actual.col_indices().cpu()
        for start, end in zip(
            expected.crow_indices()[:-1], expected.crow_indices()[1:], strict=True
        ):
            assert torch.equal(columns[start:end], columns[start:end].sort().values)
        torch.testing.assert_close(actual.to_dense().cpu(), expected.to_dense())


def test_errors_like_the_cpu(device):
    x = dense_with_zeros((6, 5), seed=15)
    m = x.to(device).to_sparse_csr()
    with pytest.raises(RuntimeError):
        m @ torch.randn(4, 3, device=device)
    with pytest.raises(RuntimeError):
        m @ m.to_sparse_csr()
    with pytest.raises(RuntimeError):
        torch.add(m, x.T.contiguous().to(device).to_sparse_csr())


def test_graph_convolution_trains_like_the_cpu(device):
    """Two GCN layers over a random graph's normalised adjacency, 10 SGD steps."""
    g = torch.Generator().manual_seed(16)
    nodes, features = 60, 8
    adjacency = (torch.rand(nodes, nodes, generator=g) < 0.1).float() + torch.eye(nodes)
    adjacency = adjacency / adjacency.sum(1, keepdim=True)
    x = torch.randn(nodes, features, generator=g)
    labels = torch.randint(0, 3, (nodes,), generator=g)

    def train(dev):
        torch.manual_seed(0)
        layers = torch.nn.ModuleList([torch.nn.Linear(features, 16), torch.nn.Linear(16, 3)])
        layers.to(dev)
        adj, inputs, target = adjacency.to(dev).to_sparse_csr(), x.to(dev), labels.to(dev)
        optimizer = torch.optim.SGD(layers.parameters(), lr=0.5)
        losses = []
        for _ in range(10):
            h = torch.relu(torch.sparse.mm(adj, layers[0](inputs)))
            out = torch.sparse.mm(adj, layers[1](h))
            loss = torch.nn.functional.cross_entropy(out, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        return losses, [p.detach().cpu() for p in layers.parameters()]

    expected_losses, expected = train("cpu")
    losses, actual = train(device)
    torch.testing.assert_close(losses, expected_losses, rtol=1e-4, atol=1e-5)
    for a, e in zip(actual, expected, strict=True):
        torch.testing.assert_close(a, e, rtol=1e-4, atol=1e-5)
    assert losses[-1] < losses[0]


def test_two_threads(device):
    errors = []

    def work(seed):
        try:
            for _ in range(3):
                x = dense_with_zeros((50, 40), seed=seed)
                w = torch.randn(40, 6, generator=torch.Generator().manual_seed(seed))
                csr = x.to(device).to_sparse_csr()
                assert_same_compressed(csr, x.to_sparse_csr())
                torch.testing.assert_close((csr @ w.to(device)).cpu(), x @ w)
        except Exception as error:  # reported on the main thread
            errors.append(error)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in (20, 21)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors


INVALID_INDICES = {
    "last_not_nnz": ([0, 2, 1], [0, 1]),
    "first_not_zero": ([1, 1, 2], [0, 1]),
    "plain_out_of_range": ([0, 1, 2], [0, 7]),
    "repeated": ([0, 2, 2], [1, 1]),
    "unsorted": ([0, 2, 2], [2, 1]),
    "too_many_in_a_row": ([0, 4, 4], [0, 1, 2, 2]),
}


@pytest.mark.parametrize("case", INVALID_INDICES)
@pytest.mark.parametrize("layout", ["csr", "csc"])
def test_invariant_checks_like_the_cpu(device, case, layout):
    compressed, plain = INVALID_INDICES[case]
    make, shape = {
        "csr": (torch.sparse_csr_tensor, (2, 3)),
        "csc": (torch.sparse_csc_tensor, (3, 2)),
    }[layout]

    def build(dev):
        values = torch.ones(len(plain), device=dev)
        c, p = torch.tensor(compressed, device=dev), torch.tensor(plain, device=dev)
        return make(c, p, values, shape, check_invariants=True)

    with pytest.raises(RuntimeError) as expected:
        build("cpu")
    with pytest.raises(RuntimeError) as actual:
        build(device)
    assert str(actual.value) == str(expected.value)


@pytest.mark.parametrize("reduce", ["sum", "mean", "amax", "amin"])
@pytest.mark.parametrize("rows", [7, 300])
def test_mm_with_reduce(device, reduce, rows):
    """torch.sparse.mm(csr, dense, reduce) (the CPU's op; CUDA has none), empty rows
    included, with gradients for both operands; at 300 rows about 120,000 products."""
    x = dense_with_zeros((rows, 200), seed=22, density=0.5)
    x[1] = 0
    w = torch.randn(200, 4, generator=torch.Generator().manual_seed(23))
    a = x.to_sparse_csr().requires_grad_()
    b = w.clone().requires_grad_()
    ma = x.to(device).to_sparse_csr().requires_grad_()
    mb = w.to(device).requires_grad_()
    expected = torch.sparse.mm(a, b, reduce)
    actual = torch.sparse.mm(ma, mb, reduce)
    torch.testing.assert_close(actual.detach().cpu(), expected.detach())
    weights = torch.randn(expected.shape, generator=torch.Generator().manual_seed(24))
    (expected * weights).sum().backward()
    (actual * weights.to(device)).sum().backward()
    assert ma.grad.layout == torch.sparse_csr
    torch.testing.assert_close(ma.grad.to_dense().cpu(), a.grad.to_dense())
    torch.testing.assert_close(mb.grad.cpu(), b.grad, rtol=1e-4, atol=1e-4)
