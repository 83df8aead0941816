"""Differential fuzzing: ops on random shapes, layouts, dtypes and arguments, mojo against the
CPU.

Every case is drawn from a seed (Python's `random.Random` for the structure, a seeded CPU
`torch.Generator` for the values): a rank 0 to 4 shape with zero-size and one-element dims, an
input layout (contiguous, transposed, sliced with a step, expanded, or an `as_strided` view with
zero or overlapping strides: those only as inputs, never written to), dtypes among float32,
float16, bfloat16, int64, int32, uint8 and bool, and arguments, for the op families:

- elementwise: unary and binary ops with broadcasting and type promotion, `where`, `clamp`
- reductions: sum, mean, amax, amin, argmax, prod, any, all over random dims, with keepdim
- indexing: gather, index_select, masked_select, `x[idx]`, `index_put_` (through a view)
- shape: cat, stack, permute + contiguous, flip, roll, narrow, repeat, tril/triu

The CPU result is the reference: exact for integer and bool results, `assert_close` with
tolerances by dtype otherwise (NaN equal to NaN). A draw the CPU rejects (an op without that
dtype, an empty reduction without identity) is skipped; so is one that raises
NotImplementedError on mojo. Both are counted and printed at the end of the run. Any other
difference, or any other exception on mojo, fails the seed's test with the seed, op, arguments
and every input's shape, strides, storage offset, dtype and layout.

CI runs seeds 0-39, CASES_PER_SEED cases each. Other seeds, on request:

    MOJO_FUZZ_SEEDS=1000-1999 pytest tests/test_fuzz.py     # a range
    MOJO_FUZZ_SEEDS=7 pytest tests/test_fuzz.py             # one seed (reproduce a failure)
    MOJO_FUZZ_SEEDS=3,17,100-120 pytest tests/test_fuzz.py  # a list
"""

import os
import random
from collections import Counter
from dataclasses import dataclass, field

import pytest
import torch

CASES_PER_SEED = 25
CI_SEEDS = range(40)

FLOATS = [torch.float32, torch.float16, torch.bfloat16]
INTS = [torch.int64, torch.int32, torch.uint8]
DTYPES = FLOATS + INTS + [torch.bool]


def seeds_from_env():
    text = os.environ.get("MOJO_FUZZ_SEEDS", "").strip()
    if not text:
        return list(CI_SEEDS)
    seeds = []
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        seeds += range(int(low), int(high or low) + 1)
    return seeds


# ---------------------------------------------------------------------------------------------
# Inputs: a contiguous base tensor and a view of it, made the same way on both devices


@dataclass
class Input:
    """An input: `view(base)`, with base a contiguous tensor made on the CPU."""

    base: torch.Tensor
    layout: str
    view: callable = lambda t: t

    def on(self, device):
        return self.view(self.base.to(device))

    def describe(self, name):
        t = self.on("cpu")
        return (
            f"{name}: shape {tuple(t.shape)} stride {t.stride()} offset {t.storage_offset()} "
            f"{t.dtype} {self.layout} (base {tuple(self.base.shape)})"
        )


def values(rng, g, shape, dtype):
    """Random values for a dtype; floats now and then with inf, -inf, NaN and -0."""
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=g).bool()
    if dtype == torch.uint8:
        return torch.randint(0, 256, shape, generator=g, dtype=dtype)
    if not dtype.is_floating_point:
        return torch.randint(-100, 100, shape, generator=g, dtype=dtype)
    x = (torch.randn(shape, generator=g) * rng.choice([1, 3, 100])).to(dtype)
    if rng.random() < 0.2 and x.numel():
        flat = x.view(-1)
        for special in (float("inf"), float("-inf"), float("nan"), -0.0):
            flat[rng.randrange(flat.numel())] = special
    return x


