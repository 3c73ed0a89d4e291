"""Intervals and verdicts off the normal model, measured: the table of docs/statistics.md.

    nice -n 10 .venv/bin/python benchmarks/bench_intervals.py [--studies N] [--write]

Seeded. Simulated sequential studies (waves of 5 up to R = 200, threshold 0.8, 95%) draw
estimates of A - B with SNR theta from six laws: normal; left-skewed (a negated standardized
Gamma(2), skewness -1.41: a tail against the conclusion, as occasional failed trainings give);
right-skewed (its mirror); t with 3 degrees of freedom; discrete with ties (a normal rounded to
half its sd, as a small validation set's F1 differences are); and the committed estimates of
studies/chunking's Avg (R = 200), standardized and resampled. At every look the rule of
``estimators.verdict`` runs as the workflow runs it under ``stopping.design: anytime``: the
normal model's SNR confidence sequence intersected over the looks unless
``estimators.normality`` rejects the model at that look (ties, or Shapiro-Wilk p < 0.05 from R =
15), which then reads Eq. 1's shares with beta-binomial sequences at half the error each; the
study stops at the first decided look.

The truth is what the verdict claims: Eq. 1's reproducibility P(x > 0) of the law (and P(x < 0)
for "B > A"), computed on 4,000,000 draws. A verdict is wrong when it names a direction whose
share is below the threshold, or says neither direction reproduces while one does. Coverage is
time-uniform: the printed reproducibility interval (Phi of the SNR's on the normal path, the
share's on the other) holds P(x > 0) at every look until the study stops.

The simulation is vectorized over studies from the estimators' own functions (log_e_value,
the share e-value, share_bounds, the diagnostic's level); a check replays a few studies per cell
through ``estimators.verdict.replay`` itself and requires the same stop and verdict.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import re
import sys
import time
from pathlib import Path

import numpy as np
import scipy
from scipy import stats

from reprocompare.estimators.normality import SHAPIRO_FROM, SHAPIRO_LEVEL
from reprocompare.estimators.sequential import _log_share_e_value, log_e_value
from reprocompare.estimators.verdict import THRESHOLD, replay, share_bounds

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "statistics.md"
COMMITTED = ROOT / "studies" / "chunking" / "results" / "summaries" / "conll2000" \
    / "crf_iob2_vs_iobes.json"
LAWS = ("normal", "left-skewed", "right-skewed", "t3", "discrete", "resampled")
SNRS = (0.0, 0.3, 0.6, 0.84, 1.0, 1.5, 2.0, 4.0)
WAVE, MAX_R, CONFIDENCE = 5, 200, 0.95
LOOKS = np.arange(WAVE, MAX_R + 1, WAVE)
Z = float(stats.norm.ppf(THRESHOLD))
BOUND = math.log(1 / (1 - CONFIDENCE))
HALF_BOUND = math.log(2 / (1 - CONFIDENCE))  # each share at half the error
BEGIN, END = "<!-- intervals:begin -->", "<!-- intervals:end -->"


def committed_scores() -> np.ndarray:
    values = np.asarray(json.loads(COMMITTED.read_text())["values"]["Avg"])
    return (values - values.mean()) / values.std(ddof=1)


def draws(law: str, theta: float, shape, rng, scores: np.ndarray) -> np.ndarray:
    if law == "normal":
        return theta + rng.standard_normal(shape)
    gamma = (rng.gamma(2.0, 1.0, shape) - 2.0) / math.sqrt(2.0) if "skewed" in law else None
    if law == "left-skewed":
        return theta - gamma
    if law == "right-skewed":
        return theta + gamma
    if law == "t3":
        return theta + rng.standard_t(3, shape) / math.sqrt(3.0)
    if law == "discrete":
        return np.round((theta + rng.standard_normal(shape)) * 2) / 2
    return theta + scores[rng.integers(0, scores.size, shape)]


def shares(law: str, theta: float, scores: np.ndarray) -> tuple[float, float]:
    x = draws(law, theta, 4_000_000, np.random.default_rng(99), scores)
    return float(np.mean(x > 0)), float(np.mean(x < 0))


def ties(v: np.ndarray) -> np.ndarray:
    scale = np.abs(v).max(axis=1, keepdims=True)
    rounded = np.sort(np.round(v / scale, 9), axis=1)
    return (np.diff(rounded, axis=1) == 0).any(axis=1)


def side_flags(log_e, log_e_right, bound):
    """(interval above c, interval below c) from the e-value at c and just right of it."""
    excluded = log_e >= bound
    right = log_e_right < log_e
    return excluded & right, excluded & ~right


def simulate(law: str, theta: float, studies: int, seed: int, scores) -> dict:
    rng = np.random.default_rng(seed)
    x = draws(law, theta, (studies, MAX_R), rng, scores)
    up_true, down_true = shares(law, theta, scores)
    need_up, need_down = share_bounds(THRESHOLD, 0.0)
    target = float(stats.norm.ppf(min(max(up_true, 1e-12), 1 - 1e-12)))
    code = np.full(studies, 2)
    stop = np.full(studies, MAX_R)
    active = np.ones(studies, bool)
    rejected = np.zeros(studies, bool)
    keys = ("L", "H", "l", "h", "miss_low", "miss_high")
    normal = {k: np.zeros(studies, bool) for k in keys}
    free = {k: np.zeros(studies, bool) for k in keys}
    covered_low = np.ones(studies, bool)
    covered_high = np.ones(studies, bool)
    truth = min(max(up_true, 1e-12), 1 - 1e-12)
    for r in LOOKS:
        v = x[:, :r]
        t = np.sqrt(r) * v.mean(axis=1) / v.std(axis=1, ddof=1)
        for c, (above, below) in ((Z, ("L", "h")), (-Z, ("l", "H"))):
            a, b = side_flags(log_e_value(t, r, c), log_e_value(t, r, c + 1e-6 * max(1, abs(c))),
                              BOUND)
            normal[above] |= a
            normal[below] |= b
        below, above = side_flags(log_e_value(t, r, target),
                                  log_e_value(t, r, target + 1e-6 * max(1, abs(target))), BOUND)
        normal["miss_low"] |= below  # the whole interval above the truth: its low end missed
        normal["miss_high"] |= above
        positive, negative = (v > 0).sum(axis=1), (v < 0).sum(axis=1)
        e_up = lambda p: _log_share_e_value(positive, r, p)
        e_down = lambda p: _log_share_e_value(negative, r, p)
        share_up, share_down = positive / r, negative / r
        free["L"] |= (e_up(need_up) >= HALF_BOUND) & (share_up > need_up)
        free["h"] |= (e_up(need_up) >= HALF_BOUND) & (share_up < need_up)
        free["H"] |= (e_down(need_down) >= HALF_BOUND) & (share_down > need_down)
        free["l"] |= (e_down(need_down) >= HALF_BOUND) & (share_down < need_down)
        out = e_up(truth) >= HALF_BOUND
        free["miss_low"] |= out & (share_up > truth)
        free["miss_high"] |= out & (share_up < truth)
        # the normal model judged at each look on its own data (ties, Shapiro-Wilk from
        # SHAPIRO_FROM); the intervals stay intersected over every look, the first decision kept
        rejected = ties(v)
        if r >= SHAPIRO_FROM:
            rejected = rejected | (stats.shapiro(v, axis=1).pvalue < SHAPIRO_LEVEL)
        # the normal path keeps an end open while every estimate lies on one side of 0
        one_side = (positive == r) | (negative == r)
        use = {k: np.where(rejected, free[k], normal[k]) for k in free}
        use["miss_high"] = np.where(rejected, free["miss_high"],
                                    normal["miss_high"] & ~(positive == r))
        use["miss_low"] = np.where(rejected, free["miss_low"],
                                   normal["miss_low"] & ~(negative == r))
        now = np.full(studies, 2)
        now[use["l"] & use["h"] & (rejected | ~one_side)] = 0
        now[use["H"]] = -1
        now[use["L"]] = 1
        covered_low &= ~active | ~use["miss_low"]
        covered_high &= ~active | ~use["miss_high"]
        newly = active & (now != 2)
        code[newly], stop[newly] = now[newly], r
        active &= ~newly
        if not active.any():
            break
    wrong = (((code == 1) & (up_true < THRESHOLD)) | ((code == -1) & (down_true < THRESHOLD))
             | ((code == 0) & ((up_true >= THRESHOLD) | (down_true >= THRESHOLD))))
    return {"share": up_true, "coverage": float((covered_low & covered_high).mean()),
            "coverage_low": float(covered_low.mean()), "wrong": float(wrong.mean()),
            "decided": float(np.mean(code != 2)), "mean_r": float(stop.mean()),
            "p90_r": float(np.percentile(stop, 90)), "x": x[:3], "code": code[:3],
            "stop": stop[:3]}


def check(result: dict) -> None:
    """The vectorized rule against the estimators' own replay, on a few studies."""
    names = {1: "A>B", -1: "B>A", 0: "none", 2: "undecided"}
    for x, code, stop in zip(result["x"], result["code"], result["stop"]):
        played = replay(x, WAVE, max_repetitions=MAX_R)
        assert (played.stopped_at, played.verdict.decision) == (stop, names[int(code)]), \
            (played.stopped_at, played.verdict.decision, stop, names[int(code)])


