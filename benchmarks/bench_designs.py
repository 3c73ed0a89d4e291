"""Which stopping design to run? Each design against one fixed look at the maximum, as the
workflow runs it.

    nice -n 19 .venv/bin/python benchmarks/bench_designs.py [--studies N] [--write]
        [--target-studies N --target-seeds K]

Seeded. The baseline a statistician would use is one look at the most repetitions the user can
afford (the maximum R), with the exact noncentral t interval of the SNR at 95%
(``stopping.design: fixed``). Each design is simulated by ``reprocompare plan``'s own code
(estimators/planning.py's ``simulate``: waves of 5, the normality check at every look, the first
decision kept, futility off as by default, one deciding estimator) on the same seeded normal
studies, at the maxima our users run:

- ``fixed``: one look, at the maximum;
- ``planned`` (the default): the repeated confidence intervals of estimators/group_sequential.py;
- ``anytime``: confidence sequences (valid at every R: for a study that may grow).

Each cell: the share of studies decided, and the mean R at the stop (the fixed design always
runs the maximum); "wrong" is the largest share of wrong verdicts over the SNRs (at the
threshold, SNR 0.84, for every design). The anytime design runs its slow exact path
(``--anytime-studies``).

Below it, the cells where the default design is close to what it must do (SNR 2 and 3 at a
maximum of 10, SNR 1 and 4 at a maximum of 200, wrong verdicts at the threshold), pooled over
``--target-seeds`` seeds from 47 of ``--target-studies`` studies each, with one Monte Carlo
standard error and, for the decided shares, the paired difference from the fixed look on the
same studies (its standard error is smaller: the two designs decide mostly the same studies).

Prints the Markdown (``--write``: into docs/sequential.md between the ``designs`` markers, into
benchmarks/RESULTS.md, and README's sentence between ``designs-readme``); progress goes to
stderr.

``--matched`` instead compares each design with the fixed look at the design's own realized
error (issue 47, item 5): a design's realized error is its share of wrong verdicts at the
threshold (SNR 0.84, where every design errs most), and the fixed look with the same error is
one look at the maximum at the confidence at which it errs in that share there (its normal
path's error at SNR 0.84 is a noncentral t tail: :func:`fixed_confidence`). The planned and fixed designs'
errors are simulated by ``plan``'s code; the anytime design errs so rarely that its error is
the normal path's, computed on ``--error-studies`` studies from the confidence sequence's t
thresholds (:func:`reprocompare.estimators.futility.t_threshold`; the normality check moves few
normal studies off it). ``--write`` puts the table and its reading between the
``designs-matched`` markers of docs/sequential.md and benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import scipy
import scipy.optimize
import scipy.stats

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reprocompare.estimators import planning  # noqa: E402
from reprocompare.estimators.futility import t_threshold  # noqa: E402
from reprocompare.estimators.normality import SHAPIRO_FROM  # noqa: E402
from reprocompare.estimators.sequential import looks as sequence_looks  # noqa: E402
from reprocompare.estimators.verdict import decision_bounds  # noqa: E402

SNRS = (0.0, 0.6, 0.84, 1.0, 1.5, 2.0, 3.0, 4.0)
MAXIMA = (10, 20, 200)
DESIGNS = ("fixed", "planned", "anytime")
SEED = 47


def cell(design: str, maximum: int, snr: float, studies: int) -> tuple[float, float, float]:
    plan = planning.simulate(planning.normal_source(snr), ["Avg"], studies=studies, seed=SEED,
                             wave=5, max_repetitions=maximum, design=design,
                             truth={"Avg": planning.truth_of_snr(snr)})
    s = plan.summary()
    return 100 * s["decided_share"], s["mean_repetitions"], 100 * s["wrong_share"]


LAWS = ("left-skewed", "t3")


def law_source(law: str, snr: float):
    """docs/statistics.md's laws off the normal model: a negated standardized Gamma(2) (a tail
    against the conclusion, as occasional failed trainings give) and Student's t with 3 degrees
    of freedom, standardized; each shifted to the SNR."""
    if law == "left-skewed":
        return lambda rng, n: {"Avg": snr - (rng.gamma(2.0, 1.0, n) - 2.0) / math.sqrt(2.0)}
    return lambda rng, n: {"Avg": snr + rng.standard_t(3, n) / math.sqrt(3.0)}


def law_truth(law: str, snr: float) -> str:
    """The right verdict: the law's own P(x > 0) (Eq. 1) against the threshold 0.8."""
    x = law_source(law, snr)(np.random.default_rng(99), 2_000_000)["Avg"]
    return "A>B" if np.mean(x > 0) >= 0.8 else "B>A" if np.mean(x < 0) >= 0.8 else "none"


LAW_SNRS = (0.0, 0.3, 0.6, 0.84, 1.0, 2.0)
#: the designs of the laws table: the default, and the baseline it must not do worse than
LAW_DESIGNS = ("planned", "fixed")


