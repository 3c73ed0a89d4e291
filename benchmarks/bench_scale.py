"""DAG-building cost of the paper-scale study: dry-run wall time and peak memory against R.

    .venv/bin/python benchmarks/bench_scale.py --repetitions 100 1000 3000 \
        --json benchmarks/runs/scale.json
    .venv/bin/python benchmarks/bench_scale.py --repetitions 6000 --batches 6   # beyond R = 3000

Each dry run is a fresh `snakemake -n --quiet rules` process on config/paper.yaml with `--config
repetitions=R` (3 comparisons x 3 strategies x R training jobs); the peak resident memory and the
CPU time (user + system, less sensitive than wall time to other load on a shared machine) are the
child's own (wait4 rusage). With --batches N it plans only the first of N batches of the
summaries' inputs (`--batch summarize=1/N`), the way a study beyond R = 3000 is run
(docs/cluster.md, "Beyond R = 3000"). The workflow keeps the corpus checks that passed under
.snakemake/reprocompare/ (common.smk), so every run after the first plans without reading the
corpora; --cold removes them before each run, to measure a study's first plan.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def dry_run(repetitions: int, batches: int = 1, cold: bool = False) -> dict:
    if cold:
        shutil.rmtree(ROOT / ".snakemake" / "reprocompare" / "checked-corpora", ignore_errors=True)
    command = [sys.executable, "-m", "snakemake", "-n", "--quiet", "rules", "--configfile",
               str(ROOT / "config" / "paper.yaml"), "--config", f"repetitions={repetitions}"]
    if batches > 1:
        command += ["--batch", f"summarize=1/{batches}"]
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    output = process.stdout.read().decode()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    if status != 0:
        raise SystemExit(f"dry run failed for R = {repetitions}:\n{output[-2000:]}")
    jobs = next(int(line.split()[1]) for line in output.splitlines()
                if line.split()[:1] == ["total"])
    return {"repetitions": repetitions, "batches": batches, "cold": cold, "jobs": jobs,
            "seconds": round(seconds, 2), "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 2),
            "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
            "load_1min": round(os.getloadavg()[0], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repetitions", type=int, nargs="+", default=[100, 1000, 3000])
    parser.add_argument("--batches", type=int, default=1,
                        help="plan batch 1 of N of the summaries' inputs (--batch summarize=1/N)")
    parser.add_argument("--cold", action="store_true",
                        help="check the corpora again in each run (a study's first plan)")
    parser.add_argument("--runs", type=int, default=1, help="dry runs of each R")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rows = []
    for repetitions in args.repetitions:
        for _ in range(args.runs):
            rows.append(dry_run(repetitions, args.batches, args.cold))
            print(json.dumps(rows[-1]), flush=True)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
