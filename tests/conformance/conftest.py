"""Outcome bookkeeping for the OpInfo conformance run: the expected-failure registry, the
one-line summary, the per-op JSON summary and `MOJO_CONFORMANCE_UPDATE=1` regeneration."""

import json
import os
from collections import defaultdict
from pathlib import Path

import pytest

from .harness import RECORDER, REGISTRY_PATH, SAMPLES, UPDATE, write_registry
from .summary import summarize

# Outcomes of test_compiled.py's items (compiled against eager), for their summary line.
COMPILED_OUTCOMES: dict[str, str] = {}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if "test_compiled.py" in item.nodeid and report.when == "call":
        passed = "xfailed" if hasattr(report, "wasxfail") else report.outcome
        COMPILED_OUTCOMES[item.nodeid] = passed
    key = getattr(item, "conformance_key", None)
    if key is None:
        return report
    RECORDER.keys[item.nodeid] = key
    if report.when == "call" or (report.when == "setup" and not report.passed):
        if hasattr(report, "wasxfail"):
            outcome = "xfailed"
        elif report.passed:
            outcome = "passed"
        elif report.skipped:
            outcome = "skipped"
        else:
            outcome = "failed"
        RECORDER.outcomes[item.nodeid] = outcome
    return report


def pytest_collection_modifyitems(items):
    for item in items:
        callspec = getattr(item, "callspec", None)
        case = callspec.params.get("case") if callspec else None
        if case is not None and hasattr(case, "op_name"):
            item.conformance_key = (case.op_name, case.part, case.dtype)


def pytest_sessionfinish(session):
    if not RECORDER.outcomes:
        return
    outcomes = [(*RECORDER.keys[nodeid], outcome) for nodeid, outcome in RECORDER.outcomes.items()]
    mode = "all samples" if SAMPLES is None else f"first {SAMPLES} samples per item"
    path = Path(os.environ.get("MOJO_CONFORMANCE_SUMMARY", "conformance-summary.json"))
    path.write_text(json.dumps(summarize(outcomes, mode), indent=1) + "\n")
    if UPDATE:
        from .expected_failures import EXPECTED_FAILURES

        write_registry(RECORDER, EXPECTED_FAILURES)


def pytest_terminal_summary(terminalreporter):
    if COMPILED_OUTCOMES:
        counts = defaultdict(int)
        for outcome in COMPILED_OUTCOMES.values():
            counts[outcome] += 1
        terminalreporter.write_line(
            f"compiled conformance: {counts['passed']} passed, {counts['failed']} failed, "
            f"{counts['xfailed']} expected failures (first float32 sample of each elementwise "
            "and reduction op, torch.compile against eager mojo)"
        )
    if not RECORDER.outcomes:
        return
    counts = defaultdict(int)
    for outcome in RECORDER.outcomes.values():
        counts[outcome] += 1
    mode = "all samples" if SAMPLES is None else f"first {SAMPLES} samples per item"
    terminalreporter.write_line(
        f"conformance: {counts['passed']} passed, {counts['failed']} failed, "
        f"{counts['xfailed']} expected failures ({mode})"
    )
    if UPDATE:
        terminalreporter.write_line(f"conformance: rewrote {REGISTRY_PATH}")
