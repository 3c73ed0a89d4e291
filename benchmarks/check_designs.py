"""An independent check of the default design's target numbers (issue 47).

    nice -n 19 .venv/bin/python benchmarks/check_designs.py [--studies N] [--seeds K]
        [--cross-studies N] [--write]

The close cells of benchmarks/RESULTS.md ("Stopping designs against one fixed look at the
maximum": the planned design's decided share at SNR 2 and 3 for a maximum of 10 and at SNR 1 for
a maximum of 200, its mean R at SNR 4 for a maximum of 200, its wrong share at SNR 0.84, the
threshold, for maxima 10, 20 and 200; the fixed look's beside them) were measured by
``reprocompare plan``'s own code. This script simulates the same cells with a second
implementation of the rule, written from the documentation and importing nothing of the
product (numpy and scipy only), on its own seeds, vectorized over studies:

- the looks R = 5, 10, ... up to the maximum (docs/sequential.md, "Budgeting a study");
- the error spent by each look (docs/sequential.md, "A planned design"; the shares in the
  docstring of ``early_then_late_spending``): 16% of alpha at R = 5 and 8% at R = 10 and the
  rest as alpha t^4 of the information fraction t = R / maximum up to a maximum of 20; 16%, 3%
  and 1% at R = 5, 10 and 15 and the rest as alpha (0.9 t^12 + 0.1 t^2) beyond; no share on the
  last look, which spends what is left (:func:`spending`);
- each look's level, calibrated on the t statistics' own joint law under SNR 0: the level at
  which the simulated paths that first cross at that look are the error the spending allots it
  (:func:`look_levels`, on :data:`PATHS` paths of this script's own seed);
- at each look the SNR's exact noncentral t interval at that level (Jennison and Turnbull's
  repeated confidence intervals), intersected over the looks, read as Phi(SNR) against the
  threshold 0.8: "A > B" when Phi(low) >= 0.8, "B > A" when Phi(high) <= 0.2, "neither" when
  the interval lies inside (0.2, 0.8). The inversion is done once per look, as two critical
  values of the t statistic (:func:`critical_values`; the interval's ends are monotone in T),
  which the tests check against the inverted interval itself (:func:`snr_interval`);
- the normality gate (docs/statistics.md, "Two paths to a verdict"): from R = 15 a look whose
  estimates Shapiro-Wilk rejects (p < 0.05) reads instead Eq. 1's shares P(x > 0) and
  P(x < 0), each by Clopper-Pearson at half the look's error, intersected over the looks,
  against 0.8 (normal estimates have no ties, the gate's other reason);
- the first decided look's decision is kept; a study stops there or at the maximum.

It reports, per cell, the decided share, the mean R at the stop and the wrong share (a decided
verdict other than Phi(SNR) against 0.8 says) with Monte Carlo standard errors, beside the
committed numbers (read from RESULTS.md), and whether each pair agrees within 3 standard errors
of their difference (the committed share's standard error from its own study count, its
rounding to 0.1 point added).

Separately (:func:`cross_check`, the one part that imports the product), a few hundred seeded
studies are read look by look by this implementation and by
``reprocompare.estimators.verdict.verdict(..., time_uniform=False, planned=True)`` (the planned
design's arguments, ``design_named("planned").looked``); each mismatch is re-read with the
product's own look levels, which tells a difference of calibration noise from one of rule.

``--write`` puts the result between the ``designs-check`` markers of benchmarks/RESULTS.md;
progress goes to stderr.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import re
import sys
import time
from pathlib import Path

import numpy as np
import scipy
from scipy import optimize, stats

from markers import cpu_name, replace_between

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "RESULTS.md"
MARKERS = ("<!-- designs-check:begin -->\n", "<!-- designs-check:end -->")

THRESHOLD = 0.8
CONFIDENCE = 0.95
WAVE = 5
#: Phi^-1(threshold): "A > B" needs the SNR's low end at or above it
Z = float(stats.norm.ppf(THRESHOLD))
#: a maximum up to which the short spending schedule runs
SHORT_MAXIMUM = 20
#: the normality gate: Shapiro-Wilk at this level, from this R on
SHAPIRO_FROM, SHAPIRO_LEVEL = 15, 0.05
#: calibration paths and their seed (this script's own, not the product's)
PATHS, CALIBRATION_SEED = 1_000_000, 4_747_001
#: the simulation's seeds: seed s, cell (maximum, SNR) draws from default_rng([s, maximum,
#: round(1000 SNR)]), one row of values per study
SEED = 4_700

#: the studies a committed close cell pooled (RESULTS.md's designs block says it; the
#: reading's exact comparison uses it for the committed share's standard error)
COMMITTED_STUDIES = 16_000
#: the committed close cells: (maximum, SNR, quantity); the quantity the target names
CELLS = ((10, 2.0, "decided"), (10, 3.0, "decided"), (10, 0.84, "wrong"),
         (20, 0.84, "wrong"), (200, 1.0, "decided"), (200, 4.0, "mean R"),
         (200, 0.84, "wrong"))


# -- the design, from the documentation ---------------------------------------------------------

def looks(wave: int, maximum: int) -> tuple[int, ...]:
    """R = wave, 2 wave, ... (from R = 2), and the maximum as the last look."""
    out = [r for r in range(wave, maximum + 1, wave) if r >= 2]
    if wave < 2:
        out = list(range(2, maximum + 1))
    if not out or out[-1] != maximum:
        out.append(maximum)
    return tuple(out)


def spending(planned: tuple[int, ...], alpha: float) -> np.ndarray:
    """The error spent by each look, cumulative (the default, early-then-late spending)."""
    r = np.asarray(planned, dtype=float)
    t = r / r[-1]
    short = r[-1] <= SHORT_MAXIMUM
    shares = {5: 0.16, 10: 0.08} if short else {5: 0.16, 10: 0.03, 15: 0.01}
    early = np.zeros(len(r))
    for start, share in shares.items():
        at = np.flatnonzero(r >= start)
        if at.size and at[0] < len(r) - 1:  # never a share on the last look
            early[at[0]:] += share * alpha
    late = t ** 4 if short else 0.9 * t ** 12 + 0.1 * t ** 2
    spent = early + (alpha - early[-1]) * late
    spent[-1] = alpha
    return spent


def look_levels(planned: tuple[int, ...], alpha: float, paths: int = PATHS,
                seed: int = CALIBRATION_SEED) -> np.ndarray:
    """Each look's two-sided error: under SNR 0 the simulated paths whose |T| first reaches
    the look's critical value there are the spending's increment (Bonferroni for a look
    allotted less than one path)."""
    if len(planned) == 1:
        return np.array([alpha])
    cumulative = spending(planned, alpha)
    rng = np.random.default_rng(seed)
    total = np.zeros(paths)
    squares = np.zeros(paths)
    alive = np.ones(paths, dtype=bool)
    levels = np.empty(len(planned))
    done, charged = 0, 0.0
    for k, r in enumerate(planned):
        x = rng.standard_normal((paths, r - done))
        total += x.sum(axis=1)
        squares += np.einsum("ij,ij->i", x, x)
        done = r
        t = np.abs(total / r) * math.sqrt(r) / np.sqrt((squares - total ** 2 / r) / (r - 1))
        spent = (paths - alive.sum()) / paths + charged
        target = (cumulative[k] - spent) * paths
        survivors = np.sort(t[alive])[::-1]
        m = int(round(target))
        if m < 1:
            levels[k] = max(cumulative[k] - spent, 0.0)
            charged += levels[k]
            cut = stats.t.isf(levels[k] / 2, r - 1) if levels[k] > 0 else math.inf
        else:
            m = min(m, survivors.size - 1)
            cut = 0.5 * (survivors[m - 1] + survivors[m])
            levels[k] = 2 * stats.t.sf(cut, r - 1)
        alive &= t < cut
    return levels


def snr_interval(t: float, r: int, level: float) -> tuple[float, float]:
    """The exact equal-tailed interval of the SNR from T = sqrt(R) mean / sd at confidence
    1 - ``level``: the SNRs at which T is the upper and the lower ``level``/2 quantile of the
    noncentral t with R - 1 degrees of freedom and noncentrality sqrt(R) SNR (Brent's method,
    from a bracket widened around the point estimate until it holds the root)."""
    df, root, point = r - 1, math.sqrt(r), t / math.sqrt(r)

    def solve(tail: float) -> float:
        # P(T' <= t) falls as the SNR grows: find SNRs on both sides of the root
        gap = lambda snr: stats.nct.cdf(t, df, root * snr) - tail  # noqa: E731
        step = (1 + abs(point)) / root
        low, high = point - step, point + step
        while gap(low) < 0:
            low -= step
            step *= 2
        step = (1 + abs(point)) / root
        while gap(high) > 0:
            high += step
            step *= 2
        return float(optimize.brentq(gap, low, high, xtol=1e-12, rtol=1e-12))
    return solve(1 - level / 2), solve(level / 2)


def critical_values(r: int, level: float) -> tuple[float, float]:
    """(c_clear, c_inside) at one look: the interval's low end is >= Z exactly when
    T >= c_clear, and > -Z exactly when T > c_inside (its high end, by symmetry, <= -Z when
    T <= -c_clear and < Z when T < -c_inside)."""
    df, root = r - 1, math.sqrt(r)
    return (float(stats.nct.ppf(1 - level / 2, df, root * Z)),
            float(stats.nct.ppf(1 - level / 2, df, -root * Z)))


def clopper_pearson(k: np.ndarray, n: int, level: float) -> tuple[np.ndarray, np.ndarray]:
    """The two-sided Clopper-Pearson interval of a share, k of n, at confidence 1 - level."""
    low = np.where(k > 0, stats.beta.ppf(level / 2, np.maximum(k, 1), n - k + 1), 0.0)
    high = np.where(k < n, stats.beta.ppf(1 - level / 2, k + 1, np.maximum(n - k, 1)), 1.0)
    return low, high


def decide(values: np.ndarray, planned: tuple[int, ...], levels: np.ndarray,
           gate: bool = True) -> np.ndarray:
    """Each study's decision at each look: "A>B", "B>A", "none" or "" (undecided), the first
    decision kept. ``values``: one row of R_max estimates per study."""
    n = values.shape[0]
    s1 = np.cumsum(values, axis=1)
    s2 = np.cumsum(values ** 2, axis=1)
    above = np.cumsum(values > 0, axis=1)
    below = np.cumsum(values < 0, axis=1)
    out = np.full((n, len(planned)), "", dtype="<U4")
    kept = np.full(n, "", dtype="<U4")
    # the running intersections' reads: the SNR's interval, and each share's
    snr_up = np.zeros(n, bool)
    snr_down = np.zeros(n, bool)
    snr_above_low = np.zeros(n, bool)
    snr_below_high = np.zeros(n, bool)
    share_low = np.zeros((2, n))
    share_high = np.ones((2, n))
    for k, r in enumerate(planned):
        mean = s1[:, r - 1] / r
        sd = np.sqrt((s2[:, r - 1] - r * mean ** 2) / (r - 1))
        t = math.sqrt(r) * mean / sd
        c_clear, c_inside = critical_values(r, levels[k])
        snr_up |= t >= c_clear
        snr_down |= t <= -c_clear
        snr_above_low |= t > c_inside
        snr_below_high |= t < -c_inside
        for side, count in enumerate((above[:, r - 1], below[:, r - 1])):
            low, high = clopper_pearson(count, r, levels[k] / 2)
            share_low[side] = np.maximum(share_low[side], low)
            share_high[side] = np.minimum(share_high[side], high)
        normal = np.where(snr_up, "A>B", np.where(
            snr_down, "B>A", np.where(snr_above_low & snr_below_high, "none", "")))
        if gate and r >= SHAPIRO_FROM:
            rejected = np.zeros(n, bool)
            open_ = kept == ""
            if open_.any():
                rejected[open_] = stats.shapiro(values[open_, :r], axis=1).pvalue \
                    < SHAPIRO_LEVEL
            shares = np.where(share_low[0] >= THRESHOLD, "A>B", np.where(
                share_low[1] >= THRESHOLD, "B>A", np.where(
                    (share_high[0] < THRESHOLD) & (share_high[1] < THRESHOLD), "none", "")))
            now = np.where(rejected, shares, normal)
        else:
            now = normal
        kept = np.where(kept == "", now, kept)
        out[:, k] = kept
    return out


def exact_fixed(maximum: int, snr: float, quantity: str) -> float | None:
    """The fixed look's decided or wrong share in percent, exactly (no simulation), where its
    one look comes before the normality check (R < 15): T ~ noncentral t(R - 1, sqrt(R) SNR)
    against the look's critical values. None where the check would read the look."""
    if maximum >= SHAPIRO_FROM or quantity == "mean R":
        return None
    c_clear, c_inside = critical_values(maximum, 1 - CONFIDENCE)
    law = stats.nct(maximum - 1, math.sqrt(maximum) * snr)
    tail = lambda p: 0.0 if not np.isfinite(p) else float(p)  # noqa: E731  (far tails: nan)
    shares = {"A>B": tail(law.sf(c_clear)), "B>A": tail(law.cdf(-c_clear)),
              "none": max(0.0, tail(law.cdf(-c_inside)) - tail(law.cdf(c_inside)))}
    truth = "A>B" if stats.norm.cdf(snr) >= THRESHOLD else "none"
    if quantity == "decided":
        return 100 * sum(shares.values())
    return 100 * sum(v for k, v in shares.items() if k != truth)


