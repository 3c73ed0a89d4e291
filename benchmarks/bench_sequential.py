"""Sequential studies measured (issue 22): coverage under optional stopping, wrong verdicts, R used.

    nice -n 10 .venv/bin/python benchmarks/bench_sequential.py > /tmp/sequential.md

Seeded; prints the Markdown of docs/sequential.md to stdout and its progress to stderr.
Simulated studies draw R = 2..MAX_R estimates with SNR theta (mean theta, sd 1), normal or a
standardized Gamma(2) (skewness 1.41). After every wave of 1, 5 or 10 repetitions the verdict
rule of estimators.verdict (threshold 0.8, 95%) looks at the interval and the study stops at
the first decided verdict, or at MAX_R undecided. Two intervals are compared:

- the time-uniform confidence sequence of estimators.sequential (what a sequential study uses);
- the fixed-R exact noncentral t interval checked after every wave (what one would do naively).

Parts: (a) coverage of the true SNR at the stop, and at every look up to MAX_R; (b) verdicts,
right and wrong; (c) R at the verdict against fixed designs; (d) the predictive reproducibility
Phi(SNR) against Eq. 1's share: repetitions for the same width, and coverage of the true
P(estimate > 0) at R = 5 and 1000. The committed studies replayed under the rule as it runs:
benchmarks/bench_replay.py.
"""

from __future__ import annotations

import math
import platform
import sys
import time

import numpy as np
import scipy
from scipy import stats

from reprocompare.estimators.reproducibility import (repetitions_for_reproducibility,
                                                     snr_exact_interval)
from reprocompare.estimators.sequential import PRIOR, log_e_value, sequence_from_t
from reprocompare.estimators.verdict import (NO_DIFFERENCE, OPPOSED, SUPPORTED, THRESHOLD,
                                             UNDECIDED, decisions)

SNRS = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)
LAWS = ("normal", "skewed")
WAVES = (1, 5, 10)
MAX_R = 200
STUDIES = 2000
CONFIDENCE = 0.95
BOUND = math.log(1 / (1 - CONFIDENCE))
Z = float(stats.norm.ppf(THRESHOLD))
SHARES = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99)
CALIBRATION_SNRS = (0.0, 0.5, 1.0, 2.0)
CALIBRATION_R = (5, 1000)
CALIBRATION_STUDIES = 2000
NAMES = {SUPPORTED: "A > B", OPPOSED: "B > A", NO_DIFFERENCE: "none", UNDECIDED: "undecided"}


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def draws(law: str, theta: float, shape, rng) -> np.ndarray:
    """Estimates with mean theta and sd 1: normal, or a standardized Gamma(2)."""
    if law == "normal":
        return theta + rng.standard_normal(shape)
    return theta + (rng.gamma(2.0, 1.0, shape) - 2.0) / math.sqrt(2.0)


def true_share(law: str, theta: float) -> float:
    """P(estimate > 0) under the law: Phi(theta), or P(G > 2 - sqrt(2) theta) for the Gamma."""
    if law == "normal":
        return float(stats.norm.cdf(theta))
    return float(stats.gamma.sf(2 - math.sqrt(2) * theta, 2.0))


def truth(theta: float) -> int:
    """The right verdict for an SNR: the rule's target is Phi(SNR) against the threshold."""
    return SUPPORTED if theta >= Z else OPPOSED if theta <= -Z else NO_DIFFERENCE


def running_t(x: np.ndarray) -> np.ndarray:
    """t statistics of every prefix R = 2..MAX_R of each study (columns)."""
    n = np.arange(1, x.shape[1] + 1)
    total, squares = np.cumsum(x, axis=1), np.cumsum(x * x, axis=1)
    mean = total / n
    variance = np.maximum(squares - n * mean * mean, 0)[:, 1:] / (n[1:] - 1)
    return np.sqrt(n[1:]) * mean[:, 1:] / np.sqrt(variance)


