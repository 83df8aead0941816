"""torch.compile with mojo tensors: Inductor's fused kernels, printed by the Rust core, against
the CPU and eager mojo, at sizes around the kernels' limits (one group of 64 invocations per
reduced row, rows past one grid dimension of groups)."""

import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import torch
import torch._dynamo
from torch import nn

from conftest import run_python
from torch_mojo_backend import _C


def launches() -> dict[str, int]:
    return dict(_C.launch_counts())


def compiled(fn, *args, **options):
    torch._dynamo.reset()
    return torch.compile(fn, **options)(*args)


def check(fn, *cpu_args, atol=1e-5, rtol=1e-5):
    """Runs `fn` compiled on mojo copies of `cpu_args` and eagerly on the CPU."""
    expected = fn(*cpu_args)
    got = compiled(fn, *(a.to("mojo") if isinstance(a, torch.Tensor) else a for a in cpu_args))
    expected = expected if isinstance(expected, tuple) else (expected,)
    got = got if isinstance(got, tuple) else (got,)
    for e, g in zip(expected, got, strict=True):
        assert g.device.type == "mojo"
        torch.testing.assert_close(g.cpu(), e, atol=atol, rtol=rtol, equal_nan=True)


def test_a_fused_chain_is_one_kernel(device):
    x, y, z = (torch.randn(8, 33, device=device) for _ in range(3))
    fn = torch.compile(lambda x, y, z: (x * y + z).relu().sum(-1))
    torch._dynamo.reset()
    fn(x, y, z)
    before = launches()
    out = fn(x, y, z)
    after = launches()
    ran = {k: after[k] - before.get(k, 0) for k in after if after[k] != before.get(k, 0)}
    assert ran == {"fused": 1}
    expected = (x.cpu() * y.cpu() + z.cpu()).relu().sum(-1)
    torch.testing.assert_close(out.cpu(), expected)


@pytest.mark.parametrize("n", [1, 63, 64, 65, 70_001])
def test_pointwise_chains(device, n):
    x = torch.randn(n) * 3
    check(lambda x: torch.where(x > 0, x.exp(), x.sin() * 0.5).sigmoid() - x.abs().sqrt(), x)


def fused_forms(fn) -> list[str]:
    """The forms of the fused kernels `fn()` runs, by the profiler's kernel names."""
    with torch.profiler.profile() as prof:
        fn()
        torch.mojo.synchronize()
    return [e.name.split("(")[0] for e in prof.events() if e.name.startswith("fused_")]


def mixed_results(x):
    y = x * 2 + 1
    return y, y.bfloat16(), y.half(), y > 0, y.abs().to(torch.uint8), y.double(), y.long()


# Four elements per work item: sizes around a work item's four (the last ones one by one),
# an invocation's 256 items and the 2^17 work items from which the software device runs a
# launch on its wide twin, one kernel storing tensors of 1, 2, 4 and 8 bytes.
@pytest.mark.parametrize("n", [1, 3, 4, 5, 1025, 70_001, 600_001])
def test_pointwise_kernels_take_four_elements_per_work_item(device, n):
    x = torch.randn(n) * 100
    check(mixed_results, x, atol=0, rtol=0)
    mojo_x = x.to("mojo")
    # Inductor indexes a single element by the constant 0, not `xindex`.
    form = "fused_pointwise_fours" if n > 1 else "fused_pointwise"
    assert set(fused_forms(lambda: compiled(mixed_results, mojo_x))) == {form}


# Loads at `xindex + offset` go element by element inside the form by fours; a tensor stored
# at `xindex` off a multiple of four elements takes the form element by element.
@pytest.mark.parametrize("offset", [1, 2, 4])
def test_tensors_off_sixteen_bytes_go_element_by_element(device, offset):
    x = torch.randn(4099) * 100
    h = x.bfloat16()
    check(lambda x: mixed_results(x[offset:]), x, atol=0, rtol=0)
    check(lambda h: (h[offset:].float() * 3, h[offset:] * 2), h, atol=0, rtol=0)
    view = x.to("mojo")[offset:]
    forms = set(fused_forms(lambda: compiled(lambda v: v.mul_(2), view)))
    assert forms == {"fused_pointwise_fours" if offset % 4 == 0 else "fused_pointwise"}
    torch.testing.assert_close(view.cpu(), x[offset:] * 2, atol=0, rtol=0)


