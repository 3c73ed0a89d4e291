"""A study resumes from its committed results: `reprocompare resume`, then snakemake.

A tiny study runs in one directory; what git would commit of it (never .snakemake/, logs, the
prepared corpus or the timing files: .gitignore) is copied to another, as a fresh clone has it,
with every file newer than the last. There, after `reprocompare resume`, snakemake trains nothing,
rebuilds byte-identical tables, and trains only what a grown config adds; results of another config
stop `resume` with one line naming them, before anything is changed. The studies committed under
studies/ (README, "Results") are rebuilt the same way, from a clean clone of the repository, by
tests/test_clean_clone.py: a fixed-R chunking study and a sequential NER study.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import yaml

import conftest
from conftest import ROOT, SMALL, planned
from conftest import SNAKEMAKE as WORKFLOW
from reprocompare.base.run_records import TABULATED, tabulate_repetitions

pytestmark = pytest.mark.slow

SNAKEMAKE = [*WORKFLOW, "--cores", "2"]
RESUME = [sys.executable, "-m", "reprocompare", "resume"]

#: CRF vs majority (p1) on tests/data/tiny.conll, every strategy, R = 2: conftest.small_study
STUDY = SMALL


def run(command: list[str], cwd: Path, check: bool = True) -> subprocess.CompletedProcess:
    result = conftest.run(command, cwd=cwd)
    if check:
        assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    return result


def committed(path: Path) -> bool:
    """What git commits of a study directory (the study's lines of .gitignore): of a
    repetition, its counts alone (its JSON records go to its strategy's records.jsonl)."""
    parts = path.parts
    return not (".snakemake" in parts or "logs" in parts or "benchmarks" in parts
                or path.name in ("corpus.conll", "report.html")
                or (path.parent.name.startswith("rep") and path.suffix == ".json"))


def clone(source: Path, target: Path) -> None:
    """Copy what git commits (the repetitions' records tabulated first, as `make study-NAME`
    does), each file newer than the one before, outputs first (the worst order for Snakemake:
    every input newer than every output)."""
    tables = {strategy: strategy / "records.jsonl"
              for strategy in source.glob("results/compare/*/*/*")}
    staged = target.parent / f"{target.name}-tables"
    for strategy in tables:  # tabulated beside, never into the shared source
        copy = staged / strategy.relative_to(source)
        copy.mkdir(parents=True)
        for run in strategy.glob("rep*"):
            shutil.copytree(run, copy / run.name)
        tables[strategy] = tabulate_repetitions(copy)
    files = sorted((p for p in source.rglob("*") if p.is_file()
                    and committed(p.relative_to(source))),
                   key=lambda p: ("corpora" in p.parts, str(p)))
    files += [table for table in tables.values() if table]
    now = time.time()
    for i, path in enumerate(files):
        base = staged if path.is_relative_to(staged) else source
        copy = target / path.relative_to(base)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy)
        os.utime(copy, (now + i * 0.01, now + i * 0.01))
    shutil.rmtree(staged)


def test_git_keeps_a_studys_corpora_metadata_and_logs_out():
    paths = ["studies/x/.snakemake/metadata/a", "studies/x/logs/compare/a.log",
             "studies/x/results/corpora/c/corpus.conll", "studies/x/results/benchmarks/a.tsv",
             "studies/x/results/compare/c/p/bcv/rep0/split.json", "studies/x/results/report.html",
             *(f"studies/x/results/compare/c/p/bcv/rep10/{name}" for name in TABULATED)]
    result = run(["git", "check-ignore", *paths], ROOT, check=False)
    assert result.stdout.split() == paths
    kept = ["studies/x/results/corpora/c/corpus.json",
            "studies/x/results/compare/c/p/bcv/rep0/counts.tsv.gz",
            "studies/x/results/compare/c/p/bcv/records.jsonl"]
    assert run(["git", "check-ignore", *kept], ROOT, check=False).stdout == ""


def test_a_cloned_study_resumes_without_training(small_study, tmp_path):
    # the finished STUDY, shared (read, never written), and its config
    first, clone_dir = small_study, tmp_path / "clone"
    clone_dir.mkdir()
    config = first / "study.yaml"
    study = ["--configfile", str(config), "--directory"]
    clone(first, clone_dir)

    # without resume, the checkout's times would retrain everything
    assert planned(run([*SNAKEMAKE, *study, str(clone_dir), "-n", "--quiet", "rules"],
                       tmp_path).stdout)["compare"] == 6
    out = run([*RESUME, *study, str(clone_dir)], tmp_path).stdout
    assert "6 of 6 repetitions are complete" in out, out
    assert planned(run([*SNAKEMAKE, *study, str(clone_dir), "-n", "--quiet", "rules"],
                       tmp_path).stdout) == {"summarize": 1, "tables": 1, "figures": 1, "front_page": 1,
                                             "checklist": 1, "all": 1}
    # (that those report jobs then write the committed bytes again: tests/test_clean_clone.py,
    # on a committed study)

    # a config change reruns what it affects, as in any run (resume recorded the jobs' params)
    config = tmp_path / "study.yaml"  # the shared study's own file stays as it is
    study = ["--configfile", str(config), "--directory"]
    changed = yaml.safe_load(yaml.safe_dump(STUDY))
    changed["strategies"]["bcv"]["voting"] = "token"
    config.write_text(yaml.safe_dump(changed))
    assert planned(run([*SNAKEMAKE, *study, str(clone_dir), "-n", "--quiet", "rules"],
                       tmp_path).stdout)["compare"] == 2  # the BCV repetitions
    # growing: only the new repetitions
    grown = {**STUDY, "repetitions": 3}
    config.write_text(yaml.safe_dump(grown))
    assert planned(run([*SNAKEMAKE, *study, str(clone_dir), "-n", "--quiet", "rules"],
                       tmp_path).stdout)["compare"] == 3


def test_results_of_another_config_stop_resume_before_anything_changes(small_study, tmp_path):
    clone_dir = tmp_path / "clone"
    clone_dir.mkdir()
    clone(small_study, clone_dir)  # the finished STUDY, shared
    before = {p: p.stat().st_mtime_ns for p in clone_dir.rglob("*")}

    other = yaml.safe_load(yaml.safe_dump(STUDY))
    other["models"]["crf"]["max_iterations"] = 6
    config = tmp_path / "study.yaml"
    config.write_text(yaml.safe_dump(other))
    result = run([*RESUME, "--configfile", str(config), "--directory", str(clone_dir)], tmp_path,
                 check=False)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    # named: the first repetition resume checks (in the order of their paths)
    assert "/p1/bcv/rep0: these results belong to another config: A.spec is " \
           '"crf:scheme=IOB2,max_iterations=5" in the results, ' \
           '"crf:scheme=IOB2,max_iterations=6" in the config' in lines[0], lines[0]
    assert {p: p.stat().st_mtime_ns for p in clone_dir.rglob("*")} == before


def test_repetitions_run_in_order(tmp_path):
    """An interrupted study, or one committed as it grows, holds whole repetitions: on one core
    the compare jobs run repetition after repetition."""
    config = tmp_path / "study.yaml"
    config.write_text(yaml.safe_dump({**STUDY, "strategies": {"holdout": {}, "bcv": {"m": 2}},
                                      "models": {"crf": {"type": "majority",
                                                         "scheme": "IOBES"},
                                                 "maj": STUDY["models"]["maj"]},
                                      "repetitions": 3}))
    run([*SNAKEMAKE[:-2], "--cores", "1", "--configfile", str(config), "--until", "compare"],
        tmp_path)
    finished = sorted(tmp_path.glob("results/compare/tiny/p1/*/rep*/estimates.json"),
                      key=lambda p: p.stat().st_mtime_ns)
    assert [int(p.parent.name[3:]) for p in finished] == [0, 0, 1, 1, 2, 2]


def test_the_results_page_is_what_the_committed_summaries_give():
    """docs/results.md's Table 4 beside the paper's is what studies/beside_the_paper.py makes of
    the committed summaries (regenerate it when a study grows)."""
    page = (ROOT / "docs" / "results.md").read_text()
    tables = page.split("<!-- results:begin -->\n", 1)[1].split("\n<!-- results:end -->", 1)[0]
    made = run([sys.executable, str(ROOT / "studies" / "beside_the_paper.py")], ROOT).stdout
    assert tables == made.strip()
    # each task beside the paper on its whole corpus where that study has run (issue 26)
    for task, whole in (("chunking", 8936), ("ner", 8323)):
        ran = any((ROOT / "studies" / f"{task}-full" / "results" / "summaries").glob("*/*.json"))
        assert f"**{task}**: " + ("conll2000" if task == "chunking" else "conll2002_esp") + \
            f", {whole if ran else 300} sentences" in tables, task


def test_the_cost_table_is_what_the_committed_studies_recorded():
    """benchmarks/RESULTS.md's study-cost table is bench_study.py --committed on the studies it
    lists (their committed runtime.json files): regenerate it when a study grows."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_study import committed
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    text = (ROOT / "benchmarks" / "RESULTS.md").read_text()
    table = text.split("<!-- study-cost:begin -->\n", 1)[1].split("<!-- study-cost:end -->")[0]
    names = [line.split("|")[1].strip() for line in table.splitlines()[2:]]
    assert len(names) >= 6
    assert committed([ROOT / "studies" / name for name in names]) == table, \
        "regenerate: python benchmarks/bench_study.py --committed --write studies/..."


def test_the_sd_ratio_interval_is_the_f_pivot_and_covers():
    """studies/beside_the_paper.py's SD ratios (Criterion I with intervals): the F interval of
    two independent normal samples, checked against scipy's F quantiles by hand and by a seeded
    simulation at R = 5 and 10 (coverage of the true ratio within 2.5 points of 95%)."""
    import importlib.util

    from scipy import stats

    spec = importlib.util.spec_from_file_location("beside", ROOT / "studies" / "beside_the_paper.py")
    beside = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(beside)
    a, b = [1.0, 3.0, 2.0, 5.0], [1.0, 1.5, 2.0, 2.5, 3.0]
    ratio, low, high = beside.sd_ratio(a, b)
    assert ratio == pytest.approx(np.std(a, ddof=1) / np.std(b, ddof=1))
    assert low == pytest.approx(ratio / np.sqrt(stats.f.ppf(0.975, 3, 4)))
    assert high == pytest.approx(ratio / np.sqrt(stats.f.ppf(0.025, 3, 4)))
    rng = np.random.default_rng(38)
    for n in (5, 10):
        covered = 0
        for _ in range(2000):
            _, low, high = beside.sd_ratio(3.0 * rng.standard_normal(n), rng.standard_normal(n))
            covered += low <= 3.0 <= high
        assert abs(covered / 2000 - 0.95) < 0.025, (n, covered)
