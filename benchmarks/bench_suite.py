"""How long `make test` takes from a clean clone (issue 21, item 5: at most 7 minutes of pytest
on 2 cores), and what it costs in CPU.

    .venv/bin/python benchmarks/bench_suite.py [--workers auto 2 ...] [--fast] [--write]

Clones the committed HEAD of this repository into a sibling directory (../reprocompare-suite-clone,
so that ../shared lies beside it as in CI) and runs `make test` there with CI=true, as .ci/run
does, once its environment is built (``make env``, not measured): the suite with the project's
pytest options (``-n auto``). Each further ``--workers`` value reruns only the suite in the same
clone with ``-n N``; ``--fast`` then runs the fast lane there too (``pytest -m "not slow"``: the
tests that neither train, nor run the workflow or a command, docs/development.md "Tests"). Per
run: the tests passed (and how many failed: a run with failures is measured and recorded, not
dropped), pytest's own wall seconds (its "passed in" line), and the CPU seconds
of everything it started and waited for (user + system, getrusage of the children; the SLURM
jobs run under slurmd and are not in it), and the tests' own CPU seconds with the files that
hold the most of it (REPROCOMPARE_TESTS_CPU, tests/conftest.py: each test's process, the
children it reaped and its fork server's; collection not in it). The machine's 1-minute load
average before and after says whether it was otherwise idle: on a shared machine the CPU
seconds compare, the wall times do not. ``--write`` puts the table between the ``suite``
markers of benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from markers import replace_between

ROOT = Path(__file__).resolve().parents[1]
CLONE = ROOT.parent / "reprocompare-suite-clone"
BEGIN, END = "<!-- suite:begin -->\n", "<!-- suite:end -->"
SUMMARY = re.compile(r"=+ (?:(?P<failed>\d+) failed, )?(?P<passed>\d+) passed.* "
                     r"in (?P<seconds>[\d.]+)s")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def per_test(directory: Path) -> Counter:
    """CPU seconds by test file from REPROCOMPARE_TESTS_CPU's ``nodeid, cpu, wall`` lines."""
    files = Counter()
    for log in directory.glob("*.tsv"):
        for line in log.read_text().splitlines():
            nodeid, cpu, _ = line.split("\t")
            files[nodeid.split("::")[0]] += float(cpu)
    return files


def measured(command: list[str], cwd: Path) -> dict:
    """Run ``command`` (CI=true); its pytest summary, CPU seconds (of the run, and the tests'
    own by file) and the load around it."""
    before_load, before_cpu, start = os.getloadavg()[0], children_cpu(), time.time()
    with tempfile.TemporaryDirectory() as tests_cpu:
        result = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                                env={**os.environ, "CI": "true",
                                     "REPROCOMPARE_TESTS_CPU": tests_cpu})
        files = per_test(Path(tests_cpu))
    cpu, wall = children_cpu() - before_cpu, time.time() - start
    summary = [m for m in map(SUMMARY.search, result.stdout.splitlines()) if m]
    if not summary:
        sys.exit(f"bench_suite: {' '.join(command)} failed ({result.returncode}):\n"
                 + (result.stdout + result.stderr)[-3000:])
    # a run with failures still measures the suite (a shared tree often holds another
    # session's unfinished commit): the table says how many failed, the log which
    failed = [line for line in result.stdout.splitlines() if line.startswith("FAILED ")]
    if failed:
        print("\n".join(failed), file=sys.stderr)
    return {"passed": int(summary[-1]["passed"]), "failed": int(summary[-1]["failed"] or 0),
            "pytest_s": float(summary[-1]["seconds"]), "wall_s": wall, "cpu_s": cpu,
            "tests_cpu_s": sum(files.values()), "files": files,
            "load": (before_load, os.getloadavg()[0])}


def machine() -> str:
    cpu = "cpu"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    return (f"{platform.machine()} ({cpu}, {len(os.sched_getaffinity(0))} cores), "
            f"Python {platform.python_version()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", nargs="+", default=["auto"],
                        help="-n values; the first runs as `make test` does (default: auto)")
    parser.add_argument("--fast", action="store_true",
                        help='then the fast lane, pytest -m "not slow" (-n auto)')
    parser.add_argument("--write", action="store_true",
                        help="put the table into benchmarks/RESULTS.md")
    args = parser.parse_args()

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    shutil.rmtree(CLONE, ignore_errors=True)
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(CLONE)], check=True)
    rows, notes = [], []
    try:
        # the environment first, unmeasured: then `make test` finds it and runs the suite
        subprocess.run(["make", "env"], cwd=CLONE, check=True, capture_output=True)
        commands = [(["make", "test"] if i == 0 and workers == "auto" else
                     [".venv/bin/python", "-m", "pytest", "-n", workers], workers)
                    for i, workers in enumerate(args.workers)]
        if args.fast:
            commands.append(([".venv/bin/python", "-m", "pytest", "-m", "not slow"], "auto"))
        for command, workers in commands:
            run = measured(command, CLONE)
            print(f"{' '.join(command)}: {run}", file=sys.stderr, flush=True)
            top = ", ".join(f"{Path(name).stem.removeprefix('test_')} {seconds:.0f}"
                            for name, seconds in run["files"].most_common(10))
            shown = " ".join(f'"{word}"' if " " in word else word for word in command)
            passed = f"{run['passed']}" + (f" ({run['failed']} failed)" if run["failed"] else "")
            rows.append(f"| `{shown}` | {workers} | {passed} | "
                        f"{run['pytest_s']:.0f} | {run['cpu_s']:.0f} | "
                        f"{run['tests_cpu_s']:.0f} | "
                        f"{run['load'][0]:.1f} / {run['load'][1]:.1f} |")
            notes.append(f"`{shown}`, the tests' own CPU seconds by file, the most: {top}.")
    finally:
        shutil.rmtree(CLONE, ignore_errors=True)

    auto = len(os.sched_getaffinity(0)) + 1
    text = (f"Measured {datetime.datetime.now():%Y-%m-%d %H:%M} at commit {commit} with "
            f"`.venv/bin/python benchmarks/bench_suite.py --workers "
            f"{' '.join(args.workers)}{' --fast' if args.fast else ''}` on {machine()}: a clean "
            f"clone beside ../shared, "
            f"CI=true. `auto` is {auto} workers here (one per core and one more, "
            f"tests/conftest.py). CPU: user + system seconds of every process the run waited "
            f"for (the SLURM jobs, run by slurmd, are not in it); tests' own: the sum of "
            f"each test's (REPROCOMPARE_TESTS_CPU, tests/conftest.py; collection not in it); "
            f"load: the 1-minute load average before / after.\n\n"
            "| command | workers (-n) | tests passed | pytest wall (s) | CPU (s) | "
            "tests' own CPU (s) | load |\n"
            "|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n\n"
            + "\n".join(notes) + "\n")
    print(text)
    if args.write:
        replace_between(ROOT / "benchmarks" / "RESULTS.md", BEGIN, END, text)


if __name__ == "__main__":
    main()
