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

``--spending`` instead measures the choice of spending function: the normal path's decisions
(the verdict's thresholds on the t statistic, intersected over the looks; no normality check, no
futility) of the confidence sequence and of planned designs with Lan and DeMets' Pocock-type
and O'Brien-Fleming-type spending, on the same seeded normal studies (``planned-spending``
markers).

``--budget`` measures what a small fixed budget buys: the rule exactly as `reprocompare
sequential` runs it (estimators/planning.py's ``simulate``: the normality check at every look,
futility stopping at the schema's level, one deciding estimator) at the maxima our users run,
under each design, on the same seeded normal studies (``planned-budget`` markers).
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

from reprocompare import schemas
from reprocompare.base.markdown import md_table
from reprocompare.estimators.futility import t_threshold
from reprocompare.estimators.group_sequential import look_levels, planned_looks
from reprocompare.estimators.planning import (futility_rule, normal_source, simulate,
                                              truth_of_snr)
from reprocompare.estimators.verdict import decision_bounds

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


#: maximum R -> true SNRs of the spending comparison
SPENDING_CELLS = {10: (0.0, 2.0, 4.0, 12.0), 20: (0.0, 1.5, 2.0, 4.0),
                  200: (0.0, 0.6, 0.84, 1.0, 1.5, 2.0, 4.0, 12.0)}
SPENDING_HEADER = ["maximum R", "true SNR", "intervals", "mean R", "90th pct R", "decided",
                   "wrong verdict"]


def _thresholds(design: str, r: int, level: float) -> list[float]:
    """t thresholds of the four interval events at a look (low >= b+, high <= b-, low > b-,
    high < b+), for a confidence sequence or a planned look's exact interval."""
    below, above = decision_bounds()
    if design == "confidence sequence":
        cs = lambda c: t_threshold(r, c, 1 - ALPHA)  # noqa: E731
        return [cs(above), -cs(-below), cs(below), -cs(-above)]
    q = lambda p, c: float(stats.nct.ppf(p, r - 1, math.sqrt(r) * c))  # noqa: E731
    return [q(1 - level / 2, above), q(level / 2, below), q(1 - level / 2, below),
            q(level / 2, above)]


def spending_row(maximum: int, snr: float, design: str, studies: int) -> list[str]:
    """Mean R at the decision, decided and wrong shares, normal path only."""
    plan = planned_looks(5, maximum)
    spending = {"Pocock type": "pocock", "O'Brien-Fleming type": "obrien-fleming"}
    levels = (look_levels(plan, ALPHA, spending[design]) if design in spending
              else [ALPHA] * len(plan))
    x = np.random.default_rng([SEED, maximum, int(1000 * snr)]).standard_normal(
        (studies, maximum)) + snr
    reached = np.zeros((studies, 4), dtype=bool)
    stop = np.full(studies, maximum)
    decided = np.zeros(studies, dtype=bool)
    for r, level in zip(plan, levels):
        head = x[:, :r]
        t = math.sqrt(r) * head.mean(axis=1) / head.std(axis=1, ddof=1)
        th = _thresholds(design, r, level)
        reached |= np.stack([t >= th[0], t <= th[1], t >= th[2], t <= th[3]], axis=1)
        now = reached[:, 0] | reached[:, 1] | (reached[:, 2] & reached[:, 3])
        stop[now & ~decided] = r
        decided |= now
    below, above = decision_bounds()
    right = 0 if snr >= above else (1 if snr <= below else 2)
    said = np.where(reached[:, 0], 0, np.where(reached[:, 1], 1, 2))
    wrong = decided & (said != right)
    pct = lambda a: f"{100 * a:.1f}%"  # noqa: E731
    return [str(maximum), f"{snr:g}", design, f"{stop.mean():.1f}",
            f"{np.percentile(stop, 90):.0f}", pct(decided.mean()), pct(wrong.mean())]


def spending_table(studies: int) -> str:
    """The spending comparison's Markdown table."""
    rows = [spending_row(m, snr, design, studies) for m, snrs in SPENDING_CELLS.items()
            for snr in snrs
            for design in ("confidence sequence", "Pocock type", "O'Brien-Fleming type")]
    note = (f"{studies:,} normal studies per row (seed {SEED}), the same studies in the three "
            "rows of a cell; waves of 5, one verdict at 95%, threshold 0.8, the normal path's "
            "decisions only (no normality check, no futility); `benchmarks/bench_planned.py "
            f"--spending --studies {studies}` on {cpu_name()}, {os.cpu_count()} cores, beside "
            "other work.")
    return "\n".join(md_table(SPENDING_HEADER, rows)) + "\n\n" + note + "\n"


#: maximum R -> true SNRs of the budget table (waves of 5)
BUDGET_CELLS = {10: (0.0, 1.5, 2.0, 3.0, 4.0), 20: (0.0, 1.5, 2.0, 3.0)}
BUDGET_HEADER = ["maximum R", "true SNR", "design", "mean R", "90th pct R", "decided",
                 "stopped for futility", "wrong verdict"]
LEVEL = schemas.default("stopping.futility")


def budget_row(maximum: int, snr: float, design: str, studies: int) -> list[str]:
    """The rule as the workflow runs it on ``studies`` seeded normal studies."""
    futility = futility_rule(LEVEL, wave=5, max_repetitions=maximum, design=design)
    s = simulate(normal_source(snr), ["Avg"], studies=studies, seed=SEED, wave=5,
                 max_repetitions=maximum, truth={"Avg": truth_of_snr(snr)},
                 futility=futility, design=design).summary()
    pct = lambda x: f"{100 * x:.1f}%"  # noqa: E731
    return [str(maximum), f"{snr:g}", design, f"{s['mean_repetitions']:.1f}",
            str(s["p90_repetitions"]), pct(s["decided_share"]), pct(s["futility_share"]),
            pct(s["wrong_share"])]


def _budget_rows(args) -> list[list[str]]:
    maximum, studies = args
    rows = []
    for snr in BUDGET_CELLS[maximum]:
        for design in ("anytime", "planned"):
            start = time.time()
            rows.append(budget_row(maximum, snr, design, studies))
            print(f"budget: max {maximum}, SNR {snr:g}, {design}: {time.time() - start:.0f} s",
                  file=sys.stderr, flush=True)
    return rows


def budget_table(studies: int, jobs: int = 1) -> str:
    """The budget table's Markdown, one process per maximum."""
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        parts = list(pool.map(_budget_rows, [(m, studies) for m in BUDGET_CELLS]))
    rows = [row for part in parts for row in part]
    note = (f"{studies:,} normal studies per row (seed {SEED}), the same studies under both "
            "designs; waves of 5, Avg deciding at 95%, threshold 0.8, futility level "
            f"{LEVEL:g}, the normality check at every look; `benchmarks/bench_planned.py "
            f"--budget --studies {studies} --jobs {jobs}` on {cpu_name()}, {os.cpu_count()} "
            "cores, beside other work.")
    return "\n".join(md_table(BUDGET_HEADER, rows)) + "\n\n" + note + "\n"


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
    parser.add_argument("--spending", action="store_true",
                        help="compare the spending functions instead")
    parser.add_argument("--budget", action="store_true",
                        help="the rule as it runs at maxima of 10 and 20, both designs")
    args = parser.parse_args()
    if args.budget:
        made = budget_table(args.studies, args.jobs)
        if args.write:
            replace_between(DOCS, "<!-- planned-budget:begin -->\n",
                            "<!-- planned-budget:end -->", made)
        sys.stdout.write(made)
        return
    if args.spending:
        made = spending_table(args.studies)
        if args.write:
            replace_between(DOCS, "<!-- planned-spending:begin -->\n",
                            "<!-- planned-spending:end -->", made)
        sys.stdout.write(made)
        return
    made = table(args.studies, args.jobs)
    if args.write:
        replace_between(DOCS, "<!-- planned-coverage:begin -->\n",
                        "<!-- planned-coverage:end -->", made)
    sys.stdout.write(made)


if __name__ == "__main__":
    main()
