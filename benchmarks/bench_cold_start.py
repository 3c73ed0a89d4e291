"""The CLI's cold start: CPU seconds of `reprocompare ... --help` in a fresh interpreter.

    .venv/bin/python benchmarks/bench_cold_start.py [--write]   # --write: benchmarks/RESULTS.md

Issue 35 asks that the CLI's cold ``--help`` take under 1 CPU second. Each command runs 7 times
as a new process (user + system CPU of the child, from ``resource.getrusage``); the table gives
the minimum and the median. tests/test_cold_start.py checks the cause instead of the time (no
heavy library is imported by any ``--help``), which does not depend on the machine's load.
"""

from __future__ import annotations

import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BEGIN, END = "<!-- cold-start:begin -->\n", "<!-- cold-start:end -->"
RUNS = 7
COMMANDS = (["--help"], ["--version"], ["split", "--help"], ["compare", "--help"],
            ["run", "--help"], ["sequential", "--help"], ["expected-max", "--help"])


def cpu_seconds(argv: list[str]) -> float:
    """User + system CPU of one fresh ``python -m reprocompare ARGV``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "reprocompare", *argv], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def table() -> str:
    lines = ["| command | min CPU (s) | median CPU (s) | under 1 CPU s |", "|---|---|---|---|"]
    for argv in COMMANDS:
        times = [cpu_seconds(argv) for _ in range(RUNS)]
        lines.append(f"| `reprocompare {' '.join(argv)}` | {min(times):.2f} | "
                     f"{statistics.median(times):.2f} | {'yes' if max(times) < 1 else 'no'} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    text = table()
    if sys.argv[1:] != ["--write"]:
        sys.stdout.write(text)
        return
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    block = (f"Measured {time.strftime('%Y-%m-%d %H:%M')} with `.venv/bin/python "
             f"benchmarks/bench_cold_start.py --write` on {platform.machine()}, "
             f"{os.cpu_count()} cores, load average {load}, Python "
             f"{platform.python_version()}: {RUNS} fresh processes per command.\n\n{text}")
    path = ROOT / "benchmarks" / "RESULTS.md"
    current = path.read_text(encoding="utf-8")
    if BEGIN in current:
        head, rest = current.split(BEGIN, 1)
        current = head + BEGIN + block + END + rest.split(END, 1)[1]
    else:
        current = (current.rstrip("\n") + "\n\n## The CLI's cold start (issue 35, item 4)\n\n"
                   + BEGIN + block + END + "\n")
    path.write_text(current, encoding="utf-8")


if __name__ == "__main__":
    main()
