"""Size of almost stochastic order (issue 25): how often eps_min < 0.5 when A = B in law.

    nice .venv/bin/python benchmarks/bench_aso.py [--write]   # --write: docs/statistics.md
                                                              # and benchmarks/RESULTS.md
    nice .venv/bin/python benchmarks/bench_aso.py --row 5     # one row, as the test checks it

For each R, simulated studies draw R scores for A and R for B from one law (N(0, 1), or a
standardized Gamma(2) for skewed scores) and run :func:`reprocompare.estimators.aso.
almost_stochastic_order` at its defaults (deepsig's: confidence 0.95, 1000 bootstrap
iterations, dt = 0.005). The size is the share of studies with eps_min < 0.5, the rule of Dror
et al. (2019); the share below 0.2 (Ulmer et al. 2022's stricter reading) is printed beside it.
Every (R, law) cell has its own seed, so one row can be recomputed alone (``--row R``). ``--write``
puts the table between the ``aso`` markers of docs/statistics.md, the run's machine and time into
benchmarks/RESULTS.md, and the R = 5 row's eps_min, study by study, into
benchmarks/aso_size_r5.json: tests/test_aso.py checks the docs' row against those and recomputes
a sample of the studies (a cell's draws replay in milliseconds, so any study can be run alone),
where the whole row costs 18 CPU s.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import scipy

from reprocompare.base.seeds import derive_seed
from reprocompare.estimators.aso import almost_stochastic_order

from markers import cpu_name

ROOT = Path(__file__).resolve().parents[1]
#: R -> simulated studies per law (a Monte Carlo standard error of 0.7 points near 5%)
STUDIES = {5: 1000, 10: 1000, 20: 1000, 50: 1000, 200: 1000, 1000: 1000}
LAWS = ("normal", "skewed")
BEGIN, END = "<!-- aso:begin -->\n", "<!-- aso:end -->"
RESULTS_BEGIN, RESULTS_END = "<!-- aso-bench:begin -->\n", "<!-- aso-bench:end -->"
#: the R whose studies --write keeps, one eps_min each, in STUDIES_KEPT
KEPT_R = 5
STUDIES_KEPT = ROOT / "benchmarks" / f"aso_size_r{KEPT_R}.json"


def draw(law: str, size: int, rng: np.random.Generator) -> np.ndarray:
    if law == "normal":
        return rng.standard_normal(size)
    return (rng.gamma(2.0, 1.0, size) - 2.0) / np.sqrt(2.0)  # mean 0, sd 1, skewness 1.41


def studies(repetitions: int, law: str) -> Iterator[tuple[np.ndarray, np.ndarray, int]]:
    """The cell's simulated studies in order, each (A's R scores, B's, ASO's seed): one
    generator per cell, so a study's draws follow those of the studies before it."""
    rng = np.random.default_rng(derive_seed(2026, "aso-size", repetitions, LAWS.index(law)))
    for _ in range(STUDIES[repetitions]):
        a, b = draw(law, repetitions, rng), draw(law, repetitions, rng)
        yield a, b, int(rng.integers(2**31))


def eps_min(a: np.ndarray, b: np.ndarray, seed: int) -> float:
    """One simulated study's eps_min, ASO at its defaults."""
    return almost_stochastic_order(a, b, random_state=seed).eps_min


def cells(repetitions: int) -> dict[str, list[float]]:
    """Each law's eps_min, one per simulated study, in order."""
    return {law: [eps_min(*study) for study in studies(repetitions, law)] for law in LAWS}


def shares(eps: list[float]) -> tuple[float, float]:
    """(share of eps_min < 0.5, share < 0.2) over a cell's simulated studies."""
    return sum(e < 0.5 for e in eps) / len(eps), sum(e < 0.2 for e in eps) / len(eps)


def row(repetitions: int, eps: dict[str, list[float]] | None = None) -> str:
    """The table's row of R = ``repetitions``, of ``eps`` (:func:`cells`) when given."""
    eps = eps or cells(repetitions)
    (normal, normal_strict), (skewed, skewed_strict) = (shares(eps[law]) for law in LAWS)
    return (f"| {repetitions} | {len(eps[LAWS[0]])} | {100 * normal:.1f} | "
            f"{100 * skewed:.1f} | {100 * normal_strict:.1f} | {100 * skewed_strict:.1f} |")


def section(rows: list[str]) -> str:
    return "\n".join([
        "| R (scores per model) | studies per law | eps_min < 0.5, normal | eps_min < 0.5, "
        "skewed | eps_min < 0.2, normal | eps_min < 0.2, skewed |",
        "|---|---|---|---|---|---|", *rows]) + "\n"


def _replace(path: Path, begin: str, end: str, text: str, heading: str) -> None:
    content = path.read_text()
    if begin not in content:  # first run: a new section at the end
        content = content.rstrip("\n") + f"\n\n{heading}\n\n{begin}{end}\n"
    head, rest = content.split(begin, 1)
    path.write_text(f"{head}{begin}{text}{end}{rest.split(end, 1)[1]}")


def write_studies(eps: dict[str, list[float]]) -> None:
    """STUDIES_KEPT: R = KEPT_R's eps_min by law, in the order of the studies (JSON floats
    read back to the bit)."""
    STUDIES_KEPT.write_text(json.dumps({"repetitions": KEPT_R, "eps_min": eps}) + "\n")


def main() -> None:
    arguments = sys.argv[1:]
    if arguments[:1] == ["--row"]:
        sys.stdout.write(row(int(arguments[1])) + "\n")
        return
    started = time.time()
    eps = {r: cells(r) for r in STUDIES}
    text = section([row(r, eps[r]) for r in STUDIES])
    if arguments != ["--write"]:
        sys.stdout.write(text)
        return
    _replace(ROOT / "docs" / "statistics.md", BEGIN, END, text, "## Almost stochastic order")
    write_studies(eps[KEPT_R])
    seconds = time.time() - started
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    _replace(ROOT / "benchmarks" / "RESULTS.md", RESULTS_BEGIN, RESULTS_END,
             f"Measured {time.strftime('%Y-%m-%d %H:%M')} with `nice .venv/bin/python "
             f"benchmarks/bench_aso.py --write` in {seconds:.0f} s on {platform.machine()} "
             f"({cpu_name()}, {os.cpu_count()} cores, load "
             f"average at the end {load}), Python {platform.python_version()}, numpy "
             f"{np.__version__}, scipy {scipy.__version__}. The table (also in "
             f"docs/statistics.md, \"Almost stochastic order\"): the share of simulated studies, "
             f"in percent, whose eps_min falls below 0.5 (and 0.2) when A's and B's R scores "
             f"come from one law.\n\n{text}",
             "## Almost stochastic order: size (issue 25)")


if __name__ == "__main__":
    main()
