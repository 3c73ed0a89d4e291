"""Coverage of the variance decomposition's 95% intervals (estimators.variance; issue 25, item 2).

    .venv/bin/python benchmarks/bench_variance.py [--write]   # --write: into docs/statistics.md

Seeded simulation of the nested normal model y_spq = a_s + b_sp + e_spq at the designs a study
runs, from the smallest that separates two sources (2 splits x 2 seeds, R = 4) to the paper's
R = 1000 (10 samples x 10 splits x 10 seeds), under three truths: equal sources, a source that is
0 (the boundary: its ANOVA estimate is truncated), and a dominant sample (with one sample, its
variance is a constant shift the data cannot show: the shares are of split and seed). For each, the share
of studies whose generalized confidence interval holds the true variance of each source and the
true share of each source. R = 5, a prime, is no nested design of two sources with 2 levels
each: its nearest designs are R = 4 and R = 8. Printed as the Markdown of docs/statistics.md's
"Variance decomposition" (between its markers).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from markers import replace_between  # noqa: E402
from reprocompare.estimators.variance import FACTORS, decompose  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "statistics.md"
BEGIN, END = "<!-- variance:begin -->\n", "<!-- variance:end -->"
#: (samples, splits, seeds); a 1 leaves the factor out
DESIGNS = ((1, 2, 2), (2, 2, 2), (3, 2, 2), (10, 10, 10))
#: true variances of sample, split, seed
TRUTHS = {"equal (1, 1, 1)": (1.0, 1.0, 1.0), "a zero source (0, 1, 0.25)": (0.0, 1.0, 0.25),
          "sample dominant (4, 1, 0.25)": (4.0, 1.0, 0.25)}
STUDIES = {4: 2000, 8: 2000, 12: 2000, 1000: 1000}


def coverage(design: tuple, truth: tuple, studies: int) -> tuple[list[float], list[float]]:
    """Per kept source: the share of seeded studies whose interval holds its true variance,
    and whose share interval holds its true share."""
    kept = [j for j, n in enumerate(design) if n > 1 or FACTORS[j] == "split"]
    shape = [design[j] for j in kept]
    sd = np.sqrt([truth[j] for j in kept])
    true_share = np.array([truth[j] for j in kept]) / sum(truth[j] for j in kept)
    rng = np.random.default_rng([2026, *design, list(TRUTHS.values()).index(truth)])
    hits, share_hits = np.zeros(len(kept)), np.zeros(len(kept))
    for study in range(studies):
        y = np.zeros(shape)
        for axis, scale in enumerate(sd):  # one draw per level of each factor, nested
            y = y + scale * rng.standard_normal(shape[:axis + 1] + [1] * (len(shape) - axis - 1))
        d = decompose(y, tuple(FACTORS[j] for j in kept), random_state=study)
        for i, c in enumerate(d.components):
            hits[i] += c.low <= truth[kept[i]] <= c.high
            share_hits[i] += c.share_low <= true_share[i] <= c.share_high
    return list(hits / studies), list(share_hits / studies)


def table() -> str:
    lines = ["| design (samples x splits x seeds) | R | studies | truth (variances) | "
             "variance: sample / split / seed | share: sample / split / seed |",
             "|---|---|---|---|---|---|"]
    for design in DESIGNS:
        r = int(np.prod(design))
        for name, truth in TRUTHS.items():
            variances, shares = coverage(design, truth, STUDIES[r])
            pad = ["--"] if design[0] == 1 else []
            cells = lambda found: " / ".join(pad + [f"{100 * c:.1f}%" for c in found])
            lines.append(f"| {' x '.join(map(str, design))} | {r} | {STUDIES[r]} | {name} | "
                         f"{cells(variances)} | {cells(shares)} |")
    return "\n".join(lines) + "\n"


def main(write: bool) -> None:
    made = table()
    if not write:
        sys.stdout.write(made)
        return
    replace_between(DOCS, BEGIN, END, made)


if __name__ == "__main__":
    main("--write" in sys.argv[1:])
