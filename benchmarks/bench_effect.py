"""Coverage of the mean difference's 95% interval (estimators.effect; issue 24, item 3).

    .venv/bin/python benchmarks/bench_effect.py [--write]   # --write: into docs/statistics.md

Table 4 prints the mean of A - B over R repetitions with Student's t interval. It is exact when
the estimates are normal; a study's estimates need not be. Seeded simulation: for each R and
law, many studies of R estimates; the share whose interval holds the law's mean. Laws: normal;
skewed (a standardized Gamma(2), skewness 1.41: the ST estimates of a small sample lean like
this); heavy-tailed (Student t with 3 degrees of freedom, scaled to variance 1). Printed as the
Markdown of docs/statistics.md's "The effect in F1 points" (between its markers).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from scipy import stats

from markers import replace_between

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "statistics.md"
BEGIN, END = "<!-- effect:begin -->\n", "<!-- effect:end -->"
REPETITIONS = (5, 10, 30, 200, 1000)
STUDIES = {5: 20000, 10: 20000, 30: 20000, 200: 5000, 1000: 2000}
LAWS = {
    "normal": lambda rng, shape: rng.standard_normal(shape),
    "skewed": lambda rng, shape: (rng.gamma(2.0, 1.0, shape) - 2.0) / np.sqrt(2.0),
    "heavy-tailed": lambda rng, shape: rng.standard_t(3, shape) / np.sqrt(3.0),
}


def coverage(law: str, repetitions: int, studies: int) -> float:
    """Share of seeded studies whose 95% Student interval holds the law's mean (0)."""
    rng = np.random.default_rng([2026, repetitions, list(LAWS).index(law)])
    draws = LAWS[law](rng, (studies, repetitions))
    half = stats.t.ppf(0.975, repetitions - 1) * draws.std(axis=1, ddof=1) / np.sqrt(repetitions)
    return float(np.mean(np.abs(draws.mean(axis=1)) <= half))


def table() -> str:
    lines = ["| R | studies | normal | skewed (Gamma 2) | heavy-tailed (t, 3 df) |",
             "|---|---|---|---|---|"]
    for r in REPETITIONS:
        cells = " | ".join(f"{100 * coverage(law, r, STUDIES[r]):.1f}%" for law in LAWS)
        lines.append(f"| {r} | {STUDIES[r]} | {cells} |")
    return "\n".join(lines) + "\n"


def main(write: bool) -> None:
    made = table()
    if not write:
        sys.stdout.write(made)
        return
    replace_between(DOCS, BEGIN, END, made)


if __name__ == "__main__":
    main("--write" in sys.argv[1:])