def laws_table(studies: int) -> str:
    """The default (planned) design beside one fixed look at the maximum, off the normal model,
    on the same seeded studies: each cell wrong verdicts / decided; the last column counts the
    row's wrong verdicts taken at a look below R = ``SHAPIRO_FROM`` (where only ties are
    checked) among all of them, over the row's SNRs."""
    rows = []
    for law in LAWS:
        for maximum in MAXIMA:
            for design in LAW_DESIGNS:
                cells, early, wrong_all = [], 0, 0
                for snr in LAW_SNRS:
                    plan = planning.simulate(law_source(law, snr), ["Avg"], studies=studies,
                                             seed=SEED, wave=5, max_repetitions=maximum,
                                             design=design, truth={"Avg": law_truth(law, snr)})
                    s, wrong = plan.summary(), plan.wrong()
                    early += int(np.sum(wrong & (plan.repetitions < SHAPIRO_FROM)))
                    wrong_all += int(np.sum(wrong))
                    cells.append(f"{100 * s['wrong_share']:.1f}% / "
                                 f"{100 * s['decided_share']:.1f}%")
                rows.append(f"| {law} | {maximum} | {design} | " + " | ".join(cells)
                            + f" | {early} of {wrong_all} |")
                print(rows[-1], file=sys.stderr, flush=True)
    return (f"| law | maximum | design | {' | '.join(f'SNR {x:g}' for x in LAW_SNRS)} | "
            f"wrong at R < {SHAPIRO_FROM} |\n|" + "---|" * (len(LAW_SNRS) + 4) + "\n"
            + "\n".join(rows))


def laws_cells(block: str) -> dict:
    """(law, maximum, design) -> ([(wrong %, decided %) per SNR of LAW_SNRS], early, wrong)
    from the laws table this script writes."""
    out = {}
    for line in block.splitlines():
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
        if len(parts) != len(LAW_SNRS) + 4 or parts[2] not in LAW_DESIGNS:
            continue
        cells = [tuple(float(x.rstrip("%")) for x in c.split(" / ")) for c in parts[3:-1]]
        early, wrong = (int(x) for x in parts[-1].split(" of "))
        out[parts[0], int(parts[1]), parts[2]] = (cells, early, wrong)
    return out


STATISTICS = ROOT / "docs" / "statistics.md"


def committed_laws() -> str:
    """The designs-laws block of docs/statistics.md (note, table and reading)."""
    text = STATISTICS.read_text(encoding="utf-8")
    begin, end = "<!-- designs-laws:begin -->", "<!-- designs-laws:end -->"
    return text[text.index(begin) + len(begin):text.index(end)].strip()


def laws_studies(note: str) -> int:
    """The studies per cell the laws table's note names."""
    return int(re.search(r"--laws --studies (\d+)", note).group(1))


def laws_readme(block: str, studies: int) -> str:
    """README's sentence off the normal model, made from the laws table (the ``designs-skew``
    block): at which maxima the default errs more than the one fixed look under either law, the
    largest wrong shares there, and the advice that follows."""
    c = laws_cells(block)

    def worst(law, maximum, design):
        return max(cell[0] for cell in c[law, maximum, design][0])

    def se(pw, fw):
        return math.sqrt(sum(x / 100 * (1 - x / 100) for x in (pw, fw)) / studies) * 100

    worse = [m for m in MAXIMA if any(worst(law, m, "planned") - worst(law, m, "fixed")
                                      > 2 * se(worst(law, m, "planned"), worst(law, m, "fixed"))
                                      for law in LAWS)]
    if not worse:
        return ("Off the normal model (estimates skewed by occasional failed trainings, or "
                "heavy-tailed), the default design errs no more than one fixed look at the same "
                "maximum ([docs/statistics.md](docs/statistics.md), \"What the normal path "
                "cannot see\").")
    alike = [m for m in MAXIMA if m not in worse]

    def pairs(maxima):
        return "; ".join(
            f"{law}: " + ", ".join(f"{worst(law, m, 'planned'):.1f}%" for m in maxima)
            + " against " + ", ".join(f"{worst(law, m, 'fixed'):.1f}%" for m in maxima)
            for law in LAWS)

    at = lambda maxima: " and ".join(map(str, maxima))  # noqa: E731
    return ("Off the normal model the default design can do worse than the fixed look. With "
            "estimates skewed by occasional failed trainings, or heavy-tailed, its first looks "
            f"(R = 5 and 10, before the normality check can run at R = {SHAPIRO_FROM}) decide "
            "runs of estimates that look like clear differences. Its largest share of wrong "
            "verdicts over the SNRs (at most 2.5% on normal estimates) exceeds the fixed "
            f"look's at a maximum of {at(worse)} ({pairs(worse)}; {studies:,} seeded studies a "
            "cell"
            + (f"; at a maximum of {at(alike)} the two err alike: {pairs(alike)}" if alike
               else "")
            + "). Where that may happen and the budget allows the whole maximum, choose "
            "`stopping.design: fixed`, or read the training logs before trusting an early stop "
            "([docs/statistics.md](docs/statistics.md), \"What the normal path cannot see\").")