def draw_shape(rng, rank=None, max_numel=4096):
    rank = rng.randint(0, 4) if rank is None else rank
    while True:
        shape = [rng.choice([0, 1, 1, 2, 3, 4, 5, 7, 8, 13, 33]) for _ in range(rank)]
        if rng.random() < 0.9:  # zero-size tensors, but not most of the time
            shape = [max(1, s) for s in shape]
        if torch.Size(shape).numel() <= max_numel:
            return shape


def make_input(rng, g, shape, dtype, writable=False):
    """An input of `shape` with a random layout (never an overlapping one when writable)."""
    layouts = ["contiguous", "transposed", "step"]
    if not writable:
        layouts += ["expanded", "as_strided"]
    layout = rng.choice(layouts) if shape else "contiguous"
    rank = len(shape)
    if layout == "transposed" and rank >= 2:
        order = list(range(rank))
        rng.shuffle(order)
        inverse = [order.index(d) for d in range(rank)]
        base = values(rng, g, [shape[d] for d in order], dtype)
        return Input(base, f"permute{tuple(inverse)}", lambda t: t.permute(inverse))
    if layout == "step":
        steps = [(rng.choice([1, 2, 3]), rng.randrange(3)) for _ in shape]
        index = tuple(
            slice(start, start + s * step, step)
            for s, (step, start) in zip(shape, steps, strict=True)
        )
        base = values(rng, g, [piece.stop for piece in index], dtype)
        return Input(base, f"slices{index}", lambda t: t[index])
    if layout == "expanded":
        small = [1 if rng.random() < 0.5 else s for s in shape]
        base = values(rng, g, small, dtype)
        return Input(base, f"expand from {tuple(small)}", lambda t: t.expand(shape))
    if layout == "as_strided":
        strides = [rng.choice([0, 1, 1, 2, 3, 5]) for _ in shape]
        offset = rng.randrange(4)
        extent = offset + sum((s - 1) * st for s, st in zip(shape, strides, strict=True) if s) + 1
        base = values(rng, g, [extent], dtype)
        return Input(
            base,
            f"as_strided{tuple(shape), tuple(strides), offset}",
            lambda t: t.as_strided(shape, strides, offset),
        )
    return Input(values(rng, g, shape, dtype), "contiguous")


# ---------------------------------------------------------------------------------------------
# Cases


@dataclass
class Case:
    """An op on named inputs; `fn(*tensors)` returns a tensor or a tuple of them."""

    op: str
    fn: callable
    inputs: dict
    args: dict = field(default_factory=dict)
    reduced: int = 0  # elements accumulated into each result (tolerances grow with it)
    writes: bool = False  # fn writes into its first input: that input's base is a result too

    def run(self, device, float64=False):
        """The results on `device`, moved to the CPU; float inputs as float64 when asked."""
        bases = [inp.base.clone().to(device) for inp in self.inputs.values()]
        if float64:
            bases = [b.double() if b.is_floating_point() else b for b in bases]
        tensors = [inp.view(base) for inp, base in zip(self.inputs.values(), bases, strict=True)]
        out = self.fn(*tensors)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        if self.writes:
            outs.append(bases[0])
        return [t.cpu() for t in outs]

    def describe(self):
        lines = [f"op {self.op} args {self.args}"]
        lines += [f"  {inp.describe(name)}" for name, inp in self.inputs.items()]
        return "\n".join(lines)


def broadcastable(rng, shape):
    """A shape that broadcasts with `shape`: leading dims dropped, some dims set to 1."""
    shape = shape[rng.randint(0, len(shape)) :] if rng.random() < 0.3 else list(shape)
    return [1 if rng.random() < 0.3 else s for s in shape]


def scalar_or_input(rng, g, shape, dtype):
    """Now and then a Python number instead of a tensor (returned as an arg)."""
    if rng.random() < 0.2:
        return rng.choice([0, 1, -3, 2.5, -0.5, 1e4]), None
    return None, make_input(rng, g, shape, dtype)


