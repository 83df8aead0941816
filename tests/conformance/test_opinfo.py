"""PyTorch's OpInfo samples for the ops in ops.py, run on mojo and compared with the CPU.

One item per (op, dtype) for the forward values, one per float (op, dtype) for the input
gradients, and one per op for the error inputs. Failures listed in expected_failures.py xfail;
a listed item that passes fails the run. MOJO_CONFORMANCE_SAMPLES=N runs only the first N
samples of each item.
"""

import copy
import functools
import itertools
import random
import zlib
from dataclasses import dataclass

import pytest
import torch

pytest.importorskip("expecttest", reason="torch.testing._internal needs expecttest")

from torch.testing._internal.common_device_type import (  # noqa: E402
    precisionOverride,
    toleranceOverride,
)
from torch.testing._internal.common_methods_invocations import op_db  # noqa: E402
from torch.testing._internal.opinfo.core import DecorateInfo  # noqa: E402

from . import random_draws  # noqa: E402
from .expected_failures import EXPECTED_FAILURES  # noqa: E402
from .harness import RECORDER, SAMPLES, UPDATE, reason_of, registry_key  # noqa: E402
from .ops import OPS  # noqa: E402

DEVICE = torch.device("mojo")
DTYPES = [
    torch.float32,
    torch.float16,
    torch.bfloat16,
    torch.float64,
    torch.int64,
    torch.int32,
    torch.uint8,
    torch.bool,
    torch.complex64,  # counted apart in the README's coverage
]
# torch.testing.assert_close's defaults; integers and bool compare exactly.
DEFAULT_TOLERANCES = {
    torch.float16: (1e-5, 1e-3),
    torch.bfloat16: (1e-5, 1.6e-2),
    torch.float32: (1e-5, 1.3e-6),
    torch.float64: (1e-7, 1e-7),
    torch.complex32: (1e-5, 1e-3),
    torch.complex64: (1e-5, 1.3e-6),
    torch.complex128: (1e-7, 1e-7),
}

# Where both mojo and the CPU are off from float64 (so the float64 referee in `compare` does
# not settle it) by more than the default tolerance. Mojo computes in float32 and rounds once;
# the CPU's float16/bfloat16 reference rounds intermediates. Attention at OpInfo's value range
# (|x| < 9, scaled operands, scores and probabilities rounded): CPU gradients 0.028 off in
# float16, 0.28 in bfloat16, mojo's the same. bfloat16 powers with the CPU's special exponents
# (x³, 1/x², 1/sqrt(x)) round their intermediate products on the CPU (CUDA and mojo compute in
# float32 and round once): normalize's gradient differs by one rounding of terms near 2.
REFERENCE_ERROR_TOLERANCES = {
    ("nn.functional.normalize", torch.bfloat16): (2e-2, 1.6e-2),
    ("nn.functional.scaled_dot_product_attention", torch.float16): (1e-2, 1e-2),
    ("nn.functional.scaled_dot_product_attention", torch.bfloat16): (1e-1, 5e-2),
}


def full_name(op) -> str:
    return f"{op.name}.{op.variant_test_name}" if op.variant_test_name else op.name


OPINFOS = {full_name(op): op for op in op_db if full_name(op) in set(OPS)}


def dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


@dataclass(frozen=True)
class Case:
    op_name: str
    dtype: str  # "any" for the error inputs
    part: str  # forward, backward or errors

    @property
    def key(self) -> str:
        return registry_key(self.op_name, self.dtype, self.part)

    @property
    def op(self):
        return OPINFOS[self.op_name]

    @property
    def torch_dtype(self) -> torch.dtype:
        return getattr(torch, self.dtype)


def cases(part: str) -> list:
    found = []
    for name in OPS:
        op = OPINFOS.get(name)
        if op is None:
            continue
        if part == "errors":
            if op.error_inputs_func is not None:
                found.append(Case(name, "any", part))
            continue
        supported = op.supported_dtypes("cpu")
        for dtype in DTYPES:
            if dtype not in supported or (part == "backward" and not wants_grad(op, dtype)):
                continue
            found.append(Case(name, dtype_name(dtype), part))
    return [pytest.param(case, id=f"{case.op_name}-{case.dtype}") for case in found]


def wants_grad(op, dtype: torch.dtype) -> bool:
    return (
        (dtype.is_floating_point or dtype.is_complex)
        and op.supports_autograd
        and dtype in op.supported_backward_dtypes("cpu")
    )