def laws_reading(block: str, studies: int) -> str:
    """What the laws table says, made from it and its ``studies`` per cell (docs/statistics.md,
    under the table). Two worst shares differ when they are more than two standard errors of
    their difference apart (unpaired: the paired one is smaller)."""
    c = laws_cells(block)

    def worst(law, maximum, design):
        cells = c[law, maximum, design][0]
        j = max(range(len(cells)), key=lambda i: cells[i][0])
        return cells[j][0], LAW_SNRS[j]

    def more(maximum):
        """Per law: does the planned design err more than the fixed look at ``maximum``?"""
        out = []
        for law in LAWS:
            (pw, _), (fw, _) = worst(law, maximum, "planned"), worst(law, maximum, "fixed")
            se = math.sqrt(sum(x / 100 * (1 - x / 100) for x in (pw, fw)) / studies) * 100
            out.append(pw - fw > 2 * se)
        return out

    said = []
    for law in LAWS:
        parts = []
        for maximum in MAXIMA:
            (pw, ps), (fw, fs) = worst(law, maximum, "planned"), worst(law, maximum, "fixed")
            parts.append(f"{pw:.1f}% (SNR {ps:g}) against {fw:.1f}% (SNR {fs:g}) at a maximum "
                         f"of {maximum}")
        said.append(f"{law}, {'; '.join(parts)}")
    worse = [m for m in MAXIMA if any(more(m))]
    alike = [m for m in MAXIMA if m not in worse]
    early = {m: (sum(c[law, m, "planned"][1] for law in LAWS),
                 sum(c[law, m, "planned"][2] for law in LAWS)) for m in MAXIMA}
    text = ("The largest share of wrong verdicts over the SNRs, the default (planned) design "
            f"against one fixed look at the maximum on the same studies: {'. '.join(said)}. ")
    if alike:
        text += (f"At a maximum of {' and '.join(map(str, alike))} the two err alike (within two "
                 "standard errors). ")
    if worse:
        total = {(m, d): sum(c[law, m, d][2] for law in LAWS) for m in MAXIMA
                 for d in LAW_DESIGNS}
        text += (
            f"At a maximum of {' and '.join(map(str, worse))} the planned design errs more: "
            + "; ".join(f"over both laws and every SNR at a maximum of {m}, {total[m, 'planned']} "
                        f"wrong verdicts against the fixed look's {total[m, 'fixed']}, "
                        f"{early[m][0]} of them taken at R = 5 or 10" for m in worse)
            + f". Below R = {SHAPIRO_FROM} only ties are checked, and the one look at the "
            "maximum does not decide there")
        later = [m for m in worse if early[m][0] < total[m, "planned"] - total[m, "fixed"]]
        text += ((f"; the rest of the excess at a maximum of {' and '.join(map(str, later))} "
                  "comes at later looks, each checked by Shapiro-Wilk on fewer estimates than "
                  "the fixed look's one check reads. ") if later else ". ")
        text += (
            "Neither is a fault of the gate that a better gate removes: Shapiro-Wilk has no "
            f"power below R = {SHAPIRO_FROM} (estimators/normality.py), and a left-skewed study "
            "whose first 5 or 10 estimates miss the left tail is a tight run of positive "
            "estimates, as a normal study of SNR 4 is, which the rule must stop there (a mean R "
            "<= 9 at a maximum of 200, the default design's promise for clear differences). "
            "Refusing normal-path verdicts below "
            f"R = {SHAPIRO_FROM} would remove most of the excess at the price of every early "
            "stop (and of every verdict at a maximum of 10); keeping a rejection for the rest of "
            "a study would move every normal study that Shapiro-Wilk rejects by chance (5% a "
            "look) to the distribution-free path, which rarely decides near the threshold. We "
            "keep the early looks, and say so. ")
    return text + (
        f"Every verdict read on the normal model below R = {SHAPIRO_FROM} prints \"normal "
        f"model (unchecked below R = {SHAPIRO_FROM})\" beside its interval, and its path "
        f"\"normal (not checked below R = {SHAPIRO_FROM}, only for ties)\", in every format. "
        "Where failed trainings are possible and the budget allows it, choose `design: fixed` "
        "at a large maximum (the check then reads every estimate before the one verdict: at "
        f"{MAXIMA[-1]} its largest wrong share here is "
        f"{max(worst(law, MAXIMA[-1], 'fixed')[0] for law in LAWS):.1f}%), or check the models' "
        "training logs.")


#: the default design's close cells: (maximum, SNR, what is measured, what it must be)
TARGETS = ((10, 2.0, "decided", ">= 55%"), (10, 3.0, "decided", ">= 93%"),
           (10, 0.84, "wrong", "<= 2.5%"), (20, 0.84, "wrong", "<= 2.5%"),
           (200, 1.0, "decided", ">= 40%"), (200, 4.0, "mean R", "<= 9"),
           (200, 0.84, "wrong", "<= 2.5%"))


