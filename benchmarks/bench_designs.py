"""Which stopping design to make the default? Each measured against one fixed look at the maximum.

    nice -n 19 .venv/bin/python benchmarks/bench_designs.py [--studies N] [--maxima 10 20 200]

Seeded. The baseline a statistician would use is one look at the most repetitions the user can
afford (the maximum R), with the exact noncentral t interval of the SNR at 95%: no early stop,
no normality check. Each design below looks after every wave of 5 (R = 5, 10, ..., maximum),
keeps the first decision it reaches (a decision is never taken back), and is run on the same
seeded studies as the baseline:

- ``fixed``: the baseline;
- ``pocock``: the planned design of estimators/group_sequential.py (Lan-DeMets Pocock-type
  spending, levels calibrated on the t statistics' joint law);
- ``obf-early``: the candidate default: O'Brien-Fleming-type spending, which keeps almost all of
  the error for the last look, plus a fixed allotment (``--early`` of alpha, shared by the looks
  at R <= 10) so that clear differences stop at the first looks whatever the maximum;
- with ``+gate``, the normality check of estimators/normality.py at every look from R =
  ``--gate-from`` (Shapiro-Wilk p < 0.05 sends that look to the distribution-free path,
  Clopper-Pearson intervals of Eq. 1's shares at half the look's error each).

Laws: normal estimates, and the left-skewed (negated standardized Gamma(2)) and t3 laws of
docs/statistics.md, whose truth is each law's P(x > 0) against the threshold 0.8. "wrong": a
direction named whose share is below 0.8, or "neither" while one is at least 0.8. Prints one
Markdown table; progress on stderr.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reprocompare.estimators.group_sequential import (PATHS, SEED, _first_crossings,  # noqa: E402
                                                       obrien_fleming_spending,
                                                       pocock_spending)

ALPHA, THRESHOLD, WAVE = 0.05, 0.8, 5
Z = float(stats.norm.ppf(THRESHOLD))
SNRS = (0.0, 0.6, 0.84, 1.0, 2.0, 3.0, 4.0)


def obf_early(looks, alpha: float, early: float) -> np.ndarray:
    """Cumulative error spent by each look: ``early`` of alpha shared equally by the looks at
    R <= 10, the rest by the O'Brien-Fleming type over the information fractions."""
    looks = np.asarray(looks)
    first = looks <= 10
    share = early * alpha / max(1, int(first[:-1].sum())) if len(looks) > 1 else 0.0
    allotted = np.cumsum(np.where(first & (np.arange(len(looks)) < len(looks) - 1), share, 0))
    spent = allotted + (alpha - allotted[-1]) * obrien_fleming_spending(
        looks / looks[-1], alpha) / alpha
    spent[-1] = alpha
    return spent


def levels(design: str, looks, early: float) -> list[float]:
    if design == "fixed":
        return [ALPHA]
    spent = pocock_spending(np.asarray(looks) / looks[-1], ALPHA) if design == "pocock" \
        else obf_early(looks, ALPHA, early)
    return list(_first_crossings(tuple(looks), np.asarray(spent), PATHS, SEED, False))


def draws(law: str, snr: float, shape, rng) -> np.ndarray:
    if law == "normal":
        return snr + rng.standard_normal(shape)
    if law == "left-skewed":
        return snr - (rng.gamma(2.0, 1.0, shape) - 2.0) / math.sqrt(2.0)
    return snr + rng.standard_t(3, shape) / math.sqrt(3.0)


def truth(law: str, snr: float) -> int:
    x = draws(law, snr, 2_000_000, np.random.default_rng(99))
    return 1 if np.mean(x > 0) >= THRESHOLD else -1 if np.mean(x < 0) >= THRESHOLD else 0


def _clopper_pearson(k, n, one_sided):
    low = np.where(k > 0, stats.beta.ppf(one_sided, np.maximum(k, 1e-12), n - k + 1), 0.0)
    high = np.where(k < n, stats.beta.ppf(1 - one_sided, k + 1, np.maximum(n - k, 1e-12)), 1.0)
    return low, high