def test_in_place_pointwise_kernels_by_fours(device):
    def bump(x):
        x.mul_(2).add_(x.sin())
        return x

    x = torch.randn(3, 1027)
    for part in (lambda t: t, lambda t: t[:, 3:], lambda t: t[1:, 1:]):
        got, expected = x.to("mojo"), x.clone()
        compiled(bump, part(got))
        bump(part(expected))
        torch.testing.assert_close(got.cpu(), expected)


def test_parts_of_one_launch_take_four_elements_per_work_item(device):
    x, y = torch.randn(33, 65), torch.randn(1030)

    def two(x, y):
        return x.t().contiguous() * 2, y.exp()

    def two_narrow(x, y):
        return (x.t() * 2).bfloat16(), y.exp().bfloat16(), y[1:].half()

    check(two, x, y)
    check(two_narrow, x, y, atol=1e-2, rtol=1e-2)
    mojo_x, mojo_y = x.to("mojo"), y.to("mojo")
    assert set(fused_forms(lambda: compiled(two, mojo_x, mojo_y))) == {"fused_pointwise_fours"}


# Rows walked four elements at a time where aligned: lengths around four (the rows of a
# length off a multiple of four start in turn on and off the 16 bytes), rows read from the
# second element on, a loop that stores (softmax), and bfloat16 results (element by element).
@pytest.mark.parametrize("columns", [1, 3, 4, 5, 8, 1023, 1024])
def test_rows_are_walked_four_elements_at_a_time(device, columns):
    x, w = torch.randn(37, columns), torch.randn(columns)
    check(lambda x, w: nn.functional.layer_norm(x, (columns,), w), x, w)
    check(lambda x: torch.softmax(x, -1), x)
    check(lambda x: (x[:, 1:] * 2).sum(-1), x, atol=1e-4, rtol=1e-4)
    half = (lambda x: torch.softmax(x.bfloat16(), -1), x)
    check(*half, atol=1e-2, rtol=1e-2)
    # Invocations walk rows alone on the software device; GPUs share each row in a group.
    if columns == 1024 and _C.backend_name() == "wgpu":
        mojo_x = x.to("mojo")
        forms = set(fused_forms(lambda: compiled(lambda x: torch.softmax(x, -1), mojo_x)))
        assert forms == {"fused_reduction_each_fours"}
        forms = set(fused_forms(lambda: compiled(half[0], mojo_x)))
        assert "fused_reduction_each" in forms and "fused_reduction_each_fours" not in forms


# 8,192 is the longest row one invocation reduces alone on the software device; 4,000 with
# a logarithm per element (log_softmax) is past its loop budget and takes the group kernel.
# Short rows go up to 256 to an invocation (4,096 x 16), 150,000 rows past 2**17 launch on
# the software device's wide twin.
@pytest.mark.parametrize(
    "rows, columns",
    [
        (1, 1),
        (3, 63),
        (5, 64),
        (7, 65),
        (4, 4000),
        (4, 5000),
        (2, 8192),
        (2, 8193),
        (70_000, 3),
        (4096, 16),
        (300, 1000),
        (64, 8192),
        (150_000, 4),
    ],
)
def test_row_reductions(device, rows, columns):
    x = torch.randn(rows, columns)
    check(lambda x: (x * x).sum(-1), x)
    check(lambda x: (x.amax(-1), x.amin(-1), x.mean(-1)), x)
    check(lambda x: torch.softmax(x, -1), x)
    check(lambda x: torch.log_softmax(x * 2, -1), x)
    check(lambda x: torch.var_mean(x, -1, correction=0), x)


def test_an_optimizer_step_runs_as_few_kernels(device):
    """AdamW's update of every parameter (a foreach list) is one kernel per launch's worth of
    bindings: 4 tensors a parameter, 24 a launch, so 8 parameters take 2 launches, and
    the parameters end as eager mojo's."""
    sizes = [1, 3, 64, 65, 257, 70_001, 5, 9]

    def parameters_and_optimizer():
        torch.manual_seed(0)
        params = [torch.randn(n, device=device, requires_grad=True) for n in sizes]
        for p in params:
            p.grad = torch.randn_like(p)
        return params, torch.optim.AdamW(params, lr=1e-2)

    eager_params, eager_optimizer = parameters_and_optimizer()
    params, optimizer = parameters_and_optimizer()
    torch._dynamo.reset()
    step = torch.compile(optimizer.step)
    for _ in range(3):
        eager_optimizer.step()
        before = launches()
        step()
        after = launches()
    ran = {k: after[k] - before.get(k, 0) for k in after if after[k] != before.get(k, 0)}
    assert ran == {"fused": 2}
    for mine, reference in zip(params, eager_params, strict=True):
        torch.testing.assert_close(mine.detach().cpu(), reference.detach().cpu())