def pooled(design: str, maximum: int, snr: float, studies: int, seeds) -> dict:
    """Per study, over ``seeds``: decided, R at the stop and wrong (numpy arrays)."""
    decided, stops, wrong = [], [], []
    for seed in seeds:
        plan = planning.simulate(planning.normal_source(snr), ["Avg"], studies=studies,
                                 seed=seed, wave=5, max_repetitions=maximum, design=design,
                                 truth={"Avg": planning.truth_of_snr(snr)})
        decided.append([s.decided for s in plan.studies])
        stops.append(plan.repetitions)
        wrong.append(plan.wrong())
    return {"decided": np.concatenate(decided).astype(float),
            "mean R": np.concatenate(stops).astype(float),
            "wrong": np.concatenate(wrong).astype(float)}


def _se(x: np.ndarray) -> float:
    return float(np.std(x, ddof=1) / math.sqrt(len(x))) if len(x) > 1 else 0.0


def _said(quantity: str, x: np.ndarray) -> str:
    if quantity == "mean R":
        return f"{x.mean():.2f} ± {_se(x):.2f}"
    return f"{100 * x.mean():.1f} ± {100 * _se(x):.1f}%"


def targets_table(studies: int, seeds: int) -> str:
    """The close cells of the default design beside the fixed look, pooled over seeds."""
    chosen = tuple(range(SEED, SEED + seeds))
    rows = []
    for maximum, snr, quantity, target in TARGETS:
        planned = pooled("planned", maximum, snr, studies, chosen)
        fixed = pooled("fixed", maximum, snr, studies, chosen)
        paired = (_said("decided", planned["decided"] - fixed["decided"]).replace("%", " points")
                  if quantity == "decided" else "-")
        rows.append(f"| {maximum} | {snr:g} | {quantity} {target} | "
                    f"{_said(quantity, planned[quantity])} | {_said(quantity, fixed[quantity])} "
                    f"| {paired} |")
        print(rows[-1], file=sys.stderr, flush=True)
    return (f"The close cells, pooled over seeds {chosen[0]}-{chosen[-1]} ({seeds} x "
            f"{studies:,} = {seeds * studies:,} studies a cell; ± one Monte Carlo standard "
            "error; the last column is the planned design's decided share less the fixed "
            "look's, on the same studies):\n\n"
            "| maximum | SNR | must be | planned | fixed | planned - fixed |\n"
            "|---|---|---|---|---|---|\n" + "\n".join(rows))


def table(studies: int, anytime_studies: int) -> tuple[str, float]:
    started = time.time()
    rows = []
    for maximum in MAXIMA:
        for design in DESIGNS:
            count = anytime_studies if design == "anytime" else studies
            cells, wrong = [], 0.0
            for snr in SNRS:
                decided, mean_r, wrong_here = cell(design, maximum, snr, count)
                wrong = max(wrong, wrong_here)
                cells.append(f"{decided:.1f}% / {mean_r:.1f}")
            rows.append(f"| {maximum} | {design} ({count}) | " + " | ".join(cells)
                        + f" | {wrong:.1f}% |")
            print(rows[-1], file=sys.stderr, flush=True)
    head = ("| maximum | design (studies) | " + " | ".join(f"SNR {s:g}" for s in SNRS)
            + " | wrong, at most |\n|---|---|" + "---|" * (len(SNRS) + 1))
    return head + "\n" + "\n".join(rows), time.time() - started


#: the matched comparison's decided cells, and the SNR where every design errs most
MATCHED_SNRS = (0.0, 1.0, 1.5, 2.0, 3.0, 4.0)
AT_THRESHOLD = 0.84


def _simulated(design: str, maximum: int, snr: float, studies: int,
               confidence: float = 0.95) -> dict:
    """Per study: decided, R at the stop, wrong (numpy arrays), as ``plan`` simulates it."""
    plan = planning.simulate(planning.normal_source(snr), ["Avg"], studies=studies, seed=SEED,
                             wave=5, max_repetitions=maximum, design=design,
                             confidence=confidence, truth={"Avg": planning.truth_of_snr(snr)})
    return {"decided": np.array([s.decided for s in plan.studies], dtype=float),
            "R": np.asarray(plan.repetitions, dtype=float),
            "wrong": np.asarray(plan.wrong(), dtype=float)}