def every_look(law: str, theta: float, seed: int) -> dict[str, np.ndarray]:
    """Decision codes and coverage of both intervals at every R = 2..MAX_R of every study."""
    rng = np.random.default_rng(seed)
    t = running_t(draws(law, theta, (STUDIES, MAX_R), rng))
    shape = t.shape
    out = {key: np.empty(shape, dtype=np.int8 if "codes" in key else bool)
           for key in ("seq_codes", "fix_codes", "seq_cover", "fix_cover")}
    for j, r in enumerate(range(2, MAX_R + 1)):
        column = t[:, j]
        out["seq_codes"][:, j] = decisions(column, r, time_uniform=True)
        out["fix_codes"][:, j] = decisions(column, r, time_uniform=False)
        out["seq_cover"][:, j] = log_e_value(column, r, theta) < BOUND
        cdf = stats.nct.cdf(column, r - 1, math.sqrt(r) * theta)
        out["fix_cover"][:, j] = ((1 - CONFIDENCE) / 2 <= cdf) & (cdf <= (1 + CONFIDENCE) / 2)
    return out


def looks(wave: int) -> np.ndarray:
    """Column indices (R - 2) of the looks a wave size takes, the last at MAX_R."""
    rs = [r for r in range(wave, MAX_R + 1, wave) if r >= 2]
    if rs[-1] != MAX_R:
        rs.append(MAX_R)
    return np.asarray(rs) - 2


def stop(codes: np.ndarray, cover: np.ndarray, wave: int) -> dict[str, np.ndarray]:
    """Where each study stops under a wave size, its verdict and whether it covers there."""
    index = looks(wave)
    seen = codes[:, index]
    decided = seen != UNDECIDED
    first = np.where(decided.any(axis=1), decided.argmax(axis=1), len(index) - 1)
    rows = np.arange(len(codes))
    column = index[first]
    return {"r": column + 2, "code": codes[rows, column], "cover": cover[rows, column],
            "always": cover[:, index].all(axis=1)}


def pct(x) -> str:
    return f"{100 * np.mean(x):.1f}"


def simulate() -> dict:
    results = {}
    seed = 0
    for law in LAWS:
        for theta in SNRS:
            seed += 1
            started = time.perf_counter()
            results[law, theta] = every_look(law, theta, 2200 + seed)
            progress(f"  {law}, SNR {theta:g}: {time.perf_counter() - started:.0f} s")
    return results


def coverage_table(results: dict) -> list[str]:
    lines = ["| law | true SNR | wave | CS at the stop | CS at every look | fixed at the stop | "
             "fixed at every look |", "|---|---|---|---|---|---|---|"]
    for law in LAWS:
        for theta in SNRS:
            res = results[law, theta]
            for wave in WAVES:
                seq = stop(res["seq_codes"], res["seq_cover"], wave)
                fix = stop(res["fix_codes"], res["fix_cover"], wave)
                lines.append(f"| {law} | {theta:g} | {wave} | {pct(seq['cover'])} | "
                             f"{pct(seq['always'])} | {pct(fix['cover'])} | {pct(fix['always'])} |")
    return lines


def verdict_table(results: dict) -> list[str]:
    lines = ["| law | true SNR | right verdict | wave | interval | A > B | B > A | none | "
             "undecided at 200 | wrong |", "|---|---|---|---|---|---|---|---|---|---|"]
    for law in LAWS:
        for theta in SNRS:
            res = results[law, theta]
            right = truth(theta)
            for wave in WAVES:
                for kind in ("seq", "fix"):
                    s = stop(res[f"{kind}_codes"], res[f"{kind}_cover"], wave)
                    code = s["code"]
                    wrong = (code != UNDECIDED) & (code != right)
                    shares = " | ".join(pct(code == c) for c in (SUPPORTED, OPPOSED,
                                                                 NO_DIFFERENCE, UNDECIDED))
                    name = "CS" if kind == "seq" else "fixed, every wave"
                    lines.append(f"| {law} | {theta:g} | {NAMES[right]} | {wave} | {name} | "
                                 f"{shares} | {pct(wrong)} |")
    return lines