def simulate(maximum: int, snr: float, studies: int, seed: int, design: str = "planned",
             levels_of=None) -> dict:
    """Per study: decided, R at the stop, wrong, for one cell and seed."""
    planned = looks(WAVE, maximum) if design == "planned" else (maximum,)
    levels = (levels_of or _levels)(planned)
    values = np.random.default_rng([seed, maximum, round(1000 * snr)]).normal(
        snr, 1.0, (studies, maximum))
    decisions = decide(values, planned, levels)
    decided = decisions != ""
    first = np.where(decided.any(axis=1), decided.argmax(axis=1), len(planned) - 1)
    final = decisions[:, -1]
    truth = "A>B" if stats.norm.cdf(snr) >= THRESHOLD else (
        "B>A" if stats.norm.cdf(snr) <= 1 - THRESHOLD else "none")
    return {"decided": (final != "").astype(float),
            "R": np.asarray(planned, dtype=float)[first],
            "wrong": ((final != "") & (final != truth)).astype(float)}


_LEVELS: dict = {}


def _levels(planned: tuple[int, ...]) -> np.ndarray:
    if planned not in _LEVELS:
        _LEVELS[planned] = look_levels(planned, 1 - CONFIDENCE)
    return _LEVELS[planned]


# -- the committed numbers, and the comparison ---------------------------------------------------