def anytime_error(maximum: int, studies: int, snr: float = AT_THRESHOLD,
                  chunk: int = 20_000) -> tuple[float, float]:
    """The anytime design's share of wrong verdicts at ``snr`` on its normal path, with its
    Monte Carlo standard error: at each look (waves of 5) the confidence sequence's low end
    clears the threshold exactly when T >= t_R(c), its high end falls below -c when
    -T >= t_R(c), and "neither" needs low > -c and high < c (perhaps at different looks); the
    first decision is kept, as the rule keeps it."""
    below, above = decision_bounds()
    looks = sequence_looks(maximum, 5)
    # the four events' t thresholds at each look: A>B, B>A, low > below, high < above
    th = np.array([[t_threshold(r, above, 0.95), -t_threshold(r, -below, 0.95),
                    t_threshold(r, below, 0.95), -t_threshold(r, -above, 0.95)] for r in looks])
    rng = np.random.default_rng([SEED, maximum, int(1000 * snr)])
    right = planning.truth_of_snr(snr)
    wrong = 0
    for start in range(0, studies, chunk):
        n = min(chunk, studies - start)
        x = rng.standard_normal((n, maximum)) + snr
        total, squares = np.cumsum(x, axis=1), np.cumsum(x * x, axis=1)
        said = np.full(n, "", dtype=object)
        reached = np.zeros((n, 4), dtype=bool)
        for k, r in enumerate(looks):
            mean = total[:, r - 1] / r
            sd = np.sqrt(np.maximum(squares[:, r - 1] - r * mean ** 2, 0.0) / (r - 1))
            t = math.sqrt(r) * mean / sd
            reached |= np.stack([t >= th[k, 0], t <= th[k, 1], t >= th[k, 2],
                                 t <= th[k, 3]], axis=1)
            now = np.where(reached[:, 0], "A>B", np.where(
                reached[:, 1], "B>A", np.where(reached[:, 2] & reached[:, 3], "none", "")))
            fresh = (said == "") & (now != "")
            said[fresh] = now[fresh]
        wrong += int(np.sum((said != "") & (said != right)))
    share = wrong / studies
    return share, math.sqrt(max(share * (1 - share), 1e-12) / studies)


def fixed_confidence(maximum: int, error: float, snr: float = AT_THRESHOLD) -> float:
    """The confidence at which one look at R = ``maximum`` errs in ``error`` of studies at
    ``snr``: its exact interval's low end clears the threshold c when T >= the noncentral t
    quantile at c, and T is noncentral t at ``snr`` (the normal path; the other direction's
    error is negligible there)."""
    _, above = decision_bounds()
    df, root = maximum - 1, math.sqrt(maximum)

    def wrong(confidence):
        bound = scipy.stats.nct.ppf(1 - (1 - confidence) / 2, df, root * above)
        return scipy.stats.nct.sf(bound, df, root * snr) - error

    return float(scipy.optimize.brentq(wrong, 0.5, 1 - 1e-9, xtol=1e-9))


def _matched_cells(design: str, maximum: int, studies: int, confidence: float = 0.95) -> list:
    return [_simulated(design, maximum, snr, studies, confidence) for snr in MATCHED_SNRS]


def _row(maximum: int, label: str, error: str, cells: list) -> str:
    shown = [f"{100 * c['decided'].mean():.1f}% / {c['R'].mean():.1f}" for c in cells]
    return f"| {maximum} | {label} | {error} | " + " | ".join(shown) + " |"


def matched_table(studies: int, anytime_studies: int, error_studies: int,
                  threshold_studies: int) -> str:
    """Each design beside the fixed look at the design's own realized error, at each maximum."""
    rows = []
    for maximum in MAXIMA:
        at = {d: _simulated(d, maximum, AT_THRESHOLD, threshold_studies)
              for d in ("fixed", "planned")}
        error = {d: (at[d]["wrong"].mean(), _se(at[d]["wrong"])) for d in at}
        error["anytime"] = anytime_error(maximum, error_studies)
        for design in ("fixed", "planned", "anytime"):
            count = anytime_studies if design == "anytime" else studies
            e, se = error[design]
            rows.append(_row(maximum, f"{design} ({count})",
                             f"{100 * e:.2f} ± {100 * se:.2f}%",
                             _matched_cells(design, maximum, count)))
            print(rows[-1], file=sys.stderr, flush=True)
            if design == "fixed":
                continue
            # no wrong verdict seen: match half a study's worth (a smoke run's few studies)
            confidence = fixed_confidence(maximum, max(e, 0.5 / (
                error_studies if design == "anytime" else threshold_studies)))
            fixed = _matched_cells("fixed", maximum, studies, confidence)
            own = _simulated("fixed", maximum, AT_THRESHOLD, threshold_studies,
                             confidence)["wrong"]
            rows.append(_row(maximum, f"fixed at {design}'s error ({100 * confidence:.2f}%, "
                             f"{studies})", f"{100 * own.mean():.2f} ± {100 * _se(own):.2f}%",
                             fixed))
            print(rows[-1], file=sys.stderr, flush=True)
    return ("| maximum | design (confidence, studies) | wrong at SNR 0.84 | "
            + " | ".join(f"SNR {s:g}" for s in MATCHED_SNRS) + " |\n|---|---|---|"
            + "---|" * len(MATCHED_SNRS) + "\n" + "\n".join(rows))