def fixed_design(codes: np.ndarray, right: int, target: float) -> tuple[int | None, float]:
    """The smallest fixed R whose one look decides right at least ``target`` of the time."""
    correct = (codes == right).mean(axis=0)
    hits = np.flatnonzero(correct >= target)
    if hits.size == 0:
        return None, math.nan
    j = int(hits[0])
    wrong = ((codes[:, j] != UNDECIDED) & (codes[:, j] != right)).mean()
    return j + 2, float(wrong)


def repetitions_table(results: dict) -> list[str]:
    lines = ["| law | true SNR | wave | decided right | wrong | R at the verdict: mean | "
             "90th percentile | fixed design: R | its wrong | fixed at R = 200: right | "
             "its wrong |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for law in LAWS:
        for theta in SNRS:
            res = results[law, theta]
            right = truth(theta)
            last = res["fix_codes"][:, -1]
            at_max = pct(last == right)
            at_max_wrong = pct((last != UNDECIDED) & (last != right))
            for wave in WAVES:
                s = stop(res["seq_codes"], res["seq_cover"], wave)
                share = float(np.mean(s["code"] == right))
                wrong = (s["code"] != UNDECIDED) & (s["code"] != right)
                fixed_r, fixed_wrong = fixed_design(res["fix_codes"], right, share)
                if share == 0:
                    fixed = "- | -"  # nothing to match
                elif fixed_r is None:
                    fixed = "more than 200 | -"
                else:
                    fixed = f"{fixed_r} | {100 * fixed_wrong:.1f}"
                lines.append(f"| {law} | {theta:g} | {wave} | {100 * share:.1f} | {pct(wrong)} | "
                             f"{np.mean(s['r']):.1f} | {np.percentile(s['r'], 90):.0f} | "
                             f"{fixed} | {at_max} | {at_max_wrong} |")
    return lines


def with_t(t: float, r: int) -> np.ndarray:
    base = np.arange(r, dtype=np.float64)
    return (base - base.mean()) / base.std(ddof=1) + t / math.sqrt(r)


def phi_half_width(share: float, r: int, time_uniform: bool) -> float:
    theta = float(stats.norm.ppf(share))
    t = math.sqrt(r) * theta
    low, high = (sequence_from_t(t, r) if time_uniform
                 else snr_exact_interval(with_t(t, r)))
    return float(stats.norm.cdf(high) - stats.norm.cdf(low)) / 2


def repetitions_for_phi(share: float, half_width: float, time_uniform: bool) -> int:
    """Smallest R whose Phi-mapped interval at Phi^-1(share) is at most +-half_width."""
    low, high = 2, 4
    while phi_half_width(share, high, time_uniform) > half_width:
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        if phi_half_width(share, middle, time_uniform) > half_width:
            low = middle
        else:
            high = middle
    return high


def width_table() -> list[str]:
    lines = ["| reproducibility | Clopper-Pearson on the share (Eq. 1) | Phi of the exact SNR "
             "interval | Phi of the confidence sequence |", "|---|---|---|---|"]
    for share in SHARES:
        lines.append(f"| {share:g} | {repetitions_for_reproducibility(share, 0.05)} | "
                     f"{repetitions_for_phi(share, 0.05, False)} | "
                     f"{repetitions_for_phi(share, 0.05, True)} |")
    return lines


def calibration_table() -> list[str]:
    rng = np.random.default_rng(2205)
    alpha = 1 - CONFIDENCE
    lines = ["| law | R | true SNR | true P(x > 0) | Phi(SNR) | Phi of exact interval | "
             "Clopper-Pearson | median width: Phi / CP |", "|---|---|---|---|---|---|---|---|"]
    for law in LAWS:
        for r in CALIBRATION_R:
            for theta in CALIBRATION_SNRS:
                x = draws(law, theta, (CALIBRATION_STUDIES, r), rng)
                p = true_share(law, theta)
                t = math.sqrt(r) * x.mean(axis=1) / x.std(axis=1, ddof=1)
                # Phi^-1(p) inside the exact interval <=> the nct cdf at it is in [a/2, 1-a/2]
                target = float(stats.norm.ppf(p)) if p < 1 else math.inf
                cdf = stats.nct.cdf(t, r - 1, math.sqrt(r) * target) if math.isfinite(target) \
                    else np.zeros(len(t))
                phi_cover = (alpha / 2 <= cdf) & (cdf <= 1 - alpha / 2)
                k = (x > 0).sum(axis=1)
                cp_low = np.where(k > 0, stats.beta.ppf(alpha / 2, k, r - k + 1), 0.0)
                cp_high = np.where(k < r, stats.beta.ppf(1 - alpha / 2, k + 1, r - k), 1.0)
                cp_cover = (cp_low <= p) & (p <= cp_high)
                sample = slice(0, 200)  # widths need the interval itself: 200 studies
                widths = []
                for row in x[sample]:
                    low, high = snr_exact_interval(row)
                    widths.append(stats.norm.cdf(high) - stats.norm.cdf(low))
                lines.append(f"| {law} | {r} | {theta:g} | {p:.3f} | {stats.norm.cdf(theta):.3f} "
                             f"| {pct(phi_cover)} | {pct(cp_cover)} | {np.median(widths):.3f} / "
                             f"{np.median((cp_high - cp_low)[sample]):.3f} |")
            progress(f"  calibration, {law}, R = {r}")
    return lines


def main() -> None:
    started = time.perf_counter()
    progress(f"simulating {STUDIES} studies per cell, R = 2..{MAX_R}")
    results = simulate()
    sections = [
        ("(a) Coverage of the true SNR under optional stopping (percent, nominal 95)",
         ["Each study stops at the first look whose verdict is decided (or at R = 200); "
          "\"at the stop\" is the interval there, \"at every look\" asks that every interval "
          "the study looked at covered (what time-uniform validity promises). \"fixed\": the "
          "fixed-R exact interval used, wrongly, after every wave."], coverage_table(results)),
        ("(b) Verdicts (percent of studies)",
         ["\"right verdict\": A > B where Phi(SNR) >= 0.8 (SNR >= 0.8416), none where "
          "0.2 < Phi(SNR) < 0.8. \"wrong\": a decided verdict other than the right one."],
         verdict_table(results)),
        ("(c) Repetitions at the verdict, against fixed designs",
         ["R at the verdict counts an undecided study as 200. Fixed design: the smallest R "
          "whose single look with the fixed-R exact interval decides right at least as often "
          "as the sequential rule (CS) does by R = 200, and how often it decides wrong there; "
          "\"fixed at R = 200\": one look at the maximum."], repetitions_table(results)),
    ]
    progress("repetitions for the same width")
    widths = width_table()
    progress("calibration of the predictive reproducibility")
    calibration = calibration_table()
    elapsed = time.perf_counter() - started
    print("<!-- written by benchmarks/bench_sequential.py; rerun it to refresh -->")
    print(f"Measured on {platform.machine()}, Python {platform.python_version()}, numpy "
          f"{np.__version__}, scipy {scipy.__version__} in {elapsed:.0f} s: {STUDIES} simulated "
          f"studies per cell (Monte Carlo standard error of a share near 95%: "
          f"{100 * math.sqrt(0.95 * 0.05 / STUDIES):.1f} points, near 50%: "
          f"{100 * math.sqrt(0.25 / STUDIES):.1f}), prior scale {PRIOR:g}, threshold "
          f"{THRESHOLD:g}, confidence "
          f"{CONFIDENCE:g}.")
    for title, notes, table in sections:
        print(f"\n### {title}\n")
        for note in notes:
            print(note + "\n")
        print("\n".join(table))
    print("\n### (d) Predictive reproducibility Phi(SNR) against Eq. 1's share\n")
    print("Repetitions for a 95% interval of +-0.05 on the reproducibility, if the estimate "
          "stays where it is:\n")
    print("\n".join(widths))
    print(f"\nCoverage (percent, nominal 95) of the true P(estimate > 0), {CALIBRATION_STUDIES} "
          "studies per row; widths from 200 of them:\n")
    print("\n".join(calibration))


if __name__ == "__main__":
    main()