def committed(text: str | None = None) -> tuple[dict, int]:
    """(maximum, SNR, design) -> (value, its standard error) of RESULTS.md's close cells, and
    the studies a cell."""
    text = text if text is not None else RESULTS.read_text(encoding="utf-8")
    block = text.split("<!-- designs:begin -->", 1)[1].split("<!-- designs:end -->", 1)[0]
    studies = int(re.search(r"= ([\d,]+) studies a cell", block).group(1).replace(",", ""))
    out = {}
    for line in block.splitlines():
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
        if len(parts) != 6 or not parts[0].isdigit() or " ± " not in parts[3]:
            continue
        for design, cell in (("planned", parts[3]), ("fixed", parts[4])):
            value, error = (float(x.rstrip("%")) for x in cell.split(" ± "))
            out[int(parts[0]), float(parts[1]), design] = (value, error)
    return out, studies


def measured(maximum: int, snr: float, quantity: str, design: str, studies: int,
             seeds: int) -> tuple[float, float]:
    """(value, Monte Carlo standard error) of a cell, pooled over ``seeds`` seeds."""
    key = {"decided": "decided", "wrong": "wrong", "mean R": "R"}[quantity]
    x = np.concatenate([simulate(maximum, snr, studies, SEED + s, design)[key]
                        for s in range(seeds)])
    scale = 1.0 if quantity == "mean R" else 100.0
    return scale * float(x.mean()), scale * float(x.std(ddof=1) / math.sqrt(x.size))


