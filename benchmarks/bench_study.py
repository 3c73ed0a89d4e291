"""What a study cost: wall time of its Snakemake runs and the time of its training jobs.

    .venv/bin/python benchmarks/bench_study.py studies/chunking studies/ner

Reads what a study's runs left in its directory (not committed: run it where the study ran):
Snakemake's logs (.snakemake/log/, one per run; the wall time is the span between a run's first
and last time stamp) and the per-job benchmark files (results/benchmarks/compare/, wall seconds of
each training job, Python start-up included). Prints one Markdown row per study and strategy.

    .venv/bin/python benchmarks/bench_study.py --committed studies/size-ner studies/two-comparisons

reads only what is committed, so it works on any clone: each repetition's runtime.json, the wall
seconds of every fold's training of A and B (model fitting alone: no start-up, featurizing or
prediction). Prints one row per study: its cells (corpus x comparison x strategy), the
repetitions they ran, the training time, and what R = 200 and R = 1000 repetitions of every cell
would have cost at the same time per repetition; ``--write`` puts the table between the
``study-cost`` markers of benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import re
import statistics
from pathlib import Path

from markers import replace_between
from reprocompare.base.paths import COMPARE, RUNTIME_FILE
from reprocompare.base.run_records import read_repetitions

STAMP = re.compile(r"^\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]$")


def run_spans(directory: Path) -> list[tuple[datetime.datetime, datetime.datetime]]:
    spans = []
    for log in sorted((directory / ".snakemake" / "log").glob("*.snakemake.log")):
        stamps = [datetime.datetime.strptime(" ".join(m.group(1).split()), "%a %b %d %H:%M:%S %Y")
                  for line in log.read_text().splitlines() if (m := STAMP.match(line.strip()))]
        if len(stamps) >= 2:
            spans.append((stamps[0], stamps[-1]))
    return spans


def job_seconds(directory: Path, column: str = "s") -> dict[str, list[float]]:
    """Per strategy, each training job's ``column`` of its benchmark file: wall seconds ("s") or
    CPU seconds ("cpu_time", what the job cost on a loaded machine)."""
    by_strategy: dict[str, list[float]] = {}
    for path in (directory / "results" / "benchmarks" / "compare").rglob("*.tsv"):
        strategy = path.parent.name
        with path.open() as handle:
            row = next(csv.DictReader(handle, delimiter="\t"))
        by_strategy.setdefault(strategy, []).append(float(row[column]))
    return by_strategy


def training_seconds(directory: Path) -> dict[str, tuple[int, int, float]]:
    """Per strategy, (repetitions, folds trained, seconds) summed over the committed runtime.json
    of every repetition of every corpus and comparison (a fold trains A and B: two fits), as
    each strategy's records.jsonl holds them."""
    totals: dict[str, list] = {}
    for strategy in sorted((directory / COMPARE).glob("*/*/*")):
        for files in read_repetitions(strategy).values():
            folds = files[RUNTIME_FILE]["folds"]
            total = totals.setdefault(strategy.name, [0, 0, 0.0])
            total[0] += 1
            total[1] += len(folds)
            total[2] += sum(fold["A"] + fold["B"] for fold in folds)
    return {strategy: tuple(total) for strategy, total in totals.items()}


def cells(directory: Path) -> int:
    """How many (corpus, comparison, strategy) cells a study's results hold."""
    return len({path.parent for path in (directory / COMPARE).glob("*/*/*/rep*")})


def committed(studies: list[Path]) -> str:
    lines = ["| study | cells | repetitions run (all cells) | folds trained | training wall (min) | "
             "per repetition of every cell (min) | R = 200 would take (h) | R = 1000 (h) | "
             "saved against R = 200 |", "|---|---|---|---|---|---|---|---|---|"]
    for directory in studies:
        totals = training_seconds(directory).values()
        runs, folds = sum(t[0] for t in totals), sum(t[1] for t in totals)
        minutes = sum(t[2] for t in totals) / 60
        n = cells(directory)
        per_repetition = minutes / runs * n
        lines.append(f"| {directory.name} | {n} | {runs} | {folds} | {minutes:.1f} | "
                     f"{per_repetition:.1f} | {per_repetition * 200 / 60:.1f} | "
                     f"{per_repetition * 1000 / 60:.0f} | {100 * (1 - runs / (200 * n)):.1f}% |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("studies", type=Path, nargs="+")
    parser.add_argument("--committed", action="store_true",
                        help="sum the committed runtime.json files (works on any clone)")
    parser.add_argument("--write", action="store_true",
                        help="with --committed: the table into benchmarks/RESULTS.md")
    args = parser.parse_args()
    if args.committed:
        table = committed(args.studies)
        print(table, end="")
        if args.write:
            replace_between(Path(__file__).with_name("RESULTS.md"),
                            "<!-- study-cost:begin -->\n", "<!-- study-cost:end -->", table)
        return
    print("| study | runs | wall (min) | strategy | jobs | job median (s) | jobs' sum (min) | "
          "jobs' CPU (min) |")
    print("|---|---|---|---|---|---|---|---|")
    for directory in args.studies:
        spans = run_spans(directory)
        wall = sum((end - start).total_seconds() for start, end in spans) / 60
        cpu = job_seconds(directory, "cpu_time")
        for strategy, seconds in sorted(job_seconds(directory).items()):
            print(f"| {directory.name} | {len(spans)} | {wall:.1f} | {strategy} | {len(seconds)} | "
                  f"{statistics.median(seconds):.1f} | {sum(seconds) / 60:.1f} | "
                  f"{sum(cpu[strategy]) / 60:.1f} |")


if __name__ == "__main__":
    main()
