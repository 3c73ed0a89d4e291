"""The CPU seconds of each kind of workflow job, as a fresh process pays them (issue 48).

Every Snakemake job of a study runs its ``script:`` (workflow/scripts/) as a new Python
process, so what a job imports is paid once per job: a small study spends most of its CPU
starting jobs. This script builds two small studies in a temporary directory with
``--skip-script-cleanup``, which leaves each job's script (Snakemake's preamble with the job's
inputs, outputs and params, then the adapter) under .snakemake/scripts/, and runs one job of
every kind again as a fresh process, several times: the CPU (user + system, from ``wait4``) of
each, its median, and what the job imported of the heavy libraries. The studies:

- tiny: the test suite's TINY study (tests/conftest.py): two CRFs (15 iterations) on
  tests/data/tiny.conll, every strategy, R = 3; its jobs corpus, compare (the standard split's
  first repetition: two trainings), summarize, tables, figures, front_page and checklist;
- varied: a CRF (5 iterations) against the majority tagger, the standard split, a variation
  design of 2 samples x 4 splits with ``decompose``: its variance job.

A job rerun writes the same bytes where it wrote them. The ``imports`` column is the CPU of a
fresh ``python -c`` that only imports what the job's adapter imports.

    .venv/bin/python benchmarks/bench_job_cpu.py --runs 5 [--write]
"""

from __future__ import annotations

import argparse
import ast
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from markers import cpu_name, replace_between  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TINY_CORPUS = str(ROOT / "tests" / "data" / "tiny.conll")
STUDIES = {
    "tiny": {
        "corpora": {"tiny": {"path": TINY_CORPUS}},
        "models": {"crf_iob2": {"type": "crf", "scheme": "IOB2", "max_iterations": 15},
                   "crf_iobes": {"type": "crf", "scheme": "IOBES", "max_iterations": 15}},
        "comparisons": {"crf": {"a": "crf_iob2", "b": "crf_iobes", "corpora": ["tiny"]}},
        "strategies": {"holdout": {}, "repeated_holdout": {"k": [2, 3], "table4_k": 3},
                       "bcv": {"m": 3}},
        "repetitions": 3,
        "seed": 11,
    },
    "varied": {
        "corpora": {"tiny": {"path": TINY_CORPUS}},
        "models": {"crf": {"type": "crf", "max_iterations": 5}, "maj": {"type": "majority"}},
        "comparisons": {"p": {"a": "crf", "b": "maj", "corpora": ["tiny"]}},
        "strategies": {"holdout": {}},
        "repetitions": 8,
        "variation": {"samples": 2, "sample_size": 80, "splits": 4,
                      "decompose": True},
    },
}
#: job kind -> (study, a string the job's script holds: which of the rule's jobs to rerun)
KINDS = {
    "corpus": ("tiny", None),
    "compare": ("tiny", "/holdout/rep0/"),
    "summarize": ("tiny", None),
    "tables": ("tiny", None),
    "figures": ("tiny", None),
    "front_page": ("tiny", None),
    "checklist": ("tiny", None),
    "variance": ("varied", None),
}
HEAVY = ("scipy.stats", "scipy.optimize", "scipy.special", "scipy", "matplotlib", "sklearn",
         "pandas", "torch")
#: runs a job's script and writes which heavy modules it loaded (a separate run: not timed)
PROBE = """import atexit, json, runpy, sys
def _report():
    with open(sys.argv[2], "w") as stream:
        json.dump(sorted(m for m in {heavy!r} if m in sys.modules), stream)
atexit.register(_report)
runpy.run_path(sys.argv[1], run_name="__main__")
"""


def build(workdir: Path, config: dict) -> None:
    workdir.mkdir(parents=True)
    (workdir / "study.yaml").write_text(yaml.safe_dump(config))
    result = subprocess.run([sys.executable, "-m", "snakemake", "--snakefile",
                             str(ROOT / "Snakefile"), "--directory", str(workdir),
                             "--configfile", str(workdir / "study.yaml"), "--cores", "2",
                             "--skip-script-cleanup"], cwd=workdir, capture_output=True,
                            text=True)
    if result.returncode:
        raise SystemExit((result.stdout + result.stderr)[-3000:])


def script_of(workdir: Path, rule: str, holds: str | None) -> Path:
    """The kept script of one job of ``rule`` (Snakemake names it tmp<random>.<adapter>.py)."""
    adapter = {"front_page": "front_page", "corpus": "corpus"}.get(rule, rule)
    found = sorted(p for p in (workdir / ".snakemake" / "scripts").glob(f"tmp*.{adapter}.py")
                   if holds is None or holds.encode() in p.read_bytes())
    if not found:
        raise SystemExit(f"no kept script of rule {rule} in {workdir}")
    return found[0]


