"""PyTorch's OpInfo samples compiled: for the elementwise and reduction ops (Inductor's fused
kernels are where mojo's code generator does the work), each op's first float32 sample runs
through `torch.compile` and through eager mojo, and the two must agree. Only ops whose eager
forward passes the conformance sweep are compiled; failures listed in COMPILED_FAILURES
xfail with their reason, and a listed op that passes fails the run.
"""

import pytest
import torch
import torch._dynamo
from torch.testing._internal.opinfo.core import (
    BinaryUfuncInfo,
    ReductionOpInfo,
    UnaryUfuncInfo,
)

from .expected_failures import EXPECTED_FAILURES
from .test_opinfo import UNDEFINED_VALUES, Case, cases, samples, tensors
from .test_opinfo import call as call_op

# op -> why its compiled float32 result is not eager mojo's.
COMPILED_FAILURES: dict[str, str] = {
    "frexp": "Inductor's ops.frexp has two results; the program language has no two-result op yet",
}


def compiled_cases() -> list:
    found = []
    for param in cases("forward"):
        case = param.values[0]
        kinds = (UnaryUfuncInfo, BinaryUfuncInfo, ReductionOpInfo)
        if case.dtype != "float32" or not isinstance(case.op, kinds):
            continue
        if case.key in EXPECTED_FAILURES or case.op_name in UNDEFINED_VALUES:
            continue
        marks = []
        if case.op_name in COMPILED_FAILURES:
            marks.append(pytest.mark.xfail(reason=COMPILED_FAILURES[case.op_name], strict=True))
        found.append(pytest.param(case, id=case.op_name, marks=marks))
    return found


class _Compiled:
    """The op compiled, with the name `call_op` looks at."""

    def __init__(self, op) -> None:
        self.name = op.name
        self.fn = torch.compile(op.op, dynamic=False)

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)


@pytest.mark.parametrize("compiled_case", compiled_cases())
def test_compiled_matches_eager(compiled_case: Case):
    case = compiled_case
    _, sample = next(samples(case))
    eager = call_op(case.op, sample, {})
    torch._dynamo.reset()
    got = call_op(_Compiled(case.op), sample, {})
    for g, e in zip(tensors(got), tensors(eager), strict=True):
        assert g.device == e.device
        torch.testing.assert_close(g.cpu(), e.cpu(), atol=1e-5, rtol=1e-4, equal_nan=True)