def with_scalar(name, fn, scalar, inputs, args):
    """A case whose second operand is either an input tensor or the Python number `scalar`."""
    if scalar is None:
        return Case(name, fn, inputs, args)
    return Case(name, lambda x: fn(x, scalar), {"x": inputs["x"]}, {**args, "other": scalar})


UNARY = {"abs": torch.abs, "neg": torch.neg, "exp": torch.exp, "sigmoid": torch.sigmoid}
BINARY = {
    "add": torch.add,
    "sub": torch.sub,
    "mul": torch.mul,
    "div": torch.div,
    "maximum": torch.maximum,
    "eq": torch.eq,
    "ne": torch.ne,
    "lt": torch.lt,
    "le": torch.le,
    "gt": torch.gt,
    "ge": torch.ge,
}


def draw_elementwise(rng, g):
    shape = draw_shape(rng)
    dtype = rng.choice(DTYPES)
    x = make_input(rng, g, shape, dtype)
    kind = rng.choice(["unary", "binary", "binary", "where", "clamp"])
    if kind == "unary":
        name = rng.choice(list(UNARY))
        return Case(name, UNARY[name], {"x": x})
    other_shape = broadcastable(rng, shape)
    other_dtype = dtype if rng.random() < 0.6 else rng.choice(DTYPES)
    if rng.random() < 0.5:  # the smaller shape first
        shape, other_shape = other_shape, shape
        x = make_input(rng, g, shape, dtype)
    if kind == "binary":
        name = rng.choice(list(BINARY))
        scalar, y = scalar_or_input(rng, g, other_shape, other_dtype)
        return with_scalar(name, BINARY[name], scalar, {"x": x, "y": y}, {})
    if kind == "where":
        condition = make_input(rng, g, broadcastable(rng, shape), torch.bool)
        scalar, y = scalar_or_input(rng, g, other_shape, other_dtype)
        if scalar is None:
            return Case("where", torch.where, {"condition": condition, "x": x, "y": y})
        fn = lambda c, t: torch.where(c, t, scalar)  # noqa: E731
        return Case("where", fn, {"condition": condition, "x": x}, {"other": scalar})
    low, high = sorted(rng.sample([-50, -1, 0, 0.5, 2, 100], 2))
    if rng.random() < 0.3:
        low, high = high, low  # min above max: the result is max everywhere
    bounds = rng.choice([(low, high), (low, None), (None, high)])
    if rng.random() < 0.3:  # tensor bounds
        lo, hi = make_input(rng, g, other_shape, dtype), make_input(rng, g, other_shape, dtype)
        return Case("clamp", torch.clamp, {"x": x, "min": lo, "max": hi})
    return Case("clamp", lambda t: t.clamp(*bounds), {"x": x}, {"min, max": bounds})


def draw_dims(rng, rank):
    """None, one dim or several, negative ones too."""
    if rank == 0 or rng.random() < 0.25:
        return None
    dims = rng.sample(range(rank), rng.randint(1, rank))
    dims = [d - rank if rng.random() < 0.3 else d for d in dims]
    return dims[0] if len(dims) == 1 and rng.random() < 0.5 else tuple(dims)


def in_float32_on_cpu(fn):
    """fn, but on the CPU through float32 for half types: CUDA (and mojo) accumulate half
    products in float32, the CPU in the half type (300 * 300 * 0.001 is inf there)."""

    def run(t):
        if t.device.type == "cpu" and t.dtype in (torch.float16, torch.bfloat16):
            return fn(t.float()).to(t.dtype)
        return fn(t)

    return run


def reduce_op(name, dims, keepdim):
    """The reduction `name` over `dims`, in the forms each op accepts."""
    first = dims[0] if isinstance(dims, tuple) else dims
    if name == "argmax":
        return lambda t: t.argmax(first, keepdim=keepdim)
    if name == "prod":
        prod = torch.prod if first is None else lambda t: t.prod(first, keepdim=keepdim)
        return in_float32_on_cpu(prod)
    if name in ("amax", "amin") and dims is None:
        dims = ()
    return lambda t: getattr(t, name)(dims, keepdim=keepdim)