def ran_launches(fn, *args) -> tuple[dict[str, int], object]:
    """The launches of a second call of `fn` (compiled by the first) and its result."""
    fn(*args)
    before = launches()
    out = fn(*args)
    after = launches()
    return {k: after[k] - before.get(k, 0) for k in after if after[k] != before.get(k, 0)}, out


def test_independent_kernels_share_launches(device):
    """Independent kernels, reductions of short rows included, run as parts of one launch,
    each over its own sizes; a row longer than a packed reduction's (1,024) keeps its own."""

    def fn(x, y, z):
        return x.sum(-1), (y * 2).amax(0), z.exp() + 1, y.mean(-1), z.long().sum(0)

    def with_a_long_row(x, w):
        return x.sum(-1), w.sum(-1)

    x, y, z = torch.randn(37, 50), torch.randn(70, 9), torch.randn(5, 1025)
    torch._dynamo.reset()
    ran, got = ran_launches(torch.compile(fn), *(t.to(device) for t in (x, y, z)))
    assert ran == {"fused": 1}
    for g, e in zip(got, fn(x, y, z), strict=True):
        torch.testing.assert_close(g.cpu(), e, atol=1e-5, rtol=1e-5)
    # Rows past 2**16 and 65,535 invocations of one part.
    many = torch.randn(70_001, 3)
    torch._dynamo.reset()
    ran, got = ran_launches(torch.compile(fn), *(t.to(device) for t in (many, y, z)))
    assert ran == {"fused": 1}
    for g, e in zip(got, fn(many, y, z), strict=True):
        torch.testing.assert_close(g.cpu(), e, atol=1e-5, rtol=1e-5)
    w = torch.randn(3, 5000)
    torch._dynamo.reset()
    ran, got = ran_launches(torch.compile(with_a_long_row), x.to(device), w.to(device))
    assert ran == {"fused": 2}
    for g, e in zip(got, with_a_long_row(x, w), strict=True):
        torch.testing.assert_close(g.cpu(), e, atol=1e-4, rtol=1e-5)


def test_kernels_of_different_depths_share_launches(device):
    """Kernels of different depths in the graph share a launch where neither waits for the
    other: a column sum, ready at once, runs with the kernel after a product (a bias gradient
    and the next layer's backward). Kernels that feed one another across two such groups keep
    them apart: the first group's sum feeds the second's scale, and the second's product the
    first's."""

    def across_a_product(a, w):
        return a.sum(0), (a @ w).relu()

    def crossing(a, w, v):
        total = a.sum(0)
        h = (a @ w).relu()
        return (h @ v) * 2, h.sum(0) + total.mean(), (a * total).amax(0)

    a, w, v = torch.randn(64, 65), torch.randn(65, 64), torch.randn(64, 64)
    torch._dynamo.reset()
    ran, got = ran_launches(torch.compile(across_a_product), a.to(device), w.to(device))
    assert ran.get("fused") == 1 and sum(ran.values()) <= 2, ran
    for g, e in zip(got, across_a_product(a, w), strict=True):
        torch.testing.assert_close(g.cpu(), e, atol=1e-4, rtol=1e-5)
    torch._dynamo.reset()
    ran, got = ran_launches(torch.compile(crossing), *(t.to(device) for t in (a, w, v)))
    for g, e in zip(got, crossing(a, w, v), strict=True):
        torch.testing.assert_close(g.cpu(), e, atol=1e-4, rtol=1e-4)


