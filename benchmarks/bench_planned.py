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
futility) of the confidence sequence and of planned designs with the default spending
(estimators/group_sequential.py's ``early_then_late_spending``) and Lan and DeMets' Pocock-type
and O'Brien-Fleming-type spending, on the same seeded normal studies (``planned-spending``
markers).

``--budget`` measures what a small fixed budget buys: the rule exactly as `reprocompare
sequential` runs it (estimators/planning.py's ``simulate``: the normality check at every look,
futility stopping at 0.2, one deciding estimator) at the maxima our users run, under each
design, on the same seeded normal studies (``planned-budget`` markers).

Each block ends with its reading, made from its table (docs/sequential.md types no number);
``--reading`` remakes the three readings from the committed tables without simulating.
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


#: the spending comparison's rows: the confidence sequence and the planned design's spendings
SPENDINGS = ("confidence sequence", "default spending", "Pocock type", "O'Brien-Fleming type")
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
    spending = {"default spending": "early-then-late", "Pocock type": "pocock",
                "O'Brien-Fleming type": "obrien-fleming"}
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
            for design in SPENDINGS]
    note = (f"{studies:,} normal studies per row (seed {SEED}), the same studies in the four "
            "rows of a cell; waves of 5, one verdict at 95%, threshold 0.8, the normal path's "
            "decisions only (no normality check, no futility); `benchmarks/bench_planned.py "
            f"--spending --studies {studies}` on {cpu_name()}, {os.cpu_count()} cores, beside "
            "other work.")
    return "\n".join(md_table(SPENDING_HEADER, rows)) + "\n\n" + note + "\n"


#: maximum R -> true SNRs of the budget table (waves of 5)
BUDGET_CELLS = {10: (0.0, 1.5, 2.0, 3.0, 4.0), 20: (0.0, 1.5, 2.0, 3.0)}
BUDGET_HEADER = ["maximum R", "true SNR", "design", "mean R", "90th pct R", "decided",
                 "stopped for futility", "wrong verdict"]
#: the futility level the budget table runs (off by default, ``stopping.futility``; 0.2 is the
#: level a user who wants to save trainings near a tie tries first)
LEVEL = 0.2


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
            "to the maximum (and R = 2 when the wave is 1), the default spending; "
            f"`benchmarks/bench_planned.py --studies {studies} --jobs {jobs}` on {cpu_name()}, "
            f"{os.cpu_count()} cores, Python {platform.python_version()}, numpy "
            f"{np.__version__}, scipy {__import__('scipy').__version__}, beside other work.")
    return "\n".join(md_table(HEADER, rows)) + "\n\n" + note + "\n"


def _committed(marker: str) -> tuple[str, str]:
    """The table and its note in docs/sequential.md's ``marker`` block (the reading dropped)."""
    text = DOCS.read_text(encoding="utf-8")
    block = text.split(f"<!-- {marker}:begin -->\n", 1)[1].split(f"<!-- {marker}:end -->", 1)[0]
    table, rest = block.split("\n\n", 1)
    return table, rest.split("\n\n", 1)[0].strip()


def _table_rows(table: str) -> list[list[str]]:
    """A Markdown table's body rows, as cells (not :func:`_rows`, the coverage table's worker,
    which this name once shadowed: the coverage mode failed in its first process)."""
    return [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in table.splitlines()[2:] if line.startswith("|")]


def coverage_reading(table: str, studies: int) -> str:
    """What the coverage table says, made from it."""
    rows = _table_rows(table)
    normal = [r for r in rows if r[0] == "normal"]
    skewed = [r for r in rows if r[0] == "skewed"]
    cover = [float(r[5]) for r in normal]
    lowest = min(normal, key=lambda r: float(r[8]))
    snr_skewed = [float(r[5]) for r in skewed]
    share_skewed = [float(r[9]) for r in skewed]
    fewest = min(normal, key=lambda r: int(r[3]))
    most = max(normal, key=lambda r: int(r[3]))
    se = 100 * math.sqrt(0.95 * 0.05 / studies)
    return (f"On normal estimates the SNR's repeated intervals cover at every planned look in "
            f"{min(cover):.1f}-{max(cover):.1f}% of studies (nominal 95, a standard error of "
            f"{se:.2f} per row), from {fewest[3]} look(s) up to R = {fewest[1]} to {most[3]} looks "
            f"up to R = {most[1]}. The textbook levels fall to {float(lowest[8]):.1f}% (a "
            f"maximum of {lowest[1]}, a look every {lowest[2]} repetition(s)). Skewed estimates "
            "(standardized Gamma(2)) break the normal model the SNR's interval rests on "
            f"({math.floor(min(snr_skewed)):.0f}-{math.floor(max(snr_skewed)):.0f}%, the same as "
            "any normal-theory interval on them): the verdict then reads Eq. 1's share, whose "
            f"Clopper-Pearson intervals cover in {min(share_skewed):.1f}-{max(share_skewed):.0f}%, "
            "once ties or Shapiro-Wilk reject the normal model at a look (docs/statistics.md "
            "measures that gate).")