def matched_cells(block: str) -> dict:
    """(maximum, label) -> (error, {SNR: (decided %, mean R)}) from the matched table."""
    out = {}
    for line in block.splitlines():
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
        if len(parts) != len(MATCHED_SNRS) + 3 or not parts[0].isdigit():
            continue
        label = parts[1].split(" (")[0]
        cells = {snr: tuple(float(v.rstrip("%")) for v in cell.split(" / "))
                 for snr, cell in zip(MATCHED_SNRS, parts[3:])}
        out[int(parts[0]), label] = (parts[2], cells)
    return out


def matched_reading(block: str) -> str:
    """What the matched table says, made from it (docs/sequential.md quotes no number by hand)."""
    c = matched_cells(block)

    def decided(maximum, label, snr):
        return f"{c[maximum, label][1][snr][0]:.1f}%"

    def mean_r(maximum, label, snr):
        return f"{c[maximum, label][1][snr][1]:.1f}"

    def error(maximum, label):
        return c[maximum, label][0].split(" ±")[0] + "%"

    at_planned, at_anytime = "fixed at planned's error", "fixed at anytime's error"

    def rate(maximum, label):
        return float(c[maximum, label][0].split(" ±")[0])

    fewer = all(rate(m, "anytime") < rate(m, "planned") for m in MAXIMA)
    return (
        "How to read it: the planned design's wrong verdicts at the threshold are "
        f"{error(10, 'planned')}, {error(20, 'planned')} and {error(200, 'planned')} at maxima "
        f"of 10, 20 and 200 (the fixed look at 95%: {error(10, 'fixed')}, {error(20, 'fixed')} "
        f"and {error(200, 'fixed')}). At its own error, at a maximum of 10 it decides SNR 2 in "
        f"{decided(10, 'planned', 2.0)} of studies (the fixed look at that error: "
        f"{decided(10, at_planned, 2.0)}) and stops SNR 4 at a mean R of "
        f"{mean_r(10, 'planned', 4.0)}; at a maximum of 20, SNR 2 in "
        f"{decided(20, 'planned', 2.0)} (the fixed look: {decided(20, at_planned, 2.0)}), SNR 4 "
        f"at a mean R of {mean_r(20, 'planned', 4.0)}; at a maximum of 200, SNR 1 in "
        f"{decided(200, 'planned', 1.0)} (the fixed look: {decided(200, at_planned, 1.0)}), "
        f"SNR 4 at a mean R of {mean_r(200, 'planned', 4.0)} where the fixed look runs 200. The "
        f"anytime design errs {'less' if fewer else 'differently'} ({error(10, 'anytime')}, "
        f"{error(20, 'anytime')} and {error(200, 'anytime')}), so the fixed look to set beside "
        "it is one at that error (a wider interval): at a maximum of 10 that look decides SNR "
        f"2 in {decided(10, at_anytime, 2.0)} of studies against the anytime design's "
        f"{decided(10, 'anytime', 2.0)}, at a maximum of 20 in {decided(20, at_anytime, 2.0)} "
        f"against {decided(20, 'anytime', 2.0)}, and at a maximum of 200 SNR 1 in "
        f"{decided(200, at_anytime, 1.0)} against {decided(200, 'anytime', 1.0)}. What the "
        "anytime design buys with its width is validity at every R, also past the maximum: "
        "for a study that must be free to grow.")


#: the two runs of ``reprocompare plan`` docs/sequential.md shows, and the timing run
PLAN_EXAMPLES = (["--snr", "1.5"], ["--study", "studies/chunking", "--studies", "100",
                                    "--cores", "2"])
PLAN_TIMED = ["--snr", "1", "--studies", "1000"]