FORWARD, BACKWARD, ERRORS = cases("forward"), cases("backward"), cases("errors")
RECORDER.universe.update(p.values[0].key for p in FORWARD + BACKWARD + ERRORS)


@functools.cache
def tolerance(op_name: str, dtype: torch.dtype) -> tuple:
    """(atol, rtol) for results of `dtype`: assert_close's defaults, widened by the largest
    toleranceOverride / precisionOverride the OpInfo declares for that dtype in any test."""
    atol, rtol = REFERENCE_ERROR_TOLERANCES.get(
        (op_name, dtype), DEFAULT_TOLERANCES.get(dtype, (0.0, 0.0))
    )
    for entry in OPINFOS[op_name].decorators:
        if isinstance(entry, DecorateInfo):
            if entry.active_if is False or (entry.dtypes and dtype not in entry.dtypes):
                continue
            decorators = entry.decorators
        else:
            decorators = [entry]
        for decorator in decorators:
            if isinstance(decorator, toleranceOverride) and dtype in decorator.d:
                atol = max(atol, decorator.d[dtype].atol)
                rtol = max(rtol, decorator.d[dtype].rtol)
            elif isinstance(decorator, precisionOverride) and dtype in decorator.d:
                atol = max(atol, decorator.d[dtype])
    return atol, rtol


def to_mojo(value, memo: dict):
    """`value` with its tensors copied to mojo as leaves (requires_grad kept). Each CPU
    storage moves once and tensors become views of the copy with their own sizes, strides
    and offsets, so views that share memory (an `out=` aliasing an input, a broadcast `out=`)
    share it on mojo too. `memo` maps id(cpu tensor) -> (cpu tensor, mojo tensor) and
    (storage address, dtype) -> the moved storage. Meta tensors stay (an error input may
    mix devices on purpose)."""
    if isinstance(value, torch.Tensor) and value.device.type == "meta":
        return value
    if isinstance(value, torch.Tensor) and value.layout != torch.strided:  # sparse: no storage
        if id(value) not in memo:
            memo[id(value)] = (value, value.detach().to(DEVICE).requires_grad_(value.requires_grad))
        return memo[id(value)][1]
    if isinstance(value, torch.Tensor):
        if id(value) not in memo:
            plain = value.detach()
            key = (plain.untyped_storage().data_ptr(), plain.dtype)
            elements = plain.untyped_storage().nbytes() // plain.element_size()
            if elements == 0 or plain.numel() == 0:
                moved = plain.to(DEVICE)
            else:
                if key not in memo:
                    memo[key] = plain.as_strided((elements,), (1,), 0).to(DEVICE)
                moved = memo[key].as_strided(plain.size(), plain.stride(), plain.storage_offset())
            moved.requires_grad_(value.requires_grad)
            memo[id(value)] = (value, moved)
        return memo[id(value)][1]
    if isinstance(value, (list, tuple)):
        moved = [to_mojo(v, memo) for v in value]
        if all(m is v for m, v in zip(moved, value, strict=True)):
            return value
        return type(value)(moved)
    if isinstance(value, dict):
        return {k: to_mojo(v, memo) for k, v in value.items()}
    return value


def _is_cpu_device(value) -> bool:
    return (isinstance(value, str) and value == "cpu") or (
        isinstance(value, torch.device) and value.type == "cpu"
    )


def call(op, sample, memo=None):
    """Runs `op` on `sample`, on the CPU, or moved to mojo when `memo` is given (a factory
    op's `device` argument, or the default device, included)."""
    args = (sample.input, sample.args, sample.kwargs)
    if memo is None:
        return op(args[0], *args[1], **args[2])
    if op.name == "tensor_split" and isinstance(sample.args[0], torch.Tensor):
        # Its indices tensor must be on the CPU (as on CUDA, where the samples keep it there).
        args = (*to_mojo((args[0], args[2]), memo)[:1], args[1], to_mojo(args[2], memo))
    else:
        args = to_mojo(args, memo)
    if torch.device(args[2].get("device", DEVICE)).type == "cpu":
        args = (args[0], args[1], {**args[2], "device": DEVICE})
    # A device given positionally (Tensor.to's samples) names the tested device, as when the
    # samples are made for it.
    args = (args[0], [DEVICE if _is_cpu_device(a) else a for a in args[1]], args[2])
    with torch.device(DEVICE):
        return op(args[0], *args[1], **args[2])


def tensors(value) -> list:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in tensors(v)]
    return []


