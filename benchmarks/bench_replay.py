"""Replay of the committed studies through the stopping rule (issue 22, item 5).

    .venv/bin/python benchmarks/bench_replay.py            # Markdown to stdout

Each committed study (studies/*/results/summaries) ran a fixed number of repetitions R. Here
its per-repetition values are fed, in the order they were run, to the sequential stopping rule
(waves of 5, intersected over the looks, the normal path or Eq. 1's shares as
estimators.verdict decides, threshold 0.8, 95%): for every
estimator, where it would have stopped and with which verdict, beside the verdict of the full
fixed-R study. The mixture's null offset is computed at each look from the repetitions up to it,
as the workflow's summaries do (the whole study's offset would look ahead). A study that stops when every estimator is decided trains up to that R only;
each repetition of ST + RS (max(k) hold-outs) + 3x2 BCV trains 2 x (1 + max(k) + 6) taggers.
"""

from __future__ import annotations

import json
from pathlib import Path

from reprocompare.estimators.null import mixture_null_offset
from reprocompare.estimators.sequential import looks
from reprocompare.estimators.verdict import Replay, replay, verdict

ROOT = Path(__file__).resolve().parents[1]
ESTIMATORS = ("ST", "RS", "Avg", "Vote", "Mixture")
WAVE = 5


def studies():
    for path in sorted(ROOT.glob("studies/*/results/summaries/*/*.json")):
        if not path.name.endswith(".claims.json"):
            yield path.parts[-5], json.loads(path.read_text())


def as_run(values: dict, conclusion: str) -> Replay:
    """The mixture as the workflow decides it: at each look, its null offset from the Vote and
    Avg seen so far (a summary knows no later repetition), the sequences intersected over the
    looks. Replaying with the whole study's offset would look ahead (issue 38)."""
    taken = []
    for r in looks(len(values["Mixture"]), WAVE):
        taken.append(r)
        snr0 = mixture_null_offset(values["Vote"][:r], values["Avg"][:r], conclusion).snr
        last = verdict(values["Mixture"][:r], conclusion, snr0=snr0, wave=WAVE)
        if last.decision != "undecided":
            break
    return Replay(stopped_at=taken[-1], decided=last.decision != "undecided", wave=WAVE,
                  looks=tuple(taken), verdict=last)


def main() -> None:
    rows = ["| study | R run | " + " | ".join(f"{name}: stops at / verdict" for name in ESTIMATORS)
            + " | every estimator decided at | trainings: run / needed (saved) |",
            "|---|---|" + "---|" * len(ESTIMATORS) + "---|---|"]
    for name, record in studies():
        summary, values = record["summary"], record["values"]
        if summary.get("stopping") or not all(e in values for e in ESTIMATORS):
            continue  # a sequential study (it ran the rule live) or one without every strategy
        offsets = summary.get("null_offsets", {})
        conclusion = summary["conclusion"]
        cells, stops, all_decided = [], [], True
        for estimator in ESTIMATORS:
            snr0 = offsets.get(estimator, {}).get("snr_normal", 0.0)
            replayed = (as_run(values, conclusion) if estimator == "Mixture"
                        else replay(values[estimator], WAVE, conclusion))
            full = verdict(values[estimator], conclusion, snr0=snr0, time_uniform=False)
            agrees = "" if replayed.verdict.decision == full.decision else \
                f" (fixed R = {len(values[estimator])}: {full.decision})"
            cells.append(f"{replayed.stopped_at} / {replayed.verdict.decision}{agrees}")
            stops.append(replayed.stopped_at)
            all_decided &= replayed.decided
        r_run = len(values["ST"])
        k = max(summary["strategies"]["repeated-holdout"]["k"])
        per_repetition = 2 * (1 + k + 2 * summary["strategies"]["bcv"]["m"])
        stop = max(stops) if all_decided else r_run
        rows.append(f"| {name} | {r_run} | " + " | ".join(cells) + f" | "
                    f"{stop if all_decided else 'not within R'} | {r_run * per_repetition:,} / "
                    f"{stop * per_repetition:,} ({(r_run - stop) * per_repetition:,}) |")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