def _plan(arguments: list[str]) -> tuple[str, float]:
    """``reprocompare plan`` run as a user runs it: its output and its CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "reprocompare", "plan", *arguments], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return done.stdout, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def plan_examples() -> str:
    """docs/sequential.md's two runs of ``reprocompare plan`` under the default design, their
    CPU time, and what the pilot's run says (the ``plan-examples`` block)."""
    shown, seconds = [], []
    for arguments in PLAN_EXAMPLES:
        out, cpu = _plan(arguments)
        shown.append(f"$ reprocompare plan {' '.join(arguments)}\n{out.rstrip()}")
        seconds.append(cpu)
    _, timed = _plan(PLAN_TIMED)
    record = json.loads(next(path for path in (ROOT / "studies" / "chunking" / "results"
                                               / "summaries").glob("*/*.json")
                             if not path.name.endswith(".claims.json")).read_text())
    avg = record["summary"]["estimators"]["Avg"]
    pilot = shown[1]
    decided = re.search(r"decided\s+([\d.]+%)", pilot).group(1)
    median = re.search(r"median (\d+)", pilot).group(1)
    verdict = re.search(r"against Avg: (\S+),", pilot).group(1).replace(">", " > ")
    _, above = decision_bounds()
    return (f"Two runs ({seconds[0]:.1f} and {seconds[1]:.1f} s of CPU on {platform.machine()}, "
            f"{os.cpu_count()} cores, beside other work; `reprocompare plan "
            f"{' '.join(PLAN_TIMED)}`, 1,000 studies to a maximum of 200 near the threshold, "
            f"takes {timed:.1f} s), written {time.strftime('%Y-%m-%d')} by `nice -n 19 "
            ".venv/bin/python benchmarks/bench_designs.py --plan-examples --write`:\n\n"
            "```text\n" + "\n\n".join(shown) + "\n```\n\n"
            f"The chunking pilot's Avg has SNR {avg['snr']:.2f} over its {record['repetitions']} "
            f"repetitions, {abs(avg['snr']) - above:.2f} beyond the threshold's {-above:.2f}: a "
            f"study like it decides \"{verdict}\" by R = 200 in {decided} of draws, at a median "
            f"R of {median}.")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--studies", type=int, default=2000)
    parser.add_argument("--anytime-studies", type=int, default=300)
    parser.add_argument("--target-studies", type=int, default=4000,
                        help="studies per seed in the close cells (4000)")
    parser.add_argument("--target-seeds", type=int, default=4,
                        help="seeds pooled in the close cells, from 47 (4; 0: none)")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--laws", action="store_true",
                        help="instead: the default design off the normal model (designs-laws)")
    parser.add_argument("--reading", action="store_true",
                        help="with --laws: remake the reading under the committed designs-laws "
                             "table of docs/statistics.md, without simulating")
    parser.add_argument("--matched", action="store_true",
                        help="instead: each design beside the fixed look at its realized error "
                             "(designs-matched)")
    parser.add_argument("--error-studies", type=int, default=100_000,
                        help="studies of the anytime design's error on its normal path (100000)")
    parser.add_argument("--threshold-studies", type=int, default=8000,
                        help="studies of the planned and fixed designs' error (8000)")
    parser.add_argument("--plan-examples", action="store_true",
                        help="instead: docs/sequential.md's runs of reprocompare plan "
                             "(plan-examples)")
    args = parser.parse_args(argv)
    if args.plan_examples:
        text = plan_examples()
        print(text)
        if args.write:
            _write(text, "plan-examples", (ROOT / "docs" / "sequential.md",))
        return 0
    if args.matched:
        started = time.process_time(), time.time()
        made = matched_table(args.studies, args.anytime_studies, args.error_studies,
                             args.threshold_studies)
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        text = (f"Measured {time.strftime('%Y-%m-%d')} with `nice -n 19 .venv/bin/python "
                f"benchmarks/bench_designs.py --matched --studies {args.studies} "
                f"--anytime-studies {args.anytime_studies} --error-studies "
                f"{args.error_studies} --threshold-studies {args.threshold_studies}` on {platform.machine()} ({os.cpu_count()} cores, load "
                f"{load}), Python {platform.python_version()}, numpy {np.__version__}, scipy "
                f"{scipy.__version__}, in {time.process_time() - started[0]:.0f} CPU s "
                f"({time.time() - started[1]:.0f} s): normal estimates, waves of 5, threshold "
                f"0.8, one deciding estimator, futility off, seed {SEED}; the same seeded "
                "studies in every row of a maximum. Each cell: decided % / mean R at the stop "
                f"(a decided share's Monte Carlo standard error is at most "
                f"{50 / math.sqrt(args.studies):.1f} points, "
                f"{50 / math.sqrt(args.anytime_studies):.1f} for the anytime rows). \"wrong at "
                "SNR 0.84\": the share of wrong verdicts at the threshold, ± one standard "
                f"error, over {args.threshold_studies:,} studies (the anytime design's on its "
                f"normal path, over {args.error_studies:,}); a fixed look \"at a design's error\" runs "
                "at the confidence at which its normal path errs in that share at SNR 0.84 "
                "(exact: noncentral t).\n\n" + made)
        text += "\n\n" + matched_reading(made)
        print(text)
        if args.write:
            _write(text, "designs-matched",
                   (ROOT / "docs" / "sequential.md", ROOT / "benchmarks" / "RESULTS.md"))
        return 0
    if args.laws and args.reading:
        block = committed_laws()
        table = "\n".join(line for line in block.splitlines() if line.startswith("|"))
        note, rest = block.split("\n\n", 1)
        _write(f"{note}\n\n{table}\n\n{laws_reading(table, laws_studies(note))}",
               "designs-laws", (STATISTICS,))
        _write(laws_readme(table, laws_studies(note)), "designs-skew", (ROOT / "README.md",))
        return 0
    if args.laws:
        started = time.time()
        made = laws_table(args.studies)
        text = (f"Measured {time.strftime('%Y-%m-%d')} with `nice -n 19 .venv/bin/python "
                f"benchmarks/bench_designs.py --laws --studies {args.studies}` on "
                f"{platform.machine()} ({os.cpu_count()} cores), in {time.time() - started:.0f} "
                f"s (load {', '.join(f'{x:.1f}' for x in os.getloadavg())}), Python "
                f"{platform.python_version()}, numpy {np.__version__}: the default (planned) "
                "design and one fixed look at the maximum (the exact noncentral t interval, "
                "`design: fixed`) on the same seeded studies, waves of 5, threshold 0.8, 95%, "
                f"seed {SEED}; truth: each law's P(x > 0) against 0.8. Each cell: wrong "
                f"verdicts / decided (a wrong share near 5% has a Monte Carlo standard error of "
                f"{100 * math.sqrt(0.05 * 0.95 / args.studies):.1f} points); the last column: "
                f"the row's wrong verdicts taken at a look below R = {SHAPIRO_FROM}, of all of "
                f"them.\n\n{made}\n\n{laws_reading(made, args.studies)}")
        print(text)
        if args.write:
            _write(text, "designs-laws", (STATISTICS,))
            _write(laws_readme(made, args.studies), "designs-skew", (ROOT / "README.md",))
        return 0
    made, seconds = table(args.studies, args.anytime_studies)
    started = time.time()
    close = targets_table(args.target_studies, args.target_seeds) if args.target_seeds else ""
    seconds += time.time() - started
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    text = (f"Measured {time.strftime('%Y-%m-%d')} with `nice -n 19 .venv/bin/python "
            f"benchmarks/bench_designs.py --studies {args.studies} --anytime-studies "
            f"{args.anytime_studies} --target-studies {args.target_studies} --target-seeds "
            f"{args.target_seeds}` on {platform.machine()} ({os.cpu_count()} cores, load "
            f"{load}), Python {platform.python_version()}, numpy {np.__version__}, scipy "
            f"{scipy.__version__}, in {seconds:.0f} s: normal estimates, waves of 5, threshold "
            "0.8, 95%, one deciding estimator, futility off, seed "
            f"{SEED}. Each cell: decided % / mean R at the stop (a decided share's Monte Carlo "
            f"standard error is at most {50 / math.sqrt(args.studies):.1f} points).\n\n{made}"
            + (f"\n\n{close}" if close else ""))
    print(text)
    if args.write:
        _write(text, "designs", (ROOT / "docs" / "sequential.md", ROOT / "benchmarks" / "RESULTS.md"))
        _write(sentence(made), "designs-readme", (ROOT / "README.md",))
    return 0


