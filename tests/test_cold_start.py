"""The command line and the workflow as fresh processes (issue 35, item 4).

The rest of the suite runs ``reprocompare`` and ``snakemake`` in forks of a warm server
(tests/forkserver.py): a fork inherits every module the server imported, so an import missing
from a command, or a heavy one it should not pay for, never shows there. Here every command is a
new interpreter, started as a user starts it:

- ``reprocompare --help`` and every subcommand's ``--help`` import none of the heavy libraries
  (SciPy, scikit-learn, torch, matplotlib, pandas, Snakemake): the start-up a user waits for at
  every call stays small. This is the test's bound on the cold start; its CPU time is measured,
  not asserted, by benchmarks/bench_cold_start.py (benchmarks/RESULTS.md);
- the commands that do work (split, score, compare, summarize) run to their end on a tiny corpus;
- ``snakemake --dry-run`` plans a study from the repository's Snakefile.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, TEST_DATA

#: the libraries a start-up must not pay for: each costs 0.2-1.5 s of CPU to import
HEAVY = ("scipy", "sklearn", "torch", "matplotlib", "pandas", "snakemake")
#: imports the CLI as a user's shell does, runs it with the arguments, and prints which heavy
#: libraries are in sys.modules when it ends (also when it exits through --help's SystemExit)
PROBE = """import json, sys
from reprocompare.commands.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
heavy = sorted({{name.split(".")[0] for name in sys.modules}} & set({heavy!r}))
print("HEAVY=" + json.dumps(heavy), file=sys.stderr)
"""
COMMANDS = ("split", "score", "compare", "models", "summarize", "resume", "sequential", "init",
            "run", "plan", "expected-max", "expected-max-bias")


def _fresh(*argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """A new interpreter (never the fork server), with no startup file of the suite."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST")}
    return subprocess.run([sys.executable, *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def _heavy(result: subprocess.CompletedProcess) -> list[str]:
    line = [x for x in result.stderr.splitlines() if x.startswith("HEAVY=")]
    assert line, result.stderr
    return json.loads(line[-1].removeprefix("HEAVY="))


@pytest.mark.slow
def test_every_subcommand_is_listed_here():
    """A new subcommand joins the cold-start checks below (the list is the CLI's own)."""
    result = _fresh("-m", "reprocompare", "--help")
    assert result.returncode == 0
    listed = result.stdout.split("COMMAND", 2)[2].split("options:")[0]
    names = {line.split()[0] for line in listed.splitlines()
             if line.startswith("    ") and not line.startswith("      ")}
    assert names == set(COMMANDS)


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["--help"], ["--version"]]
                         + [[command, "--help"] for command in COMMANDS],
                         ids=lambda argv: " ".join(argv))
def test_help_imports_no_heavy_library(argv):
    result = _fresh("-c", PROBE.format(heavy=HEAVY), *argv)
    assert _heavy(result) == [], f"`reprocompare {' '.join(argv)}` imported {_heavy(result)}"
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_the_commands_that_work_run_fresh(tmp_path):
    """split, score, compare and summarize, each a new interpreter: every import they need is
    their own (a fork of the warm server would have hidden a missing one)."""
    corpus = TEST_DATA / "tiny.conll"
    split = _fresh("-m", "reprocompare", "split", str(corpus), "--strategy", "holdout",
                   "--out", str(tmp_path / "split.json"))
    assert split.returncode == 0, split.stderr
    assert json.loads((tmp_path / "split.json").read_text())["strategy"] == "holdout"
    score = _fresh("-m", "reprocompare", "score", str(corpus), str(corpus), "--json")
    assert score.returncode == 0, score.stderr
    assert json.loads(score.stdout)["f1"] == 1.0
    runs = []
    for repetition in range(2):
        out = tmp_path / f"rep{repetition}"
        compare = _fresh("-m", "reprocompare", "compare", str(corpus), "--a", "majority",
                         "--b", "crf:max_iterations=5", "--strategy", "holdout",
                         "--repetition", str(repetition), "--out", str(out))
        assert compare.returncode == 0, compare.stderr
        runs.append(str(out))
    summarize = _fresh("-m", "reprocompare", "summarize", *runs, "--json")
    assert summarize.returncode == 0, summarize.stderr
    assert "ST" in json.loads(summarize.stdout)["estimators"]


