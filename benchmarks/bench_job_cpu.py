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
fresh ``python -c`` that only imports what the job's adapter imports. With ``--before COMMIT``
each job also runs, alternating, with the library as it was at COMMIT (``git archive``, laid
out as pyproject.toml installs it, ahead of the editable install on PYTHONPATH) and that
commit's adapter: the same job and records, the code before and now, both byte-compiled as
`make test` compiles the checkout.

    .venv/bin/python benchmarks/bench_job_cpu.py --runs 5 [--before COMMIT] [--write]
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
    """The kept script of one job of ``rule`` (Snakemake names it tmp<random>.<rule>.py: each
    rule runs the adapter workflow/scripts/RULE.py)."""
    found = sorted(p for p in (workdir / ".snakemake" / "scripts").glob(f"tmp*.{rule}.py")
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


def cpu(argv: list[str], cwd: Path, env: dict | None = None) -> float:
    """User + system CPU seconds of a fresh process and everything it waited for."""
    process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    if status:
        raise SystemExit(f"{argv} failed ({status})")
    return usage.ru_utime + usage.ru_stime


def adapter_imports(source: str) -> str:
    """The adapter's own imports of the library (``source``: its text), as one statement per
    line."""
    tree = ast.parse(source)
    return "\n".join(f"from {node.module} import {', '.join(a.name for a in node.names)}"
                     for node in ast.walk(tree)
                     if isinstance(node, ast.ImportFrom) and node.module
                     and node.module.startswith("reprocompare"))


def package_dirs() -> dict[str, str]:
    """pyproject.toml's package-dir: each package's folder in the checkout."""
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-dir"]


def compiled(folders: list[Path]) -> None:
    """The modules under ``folders`` byte-compiled (``python -m compileall``), as `make test`
    compiles the checkout's: where PYTHONDONTWRITEBYTECODE is set, a job would otherwise
    compile every module it imports, on one side of the comparison only."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", *map(str, folders)], check=True,
                   stdout=subprocess.DEVNULL)


def library_at(commit: str, where: Path) -> Path:
    """The package as it was at ``commit``, laid out as it installs (pyproject.toml's
    package-dir), for PYTHONPATH: ahead of the editable install, its jobs import that code."""
    source, library = where / "source", where / "library"
    folders = package_dirs()
    source.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", commit, *sorted(set(folders.values()))],
                             cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    compiled([source / folder for folder in sorted(set(folders.values()))])
    shutil.copytree(source / folders["reprocompare"], library / "reprocompare")
    for package, folder in folders.items():
        if package != "reprocompare":
            (library / package.replace(".", "/")).symlink_to(source / folder)
    return library


#: the line Snakemake writes between a job's preamble (its snakemake object) and the script
PREAMBLE_END = b"######## snakemake preamble end #########\n"


def script_at(commit: str, script: Path, rule: str) -> Path:
    """The job's kept script with the adapter (workflow/scripts/RULE.py) of ``commit`` after
    its preamble: a job of that commit's library runs that commit's adapter, which imports
    what the library then had (the report jobs' module, say, is newer than some commits)."""
    preamble, found, _ = script.read_bytes().partition(PREAMBLE_END)
    if not found:
        raise SystemExit(f"{script}: no end of Snakemake's preamble in it")
    adapter = subprocess.run(["git", "show", f"{commit}:workflow/scripts/{rule}.py"], cwd=ROOT,
                             capture_output=True, check=True).stdout
    before = script.with_name(script.name.replace(".py", ".before.py"))
    before.write_bytes(preamble + PREAMBLE_END + adapter)
    return before


def heaviest(modules: list[str]) -> list[str]:
    """The most specific names: scipy.stats says scipy."""
    return [m for m in modules if not any(o != m and o.startswith(m + ".") for o in modules)]


def measure(runs: int, before: str | None) -> list[dict]:
    """Per job kind, the CPU of ``runs`` fresh runs of its script (with ``before``, as many of
    the library at that commit, interleaved with them), its adapter's imports and the heavy
    libraries it loaded."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-job-cpu-") as tmp:
        for name, config in STUDIES.items():
            build(Path(tmp) / name, config)
        compiled([ROOT / folder for folder in sorted(set(package_dirs().values()))])
        variants = {"now": None}
        if before:
            library = library_at(before, Path(tmp) / "before")
            variants = {"before": {**os.environ, "PYTHONPATH": str(library)}, "now": None}
        python = [sys.executable]
        made: list[Path] = []
        baseline = statistics.median(cpu([*python, "-c", "pass"], Path(tmp)) for _ in range(runs))
        for rule, (study, holds) in KINDS.items():
            workdir = Path(tmp) / study
            script = script_of(workdir, rule, holds)
            made += restore_cached(script)
            scripts = {"now": script,
                       **({"before": script_at(before, script, rule)} if before else {})}
            row = {"job": rule}
            seconds = {label: [] for label in variants}
            for _ in range(runs):
                for label, env in variants.items():
                    seconds[label].append(cpu([*python, str(scripts[label])], workdir, env))
            for label, env in variants.items():
                source = scripts[label].read_bytes().partition(PREAMBLE_END)[2].decode()
                imports = [cpu([*python, "-c", adapter_imports(source)], workdir, env)
                           for _ in range(runs)]
                loaded = workdir / "loaded.json"
                cpu([*python, "-c", PROBE.format(heavy=HEAVY), str(scripts[label]),
                     str(loaded)], workdir, env)
                row[label] = {"cpu_s": round(statistics.median(seconds[label]), 2),
                              "min_s": round(min(seconds[label]), 2),
                              "max_s": round(max(seconds[label]), 2),
                              "imports_s": round(statistics.median(imports), 2),
                              "heavy": heaviest(json.loads(loaded.read_text()))}
            rows.append(row)
            print(json.dumps(row), flush=True)
        rows.append({"job": "(python -c pass)", "now": {"cpu_s": round(baseline, 2)}})
        for cache in made:
            shutil.rmtree(cache, ignore_errors=True)
    return rows


def commit() -> str:
    return subprocess.run(["git", "rev-parse", "--short=8", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()


def block(rows: list[dict], runs: int, before: str | None) -> str:
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    load = os.getloadavg()[0]
    command = f"benchmarks/bench_job_cpu.py --runs {runs}" + (f" --before {before}" if before
                                                              else "") + " --write"
    lines = [f"Measured {when} UTC at commit {commit()} (working tree) with `.venv/bin/python "
             f"{command}` on {cpu_name()} ({os.cpu_count()} cores), Python "
             f"{platform.python_version()}, 1-minute load {load:.1f} after. One job of each kind "
             f"run again as a fresh process, {runs} times"
             + (f", alternating with the library of commit {before} (before)" if before else "")
             + "; CPU: user + system seconds (median, and the range); imports: a fresh "
             "`python -c` of the adapter's own `reprocompare` imports; heavy: the libraries the "
             "job loaded.", ""]
    if before:
        lines += ["| job | CPU before (s) | CPU now (s) | range now | imports before / now (s) "
                  "| heavy libraries before | now |", "|---|---|---|---|---|---|---|"]
    else:
        lines += ["| job | CPU (s) | range | imports (s) | heavy libraries loaded |",
                  "|---|---|---|---|---|"]
    for row in rows:
        now = row["now"]
        if "heavy" not in now:
            lines.append(f"| {row['job']} | " + ("| " if before else "")
                         + f"{now['cpu_s']:.2f} | | | |" + (" |" if before else ""))
            continue
        heavy = ", ".join(now["heavy"]) or "none"
        span = f"{now['min_s']:.2f}-{now['max_s']:.2f}"
        if before:
            old = row["before"]
            lines.append(f"| {row['job']} | {old['cpu_s']:.2f} | {now['cpu_s']:.2f} | {span} | "
                         f"{old['imports_s']:.2f} / {now['imports_s']:.2f} | "
                         f"{', '.join(old['heavy']) or 'none'} | {heavy} |")
        else:
            lines.append(f"| {row['job']} | {now['cpu_s']:.2f} | {span} | "
                         f"{now['imports_s']:.2f} | {heavy} |")
    return "\n" + "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--before", metavar="COMMIT",
                        help="also run each job with the library as it was at COMMIT")
    parser.add_argument("--write", action="store_true",
                        help="put the table into benchmarks/RESULTS.md (<!-- jobs:begin -->)")
    args = parser.parse_args()
    rows = measure(args.runs, args.before)
    text = block(rows, args.runs, args.before)
    print(text)
    if args.write:
        replace_between(ROOT / "benchmarks" / "RESULTS.md", "<!-- jobs:begin -->",
                        "<!-- jobs:end -->", text)


if __name__ == "__main__":
    main()
