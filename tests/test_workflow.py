"""The Snakemake workflow end to end on a tiny corpus: contents, determinism, resume, config errors.

Each run works in its own directory (``--directory``) with a tiny config on tests/data/tiny.conll
(120 CoNLL-2000 sentences). The contents and determinism are read from the session's
conftest.small_study (SMALL: a CRF against the majority baseline, every strategy, R = 2), which
tests/test_study.py, tests/test_growth.py and others share: this module built its own study
(conftest.TINY, two CRFs at R = 3, 16 CPU s) for them. The config errors are TINY's; the
interruption tests run tests/blocking.py's study.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest
import yaml

import conftest
from blocking import blocked, blocking_study, handshake
from conftest import ROOT, SMALL, SNAKEMAKE, TINY
from reprocompare.strategies import STRATEGIES, strategy
from reprocompare.estimators.reproducibility import model_interval
from reprocompare.study.summary import summarize_runs

TABLES = ["table3.csv", "table3.md", "table3.tex", "table4.csv", "table4.md", "table4.tex"]


def snakemake(workdir: Path, config: dict, *extra: str, check: bool = True):
    """conftest.snakemake with ``config`` written to workdir/study.yaml, on 2 cores."""
    return conftest.snakemake(workdir, *extra, config=config, check=check)


def to_the_tables(workdir: Path, config: dict, *extra: str, check: bool = True):
    """:func:`snakemake` up to the tables rule (``--until tables``): the runs that are compared
    with a reference by their splits, estimates, counts and tables skip the figures, front page
    and checklist, which read those and are checked on the SMALL study (1.6, 0.4 and 0.3 CPU s
    a run)."""
    return snakemake(workdir, config, "--until", "tables", *extra, check=check)


def job_counts(output: str) -> dict[str, int]:
    """Snakemake's "Job stats" table: rule -> number of jobs it will run."""
    table = output.split("Job stats:", 1)[1].split("\n\n", 1)[0]
    return {rule: int(count) for rule, count in
            (line.split() for line in table.splitlines()[3:] if len(line.split()) == 2)}


def tables(workdir: Path) -> dict[str, bytes]:
    return {name: (workdir / "results" / "tables" / name).read_bytes() for name in TABLES}


def run_outputs(workdir: Path) -> dict[str, bytes]:
    """Every split, estimate, count file and table (not logs, runtimes or benchmarks)."""
    results = workdir / "results"
    files = [*results.glob("compare/**/split.json"), *results.glob("compare/**/estimates.json"),
             *results.glob("compare/**/counts.tsv.gz"), *results.glob("compare/**/scores.json"),
             *results.glob("tables/*")]
    return {str(p.relative_to(results)): p.read_bytes() for p in sorted(files)}


#: SMALL's one comparison
PAIR = "p1"


@pytest.fixture
def reference(small_study) -> Path:
    """The finished SMALL study, built once per session (conftest.small_study): read, never
    written."""
    return small_study


@pytest.mark.slow
def test_tables_match_the_library(reference):
    runs = sorted(str(p.parent) for p in
                  (reference / "results" / "compare" / "tiny" / PAIR).glob("*/rep*/estimates.json"))
    assert len(runs) == 6  # 3 strategies x 2 repetitions
    summary = summarize_runs(runs, table4_k=SMALL["strategies"]["repeated_holdout"]["table4_k"],
                             random_state=SMALL["seed"])
    with open(reference / "results" / "tables" / "table4.csv") as stream:
        rows = {row["estimator"]: row for row in csv.DictReader(stream)}
    assert list(rows) == ["ST", "RS", "Avg", "Vote", "Mixture"]
    for name, row in rows.items():
        expected = summary["estimators"][name]
        for key in ("snr", "reproducibility", "snr_low", "snr_high"):
            assert float(row[key]) == pytest.approx(expected[key], abs=1e-6), (name, key)
        for key in ("mean", "sd"):  # F1 quantities are in F1 points in every table format
            assert float(row[f"{key}_f1_points"]) == pytest.approx(100 * expected[key],
                                                                   abs=1e-6), (name, key)
        assert int(row["repetitions"]) == SMALL["repetitions"]
    assert float(rows["Mixture"]["mixture_chose_vote"]) == pytest.approx(
        summary["mixture_chose_vote"])
    assert rows["Avg"]["mixture_chose_vote"] == ""
    with open(reference / "results" / "tables" / "table3.csv") as stream:
        table3 = list(csv.DictReader(stream))
    # every strategy (issue 36), each model's F1 per repetition as the claims record it
    ran = [s for s in STRATEGIES if (reference / "results" / "compare" / "tiny" / PAIR /
                                     s.name).is_dir()]  # the config's (the schema's default)
    assert [(r["strategy_short"], r["model"]) for r in table3] == \
        [(s.short, m) for s in ran for m in ("A", "B")]
    claims = json.loads((reference / "results" / "summaries" / "tiny" / f"{PAIR}.claims.json")
                        .read_text())
    for row in table3:
        if row["strategy_short"] == strategy("holdout").short:  # the summary's standard split, the same
            assert float(row["mean_f1_points"]) / 100 == pytest.approx(
                summary["per_model"][row["model"]]["mean"], abs=1e-6)
        name = next(s.name for s in STRATEGIES if s.short == row["strategy_short"])
        expected = model_interval(claims["scores"][name][row["model"]])
        assert float(row["mean_f1_points"]) / 100 == pytest.approx(expected.mean, abs=1e-6)
        assert float(row["low_f1_points"]) / 100 == pytest.approx(expected.low, abs=1e-6)
    assert "\\toprule" in (reference / "results" / "tables" / "table4.tex").read_text()
    for figure in ("figure1", "figure2"):
        assert (reference / "results" / "figures" / f"{figure}.png").read_bytes()[:4] == \
            b"\x89PNG"
        assert (reference / "results" / "figures" / f"{figure}.pdf").read_bytes()[:4] == b"%PDF"