@pytest.mark.slow
def test_snakemake_plans_a_study_fresh(tmp_path):
    config = tmp_path / "study.yaml"
    config.write_text(f"corpora: {{tiny: {{path: {TEST_DATA / 'tiny.conll'}}}}}\n"
                      "models:\n  a: {type: crf, max_iterations: 5}\n  b: {type: majority}\n"
                      "comparisons: {p: {a: a, b: b, corpora: [tiny]}}\n"
                      "strategies: {holdout: {}, bcv: {}}\nrepetitions: 2\n")
    result = _fresh("-m", "snakemake", "--snakefile", str(ROOT / "Snakefile"), "--directory",
                    str(tmp_path), "--configfile", str(config), "--dry-run", "--cores", "1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "compare" in result.stdout and "Traceback" not in result.stderr


#: plans a study as ``snakemake --dry-run`` does, in this interpreter, and prints which heavy
#: libraries planning imported
PLAN_PROBE = """import json, sys
import snakemake.cli
try:
    snakemake.cli.main(sys.argv[1:])
except SystemExit as end:
    assert not end.code, end.code
heavy = sorted({{name.split(".")[0] for name in sys.modules}} & set({heavy!r}))
print("HEAVY=" + json.dumps(heavy), file=sys.stderr)
"""
#: what neither the Snakefile nor the checklist job needs: scikit-learn (with SciPy) and torch
#: (snakemake's own start imports pandas: its SLURM plugin's efficiency report)
NOT_PLANNING = ("sklearn", "torch")


@pytest.mark.slow
def test_planning_a_study_and_its_checklist_import_no_scikit_learn(tmp_path):
    """Every snakemake start parses the Snakefile, which reads each tagger's class (version,
    capabilities, source files): that, and the checklist job, which reads records and tagger
    classes, import neither scikit-learn nor torch; scikit-learn is 1.2 s of CPU at every start
    of a run, a wave, a report and, on a cluster, of every job (issue 35). Only the first plan
    in a directory splits each corpus once to check it (common.smk), with the splitters."""
    config = tmp_path / "study.yaml"
    config.write_text(f"corpora: {{tiny: {{path: {TEST_DATA / 'tiny.conll'}}}}}\n"
                      "models:\n  a: {type: crf, max_iterations: 5}\n  b: {type: bilstm}\n"
                      "comparisons: {p: {a: a, b: b, corpora: [tiny]}}\n"
                      "strategies: {holdout: {}}\nrepetitions: 2\n")
    plan = ["--snakefile", str(ROOT / "Snakefile"), "--directory", str(tmp_path),
            "--configfile", str(config), "--dry-run", "--cores", "1"]
    for first in (True, False):
        result = _fresh("-c", PLAN_PROBE.format(heavy=NOT_PLANNING), *plan)
        assert "compare" in result.stdout, result.stdout + result.stderr
        if not first:
            assert _heavy(result) == [], f"planning a study imported {_heavy(result)}"
    checklist = _fresh("-c", "import json, sys\n"
                       "import reprocompare.pipeline.search_jobs\n"
                       "from reprocompare.models import tagger_class_of\n"
                       "for kind in ('crf', 'majority', 'bilstm'):\n"
                       "    tagger_class_of({'type': kind}).source_files({})\n"
                       "names = {n.split('.')[0] for n in sys.modules}\n"
                       f"heavy = sorted(names & {set(NOT_PLANNING)!r})\n"
                       "print('HEAVY=' + json.dumps(heavy), file=sys.stderr)\n")
    assert _heavy(checklist) == [], f"the checklist's imports imported {_heavy(checklist)}"


#: imports what every training job imports (reprocompare.study.compare), draws and writes the
#: split document of each strategy as the job does, and prints which heavy libraries are loaded
SPLIT_PROBE = """import json, sys
import reprocompare.study.compare
from reprocompare.splitters import dumps, split_document
for strategy in ("holdout", "repeated-holdout", "bcv"):
    dumps(split_document(strategy, 40, groups=[i // 3 for i in range(40)], seed=1, k=3))
heavy = sorted({{name.split(".")[0] for name in sys.modules}} & set({heavy!r}))
print("HEAVY=" + json.dumps(heavy), file=sys.stderr)
"""


def test_a_training_job_draws_its_split_without_scikit_learn():
    """Every training job (rule compare) imports reprocompare.study.compare and draws its split:
    the drawing is numpy only (splitters/drawing.py), so no job pays scikit-learn's import (1 s
    of CPU with SciPy and pandas, issue 35). The scikit-learn cross-validators, thin wrappers over
    the same drawing, load only when a user asks for one. Nor SciPy's (0.6 s): the strategies
    ask estimators.bayesian for their rho only when a posterior is computed."""
    result = _fresh("-c", SPLIT_PROBE.format(heavy=("sklearn", "scipy")))
    assert "Traceback" not in result.stderr, result.stderr
    assert _heavy(result) == [], f"drawing a split document imported {_heavy(result)}"


CONFIG_PROBE = """import json, sys
from reprocompare.study.config import load_yaml, validate
validate(load_yaml({path!r}), {path!r})
heavy = sorted({{name.split(".")[0] for name in sys.modules}} & set({heavy!r}))
print("HEAVY=" + json.dumps(heavy), file=sys.stderr)
"""


def test_checking_a_planned_designs_config_imports_no_scipy():
    """Every command that reads a study validates its config first, and a planned design's
    check counts its looks: they are the design's (estimators.designs), which needs no SciPy
    (0.6 of the check's 0.9 CPU s went to importing scipy.stats through group_sequential)."""
    config = ROOT / "config" / "study-ner-full.yaml"
    assert "design" not in config.read_text() or "planned" in config.read_text()
    result = _fresh("-c", CONFIG_PROBE.format(path=str(config), heavy=HEAVY))
    assert "Traceback" not in result.stderr, result.stderr
    assert _heavy(result) == [], f"checking a planned study's config imported {_heavy(result)}"


@pytest.mark.slow
def test_a_comparison_run_fresh_imports_no_scikit_learn(tmp_path):
    """The whole of one repetition (`reprocompare compare`: split, train, predict, estimate; what
    a workflow job runs) with the CRF and the majority tagger: none of it needs scikit-learn."""
    result = _fresh("-c", PROBE.format(heavy=("sklearn",)), "compare",
                    str(TEST_DATA / "tiny.conll"), "--a", "majority", "--b",
                    "crf:max_iterations=5", "--strategy", "bcv", "--out", str(tmp_path / "run"))
    assert (tmp_path / "run" / "estimates.json").is_file(), result.stderr
    assert _heavy(result) == [], f"`reprocompare compare` imported {_heavy(result)}"


#: what a report job's start imports (the adapters' imports, workflow/scripts/) and, run as
#: their jobs run them, what the front page and then the tables (Tables 3 and 4, the claims
#: table) import on a committed study's records; prints which of the named modules are loaded
REPORT_PROBE = """import json, sys
from pathlib import Path
from reprocompare.pipeline.report_jobs import figures, front_page, tables, variance
from reprocompare.pipeline.provenance import checklist_config
from reprocompare.pipeline.search_jobs import checklist
from reprocompare.pipeline.significance_jobs import claims_tables
loaded = {{}}
loaded["imports"] = sorted(set(sys.modules) & set({modules!r}))
if len(sys.argv) > 1:
    summaries, claims = json.loads(sys.argv[1]), json.loads(sys.argv[2])
    front_page(summaries, claims, sys.argv[3], sys.argv[4])
    loaded["front_page"] = sorted(set(sys.modules) & set({modules!r}))

    class Outputs(dict):  # every table the jobs write, as a file beside the front page
        def __missing__(self, kind):
            return str(Path(sys.argv[4]).with_name(kind))

    tables(summaries, Outputs(), claims)
    claims_tables(claims, summaries, Outputs())
    loaded["tables"] = sorted(set(sys.modules) & set({modules!r}))
print("HEAVY=" + json.dumps(loaded), file=sys.stderr)
"""


def test_the_report_jobs_start_without_scipy_and_the_front_page_needs_no_statistics(tmp_path):
    """Every run of a study ends in the tables, figures, front-page and checklist jobs, each a
    fresh process: their imports load neither SciPy nor matplotlib (the figures import it when
    they draw; the search's jobs import reprocompare.pipeline.search_jobs too). The front page,
    which reads the summaries and claims and computes nothing of SciPy's statistics, imports
    no SciPy at all (scipy.stats cost 0.5 of its 1.0 CPU s before, scipy.special 0.3 of the
    rest at R < 5, whose caution prints stored t quantiles, checked in tests/test_tables.py;
    benchmarks/bench_job_cpu.py). The tables import no scipy.stats (0.5 of their 1.0 CPU s
    before): Table 3's t quantile is scipy.special's, and the claims' Clopper-Pearson interval
    is computed from scipy.special's binomial functions."""
    study = ROOT / "studies" / "chunking" / "results" / "summaries" / "conll2000"
    argv = [str(study / "crf_iob2_vs_iobes.json"), str(study / "crf_iob2_vs_iobes.claims.json")]
    modules = ("scipy", "scipy.stats", "matplotlib")
    result = _fresh("-c", REPORT_PROBE.format(modules=modules), json.dumps(argv[:1]),
                    json.dumps(argv[1:]), str(ROOT / "workflow" / "report" / "workflow.rst"),
                    str(tmp_path / "front.rst"))
    assert "Traceback" not in result.stderr, result.stderr
    loaded = _heavy(result)
    assert loaded["imports"] == [], f"the report jobs' imports loaded {loaded['imports']}"
    assert loaded["front_page"] == [], f"the front page imported {loaded['front_page']}"
    assert "scipy.stats" not in loaded["tables"], "the tables imported scipy.stats"
    assert (tmp_path / "table3_md").read_text().count("\n") > 3
    assert "conll2000" in (tmp_path / "md").read_text()  # the claims table
    page = (tmp_path / "front.rst").read_text()
    assert "**The answer.**" in page and "conll2000" in page, page[:500]