def draw_reduction(rng, g):
    shape = draw_shape(rng)
    dtype = rng.choice(DTYPES)
    name = rng.choice(["sum", "mean", "amax", "amin", "argmax", "prod", "any", "all"])
    dims, keepdim = draw_dims(rng, len(shape)), rng.random() < 0.5
    fn = reduce_op(name, dims, keepdim)
    reduced = max(1, torch.Size(shape).numel()) if name in ("sum", "mean", "prod") else 0
    args = {"dim": dims, "keepdim": keepdim}
    return Case(name, fn, {"x": make_input(rng, g, shape, dtype)}, args, reduced=reduced)


def index_values(rng, g, shape, high, negative=False):
    """int64 indices below `high` (from -high when negative) with a random layout."""
    low = -high if negative else 0
    inp = make_input(rng, g, shape, torch.int64)
    inp.base = torch.randint(low, high, inp.base.shape, generator=g)
    return inp


def draw_indexing(rng, g):
    shape = draw_shape(rng, rank=rng.randint(1, 4))
    dtype = rng.choice(DTYPES)
    x = make_input(rng, g, shape, dtype)
    dim = rng.randrange(len(shape))
    size = shape[dim]
    kind = rng.choice(["gather", "index_select", "masked_select", "index", "index_put_"])
    if kind == "gather":
        index_shape = [rng.randint(0, s) for s in shape]
        index_shape[dim] = rng.randint(0, 6) if size else 0
        index = index_values(rng, g, index_shape, max(size, 1))
        return Case("gather", lambda t, i: t.gather(dim, i), {"x": x, "index": index}, {"dim": dim})
    if kind == "index_select":
        index = index_values(rng, g, [rng.randint(0, 9) if size else 0], max(size, 1))
        fn = lambda t, i: t.index_select(dim, i)  # noqa: E731
        return Case("index_select", fn, {"x": x, "index": index}, {"dim": dim})
    if kind == "masked_select":
        mask = make_input(rng, g, broadcastable(rng, shape), torch.bool)
        return Case("masked_select", torch.masked_select, {"x": x, "mask": mask})
    if kind == "index":
        return draw_advanced_index(rng, g, x, shape)
    return draw_index_put(rng, g, shape, dtype)


def draw_advanced_index(rng, g, x, shape):
    """x[idx], x[:, idx], x[i0, i1] with broadcasting indices, or x[mask]."""
    form = rng.choice(["first", "second", "pair", "mask"])
    if form == "mask":
        mask = make_input(rng, g, shape[: rng.randint(1, len(shape))], torch.bool)
        return Case("x[mask]", lambda t, m: t[m], {"x": x, "mask": mask})
    if form == "second" and len(shape) >= 2:
        index = index_values(rng, g, draw_shape(rng, rank=rng.randint(0, 2)), max(shape[1], 1))
        return Case("x[:, idx]", lambda t, i: t[:, i], {"x": x, "idx": index})
    if form == "pair" and len(shape) >= 2 and all(shape[:2]):
        first = draw_shape(rng, rank=rng.randint(0, 2))
        i0 = index_values(rng, g, first, shape[0], negative=True)
        i1 = index_values(rng, g, broadcastable(rng, first), shape[1], negative=True)
        return Case("x[i0, i1]", lambda t, a, b: t[a, b], {"x": x, "i0": i0, "i1": i1})
    if not shape[0]:
        return Case("x[idx]", lambda t, i: t[i], {"x": x, "idx": index_values(rng, g, [0], 1)})
    index = index_values(rng, g, draw_shape(rng, rank=rng.randint(0, 3)), shape[0], negative=True)
    return Case("x[idx]", lambda t, i: t[i], {"x": x, "idx": index})