def test_small_products_are_fused_sums_and_larger_ones_gemm(device):
    """Products of at most 2**16 multiply-adds are generated as sums (their bias add in the
    same kernel); larger ones keep the GEMM or the vendor's library."""
    a, b, bias = torch.randn(4, 16, 8), torch.randn(4, 8, 16), torch.randn(16)
    torch._dynamo.reset()
    ran, got = ran_launches(
        torch.compile(lambda a, b, c: torch.bmm(a, b) + c), *(t.to(device) for t in (a, b, bias))
    )
    assert ran == {"fused": 1}
    torch.testing.assert_close(got.cpu(), torch.bmm(a, b) + bias, atol=1e-5, rtol=1e-5)
    m, n = torch.randn(64, 65), torch.randn(65, 64)
    torch._dynamo.reset()
    ran, got = ran_launches(torch.compile(lambda m, n: m @ n), m.to(device), n.to(device))
    # (a library call on CUDA, which launches nothing the runtime counts)
    assert "fused" not in ran and sum(ran.values()) <= 1
    torch.testing.assert_close(got.cpu(), m @ n, atol=1e-4, rtol=1e-5)


def test_small_accumulating_index_puts_are_fused_sums(device):
    """An accumulating index_put along the first dimension (embedding's gradient) is, per
    element, the sum of the values whose index names it: duplicates add up, negative
    indices count from the end, bad ones raise as Inductor's checks do."""
    idx = torch.tensor([3, 1, 3, -1, 0, 3, 9])
    values = torch.randn(7, 5)

    def accumulate(x, i, v):
        return x.index_put((i,), v * 2, accumulate=True)

    x = torch.randn(10, 5)
    torch._dynamo.reset()
    ran, got = ran_launches(torch.compile(accumulate), *(t.to(device) for t in (x, idx, values)))
    assert ran == {"fused": 1}
    torch.testing.assert_close(got.cpu(), accumulate(x, idx, values))
    bad = torch.tensor([3, 1, 3, -1, 0, 3, 10], device=device)
    with pytest.raises(RuntimeError, match=r"index out of bounds"):
        torch.compile(accumulate)(x.to(device), bad, values.to(device)).cpu()

    # 70,001 indices into 10 rows: rows past one group's loop.
    many = torch.randint(-10, 10, (70_001,))
    ten, spread = torch.zeros(10, 1), torch.randn(70_001, 1)
    torch._dynamo.reset()
    ran, got = ran_launches(torch.compile(accumulate), *(t.to(device) for t in (ten, many, spread)))
    assert ran == {"fused": 1}
    torch.testing.assert_close(got.cpu(), accumulate(ten, many, spread), atol=1e-3, rtol=1e-5)

    # Where mojo's eager kernel is faster (the software device, the suite's wgpu device: it
    # scans int32 keys, four elements a comparison), a larger one calls it: the keys' launch
    # and the scan's, exact as the CPU's.
    rows, ids, grads = torch.zeros(64, 32), torch.randint(-64, 64, (128,)), torch.randn(128, 32)
    eager = _C.eager_accumulation_preferred(0, 64, 128, 32, 32)
    assert eager == (_C.backend_name() == "wgpu")
    torch._dynamo.reset()
    ran, got = ran_launches(torch.compile(accumulate), *(t.to(device) for t in (rows, ids, grads)))
    assert ran == ({"fused": 1, "accumulate_keys": 1, "accumulate": 1} if eager else {"fused": 1})
    if eager:
        assert torch.equal(got.cpu(), accumulate(rows, ids, grads))
    torch.testing.assert_close(got.cpu(), accumulate(rows, ids, grads))

    embedding = nn.Embedding(50, 8)
    ids = torch.randint(0, 50, (4, 30))
    embedding(ids).square().sum().backward()
    expected, embedding.weight.grad = embedding.weight.grad.clone(), None
    embedding.to(device)
    torch._dynamo.reset()
    torch.compile(lambda e, i: e(i).square().sum())(embedding, ids.to(device)).backward()
    torch.testing.assert_close(embedding.weight.grad.cpu(), expected, atol=1e-5, rtol=1e-5)


def test_reductions_over_the_outer_dimension_and_everything(device):
    x = torch.randn(300, 17)
    check(lambda x: x.mean(0), x)
    check(lambda x: (x * 2).sum(), x, atol=1e-4)
    check(lambda x: x.prod(0), torch.rand(40, 9) + 0.5)


def test_welford_and_argmax_share_one_kernel(device):
    x = torch.randn(9, 200)
    x[2, 7] = float("nan")
    x[3, :] = 1.0  # ties: the first index wins
    check(lambda x: (*torch.var_mean(x, -1), x.argmax(-1), x.argmin(-1)), x)


