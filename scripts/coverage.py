"""Writes the README's conformance coverage from a summary the conformance run wrote
(`conformance-summary.json`; run the whole sweep for it: `MOJO_CONFORMANCE_SAMPLES=all`).

    python scripts/coverage.py [SUMMARY] [--write]

prints the coverage text, or with --write puts it between the README's coverage markers."""

import json
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEGIN = "<!-- coverage: written by scripts/coverage.py from conformance-summary.json -->"
END = "<!-- /coverage -->"


def count(counts: dict) -> tuple[int, int]:
    """(passed, items) of a {status: number} count."""
    return counts.get("passed", 0), sum(counts.values())


def merged(*counts: dict) -> dict:
    total: dict = {}
    for c in counts:
        for status, n in c.items():
            total[status] = total.get(status, 0) + n
    return total


def of(counts: dict) -> str:
    passed, items = count(counts)
    return f"{passed:,} of {items:,}"


def coverage(summary: dict) -> str:
    totals = summary["totals"]
    empty: dict = {}

    def group(part: str, name: str) -> dict:
        return totals.get(part, {}).get(name, empty)

    real = {part: merged(group(part, "core"), group(part, "other")) for part in totals}
    listed = sum(c.get("xfailed", 0) for groups in totals.values() for c in groups.values())
    failed = sum(c.get("failed", 0) for groups in totals.values() for c in groups.values())
    families = ", ".join(
        f"{name} {of(parts.get('forward', empty))}"
        for name, parts in summary["families"].items()
        if parts.get("forward")
    )
    text = (
        f"Coverage ({summary['mode']}): forward {of(real.get('forward', empty))} real-dtype "
        f"items pass (in float32, bfloat16, float16, int64 and bool: "
        f"{of(group('forward', 'core'))}), backward {of(real.get('backward', empty))}, "
        f"error inputs {of(group('errors', 'any'))}; complex items are counted apart: forward "
        f"{of(group('forward', 'complex'))}, backward {of(group('backward', 'complex'))}. "
        f"{listed:,} items fail as `tests/conformance/expected_failures.py` lists, each with "
        f"its reason; {failed:,} fail unlisted. Forward items by family: {families}."
    )
    return textwrap.fill(text, width=92, initial_indent="- ", subsequent_indent="  ")


def main(argv: list[str]) -> int:
    paths = [a for a in argv if not a.startswith("--")]
    summary_path = Path(paths[0]) if paths else ROOT / "conformance-summary.json"
    text = coverage(json.loads(summary_path.read_text()))
    if "--write" not in argv:
        print(text)
        return 0
    readme = ROOT / "README.md"
    content = readme.read_text()
    start, end = content.index(BEGIN) + len(BEGIN), content.index(END)
    readme.write_text(content[:start] + "\n" + text + "\n" + content[end:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
