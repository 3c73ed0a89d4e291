"""A sharper sequence? The confidence sequence's mixing prior measured (issue 39, item 2).

    nice -n 19 .venv/bin/python benchmarks/bench_prior.py [--studies N] [--jobs 2] [--write]

Seeded. The rule as `reprocompare sequential` runs it (estimators/planning.py's ``simulate``:
waves of 5, one deciding estimator, the schema's 95% confidence, threshold 0.8 and futility
level) on normal estimates of true SNR S, for each maximum R of the table and each prior: the
default (:data:`reprocompare.estimators.sequential.PRIOR`, one normal of scale 2) and a mixture
of normals tuned to a maximum of 200 (:data:`TUNED`: a wide component that still decides very
large SNRs at R = 5, a middle one for "neither" at the threshold's distance, a narrow one for
SNRs within 0.2-0.5 of the threshold at R in the hundreds). Study i of a cell draws the same
values under both priors, so two rows of a cell differ only by the prior. Prints the Markdown
table (``--write``: into docs/sequential.md between the ``prior`` markers); progress goes to
stderr.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from reprocompare import schemas
from reprocompare.base.markdown import md_table
from reprocompare.estimators.planning import (futility_rule, normal_source, simulate,
                                              truth_of_snr)
from reprocompare.estimators.sequential import PRIOR

from markers import cpu_name, replace_between

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "sequential.md"
#: the mixture measured against the default: (weight, scale) pairs of normals
TUNED = ((0.4, 3.0), (0.3, 0.8), (0.3, 0.3))
PRIORS = {"scale 2 (default)": PRIOR, "mixture 0.4 N(3), 0.3 N(0.8), 0.3 N(0.3)": TUNED}
#: maximum R -> the true SNRs measured there (the horizons our studies run, and the issue's 200)
CELLS = {10: (0.0, 2.0, 3.0, 4.0, 6.0), 20: (0.0, 1.5, 2.0, 3.0),
         200: (0.0, 0.6, 0.84, 1.0, 1.5, 2.0, 4.0, 12.0)}
WAVE = 5
LEVEL = schemas.default("stopping.futility")
SEED = 39
HEADER = ["maximum R", "true SNR", "prior", "mean R", "90th pct R", "decided",
          "stopped for futility", "wrong verdict"]


def cell(maximum: int, snr: float, prior, studies: int) -> dict:
    """The rule on ``studies`` seeded studies of one SNR, maximum and prior."""
    futility = futility_rule(LEVEL, wave=WAVE, max_repetitions=maximum, prior=prior)
    return simulate(normal_source(snr), ["Avg"], studies=studies, seed=SEED, wave=WAVE,
                    max_repetitions=maximum, truth={"Avg": truth_of_snr(snr)},
                    futility=futility, prior=prior).summary()


def rows_of(maximum: int, studies: int) -> list[list[str]]:
    """Every row of one maximum R."""
    pct = lambda x: f"{100 * x:.1f}%"  # noqa: E731
    rows = []
    for snr in CELLS[maximum]:
        for name, prior in PRIORS.items():
            start = time.time()
            s = cell(maximum, snr, prior, studies)
            rows.append([str(maximum), f"{snr:g}", name, f"{s['mean_repetitions']:.1f}",
                         str(s["p90_repetitions"]), pct(s["decided_share"]),
                         pct(s["futility_share"]), pct(s["wrong_share"])])
            print(f"max {maximum}, SNR {snr:g}, {name}: {time.time() - start:.0f} s",
                  file=sys.stderr, flush=True)
    return rows


def table(studies: int, jobs: int = 1) -> str:
    """The Markdown table, the maxima computed in ``jobs`` processes."""
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        parts = list(pool.map(rows_of, sorted(CELLS, reverse=True), [studies] * len(CELLS)))
    rows = sorted((r for part in parts for r in part), key=lambda r: int(r[0]))
    note = (f"{studies} studies per row (seed {SEED}), normal estimates of sd 1, waves of "
            f"{WAVE}, one deciding estimator, 95% confidence, threshold 0.8, futility level "
            f"{LEVEL:g}; `benchmarks/bench_prior.py --studies {studies} --jobs {jobs}` on "
            f"{cpu_name()}, {os.cpu_count()} cores, Python {platform.python_version()}, beside "
            "other work.")
    return "\n".join(md_table(HEADER, rows)) + "\n\n" + note + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--studies", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1, help="processes (one per maximum R)")
    parser.add_argument("--write", action="store_true", help="into docs/sequential.md")
    args = parser.parse_args()
    made = table(args.studies, args.jobs)
    if args.write:
        replace_between(DOCS, "<!-- prior:begin -->\n", "<!-- prior:end -->", made)
    sys.stdout.write(made)


if __name__ == "__main__":
    main()