def run(looks, lv, law: str, snr: float, studies: int, seed: int, gate_from: int | None):
    """Each study's first decision (1, -1, 0 for 'neither', 2 undecided) and where it came."""
    rng = np.random.default_rng(seed)
    x = draws(law, snr, (studies, looks[-1]), rng)
    total, squares = np.cumsum(x, 1), np.cumsum(x * x, 1)
    pos, neg = np.cumsum(x > 0, 1), np.cumsum(x < 0, 1)
    decided = np.full(studies, 2)
    stop = np.full(studies, looks[-1])
    up = [np.zeros(studies), np.ones(studies)]
    down = [np.zeros(studies), np.ones(studies)]
    for r, a in zip(looks, lv):
        mean = total[:, r - 1] / r
        t = math.sqrt(r) * mean / np.sqrt((squares[:, r - 1] - r * mean ** 2) / (r - 1))
        root = math.sqrt(r)
        upper = stats.nct.ppf(1 - a / 2, r - 1, root * Z)      # low end above +Z
        lower = stats.nct.ppf(a / 2, r - 1, -root * Z)         # high end below -Z
        inside_high = stats.nct.ppf(a / 2, r - 1, root * Z)    # high end below +Z
        inside_low = stats.nct.ppf(1 - a / 2, r - 1, -root * Z)
        code = np.where(t >= upper, 1, np.where(t <= lower, -1, np.where(
            (t < inside_high) & (t > inside_low), 0, 2)))
        one_side = (pos[:, r - 1] == r) | (neg[:, r - 1] == r)
        code = np.where(one_side & (code == 0), 2, code)
        if gate_from is not None:
            for ends, count in ((up, pos[:, r - 1]), (down, neg[:, r - 1])):
                low, high = _clopper_pearson(count, r, a / 4)
                ends[0], ends[1] = np.maximum(ends[0], low), np.minimum(ends[1], high)
            if r >= gate_from:
                rejected = stats.shapiro(x[:, :r], axis=1).pvalue < 0.05
                shares = np.where(up[0] >= THRESHOLD, 1, np.where(down[0] >= THRESHOLD, -1, np.where(
                    (up[1] < THRESHOLD) & (down[1] < THRESHOLD), 0, 2)))
                code = np.where(rejected, shares, code)
        new = (decided == 2) & (code != 2)
        decided[new], stop[new] = code[new], r
    return decided, stop


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--studies", type=int, default=2000)
    parser.add_argument("--maxima", type=int, nargs="+", default=[10, 20, 200])
    parser.add_argument("--early", type=float, default=0.2,
                        help="share of alpha allotted to the looks at R <= 10 (obf-early)")
    parser.add_argument("--gate-from", type=int, default=15)
    parser.add_argument("--laws", nargs="+", default=["normal", "left-skewed", "t3"])
    args = parser.parse_args(argv)
    started = time.time()
    truths = {(law, s): truth(law, s) for law in args.laws for s in SNRS}
    rows = []
    for maximum in args.maxima:
        looks = list(range(WAVE, maximum + 1, WAVE))
        for design in ("fixed", "pocock", "obf-early"):
            lv = levels(design, looks, args.early)
            taken = [maximum] if design == "fixed" else looks
            for gate in ((None,) if design == "fixed" else (None, args.gate_from)):
                for law in args.laws:
                    cells = []
                    for k, s in enumerate(SNRS):
                        decided, stop = run(taken, lv, law, s, args.studies, 1000 + k, gate)
                        wrong = np.mean((decided != 2) & (decided != truths[law, s]))
                        cells.append(f"{100 * np.mean(decided != 2):.1f} / "
                                     f"{100 * wrong:.1f} / {stop.mean():.1f}")
                    name = design + (f" +gate from R = {gate}" if gate else "")
                    rows.append(f"| {maximum} | {name} | {law} | " + " | ".join(cells) + " |")
                    print(rows[-1], file=sys.stderr, flush=True)
    print(f"Measured {time.strftime('%Y-%m-%d')} with `nice -n 19 .venv/bin/python "
          f"benchmarks/bench_designs.py --studies {args.studies} --early {args.early} "
          f"--gate-from {args.gate_from}` on {platform.machine()} ({os.cpu_count()} cores), "
          f"{time.time() - started:.0f} s; waves of 5, threshold 0.8, 95%; each cell: decided % "
          "/ wrong % / mean R, on the same seeded studies in every row.\n")
    print("| maximum | design | law | " + " | ".join(f"SNR {s:g}" for s in SNRS) + " |")
    print("|---|---|---|" + "---|" * len(SNRS))
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
