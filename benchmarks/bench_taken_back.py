"""Is a decided verdict ever taken back? Studies continued past their decision, measured.

    nice -n 19 .venv/bin/python benchmarks/bench_taken_back.py [--studies 150] [--maximum 100]

Seeded. ``--studies`` normal studies at SNR 0 (their verdict, "neither", comes early, and the
normal model's check later rejects some looks by chance) and as many left-skewed ones at SNR
-1.2 (a negated standardized Gamma(2), docs/statistics.md's law of occasional failed trainings,
which the check rejects at later looks) are continued to ``--maximum`` repetitions, and the
verdict (estimators.verdict, as the summaries read it) is asked at every look R = 5, 10, ...
under each design. A verdict is taken back when a look after its first decision gives another
decision, or the same one read at another look. Prints one Markdown table.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reprocompare.estimators.designs import design_named  # noqa: E402
from reprocompare.estimators.verdict import verdict  # noqa: E402

WAVE = 5


def study(law: str, rng: np.random.Generator, n: int) -> np.ndarray:
    if law == "normal":
        return 0.01 * rng.standard_normal(n)
    return 0.01 * (-1.2 - (rng.gamma(2.0, 1.0, n) - 2.0) / math.sqrt(2.0))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--studies", type=int, default=150)
    parser.add_argument("--maximum", type=int, default=100)
    args = parser.parse_args(argv)
    started = time.time()
    print("| design | law | studies | decided | taken back |\n|---|---|---|---|---|")
    for design in ("planned", "anytime"):
        time_uniform, planned, wave = design_named(design).looked(WAVE, args.maximum)
        for law in ("normal", "left-skewed"):
            decided = taken_back = 0
            for i in range(args.studies):
                values = study(law, np.random.default_rng([47, i, law == "normal"]),
                               args.maximum)
                first = None
                for r in range(WAVE, args.maximum + 1, WAVE):
                    v = verdict(values[:r], time_uniform=time_uniform, planned=planned,
                                wave=wave, max_repetitions=args.maximum)
                    if first is None and v.decision != "undecided":
                        first = (v.decision, v.decided_at, v.claim)
                    elif first is not None and (v.decision, v.decided_at, v.claim) != first:
                        taken_back += 1
                        break
                decided += first is not None
            print(f"| {design} | {law} | {args.studies} | {decided} | {taken_back} |",
                  flush=True)
    print(f"\n{time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
