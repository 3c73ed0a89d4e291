"""Replay of the committed studies through the stopping rule (issue 22, item 5).

    .venv/bin/python benchmarks/bench_replay.py            # Markdown to stdout
    nice .venv/bin/python benchmarks/bench_replay.py --orders 1000 [--write]   # over orders

With ``--orders N`` each fixed-R study of R >= 100 is replayed in N orders of its repetitions
drawn at random (seeded): the stop in the committed order is one draw of a distribution, and the
savings a study quotes are that distribution's (issue 38, item 4). ``--write`` puts the table
into benchmarks/RESULTS.md between the ``replay-orders`` markers.

Each committed study (studies/*/results/summaries) ran a fixed number of repetitions R. Here
its per-repetition values are fed, in the order they were run, to the sequential stopping rule
of the default design (planned: looks every 5 repetitions up to the study's R, repeated
confidence intervals intersected over the looks, the normal path or Eq. 1's shares as
estimators.verdict decides at each look, the first decision kept, threshold 0.8, 95%): for every
estimator, where it would have stopped and with which verdict, beside the verdict of the full
fixed-R study. The mixture's null offset is computed at each look from the repetitions up to it,
as the workflow's summaries do (the whole study's offset would look ahead). A study that stops when every estimator is decided trains up to that R only;
each repetition of ST + RS (max(k) hold-outs) + 3x2 BCV trains 2 x (1 + max(k) + 6) taggers.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

from reprocompare.estimators.planning import run_rule
from reprocompare.estimators.verdict import Replay, replay, verdict

ROOT = Path(__file__).resolve().parents[1]
ESTIMATORS = ("ST", "RS", "Avg", "Vote", "Mixture")
WAVE = 5


def studies():
    for path in sorted(ROOT.glob("studies/*/results/summaries/*/*.json")):
        if not path.name.endswith(".claims.json"):
            yield path.parts[-5], json.loads(path.read_text())


def as_run(values: dict, conclusion: str) -> Replay:
    """The mixture as the workflow decides it (estimators.planning.run_rule, the simulator of
    `reprocompare plan`): at each look, its null offset from the Vote and Avg seen so far (a
    summary knows no later repetition; the whole study's offset would look ahead, issue 38),
    in closed form for normal Vote and Avg (snr_normal) as the summaries read it, the
    planned design's repeated confidence intervals intersected over the looks."""
    study = run_rule({name: np.asarray(values[name]) for name in ("Vote", "Avg", "Mixture")},
                     ["Mixture"], wave=WAVE, max_repetitions=len(values["Mixture"]),
                     conclusion=conclusion, design="planned")
    return Replay(stopped_at=study.stopped_at, decided=study.decided, wave=WAVE,
                  looks=study.looks, verdict=study.verdicts["Mixture"])


def replay_order(values: dict, conclusion: str, order) -> tuple[int | None, dict]:
    """Every estimator replayed with the repetitions in ``order``: the R at which all five are
    decided (None: not within the study's R) and each one's decision."""
    permuted = {e: [values[e][i] for i in order] for e in ESTIMATORS}
    # the default design (planned: looks every wave up to the study's R, fixed in advance)
    replays = {e: (as_run(permuted, conclusion) if e == "Mixture"
                   else replay(permuted[e], WAVE, conclusion, time_uniform=False, planned=True,
                               max_repetitions=len(permuted[e]))) for e in ESTIMATORS}
    stop = (max(r.stopped_at for r in replays.values())
            if all(r.decided for r in replays.values()) else None)
    return stop, {e: r.verdict.decision for e, r in replays.items()}


def orders_table(n_orders: int, seed: int = 0) -> str:
    """The distribution of the stop over ``n_orders`` random orders of each long fixed-R study."""
    rows = ["| study | R run | committed order: all decided at | orders | all five decided within R "
            "| stop: median | stop: 90th percentile | P(stop <= committed order's) "
            "| a decided verdict against the fixed-R verdict |",
            "|---|---|---|---|---|---|---|---|---|"]
    for index, (name, record) in enumerate(studies()):
        summary, values = record["summary"], record["values"]
        if summary.get("stopping") or not all(e in values for e in ESTIMATORS) \
                or len(values["ST"]) < 100:
            continue
        conclusion, r_run = summary["conclusion"], len(values["ST"])
        offsets = summary.get("null_offsets", {})
        fixed = {e: verdict(values[e], conclusion, time_uniform=False,
                            snr0=offsets.get(e, {}).get("snr_normal", 0.0)).decision
                 for e in ESTIMATORS}
        committed, _ = replay_order(values, conclusion, range(r_run))
        rng = np.random.default_rng([seed, index])
        stops, against = [], 0
        for _ in range(n_orders):
            stop, decisions = replay_order(values, conclusion, rng.permutation(r_run))
            stops.append(np.inf if stop is None else stop)
            against += any(d != "undecided" and d != fixed[e] for e, d in decisions.items())
        stops = np.array(stops)

        def shown(q):
            value = np.quantile(stops, q, method="higher")
            return f"> {r_run}" if np.isinf(value) else f"{value:.0f}"

        share = lambda x: f"{100 * x / n_orders:.1f}%"  # noqa: E731
        rows.append(f"| {name} | {r_run} | {committed or 'not within R'} | {n_orders} | "
                    f"{share(np.isfinite(stops).sum())} | {shown(0.5)} | {shown(0.9)} | "
                    f"{share((stops <= (committed or np.inf)).sum())} | {share(against)} |")
    return "\n".join(rows) + "\n"


def write_orders(text: str, n_orders: int, seconds: float) -> None:
    begin, end = "<!-- replay-orders:begin -->\n", "<!-- replay-orders:end -->"
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    block = (f"Measured {time.strftime('%Y-%m-%d %H:%M')} with `nice .venv/bin/python "
             f"benchmarks/bench_replay.py --orders {n_orders} --write` in {seconds:.0f} s on "
             f"{platform.machine()}, {os.cpu_count()} cores, load average {load}. Each row: "
             "the committed fixed-R study replayed through the stopping rule (waves of 5, as "
             "above) in random orders of its repetitions (seeded); a stop is the R at which all "
             "five estimators are decided, \"> R\" where they are not all decided within the "
             "study's R.\n\n" + text)
    path = ROOT / "benchmarks" / "RESULTS.md"
    current = path.read_text(encoding="utf-8")
    if begin in current:
        head, rest = current.split(begin, 1)
        current = head + begin + block + end + rest.split(end, 1)[1]
    else:
        current = (current.rstrip("\n") + "\n\n## The replay over orders: savings as a "
                   "distribution (issue 38, item 4)\n\n" + begin + block + end + "\n")
    path.write_text(current, encoding="utf-8")


def main() -> None:
    arguments = sys.argv[1:]
    if arguments[:1] == ["--orders"]:
        started, n_orders = time.time(), int(arguments[1])
        text = orders_table(n_orders)
        if "--write" in arguments:
            write_orders(text, n_orders, time.time() - started)
        else:
            print(text)
        return
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