def _standard_error(quantity: str, value: float, printed: float, studies: int) -> float:
    """A committed value's standard error: a share's from its study count, a mean R's as
    printed; with the rounding of the printed value (uniform, half a last digit)."""
    if quantity == "mean R":
        return math.hypot(printed, 0.005 / math.sqrt(3))
    p = value / 100
    return math.hypot(100 * math.sqrt(p * (1 - p) / studies), 0.05 / math.sqrt(3))


def _signed(x: float, digits: int) -> str:
    """``x`` with its sign, and a plain 0 where it rounds to nothing."""
    said = f"{x:+.{digits}f}"
    return said[1:] if float(said) == 0 else said


def table(studies: int, seeds: int) -> tuple[str, list[tuple]]:
    """The comparison's Markdown table, and its rows as numbers."""
    ours, count = committed()
    rows, numbers = [], []
    for maximum, snr, quantity in CELLS:
        for design in ("planned", "fixed"):
            if design == "fixed" and quantity == "mean R":
                continue
            value, error = measured(maximum, snr, quantity, design, studies, seeds)
            theirs, printed = ours[maximum, snr, design]
            exact = exact_fixed(maximum, snr, quantity) if design == "fixed" else None
            se = math.hypot(error, _standard_error(quantity, theirs, printed, count))
            difference = value - theirs
            agrees = abs(difference) <= 3 * se
            unit = "" if quantity == "mean R" else "%"
            digits = 2 if quantity == "mean R" else 1
            points = "" if quantity == "mean R" else " points"
            rows.append(f"| {maximum} | {snr:g} | {quantity} | {design} | "
                        f"{theirs:.{digits}f}{unit} | {value:.{digits}f} ± "
                        f"{error:.{digits}f}{unit} | {_signed(difference, digits)} ± "
                        f"{se:.{digits}f}{points} | "
                        f"{'yes' if agrees else 'NO'} | "
                        f"{'-' if exact is None else f'{exact:.2f}%'} |")
            numbers.append((maximum, snr, quantity, design, theirs, value, error, difference,
                            se, agrees, exact))
            print(rows[-1], file=sys.stderr, flush=True)
    head = ("| maximum | SNR | quantity | design | committed | this check | difference | "
            "within 3 SE | exact |\n|---|---|---|---|---|---|---|---|---|")
    return head + "\n" + "\n".join(rows), numbers


