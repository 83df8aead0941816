"""Several Python threads issuing work to the device at once: every result equals the CPU's
result computed in the same thread.

Each thread works on its own tensors, for a number of rounds, through a mix of elementwise ops,
reductions, matrix products, indexing, copies both ways, allocations of varied sizes and random
draws from its own seeded generator (the draws are replayed with the same seed in the main
thread afterwards and must be equal). A mismatch or an exception in any thread is recorded with
the thread, round and part that failed, and fails the test once all threads are done.
"""

import copy
import threading
import traceback

import pytest
import torch
import torch.nn.functional as F

ROUNDS = 25
# With a cold kernel cache every kernel is built once (with its NVRTC shadow): minutes on 2 cores.
JOIN_TIMEOUT_S = 300


class Failures:
    """Mismatches and exceptions reported by threads, thread-safe."""

    def __init__(self):
        self._lock = threading.Lock()
        self.lines = []

    def add(self, line):
        with self._lock:
            self.lines.append(line)

    def check(self, where, actual, expected, exact=False):
        """Records a mismatch between a device result (moved to the CPU) and the CPU's."""
        tolerance = {"rtol": 0, "atol": 0} if exact else {"rtol": 1e-4, "atol": 1e-5}
        try:
            torch.testing.assert_close(actual.cpu(), expected, equal_nan=True, **tolerance)
        except AssertionError as error:
            self.add(f"{where}: {' '.join(str(error).split())[:300]}")

    def checker(self, prefix):
        """`check` with `prefix` before the part's name."""
        return lambda part, *args, **kw: self.check(f"{prefix} {part}", *args, **kw)

    def assert_none(self):
        parts = sorted({line.split(": ")[0].split(" ")[-1] for line in self.lines})
        shown = "\n".join(self.lines[:20])
        assert not self.lines, f"{len(self.lines)} failures, parts {parts}:\n{shown}"