def spending_reading(table: str) -> str:
    """What the spending comparison says, made from it."""
    cell = {(r[0], r[1], r[2]): r for r in _table_rows(table)}
    cs, default, pocock, obf = SPENDINGS
    d = lambda m, snr, k: cell[(m, snr, k)][5]  # noqa: E731
    mean = lambda m, snr, k: cell[(m, snr, k)][3]  # noqa: E731
    planned = [r for r in cell.values() if r[2] != cs]
    worst = max(planned, key=lambda r: float(r[6].rstrip("%")))
    return (f"With the default spending, the planned design decides SNR 2 at a maximum of 10 in "
            f"{d('10', '2', default)} of studies (the confidence sequence: {d('10', '2', cs)}) "
            f"and equal models (\"neither\") in {d('10', '0', default)} (the confidence sequence: "
            f"{d('10', '0', cs)}); at a maximum of 20, {d('20', '2', default)} against "
            f"{d('20', '2', cs)} and {d('20', '0', default)} against {d('20', '0', cs)}. Near the "
            f"threshold at a maximum of 200 it decides SNR 1 in {d('200', '1', default)}, the "
            f"Pocock type {d('200', '1', pocock)} and the O'Brien-Fleming type "
            f"{d('200', '1', obf)}; SNR 4 stops at a mean R of {mean('200', '4', default)}, "
            f"{mean('200', '4', pocock)} and {mean('200', '4', obf)}. At a maximum of 10 the "
            f"three decide SNR 2 in {d('10', '2', default)}, {d('10', '2', pocock)} and "
            f"{d('10', '2', obf)}, and stop SNR 4 at a mean R of {mean('10', '4', default)}, "
            f"{mean('10', '4', pocock)} and {mean('10', '4', obf)} (the confidence sequence: "
            f"{mean('10', '4', cs)}). Wrong verdicts of the planned designs stay at most "
            f"{worst[6]} (the {worst[2]} at SNR {worst[1]} and a maximum of {worst[0]}).")


def budget_reading(table: str) -> str:
    """What the budget table says, made from it."""
    cell = {(r[0], r[1], r[2]): r for r in _table_rows(table)}
    d = lambda m, snr, k: cell[(m, snr, k)][5]  # noqa: E731
    mean = lambda m, snr, k: cell[(m, snr, k)][3]  # noqa: E731
    futile = lambda r: float(r[6].rstrip("%"))  # noqa: E731
    pairs = [(cell[(m, snr, "planned")], cell[(m, snr, "anytime")]) for (m, snr, k) in cell
             if k == "planned"]
    fewer = sum(futile(p) < futile(a) for p, a in pairs)
    worst = max(float(r[7].rstrip("%")) for r in cell.values())
    return (f"With a maximum of 10 the planned design decides {d('10', '2', 'planned')} of the "
            f"studies at SNR 2, against {d('10', '2', 'anytime')}, and {d('10', '3', 'planned')} "
            f"at SNR 3, against {d('10', '3', 'anytime')}; SNR 4 stops at a mean R of "
            f"{mean('10', '4', 'planned')}, against {mean('10', '4', 'anytime')}. With a maximum "
            f"of 20, equal models are found to be \"neither\" in {d('20', '0', 'planned')} of "
            f"studies, against {d('20', '0', 'anytime')}. Futility stops fewer planned studies "
            f"than anytime ones in {fewer} of the {len(pairs)} cells (a verdict stays in reach "
            f"longer); wrong verdicts stay at most {worst:.1f}%.")


def _with_reading(made: str, reading: str) -> str:
    return made.rstrip("\n") + "\n\n" + reading + "\n"


def _studies_of(note: str) -> int:
    """The studies per row of the coverage note ("Percent of 10,000 simulated studies ...")."""
    return int(note.split()[2].replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--studies", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=1, help="processes (one per law and plan)")
    parser.add_argument("--write", action="store_true", help="into docs/sequential.md")
    parser.add_argument("--spending", action="store_true",
                        help="compare the spending functions instead")
    parser.add_argument("--budget", action="store_true",
                        help="the rule as it runs at maxima of 10 and 20, both designs")
    parser.add_argument("--reading", action="store_true",
                        help="remake the three blocks' readings from their committed tables")
    args = parser.parse_args()
    if args.reading:
        table_, note = _committed("planned-coverage")
        made = _with_reading(f"{table_}\n\n{note}", coverage_reading(table_, _studies_of(note)))
        replace_between(DOCS, "<!-- planned-coverage:begin -->\n", "<!-- planned-coverage:end -->",
                        made)
        for marker, reading in (("planned-spending", spending_reading),
                                ("planned-budget", budget_reading)):
            table_, note = _committed(marker)
            replace_between(DOCS, f"<!-- {marker}:begin -->\n", f"<!-- {marker}:end -->",
                            _with_reading(f"{table_}\n\n{note}", reading(table_)))
        return
    if args.budget:
        made = budget_table(args.studies, args.jobs)
        made = _with_reading(made, budget_reading(made.split("\n\n", 1)[0]))
        if args.write:
            replace_between(DOCS, "<!-- planned-budget:begin -->\n",
                            "<!-- planned-budget:end -->", made)
        sys.stdout.write(made)
        return
    if args.spending:
        made = spending_table(args.studies)
        made = _with_reading(made, spending_reading(made.split("\n\n", 1)[0]))
        if args.write:
            replace_between(DOCS, "<!-- planned-spending:begin -->\n",
                            "<!-- planned-spending:end -->", made)
        sys.stdout.write(made)
        return
    made = table(args.studies, args.jobs)
    made = _with_reading(made, coverage_reading(made.split("\n\n", 1)[0], args.studies))
    if args.write:
        replace_between(DOCS, "<!-- planned-coverage:begin -->\n",
                        "<!-- planned-coverage:end -->", made)
    sys.stdout.write(made)


if __name__ == "__main__":
    main()