# -- look by look against the product (imports it; kept apart) ----------------------------------

def cross_check(studies: int) -> tuple[str, dict]:
    """This implementation's decision at every look against the product's verdict on the same
    seeded studies; each mismatch re-read with the product's own look levels."""
    sys.path.insert(0, str(ROOT))
    from reprocompare.estimators.designs import design_named
    from reprocompare.estimators.group_sequential import look_levels as product_levels
    from reprocompare.estimators.verdict import verdict

    count = {"looks": 0, "mismatches": 0, "calibration": 0, "studies": 0, "shares": 0,
             "differ": 0}
    details = []
    for maximum, snr in ((10, 2.0), (10, 0.84), (20, 1.5), (20, 0.84), (200, 1.0), (200, 0.84),
                         (200, 0.0)):
        n = studies if maximum < 200 else max(1, studies // 3)
        planned = looks(WAVE, maximum)
        time_uniform, is_planned, wave = design_named("planned").looked(WAVE, maximum)
        values = np.random.default_rng([SEED + 99, maximum, round(1000 * snr)]).normal(
            snr, 1.0, (n, maximum))
        mine = decide(values, planned, _levels(planned))
        theirs_levels = np.asarray(product_levels(planned, round(1 - CONFIDENCE, 12)))
        with_theirs = decide(values, planned, theirs_levels)
        for i in range(n):
            before = count["mismatches"]
            for k, r in enumerate(planned):
                v = verdict(values[i, :r], "A>B", threshold=THRESHOLD, confidence=CONFIDENCE,
                            time_uniform=time_uniform, planned=is_planned, wave=wave,
                            max_repetitions=maximum)
                product = "" if v.decision == "undecided" else v.decision
                count["looks"] += 1
                count["shares"] += v.path == "distribution-free"
                if product != mine[i, k]:
                    count["mismatches"] += 1
                    count["calibration"] += product == with_theirs[i, k]
                    if count["mismatches"] == before + 1:
                        details.append(f"- maximum {maximum}, SNR {snr:g}, study {i}, from R = "
                                       f"{r}: this check {mine[i, k] or 'undecided'}, with the "
                                       f"product's levels {with_theirs[i, k] or 'undecided'}, "
                                       f"the product {product or 'undecided'}")
            if count["mismatches"] > before:
                count["differ"] += 1
                looked = count["mismatches"] - before
                details[-1] += f" ({looked} look{'s' if looked > 1 else ''})"
                print(details[-1], file=sys.stderr, flush=True)
        count["studies"] += n
        print(f"cross-check max {maximum}, SNR {snr:g}: {n} studies, {count['mismatches']} "
              "mismatches so far", file=sys.stderr, flush=True)
        largest = float(np.max(np.abs(np.asarray(_levels(planned)) - theirs_levels)))
        count[f"levels {maximum}"] = largest
    return "\n".join(details), count


# -- the block ----------------------------------------------------------------------------------

def reading(table_text: str) -> str:
    """What the table says, made from its rows."""
    rows = [[p.strip() for p in line.strip().strip("|").split("|")]
            for line in table_text.splitlines() if line.startswith("| ") and
            line.split("|")[1].strip().isdigit()]
    bad = [r for r in rows if r[7] != "yes"]
    worst = max(rows, key=lambda r: abs(float(r[6].split(" ± ")[0])) /
                float(r[6].split(" ± ")[1].split()[0]))
    ratio = abs(float(worst[6].split(" ± ")[0])) / float(worst[6].split(" ± ")[1].split()[0])
    if not bad:
        head = (f"All {len(rows)} cells agree within 3 standard errors of the difference; the "
                f"largest difference is {ratio:.1f} standard errors ({worst[2]} of the {worst[3]} "
                f"design at a maximum of {worst[0]}, SNR {worst[1]}: {worst[5]} against "
                f"{worst[4]}).")
    else:
        head = (f"{len(bad)} of {len(rows)} cells disagree by more than 3 standard errors: "
                + "; ".join(f"{r[2]} of the {r[3]} design at a maximum of {r[0]}, SNR {r[1]} "
                            f"({r[5]} against {r[4]})" for r in bad) + ".")
    exact = [r for r in rows if r[8] != "-"]
    if exact:
        value = lambda cell: float(cell.split(" ± ")[0].rstrip("%"))  # noqa: E731
        error = lambda cell: float(cell.split(" ± ")[1].rstrip("%"))  # noqa: E731
        ours = all(abs(value(r[5]) - float(r[8].rstrip("%"))) <= 3 * error(r[5]) for r in exact)
        # the committed share's standard error, from its value and the committed study count
        theirs = all(abs(float(r[4].rstrip("%")) - float(r[8].rstrip("%"))) <=
                     3 * math.hypot(100 * math.sqrt(float(r[4].rstrip("%")) / 100 *
                                                    (1 - float(r[4].rstrip("%")) / 100)
                                                    / COMMITTED_STUDIES), 0.05 / math.sqrt(3))
                     for r in exact)
        said = {(True, True): "both within 3 standard errors of it",
                (True, False): "this check within 3 standard errors of it, the committed "
                               "value not",
                (False, True): "the committed value within 3 standard errors of it, this "
                               "check not",
                (False, False): "neither within 3 standard errors of it"}[ours, theirs]
        head += (" Where the fixed look is a single noncentral t probability (a maximum of "
                 "10: one look, before the normality check reads any), the last column gives it "
                 "exactly: " + "; ".join(f"{r[2]} at SNR {r[1]} {r[8]} (committed {r[4]}, this "
                                         f"check {r[5]})" for r in exact) + f", {said}.")
    return head


def block(studies: int, seeds: int, cross_studies: int) -> str:
    started = time.process_time(), time.time()
    made, _ = table(studies, seeds)
    cross = ""
    if cross_studies:
        details, count = cross_check(cross_studies)
        cross = (f"\n\nLook by look against the product (`cross_check`, the script's one part "
                 f"that imports it): {count['studies']} seeded studies (seed {SEED + 99}; "
                 f"maxima 10, 20 and 200, SNR 0 to 2), {count['looks']:,} looks, each read by "
                 "this implementation and by `estimators.verdict.verdict` with the planned "
                 f"design's arguments ({count['shares']} of the looks read on Eq. 1's shares, "
                 f"the normal model rejected): {count['mismatches']} looks differ, in "
                 f"{count['differ']} studies"
                 + (f", {count['calibration']} of them gone when this implementation reads the "
                    "product's own look levels (calibration noise at the boundary, not a "
                    "difference of rule)" if count["mismatches"] else "")
                 + ". The two calibrations' look levels differ by at most "
                 f"{max(count[f'levels {m}'] for m in (10, 20, 200)):.5f} (maxima 10, 20, 200)."
                 + (f"\n\n{details}" if details else ""))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    note = (f"Measured {time.strftime('%Y-%m-%d')} with `nice -n 19 .venv/bin/python "
            f"benchmarks/check_designs.py --studies {studies} --seeds {seeds} --cross-studies "
            f"{cross_studies}` on {cpu_name()} ({os.cpu_count()} cores, load {load}), Python "
            f"{platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
            f"in {time.process_time() - started[0]:.0f} CPU s ({time.time() - started[1]:.0f} "
            "s). A second implementation of the planned design's decision, written from the "
            "documentation with numpy and scipy only (benchmarks/check_designs.py: the looks, "
            "the default spending, look levels calibrated on its own "
            f"{PATHS:,} paths of seed {CALIBRATION_SEED} under SNR 0, the exact noncentral t "
            "intervals intersected over the looks, the Shapiro-Wilk gate from R = 15 to "
            "Clopper-Pearson shares, the first decision kept), on its own seeded normal "
            f"studies: seeds {SEED}-{SEED + seeds - 1} x {studies:,} = {seeds * studies:,} a "
            "cell, waves of 5, threshold 0.8, 95%, futility off. Beside it the committed close "
            "cells above (seeds 47-50); \"difference\": this check less the committed value, "
            "± the standard error of the difference.")
    return f"{note}\n\n{made}\n\n{reading(made)}{cross}\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--studies", type=int, default=4000, help="studies a seed and cell")
    parser.add_argument("--seeds", type=int, default=4, help="seeds from SEED")
    parser.add_argument("--cross-studies", type=int, default=100,
                        help="studies a cell of the look-by-look check (a quarter at 200)")
    parser.add_argument("--write", action="store_true",
                        help="into benchmarks/RESULTS.md between the designs-check markers")
    args = parser.parse_args(argv)
    text = block(args.studies, args.seeds, args.cross_studies)
    print(text)
    if args.write:
        replace_between(RESULTS, *MARKERS, text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