def run_in_threads(count, body, failures):
    """Runs body(i) in `count` threads started together; an exception is a failure."""
    barrier = threading.Barrier(count)

    def guarded(i):
        try:
            barrier.wait()
            body(i)
        except BaseException:  # noqa: B036 -- whatever a thread raises must fail the test
            failures.add(f"thread {i} raised: {traceback.format_exc()}")

    threads = [threading.Thread(target=guarded, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(JOIN_TIMEOUT_S)
    hung = [i for i, thread in enumerate(threads) if thread.is_alive()]
    assert not hung, f"threads {hung} still running after {JOIN_TIMEOUT_S} s"


# ---------------------------------------------------------------------------------------------
# The parts of a round: each takes the device, a CPU generator for its inputs and a `check`


def elementwise(dev, g, check):
    x, y = torch.randn(300, 17, generator=g), torch.randn(17, generator=g)
    check("elementwise", (x.to(dev) * 2 + y.to(dev)).sigmoid(), (x * 2 + y).sigmoid())
    i = torch.randint(-100, 100, (1000,), generator=g)
    check("elementwise", i.to(dev) // 3 - i.to(dev).abs(), i // 3 - i.abs(), exact=True)


def reductions(dev, g, check):
    x = torch.randn(int(torch.randint(1, 200, (1,), generator=g)), 33, generator=g)
    ours = x.to(dev)
    check("reductions", ours.sum(0), x.sum(0))
    check("reductions", ours.sum(1), x.sum(1))
    check("reductions", ours.amax(1), x.amax(1), exact=True)
    check("reductions", ours.argmin(0), x.argmin(0), exact=True)


def gemm(dev, g, check):
    """The bug report's expression."""
    a, b = torch.randn(64, 48, generator=g), torch.randn(48, 32, generator=g)
    check("gemm", ((a.to(dev) @ b.to(dev)).relu() + 1).sum(1).cpu(), ((a @ b).relu() + 1).sum(1))


def indexing(dev, g, check):
    x = torch.randn(50, 20, generator=g)
    index = torch.randint(0, 50, (30, 20), generator=g)
    rows = torch.randint(0, 50, (40,), generator=g)
    mask = x > 0
    ours = x.to(dev)
    check("indexing", ours.gather(0, index.to(dev)), x.gather(0, index), exact=True)
    check("indexing", ours.index_select(0, rows.to(dev)), x.index_select(0, rows), exact=True)
    check("indexing", ours[mask.to(dev)], x[mask], exact=True)


def sorting(dev, g, check):
    """Radix sort, radix selection and the sorted accumulate (scratch counts and keys)."""
    x = torch.randint(-50, 50, (3, 1500), generator=g).float()
    ours = x.to(dev)
    values, indices = ours.sort(dim=1, stable=True)
    expected = x.sort(dim=1, stable=True)
    check("sorting", values, expected.values, exact=True)
    check("sorting", indices, expected.indices, exact=True)
    check("sorting", ours.topk(20, dim=1).values, x.topk(20, dim=1).values, exact=True)
    check("sorting", ours.kthvalue(700, dim=1).values, x.kthvalue(700, dim=1).values, exact=True)
    index = torch.randint(0, 40, (2000,), generator=g)
    rows = torch.randint(-3, 4, (2000, 3), generator=g).float()
    out = torch.zeros(40, 3)
    check(
        "sorting",
        out.to(dev).index_add_(0, index.to(dev), rows.to(dev)),
        out.index_add_(0, index, rows),
        exact=True,
    )


def copies(dev, g, check):
    x = torch.randn(40, 60, generator=g)
    ours = x.to(dev)
    check("copies", ours.t().contiguous(), x.t().contiguous(), exact=True)  # device to device
    check("copies", ours[::3, 1::2].cpu(), x[::3, 1::2], exact=True)  # strided, to the host
    target = torch.zeros(60, 40, device=dev)
    target.copy_(x.t())  # strided, from the host
    check("copies", target, x.t(), exact=True)
    check("copies", ours.to(torch.float16), x.to(torch.float16), exact=True)


def complex_and_fft(dev, g, check):
    z = torch.randn(500, 3, dtype=torch.complex64, generator=g)
    m = z.to(dev)
    check("complex", (m * m.conj() / (m + 1)).sum(0), (z * z.conj() / (z + 1)).sum(0))
    x = torch.randn(4, 1009, generator=g)  # Bluestein's chirp: plans shared by the threads
    # Orthonormal: values of order one, so the check's absolute tolerance fits float32's.
    check("fft", torch.fft.rfft(x.to(dev), norm="ortho"), torch.fft.rfft(x, norm="ortho"))


def allocations(dev, g, check):
    sizes = torch.randint(1, 1 << 18, (6,), generator=g).tolist() + [0, 1, 1 << 20]
    blocks = [(n, n % 251, torch.full((n,), float(n % 251), device=dev)) for n in sizes]
    del blocks[::2]  # free some while the others live
    # Releasing memory while other threads launch drops the kept bind groups under them.
    torch.accelerator.empty_cache()
    blocks += [(n, 3, torch.empty(n, device=dev).fill_(3.0)) for n in sizes[:3]]
    for n, value, block in blocks:
        check("allocations", block, torch.full((n,), float(value)), exact=True)


def random_draws(dev, gen):
    """The draws of one round from a thread's own generator, in order."""
    return [
        torch.rand(1000, device=dev, generator=gen).cpu(),
        torch.randn(257, device=dev, generator=gen).cpu(),
        torch.randint(0, 100, (333,), device=dev, generator=gen).cpu(),
        torch.bernoulli(torch.full((500,), 0.25, device=dev), generator=gen).cpu(),
    ]


PARTS = [elementwise, reductions, gemm, indexing, sorting, copies, complex_and_fft, allocations]


def mixed_rounds(dev, i, failures):
    """Thread i's work: rounds of every part; returns its random draws."""
    g = torch.Generator().manual_seed(i)
    gen = torch.Generator(device=dev).manual_seed(1000 + i)
    draws = []
    for r in range(ROUNDS):
        check = failures.checker(f"thread {i} round {r}")
        for part in PARTS:
            part(dev, g, check)
        draws += random_draws(dev, gen)
    return draws


@pytest.mark.parametrize("count", [2, 4])
def test_threads_with_mixed_ops_match_cpu(device, count):
    failures = Failures()
    draws = {}

    def body(i):
        draws[i] = mixed_rounds(device, i, failures)

    run_in_threads(count, body, failures)
    for i, drawn in sorted(draws.items()):  # the same seed alone, in the main thread
        gen = torch.Generator(device=device).manual_seed(1000 + i)
        alone = [x for _ in range(ROUNDS) for x in random_draws(device, gen)]
        for k, (ours, expected) in enumerate(zip(drawn, alone, strict=True)):
            failures.check(f"thread {i} draw {k} random", ours, expected, exact=True)
    failures.assert_none()


@pytest.mark.parametrize("count", [2, 4])
def test_threads_gemm_as_in_the_bug_report(device, count):
    failures = Failures()

    def body(i):
        g = torch.Generator().manual_seed(i)
        for r in range(ROUNDS):
            gemm(device, g, failures.checker(f"thread {i} round {r}"))

    run_in_threads(count, body, failures)
    failures.assert_none()


def mlp(seed, widths):
    torch.manual_seed(seed)
    layers = []
    for fan_in, fan_out in zip(widths, widths[1:], strict=False):
        layers += [torch.nn.Linear(fan_in, fan_out), torch.nn.Tanh()]
    return torch.nn.Sequential(*layers[:-1])


def gradients(model, x, y):
    model.zero_grad()
    F.mse_loss(model(x), y).backward()
    return [(name, p.grad) for name, p in model.named_parameters()]


def test_backward_in_one_thread_while_another_runs_forward(device):
    failures = Failures()
    trained, other = mlp(0, [20, 64, 32, 1]), mlp(1, [16, 48, 8])
    trained_dev, other_dev = copy.deepcopy(trained).to(device), copy.deepcopy(other).to(device)

    def backward_thread():
        g = torch.Generator().manual_seed(5)
        for r in range(ROUNDS):
            x, y = torch.randn(32, 20, generator=g), torch.randn(32, 1, generator=g)
            expected = gradients(trained, x, y)
            ours = gradients(trained_dev, x.to(device), y.to(device))
            for (name, grad), (_, ours_grad) in zip(expected, ours, strict=True):
                failures.check(f"backward round {r} {name}.grad", ours_grad, grad)

    def forward_thread():
        g = torch.Generator().manual_seed(6)
        for r in range(2 * ROUNDS):
            x = torch.randn(64, 16, generator=g)
            with torch.no_grad():
                failures.check(f"forward round {r} output", other_dev(x.to(device)), other(x))

    bodies = [backward_thread, forward_thread]
    run_in_threads(2, lambda i: bodies[i](), failures)
    failures.assert_none()


def test_threads_factor_and_solve_on_their_own_streams(device):
    """Linear algebra from 3 threads at once, each on a stream of its own (on the CUDA
    backend through the solver library: a handle per stream, calls one at a time): LU,
    Cholesky, eigh, SVD, QR's Q, LDL, a batched LU of many small matrices and eig."""
    failures = Failures()

    def body(i):
        g = torch.Generator().manual_seed(50 + i)
        with torch.mojo.stream(torch.mojo.Stream()):
            for r in range(4):
                check = failures.checker(f"thread {i} round {r}")
                a = torch.randn(6, 6, generator=g, dtype=torch.float64) + 6 * torch.eye(6)
                b = torch.randn(6, 2, generator=g, dtype=torch.float64)
                spd = a @ a.T
                ours = a.to(device)
                check("solve", torch.linalg.solve(ours, b.to(device)), torch.linalg.solve(a, b))
                check("cholesky", torch.linalg.cholesky(ours @ ours.T), torch.linalg.cholesky(spd))
                check("eigvalsh", torch.linalg.eigvalsh(spd.to(device)), torch.linalg.eigvalsh(spd))
                check("svdvals", torch.linalg.svdvals(ours), torch.linalg.svdvals(a))
                check("qr", torch.linalg.qr(ours).Q, torch.linalg.qr(a).Q)
                symmetric = a + a.T
                ld = torch.linalg.ldl_factor(symmetric.to(device))
                check(
                    "ldl",
                    torch.linalg.ldl_solve(*ld, b.to(device)),
                    torch.linalg.solve(symmetric, b),
                )
                many = torch.randn(20, 3, 3, generator=g, dtype=torch.float64) + 3 * torch.eye(3)
                check("many", torch.linalg.inv(many.to(device)), torch.linalg.inv(many))
                big = torch.randn(33, 33, generator=g, dtype=torch.float64)
                check(
                    "eig",
                    torch.linalg.eigvals(big.to(device)).abs().sort().values,
                    torch.linalg.eigvals(big).abs().sort().values,
                )

    run_in_threads(3, body, failures)
    failures.assert_none()
