"""Hostile input (issues 23 and 34): run the catalogues of tests/test_hostile.py and of the red
team's round 2 (tests/test_redteam_report.py, tests/test_redteam_records.py where it exists) and
count the classes.

    .venv/bin/python benchmarks/bench_hostile.py [--write]   # --write: into benchmarks/RESULTS.md

Every case of the catalogue is run as the suite runs it (in-process) and counted per family by
the class it ended in: a clean refusal, a correct acceptance, or a failure (the wrong class, a
traceback). Beside it, the cost of expected-max on 20,000 scores: the curve as computed (the
windows of estimators.expected_max) against the full N x N sums it replaced. With --write the
Markdown goes between the hostile markers of RESULTS.md.
"""

from __future__ import annotations

import importlib
import os
import platform
import shutil
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from markers import replace_between  # noqa: E402
from test_hostile import ACCEPTANCE, REFUSAL  # noqa: E402

from reprocompare.estimators import expected_max as em  # noqa: E402

RESULTS = ROOT / "benchmarks" / "RESULTS.md"
BEGIN, END = "<!-- hostile:begin -->\n", "<!-- hostile:end -->"
COMMAND = "nice .venv/bin/python benchmarks/bench_hostile.py --write"
SCORES = 20_000
#: the catalogues, each a test module with CASES and outcome(case, tmp)
CATALOGUES = ("test_hostile", "test_redteam_report", "test_redteam_records")


def catalogues() -> list[tuple[str, list, object]]:
    found = []
    for name in CATALOGUES:
        if (ROOT / "tests" / f"{name}.py").is_file():
            module = importlib.import_module(name)
            found.append((f"tests/{name}.py", module.CASES, module.outcome))
    return found


def run_catalogue(cases, outcome) -> tuple[dict[str, Counter], list[str], float]:
    counts: dict[str, Counter] = {}
    failures = []
    root = Path(tempfile.mkdtemp(prefix="bench-hostile-"))
    started = time.perf_counter()
    try:
        for case in cases:
            tmp = Path(tempfile.mkdtemp(dir=root))
            try:
                observed, message = outcome(case, tmp)
                ok = observed == case.expected and (
                    observed == ACCEPTANCE or (case.fragment in message
                                               and len(message.strip().splitlines()) == 1))
            except Exception as error:  # a traceback: counted, never hidden
                observed, message, ok = "traceback", repr(error), False
            counts.setdefault(case.family, Counter())[observed if ok else "failed"] += 1
            if not ok:
                failures.append(f"{case}: expected {case.expected}, got {observed}: {message}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return counts, failures, time.perf_counter() - started


def full_sums(scores: np.ndarray, weights) -> np.ndarray:
    """The curve as it was computed before issue 23: every budget weighs all N scores."""
    v = np.sort(scores)
    out = np.empty(v.size)
    for start in range(1, v.size + 1, 256):
        budgets = np.arange(start, min(start + 256, v.size + 1))
        out[budgets - 1] = weights(v.size, budgets) @ v
    return out


def expected_max_seconds() -> list[tuple[str, float, float, float]]:
    scores = np.random.default_rng(0).random(SCORES)
    rows = []
    for name, weights in (("unbiased", em.unbiased_weights), ("meanmax", em.meanmax_weights)):
        started = time.perf_counter()
        now = em.expected_max(scores, estimator=name).expected
        windowed = time.perf_counter() - started
        started = time.perf_counter()
        before = full_sums(scores, weights)
        full = time.perf_counter() - started
        rows.append((name, full, windowed, float(np.max(np.abs(now - before)))))
    return rows


def table(counts) -> list[str]:
    total = Counter()
    lines = ["| family | cases | clean refusals | correct acceptances | failed |",
             "|---|---|---|---|---|"]
    for family, counter in counts.items():
        total.update(counter)
        lines.append(f"| {family} | {sum(counter.values())} | {counter[REFUSAL]} | "
                     f"{counter[ACCEPTANCE]} | {counter['failed'] + counter['traceback']} |")
    lines.append(f"| **all** | **{sum(total.values())}** | **{total[REFUSAL]}** | "
                 f"**{total[ACCEPTANCE]}** | **{total['failed'] + total['traceback']}** |")
    return lines


def markdown(results, timing) -> str:
    """``results``: (catalogue, its counts, its failures, its seconds) for each catalogue."""
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    cases = sum(sum(sum(c.values()) for c in counts.values()) for _, counts, _, _ in results)
    failed = [line for _, _, failures, _ in results for line in failures]
    head = (f"Measured {datetime.now():%Y-%m-%d %H:%M} with `{COMMAND}` on {platform.machine()} "
            f"(AMD EPYC, 2 cores, load average at the end {load}), Python "
            f"{platform.python_version()}, numpy {np.__version__}. {len(results)} catalogues, "
            f"{cases} cases, run in-process: each case must end as a clean refusal (a UserError "
            "or ValueError, or exit status 2 -- 1 or 130 when the world fails under a command "
            "-- in one line naming the file, line, key or option, no traceback) or a correct "
            f"acceptance. {len(failed)} failed.\n")
    lines: list[str] = []
    for name, counts, _, seconds in results:
        lines += ["", f"The catalogue of {name} ({sum(sum(c.values()) for c in counts.values())} "
                  f"cases, {seconds:.1f} s):", "", *table(counts)]
    speed = ["", f"expected-max on {SCORES:,} scores (seeded uniform), the whole curve n = 1..N:",
             "", "| estimator | full N x N sums (before) | windows (now) | largest difference |",
             "|---|---|---|---|"]
    speed += [f"| {name} | {full:.2f} s | {windowed:.3f} s | {diff:.1e} |"
              for name, full, windowed, diff in timing]
    failures = ["", "Failures:", "", *(f"- {line}" for line in failed)] if failed else []
    return head + "\n".join(lines + speed + failures) + "\n"


def main(argv: list[str]) -> int:
    results = [(name, *run_catalogue(cases, outcome)) for name, cases, outcome in catalogues()]
    text = markdown(results, expected_max_seconds())
    print(text, end="")
    if "--write" in argv:
        replace_between(RESULTS, BEGIN, END, text)
        print(f"written into {RESULTS.relative_to(ROOT)}", file=sys.stderr)
    return 1 if any(failures for _, _, failures, _ in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