# Ops whose values are not the CPU's by definition: uninitialized memory, and random draws
# (mojo draws CUDA's numbers: tests/test_random.py checks them bit for bit against CUDA's
# recorded ones and by distribution). Their results are compared by shape, dtype and device.
UNDEFINED_VALUES = {
    "bernoulli",
    "cauchy",
    "empty",
    "empty_like",
    "empty_permuted",
    "empty_strided",
    "exponential",
    "geometric",
    "log_normal",
    "multinomial",
    "new_empty",
    "new_empty_strided",
    "normal",
    "normal.in_place",
    "normal.number_mean",
    "rand_like",
    "randint",
    "randint_like",
    "randn",
    "randn_like",
    "uniform",
}


def compare(actual, expected, op_name: str, path: str, exact=None) -> None:
    """assert_close on CPU copies; tuples and lists element by element. `exact`, when given,
    returns the result computed in float64 (same structure): a floating result that misses the
    CPU's still passes where it is no farther from that than the CPU's own (see `no_farther`)."""
    if isinstance(expected, torch.Tensor):
        assert isinstance(actual, torch.Tensor), f"{path}: expected a tensor, got {type(actual)}"
        assert actual.device.type == DEVICE.type, f"{path}: result on {actual.device}"
        if op_name in UNDEFINED_VALUES:
            assert (actual.shape, actual.dtype) == (expected.shape, expected.dtype), path
            return
        if expected.layout != torch.strided:  # sparse: same layout, then values by position
            assert actual.layout == expected.layout, f"{path}: {actual.layout} result"
            actual, expected = actual.to_dense(), expected.to_dense()
            exact = exact and (lambda wide=exact: densified(wide()))
        atol, rtol = tolerance(op_name, expected.dtype)
        try:
            torch.testing.assert_close(
                actual.detach().cpu(),
                expected.detach(),
                atol=atol,
                rtol=rtol,
                equal_nan=True,
                check_dtype=True,
                check_device=False,
                msg=lambda m: f"{path}: {m}",
            )
        except AssertionError:
            inexact = expected.is_floating_point() or expected.is_complex()
            if not (exact and inexact and actual.dtype == expected.dtype):
                raise
            if not no_farther(actual.detach().cpu(), expected.detach(), exact(), atol, rtol):
                raise
    elif isinstance(expected, (list, tuple)):
        assert isinstance(actual, (list, tuple)), f"{path}: expected a sequence, got {actual!r}"
        assert len(actual) == len(expected), f"{path}: {len(actual)} != {len(expected)} items"
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            part = exact and (lambda i=i: item(exact(), i))
            compare(a, e, op_name, f"{path}[{i}]", part)
    else:
        torch.testing.assert_close(actual, expected, equal_nan=True, msg=lambda m: f"{path}: {m}")


def densified(value):
    """A sparse tensor as a dense one; anything else as it is."""
    if isinstance(value, torch.Tensor) and value.layout != torch.strided:
        return value.to_dense()
    return value


def item(value, i: int):
    return value[i] if isinstance(value, (list, tuple)) and i < len(value) else None


def no_farther(actual, expected, exact, atol: float, rtol: float) -> bool:
    """Whether each element of `actual` is within the tolerance of the float64 result `exact`
    widened by the CPU's own distance from it. The CPU computes some ops in their half type
    or in another order (its convolutions, its LAPACK) and mojo in float32 as CUDA does; where
    the two differ, float64 tells which is off."""
    if not isinstance(exact, torch.Tensor) or exact.shape != expected.shape:
        return False
    if expected.is_complex():  # each part within the tolerance
        if not exact.is_complex():
            return False
        actual, expected, exact = (
            torch.view_as_real(t.resolve_conj()) for t in (actual, expected, exact)
        )
    a, e, x = actual.double(), expected.double(), exact.detach().double()
    allowed = (e - x).abs() + atol + rtol * x.abs()
    close = (a == e) | (a.isnan() & e.isnan()) | ((a - x).abs() <= allowed)
    return bool(close.all())


def in_float64(value, memo: dict):
    """`value` with its floating tensors as float64 leaves (requires_grad kept); `memo` maps
    id(tensor) -> its float64 copy."""
    if isinstance(value, torch.Tensor):
        if not (value.is_floating_point() or value.is_complex()):
            return value
        wide = torch.float64 if value.is_floating_point() else torch.complex128
        if id(value) not in memo:
            memo[id(value)] = value.detach().to(wide).requires_grad_(value.requires_grad)
        return memo[id(value)]
    if isinstance(value, (list, tuple)):
        return type(value)(in_float64(v, memo) for v in value)
    if isinstance(value, dict):
        return {k: in_float64(v, memo) for k, v in value.items()}
    return value