def draw_index_put(rng, g, shape, dtype):
    """x[idx] = values through a writable view of x, with accumulate or distinct indices."""
    accumulate = rng.random() < 0.5
    x = make_input(rng, g, shape, dtype, writable=True)
    if accumulate:
        index = index_values(rng, g, [rng.randint(0, 40) if shape[0] else 0], max(shape[0], 1))
    else:
        distinct = torch.randperm(shape[0], generator=g)[: rng.randint(0, shape[0])]
        index = Input(distinct, "contiguous")  # no layout that could repeat an index
    values_shape = [index.on("cpu").numel(), *shape[1:]]
    source = make_input(rng, g, broadcastable(rng, values_shape), dtype)

    def fn(t, i, v):
        return t.index_put_((i,), v, accumulate=accumulate)

    reduced = 64 if accumulate else 0
    inputs = {"x": x, "idx": index, "values": source}
    return Case("index_put_", fn, inputs, {"accumulate": accumulate}, reduced, writes=True)


def draw_shape_op(rng, g):
    shape = draw_shape(rng, rank=rng.randint(1, 4))
    dtype = rng.choice(DTYPES)
    rank = len(shape)
    dim = rng.randrange(rank)
    kind = rng.choice(["cat", "stack", "permute", "flip", "roll", "narrow", "repeat", "tril"])
    if kind in ("cat", "stack"):
        count = rng.randint(1, 4)
        inputs = {}
        for k in range(count):
            part = list(shape)
            if kind == "cat":
                part[dim] = rng.choice([0, 1, 2, 5])
            part_dtype = dtype if rng.random() < 0.7 else rng.choice(DTYPES)
            inputs[f"t{k}"] = make_input(rng, g, part, part_dtype)
        dim = dim if kind == "cat" else rng.randint(-rank - 1, rank)
        fn = lambda *ts: getattr(torch, kind)(ts, dim)  # noqa: E731
        return Case(kind, fn, inputs, {"dim": dim})
    x = make_input(rng, g, shape, dtype)
    if kind == "permute":
        order = rng.sample(range(rank), rank)
        return Case("permute", lambda t: t.permute(order).contiguous(), {"x": x}, {"dims": order})
    if kind == "flip":
        dims = rng.sample(range(rank), rng.randint(1, rank))
        return Case("flip", lambda t: t.flip(dims), {"x": x}, {"dims": dims})
    if kind == "roll":
        dims = rng.sample(range(rank), rng.randint(1, rank))
        shifts = [rng.randint(-9, 9) for _ in dims]
        args = {"shifts": shifts, "dims": dims}
        return Case("roll", lambda t: t.roll(shifts, dims), {"x": x}, args)
    if kind == "narrow":
        start = rng.randint(0, shape[dim])
        length = rng.randint(0, shape[dim] - start)
        fn = lambda t: t.narrow(dim, start, length).contiguous()  # noqa: E731
        return Case("narrow", fn, {"x": x}, {"dim": dim, "start": start, "length": length})
    if kind == "repeat":
        repeats = [rng.choice([0, 1, 1, 2, 3]) for _ in range(rank + rng.randint(0, 1))]
        return Case("repeat", lambda t: t.repeat(repeats), {"x": x}, {"repeats": repeats})
    name, diagonal = rng.choice(["tril", "triu"]), rng.randint(-3, 3)
    if rank < 2:
        x = make_input(rng, g, [*shape, rng.randint(1, 6)], dtype)
    fn = lambda t: getattr(t, name)(diagonal)  # noqa: E731
    return Case(name, fn, {"x": x}, {"diagonal": diagonal})


FAMILIES = [draw_elementwise, draw_reduction, draw_indexing, draw_shape_op]


# ---------------------------------------------------------------------------------------------
# Comparison and the tests

# Relative tolerance per float dtype (assert_close's defaults); absolute ones scale with inputs.
RTOL = {torch.float32: 1.3e-6, torch.float16: 1e-3, torch.bfloat16: 1.6e-2}