def table(results: dict, studies: int, seconds: float) -> str:
    load = " ".join(f"{v:.1f}" for v in __import__("os").getloadavg())
    lines = [BEGIN,
             f"Measured {time.strftime('%Y-%m-%d')} with `nice -n 10 .venv/bin/python "
             f"benchmarks/bench_intervals.py --studies {studies} --write` on {platform.machine()} "
             f"({__import__('os').cpu_count()} cores, load {load}), Python "
             f"{platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
             f"in {seconds:.0f} s: {studies} sequential studies per cell (waves of {WAVE} up to "
             f"R = {MAX_R}, threshold {THRESHOLD}, 95%). Truth: each law's P(x > 0); coverage: "
             "the printed reproducibility interval holds it at every look until the stop; wrong: "
             "a direction named whose share is below 0.8, or 'neither' while one is at least 0.8. "
             "'Low end' counts only the misses where the whole interval lay above the truth "
             "(what 'A > B reproduces' rests on). Targets: coverage >= 93%, "
             "wrong <= 2.5%.", "",
             "| law | SNR | P(x > 0) | coverage % | low end covers % | wrong % | decided % | "
             "mean R | 90th pct R |",
             "|---|---|---|---|---|---|---|---|---|"]
    for (law, theta), r in results.items():
        lines.append(f"| {law} | {theta:g} | {r['share']:.3f} | {100 * r['coverage']:.1f} | "
                     f"{100 * r['coverage_low']:.1f} | {100 * r['wrong']:.1f} | {100 * r['decided']:.1f} | {r['mean_r']:.1f} | "
                     f"{r['p90_r']:.0f} |")
    worst_cover = min(r["coverage"] for r in results.values())
    worst_low = min(r["coverage_low"] for r in results.values())
    worst_wrong = max(r["wrong"] for r in results.values())
    short = [f"{law} at SNR {theta:g}" for (law, theta), r in results.items()
             if r["coverage"] < 0.93]
    lines += ["", f"Lowest coverage {100 * worst_cover:.1f}%, lowest low-end coverage "
                  f"{100 * worst_low:.1f}%, highest wrong-verdict rate {100 * worst_wrong:.1f}% "
                  f"over all {len(results)} cells."
              + (f" Below 93%: {', '.join(short)}." if short else ""), END]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--studies", type=int, default=2000)
    parser.add_argument("--write", action="store_true", help="into docs/statistics.md")
    args = parser.parse_args(argv)
    scores = committed_scores()
    started = time.perf_counter()
    results = {}
    for i, law in enumerate(LAWS):
        for j, theta in enumerate(SNRS):
            results[law, theta] = simulate(law, theta, args.studies, 3300 + 10 * i + j, scores)
            check(results[law, theta])
            r = results[law, theta]
            print(f"{law} {theta}: cover {r['coverage']:.3f} wrong {r['wrong']:.3f} "
                  f"mean R {r['mean_r']:.1f}", file=sys.stderr, flush=True)
    text = table(results, args.studies, time.perf_counter() - started)
    print(text)
    if args.write:
        docs = DOCS.read_text(encoding="utf-8")
        if BEGIN in docs:
            docs = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: text, docs,
                          flags=re.S)
        else:
            raise SystemExit(f"{DOCS} has no {BEGIN} ... {END} block to fill")
        DOCS.write_text(docs, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
