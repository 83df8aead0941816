"""The conformance run's summary (`conformance-summary.json`): items counted by status, by
part (forward, backward, errors), by dtype group (the core dtypes of the README's coverage,
the other real dtypes, complex ones) and by op family (the OpInfo name's namespace), with
every op's own counts. `scripts/coverage.py` writes the README's coverage from it."""

from collections import defaultdict

STATUSES = ("passed", "failed", "xfailed")
CORE_DTYPES = ("float32", "bfloat16", "float16", "int64", "bool")
# OpInfo names with these prefixes form a family; every other op is in "torch".
FAMILIES = ("linalg", "fft", "special", "nn.functional", "masked", "sparse", "signal", "_refs")


def family(op_name: str) -> str:
    """The op's family: its OpInfo name's namespace, or "torch"."""
    return next((f for f in FAMILIES if op_name.startswith(f + ".")), "torch")


def dtype_group(dtype: str) -> str:
    """core (the README's coverage dtypes), complex, other (real), or any (error inputs)."""
    if dtype in CORE_DTYPES:
        return "core"
    if dtype.startswith("complex"):
        return "complex"
    return "any" if dtype == "any" else "other"


def _counts():
    return defaultdict(int)


def summarize(outcomes: list[tuple[str, str, str, str]], mode: str) -> dict:
    """The summary of (op name, part, dtype, status) outcomes; `mode` says which samples ran."""
    totals = defaultdict(lambda: defaultdict(_counts))
    families = defaultdict(lambda: defaultdict(_counts))
    ops = defaultdict(lambda: defaultdict(lambda: defaultdict(_counts)))
    for op_name, part, dtype, status in outcomes:
        if status not in STATUSES:
            continue
        totals[part][dtype_group(dtype)][status] += 1
        families[family(op_name)][part][status] += 1
        ops[op_name][part][dtype][status] += 1

    def plain(counts):
        return {status: counts[status] for status in STATUSES}

    return {
        "mode": mode,
        "totals": {
            part: {group: plain(c) for group, c in sorted(groups.items())}
            for part, groups in sorted(totals.items())
        },
        "families": {
            name: {part: plain(c) for part, c in sorted(parts.items())}
            for name, parts in sorted(families.items())
        },
        "ops": {
            name: {
                part: {dtype: plain(c) for dtype, c in sorted(dtypes.items())}
                for part, dtypes in sorted(parts.items())
            }
            for name, parts in sorted(ops.items())
        },
    }