def exactly(case: Case, sample, memo: dict):
    """The sample's result computed in float64 on the CPU, or None where the op refuses it."""
    inexact = case.torch_dtype.is_floating_point or case.torch_dtype.is_complex
    if not inexact or case.op_name in UNDEFINED_VALUES:
        return None
    wide = copy.copy(sample)
    wide.input, wide.args, wide.kwargs = in_float64(
        (sample.input, sample.args, sample.kwargs), memo
    )
    try:
        return sample.output_process_fn_grad(call(case.op, wide))
    except Exception:
        return None


def samples(case: Case):
    """The case's OpInfo samples (the first SAMPLES of them when that is set). Calls the
    generator directly: `op.sample_inputs` inspects the whole stack per call, which costs a
    tenth of a second or more under pytest. Seeds the generators the samples draw from (torch's
    CPU generator, and Python's `random`, from which some draw scalars such as a loss margin),
    so each run checks the same samples."""
    seed = zlib.crc32(case.key.encode())
    torch.default_generator.manual_seed(seed)
    random.seed(seed)
    op, dtype = case.op, case.torch_dtype
    found = op.sample_inputs_func(op, "cpu", dtype, wants_grad(op, dtype))
    # A sample with attention dropout draws a random mask on each device: not comparable
    # element by element (tests/test_attention.py checks its statistics).
    found = (s for s in found if not s.kwargs.get("dropout_p", 0.0) and not mha_dropout(op, s))
    found = (shared_window_samples(op, s) for s in found)
    return enumerate(itertools.islice(found, SAMPLES))


FRACTIONAL_POOLING = {
    "nn.functional.fractional_max_pool2d": 2,
    "nn.functional.fractional_max_pool3d": 3,
}


def shared_window_samples(op, sample):
    """Fractional max pooling draws its windows' random offsets on the input's device unless
    given them: give both devices the same ones, drawn on the CPU as the functional draws."""
    dims = FRACTIONAL_POOLING.get(op.name)
    if dims is None or "_random_samples" in sample.kwargs:
        return sample
    x = sample.input
    batch, channels = (x.shape[0], x.shape[1]) if x.dim() == dims + 2 else (1, x.shape[0])
    sample.kwargs["_random_samples"] = torch.rand(batch, channels, dims, dtype=x.dtype)
    return sample


def mha_dropout(op, sample) -> bool:
    """Whether a multi_head_attention_forward sample applies dropout (its positional
    dropout_p, in training)."""
    if op.name != "nn.functional.multi_head_attention_forward":
        return False
    return sample.kwargs.get("training", True) and sample.args[9] > 0


def annotate(exc: Exception, text: str) -> None:
    if hasattr(exc, "add_note"):
        exc.add_note(text)


def check(case: Case, body) -> None:
    """Runs `body` and squares its outcome with the expected-failure registry."""
    expected = EXPECTED_FAILURES.get(case.key)
    if expected is not None and expected.startswith("crash:"):
        RECORDER.record(case.key, expected)
        pytest.xfail(expected)
    try:
        body()
        error = None
    except Exception as exc:
        error = exc
    if error is not None:  # xfail outside the except block: no chained traceback to render
        RECORDER.record(case.key, reason_of(error))
        if expected is not None or UPDATE:
            pytest.xfail(expected or reason_of(error))
        raise error
    if expected is not None and SAMPLES is not None:
        return  # the registered failure may lie beyond the samples run
    if expected is not None and expected.startswith("flaky:"):
        return  # fails in some runs only (the reason says why); a pass is no news
    RECORDER.record(case.key, None)
    if expected is not None and not UPDATE:
        pytest.fail(
            f"unexpected pass: remove {case.key!r} from expected_failures.py ({expected})",
            pytrace=False,
        )


def test_ops_exist():
    """Every OPS name is an OpInfo in op_db, listed once."""
    assert len(set(OPS)) == len(OPS), "duplicate OPS entries"
    assert sorted(set(OPS) - set(OPINFOS)) == []


def test_registry_keys_exist():
    """Every registry key names an item of this harness."""
    assert sorted(set(EXPECTED_FAILURES) - RECORDER.universe) == []