@pytest.mark.slow
def test_estimates_equal_a_direct_comparison(reference):
    """A workflow job and `reprocompare compare` with the same arguments agree exactly."""
    from reprocompare.corpora.conll import read_conll
    from reprocompare.models import build_model, spec_from_mapping
    from reprocompare.study.compare import run_comparison
    from reprocompare.splitters import load_split

    job = reference / "results" / "compare" / "tiny" / PAIR / "bcv" / "rep1"
    corpus = read_conll(reference / "results" / "corpora" / "tiny" / "corpus.conll")
    models = {name: build_model(spec_from_mapping(key, SMALL["models"][key]))
              for name, key in (("A", SMALL["comparisons"][PAIR]["a"]),
                                ("B", SMALL["comparisons"][PAIR]["b"]))}
    run = run_comparison(corpus, load_split(job / "split.json"), models, progress=None)
    estimates = json.loads((job / "estimates.json").read_text())
    for key in ("avg", "vote", "mixture", "fold_differences"):
        assert estimates[key] == pytest.approx(run.estimates.as_json()[key], abs=1e-12)


@pytest.mark.slow
def test_one_core_and_second_run_are_byte_identical(reference, tmp_path):
    again = tmp_path / "again"
    to_the_tables(again, SMALL, "--cores", "1")
    assert run_outputs(again) == run_outputs(reference)