#: a file of the workflow a job reads (the front page's description) by its path in Snakemake's
#: source cache, which Snakemake deletes when the run ends
CACHED = re.compile(rb"(/[^'\\\s]*?/snakemake-runtime-cache/[^/]+)/file(/[^\\']+?\.rst)")


def restore_cached(script: Path) -> list[Path]:
    """Put back the source-cache copies the job's script names; returns the cache directories
    made (for :func:`main` to remove)."""
    made = []
    for cache, source in CACHED.findall(script.read_bytes()):
        cache, source = Path(cache.decode()), Path(source.decode())
        target = Path(f"{cache}/file{source}")
        if not target.exists():
            if not cache.exists():
                made.append(cache)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    return made


def cpu(argv: list[str], cwd: Path) -> float:
    """User + system CPU seconds of a fresh process and everything it waited for."""
    process = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    if status:
        raise SystemExit(f"{argv} failed ({status})")
    return usage.ru_utime + usage.ru_stime


def adapter_imports(rule: str) -> str:
    """The adapter's own imports of the library, as one statement per line."""
    tree = ast.parse((ROOT / "workflow" / "scripts" / f"{rule}.py").read_text())
    return "\n".join(f"from {node.module} import {', '.join(a.name for a in node.names)}"
                     for node in ast.walk(tree)
                     if isinstance(node, ast.ImportFrom) and node.module
                     and node.module.startswith("reprocompare"))


def measure(runs: int) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-job-cpu-") as tmp:
        for name, config in STUDIES.items():
            build(Path(tmp) / name, config)
        python = [sys.executable]
        made: list[Path] = []
        baseline = statistics.median(cpu([*python, "-c", "pass"], Path(tmp)) for _ in range(runs))
        for rule, (study, holds) in KINDS.items():
            workdir = Path(tmp) / study
            script = script_of(workdir, rule, holds)
            made += restore_cached(script)
            seconds = [cpu([*python, str(script)], workdir) for _ in range(runs)]
            imports = [cpu([*python, "-c", adapter_imports(rule)], workdir) for _ in range(runs)]
            loaded = workdir / "loaded.json"
            cpu([*python, "-c", PROBE.format(heavy=HEAVY), str(script), str(loaded)], workdir)
            heavy = json.loads(loaded.read_text())
            rows.append({"job": rule, "cpu_s": round(statistics.median(seconds), 2),
                         "min_s": round(min(seconds), 2), "max_s": round(max(seconds), 2),
                         "imports_s": round(statistics.median(imports), 2),
                         # the most specific: scipy.stats implies scipy
                         "heavy": [m for m in heavy if not any(
                             o != m and o.startswith(m + ".") for o in heavy)]})
            print(json.dumps(rows[-1]), flush=True)
        rows.append({"job": "(python -c pass)", "cpu_s": round(baseline, 2)})
        for cache in made:
            shutil.rmtree(cache, ignore_errors=True)
    return rows


def commit() -> str:
    return subprocess.run(["git", "rev-parse", "--short=8", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()


def block(rows: list[dict], runs: int) -> str:
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    load = os.getloadavg()[0]
    lines = [f"Measured {when} UTC at commit {commit()} (working tree) with `.venv/bin/python "
             f"benchmarks/bench_job_cpu.py --runs {runs} --write` on {cpu_name()} "
             f"({os.cpu_count()} cores), Python {platform.python_version()}, 1-minute load "
             f"{load:.1f} after. One job of each kind run again as a fresh process, {runs} "
             "times; CPU: user + system seconds (median, and the range); imports: a fresh "
             "`python -c` of the adapter's own `reprocompare` imports; heavy: the libraries the "
             "job loaded.", "",
             "| job | CPU (s) | range | imports (s) | heavy libraries loaded |",
             "|---|---|---|---|---|"]
    for row in rows:
        if "heavy" in row:
            lines.append(f"| {row['job']} | {row['cpu_s']:.2f} | {row['min_s']:.2f}-"
                         f"{row['max_s']:.2f} | {row['imports_s']:.2f} | "
                         f"{', '.join(row['heavy']) or 'none'} |")
        else:
            lines.append(f"| {row['job']} | {row['cpu_s']:.2f} | | | |")
    return "\n" + "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--write", action="store_true",
                        help="put the table into benchmarks/RESULTS.md (<!-- jobs:begin -->)")
    args = parser.parse_args()
    rows = measure(args.runs)
    text = block(rows, args.runs)
    print(text)
    if args.write:
        replace_between(ROOT / "benchmarks" / "RESULTS.md", "<!-- jobs:begin -->",
                        "<!-- jobs:end -->", text)


if __name__ == "__main__":
    main()
