"""What a study cost: wall time of its Snakemake runs and the time of its training jobs.

    .venv/bin/python benchmarks/bench_study.py studies/chunking studies/ner

Reads what a study's runs left in its directory (not committed: run it where the study ran):
Snakemake's logs (.snakemake/log/, one per run; the wall time is the span between a run's first
and last time stamp) and the per-job benchmark files (results/benchmarks/compare/, wall seconds of
each training job, Python start-up included). Prints one Markdown row per study and strategy.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import re
import statistics
from pathlib import Path

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("studies", type=Path, nargs="+")
    args = parser.parse_args()
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