@pytest.mark.slow
def test_interrupted_run_resumes_to_identical_tables(tmp_path_factory, tmp_path):
    config, reference, tagger = blocking_study(tmp_path_factory, tmp_path, to_the_tables)
    workdir = tmp_path / "interrupted"
    workdir.mkdir()
    (workdir / "study.yaml").write_text(yaml.safe_dump(config))
    # its own process group, interrupted as Ctrl-C does: SIGINT to snakemake and its jobs.
    # SIGINT's default action restored: pytest-xdist's workers ignore SIGINT, and an ignored
    # signal stays ignored in every process they start, so snakemake would run to the end
    process = subprocess.Popen([*SNAKEMAKE, "--directory", str(workdir), "--configfile",
                                str(workdir / "study.yaml"), "--cores", "2"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True, env=blocked(tagger),
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    job = psutil.Process(handshake(tagger / "fifo"))  # a training runs: the run is unfinished
    os.killpg(process.pid, signal.SIGINT)
    process.wait(timeout=300)
    job.wait(timeout=300)
    done = workdir / "results" / "compare"
    finished = len(list(done.glob("**/estimates.json")))
    assert finished < 4
    assert not (workdir / "results" / "tables" / "table4.csv").exists()
    result = to_the_tables(workdir, config)  # every training real now
    assert tables(workdir) == tables(reference)
    # only the unfinished jobs ran again (a job cut off after its last write counts as unfinished)
    rerun = job_counts(result.stdout + result.stderr)["compare"]
    assert 4 - finished <= rerun <= 4 - finished + 2


@pytest.mark.slow
def test_new_repetitions_leave_existing_results_alone(reference, tmp_path):
    """A repetition's results do not depend on R: at R = 3, run from scratch, the reference's
    (R = 2) last repetition of every strategy, the one whose place changes, is the same bytes
    (growing a finished study, which keeps its files as they are, is tests/test_growth.py's)."""
    more = dict(SMALL, repetitions=3)
    workdir = tmp_path / "more"
    old = reference / "results"
    last = sorted(old.glob("compare/**/rep1/estimates.json"))
    assert len(last) == 3  # hold-out, repeated hold-out, BCV
    snakemake(workdir, more, *(str(path.relative_to(reference)) for path in last))
    for path in last:
        assert (workdir / "results" / path.relative_to(old)).read_bytes() == path.read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize("change,key", [
    ({"repetitions": 0}, "repetitions"),
    ({"bogus": 1}, "bogus"),
    ({"strategies": {"bcv": {"m": 0}}}, "strategies.bcv.m"),
    ({"strategies": {"repeated_holdout": {"k": [0]}}}, "strategies.repeated_holdout.k.0"),
    ({"comparisons": {"crf": {"a": "nope", "b": "crf_iobes", "corpora": ["tiny"]}}},
     "comparisons.crf.a"),
    ({"corpora": {"tiny": {"path": "missing.conll"}}}, "corpora.tiny.path"),
    ({"models": {"crf_iob2": {"type": "crf", "c1": -1}, "crf_iobes": {"type": "crf"}}},
     "models.crf_iob2.c1"),
])
def test_config_errors_stop_before_any_job(tmp_path, change, key):
    result = snakemake(tmp_path, {**TINY, **change}, "-n", check=False)
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    assert f"study.yaml: {key}: " in output
    assert not (tmp_path / "results").exists()


@pytest.mark.slow
def test_paper_config_dry_run(conll2002):
    """The paper's study plans one training job per comparison, strategy and repetition.

    Planned at R = 20, not its 1000: the DAG is the same per repetition, and the 9,000 jobs of
    the full R took 94 s of a loaded suite to plan (how long the full DAG takes to build is
    measured by benchmarks/bench_scale.py, benchmarks/RESULTS.md "Scale")."""
    from reprocompare.study.config import load_yaml

    paper = load_yaml(ROOT / "config" / "paper.yaml")
    assert paper["repetitions"] == 1000 and len(paper["comparisons"]) == 3 and \
        len(paper["strategies"]) == 3
    result = conftest.run([*SNAKEMAKE, "-n", "--quiet", "rules", "--configfile",
                           str(ROOT / "config" / "paper.yaml"), "--config", "repetitions=20"],
                          cwd=ROOT)
    assert result.returncode == 0, result.stderr[-2000:]
    counts = job_counts(result.stdout)
    # 3 comparisons x 3 strategies x R repetitions (9,000 at R = 1000)
    # each training job makes its own split: no split jobs (they would add 2 x 3 x R)
    assert counts["compare"] == 3 * 3 * 20 and "splits" not in counts


@pytest.mark.slow
def test_lint_and_format():
    lint = conftest.run([*SNAKEMAKE, "--lint"], cwd=ROOT)
    assert lint.returncode == 0 and "Congratulations" in lint.stdout + lint.stderr, \
        lint.stdout[-3000:] + lint.stderr[-3000:]
    files = [ROOT / "Snakefile", *sorted((ROOT / "workflow" / "rules").glob("*.smk"))]
    snakefmt = Path(sys.executable).with_name("snakefmt")
    check = subprocess.run([str(snakefmt), "--check", *map(str, files)], capture_output=True,
                           text=True, env={**os.environ, "PYTHONPATH": ""})
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.slow
def test_slurm_profile_dry_run(conll2002):
    """The cluster profile loads with the SLURM executor plugin and plans the paper's study."""
    # R = 20 instead of 1000, as test_paper_config_dry_run: the profile is what is tested here
    result = conftest.run([*SNAKEMAKE, "--profile", str(ROOT / "profiles" / "slurm"),
                           "--configfile", str(ROOT / "config" / "paper.yaml"), "--config",
                           "repetitions=20", "-n", "--quiet", "rules"], cwd=ROOT)
    assert result.returncode == 0, result.stderr[-2000:]
    assert job_counts(result.stdout)["compare"] == 3 * 3 * 20


def test_config_readme_is_generated_from_the_schema():
    from reprocompare.study.config import schema_markdown

    assert (ROOT / "config" / "README.md").read_text() == schema_markdown(), \
        "regenerate it: .venv/bin/python -m reprocompare.study.config > config/README.md"


def test_shipped_configs_are_valid(conll2002):
    from reprocompare.study.config import load_yaml, validate

    for name in ("config.yaml", "paper.yaml"):
        config = validate(load_yaml(ROOT / "config" / name), name)
        assert config["comparisons"] and config["repetitions"] >= 2


@pytest.mark.slow
def test_killed_snakemake_needs_unlock_then_finishes_identically(tmp_path_factory, tmp_path):
    """After an interruption: a killed snakemake leaves its lock; --unlock, then rerun."""
    config, reference, tagger = blocking_study(tmp_path_factory, tmp_path, to_the_tables)
    workdir = tmp_path / "killed"
    workdir.mkdir()
    (workdir / "study.yaml").write_text(yaml.safe_dump(config))
    # its own session: SIGKILL to the group is a lost terminal or node (jobs die with it)
    process = subprocess.Popen([*SNAKEMAKE, "--directory", str(workdir), "--configfile",
                                str(workdir / "study.yaml"), "--cores", "2"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True, env=blocked(tagger))
    job = psutil.Process(handshake(tagger / "fifo"))  # a training runs: the run is unfinished
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=60)
    # a SIGKILLed job cannot end a command's training (its own session; the shell forks it, so
    # the kernel's death signal, set on the shell, does not reach it): a lost node takes it too
    job.kill()
    assert not (workdir / "results" / "tables" / "table4.csv").exists()
    locked = snakemake(workdir, config, check=False)
    assert locked.returncode != 0 and "--unlock" in locked.stdout + locked.stderr
    snakemake(workdir, config, "--unlock")
    to_the_tables(workdir, config)
    assert tables(workdir) == tables(reference)