def cells(block: str) -> dict:
    """(maximum, design, SNR) -> (decided %, mean R) from the table this script writes."""
    out = {}
    for line in block.splitlines():
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
        if len(parts) != len(SNRS) + 3 or not parts[0].isdigit():
            continue
        design = parts[1].split(" (")[0]
        for snr, cell in zip(SNRS, parts[2:]):
            decided, mean_r = cell.split(" / ")
            out[int(parts[0]), design, snr] = (decided, mean_r)
    return out


def close_cells(block: str) -> dict:
    """(maximum, SNR, quantity) -> (planned, fixed, paired) from the close cells' table."""
    out = {}
    for line in block.splitlines():
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
        if len(parts) != 6 or not parts[0].isdigit():
            continue
        out[int(parts[0]), float(parts[1]), parts[2].split(" ")[0]] = tuple(parts[3:])
    return out


def sentence(block: str) -> str:
    """README's sentence on the designs, made from the tables (docs/sequential.md)."""
    c = cells(block)
    said = (f"With the default design (`stopping.design: planned`) a study of at most 10 "
            f"repetitions decides a difference of SNR 2 in {c[10, 'planned', 2.0][0]} of "
            f"simulated studies, against {c[10, 'fixed', 2.0][0]} for one look at R = 10 and "
            f"{c[10, 'anytime', 2.0][0]} with confidence sequences, and stops SNR 4 at a mean R "
            f"of {c[10, 'planned', 4.0][1]}; at a maximum of 200 it decides SNR 1 in "
            f"{c[200, 'planned', 1.0][0]} (one look at R = 200: {c[200, 'fixed', 1.0][0]}; "
            f"confidence sequences, which let a study grow past its plan: "
            f"{c[200, 'anytime', 1.0][0]}) and stops SNR 4 at a mean R of "
            f"{c[200, 'planned', 4.0][1]}.")
    close = close_cells(block)
    if (200, 1.0, "decided") in close:
        planned, fixed, _ = close[200, 1.0, "decided"]
        mean_r = close[200, 4.0, "mean"][0]
        studies = re.search(r"= ([\d,]+) studies a cell", block).group(1)
        said += (f" Over {studies} studies a cell, SNR 1 at a maximum of 200 is decided in "
                 f"{planned} (one look: {fixed}) and SNR 4 stopped at a mean R of {mean_r}.")
    return said


def _write(text: str, marker: str, paths) -> None:
    for path in paths:
        page = path.read_text()
        begin, end = f"<!-- {marker}:begin -->", f"<!-- {marker}:end -->"
        if begin not in page or end not in page:
            raise SystemExit(f"{path}: no {begin} ... {end} markers")
        before, rest = page.split(begin, 1)
        path.write_text(before + begin + "\n" + text.strip() + "\n" + end
                        + rest.split(end, 1)[1])


if __name__ == "__main__":
    raise SystemExit(main())