STATS = Counter()


def accept_where_order_decides(case, actual, expected):
    """A float product overflows or underflows depending on the order of its factors (the
    CPU's float32 product of [-0.0, -92.8, 150.9, ...] is NaN, the float64 one -0): where the
    float32 and float64 references disagree on being finite or NaN, any result is accepted."""
    accepted = []
    for ours, theirs, wide in zip(actual, expected, case.run("cpu", float64=True), strict=True):
        if theirs.is_floating_point() and ours.shape == theirs.shape:
            wide = wide.to(theirs.dtype)
            unsure = (theirs.isfinite() != wide.isfinite()) | (theirs.isnan() != wide.isnan())
            theirs = torch.where(unsure, ours.to(theirs.dtype), theirs)
        accepted.append(theirs)
    return accepted


def compare(case, actual, expected):
    """Exact for integer and bool results; tolerances by dtype, wider where sums accumulate."""
    assert len(actual) == len(expected), f"{len(actual)} results, the CPU gives {len(expected)}"
    if case.op == "prod":
        expected = accept_where_order_decides(case, actual, expected)
    for ours, theirs in zip(actual, expected, strict=True):
        if not (case.reduced and theirs.dtype in RTOL):
            torch.testing.assert_close(ours, theirs, equal_nan=True)
            continue
        magnitude = max(
            (
                t.base.double().abs().nan_to_num(0, 0, 0).max().item()
                for t in case.inputs.values()
                if t.base.dtype in RTOL and t.base.numel()
            ),
            default=1.0,
        )
        rtol = RTOL[theirs.dtype] * (case.reduced if case.op == "prod" else 4)
        atol = RTOL[theirs.dtype] * max(magnitude, 1.0) * case.reduced**0.5 * 4
        torch.testing.assert_close(ours, theirs, rtol=rtol, atol=atol, equal_nan=True)


def run_case(case, device):
    """None when equal or skipped, else what went wrong."""
    STATS["drawn"] += 1
    try:
        expected = case.run("cpu")
    except Exception:  # noqa: BLE001 -- not a valid draw for the CPU: nothing to compare with
        STATS["skipped: the CPU rejects the draw"] += 1
        return None
    dtypes = sorted({str(inp.base.dtype).removeprefix("torch.") for inp in case.inputs.values()})
    try:
        actual = case.run(device)
        torch.accelerator.synchronize()  # errors found by kernels are reported here, not later
    except NotImplementedError:
        STATS[f"skipped: not implemented on mojo: {case.op} {'/'.join(dtypes)}"] += 1
        return None
    except Exception as error:  # noqa: BLE001 -- the CPU ran it: any error is a failure
        return f"mojo raised {type(error).__name__}: {str(error).splitlines()[0]}"
    try:
        compare(case, actual, expected)
    except AssertionError as error:
        return " ".join(str(error).split())[:500]
    STATS["compared"] += 1
    return None


@pytest.fixture(scope="module", autouse=True)
def report_counts(request):
    """Prints the counts (cases compared, skipped and why) once the module is done."""
    yield
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None or not STATS:
        return
    with capture.global_and_fixture_disabled():
        reporter.write_line("")
        for key, count in sorted(STATS.items()):
            reporter.write_line(f"fuzz: {key}: {count}")


@pytest.mark.parametrize("seed", seeds_from_env())
def test_fuzz(device, seed):
    rng, g = random.Random(seed), torch.Generator().manual_seed(seed)
    failures = []
    for k in range(CASES_PER_SEED):
        case = rng.choice(FAMILIES)(rng, g)
        problem = run_case(case, device)
        if problem is not None:
            failures.append(f"seed {seed} case {k}: {case.describe()}\n  {problem}")
    reproduce = f"reproduce: MOJO_FUZZ_SEEDS={seed} pytest tests/test_fuzz.py"
    assert not failures, "\n".join(failures + [reproduce])