def test_layer_norm(device):
    x, w, b = torch.randn(10, 64), torch.randn(64), torch.randn(64)
    check(lambda x, w, b: nn.functional.layer_norm(x * 2, (64,), w, b), x, w, b)


def test_masked_loads_of_cat_and_pad(device):
    x, y = torch.randn(4, 5), torch.randn(4, 7)
    check(lambda x, y: nn.functional.pad(torch.cat([x, y], 1).exp(), (2, 3)), x, y)
    check(lambda x: torch.where(torch.arange(5, device=x.device) >= 2, x, 0.0), x)


def test_strided_and_broadcast_indexing(device):
    x, y = torch.randn(33, 65), torch.randn(65)
    check(lambda x, y: x.t() * 2 + y[:, None], x, y)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_precision_computes_in_float32(device, dtype):
    x = torch.randn(100, 70).to(dtype)
    check(lambda x: (x * 2).sigmoid() + x.sum(-1, keepdim=True), x, atol=2e-2, rtol=2e-2)


def test_integer_and_bool_results_are_exact(device):
    x = torch.randint(-1000, 1000, (5, 40))
    check(lambda x: ((x * 3) // 7).amax(-1), x, atol=0, rtol=0)
    check(lambda x: ((x % 5) == 0).any(-1), x, atol=0, rtol=0)
    check(lambda x: (x > 3000000000 - x * 2).long().sum(-1), x * 1000000, atol=0, rtol=0)


def test_scans_sorts_and_accumulating_scatters_run_eager_kernels_between_fused_ones(device):
    x = torch.randn(6, 50)
    check(lambda x: (x * 2).cumsum(-1).exp(), x, atol=1e-4, rtol=1e-4)
    check(lambda x: (x * 2).sort(-1).values + 1, x)
    check(lambda x: (x + 1).topk(3).values, x)
    keys = torch.arange(50) % 10
    check(lambda x, k: torch.zeros(6, 10, device=x.device).index_add(1, k, x * 2), x, keys)


def test_indices_out_of_range_raise_and_touch_no_other_memory(device):
    """Compiled kernels check the indices they read from tensors as CPU's compiled kernels
    do: a bad one raises RuntimeError ("index out of bounds: 0 <= tmpN < size") at the next
    synchronisation, like a device-side assert; meanwhile the load stays within its tensor and
    the store is dropped, so neighbouring tensors keep their values, and later launches run."""

    def scatter(x, idx):
        y = x.clone()
        y[idx] = -1.0
        return y

    def gather(x, i):
        return x[i] * 2

    x = torch.arange(8.0, device=device)
    neighbours = [torch.full((64,), 7.0, device=device) for _ in range(4)]
    good = torch.tensor([1, 3], device=device)
    torch.testing.assert_close(compiled(scatter, x, good).cpu(), scatter(x.cpu(), good.cpu()))
    for bad in ([1, 100_000], [1, -100_000], [8]):
        bad = torch.tensor(bad, device=device)
        for f in (scatter, gather):
            with pytest.raises(RuntimeError, match=r"index out of bounds: 0 <= tmp\d+ < 8"):
                torch.compile(f)(x, bad).cpu()
    for n in neighbours:
        assert (n.cpu() == 7.0).all()
    assert x.cpu().tolist() == list(range(8))
    # In range, negative indices count from the end.
    wrapped = torch.tensor([-1, 0, 7], device=device)
    torch.testing.assert_close(compiled(gather, x, wrapped).cpu(), gather(x.cpu(), wrapped.cpu()))
    torch.testing.assert_close(compiled(scatter, x, good).cpu(), scatter(x.cpu(), good.cpu()))


def test_a_compiled_function_from_two_threads(device):
    fn = torch.compile(lambda x, y: torch.softmax(x * y, -1).sum(0) + y.relu().mean())
    torch._dynamo.reset()
    inputs = [(torch.randn(70, 130), torch.randn(70, 130)) for _ in range(2)]
    expected = [fn(x.to(device), y.to(device)).cpu() for x, y in inputs]
    failures = []

    def work(k):
        x, y = (t.to(device) for t in inputs[k])
        for _ in range(20):
            got = fn(x, y).cpu()
            if not torch.equal(got, expected[k]):
                failures.append((k, (got - expected[k]).abs().max().item()))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


@pytest.mark.parametrize(
    "options",
    [
        {"mode": "max-autotune-no-cudagraphs"},
        {"mode": "reduce-overhead"},
        {"fullgraph": True},
        {"dynamic": True},
    ],
    ids=str,
)
def test_compile_modes(device, options):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.LayerNorm(64), nn.Linear(64, 8))
    x = torch.randn(16, 32)
    expected = model(x)
    got = compiled(model.to(device), x.to(device), **options)
    torch.testing.assert_close(got.cpu(), expected, atol=1e-5, rtol=1e-5)


def test_a_program_is_parsed_once_and_launched_by_its_handle(device):
    """The wrapper loads each kernel's program once; launches name it by its handle, from
    any thread, and a handle no load returned is refused."""
    program = (
        "fused 1\ntensors 2 float32 float32 float32\nsizes\nscalars\nreduction 0\n"
        "load a float32 0 xindex\nload b float32 1 xindex\n"
        "store 2 xindex (add (mul a b) (const float32 1.0))\n"
    )
    handle = _C.load_compiled_program(program)
    assert _C.load_compiled_program(program) == handle
    assert _C.load_compiled_program(program.replace("1.0", "2.0")) != handle
    x, y = torch.randn(100_000), torch.randn(100_000)
    outs = [torch.empty(100_000, device=device) for _ in range(4)]

    def launch(out):
        for _ in range(10):
            torch.ops.mojo.run_compiled(handle, [x.to(device), y.to(device), out], [100_000, 1], [])

    threads = [threading.Thread(target=launch, args=(out,)) for out in outs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for out in outs:
        assert torch.equal(out.cpu(), x * y + 1)
    with pytest.raises(ValueError, match="no load_compiled_program returned"):
        torch.ops.mojo.run_compiled(handle + 10**6, [x, y, outs[0]], [100_000, 1], [])


def test_a_reduction_past_what_one_group_may_walk_is_refused(device):
    """A compiled reduction's group walks each output's elements in steps of 64 invocations,
    and the software device stops an invocation after 65,535 loop iterations: rows up to
    64 x 65,000 elements reduce exactly, longer ones raise instead of being cut short.
    (Inductor splits the long reductions it sees; the kernel op is called directly here.)"""
    program = (
        "fused 1\ntensors 1 float32 float32\nsizes\nscalars\nreduction 1\n"
        "let x0 int32 xindex\nloop\nload t0 float32 0 (add r0_index (mul x0 r0_numel))\n"
        "reduce sum t1 float32 t0\nreduce max t2 float32 t0\nend\nstore 1 x0 (add t1 t2)\n"
    )
    longest = 64 * 65_000
    x = torch.ones(longest + 1, device=device)
    x[longest - 1] = 2.0
    out = torch.empty(1, device=device)
    program = _C.load_compiled_program(program)
    torch.ops.mojo.run_compiled(program, [x[:longest], out], [1, longest], [])
    assert out.item() == longest + 1 + 2
    with pytest.raises(NotImplementedError, match="compiled reduction of 4160001 elements"):
        torch.ops.mojo.run_compiled(program, [x, out], [1, longest + 1], [])


def test_a_host_scalar_is_read_by_value(device):
    x = torch.randn(100)
    step = torch.tensor(3.0)
    check(lambda x, s: x * s + s**2, x, step)


@pytest.mark.parametrize("n", [1, 64, 70_001])
def test_values_of_host_scalars_alone_are_computed_before_the_element_loop(device, n):
    """AdamW's bias corrections (powers of its host step) are hoisted out of the loop over
    the elements; each element still sees them, in the order Inductor wrote them."""
    x = torch.randn(n)
    step = torch.tensor(7.0)

    def fn(x, step):
        scale = torch.sqrt(1 - 0.999**step) / (1 - 0.9**step)
        return x * scale + (0.9**step) * x.abs()

    check(fn, x, step)


def test_dynamic_shapes_recompile_at_most_once(device):
    torch._dynamo.reset()
    torch._dynamo.utils.counters.clear()
    fn = torch.compile(lambda x: torch.softmax(x * 2, -1).sum(0))
    for length in (16, 24, 40):
        x = torch.randn(length, 8)
        torch.testing.assert_close(fn(x.to(device)).cpu(), torch.softmax(x * 2, -1).sum(0))
    assert torch._dynamo.utils.counters["stats"]["unique_graphs"] <= 2


def test_an_op_without_a_kernel_raises_not_implemented_error(device):
    x = torch.rand(10, device=device)
    with pytest.raises(Exception, match="frexp") as raised:
        compiled(torch.frexp, x)
    chain = [raised.value, raised.value.__cause__, raised.value.__context__]
    assert any(isinstance(e, NotImplementedError) for e in chain), chain


def test_random_numbers_inside_kernels(device):
    x = torch.ones(1000, 100, device=device)
    out = compiled(lambda x: nn.functional.dropout(x, 0.3, training=True), x).cpu()
    assert abs((out == 0).float().mean().item() - 0.3) < 0.01
    kept = out[out != 0]
    torch.testing.assert_close(kept, torch.full_like(kept, 1 / 0.7))
    uniform = compiled(torch.rand_like, x).cpu()
    assert 0 <= uniform.min() and uniform.max() < 1
    assert abs(uniform.mean().item() - 0.5) < 0.01 and abs(uniform.std().item() - 12**-0.5) < 0.01
    normal = compiled(torch.randn_like, x).cpu()
    assert abs(normal.mean().item()) < 0.02 and abs(normal.std().item() - 1) < 0.02
    integers = compiled(lambda x: torch.randint_like(x, 3, 10), x).cpu()
    assert set(integers.unique().tolist()) == set(range(3, 10))


def test_the_mojo_backend_runs_cpu_graphs_on_mojo(device):
    layer = nn.Linear(8, 4)
    x = torch.randn(5, 8, requires_grad=True)
    expected = layer(x)
    expected.sum().backward()
    expected_grad, x.grad = x.grad.clone(), None
    torch._dynamo.reset()
    out = torch.compile(layer, backend="mojo")(x)
    assert out.device.type == "cpu"
    torch.testing.assert_close(out, expected)
    out.sum().backward()
    torch.testing.assert_close(x.grad, expected_grad)

    def with_a_factory(t):
        return torch.arange(t.shape[0]).float() + t.sum(-1)

    torch._dynamo.reset()
    got = torch.compile(with_a_factory, backend="mojo")(x.detach())
    torch.testing.assert_close(got, with_a_factory(x.detach()))


def test_transformer_lm_training_step_compiled_matches_eager(device):
    sys.path.insert(0, str(Path(__file__).parents[1] / "examples"))
    import transformer_lm as lm

    def run(compile_step: bool, steps: int = 20):
        step = lm.training_step(torch.device(device))
        model = step.model
        if compile_step:
            torch._dynamo.reset()
            step = torch.compile(step)
        losses = []
        for _ in range(steps):
            before = sum(launches().values())
            losses.append(step().item())
            per_step = sum(launches().values()) - before
        return losses, per_step, [p.detach().cpu() for p in model.parameters()]

    eager, eager_launches, eager_params = run(False)
    ours, our_launches, our_params = run(True)
    assert ours == pytest.approx(eager, rel=1e-4)
    # AdamW divides by the root of tiny second moments, so float reassociation in fused
    # kernels moves near-zero parameters by up to a few learning-rate-sized steps' noise.
    for mine, reference in zip(our_params, eager_params, strict=True):
        torch.testing.assert_close(mine, reference, atol=3e-3, rtol=1e-3)
    # Fusion, independent kernels sharing launches, small products and embedding
    # gradients as fused sums: at least 3x fewer launches.
    assert our_launches * 3 <= eager_launches, (our_launches, eager_launches)


_CACHE_KEY = """
import torch, torch_mojo_backend
torch_mojo_backend.register_mojo_devices()
torch.zeros(1, device="mojo")
from torch._inductor.codegen import common
print(common.get_custom_backend_pass_for_device("mojo").uuid().hex())
"""


def test_compiled_graphs_are_cached_per_platform():
    """Inductor's caches key mojo's graphs by the platform too. AOTAutogradCache keys a graph
    by what dynamo captured, before attention is routed per device (the software device takes
    small attention through the math path, CUDA the fused kernel); with one key for both, the
    suite's CUDA-emulation run handed the software device the CUDA graph of the transformer
    LM's compiled step, whose fused attention took 3 ms a call there instead of 0.2."""
    cuda = {"TORCH_MOJO_BACKEND_SOFTWARE": None, "TORCH_MOJO_BACKEND_PLATFORM": "cuda-emulated"}
    software = {"TORCH_MOJO_BACKEND_SOFTWARE": "1", "TORCH_MOJO_BACKEND_PLATFORM": None}
    keys = []
    for platform in (cuda, software, software):
        done = run_python(_CACHE_KEY, **platform)
        assert done.returncode == 0, done.stderr[-3000:]
        keys.append(done.stdout.split()[-1])
    assert keys[0] != keys[1] and keys[1] == keys[2], keys


def _documented_examples() -> list[str]:
    text = (Path(__file__).parents[1] / "docs" / "compile.md").read_text()
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


@pytest.mark.parametrize("example", range(len(_documented_examples())))
def test_documented_example_runs(tmp_path, example):
    """Each example of docs/compile.md, as a script in a fresh process."""
    script = tmp_path / "example.py"
    script.write_text(_documented_examples()[example])
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]


def _layouts():
    """(input, weight) layouts of 2-d, 3-d and 1-d convolutions: contiguous, channels-last,
    a channel count of one and a 1x1 image (channels-last and contiguous at once)."""
    cl, cl3 = torch.channels_last, torch.channels_last_3d
    x4, w4 = torch.randn(2, 3, 9, 8), torch.randn(5, 3, 3, 3)
    yield x4, w4
    yield x4.to(memory_format=cl), w4
    yield x4, w4.to(memory_format=cl)
    yield x4.to(memory_format=cl), w4.to(memory_format=cl)
    yield torch.randn(2, 1, 9, 8).to(memory_format=cl), torch.randn(4, 1, 3, 3)
    yield torch.randn(2, 3, 1, 1).to(memory_format=cl), torch.randn(4, 3, 1, 1)
    x5, w5 = torch.randn(1, 2, 5, 4, 6), torch.randn(3, 2, 2, 2, 2)
    yield x5.to(memory_format=cl3), w5
    yield x5, w5.to(memory_format=cl3)
    yield torch.randn(2, 7, 4).transpose(1, 2), torch.randn(6, 4, 3)
    yield torch.randn(2, 4, 7), torch.randn(6, 3, 4).transpose(1, 2)


@pytest.mark.parametrize("case", range(10))
def test_fake_convolution_layouts_match_eager(device, case):
    """Fake tensors (what torch.compile plans with) lay convolutions' results out as mojo's
    kernels do: torch's fake convolution answers contiguous for out-of-tree devices, and a
    compiled ResNet over channels-last weights asserted strides the kernel did not produce."""
    from torch._subclasses.fake_tensor import FakeTensorMode

    x, w = (t.to(device) for t in list(_layouts())[case])
    x.requires_grad_(True)
    w.requires_grad_(True)
    dims = x.dim() - 2

    def forward_backward(x, w, gy=None):
        geometry = ([1] * dims, [1] * dims, [1] * dims, False, [0] * dims, 1)
        out = torch.ops.aten.convolution(x, w, None, *geometry)
        gy = out if gy is None else gy
        grads = torch.ops.aten.convolution_backward(
            gy, x, w, [w.shape[0]], *geometry, [True, True, True]
        )
        return out, grads

    eager, grads = forward_backward(x, w)
    gy = eager.detach()
    with FakeTensorMode() as mode:
        fake, fake_grads = forward_backward(
            mode.from_tensor(x), mode.from_tensor(w), mode.from_tensor(gy)
        )
    assert fake.device == eager.device
    assert fake.stride() == eager.stride()
    for f, g in zip(fake_grads, grads, strict=True):
        assert f.shape == g.shape and f.stride() == g.stride()


def test_channels_last_conv_net_compiles(device):
    """A channels-last convolution net (Inductor then keeps its layouts) compiles, forward and
    backward, equal to eager mojo."""
    torch.manual_seed(0)
    net = nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.Conv2d(8, 4, 1)
    ).to(device, memory_format=torch.channels_last)
    x = torch.randn(2, 3, 12, 10, device=device).to(memory_format=torch.channels_last)
    eager = net(x)
    eager.square().sum().backward()
    eager_grads = [p.grad.clone() for p in net.parameters()]
    net.zero_grad()
    torch._dynamo.reset()
    got = torch.compile(net)(x)
    got.square().sum().backward()
    torch.testing.assert_close(got, eager, atol=1e-4, rtol=1e-4)
    for p, g in zip(net.parameters(), eager_grads, strict=True):
        torch.testing.assert_close(p.grad, g, atol=1e-4, rtol=1e-4)
