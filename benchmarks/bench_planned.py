"""Does a planned design cover where it says? Its repeated confidence intervals measured (issue 39).

    nice -n 19 .venv/bin/python benchmarks/bench_planned.py [--studies N] [--jobs 2] [--write]

Seeded. For each plan (looks every ``wave`` up to a maximum R) and true SNR, ``--studies``
simulated studies draw R estimates (normal, or a standardized Gamma(2): skewness 1.41, the
family docs/statistics.md measures the other intervals on), and at each planned look compute the
intervals a planned study prints (estimators/group_sequential.py): the SNR's exact noncentral t
interval and Eq. 1's share Clopper-Pearson interval, each at the look's own level. A study
*covers* when every planned look's interval holds the true value (what the design promises,
so at whichever look it stops). "textbook levels" are the canonical (normal-law) boundaries the
design would use without its calibration on t statistics. Prints the Markdown table
(``--write``: into docs/sequential.md between the ``planned-coverage`` markers); progress goes to
stderr.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from scipy import stats

from reprocompare.base.markdown import md_table
from reprocompare.estimators.group_sequential import look_levels, planned_looks

from markers import cpu_name, replace_between

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "sequential.md"
#: (maximum R, wave): the maxima our users run (5-20), looks after every repetition, and long
#: plans up to R = 1000
PLANS = ((5, 5), (10, 5), (20, 5), (20, 2), (30, 1), (200, 5), (1000, 10))
SNRS = (0.0, 0.84, 2.0, 4.0)
LAWS = ("normal", "skewed")
ALPHA = 0.05
SEED = 39
HEADER = ["law", "maximum R", "wave", "looks", "true SNR", "SNR covers at every look",
          "misses low", "misses high", "with textbook levels", "share covers at every look"]


def _draw(law: str, snr: float, shape: tuple[int, int], rng) -> np.ndarray:
    if law == "normal":
        return rng.standard_normal(shape) + snr
    return (rng.gamma(2.0, 1.0, shape) - 2.0) / math.sqrt(2.0) + snr


def _true_share(law: str, snr: float) -> float:
    """P(x > 0) of the law: Eq. 1's share the share interval should cover."""
    if law == "normal":
        return float(stats.norm.cdf(snr))
    return float(stats.gamma.sf(2.0 - math.sqrt(2.0) * snr, 2.0))


def cell(law: str, maximum: int, wave: int, snr: float, studies: int) -> list[str]:
    """One row: coverage at every planned look over ``studies`` seeded studies."""
    plan = planned_looks(wave, maximum)
    levels = look_levels(plan, ALPHA)
    textbook = look_levels(plan, ALPHA, known_variance=True)
    rng = np.random.default_rng([SEED, maximum, wave, int(1000 * snr), LAWS.index(law)])
    x = _draw(law, snr, (studies, maximum), rng)
    share = _true_share(law, snr)
    low = np.zeros(studies, dtype=bool)
    high = np.zeros(studies, dtype=bool)
    textbook_missed = np.zeros(studies, dtype=bool)
    share_missed = np.zeros(studies, dtype=bool)
    for r, level, canonical in zip(plan, levels, textbook):
        head = x[:, :r]
        t = math.sqrt(r) * head.mean(axis=1) / head.std(axis=1, ddof=1)
        # the exact interval misses theta low (high) exactly when F_nct(T; sqrt(R) theta) is
        # above 1 - a/2 (below a/2)
        cdf = stats.nct.cdf(t, r - 1, math.sqrt(r) * snr) if snr else stats.t.cdf(t, r - 1)
        low |= cdf >= 1 - level / 2
        high |= cdf <= level / 2
        textbook_missed |= (cdf >= 1 - canonical / 2) | (cdf <= canonical / 2)
        k = np.sum(head > 0, axis=1)
        lo = np.where(k > 0, stats.beta.ppf(level / 2, k, r - k + 1), 0.0)
        hi = np.where(k < r, stats.beta.ppf(1 - level / 2, k + 1, r - k), 1.0)
        share_missed |= (share < lo) | (share > hi)
    pct = lambda a: f"{100 * a:.2f}"  # noqa: E731
    return [law, str(maximum), str(wave), str(len(plan)), f"{snr:g}",
            pct(1 - np.mean(low | high)), pct(np.mean(low)), pct(np.mean(high)),
            pct(1 - np.mean(textbook_missed)), pct(1 - np.mean(share_missed))]


def _rows(args) -> list[list[str]]:
    law, (maximum, wave), studies = args
    rows = []
    for snr in SNRS:
        start = time.time()
        rows.append(cell(law, maximum, wave, snr, studies))
        print(f"{law}, max {maximum}, wave {wave}, SNR {snr:g}: {time.time() - start:.0f} s",
              file=sys.stderr, flush=True)
    return rows


def table(studies: int, jobs: int = 1) -> str:
    """The Markdown table, the plans computed in ``jobs`` processes."""
    work = [(law, plan, studies) for law in LAWS for plan in PLANS]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        parts = list(pool.map(_rows, work))
    rows = [row for part in parts for row in part]
    se = 100 * math.sqrt(0.95 * 0.05 / studies)
    note = (f"Percent of {studies:,} simulated studies per row (seed {SEED}; Monte Carlo "
            f"standard error of a coverage near 95: {se:.2f}), nominal 95, looks every wave up "
            "to the maximum (and R = 2 when the wave is 1), Pocock-type spending; "
            f"`benchmarks/bench_planned.py --studies {studies} --jobs {jobs}` on {cpu_name()}, "
            f"{os.cpu_count()} cores, Python {platform.python_version()}, numpy "
            f"{np.__version__}, scipy {__import__('scipy').__version__}, beside other work.")
    return "\n".join(md_table(HEADER, rows)) + "\n\n" + note + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--studies", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=1, help="processes (one per law and plan)")
    parser.add_argument("--write", action="store_true", help="into docs/sequential.md")
    args = parser.parse_args()
    made = table(args.studies, args.jobs)
    if args.write:
        replace_between(DOCS, "<!-- planned-coverage:begin -->\n",
                        "<!-- planned-coverage:end -->", made)
    sys.stdout.write(made)


if __name__ == "__main__":
    main()