@pytest.mark.parametrize("case", FORWARD)
def test_forward(case):
    def body():
        for i, sample in samples(case):
            try:
                if random_draws.applies(case.op_name, sample):
                    actual = call(case.op, sample, memo={})
                    atol_rtol = tolerance(case.op_name, actual.dtype)
                    random_draws.check_output(case.op_name, sample, actual, atol_rtol)
                    continue
                # The OpInfo's own view of the result (e.g. linalg.lu without P), on both sides.
                expected = sample.output_process_fn_grad(call(case.op, sample))
                actual = sample.output_process_fn_grad(call(case.op, sample, memo={}))
                exact = functools.cache(lambda s=sample: exactly(case, s, {}))
                compare(actual, expected, case.op_name, "output", exact)
            except Exception as exc:
                annotate(exc, f"sample {i}: {sample.summary()}")
                raise

    check(case, body)


@pytest.mark.parametrize("case", BACKWARD)
def test_backward(case):
    generator = torch.Generator().manual_seed(0)

    def body():
        for i, sample in samples(case):
            try:
                backward_sample(case, sample, generator)
            except Exception as exc:
                annotate(exc, f"sample {i}: {sample.summary()}")
                raise

    check(case, body)


def backward_sample(case: Case, sample, generator) -> None:
    """The gradients of every input requiring grad, for the same random grad_output."""
    memo = {}
    actual = sample.output_process_fn_grad(call(case.op, sample, memo))
    pairs = [v for v in memo.values() if isinstance(v, tuple)]
    inputs = [(cpu, mojo) for cpu, mojo in pairs if cpu.requires_grad]
    expected = sample.output_process_fn_grad(call(case.op, sample))
    outputs = [t for t in tensors(expected) if t.requires_grad]
    if not inputs or not outputs:
        return
    actual_outputs = [t for t in tensors(actual) if t.requires_grad]
    assert len(actual_outputs) == len(outputs), "outputs requiring grad differ"
    grads = [torch.randn(t.shape, generator=generator, dtype=t.dtype) for t in outputs]
    if random_draws.applies(case.op_name, sample):
        (actual_grad,) = torch.autograd.grad(
            actual_outputs, [inputs[0][1]], [g.to(DEVICE) for g in grads]
        )
        random_draws.check_gradient(case.op_name, sample, grads[0], actual_grad)
        return
    expected_grads = torch.autograd.grad(
        outputs, [cpu for cpu, _ in inputs], grads, allow_unused=True
    )
    actual_grads = torch.autograd.grad(
        actual_outputs,
        [mojo for _, mojo in inputs],
        [g.to(DEVICE) for g in grads],
        allow_unused=True,
    )
    exact = functools.cache(lambda: exact_grads(case, sample, inputs, grads))
    for n, (a, e) in enumerate(zip(actual_grads, expected_grads, strict=True)):
        if e is None:
            assert a is None, f"grad of input {n}: expected None"
        else:
            compare(a, e, case.op_name, f"grad of input {n}", lambda n=n: (exact() or {}).get(n))


def exact_grads(case: Case, sample, inputs: list, grads: list):
    """{input number: its gradient computed in float64 on the CPU}, or None."""
    memo = {}
    result = exactly(case, sample, memo)
    outputs = [t for t in tensors(result) if t.requires_grad]
    wrt = [memo.get(id(cpu)) for cpu, _ in inputs]
    if result is None or len(outputs) != len(grads) or any(w is None for w in wrt):
        return None
    try:
        widened = [g.to(o.dtype) for g, o in zip(grads, outputs, strict=True)]
        found = torch.autograd.grad(outputs, wrt, widened, allow_unused=True)
    except Exception:
        return None
    return {n: g for n, g in enumerate(found) if g is not None}


def outcome(fn):
    """The exception `fn` raises, or None."""
    try:
        fn()
    except Exception as exc:
        return exc
    return None


def describe(exc) -> str:
    return "nothing" if exc is None else type(exc).__name__ + (f" ({exc})" if str(exc) else "")


@pytest.mark.parametrize("case", ERRORS)
def test_errors(case):
    def body():
        torch.default_generator.manual_seed(zlib.crc32(case.key.encode()))
        for i, error_input in enumerate(case.op.error_inputs_func(case.op, "cpu")):
            sample = error_input.sample_input
            expected = outcome(lambda s=sample: call(case.op, s))
            # Bad indices found on the device are reported at the next synchronising call.
            actual = outcome(
                lambda s=sample: (call(case.op, s, memo={}), torch.accelerator.synchronize())
            )
            assert type(actual) is type(expected), (
                f"error input {i}: mojo raises {describe(actual)}; CPU raises "
                f"{describe(expected)}\n{sample.summary()}"
            )

    check(case, body)
